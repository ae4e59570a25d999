//! Parameter block of the column order kernels (`kernels/spmv_columns.cu`): FastLoad's column
//! sort applied to op(A) read as rows. Preprocess counts each column's entries, groups the columns
//! by count class (busiest first, the original order kept inside a class) and writes a copy of
//! the column indices relabelled to that order; every call then gathers x into the same order, and
//! the SpMV kernels read the copy and the gathered x. The busy columns of a power-law matrix,
//! scattered over x, then share cache lines. The entries' positions are unchanged, so the sums
//! are added in the same order as without the relabelling: the result is bitwise the same.
//! The stages and the choice are described in `src/ops/spmv/columns.rs`.

use super::spmm::SpmmRows;

/// Count classes: a column of c >= 1 entries has class `1 + 2 * floor(log2 c) + h`, h the bit
/// after the leading one (two classes per octave); an empty column has class 0. So 0 ..= 64.
pub const SPMV_COL_CLASSES: u32 = 65;
/// Bits of the sort key per radix pass; the key (64 - class) fits one pass.
pub const SPMV_COL_RADIX_BITS: u32 = 8;
/// Threads per block of every column order kernel (`1 << SPMV_COL_RADIX_BITS`: the sort gives
/// thread `d` of a block digit `d`).
pub const SPMV_COL_BLOCK: u32 = 256;
/// Rounds of `SPMV_COL_BLOCK` items one sort block and one scan block walk.
pub const SPMV_COL_ROUNDS: u32 = 16;
/// Columns per line of x in the statistics (one warp's worth).
pub const SPMV_COL_LINE: u32 = 32;

/// The build's statistics, `SPMV_COL_CLASSES` u64 each (at `stats`): columns per class, entries
/// per class, and lines of `SPMV_COL_LINE` columns per class of their busiest column.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvColumnsParams {
    /// op(A)'s rows (offsets are not read): entries `0 .. nnz` of `a.cols`.
    pub a: SpmmRows,
    pub k: i64,
    pub nnz: i64,
    /// u32 per column: its entry count, later its new position (rank).
    pub counts: u64,
    pub stats: u64,
    // One radix pass: keys and positions in and out (u32 per column), the digit counts per sort
    // tile, and the scan's block sums.
    pub keys_in: u64,
    pub pos_in: u64,
    pub keys_out: u64,
    pub pos_out: u64,
    pub sort_counts: u64,
    pub sort_tiles: i64,
    pub scan_data: u64,
    pub scan_n: i64,
    pub scan_sums: u64,
    pub scan_blocks: i64,
    /// u32 per new position: the column that moved there (the sort's output).
    pub order: u64,
    /// op(A)'s column indices relabelled (A's index type, A's base).
    pub cols_out: u64,
    /// x, and x gathered into the new order (`k` values of `x_bytes` bytes).
    pub x: u64,
    pub x_out: u64,
    pub x_bytes: i64,
    /// The order, the relabelled indices and the gathered x are trusted only while the 8 bytes at
    /// `token_at` hold `token` (stamped last by preprocess). Otherwise the gather writes x and A's
    /// own indices in their place, so the SpMV kernels read the natural order: the same result.
    pub token_at: u64,
    pub token: u64,
}
