//! Launchers for `kernels/sparse_to_dense.cu`: the zero-fill of B and one scatter per sparse format.

use super::name::KernelName;
use super::params::sparse_to_dense::*;
use super::{grid_for, launch, BLOCK};
use crate::context::Handle;
use crate::descr::{DnMat, SpMat};
use crate::error::Result;
use crate::kernel_name;
use crate::types::{DataType, IndexType, Order};

const FAMILY: &str = "sparse_to_dense";
/// Threads of a warp: the compressed and BSR kernels give one warp to each (block) row.
const WARP: u64 = 32;

fn out(b: &DnMat) -> SparseToDenseOut {
    SparseToDenseOut {
        values: b.values,
        rows: b.rows,
        cols: b.cols,
        ld: b.ld,
        row_major: (b.order == Order::OXSPARSE_ORDER_ROW) as i32,
        pad: 0,
    }
}

fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

fn name(stage: &str, value: DataType, index: IndexType) -> KernelName {
    kernel_name!("oxs_s2d_{stage}_{}_{}", value.kernel_suffix(), index_suffix(index))
}

/// Zeroes B's `rows x cols` logical entries.
pub fn zero_fill(h: &Handle, b: &DnMat) -> Result<()> {
    let p = SparseToDenseZeroParams { b: out(b) };
    let n = (b.rows * b.cols) as u64;
    let kernel = kernel_name!("oxs_s2d_zero_{}", b.value_type.kernel_suffix());
    launch(h, FAMILY, &kernel, (grid_for(n, BLOCK), 1, 1), BLOCK, 0, &p)
}

pub fn scatter_coo(h: &Handle, a: &SpMat, b: &DnMat) -> Result<()> {
    let p = SparseToDenseCooParams {
        b: out(b),
        row_ind: a.arrays.offsets,
        col_ind: a.arrays.indices,
        values: a.arrays.values,
        nnz: a.nnz,
        base: a.index_base.offset(),
    };
    let grid = grid_for(a.nnz as u64, BLOCK);
    launch(h, FAMILY, &name("coo", a.value_type, a.index_type), (grid, 1, 1), BLOCK, 0, &p)
}

/// CSR or CSC: one warp per row (CSR) or column (CSC).
pub fn scatter_compressed(h: &Handle, a: &SpMat, b: &DnMat, csc: bool) -> Result<()> {
    let lines = if csc { a.cols } else { a.rows };
    let p = SparseToDenseCompressedParams {
        b: out(b),
        offsets: a.arrays.offsets,
        indices: a.arrays.indices,
        values: a.arrays.values,
        lines,
        base: a.index_base.offset(),
        csc: csc as i32,
        pad: 0,
    };
    let grid = grid_for(lines as u64 * WARP, BLOCK);
    launch(h, FAMILY, &name("compressed", a.value_type, a.index_type), (grid, 1, 1), BLOCK, 0, &p)
}

/// BSR: one warp per block row.
#[allow(clippy::too_many_arguments)]
pub fn scatter_bsr(h: &Handle, a: &SpMat, b: &DnMat, brows: i64, row_block: i64, col_block: i64, block_order: Order) -> Result<()> {
    let p = SparseToDenseBsrParams {
        b: out(b),
        offsets: a.arrays.offsets,
        col_ind: a.arrays.indices,
        values: a.arrays.values,
        brows,
        row_block,
        col_block,
        base: a.index_base.offset(),
        col_major_blocks: (block_order == Order::OXSPARSE_ORDER_COL) as i32,
        pad: 0,
    };
    let grid = grid_for(brows as u64 * WARP, BLOCK);
    launch(h, FAMILY, &name("bsr", a.value_type, a.index_type), (grid, 1, 1), BLOCK, 0, &p)
}

/// Blocked-ELL: one thread per slot of the `rows x ell_cols` value array.
pub fn scatter_bell(h: &Handle, a: &SpMat, b: &DnMat, block_size: i64, ell_cols: i64) -> Result<()> {
    let p = SparseToDenseBellParams {
        b: out(b),
        col_ind: a.arrays.indices,
        values: a.arrays.values,
        block_size,
        ell_cols,
        base: a.index_base.offset(),
    };
    let grid = grid_for((a.rows * ell_cols) as u64, BLOCK);
    launch(h, FAMILY, &name("bell", a.value_type, a.index_type), (grid, 1, 1), BLOCK, 0, &p)
}
