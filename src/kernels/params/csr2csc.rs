//! Parameter block of the Csr2cscEx2 kernels (`kernels/csr2csc.cu`): one block for every stage.
//!
//! Indices are 32-bit (the legacy API's `int`); `base` (0 or 1) is subtracted from every index read
//! and added to every index written.

/// The CSR input, the CSC output, the scratch and the sizes, as every stage reads them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Csr2cscParams {
    pub csr_row_ptr: u64,
    pub csr_col_ind: u64,
    pub csr_val: u64,
    pub csc_val: u64,
    pub csc_col_ptr: u64,
    pub csc_row_ind: u64,
    /// Scratch: one u32 entry number per stored entry, in the slot the entry claimed.
    pub perm: u64,
    /// Scratch: one i32 per scan chunk of the column offsets.
    pub chunk_sums: u64,
    pub m: i64,
    pub n: i64,
    pub nnz: i64,
    pub base: i64,
    /// Scan chunks over the `n + 1` column offsets.
    pub chunks: i64,
    /// Chunks of entries of the long-column stages, a power of two from 256 to 4096; a column of
    /// more entries than this is long.
    pub long_chunks: i64,
    /// Columns a sort block takes at a time, at most its threads (a thread a column).
    pub sort_chunk: i64,
    /// What `fill_offsets` writes: 0 before counting, the base for a matrix with no entries.
    pub fill: i32,
    /// 1: cscVal is written (CUSPARSE_ACTION_NUMERIC); 0: it is left untouched.
    pub numeric: i32,
}
