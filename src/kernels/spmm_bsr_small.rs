//! Launcher for `kernels/spmm_bsr_small.cu`: BSR SpMM of small square blocks (2 x 2 to 4 x 4) in
//! FP32 or FP64 on CUDA cores, a group of lanes per block row and column tile, several blocks'
//! loads in flight a step (docs/design/blocked-spmm.md).

use super::launch;
use super::params::spmm::SpmmBlockedParams;
use super::spmm::{index_suffix, Types, BLOCK};
use super::MAX_GRID;
use crate::context::Handle;
use crate::error::Result;
use crate::kernel_name;
use crate::types::IndexType;

/// Lanes that share a block row (`GROUP` in the kernel).
pub const GROUP: u64 = 8;

/// Consecutive columns of C a lane holds (`LANE_COLUMNS` in the kernel): one 16-byte load of a B
/// row in FP32, two in FP64.
pub const LANE_COLUMNS: u64 = 4;

/// C = alpha A op(B) + beta C for a BSR A of `size` x `size` blocks; a group per block row and
/// `GROUP * LANE_COLUMNS` columns of C, the grid striding over its limit.
pub fn launch_small_blocks(h: &Handle, p: &SpmmBlockedParams, size: u8, types: Types, index: IndexType) -> Result<()> {
    let order = if p.col_major_blocks != 0 { "col" } else { "row" };
    let name = kernel_name!("oxs_spmm_bsr_small_{}_{}_b{size}_{order}", types.suffix(), index_suffix(index));
    let width = GROUP * LANE_COLUMNS;
    let block_rows = (p.shape.m / i64::from(size)).max(0) as u64;
    let items = block_rows * (p.shape.n.max(1) as u64).div_ceil(width);
    let blocks = items.div_ceil(u64::from(BLOCK) / GROUP).clamp(1, MAX_GRID) as u32;
    launch(h, "spmm_bsr_small", &name, (blocks, 1, 1), BLOCK, 0, p)
}
