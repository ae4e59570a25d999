//! Launchers for `kernels/sort.cu`: the segmented sort behind csrsort / cscsort and the global
//! sort behind coosort, enqueued on the handle's stream with no host synchronisation.
//!
//! Segmented sort: a classify kernel lists the segments of the warp, small and large tiers, whose
//! kernels then sort their lists in place (see the kernel file). Segments longer than the large
//! tier are gathered
//! (mark, a scan, gather) and sorted by the global radix passes: by the minor index, then by the
//! segment's rank among long segments, then written back to their places (finish). How many long
//! entries there are is known on the GPU only, so those kernels are sized for `nnz` and read the
//! count from the scan's total.
//!
//! Global sort (coosort): copy the minor indices and P, positions = identity; radix passes by the
//! minor index; each item's major index as the key; radix passes by it; write back all three arrays.
//!
//! Each radix pass: tile histograms, a three-kernel exclusive scan of the counts, a stable scatter,
//! ping-ponging between two (key, position) pairs.
//!
//! Workspace, each array aligned to [`ALIGN`] bytes, in this order: `index_copy`, `perm_copy`,
//! `keys_a`, `pos_a`, `keys_b`, `pos_b` (nnz ints each), the digit counts (`INDEX_SORT_RADIX` ints per
//! radix tile of `INDEX_SORT_BLOCK * INDEX_SORT_ROUNDS` entries), their scan's chunk sums (one int per chunk of
//! `INDEX_SORT_BLOCK * INDEX_SORT_SCAN_ROUNDS` counts); the segmented sort adds `long_info` (lines + 1 u64)
//! and its scan's chunk sums (u64), the tiers' counts (4 ints) and lists (one int per segment the
//! tier can meet: min(lines, nnz / its shortest length)). Plus `ALIGN` bytes of slack for aligning
//! the start. The segmented sort takes no radix arrays when no segment can be long (nnz <= the
//! large tier), and no workspace at all for fewer than 2 entries.

use super::params::sort::*;
use super::{grid_for, launch, MAX_GRID};
use crate::context::Handle;
use crate::error::Result;

const FAMILY: &str = "sort";
/// Alignment of every array in the workspace, in bytes.
pub const ALIGN: u64 = 256;
/// Entries per radix tile (one block, one digit histogram).
const TILE: u64 = (INDEX_SORT_BLOCK * INDEX_SORT_ROUNDS) as u64;
/// Values per scan chunk (one block).
const SCAN_CHUNK: u64 = (INDEX_SORT_BLOCK * INDEX_SORT_SCAN_ROUNDS) as u64;
/// Longest segment of the thread, warp, small and large tiers.
pub const THREAD_MAX: i64 = INDEX_SORT_THREAD_MAX as i64;
pub const WARP_MAX: i64 = INDEX_SORT_WARP_MAX as i64;
pub const SMALL_MAX: i64 = (INDEX_SORT_SMALL_THREADS * INDEX_SORT_SMALL_ITEMS) as i64;
pub const LARGE_MAX: i64 = (INDEX_SORT_LARGE_THREADS * INDEX_SORT_LARGE_ITEMS) as i64;

/// csrsort / cscsort: `lines` segments (rows of CSR, columns of CSC) over `nnz` entries, whose
/// minor indices lie in [base, minor_dim + base).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segments {
    pub lines: i64,
    pub minor_dim: i64,
    pub nnz: i64,
    pub base: i64,
    pub offsets: u64,
    pub indices: u64,
    pub perm: u64,
}

/// coosort: `nnz` entries sorted by (major, minor); the major indices lie in [base, major_dim +
/// base), the minor ones in [base, minor_dim + base) (cuSPARSE's coosort has no base: 0 is safe,
/// since the passes cover the bits of the dimension, and base 1 adds at most one to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coo {
    pub major_dim: i64,
    pub minor_dim: i64,
    pub nnz: i64,
    pub major: u64,
    pub minor: u64,
    pub perm: u64,
}

/// Bits that hold every index in [0, dim] (an index of base 1 may equal dim).
pub fn key_bits(dim: i64) -> u32 {
    u64::BITS - (dim.max(0) as u64).leading_zeros()
}

/// Radix passes over keys of `bits` bits.
pub fn passes(bits: u32) -> u32 {
    bits.div_ceil(INDEX_SORT_RADIX_BITS)
}

/// Most long segments `nnz` entries can hold.
fn max_long_segments(nnz: i64) -> i64 {
    nnz.max(0) / (LARGE_MAX + 1)
}

/// Bits of a long segment's rank (ranks run 0 .. max_long_segments - 1).
fn rank_bits(nnz: i64) -> u32 {
    key_bits(max_long_segments(nnz) - 1)
}

fn tiles(nnz: i64) -> u64 {
    (nnz.max(0) as u64).div_ceil(TILE)
}

fn count_len(nnz: i64) -> u64 {
    tiles(nnz) * INDEX_SORT_RADIX as u64
}

fn align_up(x: u64) -> u64 {
    x.saturating_add(ALIGN - 1) / ALIGN * ALIGN
}

/// What a workspace is laid out for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Coo { nnz: i64 },
    Segments { lines: i64, nnz: i64 },
}

/// Bytes of each workspace array, in layout order (module comment); arrays a sort does not use
/// take no room.
fn array_bytes(shape: Shape) -> [u64; 16] {
    let (nnz, lines, radix, segmented) = match shape {
        Shape::Coo { nnz } => (nnz.max(0) as u64, 0, true, false),
        Shape::Segments { lines, nnz } => (nnz.max(0) as u64, lines.max(0) as u64, may_have_long_segments(nnz), true),
    };
    let ints = |n: u64| n.saturating_mul(4);
    let sort = |n: u64| if radix { n } else { 0 };
    let long_capacity = if radix && segmented { max_long_segments(nnz as i64) as u64 } else { 0 };
    let long_words = if radix && segmented { long_capacity + 1 } else { 0 };
    // A tier's list holds at most as many segments as the entries can fill.
    let listed = |shortest: i64| if segmented { lines.min(nnz / shortest as u64) } else { 0 };
    [
        ints(sort(nnz)),
        ints(sort(nnz)),
        ints(sort(nnz)),
        ints(sort(nnz)),
        ints(sort(nnz)),
        ints(sort(nnz)),
        ints(sort(count_len(nnz as i64))),
        ints(sort(count_len(nnz as i64)).div_ceil(SCAN_CHUNK)),
        long_words.saturating_mul(8),
        long_words.div_ceil(SCAN_CHUNK).saturating_mul(8),
        if segmented { ints(8) } else { 0 },
        ints(listed(THREAD_MAX + 1)),
        ints(listed(WARP_MAX + 1)),
        ints(listed(SMALL_MAX + 1)),
        ints(long_capacity),
        ints(listed(2)),
    ]
}

#[derive(Clone, Copy, Debug)]
struct Workspace {
    index_copy: u64,
    perm_copy: u64,
    a: (u64, u64),
    b: (u64, u64),
    counts: u64,
    count_sums: u64,
    long_info: u64,
    long_sums: u64,
    tier_counts: u64,
    /// The warp, small, large, long and thread tiers' lists.
    lists: [u64; 5],
}

fn place(shape: Shape, workspace: u64) -> Workspace {
    let mut at = align_up(workspace);
    let mut addr = [0u64; 16];
    for (a, bytes) in addr.iter_mut().zip(array_bytes(shape)) {
        *a = at;
        at = at.saturating_add(align_up(bytes));
    }
    Workspace {
        index_copy: addr[0],
        perm_copy: addr[1],
        a: (addr[2], addr[3]),
        b: (addr[4], addr[5]),
        counts: addr[6],
        count_sums: addr[7],
        long_info: addr[8],
        long_sums: addr[9],
        tier_counts: addr[10],
        lists: [addr[11], addr[12], addr[13], addr[14], addr[15]],
    }
}

fn total_bytes(shape: Shape) -> usize {
    let arrays = array_bytes(shape).iter().fold(0u64, |sum, &b| sum.saturating_add(align_up(b)));
    usize::try_from(arrays.saturating_add(ALIGN)).unwrap_or(usize::MAX)
}

/// Whether a segmented sort over `nnz` entries may meet a segment longer than the large tier.
pub fn may_have_long_segments(nnz: i64) -> bool {
    nnz > LARGE_MAX
}

/// Workspace bytes of the segmented sort (0 when there is nothing to sort: fewer than 2 entries).
pub fn segments_workspace_bytes(lines: i64, nnz: i64) -> usize {
    if nnz > 1 && lines > 0 {
        total_bytes(Shape::Segments { lines, nnz })
    } else {
        0
    }
}

/// Workspace bytes of the global sort (0 for no entries).
pub fn coo_workspace_bytes(nnz: i64) -> usize {
    if nnz > 0 {
        total_bytes(Shape::Coo { nnz })
    } else {
        0
    }
}

/// The stable LSD radix passes over `bits` key bits, from the pair `cur` into the other one;
/// returns the pair that holds the result. The first pass may read its keys from `first_keys`.
#[allow(clippy::too_many_arguments)]
fn radix_passes(
    h: &Handle,
    ws: &Workspace,
    nnz: i64,
    count_at: u64,
    bits: u32,
    first_keys: Option<u64>,
    mut cur: (u64, u64),
) -> Result<(u64, u64)> {
    let tiles = tiles(nnz);
    let blocks = count_len(nnz).div_ceil(SCAN_CHUNK);
    let scan = SortScanParams { data: ws.counts, block_sums: ws.count_sums, n: count_len(nnz) as i64, blocks: blocks as i64, count_at };
    for pass in 0..passes(bits) {
        let other = if cur == ws.a { ws.b } else { ws.a };
        let keys_in = if pass == 0 { first_keys.unwrap_or(cur.0) } else { cur.0 };
        let p = SortPassParams {
            keys_in,
            pos_in: cur.1,
            keys_out: other.0,
            pos_out: other.1,
            counts: ws.counts,
            n: nnz,
            count_at,
            tiles: tiles as i64,
            shift: pass * INDEX_SORT_RADIX_BITS,
            pad: 0,
        };
        launch(h, FAMILY, "oxs_sort_histogram", (tiles as u32, 1, 1), INDEX_SORT_BLOCK, 0, &p)?;
        launch(h, FAMILY, "oxs_sort_scan_reduce_i32", (blocks as u32, 1, 1), INDEX_SORT_BLOCK, 0, &scan)?;
        launch(h, FAMILY, "oxs_sort_scan_sums_i32", (1, 1, 1), INDEX_SORT_BLOCK, 0, &scan)?;
        launch(h, FAMILY, "oxs_sort_scan_apply_i32", (blocks as u32, 1, 1), INDEX_SORT_BLOCK, 0, &scan)?;
        launch(h, FAMILY, "oxs_sort_scatter", (tiles as u32, 1, 1), INDEX_SORT_BLOCK, 0, &p)?;
        cur = other;
    }
    Ok(cur)
}

/// Blocks for a kernel with a block per segment (grid-stride beyond `MAX_GRID`).
fn segment_grid(lines: i64) -> u32 {
    (lines.max(1) as u64).min(MAX_GRID) as u32
}

/// Enqueues the segmented sort of `s`; `workspace` holds `segments_workspace_bytes` (may be 0
/// when that is 0). Nothing is enqueued for no entries.
pub fn sort_segments(h: &Handle, s: &Segments, workspace: u64) -> Result<()> {
    if s.nnz <= 1 || s.lines == 0 {
        return Ok(());
    }
    let ws = place(Shape::Segments { lines: s.lines, nnz: s.nnz }, workspace);
    let p = SortSegmentsParams {
        offsets: s.offsets,
        indices: s.indices,
        perm: s.perm,
        lines: s.lines,
        base: s.base,
        long_info: ws.long_info,
        long_capacity: max_long_segments(s.nnz),
        index_copy: ws.index_copy,
        perm_copy: ws.perm_copy,
        pos: ws.a.1,
        tier_counts: ws.tier_counts,
        thread_list: ws.lists[4],
        warp_list: ws.lists[0],
        small_list: ws.lists[1],
        large_list: ws.lists[2],
        long_list: ws.lists[3],
        end_bit: key_bits(s.minor_dim),
        pad: 0,
    };
    // Each tier's grid covers the most segments its list can hold; the blocks beyond the count
    // the classify kernel found return at once.
    let lines = s.lines as u64;
    let nnz = s.nnz;
    launch(h, FAMILY, "oxs_sort_clear_tiers", (1, 1, 1), 32, 0, &p)?;
    launch(h, FAMILY, "oxs_sort_classify", (grid_for(lines, INDEX_SORT_BLOCK), 1, 1), INDEX_SORT_BLOCK, 0, &p)?;
    let thread_rows = lines.min(nnz as u64 / 2);
    launch(h, FAMILY, "oxs_sort_thread_segments", (grid_for(thread_rows, INDEX_SORT_BLOCK), 1, 1), INDEX_SORT_BLOCK, 0, &p)?;
    if nnz > THREAD_MAX {
        let warp_rows = lines.min(nnz as u64 / (THREAD_MAX as u64 + 1));
        launch(h, FAMILY, "oxs_sort_warp_segments", (grid_for(warp_rows * 32, INDEX_SORT_BLOCK), 1, 1), INDEX_SORT_BLOCK, 0, &p)?;
    }
    if nnz > WARP_MAX {
        let grid = segment_grid(s.lines.min(nnz / (WARP_MAX + 1)));
        launch(h, FAMILY, "oxs_sort_small_segments", (grid, 1, 1), INDEX_SORT_SMALL_THREADS, 0, &p)?;
    }
    if nnz > SMALL_MAX {
        let grid = segment_grid(s.lines.min(nnz / (SMALL_MAX + 1)));
        launch(h, FAMILY, "oxs_sort_large_segments", (grid, 1, 1), INDEX_SORT_LARGE_THREADS, 0, &p)?;
    }
    if !may_have_long_segments(s.nnz) {
        return Ok(());
    }

    // Long segments (listed by classify): their lengths, scanned into starts (entry `capacity`
    // ends as the total), gather.
    let capacity = max_long_segments(s.nnz);
    let words = capacity as u64 + 1;
    let blocks = words.div_ceil(SCAN_CHUNK);
    let scan = SortScanParams { data: ws.long_info, block_sums: ws.long_sums, n: words as i64, blocks: blocks as i64, count_at: 0 };
    launch(h, FAMILY, "oxs_sort_mark_long", (grid_for(words, INDEX_SORT_BLOCK), 1, 1), INDEX_SORT_BLOCK, 0, &p)?;
    launch(h, FAMILY, "oxs_sort_scan_reduce_u64", (blocks as u32, 1, 1), INDEX_SORT_BLOCK, 0, &scan)?;
    launch(h, FAMILY, "oxs_sort_scan_sums_u64", (1, 1, 1), INDEX_SORT_BLOCK, 0, &scan)?;
    launch(h, FAMILY, "oxs_sort_scan_apply_u64", (blocks as u32, 1, 1), INDEX_SORT_BLOCK, 0, &scan)?;
    launch(h, FAMILY, "oxs_sort_gather_long", (segment_grid(capacity), 1, 1), INDEX_SORT_BLOCK, 0, &p)?;

    let count_at = ws.long_info + 8 * capacity as u64;
    let nnz_grid = (grid_for(s.nnz as u64, INDEX_SORT_BLOCK), 1, 1);
    let cur = radix_passes(h, &ws, s.nnz, count_at, key_bits(s.minor_dim), Some(ws.index_copy), ws.a)?;
    // With room for one long segment only, the rank passes have nothing to do.
    let cur = if passes(rank_bits(s.nnz)) > 0 {
        let k =
            SortMajorKeyParams { keys: cur.0, pos: cur.1, major: 0, long_info: ws.long_info, long_capacity: capacity, n: s.nnz, count_at };
        launch(h, FAMILY, "oxs_sort_major_keys", nnz_grid, INDEX_SORT_BLOCK, 0, &k)?;
        radix_passes(h, &ws, s.nnz, count_at, rank_bits(s.nnz), None, cur)?
    } else {
        cur
    };
    let f = SortFinishParams {
        keys: cur.0,
        pos: cur.1,
        index_copy: ws.index_copy,
        perm_copy: ws.perm_copy,
        major_out: 0,
        indices_out: s.indices,
        perm_out: s.perm,
        long_info: ws.long_info,
        long_capacity: capacity,
        long_list: ws.lists[3],
        offsets: s.offsets,
        base: s.base,
        n: s.nnz,
        count_at,
    };
    launch(h, FAMILY, "oxs_sort_finish", nnz_grid, INDEX_SORT_BLOCK, 0, &f)
}

/// Enqueues the global sort of `c`; `workspace` holds `coo_workspace_bytes`.
pub fn sort_coo(h: &Handle, c: &Coo, workspace: u64) -> Result<()> {
    if c.nnz <= 0 {
        return Ok(());
    }
    let ws = place(Shape::Coo { nnz: c.nnz }, workspace);
    let grid = (grid_for(c.nnz as u64, INDEX_SORT_BLOCK), 1, 1);
    let copy = SortCopyParams { indices: c.minor, perm: c.perm, index_copy: ws.index_copy, perm_copy: ws.perm_copy, pos: ws.a.1, n: c.nnz };
    launch(h, FAMILY, "oxs_sort_copy", grid, INDEX_SORT_BLOCK, 0, &copy)?;
    let cur = radix_passes(h, &ws, c.nnz, 0, key_bits(c.minor_dim), Some(ws.index_copy), ws.a)?;
    let k = SortMajorKeyParams { keys: cur.0, pos: cur.1, major: c.major, long_info: 0, long_capacity: 0, n: c.nnz, count_at: 0 };
    launch(h, FAMILY, "oxs_sort_major_keys", grid, INDEX_SORT_BLOCK, 0, &k)?;
    let cur = radix_passes(h, &ws, c.nnz, 0, key_bits(c.major_dim), None, cur)?;
    let f = SortFinishParams {
        keys: cur.0,
        pos: cur.1,
        index_copy: ws.index_copy,
        perm_copy: ws.perm_copy,
        major_out: c.major,
        indices_out: c.minor,
        perm_out: c.perm,
        long_info: 0,
        long_capacity: 0,
        long_list: 0,
        offsets: 0,
        base: 0,
        n: c.nnz,
        count_at: 0,
    };
    launch(h, FAMILY, "oxs_sort_finish", grid, INDEX_SORT_BLOCK, 0, &f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_bits_and_passes() {
        let cases = [(0, 0, 0), (1, 1, 1), (255, 8, 1), (256, 9, 2), (65_535, 16, 2), (65_536, 17, 3), (i32::MAX as i64, 31, 4)];
        for (dim, bits, p) in cases {
            assert_eq!(key_bits(dim), bits, "dim {dim}");
            assert_eq!(passes(key_bits(dim)), p, "dim {dim}");
        }
    }

    #[test]
    fn long_segment_ranks() {
        assert_eq!(max_long_segments(LARGE_MAX), 0);
        assert_eq!(max_long_segments(LARGE_MAX + 1), 1);
        assert_eq!(passes(rank_bits(LARGE_MAX + 1)), 0, "one long segment needs no rank pass");
        assert_eq!(passes(rank_bits(2 * (LARGE_MAX + 1))), 1);
        assert_eq!(passes(rank_bits(i32::MAX as i64)), 3, "up to 524,160 long segments: 19 bits");
    }

    #[test]
    fn workspace_sizes() {
        assert_eq!(segments_workspace_bytes(10, 1), 0, "nothing to sort");
        assert_eq!(coo_workspace_bytes(0), 0);
        // 100 entries: six int arrays of 400 B (512 each once aligned), one tile of 256 counts
        // (1 KiB), one chunk sum; plus the slack.
        assert_eq!(coo_workspace_bytes(100), 6 * 512 + 1024 + 256 + 256);
        // 4096 entries in 10 segments: no long segment possible, only the tier counts and lists
        // (10 thread, 10 warp, 10 small and 7 large slots).
        assert_eq!(segments_workspace_bytes(10, LARGE_MAX), 5 * 256 + 256);
        // 5000 entries in 7 segments: two tiles; room for one long segment (2 long words and their
        // chunk sum); the tier counts and five lists.
        let n = 5000;
        assert_eq!(segments_workspace_bytes(7, n), 6 * align_up(4 * n as u64) as usize + 2048 + 256 + 2 * 256 + 6 * 256 + 256);
    }

    #[test]
    fn layout_is_aligned_disjoint_and_inside() {
        let shapes = [
            Shape::Coo { nnz: 1 },
            Shape::Coo { nnz: 3_000_000 },
            Shape::Segments { lines: 70_000, nnz: 100_000 },
            Shape::Segments { lines: 1, nnz: 5000 },
            Shape::Segments { lines: 1000, nnz: 4000 },
            Shape::Segments { lines: 1 << 28, nnz: 1 << 30 },
        ];
        for shape in shapes {
            let bytes = array_bytes(shape);
            for shift in [0, 1, 16, 255] {
                let base = 0x7f00_0000_0000 + shift;
                let w = place(shape, base);
                let addr = [
                    w.index_copy,
                    w.perm_copy,
                    w.a.0,
                    w.a.1,
                    w.b.0,
                    w.b.1,
                    w.counts,
                    w.count_sums,
                    w.long_info,
                    w.long_sums,
                    w.tier_counts,
                    w.lists[0],
                    w.lists[1],
                    w.lists[2],
                    w.lists[3],
                    w.lists[4],
                ];
                for i in 0..addr.len() {
                    assert_eq!(addr[i] % ALIGN, 0);
                    assert!(addr[i] + bytes[i] <= base + total_bytes(shape) as u64);
                    if i + 1 < addr.len() {
                        assert!(addr[i] + bytes[i] <= addr[i + 1]);
                    }
                }
            }
        }
    }

    #[test]
    fn tier_lists_hold_every_segment_they_can_meet() {
        // 1000 segments over 100,000 entries: every one may be a thread or a warp segment; at most
        // 775 can hold 129 entries, 194 can hold 513, 24 can hold 4097.
        let b = array_bytes(Shape::Segments { lines: 1000, nnz: 100_000 });
        assert_eq!([b[15], b[11], b[12], b[13], b[14]], [4000, 4000, 4 * 775, 4 * 194, 4 * 24]);
        let b = array_bytes(Shape::Segments { lines: 10, nnz: 40 });
        assert_eq!([b[15], b[11], b[12], b[13], b[14]], [4 * 10, 4 * 2, 0, 0, 0]);
    }
}
