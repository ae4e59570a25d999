//! Parameter blocks of the SR-BCRS kernels (`kernels/srbcrs_spmm.cu`): the build from CSR and the
//! integer SpMM. The layout they share is docs/design/srbcrs.md's.

/// The CSR or Blocked-ELL source and the SR-BCRS arrays, as both build stages read them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SrBcrsBuildParams {
    /// CSR row offsets (`rows + 1`), column indices and values (the descriptor's arrays); a
    /// Blocked-ELL source has no offsets, its block columns in `col_ind` (negative: an empty
    /// slot) and its `rows x ell_cols` row-major values in `values`.
    pub row_ptr: u64,
    pub col_ind: u64,
    pub values: u64,
    /// Validate and count stages: i32 per (vector row, chunk), the chunk's distinct columns;
    /// then one i32 flag, set to 1 when a row's columns are not strictly increasing or lie outside
    /// `[0, cols)`.
    pub counts: u64,
    /// Fill stage: i32 per (vector row, chunk), where the chunk's first vector goes.
    pub chunk_start: u64,
    /// Fill stage: i32 per vector row plus one, where its vectors start (multiples of the stride).
    pub vec_ptr: u64,
    /// Fill stage: i32 column of every stored vector; int8 values, `vector_length` per vector.
    pub vec_col: u64,
    pub vec_val: u64,
    pub rows: i64,
    pub cols: i64,
    /// `ceil(rows / vector_length)`.
    pub vector_rows: i64,
    /// Subtracted from every CSR offset and index read (0 or 1).
    pub base: i64,
    /// A Blocked-ELL source's block size and element columns (`ellCols`); 0 for CSR.
    pub ell_block: i64,
    pub ell_cols: i64,
    /// Chunks of columns per vector row, each `chunk_width` columns wide (the last may be
    /// narrower): a thread merges one chunk, so that a few long vector rows still fill the GPU.
    pub chunks: i64,
    pub chunk_width: i64,
    pub vector_length: i32,
    /// 1 when the CSR offsets are 64-bit (else 32-bit); likewise for the column indices.
    pub offsets_64: i32,
    pub indices_64: i32,
    /// Bits of a value, in the CSR source and the object alike: 4 (two to a byte, low nibble
    /// first), 8 or 16. The stride is 64 vectors for 4, 32 otherwise.
    pub value_bits: i32,
}

/// C = alpha * rowScale * A * B + beta * C with A in SR-BCRS (int4, int8 or int16), B dense
/// (int4, int8 or int16, at most A's width), C int32 or FP32. The kernel's name fixes the types.
/// Dense elements are addressed as `row * row_stride + col * col_stride` (either order).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SrBcrsSpmmParams {
    pub vec_ptr: u64,
    pub vec_col: u64,
    pub vec_val: u64,
    pub b: u64,
    pub c: u64,
    /// FP32 per row of C (FP32 output only), or 0 for none.
    pub row_scale: u64,
    pub alpha: super::Scalar,
    pub beta: super::Scalar,
    /// A's rows (C's rows), B's columns (C's columns).
    pub m: i64,
    pub n: i64,
    pub vector_rows: i64,
    pub b_row_stride: i64,
    pub b_col_stride: i64,
    pub c_row_stride: i64,
    pub c_col_stride: i64,
    pub vector_length: i32,
    /// 1 when eight elements of a B row can be read at once (row-major, its leading dimension a
    /// multiple of 8 and its address of 8 elements' size, rows under 2^31 bytes apart); else B is
    /// read element by element.
    pub b_aligned: i32,
    /// Warps sharing a vector row's stride blocks (1, 2, 4 or 8: a divisor of a block's warps).
    pub splits: i32,
    /// Warps of a block (1, 2, 4 or 8, a multiple of `splits`; the launch's, read by the launcher).
    pub block_warps: i32,
    /// 1 when C is row-major with 16-byte aligned rows (its address and leading dimension): whole
    /// column tiles are stored 4 elements a lane.
    pub c_rows_aligned: i32,
}
