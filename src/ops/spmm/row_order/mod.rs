//! Whole short rows in an order that keeps op(B)'s rows in L2: preprocess may run the short-row
//! kernel over a table of whole rows (split_rows/table.rs's table, every slot one row) in
//! breadth-first order instead of the stored order.
//!
//! Why: a row kernel reads a B row (n values) per entry, from L2 when the row was read recently.
//! When op(B) is larger than L2 and the stored order scatters the rows that share columns (a mesh
//! numbered without locality), B rows are fetched from memory again and again (mdual FP32 N = 128
//! read 339 MB from DRAM for a 132 MB op(B), the kernel at the memory's bandwidth). Processing rows
//! breadth-first over the rows-and-columns graph keeps rows that share columns together, so each B
//! row is fetched about once: 1.15-1.6x faster on mdual, delaunay_n16 and wing, nothing on an
//! already local order such as wave's (measurements: bench/notes/spmm-kernels.md).
//!
//! Whether to: an LRU model of L2 holding `L2_MODEL_BYTES` of B rows counts the B-row misses of
//! both orders, sampled as SHARDS does (B rows chosen by a hash, the cache scaled with them;
//! checked against the exact LRU on mdual, delaunay_n16, wing and wave: within 1%), and the order
//! is taken when it saves `MIN_GAIN` times the misses. Each row is still summed by one group in
//! stored entry order, so C is bitwise the same as with the stored order.
//!
//! In two steps, so that preprocess pays for the whole structure only where an order may pay:
//! the sample alone (found on the GPU, `kernels::spmm::row_sample`, else read back a
//! chunk of columns at a time, `Sample::by_chunks`) says whether the stored order misses enough
//! (`stored_misses_to_save`); only then are all the columns read and an order walked
//! (`order_if_worth`): over op(A)'s own graph where it is square, else or failing that over the
//! graph of rows and columns. The model follows the sample with an LRU list (`Lru`), which counts
//! what reuse distances count (its test twin) in constant time an access.
//!
//! The decision is here; `model` holds the sample and the LRU model of L2 (step one, on the
//! sample alone), `walk` the breadth-first walks.

mod model;
mod walk;

use crate::device::DeviceModel;
pub use model::{contiguous, misses, stored_misses_to_save, Sample, SAMPLE_HASH};
pub use walk::{breadth_first, breadth_first_square};

/// Bytes of B rows the model's L2 holds: four fifths of the device's L2 (the rest for A, C and the
/// other partition's copies), at most L2_MODEL_MAX, the size the model was measured with (40 MB
/// of 50 MiB; a larger L2 was not found to change the orders worth taking).
pub fn l2_model_bytes(device: &DeviceModel) -> u64 {
    (device.l2_bytes / 5 * 4).min(L2_MODEL_MAX)
}
const L2_MODEL_MAX: u64 = 40_000_000;
/// The breadth-first order is taken when the stored order misses this many times as often.
pub const MIN_GAIN: f64 = 1.5;

/// Whether the order may matter, from the plan: op(B) (k rows of n `elem`-byte values) is larger
/// than the model's L2, and the table's 32-bit rows can number op(A)'s.
pub fn may_order(m: i64, k: i64, n: i64, elem: u64, device: &DeviceModel) -> bool {
    m > 0 && m <= u32::MAX as i64 && (k.max(0) as u64).saturating_mul(n.max(0) as u64).saturating_mul(elem) > l2_model_bytes(device)
}

/// Slots of a table of whole rows with `groups` groups per block: every row, and the last block's
/// idle slots.
pub fn capacity(m: i64, groups: i64) -> i64 {
    m + groups
}

/// op(A)'s structure as preprocess read it back: row r's entries are begins[r] .. ends[r] of
/// `cols` (columns of op(B); u32::MAX for one outside [0, k), which reads no B row).
pub struct Structure {
    pub begins: Vec<i64>,
    pub ends: Vec<i64>,
    pub cols: Vec<u32>,
    pub k: usize,
}

impl Structure {
    fn row(&self, r: usize) -> &[u32] {
        &self.cols[self.begins[r] as usize..self.ends[r] as usize]
    }
}

/// The row order for a structure (both steps, `stored_misses_to_save` and `order_if_worth`, on its
/// sample, with an L2 of `cache_rows` B rows), None to keep the stored one. `forced`
/// (`OXSPARSE_SPMM_ROW_ORDER`): `never` (false) keeps the stored order, `always` (true) takes the
/// breadth-first one (`breadth_first_any`) wherever the plan has room (for tests and comparisons).
pub fn choose(s: &Structure, cache_rows: u64, forced: Option<bool>) -> Option<Vec<u32>> {
    match forced {
        Some(false) => return None,
        Some(true) => return Some(breadth_first_any(s)),
        None => {}
    }
    let sample = Sample::of(s);
    let stored = stored_misses_to_save(&sample, cache_rows)?;
    order_if_worth(s, &sample, cache_rows, stored).map(|(_, order)| order)
}

/// Which graph a breadth-first order walked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Walk {
    /// op(A)'s own (square op(A) only): `breadth_first_square`.
    Square,
    /// Rows and columns: `breadth_first`.
    RowsAndColumns,
}

/// Step two: the breadth-first order when it misses MIN_GAIN times fewer than the `stored`
/// order's misses: over op(A)'s own graph where it is square, else, or where that order does not
/// save enough, over the graph of rows and columns.
pub fn order_if_worth(s: &Structure, sample: &Sample, cache_rows: u64, stored: u64) -> Option<(Walk, Vec<u32>)> {
    let saves = |order: &[u32]| stored as f64 >= MIN_GAIN * misses(sample, order.iter().map(|&r| r as usize), cache_rows).0.max(1) as f64;
    if square(s) {
        let order = breadth_first_square(s);
        if saves(&order) {
            return Some((Walk::Square, order));
        }
    }
    let order = breadth_first(s);
    saves(&order).then_some((Walk::RowsAndColumns, order))
}

/// B rows of `row_bytes` each that the model's L2 holds.
pub fn cache_rows(row_bytes: u64, device: &DeviceModel) -> u64 {
    l2_model_bytes(device) / row_bytes.max(1)
}

/// Whether op(A) is square, so that its columns number its rows too.
fn square(s: &Structure) -> bool {
    s.k == s.begins.len()
}

/// The breadth-first order step two tries first.
pub fn breadth_first_any(s: &Structure) -> Vec<u32> {
    if square(s) {
        breadth_first_square(s)
    } else {
        breadth_first(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::models::*;

    /// A band of `width` entries a row around the diagonal of an m x m matrix, its rows stored in a
    /// seeded shuffled order (`stored[i]` is the band row stored at i).
    pub(super) fn shuffled_band(m: usize, width: usize) -> (Structure, Vec<usize>) {
        let mut stored: Vec<usize> = (0..m).collect();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for i in (1..m).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            stored.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let (mut begins, mut ends, mut cols) = (vec![], vec![], vec![]);
        for &band_row in &stored {
            begins.push(cols.len() as i64);
            for d in 0..width {
                let c = (band_row + d).saturating_sub(width / 2);
                if c < m {
                    cols.push(c as u32);
                }
            }
            ends.push(cols.len() as i64);
        }
        (Structure { begins, ends, cols, k: m }, stored)
    }

    /// A shuffled band misses every B row about once per entry in stored order once the cache is
    /// far smaller than the band's rows, and about once per row breadth-first; an unshuffled one
    /// is left alone.
    #[test]
    fn the_model_sees_what_breadth_first_saves() {
        let (s, stored_at) = shuffled_band(20_000, 4);
        // The same band with its columns renumbered as its rows (a symmetric permutation, as a
        // mesh numbered without locality is): op(A)'s own graph is the band's there.
        let mut position = vec![0u32; stored_at.len()];
        stored_at.iter().enumerate().for_each(|(i, &band_row)| position[band_row] = i as u32);
        let symmetric = Structure {
            begins: s.begins.clone(),
            ends: s.ends.clone(),
            cols: s.cols.iter().map(|&c| position[c as usize]).collect(),
            k: s.k,
        };
        let orders = [
            ("rows and columns", &s, breadth_first(&s)),
            ("rows and columns, symmetric", &symmetric, breadth_first(&symmetric)),
            ("square, symmetric", &symmetric, breadth_first_square(&symmetric)),
        ];
        for (name, s, order) in orders {
            let sample = Sample::of(s);
            let (stored, first) = misses(&sample, 0..s.begins.len(), 2000);
            assert!((first as f64 - 20_000.0).abs() < 0.2 * 20_000.0, "{name}: first reads: every B row once, about: {first}");
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert!(sorted.iter().enumerate().all(|(i, &r)| i == r as usize), "{name}: a permutation");
            let (ordered, _) = misses(&sample, order.iter().map(|&r| r as usize), 2000);
            assert!(stored as f64 > 3.0 * ordered as f64, "{name}: stored {stored}, breadth-first {ordered}");
            assert!((ordered as f64) < 1.3 * 20_000.0, "{name}: about one miss per B row: {ordered}");
        }
        // Rows shuffled alone: op(A)'s own graph orders nothing, and step two falls back to the
        // graph of rows and columns.
        let sample = Sample::of(&s);
        let (stored, _) = misses(&sample, 0..s.begins.len(), 2000);
        let (square, _) = misses(&sample, breadth_first_square(&s).iter().map(|&r| r as usize), 2000);
        assert!((square as f64) > 0.8 * stored as f64, "square {square}, stored {stored}");
        assert_eq!(order_if_worth(&s, &sample, 2000, stored), Some((Walk::RowsAndColumns, breadth_first(&s))));
        let symmetric_sample = Sample::of(&symmetric);
        let symmetric_stored = stored_misses_to_save(&symmetric_sample, 2000).expect("a shuffled mesh misses enough");
        assert_eq!(
            order_if_worth(&symmetric, &symmetric_sample, 2000, symmetric_stored),
            Some((Walk::Square, breadth_first_square(&symmetric)))
        );
        {
            assert!(choose(&s, 2000, None).is_some());
            assert_eq!(choose(&s, 2000, Some(false)), None, "never");
            // The same band stored in order: nothing to gain.
            let (mut b, mut e, mut c) = (vec![], vec![], vec![]);
            for r in 0..20_000usize {
                b.push(c.len() as i64);
                c.extend((0..4).map(|d| (r + d).saturating_sub(2).min(19_999) as u32));
                e.push(c.len() as i64);
            }
            let band = Structure { begins: b, ends: e, cols: c, k: 20_000 };
            assert!(choose(&band, 2000, None).is_none());
            assert!(choose(&band, 2000, Some(true)).is_some(), "always");
        }
    }

    #[test]
    fn only_where_op_b_outgrows_the_model() {
        let may_order = |m, k, n, elem| may_order(m, k, n, elem, &hbm3e_132());
        assert!(may_order(258_569, 258_569, 128, 4), "mdual FP32 N = 128: 132 MB");
        assert!(!may_order(18_660, 18_660, 128, 4), "Cornell5: 9.6 MB");
        assert!(!may_order(0, 258_569, 128, 4));
        // The model's L2: 40 MB on either 132-SM device it was measured on, less on a smaller L2.
        assert_eq!([hbm3_132(), hbm3e_132(), gddr6_142()].map(|d| l2_model_bytes(&d)), [40_000_000; 3]);
        assert_eq!(l2_model_bytes(&hbm2e_108()), 33_554_432);
        assert_eq!(capacity(100, 32), 132);
    }
}
