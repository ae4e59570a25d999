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

/// Up to this many tiles a radix pass runs no scan kernel: each scatter block sums the digit counts
/// it needs itself (exported to the generated header for `kernels/csr2csc_radix.cu`).
pub const CSR2CSC_RADIX_SCAN_IN_SCATTER_TILES: u32 = 40;

/// Parameter block of the radix transpose (`kernels/csr2csc_radix.cu`): a stable LSD radix sort
/// of the entry numbers by column, 8 bits a pass, then the rows, values and column offsets
/// written from the sorted entry numbers. The launcher sets the pass's arrays and digit.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Csr2cscRadixParams {
    pub csr_row_ptr: u64,
    pub csr_col_ind: u64,
    pub csr_val: u64,
    pub csc_val: u64,
    pub csc_col_ptr: u64,
    pub csc_row_ind: u64,
    /// The entry numbers a kernel reads, u32: the previous pass's order (0 for the first pass:
    /// CSR order, the identity); for the rows and the finish, the sorted order.
    pub src: u64,
    /// Where a pass writes its entry numbers, u32.
    pub dst: u64,
    /// The pass's digit counts, i32 `counts[d * tiles + t]`, scanned in place into output starts
    /// (with at most `CSR2CSC_RADIX_SCAN_IN_SCATTER_TILES` tiles, read as counts by the scatter).
    pub counts: u64,
    /// Where the next pass keeps its 256 digit totals (i32), which this pass's scan clears (0: no
    /// next pass); the clearing kernel clears the first pass's. A pass keeps its own after its
    /// counts, in one of two sets by the pass's parity, so that a pass never clears its own.
    pub next_totals: u64,
    pub m: i64,
    pub n: i64,
    pub nnz: i64,
    pub base: i64,
    /// Tiles of consecutive entries a pass cuts its input into (a block each).
    pub tiles: i64,
    /// Row hints, kept in cscColPtr before the finish writes it: hint j is the row of entry
    /// `j * hint_stride`; `hints` of them.
    pub hint_stride: i64,
    pub hints: i64,
    /// The column's digits above the first pass's, one u16 an entry in the first pass's output
    /// order (0: none): the first pass writes them where it cannot carry them above the entry
    /// numbers, and the second reads them there instead of gathering the column.
    pub side: u64,
    /// The pass's digit: bits `shift .. shift + 8` of the column.
    pub shift: i32,
    /// 1: cscVal is written (CUSPARSE_ACTION_NUMERIC); 0: it is left untouched.
    pub numeric: i32,
}
