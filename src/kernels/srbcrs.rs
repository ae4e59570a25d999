//! Launchers for `kernels/srbcrs_spmm.cu`: the SR-BCRS build stages and the int8 SpMM.

use super::params::srbcrs::{SrBcrsBuildParams, SrBcrsSpmmParams};
use super::{grid_for, launch};
use crate::context::Handle;
use crate::error::Result;
use crate::types::DataType;

const FAMILY: &str = "srbcrs_spmm";
/// Vectors per stride block: the k depth of the int8 mma (`STRIDE` in the kernel).
pub const STRIDE: i64 = 32;
/// Threads of a build block (`BUILD_BLOCK`).
const BUILD_BLOCK: u32 = 256;
/// Warps of an SpMM block, one vector row each (`WARPS`).
const WARPS: u32 = 4;
/// Columns of B and C one warp covers (`TILE_N`).
pub const TILE_N: i64 = 64;
/// The most blocks along a grid's y extent (the driver's limit).
pub const MAX_GRID_Y: i64 = 65_535;

/// Writes each vector row's distinct column count into `p.counts`, and 1 into the flag after them
/// when a row's columns are unsorted, repeated or out of range.
pub fn count(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    launch(h, FAMILY, "oxs_srbcrs_count", (grid_for(p.vector_rows as u64, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// Writes the vectors' columns and values (over `p.vec_ptr`; `p.vec_val` must be zeroed).
pub fn fill(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    launch(h, FAMILY, "oxs_srbcrs_fill", (grid_for(p.vector_rows as u64, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// C = alpha A B + beta C; `out` is C's type (CUDA_R_32I or CUDA_R_32F). The caller checked that
/// the grid fits (`n <= TILE_N * MAX_GRID_Y`, `vector_rows <= WARPS * (2^31 - 1)`).
pub fn spmm(h: &Handle, p: &SrBcrsSpmmParams, out: DataType) -> Result<()> {
    let name = if out == DataType::CUDA_R_32I { "oxs_srbcrs_spmm_i8_i32" } else { "oxs_srbcrs_spmm_i8_f32" };
    let grid_x = (p.vector_rows as u64).div_ceil(WARPS as u64) as u32;
    let grid_y = (p.n as u64).div_ceil(TILE_N as u64) as u32;
    launch(h, FAMILY, name, (grid_x, grid_y, 1), WARPS * 32, 0, p)
}
