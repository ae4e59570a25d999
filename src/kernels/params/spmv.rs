//! Parameter blocks of the SpMV kernels (`kernels/spmv.cu`, `kernels/spmv_formats.cu`):
//! y = alpha * op(A) * x + beta * y.
//!
//! op(A) given as rows (CSR with opA = N, CSC with T/H, or a row view built in the workspace) is
//! read by the tile kernel: the entries are cut into tiles of `SpmvTiles::size` consecutive
//! entries, one warp each, whatever the rows' lengths, so long and short rows cost the same per
//! entry. A row that crosses tile boundaries is finished by the tile where it ends, which adds the
//! partial sums of the tiles before in tile order, so the result does not depend on which warp ran
//! first (no atomics touch values).

use super::spmm::SpmmRows;
use super::Scalar;

/// Threads per block of every SpMV kernel.
pub const SPMV_BLOCK: u32 = 256;
/// Consecutive entries each lane of the tile kernel reads per step (one wide load per array): a
/// warp's step is a chunk of `32 * SPMV_QUAD` entries, and tile sizes are multiples of it.
pub const SPMV_QUAD: u32 = 4;

/// The problem: op(A) is `m x k`, x has k elements, y has m.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvShape {
    pub m: i64,
    pub k: i64,
    pub x: u64,
    pub y: u64,
    pub alpha: Scalar,
    pub beta: Scalar,
}

/// Where the tile kernel's bookkeeping lies in the workspace.
///
/// `tile_rows` (optional, built by `preprocess`): for tile t, the first row starting at or after
/// entry `t * size` (`count + 1` values of i64). It is trusted only when the 8 bytes at
/// `token_at` equal `token`; otherwise each warp finds its rows by a search of the offsets.
/// `partials[t]` (compute type): the sum, within tile t, of the row left open at its end (one
/// that continues into tile t + 1); `ready[t]` (u64) holds `epoch` once tile t has written it. The
/// tile where such a row ends adds the partials of the tiles it began in and ran through. A fresh
/// epoch per call means flags left by earlier calls never match, so nothing needs clearing.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvTiles {
    /// Tiles of the entries: ceil(nnz / size).
    pub count: i64,
    /// Entries of op(A) covered by the tiles (A's nnz).
    pub nnz: i64,
    /// Entries per tile: a power of two from 32 * SPMV_QUAD to 65536 (positions in a tile are
    /// 32-bit).
    pub size: i64,
    /// 1 when whole chunks may be read with wide loads: the column and value arrays are aligned to
    /// `SPMV_QUAD` elements and the values are not permuted.
    pub wide: i32,
    pub pad: i32,
    pub tile_rows: u64,
    pub token_at: u64,
    pub token: u64,
    pub partials: u64,
    pub ready: u64,
    pub epoch: u64,
}

/// The tile kernel and `tile_rows` (which builds `tiles.tile_rows`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvRowsParams {
    pub shape: SpmvShape,
    pub a: SpmmRows,
    pub tiles: SpmvTiles,
}

/// Sliced-ELL: slice s holds rows `s * slice_size ..`, its slots `offsets[s] - base ..
/// offsets[s + 1] - base` stored column by column (`slice_size` consecutive slots per ELL column);
/// padding slots have column index -1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvSellParams {
    pub shape: SpmvShape,
    pub offsets: u64,
    pub cols: u64,
    pub values: u64,
    pub base: i64,
    pub slice_size: i64,
}

/// BSR: block row i holds blocks `offsets[i] - base .. offsets[i + 1] - base`; block b lies in
/// block column `col_ind[b] - base`, its `row_block x col_block` values at `values + b * row_block
/// * col_block`, row-major or column-major inside the block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvBsrParams {
    pub shape: SpmvShape,
    pub offsets: u64,
    pub col_ind: u64,
    pub values: u64,
    pub base: i64,
    pub row_block: i64,
    pub col_block: i64,
    pub col_major_blocks: i32,
    pub pad: i32,
}

/// The legacy `bsrxmv`: `mask_size` block rows `mask[t] - base` (32-bit) of `bsr`, block row i
/// holding blocks `bsr.offsets[i] - base .. ends[i] - base`. `bsr.shape.m` is all of y's rows; only
/// the named block rows' rows are written.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvBsrxParams {
    pub bsr: SpmvBsrParams,
    pub ends: u64,
    pub mask: u64,
    pub mask_size: i64,
}

/// Entries each lane of the vector kernel loads per round trip (its loads in flight).
pub const SPMV_VECTOR_UNROLL: u32 = 4;
/// Entries each lane of an FP32 band kernel loads per round trip: twice `SPMV_VECTOR_UNROLL`, with
/// half the lanes per row (`kernels::spmv::band_lanes`), so a multiprocessor holds twice the rows
/// in flight at the same 32 registers (a band entry in flight is its value and a 32-bit offset).
/// FP64 band kernels keep `SPMV_VECTOR_UNROLL` (their values would need the registers).
pub const SPMV_BAND_UNROLL_F32: u32 = 8;
/// Buckets of the row-length histogram: bucket 0 holds empty rows, bucket b >= 1 rows of
/// 2^(b-1) ..= 2^b - 1 entries.
pub const SPMV_HIST_BUCKETS: u32 = 64;

/// Entries of a huge row one block takes (four round trips of the block): a huge row is cut into
/// chunks of this many entries, each a block's work, whose partial sums the last block of the row
/// to finish adds in chunk order.
pub const SPMV_HUGE_CHUNK: u32 = 4096;

/// The vector kernel's schedule, chosen from the row-length histogram that `preprocess` gathers.
///
/// Rows of at least `huge_threshold` entries are huge (`counts[1]` of them, numbered in any order
/// by a slot i) and cut into chunks of `SPMV_HUGE_CHUNK` entries (`counts[2]` chunks); chunk c
/// belongs to row `chunk_row[c]` (i64) and is its chunk j of slot i, `chunk_info[c] = i << 32 | j`
/// (u64), a row's chunks being consecutive. The first `huge_blocks` blocks take the chunks. A block leaves its chunk's sum in `partials[c]` (compute type) and counts itself in
/// `arrivals[i]` (u32, zeroed by preprocess); the row's last block adds the partials in chunk order,
/// writes y and zeroes the count for the next call. Rows of at least `long_threshold` entries are
/// listed at `long_rows` (`counts[0]` of them) and taken by the next `long_blocks` blocks, a warp per
/// row; every other row gets a group of `lanes` lanes in the remaining blocks. The lists are
/// trusted only when the 8 bytes at `token_at` equal `token`; otherwise the list blocks do nothing
/// and the groups take every row (slower on long rows, the same sums up to rounding).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvVector {
    /// Lanes per short row: a power of two from 1 to 32.
    pub lanes: i32,
    pub huge_blocks: i32,
    pub long_blocks: i32,
    pub pad: i32,
    pub long_threshold: i64,
    pub huge_threshold: i64,
    pub long_rows: u64,
    pub chunk_row: u64,
    pub chunk_info: u64,
    pub partials: u64,
    pub arrivals: u64,
    /// Three u64 counts: long rows, huge rows, chunks (written by preprocess).
    pub counts: u64,
    /// `2 * SPMV_HIST_BUCKETS` u64: rows per bucket, then entries per bucket.
    pub hist: u64,
    pub token_at: u64,
    pub token: u64,
    /// Banded matrices (`oxs_spmv_band_*` kernels): op(A)'s column indices as 16-bit offsets from
    /// their row (i16, column = row + offset), one per entry, written by preprocess and trusted
    /// with the lists. The short rows' groups read these 2 bytes per entry instead of A's 4- or
    /// 8-byte indices; 0 when there are none.
    pub band: u64,
}

/// The vector kernel, the row histogram and the row lists.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmvVectorParams {
    pub shape: SpmvShape,
    pub a: SpmmRows,
    pub v: SpmvVector,
}
