//! The vector kernel's schedule, chosen by `preprocess` from the row-length histogram it reads
//! back from the GPU (kernels/spmv_vector.cu): how many lanes a short row gets, which rows go to a
//! warp (long) or blocks (huge), how many blocks take each list.
//!
//! The reasoning, in round trips to memory: a worker of W lanes loads `W * UNROLL` entries per
//! round trip, and the kernel lasts as long as its slowest worker. So a group of G lanes is sized
//! to the median row (one trip), at least 4 lanes so that rows somewhat longer than the median
//! still finish in a trip or two, at most 16 (measured: longer rows take two trips faster than a
//! warp takes one); rows beyond two trips of the group go to a warp, rows beyond two
//! trips of a warp to a block; huge rows are cut into chunks of SPMV_HUGE_CHUNK entries, a block
//! each.
//!
//! Measured on the H100 (bench/notes/spmv.md): a first version that let a warp or a group spend 16
//! round trips on a row lost 2-3x on social graphs whose kernels last only a few trips.
//!
//! The tile kernel, which cuts the entries evenly whatever the rows, is kept instead (no
//! schedule) for matrices of `SMALL_NNZ` entries or more with huge rows (`HUGE` entries or more,
//! which the vector kernel can take only in chunks, with more registers or a second launch) that
//! are also skewed (at least `SKEWED_SHARE` of the entries in rows of four times the median length
//! or more) or large with a long median row. There its warps streaming whole tiles beat rows read
//! one by one (youtube_like 77 against 118 us). Everywhere else the vector kernel is ahead
//! (measurements: bench/notes/spmv.md).

use crate::kernels::params::spmv::{SPMV_HIST_BUCKETS, SPMV_HUGE_CHUNK, SPMV_VECTOR_UNROLL};
use std::fmt;

const BUCKETS: usize = SPMV_HIST_BUCKETS as usize;
const UNROLL: i64 = SPMV_VECTOR_UNROLL as i64;
/// Round trips a group or a warp may spend on one row.
const MAX_TRIPS: i64 = 2;
/// Lanes per short row: at least this many.
const MIN_LANES: i64 = 4;
/// Lanes per short row: at most this many. Rows of 64-127 entries run faster two trips of 16 lanes
/// than one of a warp (wave_squared_2hop: 45.5 against 58.0 us in FP32, 59.4
/// against 67.1 in FP64; the stencil's 27-entry rows stay best at 8 lanes, 48.5 against 54.0 at 4).
const MAX_LANES: i64 = 16;
/// The smallest long threshold (a group of MIN_LANES lanes' MAX_TRIPS trips).
pub const LONG_MIN: i64 = MIN_LANES * UNROLL * MAX_TRIPS;
/// The huge threshold: rows a warp would need more than MAX_TRIPS round trips for.
pub const HUGE: i64 = 32 * UNROLL * MAX_TRIPS;
const CHUNK: u64 = SPMV_HUGE_CHUNK as u64;
/// Matrices with at least this many entries launch the huge rows' chunks apart: the other rows'
/// kernel then needs fewer registers (32 against 48 in FP32) and keeps more rows in flight, which
/// outweighs a launch (~3 us) once the kernel takes over ~15 us.
const SPLIT_NNZ: u64 = 4_000_000;
/// Share of the entries in rows of at least four times the median length that makes a matrix
/// skewed (percent).
const SKEWED_SHARE: u64 = 30;
/// Matrices with at least this many entries whose median row lies in a bucket reaching LONG_MEDIAN
/// entries (32 or more) keep the tile kernel too.
const LARGE_NNZ: u64 = 1_000_000;
const LONG_MEDIAN: i64 = 63;
/// Matrices under this many entries take the vector kernel even with huge rows: its blocks then all
/// fit at once, and its single launch beats the tiles' look-back (10-20% faster under 128K entries;
/// between 128K and 1.6M entries the tiles won or tied).
const SMALL_NNZ: u64 = 128 * 1024;
/// Blocks per list at most (each takes its list's entries in a grid-stride loop).
const MAX_LIST_BLOCKS: u64 = 65_535;

/// Row counts (`[0]`) and entry counts (`[1]`) per bucket: bucket 0 holds empty rows, bucket b
/// rows of `2^(b-1) ..= 2^b - 1` entries.
pub type RowHistogram = [[u64; BUCKETS]; 2];

/// The vector kernel's schedule (see `SpmvVector`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub lanes: i32,
    pub long_threshold: i64,
    pub huge_threshold: i64,
    pub long_rows: u64,
    pub huge_rows: u64,
    pub long_blocks: i32,
    /// Chunks of the huge rows, at most (the blocks that take them).
    pub chunks: u64,
    pub huge_blocks: i32,
    /// Launch the huge rows' chunks apart from the other rows (large matrices).
    pub split_huge: bool,
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vector: {} lanes per row; {} rows of >= {} entries a warp each ({} blocks); {} rows of >= {} in <= {} chunks of {CHUNK} entries, a block each ({} blocks{})",
            self.lanes, self.long_rows, self.long_threshold, self.long_blocks, self.huge_rows, self.huge_threshold, self.chunks, self.huge_blocks, if self.split_huge { ", launched apart" } else { "" })
    }
}

pub use crate::settings::SpmvKernel as Forced;

/// Rows with at least `2^t` entries: buckets t + 1 and up.
fn rows_from(h: &RowHistogram, t: u32) -> u64 {
    h[0][(t as usize + 1).min(BUCKETS)..].iter().sum()
}

/// The upper bound of the bucket that holds the median row.
fn median_upper(h: &RowHistogram) -> i64 {
    let total: u64 = h[0].iter().sum();
    let mut seen = 0;
    for (b, &n) in h[0].iter().enumerate() {
        seen += n;
        if 2 * seen >= total {
            return if b == 0 { 0 } else { (1i64 << b) - 1 };
        }
    }
    0
}

/// Whether the tile kernel suits this histogram better than any vector schedule (see the module
/// comment): huge rows in a skewed matrix of SMALL_NNZ entries or more, or in a large matrix with
/// long rows throughout.
fn prefers_tiles(h: &RowHistogram) -> bool {
    let nnz: u64 = h[1].iter().sum();
    let median = median_upper(h);
    // Rows of at least 4 (median + 1) entries, at least 32: buckets from that power of two up.
    let from = ((4 * (median + 1)).max(32) as u64).next_power_of_two().trailing_zeros();
    let skewed: u64 = h[1][(from as usize + 1).min(BUCKETS)..].iter().sum();
    let huge_rows = rows_from(h, HUGE.trailing_zeros()) > 0;
    huge_rows && nnz >= SMALL_NNZ && (100 * skewed >= SKEWED_SHARE * nnz.max(1) || (nnz >= LARGE_NNZ && median >= LONG_MEDIAN))
}

/// The schedule for a histogram of row lengths; None: keep the tile kernel (forced, or
/// `prefers_tiles`). `Forced::Vector` and `Forced::Split` always give a schedule.
pub fn choose(h: &RowHistogram, forced: Option<Forced>) -> Option<Schedule> {
    if forced == Some(Forced::Tiles) || (forced.is_none() && prefers_tiles(h)) {
        return None;
    }
    let lanes = ((median_upper(h).max(1) as u64).div_ceil(UNROLL as u64).next_power_of_two() as i64).clamp(MIN_LANES, MAX_LANES);
    let long_threshold = (lanes * UNROLL * MAX_TRIPS).clamp(LONG_MIN, HUGE);
    let huge_from = HUGE.trailing_zeros() as usize + 1;
    let huge_rows = rows_from(h, HUGE.trailing_zeros());
    let long_rows = rows_from(h, long_threshold.trailing_zeros()) - huge_rows;
    // Each huge row has ceil(len / CHUNK) <= len / CHUNK + 1 chunks.
    let chunks = h[1][huge_from..].iter().sum::<u64>() / CHUNK + huge_rows;
    Some(Schedule {
        lanes: lanes as i32,
        long_threshold,
        huge_threshold: HUGE,
        long_rows,
        huge_rows,
        chunks,
        long_blocks: long_rows.div_ceil(8).min(MAX_LIST_BLOCKS) as i32,
        huge_blocks: chunks.min(MAX_LIST_BLOCKS) as i32,
        split_huge: huge_rows > 0 && (forced == Some(Forced::Split) || h[1].iter().sum::<u64>() >= SPLIT_NNZ),
    })
}

/// List capacities the workspace reserves for a matrix of `m` rows and `nnz` entries: at most
/// nnz / threshold rows reach a threshold; their chunks number at most nnz / CHUNK + huge rows.
pub fn list_capacity(m: i64, nnz: i64) -> ListCapacity {
    let cap = |t: i64| (nnz.max(0) / t + 1).min(m.max(0)).max(1) as usize;
    let huge = cap(HUGE);
    ListCapacity { long: cap(LONG_MIN), huge, chunks: nnz.max(0) as usize / CHUNK as usize + huge }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListCapacity {
    pub long: usize,
    pub huge: usize,
    pub chunks: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn histogram(lens: &[(i64, u64)]) -> RowHistogram {
        let mut h = [[0u64; BUCKETS]; 2];
        for &(len, count) in lens {
            let b = if len == 0 { 0 } else { 64 - (len as u64).leading_zeros() as usize };
            h[0][b] += count;
            h[1][b] += count * len as u64;
        }
        h
    }

    #[test]
    fn buckets_and_thresholds_agree() {
        let h = histogram(&[(63, 1), (64, 2), (127, 3), (128, 4), (0, 9)]);
        assert_eq!(rows_from(&h, 6), 9, "rows with >= 64 entries");
        assert_eq!(rows_from(&h, 7), 4, "rows with >= 128 entries");
        assert_eq!(median_upper(&h), 63, "the 10th of 19 rows has 63 entries");
    }

    #[test]
    fn a_stencil_gets_groups_of_eight_and_no_lists() {
        let h = histogram(&[(27, 400_000), (18, 100_000), (12, 12_000)]);
        let s = choose(&h, None).unwrap();
        assert_eq!(s.lanes, 8);
        assert_eq!((s.long_rows, s.huge_rows, s.chunks, s.long_blocks, s.huge_blocks), (0, 0, 0, 0, 0));
        assert_eq!(s.long_threshold, 64);
    }

    #[test]
    fn rows_of_64_to_127_get_groups_of_sixteen() {
        // wave_squared_2hop: rows of 64-255, most under 128.
        let h = histogram(&[(70, 118_656), (40, 35_753), (130, 1_077)]);
        let s = choose(&h, None).unwrap();
        assert_eq!((s.lanes, s.long_threshold), (16, 128));
        assert_eq!((s.long_rows, s.huge_rows), (1_077, 0));
    }

    #[test]
    fn a_power_law_lists_its_long_and_huge_rows() {
        let h = histogram(&[(3, 1_000_000), (40, 5000), (200, 500), (6_000, 3)]);
        let s = choose(&h, None).unwrap();
        assert_eq!(s.lanes, MIN_LANES as i32);
        assert_eq!((s.long_threshold, s.huge_threshold), (32, 256));
        assert_eq!((s.long_rows, s.huge_rows), (5500, 3));
        // Three rows of 6000 entries: 2 chunks of 4096 each, bounded by 18000 / 4096 + 3 = 7.
        assert!(s.chunks >= 6 && s.chunks <= 7, "{}", s.chunks);
        assert_eq!((s.long_blocks, s.huge_blocks), (688, s.chunks as i32));
        assert!(!s.split_huge, "3.3M entries: one launch");
        assert_eq!(choose(&h, Some(Forced::Tiles)), None);
        let big = histogram(&[(3, 10_000_000), (6_000, 3)]);
        assert!(choose(&big, None).unwrap().split_huge);
        assert!(choose(&h, Some(Forced::Split)).unwrap().split_huge);
        assert!(!choose(&h, Some(Forced::Vector)).unwrap().split_huge);
    }

    #[test]
    fn skewed_or_large_long_rowed_matrices_with_huge_rows_keep_the_tiles() {
        // A social graph: median 15, half of the entries in rows of 64+, some of 3000.
        let social = histogram(&[(15, 9000), (8, 5000), (100, 500), (3000, 40)]);
        assert!(prefers_tiles(&social));
        assert_eq!(choose(&social, None), None);
        assert!(choose(&social, Some(Forced::Split)).is_some(), "split forces a schedule");
        assert!(choose(&social, Some(Forced::Vector)).is_some(), "so does vector");
        // 1.65M entries, median row ~80, rows of 300 (huge): large with long rows.
        assert!(prefers_tiles(&histogram(&[(80, 15_000), (300, 1_500)])));
        // The same rows in a small matrix; a large one whose rows all lie under 256
        // (wave_squared_2hop); a skewed one without huge rows (an airport graph); a large stencil
        // with 27-entry rows: vector.
        assert!(!prefers_tiles(&histogram(&[(80, 3_000), (300, 300)])));
        assert!(!prefers_tiles(&histogram(&[(80, 19_000), (200, 300)])));
        assert!(!prefers_tiles(&histogram(&[(3, 600), (100, 200)])));
        // A small skewed graph with a few huge rows (email-Eu-core): vector.
        assert!(!prefers_tiles(&histogram(&[(10, 800), (40, 150), (300, 1)])));
        assert!(!prefers_tiles(&histogram(&[(27, 500_000)])));
    }

    #[test]
    fn lists_fit_their_capacity() {
        let c = list_capacity(10_000, 64_000);
        assert!(c.long >= 64_000 / LONG_MIN as usize && c.huge >= 64_000 / HUGE as usize);
        assert!(c.chunks >= 64_000 / CHUNK as usize + c.huge);
        let e = list_capacity(0, 0);
        assert_eq!((e.long, e.huge, e.chunks), (1, 1, 1));
    }
}
