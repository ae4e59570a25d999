//! Parameter blocks of BRCV (Banded Row Column Value, `kernels/brcv.cu`): its build from CSR rows
//! and its SpMM. The format is described in docs/design/brcv.md.

use super::spmm::{SpmmDense, SpmmRows, SpmmShape};

/// Rows of op(A) per row block: the format's unit and the SpMM kernel's tile of rows.
pub const BRCV_ROWS: u32 = 64;
/// Threads per block of the SpMM kernel: 4 warps of 16 rows (2 groups of 8) x 16 column groups.
pub const BRCV_THREADS: u32 = 128;
/// Threads per block of the transparent path's refresh: 8 warps, each a row at a time.
pub const BRCV_REFRESH_THREADS: u32 = 256;
/// Threads per block of the build's scans.
pub const BRCV_SCAN_BLOCK: u32 = 256;
/// Rounds of `BRCV_SCAN_BLOCK` values one scan block walks.
pub const BRCV_SCAN_ROUNDS: u32 = 8;
/// The widest band a row block stores (diagonal offsets).
pub const BRCV_MAX_WIDTH: u32 = 1024;
/// What a far entry costs against one stored band slot, when the build chooses a block's band: a
/// band costs rows x width slots (holes included), each entry outside it `BRCV_FAR_COST`. So a
/// block keeps a band only where its entries fill at least 1 / `BRCV_FAR_COST` of it, and a
/// matrix that is not banded costs little more memory than CSR.
pub const BRCV_FAR_COST: u32 = 16;
/// Candidate bands the build weighs per block: the span of all its entries, then windows of
/// half-width `BRCV_MAX_WIDTH / 2 >> i` (i = 0 .. BRCV_WINDOWS - 1: 512 down to 0) around its
/// centre, each narrowed to the entries inside (and no band at all).
pub const BRCV_WINDOWS: u32 = 11;

/// BRCV in device memory. Row block `i` covers rows `i * BRCV_ROWS ..` (the last may be short) and
/// the diagonal offsets (column - row) `lo[i] .. lo[i] + width[i]`; its values lie dense at
/// `values + start[i]`, `width[i] x BRCV_ROWS` offset-major (value of row r0 + r, offset lo + t at
/// `t * BRCV_ROWS + r`, so that a chunk of offsets is one contiguous run for the SpMM; zero where A
/// has no entry, and in the rows past m). Entries outside the blocks' bands are the far entries, a
/// CSR of their own (offsets per row, absolute columns).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BrcvFormat {
    pub m: i64,
    pub k: i64,
    /// ceil(m / BRCV_ROWS).
    pub blocks: i64,
    /// i64 per block: the band's first diagonal offset.
    pub lo: u64,
    /// u32 per block: the band's width in offsets (0: no band, every entry is far).
    pub width: u64,
    /// u64 per block + 1: the block's first value (exclusive scan of BRCV_ROWS x width).
    pub start: u64,
    /// Band values, of A's value type.
    pub values: u64,
    /// u64 per row + 1: the row's first far entry (exclusive scan of far entries per row).
    pub far_offsets: u64,
    /// i64 per far entry: its column.
    pub far_cols: u64,
    /// Far values, of A's value type.
    pub far_values: u64,
}

/// The build (`oxs_brcv_*`): `a` is op(A)'s CSR rows (opA = N), m x k.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BrcvBuildParams {
    pub a: SpmmRows,
    pub fmt: BrcvFormat,
    /// u64: the widest band of any block (atomic maximum; zeroed by the caller).
    pub widest: u64,
    /// The u64 array being scanned, its length, chunk sums and chunk count.
    pub scan_data: u64,
    pub scan_n: i64,
    pub scan_sums: u64,
    pub scan_blocks: i64,
}

/// The SpMM (`oxs_spmm_brcv_*`): C = alpha * A * op(B) + beta * C; grid x over row blocks, y over
/// tiles of columns, z over batches of C (A shared).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmBrcvParams {
    pub shape: SpmmShape,
    pub b: SpmmDense,
    pub c: SpmmDense,
    pub fmt: BrcvFormat,
}
