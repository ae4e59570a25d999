//! Whether SpMV reads op(A) in FastLoad's column order (src/kernels/params/spmv_columns.rs):
//! the columns grouped by entry count, busiest first.
//!
//! Why it pays: SpMV gathers one value of x per entry, and the GPU moves at least a 32-byte
//! sector for it. When x is larger than the L1 cache and the busy columns are scattered over it
//! (a power-law graph with shuffled vertex ids), most gathers fetch a sector for 4 useful bytes.
//! Grouped, the busy columns share sectors and lines, and stay in L1. Measured with cuSPARSE's own
//! SpMV on R-MAT graphs (bench/notes/spmv.md): proteins-sized 289 -> 182 us,
//! reddit-sized 630 -> 368 us, youtube-sized 115 -> 100 us.
//!
//! Why not always: every call first gathers x into the new order (one more launch, ~2-3 us), and
//! a matrix whose busy columns already sit together (a mesh, a stencil) gains nothing. So the plan
//! reserves the space only where x outgrows L1, A is large and holds many entries per column
//! (`eligible`), and preprocess, which
//! has counted the entries per column, decides from the counts (`pays`): the busy columns (those
//! holding `HOT_SHARE` of the entries, busiest classes first) must touch at least `SPREAD` times as
//! many lines of x as they would fill once packed.
//!
//! `OXSPARSE_SPMV_COLUMNS=sorted` uses the order whenever it fits (tests run every case through
//! it); `natural` never does.

use crate::kernels::params::spmv_columns::SPMV_COL_LINE;
use crate::kernels::spmv_columns::{ColumnLayout, ColumnStats};
use std::fmt;

/// x must be at least this large (bytes) for the order to be considered: below, it fits L1.
pub const MIN_X_BYTES: u64 = 256 * 1024;
/// A must have at least this many entries: below, the extra launch outweighs the gain.
pub const MIN_NNZ: i64 = 1_000_000;
/// Entries per column at least: the gather moves x once per call, the kernel once per entry.
/// youtube_like (5 per column) lost 67.7 -> 71.2 us with the order, while
/// products_like (48) gained 13%.
pub const MIN_ENTRIES_PER_COLUMN: i64 = 16;
/// Share of the entries (percent) that makes up the busy columns.
const HOT_SHARE: u64 = 50;
/// Lines the busy columns touch now, per line they would fill packed, from which the order pays.
const SPREAD: u64 = 4;

/// Whether a plan reserves the column order's space (host facts only).
/// `forced` (`OXSPARSE_SPMV_COLUMNS`): Some(true) `sorted`, Some(false) `natural`.
pub fn eligible(k: i64, nnz: i64, x_bytes: u64, forced: Option<bool>) -> bool {
    if !ColumnLayout::fits(k, nnz) {
        return false;
    }
    match forced {
        Some(sorted) => sorted,
        None => nnz >= MIN_NNZ && nnz >= MIN_ENTRIES_PER_COLUMN * k && k as u64 * x_bytes >= MIN_X_BYTES,
    }
}

/// What the statistics say about the busy columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spread {
    /// Columns holding `HOT_SHARE` of the entries, busiest classes first.
    pub hot_columns: u64,
    /// Lines of x those columns touch in the natural order.
    pub lines_now: u64,
    /// Lines they fill once packed.
    pub lines_packed: u64,
}

impl fmt::Display for Spread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} busy columns ({HOT_SHARE}% of the entries) touch {} lines of x, {} packed",
            self.hot_columns, self.lines_now, self.lines_packed
        )
    }
}

pub fn spread(s: &ColumnStats) -> Spread {
    let total: u64 = s.entries.iter().sum();
    let (mut entries, mut hot_columns, mut lines_now) = (0u64, 0u64, 0u64);
    // A line is counted in the class of its busiest column: summed from the top, the lines
    // holding at least one column of the classes taken.
    for c in (0..s.entries.len()).rev() {
        if 100 * entries >= HOT_SHARE * total.max(1) {
            break;
        }
        entries += s.entries[c];
        hot_columns += s.columns[c];
        lines_now += s.lines[c];
    }
    Spread { hot_columns, lines_now, lines_packed: hot_columns.div_ceil(SPMV_COL_LINE as u64) }
}

/// Whether the order pays for a matrix with these statistics.
pub fn pays(s: &Spread, forced: Option<bool>) -> bool {
    match forced {
        Some(sorted) => sorted,
        None => s.lines_packed > 0 && s.lines_now >= SPREAD * s.lines_packed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const CLASSES: usize = crate::kernels::params::spmv_columns::SPMV_COL_CLASSES as usize;

    fn stats(classes: &[(usize, u64, u64, u64)]) -> ColumnStats {
        let mut s = ColumnStats { columns: [0; CLASSES], entries: [0; CLASSES], lines: [0; CLASSES] };
        for &(c, cols, entries, lines) in classes {
            s.columns[c] = cols;
            s.entries[c] = entries;
            s.lines[c] = lines;
        }
        s
    }

    #[test]
    fn scattered_busy_columns_pay() {
        // 1000 busy columns with 60% of the entries, each in a line of its own.
        let s = spread(&stats(&[(30, 1000, 600_000, 1000), (10, 99_000, 400_000, 2100)]));
        assert_eq!(s, Spread { hot_columns: 1000, lines_now: 1000, lines_packed: 32 });
        assert!(pays(&s, None) && !pays(&s, Some(false)));
    }

    #[test]
    fn a_stencil_does_not_pay() {
        // Interior columns all in one class, filling their lines.
        let s = spread(&stats(&[(10, 480_000, 12_960_000, 15_000), (9, 32_000, 500_000, 1_000)]));
        assert_eq!(s.lines_now, 15_000);
        assert_eq!(s.lines_packed, 15_000);
        assert!(!pays(&s, None) && pays(&s, Some(true)));
    }

    #[test]
    fn classes_are_taken_until_the_share_is_reached() {
        let s = spread(&stats(&[(40, 10, 300, 10), (39, 10, 300, 10), (5, 1000, 400, 40)]));
        assert_eq!(s.hot_columns, 20, "two classes reach 60%");
        let empty = spread(&stats(&[]));
        assert_eq!(empty.lines_packed, 0);
        assert!(!pays(&empty, None));
    }

    #[test]
    fn only_large_matrices_with_a_large_x_and_busy_columns_are_eligible() {
        let eligible = |k, nnz, x| eligible(k, nnz, x, None);
        assert!(eligible(132_534, 56_627_196, 4), "proteins_like");
        assert!(eligible(2_449_029, 116_600_650, 8), "products_like in FP64");
        assert!(!eligible(1_138_499, 5_890_944, 4), "youtube_like: 5 entries per column");
        assert!(!eligible(18_660, 1_581_554, 4), "fb100_Cornell5: x fits L1");
        assert!(!eligible(40_000, 900_000, 8), "under 1M entries");
    }
}
