//! Launchers for `kernels/spmm.cu` (row kernels and the long-row schedule),
//! `kernels/spmm_tiles.cu` (the tile kernel), `kernels/spmm_short_rows.cu` (the short-row kernel
//! and preprocess's longest-row measure), `kernels/spmm_warp_rows.cu` (a warp per row piece) and
//! `kernels/spmm_blocked.cu`, `kernels/spmm_blocked_tc.cu` and `kernels/spmm_blocked_tc_async.cu`
//! (BSR, Blocked-ELL; the TMA kernel `kernels/spmm_blocked_tc_tma.cu` in spmm_tma.rs, BSR's small
//! blocks `kernels/spmm_bsr_small.cu` in spmm_bsr_small.rs). The
//! plan (src/ops/spmm/plan.rs) has already chosen the kernel and filled the parameter blocks;
//! these functions only pick the instantiation's name and the grid. The short-row kernel's group
//! shapes (`RowShape`) are in spmm_row_shape.rs.

use super::module::{KernelKey, Site};
use super::name::Suffixes;
use super::params::spmm::*;
pub use super::spmm_row_shape::RowShape;
use super::spmm_tma;
use super::{launch, launch_keyed, MAX_GRID};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::ops::spmm::blocked::{BlockedPath, TcPrecision};
use crate::settings::BlockedCopies;
use crate::types::{DataType, IndexType};
use cudarc::driver::result;

/// Threads per block of every SpMM kernel (`spmm::BLOCK` in kernels/common/spmm.cuh).
pub const BLOCK: u32 = 256;
const WARP: u64 = 32;

/// The value types of one call: A and B storage, C storage, compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types {
    pub ab: DataType,
    pub c: DataType,
    pub compute: DataType,
}

impl Types {
    /// Whether A, B, C and the computation are all of type `t`.
    pub fn all(self, t: DataType) -> bool {
        self.ab == t && self.c == t && self.compute == t
    }

    pub fn suffix(&self) -> Suffixes<3> {
        Suffixes([self.ab.kernel_suffix(), self.c.kernel_suffix(), self.compute.kernel_suffix()])
    }
}

/// The key of a keyed launch site's kernel (`launch_keyed`): `variant` says which of the site's
/// kernels (its shape or infix), then the value and index types.
fn key(site: Site, variant: u8, types: Types, index: IndexType) -> KernelKey {
    KernelKey::new(site, &[variant, types.ab as u8, types.c as u8, types.compute as u8, index as u8])
}

pub(super) fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

/// Blocks for one warp per row, grid-stride beyond `MAX_GRID`.
fn warp_per_row_blocks(rows: i64) -> u32 {
    (rows.max(1) as u64 * WARP).div_ceil(BLOCK as u64).clamp(1, MAX_GRID) as u32
}

/// The strided row kernel: any type, layout and op(B).
pub fn rows_strided(h: &Handle, p: &SpmmRowsParams, types: Types, index: IndexType, batches: u32) -> Result<()> {
    let name = kernel_name!("oxs_spmm_rows_{}_{}", types.suffix(), index_suffix(index));
    launch(h, "spmm", &name, (warp_per_row_blocks(p.shape.m), batches, 1), BLOCK, 0, p)
}

/// Geometry of the vectorised row kernel for columns-per-pass `width` (32, 64, 128 or 256):
/// (lanes per row, vectors per lane); mirrors `RowVecShape` in kernels/spmm.cu.
pub fn rowvec_geometry(ab: DataType, width: u32) -> (u32, u32) {
    let vec = 16 / ab.size_bytes() as u32;
    let per_lane = if width / vec > 32 { width / vec / 32 } else { 1 };
    (width / (vec * per_lane), per_lane)
}

/// Blocks of the vectorised kernel that work on rows (one group of lanes per row).
pub fn rowvec_row_blocks(ab: DataType, width: u32, rows: i64) -> Result<u32> {
    let (lanes, _) = rowvec_geometry(ab, width);
    let blocks = (rows.max(1) as u64 * lanes as u64).div_ceil(BLOCK as u64);
    u32::try_from(blocks).ok().filter(|&b| b < i32::MAX as u32).ok_or_else(|| Error::NotSupported(format!("{rows} rows exceed the grid")))
}

/// The vectorised row kernel; `chunk_blocks` extra blocks work on the long-row chunks.
pub fn rowvec(h: &Handle, p: &SpmmRowsParams, types: Types, index: IndexType, width: u32, chunk_blocks: u32, batches: u32) -> Result<()> {
    let name = kernel_name!("oxs_spmm_rowvec_{}_{}_w{width}", types.suffix(), index_suffix(index));
    launch(h, "spmm", &name, (p.row_blocks + chunk_blocks, batches, 1), BLOCK, 0, p)
}

/// Column slices of the tile kernel for `n` columns.
pub fn tile_slices(n: i64) -> u64 {
    (n.max(1) as u64).div_ceil(SPMM_TILE_SLICE as u64)
}

/// The tile kernel (one launch: rows crossing tile edges are finished inside it).
pub fn tiles(h: &Handle, p: &SpmmTilesParams, types: Types, index: IndexType, batches: u32) -> Result<()> {
    let slices = tile_slices(p.shape.n);
    let tiles = p.tiles.count as u64;
    if tiles >= i32::MAX as u64 || slices > 65_535 || batches > 65_535 {
        return Err(Error::NotSupported(format!("{tiles} tiles x {slices} column slices x {batches} batches exceed the grid")));
    }
    let runs = slices.div_ceil(p.tiles.slices_per_block.max(1) as u64) as u32;
    let name = || kernel_name!("oxs_spmm_tiles_{}_{}", types.suffix(), index_suffix(index));
    launch_keyed(h, "spmm_tiles", key(Site::SpmmTiles, 0, types, index), name, (tiles as u32, runs, batches), SPMM_TILE_BLOCK, 0, p)?;
    // Each call's flags carry an epoch of its own: a replayed call needs a new one.
    super::graph::fresh_word(h, TILE_EPOCH_WORD);
    Ok(())
}

/// The word of the tile kernel's parameter block that holds the call's epoch.
const TILE_EPOCH_WORD: usize = (std::mem::offset_of!(SpmmTilesParams, tiles) + std::mem::offset_of!(SpmmTiles, epoch)) / 8;
const _: () = assert!((std::mem::offset_of!(SpmmTilesParams, tiles) + std::mem::offset_of!(SpmmTiles, epoch)) % 8 == 0);

/// Builds the tile row table of `p.tiles` (preprocess), then stamps its token.
pub fn tile_rows(h: &Handle, p: &SpmmTilesParams, index: IndexType) -> Result<()> {
    let blocks = ((p.tiles.count + 1) as u64).div_ceil(SPMM_TILE_BLOCK as u64).clamp(1, MAX_GRID) as u32;
    launch(h, "spmm_tiles", &kernel_name!("oxs_spmm_tile_rows_{}", index_suffix(index)), (blocks, 1, 1), SPMM_TILE_BLOCK, 0, p)?;
    launch(h, "spmm_tiles", "oxs_spmm_tile_rows_stamp", (1, 1, 1), 1, 0, p)
}

/// Blocks of 256 threads of the short-row kernel resident per multiprocessor (its registers allow 4
/// for every type: kernels/spmm_short_rows.cu).
pub const SHORT_ROWS_RESIDENT: u32 = 4;

/// Whether short rows of these types and `shape` can write a column-major C themselves
/// (`short_rows` with `column_c`): FP32 and FP64, in the shapes whole rows take (narrow, x2,
/// wide_x2) or, over a split-row table (`split`), the shapes preprocess gives it (narrow, wide_x2,
/// FP64's half).
pub fn short_rows_column_c(types: Types, shape: RowShape, split: bool) -> bool {
    let shaped = match split {
        false => matches!(shape, RowShape::Narrow | RowShape::NarrowX2 | RowShape::WideX2),
        true => matches!(shape, RowShape::Narrow | RowShape::WideX2) || (shape == RowShape::Half && types.all(DataType::CUDA_R_64F)),
    };
    (types.all(DataType::CUDA_R_32F) || types.all(DataType::CUDA_R_64F)) && shaped
}

/// The short-row kernel with groups of `shape` (ops/spmm/short_rows.rs `shape`, or `Narrow`): grid
/// x over groups of rows (or the `split_blocks` blocks of the split-row table at `p.split`), y over
/// runs of column slices (`slices_per_block(row blocks, slices)` each, the planner's rule), z over
/// batches.
/// With `column_c` (`short_rows_column_c`) C is column-major and the kernel writes it: through
/// shared memory by whole rows (`oxs_spmm_short_rows_colc_*`), an element at a time over the
/// split-row table (`oxs_spmm_split_rows_colc_*`).
pub fn short_rows(
    h: &Handle,
    p: &SpmmRowsParams,
    (types, index): (Types, IndexType),
    batches: u32,
    (shape, split_blocks, column_c): (RowShape, Option<u32>, bool),
    slices_per_block: impl FnOnce(u64, u64) -> u64,
) -> Result<()> {
    if column_c && !short_rows_column_c(types, shape, split_blocks.is_some()) {
        return Err(Error::Internal(format!("no column-major short-row kernel for {shape:?} and {types:?}")));
    }
    let blocks = match split_blocks {
        Some(b) => b as u64,
        None => (p.shape.m.max(1) as u64).div_ceil(shape.groups_per_block(types.ab)),
    };
    let slices = shape.slices(p.shape.n);
    let per_block = slices_per_block(blocks, slices).clamp(1, slices.max(1));
    let runs = slices.div_ceil(per_block);
    if blocks >= i32::MAX as u64 || runs > 65_535 || batches > 65_535 {
        return Err(Error::NotSupported(format!("{blocks} row blocks x {runs} runs of column slices x {batches} batches exceed the grid")));
    }
    let p = SpmmRowsParams { slices_per_block: per_block as u32, ..*p };
    let (family, variant) = match (split_blocks, column_c) {
        (Some(_), true) => ("split_rows_colc", 0),
        (Some(_), false) => ("split_rows", 1),
        (None, true) => ("short_rows_colc", 2),
        (None, false) => ("short_rows", 3),
    };
    let name = || kernel_name!("oxs_spmm_{family}{}_{}_{}", shape.kernel_suffix(), types.suffix(), index_suffix(index));
    let key = key(Site::SpmmShortRows, variant << 4 | shape as u8, types, index);
    launch_keyed(h, "spmm_short_rows", key, name, (blocks as u32, runs as u32, batches), BLOCK, 0, &p)
}

/// Columns of `value` a warp of the warp-row kernel covers with one vector a lane: 128 FP32 (16
/// bytes), 64 FP64 (16 bytes), 128 FP16 / BF16 (8 bytes).
pub fn warp_rows_cols(value: DataType) -> i64 {
    match value.size_bytes() {
        8 => SPMM_WARP_ROWS_COLS as i64 / 2,
        _ => SPMM_WARP_ROWS_COLS as i64,
    }
}

/// The warp-row kernel for n columns of `value`, as its name's infix and the columns of one slice
/// of its grid: `_x2` (twice `warp_rows_cols`) when n allows, else the plain kernel, else for
/// FP32 `_narrow` (8-byte vectors, 64 columns); None when n is a multiple of none.
pub fn warp_rows_variant(n: i64, value: DataType) -> Option<(&'static str, i64)> {
    let cols = warp_rows_cols(value);
    let narrow = (value == DataType::CUDA_R_32F).then_some(("_narrow", cols / 2));
    [("_x2", 2 * cols), ("", cols)].into_iter().chain(narrow).find(|&(_, c)| n > 0 && n % c == 0)
}

/// Column slices of the warp-row kernel's grid for n columns of `value` (`warp_rows_variant`; 0
/// when none fits). Its arrival counters come one per slice.
pub fn warp_rows_slices(n: i64, value: DataType) -> i64 {
    warp_rows_variant(n, value).map_or(0, |(_, c)| n / c)
}

/// The warp-row kernel (kernels/spmm_warp_rows.cu) over a warp-row table, for `types` that
/// src/ops/spmm/warp_rows/mod.rs `fits`: grid x over `warps` items (a warp each, 8 a block; at least
/// the rows, so that an untrusted table's fallback covers them), y over column slices
/// (`warp_rows_slices`). Split rows are added inside the kernel.
pub fn warp_rows(h: &Handle, p: &SpmmWarpRowsParams, types: Types, index: IndexType, warps: i64) -> Result<()> {
    let Some((sfx, cols)) = warp_rows_variant(p.shape.n, types.ab) else {
        return Err(Error::NotSupported(format!("warp rows for {} columns", p.shape.n)));
    };
    let slices = (p.shape.n / cols) as u64;
    let blocks = (warps.max(p.shape.m).max(1) as u64).div_ceil(BLOCK as u64 / WARP);
    if blocks >= i32::MAX as u64 || slices == 0 || slices > 65_535 || p.adds >= i32::MAX as i64 {
        return Err(Error::NotSupported(format!("{blocks} warp-row blocks x {slices} column slices exceed the grid")));
    }
    let name = || kernel_name!("oxs_spmm_warp_rows{sfx}_{}_{}", types.suffix(), index_suffix(index));
    let variant = match sfx {
        "_x2" => 1,
        "" => 2,
        _ => 3,
    };
    launch_keyed(h, "spmm_warp_rows", key(Site::SpmmWarpRows, variant, types, index), name, (blocks as u32, slices as u32, 1), BLOCK, 0, p)
}

/// Blocks for a thread per row of `m`: up to 8 a multiprocessor, then the kernel strides.
fn thread_per_row_blocks(h: &Handle, m: i64) -> u32 {
    (m.max(1) as u64).div_ceil(BLOCK as u64).clamp(1, h.device_model.sm_count as u64 * 8) as u32
}

/// Preprocess: the longest row of op(A), measured on the GPU and read back (the caller must not be
/// capturing a graph: the read-back waits).
pub fn longest_row(h: &Handle, p: &SpmmLongestRowParams, index: IndexType) -> Result<u64> {
    {
        super::graph::flush(h)?;
        let _bound = h.bind()?;
        // SAFETY: `longest` is an 8-byte region of the caller's workspace (the plan's tile layout).
        unsafe { result::memset_d8_async(p.longest, 0, 8, h.cu_stream()) }
            .map_err(|e| Error::from_driver("clearing the SpMM longest-row word", e))?;
    }
    let blocks = thread_per_row_blocks(h, p.m);
    launch(h, "spmm_short_rows", &kernel_name!("oxs_spmm_longest_row_{}", index_suffix(index)), (blocks, 1, 1), BLOCK, 0, p)?;
    let mut word = [0u8; 8];
    super::vector_ops::copy_to_host_and_wait(h, p.longest, &mut word)?;
    Ok(u64::from_ne_bytes(word))
}

/// A plain call's verdict (`SpmmRowsLongerParams`, src/ops/spmm/plain_choice.rs): enqueued, no
/// wait; a thread per row.
pub fn rows_longer_than(h: &Handle, p: &SpmmRowsLongerParams, index: IndexType) -> Result<()> {
    let blocks = thread_per_row_blocks(h, p.m);
    launch(h, "spmm_short_rows", &kernel_name!("oxs_spmm_rows_longer_than_{}", index_suffix(index)), (blocks, 1, 1), BLOCK, 0, p)
}

/// Preprocess (the row-order model): op(A)'s sampled entries (`SpmmRowSampleParams`), counted and
/// written on the GPU and read back (waits; the caller must not be capturing a graph). `scratch`
/// is `scratch_bytes` of the caller's workspace, free until preprocess writes its table there: the
/// counts, then the offsets (a u32 per row and one more) and the columns, as many rows at a time
/// as fit. Returns each row's sampled columns (row r's at `offsets[r] .. offsets[r + 1]` of the
/// columns), or None when the scratch cannot hold the offsets and one row's columns, or the
/// sample outgrows 32-bit offsets.
pub fn row_sample(
    h: &Handle,
    p: &SpmmRowSampleParams,
    m: i64,
    index: IndexType,
    scratch: u64,
    scratch_bytes: usize,
) -> Result<Option<(Vec<usize>, Vec<u32>)>> {
    let m = m.max(0) as usize;
    let offsets_bytes = (m + 1) * 4;
    let ids_at = offsets_bytes.next_multiple_of(16);
    if scratch_bytes < ids_at + 4 {
        return Ok(None);
    }
    let capacity = (scratch_bytes - ids_at) / 4;
    let name = kernel_name!("oxs_spmm_row_sample_{}", index_suffix(index));
    let grid = |rows: usize| (rows.max(1) as u64).div_ceil(BLOCK as u64).min(MAX_GRID) as u32;
    // Pass 1: the counts, over the offsets' room.
    let mut bytes = vec![0u8; m * 4];
    if m > 0 {
        launch(
            h,
            "spmm_row_sample",
            &name,
            (grid(m), 1, 1),
            BLOCK,
            0,
            &SpmmRowSampleParams { first_row: 0, rows: m as i64, counts: scratch, ids: 0, ..*p },
        )?;
        super::vector_ops::copy_to_host_and_wait(h, scratch, &mut bytes)?;
    }
    let mut offsets = Vec::with_capacity(m + 1);
    offsets.push(0usize);
    for c in bytes.chunks_exact(4) {
        offsets.push(offsets.last().unwrap() + u32::from_ne_bytes(c.try_into().unwrap()) as usize);
    }
    let total = offsets[m];
    if total > u32::MAX as usize {
        return Ok(None);
    }
    // Pass 2: the columns, as many rows at a time as the room after the offsets holds.
    let words: Vec<u8> = offsets.iter().flat_map(|&o| (o as u32).to_ne_bytes()).collect();
    super::vector_ops::copy_to_device_and_wait(h, scratch, &words)?;
    let mut ids = Vec::with_capacity(total);
    let mut first = 0usize;
    while first < m {
        // The most rows from `first` whose columns fit.
        let last = offsets.partition_point(|&o| o <= offsets[first] + capacity) - 1;
        if last == first && offsets[first + 1] > offsets[first] {
            return Ok(None);
        }
        let last = last.max(first + 1).min(m);
        let (from, to) = (offsets[first], offsets[last]);
        if to > from {
            let rows = last - first;
            launch(
                h,
                "spmm_row_sample",
                &name,
                (grid(rows), 1, 1),
                BLOCK,
                0,
                &SpmmRowSampleParams {
                    first_row: first as i64,
                    rows: rows as i64,
                    offsets: scratch,
                    ids: scratch + ids_at as u64,
                    first_id: from as u64,
                    ..*p
                },
            )?;
            bytes.resize((to - from) * 4, 0);
            super::vector_ops::copy_to_host_and_wait(h, scratch + ids_at as u64, &mut bytes)?;
            ids.extend(bytes.chunks_exact(4).map(|c| u32::from_ne_bytes(c.try_into().unwrap())));
        }
        first = last;
    }
    Ok(Some((offsets, ids)))
}

/// Preprocess: writes the warp-row table's short-row items (`SpmmWarpRowsShortParams`) on the
/// handle's stream.
pub fn warp_rows_short_items(h: &Handle, p: &SpmmWarpRowsShortParams, index: IndexType) -> Result<()> {
    if p.m <= 0 {
        return Ok(());
    }
    let blocks = (p.m as u64).div_ceil(BLOCK as u64).min(MAX_GRID) as u32;
    launch(h, "spmm_warp_rows_table", &kernel_name!("oxs_spmm_warp_rows_short_items_{}", index_suffix(index)), (blocks, 1, 1), BLOCK, 0, p)
}

/// Preprocess: lists the rows longer than a piece (`SpmmWarpRowsListParams`; its counters zeroed
/// by the caller) on the handle's stream.
pub fn warp_rows_list_long(h: &Handle, p: &SpmmWarpRowsListParams, index: IndexType) -> Result<()> {
    if p.m <= 0 {
        return Ok(());
    }
    let blocks = (p.m as u64).div_ceil(BLOCK as u64).min(MAX_GRID) as u32;
    launch(h, "spmm_warp_rows_table", &kernel_name!("oxs_spmm_warp_rows_list_long_{}", index_suffix(index)), (blocks, 1, 1), BLOCK, 0, p)
}

/// A plain call's warp-row table, built on the GPU (`SpmmWarpRowsBuildParams`): the count over
/// `p.chunks` chunks of rows, then the write, which may start while the count runs (it waits).
pub fn warp_rows_build(h: &Handle, p: &SpmmWarpRowsBuildParams, index: IndexType) -> Result<()> {
    warp_rows_count(h, p, index)?;
    super::graph::overlap_next(h);
    warp_rows_write(h, p, index)
}

/// The build's first launch alone (in a plain call's chain, where it gives the verdict too).
pub fn warp_rows_count(h: &Handle, p: &SpmmWarpRowsBuildParams, index: IndexType) -> Result<()> {
    let grid = warp_rows_build_grid(p)?;
    launch(h, "spmm_warp_rows_table", &kernel_name!("oxs_spmm_warp_rows_count_{}", index_suffix(index)), grid, BLOCK, 0, p)
}

/// The build's second launch alone.
pub fn warp_rows_write(h: &Handle, p: &SpmmWarpRowsBuildParams, index: IndexType) -> Result<()> {
    let grid = warp_rows_build_grid(p)?;
    launch(h, "spmm_warp_rows_table", &kernel_name!("oxs_spmm_warp_rows_write_{}", index_suffix(index)), grid, BLOCK, 0, p)
}

fn warp_rows_build_grid(p: &SpmmWarpRowsBuildParams) -> Result<(u32, u32, u32)> {
    let rows_fit = p.chunk_rows > 0 && p.chunk_rows % SPMM_WARP_ROWS_CHUNK as i64 == 0;
    if p.m <= 0 || !rows_fit || p.chunks as u64 != (p.m as u64).div_ceil(p.chunk_rows as u64) || p.chunks >= i32::MAX as i64 {
        return Err(Error::Internal(format!("a warp-row table build of {} chunks for {} rows", p.chunks, p.m)));
    }
    Ok((p.chunks as u32, 1, 1))
}

/// Builds the long-row schedule: zeroes its two counters, then lists the long rows.
pub fn find_long_rows(h: &Handle, p: &SpmmFindLongParams, index: IndexType, batches: u32) -> Result<()> {
    {
        super::graph::flush(h)?;
        let _bound = h.bind()?;
        // SAFETY: `counters` is an 8-byte region of the caller's workspace (see the plan's layout).
        unsafe { result::memset_d8_async(p.sched.counters, 0, 8, h.cu_stream()) }
            .map_err(|e| Error::from_driver("clearing the SpMM schedule counters", e))?;
    }
    let blocks = (p.m.max(1) as u64).div_ceil(BLOCK as u64).clamp(1, MAX_GRID) as u32;
    let name = kernel_name!("oxs_spmm_find_long_{}", index_suffix(index));
    launch(h, "spmm", &name, (blocks, batches, 1), BLOCK, 0, p)
}

/// The staging copies' tile (kernels/spmm_stage.cu): SPMM_STAGE_TILE where its blocks fill a
/// wave of the device (8 blocks of 256 threads a multiprocessor), half that below, where the larger
/// tiles leave too few blocks (cryg2500's 1.3 MB B took 4.45 us in 80 blocks of 64 x
/// 64, 3.94 us in 316 of 32 x 32; delaunay_n16's 33.5 MB 20.5 us against 23.5).
fn stage_tile(h: &Handle, rows: i64, cols: i64, batches: u32) -> u64 {
    let big = SPMM_STAGE_TILE as u64;
    let blocks = (rows.max(1) as u64).div_ceil(big) * (cols.max(1) as u64).div_ceil(big) * batches.max(1) as u64;
    if blocks >= 8 * h.device_model.sm_count as u64 {
        big
    } else {
        big / 2
    }
}

/// Tiles of the staging copies: grid x over row tiles (up to 2^31), y over column tiles.
fn stage_grid(rows: i64, cols: i64, batches: u32, tile: u64) -> Result<(u32, u32, u32)> {
    let x = (rows.max(1) as u64).div_ceil(tile);
    let y = (cols.max(1) as u64).div_ceil(tile);
    if x >= i32::MAX as u64 || y > 65_535 {
        return Err(Error::NotSupported(format!("a {rows} x {cols} operand exceeds the staging grid")));
    }
    Ok((x as u32, y as u32, batches))
}

/// Copies op(B) into the row-major scratch `p.dst`.
pub fn stage_b(h: &Handle, p: &SpmmStageParams, ab: DataType, batches: u32) -> Result<()> {
    let tile = stage_tile(h, p.rows, p.cols, batches);
    let name = || kernel_name!("oxs_spmm_stage_b_{}_t{tile}", ab.kernel_suffix());
    // Keyed, as the kernels after it: formatting and hashing the name took about 0.2 us of a
    // column-major call's host time (too little for its A/B to resolve).
    let key = KernelKey::new(Site::SpmmStage, &[(tile == SPMM_STAGE_TILE as u64) as u8, ab as u8]);
    launch_keyed(h, "spmm_stage", key, name, stage_grid(p.rows, p.cols, batches, tile)?, BLOCK, 0, p)
}

/// Writes C = alpha * scratch + beta * C from the row-major scratch `p.src`.
pub fn stage_c(h: &Handle, p: &SpmmStageParams, types: Types, batches: u32) -> Result<()> {
    let tile = stage_tile(h, p.rows, p.cols, batches);
    let name = || kernel_name!("oxs_spmm_stage_c_{}_{}_t{tile}", types.c.kernel_suffix(), types.compute.kernel_suffix());
    let key = KernelKey::new(Site::SpmmStage, &[2 | (tile == SPMM_STAGE_TILE as u64) as u8, types.c as u8, types.compute as u8]);
    launch_keyed(h, "spmm_stage", key, name, stage_grid(p.rows, p.cols, batches, tile)?, BLOCK, 0, p)
}

/// The block-row kernel of a BSR or (`ell`) Blocked-ELL A on the path the plan chose
/// (src/ops/spmm/blocked.rs). CUDA cores: a group of lanes per slice of a block row and the
/// group's columns (`blocked_group`); tensor cores: a block per block row and `SPMM_BLOCKED_TC_COLS`
/// columns. Both stride over the grid's limits. The tensor-core copies (`OXSPARSE_SPMM_BLOCKED_COPIES`)
/// are TMA boxes where `spmm_tma::fits` (16-bit blocks of 16 or 32 rows on sm_90), else `cp.async`
/// where `copies_whole`, else staged. `bnnz`: BSR's stored blocks (the TMA kernel's map of A).
pub fn blocked(h: &Handle, p: &SpmmBlockedParams, ell: bool, path: BlockedPath, types: Types, index: IndexType, bnnz: i64) -> Result<()> {
    let format = if ell { "bell" } else { "bsr" };
    let copies = h.settings.spmm.blocked_copies;
    let block_rows = (p.shape.m / p.row_block.max(1)).max(1) as u64;
    match path {
        BlockedPath::SmallBlocks { size } => super::spmm_bsr_small::launch_small_blocks(h, p, size, types, index),
        BlockedPath::CudaCores { rows } => {
            let name = kernel_name!("oxs_spmm_{format}_{}_{}_r{rows}", types.suffix(), index_suffix(index));
            let slices = (p.row_block.max(1) as u64).div_ceil(rows as u64);
            let (lanes, columns) = blocked_group(types.compute, p.shape.n);
            let items = block_rows * slices * (p.shape.n.max(1) as u64).div_ceil(lanes * columns);
            let blocks = items.div_ceil(BLOCK as u64 / lanes).clamp(1, MAX_GRID) as u32;
            launch(h, "spmm_blocked", &name, (blocks, 1, 1), BLOCK, 0, p)
        }
        BlockedPath::TensorCores(TcPrecision::Half)
            if matches!(copies, None | Some(BlockedCopies::Tma))
                && copies_whole(p, types.ab.size_bytes() as i64)
                && spmm_tma::fits(h, p, ell, types.ab, bnnz) =>
        {
            spmm_tma::blocked(h, p, ell, types.ab, types.c, index, bnnz)
        }
        BlockedPath::TensorCores(precision @ (TcPrecision::Half | TcPrecision::Tf32))
            if copies != Some(BlockedCopies::Staged) && copies_whole(p, types.ab.size_bytes() as i64) =>
        {
            // Blocks of 16 or 32 rows take the instantiation staging 32 rows (its `Tiling`).
            let rows = if p.row_block <= 32 { 32 } else { SPMM_BLOCKED_TC_MAX_ROWS };
            // Under a whole tile of columns the copies are dealt so that no thread carries a
            // column past N; for whole tiles the plain walk is leaner (docs/design/blocked-spmm.md).
            let dealt = if p.shape.n < SPMM_BLOCKED_TCA_COLS as i64 { "_d" } else { "" };
            let operands = if precision == TcPrecision::Tf32 { "tf32" } else { types.ab.kernel_suffix() };
            let name = kernel_name!("oxs_spmm_{format}_tca_{operands}_{}_{}_r{rows}{dealt}", types.c.kernel_suffix(), index_suffix(index));
            let tiles = (p.shape.n.max(1) as u64).div_ceil(SPMM_BLOCKED_TCA_COLS as u64);
            // One wave: a thread block walks many block rows, its setup paid once.
            let wave = super::resident_blocks(h, "spmm_blocked_tc_async", &name, BLOCK)?.max(1) as u64 * u64::from(h.device_model.sm_count);
            let grid = (block_rows.min(wave.div_ceil(tiles)).min(MAX_GRID) as u32, tiles.min(MAX_GRID) as u32, 1);
            launch(h, "spmm_blocked_tc_async", &name, grid, BLOCK, 0, p)
        }
        BlockedPath::TensorCores(precision) => {
            let operands = match precision {
                TcPrecision::Half => types.ab.kernel_suffix(),
                TcPrecision::Tf32 => "tf32",
                TcPrecision::Tf32x3 => "tf32x3",
            };
            // Blocks of 16 or 32 rows (one or two slices) take the instantiation with fewer
            // accumulators: 64 registers a thread against 128.
            let slices = if p.row_block <= 32 { 2 } else { 8 };
            let name = kernel_name!("oxs_spmm_{format}_tc_{operands}_{}_{}_s{slices}", types.c.kernel_suffix(), index_suffix(index));
            let tiles = (p.shape.n.max(1) as u64).div_ceil(SPMM_BLOCKED_TC_COLS as u64);
            let grid = (block_rows.min(MAX_GRID) as u32, tiles.min(MAX_GRID) as u32, 1);
            launch(h, "spmm_blocked_tc", &name, grid, BLOCK, 0, p)
        }
    }
}

/// Whether a tensor-core call's operands (of `elem` bytes: 16-bit, or FP32 for TF32) reach shared
/// memory 16 bytes at a time as they lie (`kernels/spmm_blocked_tc_async.cu`): A's block rows
/// row-major (Blocked-ELL, or BSR with row-major blocks) from a 16-byte boundary, op(B) row-major
/// with rows of a multiple of 8 elements on 16-byte boundaries, N a multiple of 8 (a copy lies
/// wholly inside or past N, an n tile wholly inside), blocks of a power of two columns (16 or more:
/// A's rows of a block start on 16 bytes, and a stage's chunk holds whole blocks or lies in one)
/// and k of whole blocks under 2^31 (no copy of A crosses k; positions along a block row are
/// 32-bit), B's rows under 2^31 bytes apart.
fn copies_whole(p: &SpmmBlockedParams, elem: i64) -> bool {
    let b = &p.b;
    p.col_major_blocks == 0
        && p.values % 16 == 0
        && p.col_block >= 16
        && (p.col_block as u64).is_power_of_two()
        && p.shape.k % p.col_block == 0
        && p.shape.k < 1 << 31
        && b.col_stride == 1
        && b.row_stride % 8 == 0
        && b.row_stride.saturating_mul(elem) < 1 << 31
        && b.values % 16 == 0
        && p.shape.n % 8 == 0
}

/// A group of the CUDA-core block-row kernel (kernels/spmm_blocked.cu, `lane_columns` and
/// `group_lanes`): (lanes, consecutive columns a lane), the columns 4 for compute types of up to 8
/// bytes, 1 for 16, the lanes the fewest (a power of two up to a warp) that cover `n`.
fn blocked_group(compute: DataType, n: i64) -> (u64, u64) {
    let columns = match compute.size_bytes() {
        ..=8 => 4,
        _ => 1,
    };
    let mut lanes = 1;
    while lanes < WARP && (lanes * columns) < n.max(0) as u64 {
        lanes *= 2;
    }
    (lanes, columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType::*;

    #[test]
    fn blocked_groups_cover_n_with_the_fewest_lanes() {
        assert_eq!([0, 1, 4, 5, 32, 33, 64, 128, 129, 4096].map(|n| blocked_group(CUDA_R_32F, n).0), [1, 1, 1, 2, 8, 16, 16, 32, 32, 32]);
        assert_eq!(blocked_group(CUDA_R_64F, 64), (16, 4));
        assert_eq!(blocked_group(CUDA_C_64F, 3), (4, 1));
        assert_eq!(blocked_group(CUDA_R_32F, 32), (8, 4));
    }

    /// Each condition of `copies_whole` refuses alone; B's row distance is bounded in bytes, so
    /// FP32 (TF32) operands reach it at half the elements of 16-bit ones.
    #[test]
    fn whole_copies_need_every_condition() {
        let mut ok = SpmmBlockedParams { values: 256, row_block: 32, col_block: 32, ..Default::default() };
        ok.shape = SpmmShape { m: 64, k: 128, n: 64, ..Default::default() };
        ok.b = SpmmDense { values: 512, row_stride: 64, col_stride: 1, ..Default::default() };
        assert!(copies_whole(&ok, 2) && copies_whole(&ok, 4));
        let refused: [fn(&mut SpmmBlockedParams); 10] = [
            |p| p.col_major_blocks = 1,
            |p| p.values += 8,
            |p| p.col_block = 8,
            |p| p.col_block = 48,
            |p| p.shape.k = 112,
            |p| p.b.col_stride = 2,
            |p| p.b.row_stride = 68,
            |p| p.b.values += 4,
            |p| p.shape.n = 60,
            |p| p.b.row_stride = 1 << 30,
        ];
        for (i, change) in refused.iter().enumerate() {
            let mut p = ok;
            change(&mut p);
            assert!(!copies_whole(&p, 2) && !copies_whole(&p, 4), "condition {i}");
        }
        let mut wide = ok;
        wide.b.row_stride = 1 << 29;
        assert!(copies_whole(&wide, 2) && !copies_whole(&wide, 4));
    }

    #[test]
    fn rowvec_geometry_matches_the_kernel_shapes() {
        // f32: 4 per vector. 32 columns -> 8 lanes; 256 -> 32 lanes x 2 vectors.
        assert_eq!(rowvec_geometry(CUDA_R_32F, 32), (8, 1));
        assert_eq!(rowvec_geometry(CUDA_R_32F, 128), (32, 1));
        assert_eq!(rowvec_geometry(CUDA_R_32F, 256), (32, 2));
        // f64: 2 per vector; f16: 8 per vector.
        assert_eq!(rowvec_geometry(CUDA_R_64F, 32), (16, 1));
        assert_eq!(rowvec_geometry(CUDA_R_64F, 256), (32, 4));
        assert_eq!(rowvec_geometry(CUDA_R_16F, 32), (4, 1));
        assert_eq!(rowvec_geometry(CUDA_R_16F, 256), (32, 1));
    }

    #[test]
    fn short_rows_groups_match_the_kernel_shapes() {
        use RowShape::*;
        let t = |ab, c| Types { ab, c, compute: if ab == CUDA_R_64F { CUDA_R_64F } else { CUDA_R_32F } };
        let f32 = t(CUDA_R_32F, CUDA_R_32F);
        // FP32: 8 lanes of 4 per 32 columns (32 groups), 16 per 64 (16 groups); two vectors a
        // lane keep the groups and double the columns.
        assert_eq!(
            [Narrow, Wide, NarrowX2, WideX2].map(|s| (s.columns(), s.groups_per_block(CUDA_R_32F))),
            [(32, 32), (64, 16), (64, 32), (128, 16)]
        );
        assert!(!WideX2.fits(f32, 192) && WideX2.fits(f32, 256) && NarrowX2.fits(f32, 64));
        // FP64: 16 lanes of 2; 16-bit: 8 lanes of 4; narrow groups whatever n.
        assert_eq!(Narrow.groups_per_block(CUDA_R_64F), 16);
        assert_eq!(Narrow.groups_per_block(CUDA_R_16F), 32);
        assert!(!Wide.fits(t(CUDA_R_64F, CUDA_R_64F), 256));
        assert!(WideX2.fits(t(CUDA_R_64F, CUDA_R_64F), 256) && NarrowX2.fits(t(CUDA_R_16F, CUDA_R_16F), 64));
        assert!(!NarrowX2.fits(t(CUDA_R_16BF, CUDA_R_16BF), 64));
        assert_eq!([NarrowX2, WideX2].map(|s| s.groups_per_block(CUDA_R_64F)), [16, 8]);
        // FP64's half-width groups: 8 lanes of 2 for 16 columns, FP32's narrow count per block.
        let f64 = t(CUDA_R_64F, CUDA_R_64F);
        assert_eq!((Half.columns(), Half.groups_per_block(CUDA_R_64F)), (16, 32));
        assert!(Half.fits(f64, 16) && Half.fits(f64, 128) && !Half.fits(f64, 24) && !Half.fits(f32, 128));
        assert_eq!([CUDA_R_32F, CUDA_R_64F, CUDA_R_16F].map(RowShape::most_groups_per_block), [32, 32, 32]);
        // 16-bit packed groups: 8 lanes of 8 for 64 columns, 16 for 128; A, B and C of one
        // 16-bit type with FP32 compute only.
        let (f16, bf16) = (t(CUDA_R_16F, CUDA_R_16F), t(CUDA_R_16BF, CUDA_R_16BF));
        assert_eq!([Packed, PackedWide].map(|s| (s.columns(), s.groups_per_block(CUDA_R_16F))), [(64, 32), (128, 16)]);
        assert_eq!([Packed, PackedWide].map(|s| s.entries_in_flight()), [4, 4]);
        assert!(Packed.fits(bf16, 64) && PackedWide.fits(f16, 256) && !PackedWide.fits(f16, 192));
        assert!(!Packed.fits(t(CUDA_R_16F, CUDA_R_32F), 64) && !Packed.fits(f32, 64) && !PackedWide.fits(f64, 128));
    }
}
