//! Launchers for `kernels/spmv.cu` (the tile kernel over op(A) as rows, the row table
//! preprocess keeps, and the scale for empty A), `kernels/spmv_vector.cu` (the vector kernel, the
//! row histogram and row lists of its schedule) and `kernels/spmv_formats.cu` (Sliced-ELL, BSR,
//! the legacy bsrxmv). The plan (src/ops/spmv/plan.rs) has chosen the kernel and filled the
//! parameter blocks; these functions pick the instantiation's name and the grid.

use super::module::{KernelKey, Site};
use super::name::Suffixes;
use super::params::spmv::*;
use super::{grid_for, launch, launch_keyed, MAX_GRID};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::types::{DataType, IndexType};

/// The value types of one call: A, x, y storage and the compute type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types {
    pub a: DataType,
    pub x: DataType,
    pub y: DataType,
    pub compute: DataType,
}

impl Types {
    fn suffix(&self) -> Suffixes<4> {
        Suffixes([self.a.kernel_suffix(), self.x.kernel_suffix(), self.y.kernel_suffix(), self.compute.kernel_suffix()])
    }
}

/// The key of a keyed launch site's kernel (`launch_keyed`): `variant` says which of the site's
/// kernels, then the value and index types.
fn key(site: Site, variant: u8, types: Types, index: IndexType) -> KernelKey {
    KernelKey::new(site, &[variant, types.a as u8, types.x as u8, types.y as u8, types.compute as u8, index as u8])
}

fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

/// Entries per warp step of the tile kernel; tile sizes are multiples of it.
pub const CHUNK: i64 = 32 * SPMV_QUAD as i64;
/// Tiles (warps) per block of the tile kernel.
const TILES_PER_BLOCK: u64 = SPMV_BLOCK as u64 / 32;

/// Tiles of `size` entries covering `nnz`.
pub fn tile_count(nnz: i64, size: i64) -> i64 {
    (nnz.max(0) as u64).div_ceil(size.max(1) as u64) as i64
}

/// The tile kernel: one warp per tile.
pub fn tiles(h: &Handle, p: &SpmvRowsParams, types: Types, index: IndexType) -> Result<()> {
    let blocks = (p.tiles.count.max(0) as u64).div_ceil(TILES_PER_BLOCK);
    let blocks = u32::try_from(blocks)
        .ok()
        .filter(|&b| b < i32::MAX as u32)
        .ok_or_else(|| Error::NotSupported(format!("{} tiles exceed the grid", p.tiles.count)))?;
    let name = || kernel_name!("oxs_spmv_tiles_{}_{}", types.suffix(), index_suffix(index));
    launch_keyed(h, "spmv", key(Site::SpmvTiles, 0, types, index), name, (blocks, 1, 1), SPMV_BLOCK, 0, p)
}

/// Warps of the tile kernel for these types that the device holds at once (one per tile): its
/// occupancy (from the driver, by the kernel's registers) times the multiprocessors. Asked once
/// per device and kernel, then cached: the planner asks on every call.
pub fn tile_slots(h: &Handle, types: Types, index: IndexType) -> Result<i64> {
    let name = kernel_name!("oxs_spmv_tiles_{}_{}", types.suffix(), index_suffix(index));
    let blocks = super::resident_blocks(h, "spmv", &name, SPMV_BLOCK)?;
    Ok(blocks * TILES_PER_BLOCK as i64 * h.device_model.sm_count as i64)
}

/// Builds the row table of `p.tiles` and then stamps its token (two launches, stream-ordered).
pub fn build_tile_rows(h: &Handle, p: &SpmvRowsParams, index: IndexType) -> Result<()> {
    let name = kernel_name!("oxs_spmv_tile_rows_{}", index_suffix(index));
    launch(h, "spmv", &name, (grid_for(p.tiles.count as u64, SPMV_BLOCK), 1, 1), SPMV_BLOCK, 0, p)?;
    launch(h, "spmv", "oxs_spmv_stamp", (1, 1, 1), 1, 0, p)
}

/// y = beta * y.
pub fn scale(h: &Handle, s: &SpmvShape, types: Types) -> Result<()> {
    let name = kernel_name!("oxs_spmv_scale_{}", types.suffix());
    launch(h, "spmv", &name, (grid_for(s.m as u64, SPMV_BLOCK), 1, 1), SPMV_BLOCK, 0, s)
}

/// One thread per row, grid-stride beyond `MAX_GRID` blocks.
fn row_blocks(m: i64) -> u32 {
    (m.max(1) as u64).div_ceil(SPMV_BLOCK as u64).clamp(1, MAX_GRID) as u32
}

pub fn sell(h: &Handle, p: &SpmvSellParams, types: Types, index: IndexType) -> Result<()> {
    let name = kernel_name!("oxs_spmv_sell_{}_{}", types.suffix(), index_suffix(index));
    launch(h, "spmv_formats", &name, (row_blocks(p.shape.m), 1, 1), SPMV_BLOCK, 0, p)
}

pub fn bsr(h: &Handle, p: &SpmvBsrParams, types: Types, index: IndexType) -> Result<()> {
    let name = kernel_name!("oxs_spmv_bsr_{}_{}", types.suffix(), index_suffix(index));
    launch(h, "spmv_formats", &name, (row_blocks(p.shape.m), 1, 1), SPMV_BLOCK, 0, p)
}

/// The legacy `bsrxmv`: one thread per row of the masked block rows (A, x and y of one type, 32-bit
/// indices).
pub fn bsrx(h: &Handle, p: &SpmvBsrxParams, t: DataType) -> Result<()> {
    let types = Types { a: t, x: t, y: t, compute: t };
    let name = kernel_name!("oxs_spmv_bsrx_{}_i32", types.suffix());
    launch(h, "spmv_formats", &name, (row_blocks(p.mask_size * p.bsr.row_block), 1, 1), SPMV_BLOCK, 0, p)
}

// ---- kernels/spmv_vector.cu -------------------------------------------------------------------

/// The vector kernels, by their variant in the key: `oxs_spmv_<kernel>_*`.
const LEAN: u8 = 0;
const BAND: u8 = 1;
const HUGE: u8 = 2;
const VECTOR_KERNELS: [&str; 3] = ["vector", "band", "vector_huge"];

/// Blocks of the vector kernel: the list workers, then one group of `lanes` lanes per row.
fn vector_blocks(p: &SpmvVectorParams) -> Result<u32> {
    let groups = (p.shape.m.max(0) as u64 * p.v.lanes as u64).div_ceil(SPMV_BLOCK as u64);
    let blocks = groups + p.v.huge_blocks as u64 + p.v.long_blocks as u64;
    u32::try_from(blocks)
        .ok()
        .filter(|&b| b < i32::MAX as u32)
        .ok_or_else(|| Error::NotSupported(format!("{} rows exceed the grid", p.shape.m)))
}

/// The vector kernel. Without huge rows, its lean instantiation (fewer registers, more rows in
/// flight), or, when `p.v.band` holds band offsets, the band kernel for the short rows (after the
/// lean kernel's long-row blocks alone, if there are long rows); with huge rows, the instantiation
/// with the chunk path: in one launch, or (`split`, for large matrices, where the lean kernel's
/// occupancy outweighs a launch) its chunk blocks alone and then the lean kernel for the other
/// rows.
pub fn vector(h: &Handle, p: &SpmvVectorParams, types: Types, index: IndexType, split: bool) -> Result<()> {
    // The three kernels, launched by key (the name follows from the variant).
    let run = |variant: u8, grid: u32, p: &SpmvVectorParams| {
        let kernel = VECTOR_KERNELS[variant as usize];
        let name = || kernel_name!("oxs_spmv_{kernel}_{}_{}", types.suffix(), index_suffix(index));
        launch_keyed(h, "spmv_vector", key(Site::SpmvVector, variant, types, index), name, (grid, 1, 1), SPMV_BLOCK, 0, p)
    };
    if p.v.band != 0 {
        if p.v.huge_blocks != 0 || !band_types(types) {
            return Err(Error::Internal("band offsets given to a schedule or types without a band kernel".into()));
        }
        // The long rows' warps: the lean kernel's first long_blocks blocks alone (they take only
        // listed rows); then the band kernel's groups, every block a short-row block.
        if p.v.long_blocks > 0 {
            run(LEAN, p.v.long_blocks as u32, p)?;
        }
        let band = SpmvVectorParams { v: SpmvVector { lanes: band_lanes(p.v.lanes, types), long_blocks: 0, ..p.v }, ..*p };
        return run(BAND, vector_blocks(&band)?, &band);
    }
    if p.v.huge_blocks == 0 {
        return run(LEAN, vector_blocks(p)?, p);
    }
    if !split {
        return run(HUGE, vector_blocks(p)?, p);
    }
    run(HUGE, p.v.huge_blocks as u32, p)?;
    let rest = SpmvVectorParams { v: SpmvVector { huge_blocks: 0, ..p.v }, ..*p };
    run(LEAN, vector_blocks(&rest)?, &rest)
}

/// Row-length histogram of op(A): rows, then entries, per bucket (see `SPMV_HIST_BUCKETS`),
/// copied back after the work already on the stream. Not to be called while capturing.
pub fn row_histogram(h: &Handle, p: &SpmvVectorParams, index: IndexType) -> Result<[[u64; SPMV_HIST_BUCKETS as usize]; 2]> {
    let bytes = 2 * SPMV_HIST_BUCKETS as usize * 8;
    super::vector_ops::zero_device(h, p.v.hist, bytes)?;
    let name = kernel_name!("oxs_spmv_row_histogram_{}", index_suffix(index));
    launch(h, "spmv_vector", &name, (grid_for(p.shape.m as u64, SPMV_BLOCK).min(1024), 1, 1), SPMV_BLOCK, 0, p)?;
    let mut raw = vec![0u8; bytes];
    super::vector_ops::copy_to_host_and_wait(h, p.v.hist, &mut raw)?;
    let mut hist = [[0u64; SPMV_HIST_BUCKETS as usize]; 2];
    for (i, c) in raw.chunks_exact(8).enumerate() {
        hist[i / SPMV_HIST_BUCKETS as usize][i % SPMV_HIST_BUCKETS as usize] = u64::from_ne_bytes(c.try_into().unwrap());
    }
    Ok(hist)
}

/// Lists the long and huge rows of `p.v` (and the huge rows' chunks), then stamps the token that
/// makes the lists trusted.
pub fn list_rows(h: &Handle, p: &SpmvVectorParams, index: IndexType) -> Result<()> {
    super::vector_ops::zero_device(h, p.v.counts, 24)?;
    let name = kernel_name!("oxs_spmv_list_rows_{}", index_suffix(index));
    launch(h, "spmv_vector", &name, (grid_for(p.shape.m as u64, SPMV_BLOCK), 1, 1), SPMV_BLOCK, 0, p)?;
    launch(h, "spmv_vector", "oxs_spmv_vector_stamp", (1, 1, 1), 1, 0, p)
}

/// The types the band kernels are compiled for (kernels/spmv_vector.cu): real FP32 and FP64, A, x,
/// y and compute alike.
pub fn band_types(t: Types) -> bool {
    use DataType::{CUDA_R_32F, CUDA_R_64F};
    matches!(t.a, CUDA_R_32F | CUDA_R_64F) && t.x == t.a && t.y == t.a && t.compute == t.a
}

/// Lanes per short row of a band kernel for a schedule of `lanes`: FP32 lanes keep
/// `SPMV_BAND_UNROLL_F32` entries in flight instead of `SPMV_VECTOR_UNROLL`, so a row needs
/// proportionally fewer (at least 4, the fewest the band kernels are compiled for) and a
/// multiprocessor holds more rows; FP64 keeps the schedule's.
pub fn band_lanes(lanes: i32, types: Types) -> i32 {
    if types.a != DataType::CUDA_R_32F {
        return lanes;
    }
    (lanes / (SPMV_BAND_UNROLL_F32 / SPMV_VECTOR_UNROLL) as i32).max(4)
}

/// Writes op(A)'s band offsets to `p.v.band` and returns whether every entry's fits in 16 bits
/// (waits for the answer: a stream synchronisation). Not to be called while capturing.
pub fn band_encode(h: &Handle, p: &SpmvVectorParams, index: IndexType) -> Result<bool> {
    let misfits_at = p.v.counts + 3 * 8;
    super::vector_ops::zero_device(h, misfits_at, 8)?;
    let name = kernel_name!("oxs_spmv_band_encode_{}", index_suffix(index));
    // A warp per row, grid-stride beyond MAX_GRID blocks.
    launch(h, "spmv_vector", &name, (grid_for(p.shape.m as u64 * 32, SPMV_BLOCK), 1, 1), SPMV_BLOCK, 0, p)?;
    let mut raw = [0u8; 8];
    super::vector_ops::copy_to_host_and_wait(h, misfits_at, &mut raw)?;
    Ok(u64::from_ne_bytes(raw) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DataType::*;

    fn same(t: DataType) -> Types {
        Types { a: t, x: t, y: t, compute: t }
    }

    #[test]
    fn band_kernels_exist_for_real_single_types_only() {
        assert!(band_types(same(CUDA_R_32F)) && band_types(same(CUDA_R_64F)));
        assert!(!band_types(same(CUDA_C_32F)) && !band_types(same(CUDA_R_16F)));
        assert!(!band_types(Types { a: CUDA_R_32F, ..same(CUDA_R_64F) }), "mixed");
    }

    #[test]
    fn fp32_band_rows_take_half_the_lanes_from_four() {
        assert_eq!([4, 8, 16].map(|l| band_lanes(l, same(CUDA_R_32F))), [4, 4, 8]);
        assert_eq!([4, 8, 16].map(|l| band_lanes(l, same(CUDA_R_64F))), [4, 8, 16]);
    }
}
