//! Parameter block of the DenseToSparse kernels (`kernels/dense_to_sparse.cu`): one block for
//! every stage. A "line" is a row of A (CSR, COO targets) or a column (CSC). Indices are of the
//! type the kernel names (`_i32` / `_i64`); `base` (0 or 1) is added to every index written.

/// The dense input, the sparse output's arrays, the scan's scratch and the sizes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DenseToSparseParams {
    /// A: `rows x cols`, entry (r, c) at `r * ld + c` (`row_major`) or `c * ld + r`.
    pub dense: u64,
    /// `lines + 1` offsets: counts after `count`, starts (with the base) after the scan.
    pub offsets: u64,
    /// COO row indices (0 for CSR and CSC: the offsets say the line).
    pub major: u64,
    /// Column indices (CSR, COO), row indices (CSC); Blocked-ELL: the user's block-column indices.
    pub minor: u64,
    pub values: u64,
    /// Scratch: one index per scan chunk of the offsets.
    pub chunk_sums: u64,
    /// Scratch: A's nonzero bitmap, `words` 32-bit words a line (bit j % 32 of word j / 32),
    /// written by the analysis and read by the convert.
    pub bitmap: u64,
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
    pub lines: i64,
    /// Elements of a line: `cols` for rows, `rows` for columns.
    pub line_len: i64,
    pub base: i64,
    pub chunks: i64,
    /// Bitmap words of a line: `ceil(line_len / 32)`.
    pub words: i64,
    /// Blocked-ELL: the block size and the `ellCols` of the value array (0 otherwise).
    pub block_size: i64,
    pub ell_cols: i64,
    pub row_major: i32,
    /// 1: lines are A's columns (a CSC target).
    pub csc: i32,
}
