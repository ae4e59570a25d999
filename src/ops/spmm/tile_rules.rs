//! The tile kernel's sizes, from nnz, n and the device: entries per tile (`tile_size`) and column
//! slices per block (`slices_per_block`), each counted in waves of resident blocks.

use crate::device::DeviceModel;
use crate::kernels::params::spmm::SPMM_TILE_SLICE;

/// Blocks of the tile kernel (128 threads) a multiprocessor holds at once: its registers and
/// shared memory allow 8 (kernels/spmm_tiles.cu). Times the device's multiprocessors, a wave.
const TILE_BLOCKS_PER_SM: u32 = 8;

/// What a tile block's fixed work (finding and staging its rows, combining its groups' pieces,
/// writing C) costs, in entries of its walk: fitted on the arxiv-sized R-MAT graph, FP32 N = 32,
/// whose calls took 64 / 55 / 57.6-59.6 us at 256 / 512 / 1024-entry tiles (5 / 3 / 2 waves of
/// blocks), which gives 330-400 by round; the cases measured choose the same sizes at either end
/// (bench/notes/spmm-kernels.md).
const TILE_FIXED_ENTRIES: u64 = 400;

/// Entries per tile, a power of two from 256 to SPMM_TILE_MAX: the size whose blocks (one per tile
/// and 32-column slice) take the least time, counting whole waves of resident blocks, each as
/// long as a block's fixed work and its walk of `size` entries. A call of just over a wave of
/// blocks pays a second wave for a few of them, so this may take larger tiles that fit one wave
/// (vsp_model1, vsp_sctap1-2b, ca-CondMat and the arxiv-sized graph 7-15% faster), and keeps 256
/// where every size fits one wave (small matrices, whose time is a block's latency, ran 1.1-1.2x
/// slower on 512). Many waves take the largest tiles. Depends only on nnz and n, so preprocess and
/// plain calls agree. `forced` (`OXSPARSE_SPMM_TILE`) overrides it where it is a power of two from
/// SPMM_TILE_MIN to SPMM_TILE_MAX.
pub fn tile_size(nnz: i64, n: i64, device: &DeviceModel, forced: Option<u32>) -> u32 {
    use crate::kernels::params::spmm::{SPMM_TILE_MAX, SPMM_TILE_MIN};
    if let Some(t) = forced.filter(|t| t.is_power_of_two() && (SPMM_TILE_MIN..=SPMM_TILE_MAX).contains(t)) {
        return t;
    }
    let slices = crate::kernels::spmm::tile_slices(n);
    let wave = device.wave(TILE_BLOCKS_PER_SM);
    let waves_time = |size: u64| {
        let blocks = (nnz.max(1) as u64).div_ceil(size).saturating_mul(slices);
        blocks.div_ceil(wave).saturating_mul(TILE_FIXED_ENTRIES + size)
    };
    // The smallest of the sizes that take the least time.
    let sizes = std::iter::successors(Some(256u64), |s| Some(s * 2)).take_while(|&s| s <= SPMM_TILE_MAX as u64);
    sizes.min_by_key(|&s| waves_time(s)).unwrap_or(256) as u32
}

/// The share of L2 the column slices a wave of tile blocks reads may fill: half, because C's rows,
/// A's entries and the other L2 partition's copies pass through the same cache (arxiv_like FP32
/// N = 256 on 50 MiB of L2: two slices of 21.7 MB per block 274 us, one 262); at most
/// SLICE_BUDGET_MAX, the largest budget measured (a larger L2 was not found to hold more slices).
fn slice_budget(device: &DeviceModel) -> u64 {
    (device.l2_bytes / 2).min(SLICE_BUDGET_MAX)
}
const SLICE_BUDGET_MAX: u64 = 25 << 20;

/// Column slices per block: as many as keep at least three waves of blocks, so that staging a
/// tile once serves several slices on large problems without leaving a ragged last wave; but no
/// more than keep the B columns in use at once (k rows x the block's slices) within
/// `slice_budget`. Grid x is the tile, so the blocks of a wave share their slices: with one
/// slice a block, B's slices pass through L2 one at a time (youtube_like, B of 583 MB, 1.15-1.25x
/// faster; bench/notes/spmm-kernels.md). `forced` (`OXSPARSE_SPMM_TILE_SLICES`) overrides it
/// (capped at the slices there are).
pub fn slices_per_block(nnz: i64, n: i64, k: i64, b_elem_bytes: u64, size: u32, device: &DeviceModel, forced: Option<u64>) -> u32 {
    let slices = crate::kernels::spmm::tile_slices(n);
    if let Some(s) = forced.filter(|&s| s >= 1) {
        return s.min(slices) as u32;
    }
    let tiles = (nnz.max(1) as u64).div_ceil(size as u64);
    let waves = tiles * slices / (3 * device.wave(TILE_BLOCKS_PER_SM));
    let slice_bytes = (k.max(1) as u64).saturating_mul(SPMM_TILE_SLICE as u64 * b_elem_bytes);
    waves.min(slice_budget(device) / slice_bytes.max(1)).clamp(1, slices) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::models::*;

    #[test]
    fn tile_size_takes_the_fewest_waves_of_block_time() {
        let tile_size = |nnz, n| tile_size(nnz, n, &hbm3e_132(), None);
        // Under a wave at every size (168 blocks of 256): the smallest tiles.
        assert_eq!(tile_size(10_556, 128), 256);
        assert_eq!(tile_size(88_651, 32), 256);
        // 1963 blocks of 256 (two waves) against 982 of 512 (one): 512. vsp_model1 (380K, N = 32)
        // and vsp_sctap1-2b (282K) the same.
        assert_eq!(tile_size(502_504, 32), 512);
        assert_eq!(tile_size(379_952, 32), 512);
        assert_eq!(tile_size(281_662, 32), 512);
        // The arxiv-sized graph: 5 / 3 / 2 waves at 256 / 512 / 1024, 3 x 912 < 2 x 1424.
        assert_eq!(tile_size(1_128_870, 32), 512);
        // Many waves: the largest tiles.
        assert_eq!(tile_size(502_504, 128), 1024);
        assert_eq!(tile_size(78_000_000, 32), 1024);
        // One wave of 1024-entry blocks (588) against two of 512 (1172).
        assert_eq!(tile_size(150_000, 128), 1024);
    }

    #[test]
    fn slices_per_block_keeps_three_waves() {
        let slices_per_block = |nnz, n, k, b, size| slices_per_block(nnz, n, k, b, size, &hbm3e_132(), None);
        // Cornell5 at N = 128: 1545 tiles x 4 slices = 6180 blocks, under 6 waves: one slice each.
        assert_eq!(slices_per_block(1_581_554, 128, 18_660, 4, 1024), 1);
        // 11M entries: 10.7k tiles x 4 slices / 3168 = 13 -> all 4 slices in one block.
        assert_eq!(slices_per_block(10_973_239, 128, 20_000, 4, 1024), 4);
        assert_eq!(slices_per_block(10_973_239, 32, 20_000, 4, 1024), 1);
    }

    #[test]
    fn slices_per_block_keeps_the_slices_in_use_within_l2() {
        let slices_per_block = |nnz, n, k, b, size| slices_per_block(nnz, n, k, b, size, &hbm3e_132(), None);
        // youtube_like at N = 128: 13 waves' worth, but a 32-column slice of B is 146 MB.
        assert_eq!(slices_per_block(5_924_958, 128, 1_138_499, 4, 1024), 1);
        // arxiv_like at N = 256: two slices by the waves, 21.7 MB each against a 26 MB budget.
        assert_eq!(slices_per_block(1_136_257, 256, 169_343, 4, 1024), 1);
        // The same in FP32 with 40K columns (5 MB a slice): the waves decide.
        assert_eq!(slices_per_block(1_136_257, 256, 40_000, 4, 1024), 2);
    }
    /// On other devices the same rules count their own waves and L2: a 108-SM device fits fewer
    /// blocks a wave, so a call that one wave of 512-entry tiles holds on 132 SMs takes 1024; its
    /// 40 MiB of L2 gives a 20 MiB slice budget; a 96 MiB L2 keeps the 25 MiB measured.
    #[test]
    fn other_devices_count_their_own_waves_and_l2() {
        let (h200, a100, l40) = (hbm3e_132(), hbm2e_108(), gddr6_142());
        assert_eq!([&h200, &a100, &l40].map(|d| tile_size(502_504, 32, d, None)), [512, 1024, 512], "982 blocks of 512");
        assert_eq!([&h200, &a100, &l40].map(slice_budget), [25 << 20, 20 << 20, 25 << 20]);
        // arxiv_like FP32 N = 256 over 40K columns: 8880 tile blocks, slices of 5.1 MB.
        let per_block = |d| slices_per_block(1_136_257, 256, 40_000, 4, 1024, d, None);
        assert_eq!([&h200, &a100, &l40].map(per_block), [2, 3, 2], "three waves: 3168, 2592, 3408 blocks");
        // The same with 1M columns (128 MB a slice): one slice a block everywhere.
        assert_eq!([&h200, &a100, &l40].map(|d| slices_per_block(1_136_257, 256, 1_000_000, 4, 1024, d, None)), [1, 1, 1]);
    }
}
