//! Parameter blocks of `kernels/sort.cu`: the csrsort / cscsort (segmented) and coosort (global)
//! index sorts (see `src/kernels/sort.rs` for the stages and the workspace layout).
//!
//! Indices, permutation entries, sort keys, positions and digit counts are all `int` (cuSPARSE's
//! legacy sorts take 32-bit indices only). The tiling constants below are exported to the
//! generated header, so the kernels' tile shapes and the host's workspace arithmetic agree.

/// Bits of the key sorted per global radix pass.
pub const INDEX_SORT_RADIX_BITS: u32 = 8;
/// Digit values per pass (`1 << INDEX_SORT_RADIX_BITS`).
pub const INDEX_SORT_RADIX: u32 = 256;
/// Threads of the global radix and scan kernels; the scatter gives thread `d` digit `d`, so this
/// equals `INDEX_SORT_RADIX`.
pub const INDEX_SORT_BLOCK: u32 = 256;
/// Rounds of `INDEX_SORT_BLOCK` items per radix tile (one digit histogram per tile).
pub const INDEX_SORT_ROUNDS: u32 = 16;
/// Rounds of `INDEX_SORT_BLOCK` values per scan chunk.
pub const INDEX_SORT_SCAN_ROUNDS: u32 = 16;
/// Segments of at most this many entries are sorted by one thread, in registers.
pub const INDEX_SORT_THREAD_MAX: u32 = 16;
/// Longer segments of at most this many entries are sorted by one warp (up to four entries per
/// lane).
pub const INDEX_SORT_WARP_MAX: u32 = 128;
/// Threads and items per thread of the small block tier (segments up to 512 entries).
pub const INDEX_SORT_SMALL_THREADS: u32 = 128;
pub const INDEX_SORT_SMALL_ITEMS: u32 = 4;
/// Threads and items per thread of the large block tier (segments up to 4096 entries); longer
/// segments are gathered and sorted by the global radix passes.
pub const INDEX_SORT_LARGE_THREADS: u32 = 256;
pub const INDEX_SORT_LARGE_ITEMS: u32 = 16;

/// The segmented sort (csrsort, cscsort): `lines` segments given by `lines + 1` offsets (base
/// `base`), whose minor indices and permutation entries are sorted in place, segment by segment.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SortSegmentsParams {
    pub offsets: u64,
    pub indices: u64,
    pub perm: u64,
    pub lines: i64,
    pub base: i64,
    /// `long_capacity + 1` int64: the lengths of the listed long segments (0 beyond the list);
    /// after the scan, where each one's entries start in the gathered arrays (entry
    /// `long_capacity`: the total).
    pub long_info: u64,
    /// The most long segments the entries can hold.
    pub long_capacity: i64,
    /// Gathered arrays of the long segments (nnz capacity each): their indices, permutation
    /// entries and positions (the identity).
    pub index_copy: u64,
    pub perm_copy: u64,
    pub pos: u64,
    /// How many segments each tier (warp, small, large, long, thread) sorts, counted by the
    /// classify kernel (5 ints), and the lists of those segments.
    pub tier_counts: u64,
    pub thread_list: u64,
    pub warp_list: u64,
    pub small_list: u64,
    pub large_list: u64,
    pub long_list: u64,
    /// The block tiers sort key bits [0, end_bit).
    pub end_bit: u32,
    pub pad: u32,
}

/// The global sort: its inputs are copied (`index_copy`, `perm_copy`) and the positions set to the
/// identity before the radix passes (coosort).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SortCopyParams {
    pub indices: u64,
    pub perm: u64,
    pub index_copy: u64,
    pub perm_copy: u64,
    pub pos: u64,
    pub n: i64,
}

/// One radix pass: its histogram kernel and its scatter kernel read the same block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SortPassParams {
    pub keys_in: u64,
    pub pos_in: u64,
    pub keys_out: u64,
    pub pos_out: u64,
    /// `INDEX_SORT_RADIX * tiles` counts, digit-major (`counts[digit * tiles + tile]`).
    pub counts: u64,
    /// Items to sort, when `count_at` is 0; else an upper bound (the grid's size), and the count
    /// is the low 32 bits of the int64 at `count_at` (the long segments' total, known on the GPU
    /// only); the tiles are then that count's, and the blocks beyond them do nothing.
    pub n: i64,
    pub count_at: u64,
    pub tiles: i64,
    /// The pass sorts the digit `(key >> shift) & (INDEX_SORT_RADIX - 1)`.
    pub shift: u32,
    pub pad: u32,
}

/// The in-place exclusive scan of `n` values at `data`, in chunks of `INDEX_SORT_BLOCK *
/// INDEX_SORT_SCAN_ROUNDS` values; `block_sums` holds one value per chunk.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SortScanParams {
    pub data: u64,
    pub block_sums: u64,
    pub n: i64,
    pub blocks: i64,
    /// 0, or (the digit counts of the long segments' passes) the int64 whose low 32 bits count the
    /// items sorted: only their tiles' counts are scanned, `n` and `blocks` being upper bounds.
    pub count_at: u64,
}

/// Between the minor and the major passes: `keys[j]` becomes the major key of the item at position
/// `pos[j]`: `major[pos[j]]` (coosort), or the rank of the long segment holding it (segmented).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SortMajorKeyParams {
    pub keys: u64,
    pub pos: u64,
    /// coosort: the major index array (read only); 0 for the segmented sort.
    pub major: u64,
    /// Segmented sort: the `long_capacity + 1` scanned `long_info` starts.
    pub long_info: u64,
    pub long_capacity: i64,
    /// As in `SortPassParams`.
    pub n: i64,
    pub count_at: u64,
}

/// After the passes: the item at sorted position j is written out, its minor index and permutation
/// entry read from the copies through `pos[j]`; coosort also writes the sorted major keys.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SortFinishParams {
    pub keys: u64,
    pub pos: u64,
    pub index_copy: u64,
    pub perm_copy: u64,
    /// coosort: the major index array (written from `keys`); 0 for the segmented sort.
    pub major_out: u64,
    pub indices_out: u64,
    pub perm_out: u64,
    /// Segmented sort: where gathered position j goes back to, found from `long_info` (the
    /// starts), `long_list` (the segments by rank) and `offsets`.
    pub long_info: u64,
    pub long_capacity: i64,
    pub long_list: u64,
    pub offsets: u64,
    pub base: i64,
    /// As in `SortPassParams`.
    pub n: i64,
    pub count_at: u64,
}
