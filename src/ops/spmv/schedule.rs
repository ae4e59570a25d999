//! The vector kernel's schedule, chosen by `preprocess` from the row-length histogram it reads
//! back from the GPU (kernels/spmv_vector.cu): how many lanes a short row gets, which rows go to a
//! warp (long) or a block (huge), how many blocks take each list — or that the tile kernel suits
//! the matrix better.
//!
//! The reasoning, in round trips to memory: a worker of W lanes loads `W * UNROLL` entries per
//! round trip, and the kernel lasts as long as its slowest worker. So a group of G lanes is sized
//! to the median row (one trip), at least 4 lanes so that rows somewhat longer than the median
//! still finish in a trip or two; rows beyond two trips of the group go to a warp, rows beyond two
//! trips of a warp to a block. A row that even a block needs more round trips for than the whole
//! kernel would take at full bandwidth (at least 8) becomes the tail: then the tile kernel, which
//! cuts entries evenly whatever the rows, is chosen instead.
//!
//! Measured on the H100 (bench/NOTES.md): a first version that let a warp or a group spend 16
//! round trips on a row lost 2-3x on social graphs whose kernels last only a few trips.

use crate::kernels::params::spmv::{SPMV_HIST_BUCKETS, SPMV_VECTOR_UNROLL};
use std::fmt;

const BUCKETS: usize = SPMV_HIST_BUCKETS as usize;
const UNROLL: i64 = SPMV_VECTOR_UNROLL as i64;
/// Round trips a group or a warp may spend on one row.
const MAX_TRIPS: i64 = 2;
/// Lanes per short row: at least this many.
const MIN_LANES: i64 = 4;
/// The smallest long threshold (a group of MIN_LANES lanes' MAX_TRIPS trips).
pub const LONG_MIN: i64 = MIN_LANES * UNROLL * MAX_TRIPS;
/// The huge threshold: rows a warp would need more than MAX_TRIPS round trips for.
pub const HUGE: i64 = 32 * UNROLL * MAX_TRIPS;
/// Entries a block (256 lanes) loads per round trip.
const BLOCK_TRIP: i64 = 256 * UNROLL;
/// Bytes per microsecond the kernel streams at best (about 2.5 TB/s), and the bytes of an entry
/// (value and index) assumed when converting a matrix's size into round trips of ~1 us.
const BYTES_PER_TRIP: i64 = 2_500_000;
const ENTRY_BYTES: i64 = 8;
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
    pub huge_blocks: i32,
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vector: {} lanes per row; {} rows of >= {} entries a warp each ({} blocks); {} rows of >= {} a block each ({} blocks)",
            self.lanes, self.long_rows, self.long_threshold, self.long_blocks, self.huge_rows, self.huge_threshold, self.huge_blocks)
    }
}

/// Which kernel `OXSPARSE_SPMV_KERNEL` forces after preprocess (`tiles` or `vector`), if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    Tiles,
    Vector,
}

pub fn forced() -> Option<Forced> {
    match std::env::var("OXSPARSE_SPMV_KERNEL").as_deref() {
        Ok("tiles") => Some(Forced::Tiles),
        Ok("vector") => Some(Forced::Vector),
        _ => None,
    }
}

/// Rows with at least `2^t` entries: buckets t + 1 and up.
fn rows_from(h: &RowHistogram, t: u32) -> u64 {
    h[0][(t as usize + 1).min(BUCKETS)..].iter().sum()
}

/// The longest row's lower bound (a power of two), 0 when every row is empty.
fn longest(h: &RowHistogram) -> i64 {
    h[0].iter().rposition(|&n| n > 0).map_or(0, |b| if b == 0 { 0 } else { 1i64 << (b - 1) })
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

/// The schedule for a histogram of `nnz` entries; None: the tiles suit better (or were forced).
pub fn choose(h: &RowHistogram, nnz: i64, forced: Option<Forced>) -> Option<Schedule> {
    if forced == Some(Forced::Tiles) {
        return None;
    }
    let lanes = ((median_upper(h).max(1) as u64).div_ceil(UNROLL as u64).next_power_of_two() as i64).clamp(MIN_LANES, 32);
    let long_threshold = (lanes * UNROLL * MAX_TRIPS).clamp(LONG_MIN, HUGE);
    let budget_trips = (nnz.max(0) * ENTRY_BYTES / BYTES_PER_TRIP).max(8);
    if forced.is_none() && longest(h) > BLOCK_TRIP * budget_trips {
        return None;
    }
    let huge_rows = rows_from(h, HUGE.trailing_zeros());
    let long_rows = rows_from(h, long_threshold.trailing_zeros()) - huge_rows;
    Some(Schedule {
        lanes: lanes as i32,
        long_threshold,
        huge_threshold: HUGE,
        long_rows,
        huge_rows,
        long_blocks: long_rows.div_ceil(8).min(MAX_LIST_BLOCKS) as i32,
        huge_blocks: huge_rows.min(MAX_LIST_BLOCKS) as i32,
    })
}

/// List capacities the workspace reserves for a matrix of `m` rows and `nnz` entries: at most
/// nnz / threshold rows reach a threshold.
pub fn list_capacity(m: i64, nnz: i64) -> (usize, usize) {
    let cap = |t: i64| (nnz / t + 1).min(m.max(0)).max(1) as usize;
    (cap(LONG_MIN), cap(HUGE))
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
        assert_eq!(longest(&h), 128);
        assert_eq!(longest(&histogram(&[(0, 5)])), 0);
    }

    #[test]
    fn a_stencil_gets_groups_of_eight_and_no_lists() {
        let h = histogram(&[(27, 400_000), (18, 100_000), (12, 12_000)]);
        let s = choose(&h, 13_000_000, None).unwrap();
        assert_eq!(s.lanes, 8);
        assert_eq!((s.long_rows, s.huge_rows, s.long_blocks, s.huge_blocks), (0, 0, 0, 0));
        assert_eq!(s.long_threshold, 64);
    }

    #[test]
    fn a_power_law_lists_its_long_and_huge_rows() {
        let h = histogram(&[(3, 1_000_000), (40, 5000), (200, 500), (6_000, 3)]);
        let s = choose(&h, 3_320_000, None).unwrap();
        assert_eq!(s.lanes, MIN_LANES as i32);
        assert_eq!((s.long_threshold, s.huge_threshold), (32, 256));
        assert_eq!((s.long_rows, s.huge_rows), (5500, 3));
        assert_eq!((s.long_blocks, s.huge_blocks), (688, 3));
    }

    #[test]
    fn a_row_a_block_needs_too_many_trips_for_means_tiles() {
        let h = histogram(&[(3, 1_000), (1_000_000, 1)]);
        assert_eq!(choose(&h, 1_003_000, None), None);
        assert!(choose(&h, 1_003_000, Some(Forced::Vector)).is_some());
        assert_eq!(choose(&histogram(&[(27, 10)]), 270, Some(Forced::Tiles)), None);
        // The same row in a matrix large enough to take that long anyway.
        assert!(choose(&histogram(&[(3, 100_000_000), (1_000_000, 1)]), 301_000_000, None).is_some());
    }

    #[test]
    fn lists_fit_their_capacity() {
        let (long, huge) = list_capacity(10_000, 64_000);
        assert!(long >= 64_000 / LONG_MIN as usize && huge >= 64_000 / HUGE as usize);
        assert_eq!(list_capacity(0, 0), (1, 1));
    }
}
