//! Launchers of the tensor-core SpMM: the BitTCF build (`kernels/tc_build.cu`) and the compute
//! kernels (`kernels/spmm_tc.cu`), with the format's layout in the workspace.
//!
//! BitTCF (Acc-SpMM's format): op(A)'s rows in windows of 8; each window's distinct columns in
//! increasing order, cut into tiles of 8 columns; per tile a 64-bit mask of the entries it holds,
//! its 8 column numbers, and the first of its value slots (slots in mask-bit order). `src` names
//! the entry each slot comes from; every call gathers A's values through it into slot order (the
//! user may change them between calls that share a preprocessed format). The structure is built
//! once by `preprocess` (or by every plain call where tensor cores are forced: otherwise a plain
//! call runs the CUDA cores, src/ops/spmm/mod.rs `plain_plan`); a reordered build reads a row-permuted copy of
//! the rows and the kernels write C through the row order (src/ops/spmm/tc_reorder.rs). Memory: 4 bytes per entry for `src`, 4 per
//! value slot (8 in the accurate mode, 2 for FP16 / BF16), 44 per tile (32 of columns, 8 of mask,
//! 4 of slot offset).
//!
//! The workspace holds the format (`persistent`, kept from preprocess) and a `transient` region
//! that the build's sort uses and that the compute kernels then reuse for the gathered values and
//! the split windows' partial sums.

use super::params::spmm_tc::*;
use super::spmm::Types;
use super::{grid_for, launch};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::types::{DataType, IndexType};
use cudarc::driver::result;

const BUILD: &str = "tc_build";
const COMPUTE: &str = "spmm_tc";
const ALIGN: u64 = 256;
const SORT_TILE: u64 = (TC_BLOCK * TC_SORT_ROUNDS) as u64;
const SCAN_CHUNK: u64 = (TC_BLOCK * TC_SCAN_ROUNDS) as u64;
const TILE_BLOCKS_PER_SM: u32 = TC_TILE_BLOCKS_PER_SM;

fn align_up(x: u64) -> u64 {
    x.div_ceil(ALIGN) * ALIGN
}

/// Columns of C one warp takes per work item: 32 or 64 (a strip of 2 or 4 mmas).
pub fn strip_cols(n: i64) -> i64 {
    if n <= 32 {
        32
    } else {
        64
    }
}

/// Warps of the tile kernel resident at once on a device of `sm_count` multiprocessors
/// (TILE_BLOCKS_PER_SM blocks of TC_BLOCK threads on each).
fn resident_warps(sm_count: u32) -> u64 {
    sm_count as u64 * TILE_BLOCKS_PER_SM as u64 * (TC_BLOCK as u64 / 32)
}

/// Tiles per segment: a warp walks a segment's tiles one after another, so the longest segment
/// bounds the kernel's time. Short segments for small matrices (about four work items per
/// resident warp), up to `TC_SEGMENT_MAX` for large ones, whose partial sums would otherwise take
/// too much memory. A power of two, from host facts only, on a device of `sm_count` multiprocessors.
pub fn segment_tiles(nnz: i64, windows: i64, n: i64, sm_count: u32) -> u32 {
    let tiles = nnz.max(0) as u64 / TC_TILE_COLS as u64 + windows.max(0) as u64 / 2;
    let strips = (n.max(1) as u64).div_ceil(strip_cols(n) as u64);
    let ideal = (tiles * strips / (4 * resident_warps(sm_count))).max(1);
    (1u32 << (63 - ideal.leading_zeros())).clamp(TC_SEGMENT_MIN, TC_SEGMENT_MAX)
}

/// Byte offsets of everything, relative to the start of the tensor-core region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcLayout {
    /// The format's sizes, with its arrays' addresses relative to the region's start.
    pub relative: TcFormat,
    /// Start of the transient region: the build's sort, later the values and partial sums.
    transient: u64,
    // Build scratch, inside the transient region.
    keys: [u64; 2],
    pos: [u64; 2],
    counts: u64,
    distinct: u64,
    scan_sums: u64,
    // Compute scratch, inside the transient region.
    values: u64,
    partials: u64,
    arrivals_bytes: u64,
    /// Room for data-affinity reordering, when the plan reserved it: the row order (persistent),
    /// and the build's row-permuted copy of op(A)'s rows (transient).
    pub reorder: Option<ReorderRoom>,
    /// Bytes of the whole region.
    pub bytes: u64,
}

/// Where a reordered build keeps its row order and the permuted copy it builds from (offsets from
/// the region's start; see `TcFormat::row_order`, `TcBuildParams::entry_map`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReorderRoom {
    /// u32 per row.
    pub row_order: u64,
    /// m + 1 offsets and nnz columns in A's index type (8 bytes each reserved), u32 per entry.
    pub offsets: u64,
    pub cols: u64,
    pub entry_map: u64,
}

fn sort_tiles(nnz: i64) -> u64 {
    (nnz.max(1) as u64).div_ceil(SORT_TILE)
}

fn scan_blocks(len: u64) -> u64 {
    len.max(1).div_ceil(SCAN_CHUNK)
}

impl TcLayout {
    /// For op(A) of `m` rows and `nnz` entries, C of `n` columns, `value_bytes` per gathered value;
    /// with room for reordering if `reorder`.
    pub fn new(m: i64, nnz: i64, n: i64, value_bytes: u64, reorder: bool, sm_count: u32) -> TcLayout {
        let (m, nnz, n) = (m.max(0) as u64, nnz.max(0) as u64, n.max(0) as u64);
        let windows = m.div_ceil(TC_WINDOW as u64);
        // Window w has ceil(pairs_w / 8) tiles, and pairs <= entries.
        let tiles_max = (nnz / TC_TILE_COLS as u64 + windows).min(nnz).max(1);
        let seg = segment_tiles(nnz as i64, windows as i64, n as i64, sm_count) as u64;
        let segments_max = windows + tiles_max / seg + 1;
        // A split window (over `seg` tiles) has ceil(t / seg) <= 2 t / seg slots.
        let partial_slots = 2 * tiles_max / seg + 1;
        let strip = strip_cols(n as i64) as u64;
        let width = n.div_ceil(strip) * strip;

        let mut at = 0u64;
        let mut take = |bytes: u64| {
            let here = at;
            at += align_up(bytes);
            here
        };
        let win_tiles = take((windows + 1) * 4);
        let win_segs = take((windows + 1) * 8);
        let colmap = take(tiles_max * TC_TILE_COLS as u64 * 4);
        let masks = take(tiles_max * 8);
        let tile_vals = take((tiles_max + 1) * 4);
        let src = take(nnz.max(1) * 4);
        let segments = take(segments_max * 16);
        let arrivals = take(partial_slots * n.div_ceil(strip) * 4);
        let use_tensor_cores = take(4);
        let row_order = if reorder { Some(take(m.max(1) * 4)) } else { None };
        let transient = at;

        // The build's scratch.
        let longest_scan = (nnz + 1).max(sort_tiles(nnz as i64) * TC_BLOCK as u64).max(tiles_max + 1).max(windows + 1);
        let mut b = transient;
        let mut build = |bytes: u64| {
            let here = b;
            b += align_up(bytes);
            here
        };
        let keys = [build(nnz.max(1) * 4), build(nnz.max(1) * 4)];
        let pos = [build(nnz.max(1) * 4), build(nnz.max(1) * 4)];
        let counts = build(sort_tiles(nnz as i64) * TC_BLOCK as u64 * 4);
        let distinct = build((nnz + 1) * 4);
        let scan_sums = build(scan_blocks(longest_scan) * 8);
        let reorder = row_order.map(|row_order| ReorderRoom {
            row_order,
            offsets: build((m + 1) * 8),
            cols: build(nnz.max(1) * 8),
            entry_map: build(nnz.max(1) * 4),
        });

        // The compute kernels' scratch.
        let mut c = transient;
        let mut compute = |bytes: u64| {
            let here = c;
            c += align_up(bytes);
            here
        };
        let values = compute(nnz.max(1) * value_bytes);
        let partials = compute(partial_slots * TC_WINDOW as u64 * width * 4);

        let relative = TcFormat {
            windows: windows as i64,
            segment: seg as i64,
            tiles_max: tiles_max as i64,
            segments_max: segments_max as i64,
            partial_slots: partial_slots as i64,
            slots_max: nnz as i64,
            win_tiles,
            win_segs,
            colmap,
            masks,
            tile_vals,
            src,
            segments,
            arrivals,
            use_tensor_cores,
            row_order: 0,
        };
        TcLayout {
            relative,
            transient,
            keys,
            pos,
            counts,
            distinct,
            scan_sums,
            values,
            partials,
            arrivals_bytes: partial_slots * n.div_ceil(strip) * 4,
            reorder,
            bytes: b.max(c),
        }
    }

    /// The format's arrays for a region starting at `at`; `reordered`: built from reordered rows
    /// (the row order is then followed).
    pub fn format(&self, at: u64, reordered: bool) -> TcFormat {
        let r = &self.relative;
        TcFormat {
            win_tiles: at + r.win_tiles,
            win_segs: at + r.win_segs,
            colmap: at + r.colmap,
            masks: at + r.masks,
            tile_vals: at + r.tile_vals,
            src: at + r.src,
            segments: at + r.segments,
            arrivals: at + r.arrivals,
            use_tensor_cores: at + r.use_tensor_cores,
            row_order: match self.reorder {
                Some(room) if reordered => at + room.row_order,
                _ => 0,
            },
            ..*r
        }
    }

    pub fn values(&self, at: u64) -> u64 {
        at + self.values
    }

    pub fn partials(&self, at: u64) -> u64 {
        at + self.partials
    }
}

fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

/// Radix passes for keys up to `max_key`.
fn passes(max_key: u64) -> u32 {
    (u64::BITS - max_key.leading_zeros()).div_ceil(TC_RADIX_BITS)
}

/// Exclusive prefix sum of `len` values (u32 or u64: `suffix`) at `data`, in place.
fn scan(h: &Handle, base: &TcBuildParams, data: u64, len: u64, sums: u64, suffix: &str) -> Result<()> {
    let blocks = scan_blocks(len);
    let p = TcBuildParams { scan_data: data, scan_n: len as i64, scan_sums: sums, scan_blocks: blocks as i64, ..*base };
    let b = TC_BLOCK;
    launch(h, BUILD, &kernel_name!("oxs_tc_build_scan_reduce_{suffix}"), (blocks as u32, 1, 1), b, 0, &p)?;
    launch(h, BUILD, &kernel_name!("oxs_tc_build_scan_sums_{suffix}"), (1, 1, 1), b, 0, &p)?;
    launch(h, BUILD, &kernel_name!("oxs_tc_build_scan_apply_{suffix}"), (blocks as u32, 1, 1), b, 0, &p)
}

/// Whether the tiles can take op(A) at all (preprocess's first look, before the build; a wait):
/// a window holds at least as many (window, column) pairs as its longest row has entries, unless
/// a row repeats a column, so where `nnz` falls short of `min_reuse_tenths` / 10 times the
/// windows' longest rows summed (`kernels/tc_build.cu` stage 0), the build would choose the CUDA
/// cores. Then (false) the format's choice flag is set to CUDA cores and nothing more is built;
/// true: the build decides. On the H100 the build took preprocess in a tensor-op mode from 0.14 to
/// 0.45 ms (medians) to send every matrix of our set to the CUDA cores.
pub fn tiles_may_pay(
    h: &Handle,
    a: super::params::spmm::SpmmRows,
    (m, k, nnz): (i64, i64, i64),
    index: IndexType,
    layout: &TcLayout,
    at: u64,
    min_reuse_tenths: u32,
) -> Result<bool> {
    if nnz <= 0 || m <= 0 || min_reuse_tenths == 0 {
        return Ok(true);
    }
    let fmt = layout.format(at, false);
    let counts = at + layout.counts;
    super::vector_ops::zero_device(h, counts, 8)?;
    let p = TcBuildParams { a, m, k, nnz, fmt, counts, ..Default::default() };
    let windows = grid_for(layout.relative.windows.max(1) as u64, TC_BLOCK).min(h.device_model.sm_count * 8);
    launch(h, BUILD, &kernel_name!("oxs_tc_build_window_bound_{}", index_suffix(index)), (windows, 1, 1), TC_BLOCK, 0, &p)?;
    let mut sum = [0u8; 8];
    super::vector_ops::copy_to_host_and_wait(h, counts, &mut sum)?;
    if pairs_may_hold(nnz, u64::from_ne_bytes(sum), min_reuse_tenths) {
        return Ok(true);
    }
    super::vector_ops::zero_device(h, fmt.use_tensor_cores, 4)?;
    Ok(false)
}

/// Whether `nnz` entries over at least `pairs_at_least` (window, column) pairs may reach
/// `min_reuse_tenths` / 10 entries a pair (the build's own test, `decide`, on a lower bound).
fn pairs_may_hold(nnz: i64, pairs_at_least: u64, min_reuse_tenths: u32) -> bool {
    (nnz.max(0) as u128) * 10 >= pairs_at_least as u128 * min_reuse_tenths as u128
}

/// Builds BitTCF for op(A) (`a`: its rows, m x k with nnz entries) into the region at `at`.
/// `min_reuse_tenths` and `refuse_duplicates`: see `TcBuildParams` (a reuse of 0 forces tensor
/// cores, but for refused duplicates). `reordered`: `a` is the row-permuted copy in the layout's
/// reorder room, with its entry map and row order filled (src/ops/spmm/tc_reorder.rs).
#[allow(clippy::too_many_arguments)]
pub fn build(
    h: &Handle,
    a: super::params::spmm::SpmmRows,
    (m, k, nnz): (i64, i64, i64),
    index: IndexType,
    layout: &TcLayout,
    at: u64,
    (min_reuse_tenths, refuse_duplicates): (u32, bool),
    reordered: bool,
) -> Result<()> {
    if nnz <= 0 || nnz > i32::MAX as i64 || k >= u32::MAX as i64 || m <= 0 {
        return Err(Error::Internal(format!("tensor-core build for m={m} k={k} nnz={nnz}")));
    }
    let fmt = layout.format(at, reordered);
    let entry_map = match layout.reorder {
        Some(room) if reordered => at + room.entry_map,
        Some(_) => 0,
        None if reordered => return Err(Error::Internal("a reordered build without room for it".into())),
        None => 0,
    };
    let ix = index_suffix(index);
    let b = TC_BLOCK;
    let entries = grid_for(nnz as u64 + 1, b);
    let windows = grid_for(layout.relative.windows as u64 + 1, b);
    let sort_tiles = sort_tiles(nnz);
    let mut p = TcBuildParams {
        a,
        m,
        k,
        nnz,
        fmt,
        counts: at + layout.counts,
        sort_tiles: sort_tiles as i64,
        min_reuse_tenths,
        refuse_duplicates: refuse_duplicates as u32,
        distinct: at + layout.distinct,
        entry_map,
        ..Default::default()
    };
    let sums = at + layout.scan_sums;
    {
        super::graph::flush(h)?;
        let _bound = h.bind()?;
        // SAFETY: the masks array lies inside the caller's workspace (this layout).
        unsafe { result::memset_d8_async(fmt.masks, 0, layout.relative.tiles_max as usize * 8, h.cu_stream()) }
            .map_err(|e| Error::from_driver("clearing the tile masks", e))?;
        // SAFETY: as above; the counts of split windows start at zero.
        unsafe { result::memset_d8_async(fmt.arrivals, 0, layout.arrivals_bytes as usize, h.cu_stream()) }
            .map_err(|e| Error::from_driver("clearing the split windows' counts", e))?;
    }

    // 1-4: sort the entries by (window, column), stably.
    let mut cur = 0usize;
    p.keys_out = at + layout.keys[cur];
    p.pos_out = at + layout.pos[cur];
    launch(h, BUILD, &kernel_name!("oxs_tc_build_column_keys_{ix}"), (entries, 1, 1), b, 0, &p)?;
    let sort_by = |p: &mut TcBuildParams, cur: &mut usize, max_key: u64| -> Result<()> {
        for pass in 0..passes(max_key) {
            let next = 1 - *cur;
            let q = TcBuildParams {
                keys_in: at + layout.keys[*cur],
                pos_in: at + layout.pos[*cur],
                keys_out: at + layout.keys[next],
                pos_out: at + layout.pos[next],
                shift: pass * TC_RADIX_BITS,
                ..*p
            };
            launch(h, BUILD, "oxs_tc_build_histogram", (sort_tiles as u32, 1, 1), b, 0, &q)?;
            scan(h, &q, q.counts, sort_tiles * TC_BLOCK as u64, sums, "u32")?;
            launch(h, BUILD, "oxs_tc_build_scatter", (sort_tiles as u32, 1, 1), b, 0, &q)?;
            *cur = next;
        }
        Ok(())
    };
    sort_by(&mut p, &mut cur, k as u64)?;
    p.pos_in = at + layout.pos[cur];
    p.keys_out = at + layout.keys[cur];
    launch(h, BUILD, &kernel_name!("oxs_tc_build_window_keys_{ix}"), (entries, 1, 1), b, 0, &p)?;
    sort_by(&mut p, &mut cur, layout.relative.windows as u64)?;
    p.pos_in = at + layout.pos[cur];

    // 5-8: pairs, tiles and segments per window.
    launch(h, BUILD, &kernel_name!("oxs_tc_build_distinct_{ix}"), (entries, 1, 1), b, 0, &p)?;
    scan(h, &p, p.distinct, nnz as u64 + 1, sums, "u32")?;
    launch(h, BUILD, &kernel_name!("oxs_tc_build_window_tiles_{ix}"), (windows, 1, 1), b, 0, &p)?;
    scan(h, &p, fmt.win_tiles, layout.relative.windows as u64 + 1, sums, "u32")?;
    launch(h, BUILD, "oxs_tc_build_window_segments", (windows, 1, 1), b, 0, &p)?;
    scan(h, &p, fmt.win_segs, layout.relative.windows as u64 + 1, sums, "u64")?;
    launch(h, BUILD, "oxs_tc_build_segments", (windows, 1, 1), b, 0, &p)?;

    // 9-11: masks, slot offsets, value sources.
    launch(h, BUILD, &kernel_name!("oxs_tc_build_masks_{ix}"), (entries, 1, 1), b, 0, &p)?;
    launch(h, BUILD, "oxs_tc_build_tile_counts", (grid_for(layout.relative.tiles_max as u64 + 1, b), 1, 1), b, 0, &p)?;
    scan(h, &p, fmt.tile_vals, layout.relative.tiles_max as u64 + 1, sums, "u32")?;
    launch(h, BUILD, &kernel_name!("oxs_tc_build_slots_{ix}"), (entries, 1, 1), b, 0, &p)?;

    // 12: tensor cores, or the CUDA-core tile kernel.
    launch(h, BUILD, &kernel_name!("oxs_tc_build_decide_{ix}"), (1, 1, 1), 1, 0, &p)
}

/// The build's choice (tensor cores or not), read back with a stream synchronisation; None while
/// the stream is being captured (nothing may wait then).
pub fn read_choice(h: &Handle, layout: &TcLayout, at: u64) -> Result<Option<bool>> {
    if super::capturing(h)? {
        return Ok(None);
    }
    let mut flag = [0u8; 4];
    super::vector_ops::copy_to_host_and_wait(h, layout.format(at, false).use_tensor_cores, &mut flag)?;
    Ok(Some(u32::from_ne_bytes(flag) != 0))
}

/// The kernels' names for A and B of `types.ab` and C of `types.c` (FP32 in the tensor-op modes,
/// FP16 or BF16 with C in the same type or FP32): (gather mode, tiles mode).
fn modes(types: Types, accurate: bool) -> (&'static str, String) {
    match types.ab {
        DataType::CUDA_R_32F if accurate => ("3xtf32", "3xtf32".into()),
        DataType::CUDA_R_32F => ("tf32", "tf32".into()),
        ab => (ab.kernel_suffix(), format!("{}_{}", ab.kernel_suffix(), types.c.kernel_suffix())),
    }
}

/// Gathers A's values into slot order, then runs the tiles (split windows are finished by their
/// last segment, in the same launch). Both return at once when the build chose CUDA cores.
pub fn spmm(h: &Handle, p: &SpmmTcParams, types: Types, index: IndexType, accurate: bool, nnz: i64) -> Result<()> {
    let (gather, tiles) = modes(types, accurate);
    let b = TC_BLOCK;
    // Grid-stride, and capped: when the build chose CUDA cores every block just returns.
    let gather_grid = grid_for(nnz.max(1) as u64, b).min(h.device_model.sm_count * 16);
    launch(h, COMPUTE, &kernel_name!("oxs_spmm_tc_gather_{gather}_{}", index_suffix(index)), (gather_grid, 1, 1), b, 0, p)?;
    let grid = h.device_model.sm_count * TILE_BLOCKS_PER_SM;
    launch(h, COMPUTE, &kernel_name!("oxs_spmm_tc_tiles_{tiles}_s{}", p.strip_cols), (grid, 1, 1), b, 0, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_cover_the_largest_key() {
        assert_eq!(passes(0), 0);
        assert_eq!(passes(1), 1);
        assert_eq!(passes(255), 1);
        assert_eq!(passes(256), 2);
        assert_eq!(passes(300_000), 3);
    }

    #[test]
    fn layout_bounds_tiles_and_segments() {
        // 1000 rows -> 125 windows; 5000 entries -> at most 625 + 125 tiles.
        let l = TcLayout::new(1000, 5000, 128, 4, false, 132);
        assert_eq!(l.relative.windows, 125);
        assert_eq!(l.relative.tiles_max, 750);
        assert_eq!(l.relative.segment, TC_SEGMENT_MIN as i64);
        assert_eq!(l.relative.segments_max, 125 + 750 / 4 + 1);
        // Few entries: no more tiles than entries.
        assert_eq!(TcLayout::new(1000, 10, 128, 4, false, 132).relative.tiles_max, 10);
        // The accurate mode's values take twice the room, 16-bit values half.
        assert!(TcLayout::new(1000, 5000, 128, 8, false, 132).bytes > l.bytes);
        assert!(TcLayout::new(1000, 5000, 128, 2, false, 132).partials < l.partials);
        let f = l.format(1 << 20, false);
        assert_eq!(f.win_tiles, 1 << 20);
        assert!(f.segments + 16 * l.relative.segments_max as u64 <= (1 << 20) + l.transient);
        assert_eq!(f.row_order, 0);
        assert!(l.reorder.is_none());
        // Room for reordering: the row order kept with the format, the permuted copy with the
        // build's scratch; the kernels follow the order only when the build was reordered.
        let r = TcLayout::new(1000, 5000, 128, 4, true, 132);
        let room = r.reorder.expect("room for reordering");
        assert!(room.row_order >= l.relative.use_tensor_cores && room.row_order + 4000 <= r.transient);
        assert!(room.offsets >= r.transient && room.entry_map + 5000 * 4 <= r.bytes);
        assert!(room.cols >= room.offsets + 1001 * 8 && room.entry_map >= room.cols + 5000 * 8);
        assert_eq!(r.format(64, false).row_order, 0);
        assert_eq!(r.format(64, true).row_order, 64 + room.row_order);
        assert_eq!(l.format(64, true).row_order, 0);
    }

    #[test]
    fn segments_shorten_for_small_matrices() {
        // blogcatalog: 668k entries, 1289 windows, N = 128: 84k tiles x 2 strips / 8448 = 19.9 -> 16.
        assert_eq!(segment_tiles(667_966, 1289, 128, 132), 16);
        assert_eq!(segment_tiles(10_556, 339, 32, 132), TC_SEGMENT_MIN);
        // wave_squared_2hop: 11M entries, N = 128: 1.38M x 2 / 8448 = 326 -> 64.
        assert_eq!(segment_tiles(10_973_239, 19_540, 128, 132), 64);
        assert_eq!(segment_tiles(0, 0, 0, 132), TC_SEGMENT_MIN);
        assert_eq!(segment_tiles(10_973_239, 19_540, 128, 108), 64, "a 108-SM device: the same power of two");
    }

    #[test]
    fn kernel_names_follow_the_types() {
        use DataType::*;
        let t = |ab, c| Types { ab, c, compute: CUDA_R_32F };
        assert_eq!(modes(t(CUDA_R_32F, CUDA_R_32F), false), ("tf32", "tf32".to_string()));
        assert_eq!(modes(t(CUDA_R_32F, CUDA_R_32F), true), ("3xtf32", "3xtf32".to_string()));
        assert_eq!(modes(t(CUDA_R_16F, CUDA_R_16F), false), ("f16", "f16_f16".to_string()));
        assert_eq!(modes(t(CUDA_R_16BF, CUDA_R_32F), false), ("bf16", "bf16_f32".to_string()));
    }

    #[test]
    fn the_pairs_bound_follows_the_builds_threshold() {
        // 7 entries a pair: 70 tenths.
        assert!(pairs_may_hold(700, 100, 70));
        assert!(!pairs_may_hold(699, 100, 70));
        assert!(pairs_may_hold(1, 0, 70), "no rows: nothing to rule out");
        assert!(pairs_may_hold(0, 0, 70));
        assert!(!pairs_may_hold(i64::MAX, u64::MAX, 70), "no overflow");
        // A dense 400 x 150 matrix: windows of 8 rows of 150 entries, 8 entries a pair.
        assert!(pairs_may_hold(400 * 150, 50 * 150, 70));
        assert!(!pairs_may_hold(4_000, 1_000, 70), "100 windows of 40 entries whose longest rows hold 10: at most 4 a pair");
    }

    #[test]
    fn strips_are_32_or_64_columns() {
        assert_eq!(strip_cols(4), 32);
        assert_eq!(strip_cols(32), 32);
        assert_eq!(strip_cols(36), 64);
        assert_eq!(strip_cols(256), 64);
    }
}
