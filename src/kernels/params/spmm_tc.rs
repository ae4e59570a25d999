//! Parameter blocks of the tensor-core SpMM: the BitTCF build (`kernels/tc_build.cu`) and the
//! kernels that use it (`kernels/spmm_tc.cu`). The format and the stages are described in
//! `src/kernels/spmm_tc.rs`.

use super::spmm::{SpmmDense, SpmmRows, SpmmShape};

/// Rows of op(A) per row window (the n = 8 side of `mma.m16n8k8`).
pub const TC_WINDOW: u32 = 8;
/// Columns per tile: the k = 8 side of the mma.
pub const TC_TILE_COLS: u32 = 8;
/// Tiles one warp takes in a row, at most and at least: a window with more is cut into segments,
/// whose partial sums a second kernel adds in segment order (the plan picks the length).
pub const TC_SEGMENT_MAX: u32 = 64;
pub const TC_SEGMENT_MIN: u32 = 4;
/// Threads per block of every tensor-core kernel, build and compute.
pub const TC_BLOCK: u32 = 256;
/// Blocks per multiprocessor of the tile kernel's persistent grid; its launch bounds hold it to
/// the registers (128) that keep them all resident.
pub const TC_TILE_BLOCKS_PER_SM: u32 = 2;
/// Bits of the key sorted per radix pass (`TC_BLOCK == 1 << TC_RADIX_BITS`: the sort gives
/// thread `d` of a block digit `d`).
pub const TC_RADIX_BITS: u32 = 8;
/// Rounds of `TC_BLOCK` items one sort block walks (a sort tile is `TC_BLOCK * TC_SORT_ROUNDS`).
pub const TC_SORT_ROUNDS: u32 = 16;
/// Rounds of `TC_BLOCK` values one scan block walks.
pub const TC_SCAN_ROUNDS: u32 = 16;
/// Entries per distinct (window, column) pair from which the tensor cores take a matrix, in
/// tenths: against the CUDA-core row kernels the tiles lose at every N, FP32 and FP16, on bcsstk17
/// (4.4 entries per pair), BZR_MD (5.8) and COX2_MD (6.1), 1.1-1.9x slower, and below 4 too
/// (bench/notes/tensor-cores.md). So only windows of 7 entries or more per column on average, near
/// the full 8, take them.
pub const TC_MIN_REUSE_TENTHS: u32 = 70;
/// Set in `TcFormat::src` when a slot's (row, column) appears more than once in A: the values
/// are then added.
pub const TC_SRC_DUPLICATE: u32 = 0x8000_0000;

/// BitTCF: op(A)'s rows in windows of `TC_WINDOW`; each window's distinct columns in increasing
/// order, cut into tiles of `TC_TILE_COLS`. All arrays lie in the workspace.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcFormat {
    /// Row windows: ceil(m / 8).
    pub windows: i64,
    /// Tiles per segment: a window with more is split.
    pub segment: i64,
    /// Capacities the arrays were sized for: tiles (`colmap`, `masks`, `tile_vals`), segments,
    /// partial slots, value slots (= entries). The kernels clamp what they read to these, so a
    /// format overwritten against the preprocess contract gives wrong numbers, never a fault.
    pub tiles_max: i64,
    pub segments_max: i64,
    pub partial_slots: i64,
    pub slots_max: i64,
    /// u32 per window + 1: the window's first tile (exclusive scan of tiles per window).
    pub win_tiles: u64,
    /// u64 per window + 1, exclusive scan of (segments | partial slots << 32): a window of more
    /// than `segment` tiles has as many partial slots as segments, others none.
    pub win_segs: u64,
    /// u32 x 8 per tile: the column of each tile column (the last tile of a window repeats its
    /// last column in unused places).
    pub colmap: u64,
    /// u64 per tile: bit `row * 8 + col` set where the tile holds an entry.
    pub masks: u64,
    /// u32 per tile + 1: the tile's first value slot (exclusive scan of popcounts).
    pub tile_vals: u64,
    /// u32 per value slot (tile order, bit order inside a tile): the entry of op(A)'s rows that
    /// holds it, | `TC_SRC_DUPLICATE` when later entries of the same row and column add to it.
    pub src: u64,
    /// uint4 per segment: window, first tile, end tile, partial slot (u32::MAX: writes C).
    pub segments: u64,
    /// u32: 1 when the matrix's windows share columns enough for tensor cores (nnz >=
    /// `TC_MIN_REUSE` x distinct (window, column) pairs), else 0 and the CUDA-core tile kernel
    /// takes the call. Written by the build.
    pub use_tensor_cores: u64,
    /// u32 per (partial slot, strip): segments of a split window that have finished, counted at
    /// the window's first slot; zeroed by the build, reset by the last arriver.
    pub arrivals: u64,
    /// u32 per row position: the row of op(A) (and C) that data-affinity reordering put there
    /// (src/ops/reorder.rs); windows are cut from positions. 0: positions are rows.
    pub row_order: u64,
}

/// The build (`oxs_tc_build_*`). Each stage reads the fields it needs; `sort` and `scan` are the
/// current radix pass and prefix sum (see `src/kernels/spmm_tc.rs`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcBuildParams {
    pub a: SpmmRows,
    pub m: i64,
    pub k: i64,
    pub nnz: i64,
    pub fmt: TcFormat,
    /// u32 keys and positions of the sort (ping-pong pairs), and its digit counts.
    pub keys_in: u64,
    pub pos_in: u64,
    pub keys_out: u64,
    pub pos_out: u64,
    pub counts: u64,
    pub sort_tiles: i64,
    pub shift: u32,
    /// Entries per pair, in tenths, from which the build picks tensor cores (0: always).
    pub min_reuse_tenths: u32,
    /// 1 for FP16 / BF16 values: a slot holds one value of A's type, which cannot carry the sum
    /// of a (row, column) given more than once, so a matrix with such entries goes to CUDA cores.
    pub refuse_duplicates: u32,
    pub pad: u32,
    /// u32 per sorted entry + 1: 1 where a new (window, column) pair starts, then its scan.
    pub distinct: u64,
    /// The array being scanned, its length and chunk sums.
    pub scan_data: u64,
    pub scan_n: i64,
    pub scan_sums: u64,
    pub scan_blocks: i64,
    /// With reordering, `a` is a row-permuted copy of op(A)'s rows; u32 per entry of the copy:
    /// the entry of op(A)'s rows it came from, which `src` then names. 0: `a` is op(A)'s rows.
    pub entry_map: u64,
}

/// The compute kernels (`oxs_spmm_tc_*`): the value gather, then the tiles.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmTcParams {
    pub shape: SpmmShape,
    pub a: SpmmRows,
    pub b: SpmmDense,
    pub c: SpmmDense,
    pub fmt: TcFormat,
    /// A's values in slot order: TF32 heads (f32 each), or (head, tail) pairs in the accurate mode.
    pub values: u64,
    /// f32 partial sums of split windows: `8 x strip_cols * strips` per partial slot.
    pub partials: u64,
    /// Column strips of C, `strip_cols` each.
    pub strips: i64,
    pub strip_cols: i64,
}
