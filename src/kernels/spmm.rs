//! Launchers for `kernels/spmm.cu` (row kernels and the long-row schedule),
//! `kernels/spmm_tiles.cu` (the tile kernel), `kernels/spmm_short_rows.cu` (the short-row kernel
//! and preprocess's longest-row measure) and `kernels/spmm_blocked.cu` (BSR, Blocked-ELL). The
//! plan (src/ops/spmm/plan.rs) has already chosen the kernel and filled the parameter blocks;
//! these functions only pick the instantiation's name and the grid.

use super::params::spmm::*;
use super::{launch, MAX_GRID};
use crate::context::Handle;
use crate::error::{Error, Result};
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
    fn suffix(&self) -> String {
        format!("{}_{}_{}", self.ab.kernel_suffix(), self.c.kernel_suffix(), self.compute.kernel_suffix())
    }
}

fn index_suffix(t: IndexType) -> &'static str {
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
    let name = format!("oxs_spmm_rows_{}_{}", types.suffix(), index_suffix(index));
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
    let name = format!("oxs_spmm_rowvec_{}_{}_w{width}", types.suffix(), index_suffix(index));
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
    let suffix = format!("{}_{}", types.suffix(), index_suffix(index));
    let runs = slices.div_ceil(p.tiles.slices_per_block.max(1) as u64) as u32;
    launch(h, "spmm_tiles", &format!("oxs_spmm_tiles_{suffix}"), (tiles as u32, runs, batches), SPMM_TILE_BLOCK, 0, p)
}

/// Builds the tile row table of `p.tiles` (preprocess), then stamps its token.
pub fn tile_rows(h: &Handle, p: &SpmmTilesParams, index: IndexType) -> Result<()> {
    let blocks = ((p.tiles.count + 1) as u64).div_ceil(SPMM_TILE_BLOCK as u64).clamp(1, MAX_GRID) as u32;
    launch(h, "spmm_tiles", &format!("oxs_spmm_tile_rows_{}", index_suffix(index)), (blocks, 1, 1), SPMM_TILE_BLOCK, 0, p)?;
    launch(h, "spmm_tiles", "oxs_spmm_tile_rows_stamp", (1, 1, 1), 1, 0, p)
}

/// Columns per group of the short-row kernel: 64 for FP32 with n a multiple of 64 (its `_wide`
/// kernels, 1.05-1.15x faster there in the session-14 lab), else SPMM_TILE_SLICE.
pub fn short_rows_slice(types: Types, n: i64) -> u64 {
    let fp32 = types.ab == DataType::CUDA_R_32F && types.c == DataType::CUDA_R_32F;
    if fp32 && n >= 64 && n % 64 == 0 { 2 * SPMM_TILE_SLICE as u64 } else { SPMM_TILE_SLICE as u64 }
}

/// Rows (groups) per block of the short-row kernel over slices of `slice` columns: a group of
/// `slice / vec` lanes per row, a lane holding 16 bytes of 4- and 8-byte types, 4 elements of
/// 16-bit ones (`Shape` in kernels/spmm_short_rows.cu).
pub fn short_rows_per_block(ab: DataType, slice: u64) -> u64 {
    let vec = if ab.size_bytes() >= 4 { 16 / ab.size_bytes() } else { 4 };
    BLOCK as u64 / (slice / vec)
}

/// Blocks of 256 threads of the short-row kernel resident per multiprocessor (its registers allow 4
/// for every type: kernels/spmm_short_rows.cu).
pub const SHORT_ROWS_RESIDENT: u64 = 4;

/// Column slices each block of the short-row kernel takes one after another: as many as keep four
/// waves of blocks, so that matrices of many tiny rows (mdual: 258K rows of 4) do not pay a
/// block's latency over a hundred waves (session 13: 0.75x the tiles at N = 256 with one slice per
/// block). `OXSPARSE_SPMM_SHORT_SLICES` forces it (for comparisons).
pub fn short_rows_slices_per_block(h: &Handle, row_blocks: u64, slices: u64) -> u64 {
    static FORCED: once_cell::sync::Lazy<Option<u64>> =
        once_cell::sync::Lazy::new(|| std::env::var("OXSPARSE_SPMM_SHORT_SLICES").ok().and_then(|v| v.parse::<u64>().ok()).filter(|&v| v > 0));
    let resident = h.sm_count.max(1) as u64 * SHORT_ROWS_RESIDENT;
    FORCED.unwrap_or(row_blocks * slices / (4 * resident)).clamp(1, slices.max(1))
}

/// The short-row kernel over slices of `slice` columns (`short_rows_slice` or narrower): grid x
/// over groups of rows (or the `split_blocks` blocks of the split-row table at `p.split`), y over
/// runs of column slices, z over batches.
pub fn short_rows(h: &Handle, p: &SpmmRowsParams, (types, index): (Types, IndexType), batches: u32, slice: u64, split_blocks: Option<u32>) -> Result<()> {
    let blocks = match split_blocks {
        Some(b) => b as u64,
        None => (p.shape.m.max(1) as u64).div_ceil(short_rows_per_block(types.ab, slice)),
    };
    let slices = (p.shape.n.max(0) as u64).div_ceil(slice);
    let per_block = short_rows_slices_per_block(h, blocks, slices);
    let runs = slices.div_ceil(per_block);
    if blocks >= i32::MAX as u64 || runs > 65_535 || batches > 65_535 {
        return Err(Error::NotSupported(format!("{blocks} row blocks x {runs} runs of column slices x {batches} batches exceed the grid")));
    }
    let p = SpmmRowsParams { slices_per_block: per_block as u32, ..*p };
    let family = if split_blocks.is_some() { "split_rows" } else { "short_rows" };
    let wide = if slice > SPMM_TILE_SLICE as u64 { "_wide" } else { "" };
    let name = format!("oxs_spmm_{family}{wide}_{}_{}", types.suffix(), index_suffix(index));
    launch(h, "spmm_short_rows", &name, (blocks as u32, runs as u32, batches), BLOCK, 0, &p)
}

/// Preprocess: the longest row of op(A), measured on the GPU and read back (the caller must not be
/// capturing a graph: the read-back waits).
pub fn longest_row(h: &Handle, p: &SpmmLongestRowParams, index: IndexType) -> Result<u64> {
    {
        let _bound = h.bind()?;
        // SAFETY: `longest` is an 8-byte region of the caller's workspace (the plan's tile layout).
        unsafe { result::memset_d8_async(p.longest, 0, 8, h.cu_stream()) }.map_err(|e| Error::from_driver("clearing the SpMM longest-row word", e))?;
    }
    let blocks = (p.m.max(1) as u64).div_ceil(BLOCK as u64).clamp(1, h.sm_count.max(1) as u64 * 8) as u32;
    launch(h, "spmm_short_rows", &format!("oxs_spmm_longest_row_{}", index_suffix(index)), (blocks, 1, 1), BLOCK, 0, p)?;
    let mut word = [0u8; 8];
    super::vector_ops::copy_to_host_and_wait(h, p.longest, &mut word)?;
    Ok(u64::from_ne_bytes(word))
}

/// Builds the long-row schedule: zeroes its two counters, then lists the long rows.
pub fn find_long_rows(h: &Handle, p: &SpmmFindLongParams, index: IndexType, batches: u32) -> Result<()> {
    {
        let _bound = h.bind()?;
        // SAFETY: `counters` is an 8-byte region of the caller's workspace (see the plan's layout).
        unsafe { result::memset_d8_async(p.sched.counters, 0, 8, h.cu_stream()) }
            .map_err(|e| Error::from_driver("clearing the SpMM schedule counters", e))?;
    }
    let blocks = (p.m.max(1) as u64).div_ceil(BLOCK as u64).clamp(1, MAX_GRID) as u32;
    let name = format!("oxs_spmm_find_long_{}", index_suffix(index));
    launch(h, "spmm", &name, (blocks, batches, 1), BLOCK, 0, p)
}

/// Tiles of the staging copies: grid x over row tiles (up to 2^31), y over column tiles.
fn stage_grid(rows: i64, cols: i64, batches: u32) -> Result<(u32, u32, u32)> {
    let x = (rows.max(1) as u64).div_ceil(32);
    let y = (cols.max(1) as u64).div_ceil(32);
    if x >= i32::MAX as u64 || y > 65_535 {
        return Err(Error::NotSupported(format!("a {rows} x {cols} operand exceeds the staging grid")));
    }
    Ok((x as u32, y as u32, batches))
}

/// Copies op(B) into the row-major scratch `p.dst`.
pub fn stage_b(h: &Handle, p: &SpmmStageParams, ab: DataType, batches: u32) -> Result<()> {
    let name = format!("oxs_spmm_stage_b_{}", ab.kernel_suffix());
    launch(h, "spmm_stage", &name, stage_grid(p.rows, p.cols, batches)?, BLOCK, 0, p)
}

/// Writes C = alpha * scratch + beta * C from the row-major scratch `p.src`.
pub fn stage_c(h: &Handle, p: &SpmmStageParams, types: Types, batches: u32) -> Result<()> {
    let name = format!("oxs_spmm_stage_c_{}_{}", types.c.kernel_suffix(), types.compute.kernel_suffix());
    launch(h, "spmm_stage", &name, stage_grid(p.rows, p.cols, batches)?, BLOCK, 0, p)
}

pub fn bsr(h: &Handle, p: &SpmmBsrParams, types: Types, index: IndexType) -> Result<()> {
    let name = format!("oxs_spmm_bsr_{}_{}", types.suffix(), index_suffix(index));
    launch(h, "spmm_blocked", &name, (warp_per_row_blocks(p.shape.m), 1, 1), BLOCK, 0, p)
}

pub fn blocked_ell(h: &Handle, p: &SpmmBellParams, types: Types, index: IndexType) -> Result<()> {
    let name = format!("oxs_spmm_bell_{}_{}", types.suffix(), index_suffix(index));
    launch(h, "spmm_blocked", &name, (warp_per_row_blocks(p.shape.m), 1, 1), BLOCK, 0, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType::*;

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
        let t = |ab, c| Types { ab, c, compute: if ab == CUDA_R_64F { CUDA_R_64F } else { CUDA_R_32F } };
        // FP32: 64-column slices when n allows; 8 lanes of 4 per 32 columns (32 groups), 16 per 64.
        assert_eq!(short_rows_slice(t(CUDA_R_32F, CUDA_R_32F), 32), 32);
        assert_eq!(short_rows_slice(t(CUDA_R_32F, CUDA_R_32F), 128), 64);
        assert_eq!(short_rows_slice(t(CUDA_R_32F, CUDA_R_32F), 96), 32, "n not a multiple of 64 keeps narrow slices");
        assert_eq!((short_rows_per_block(CUDA_R_32F, 32), short_rows_per_block(CUDA_R_32F, 64)), (32, 16));
        // FP64: 16 lanes of 2; 16-bit: 8 lanes of 4; narrow slices whatever n.
        assert_eq!(short_rows_per_block(CUDA_R_64F, 32), 16);
        assert_eq!(short_rows_per_block(CUDA_R_16F, 32), 32);
        assert_eq!(short_rows_slice(t(CUDA_R_16F, CUDA_R_32F), 256), 32);
        assert_eq!(short_rows_slice(t(CUDA_R_64F, CUDA_R_64F), 256), 32);
    }
}
