//! Parameter blocks of the SparseToDense kernels (`kernels/sparse_to_dense.cu`).
//!
//! Every kernel writes into the same dense output, described once by `SparseToDenseOut`; the
//! sparse side differs per format. Indices are read with the index type named by the kernel
//! (`_i32` / `_i64`); `base` is the index base (0 or 1) subtracted from every stored index.

/// The dense matrix B: `rows x cols`, leading dimension `ld`, in row- or column-major order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SparseToDenseOut {
    pub values: u64,
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
    /// 1: entry (r, c) is at `r * ld + c`; 0: at `c * ld + r`.
    pub row_major: i32,
    pub pad: i32,
}

/// Zero-fill of B's logical `rows x cols` entries (the gap between `rows`/`cols` and `ld` is left alone).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SparseToDenseZeroParams {
    pub b: SparseToDenseOut,
}

/// COO: `nnz` (row, column, value) triples, in any order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SparseToDenseCooParams {
    pub b: SparseToDenseOut,
    pub row_ind: u64,
    pub col_ind: u64,
    pub values: u64,
    pub nnz: i64,
    pub base: i64,
}

/// CSR (`csc == 0`) or CSC (`csc == 1`): `lines + 1` offsets over the major dimension (rows for
/// CSR, columns for CSC), and per entry its minor index and value.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SparseToDenseCompressedParams {
    pub b: SparseToDenseOut,
    pub offsets: u64,
    pub indices: u64,
    pub values: u64,
    pub lines: i64,
    pub base: i64,
    pub csc: i32,
    pub pad: i32,
}

/// BSR: `brows + 1` block-row offsets, one block-column index per stored block, and per block
/// `row_block * col_block` values, row-major inside the block unless `col_major_blocks`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SparseToDenseBsrParams {
    pub b: SparseToDenseOut,
    pub offsets: u64,
    pub col_ind: u64,
    pub values: u64,
    pub brows: i64,
    pub row_block: i64,
    pub col_block: i64,
    pub base: i64,
    pub col_major_blocks: i32,
    pub pad: i32,
}

/// Blocked-ELL: values are `rows x ell_cols` row-major; block row `br` stores `ell_cols /
/// block_size` block-column indices at `col_ind[br * (ell_cols / block_size) ..]`; -1 is an empty slot.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SparseToDenseBellParams {
    pub b: SparseToDenseOut,
    pub col_ind: u64,
    pub values: u64,
    pub block_size: i64,
    pub ell_cols: i64,
    pub base: i64,
}
