//! Whole short rows in an order that keeps op(B)'s rows in L2: preprocess may run the short-row
//! kernel over a table of whole rows (split_rows.rs's table, every slot one row) in breadth-first
//! order instead of the stored order.
//!
//! Why: a row kernel reads a B row (n values) per entry, from L2 when the row was read recently.
//! When op(B) is larger than L2 and the stored order scatters the rows that share columns (a mesh
//! numbered without locality), B rows are fetched from memory again and again: Nsight on mdual
//! FP32 N = 128 (session 20) read 339 MB from DRAM for a 132 MB op(B), and the kernel ran at the
//! memory's bandwidth. Processing rows breadth-first over the rows-and-columns graph keeps rows
//! that share columns together, so each B row is fetched about once. Measured (session 20, H100,
//! the same matrices with their rows permuted by reverse Cuthill-McKee, whole-row kernel): mdual
//! FP32 N = 128 174 -> 127 us, N = 256 352 -> 223, FP64 N = 128 362 -> 247; delaunay_n16 N = 256 82
//! -> 67; wing N = 256 85 -> 59; wave N = 256 203 -> 210 (already local: its stored order missed
//! only 1.19 times per B row).
//!
//! Whether to: an LRU model of L2 holding `L2_MODEL_BYTES` of B rows counts the B-row misses of
//! both orders, sampled as SHARDS does (B rows chosen by a hash, the cache scaled with them;
//! checked against the exact LRU on mdual, delaunay_n16, wing and wave: within 1%), and the order
//! is taken when it saves `MIN_GAIN` times the misses. Each row is still summed by one group in
//! stored entry order, so C is bitwise the same as with the stored order.

/// Bytes of B rows the model's L2 holds (of the H100's 50 MiB, the rest for A, C and the other
/// partition's copies).
pub const L2_MODEL_BYTES: u64 = 40_000_000;
/// The breadth-first order is taken when the stored order misses this many times as often.
pub const MIN_GAIN: f64 = 1.5;
/// One B row in 2^SAMPLE_SHIFT is followed by the model.
const SAMPLE_SHIFT: u32 = 4;

/// Whether the order may matter, from the plan: op(B) (k rows of n `elem`-byte values) is larger
/// than the model's L2, and the table's 32-bit rows can number op(A)'s.
pub fn may_order(m: i64, k: i64, n: i64, elem: u64) -> bool {
    m > 0 && m <= u32::MAX as i64 && (k.max(0) as u64).saturating_mul(n.max(0) as u64).saturating_mul(elem) > L2_MODEL_BYTES
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

/// Rows in breadth-first order over the graph of rows and columns (a row's neighbours are the
/// other rows of its columns), each component from its first unvisited row as stored.
pub fn breadth_first(s: &Structure) -> Vec<u32> {
    let m = s.begins.len();
    // The columns' rows (a counting sort of the entries by column).
    let mut start = vec![0usize; s.k + 1];
    for &c in &s.cols {
        if (c as usize) < s.k {
            start[c as usize + 1] += 1;
        }
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut fill = start.clone();
    let mut rows_of = vec![0u32; start[s.k]];
    for r in 0..m {
        for &c in s.row(r) {
            if (c as usize) < s.k {
                rows_of[fill[c as usize]] = r as u32;
                fill[c as usize] += 1;
            }
        }
    }
    let (mut row_seen, mut col_seen) = (vec![false; m], vec![false; s.k]);
    let mut order = Vec::with_capacity(m);
    for first in 0..m as u32 {
        if row_seen[first as usize] {
            continue;
        }
        row_seen[first as usize] = true;
        let mut head = order.len();
        order.push(first);
        while head < order.len() {
            let r = order[head] as usize;
            head += 1;
            for &c in s.row(r) {
                let c = c as usize;
                if c >= s.k || col_seen[c] {
                    continue;
                }
                col_seen[c] = true;
                for &r2 in &rows_of[start[c]..start[c + 1]] {
                    if !row_seen[r2 as usize] {
                        row_seen[r2 as usize] = true;
                        order.push(r2);
                    }
                }
            }
        }
    }
    order
}

/// Sums of a Fenwick tree over positions 0 .. n.
struct Fenwick(Vec<i32>);

impl Fenwick {
    fn add(&mut self, i: usize, v: i32) {
        let mut i = i + 1;
        while i < self.0.len() {
            self.0[i] += v;
            i += i & i.wrapping_neg();
        }
    }
    /// Sum over positions 0 .. i.
    fn prefix(&self, mut i: usize) -> i64 {
        let mut s = 0i64;
        while i > 0 {
            s += self.0[i] as i64;
            i &= i - 1;
        }
        s
    }
}

/// Whether B row c is one the model follows.
fn sampled(c: u32) -> bool {
    (c as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40 & ((1 << SAMPLE_SHIFT) - 1) == 0
}

/// Estimated B-row misses of processing the rows in `order` with an LRU cache of `capacity` B
/// rows: the sampled rows' reuse distances (distinct sampled rows between two uses, a Fenwick
/// tree over the accesses' times), a miss when a distance reaches the scaled capacity. Also the
/// first reads alone (the misses of an unbounded cache), both scaled back from the sample.
pub fn misses(s: &Structure, order: impl Iterator<Item = usize>, capacity: u64) -> (u64, u64) {
    let accesses: Vec<u32> = order.flat_map(|r| s.row(r).iter().copied().filter(|&c| (c as usize) < s.k && sampled(c))).collect();
    let mut tree = Fenwick(vec![0; accesses.len() + 1]);
    let mut last = vec![usize::MAX; s.k];
    let scaled = capacity >> SAMPLE_SHIFT;
    let (mut missed, mut first) = (0u64, 0u64);
    for (t, &c) in accesses.iter().enumerate() {
        match std::mem::replace(&mut last[c as usize], t) {
            usize::MAX => {
                missed += 1;
                first += 1;
            }
            p => {
                if (tree.prefix(t) - tree.prefix(p + 1)) as u64 >= scaled {
                    missed += 1;
                }
                tree.add(p, -1);
            }
        }
        tree.add(t, 1);
    }
    (missed << SAMPLE_SHIFT, first << SAMPLE_SHIFT)
}

/// The breadth-first order when it saves MIN_GAIN times the stored order's misses of B rows of
/// `row_bytes` each. No order misses fewer times than the first reads, so the breadth-first one
/// is made only when the stored order misses MIN_GAIN times as often as those (most meshes miss
/// once per B row as stored: cage11, ct2010, nh2010 and PROTEINS_full 1.00, wave 1.19 at N = 256).
/// `OXSPARSE_SPMM_ROW_ORDER=never` keeps the stored order, `=always` takes the breadth-first one
/// wherever the plan has room (for tests and comparisons).
pub fn choose(s: &Structure, row_bytes: u64) -> Option<Vec<u32>> {
    let forced = forced();
    if forced == Some(false) {
        return None;
    }
    let capacity = L2_MODEL_BYTES / row_bytes.max(1);
    let (stored, first) = if forced.is_none() { misses(s, 0..s.begins.len(), capacity) } else { (0, 0) };
    if forced.is_none() && (stored as f64) < MIN_GAIN * first.max(1) as f64 {
        return None;
    }
    let order = breadth_first(s);
    if forced == Some(true) {
        return Some(order);
    }
    let (ordered, _) = misses(s, order.iter().map(|&r| r as usize), capacity);
    (stored as f64 >= MIN_GAIN * ordered.max(1) as f64).then_some(order)
}

/// What `OXSPARSE_SPMM_ROW_ORDER` forces: Some(true) for `always`, Some(false) for `never`.
pub fn forced() -> Option<bool> {
    static FORCED: once_cell::sync::Lazy<Option<bool>> = once_cell::sync::Lazy::new(|| match std::env::var("OXSPARSE_SPMM_ROW_ORDER").as_deref() {
        Ok("always") => Some(true),
        Ok("never") => Some(false),
        _ => None,
    });
    *FORCED
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A band of `width` entries a row around the diagonal of an m x m matrix, its rows stored in a
    /// seeded shuffled order (`stored[i]` is the band row stored at i).
    fn shuffled_band(m: usize, width: usize) -> (Structure, Vec<usize>) {
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

    #[test]
    fn breadth_first_orders_every_row_once() {
        let (mut s, _) = shuffled_band(1000, 5);
        // Empty rows and a column outside [0, k).
        s.begins.extend([s.cols.len() as i64; 3]);
        s.cols.push(u32::MAX);
        s.ends.extend([s.cols.len() as i64 - 1, s.cols.len() as i64 - 1, s.cols.len() as i64]);
        let mut order = breadth_first(&s);
        assert_eq!(order.len(), s.begins.len());
        order.sort_unstable();
        assert!(order.iter().enumerate().all(|(i, &r)| i == r as usize), "a permutation");
    }

    /// A shuffled band misses every B row about once per entry in stored order once the cache is
    /// far smaller than the band's rows, and about once per row breadth-first; an unshuffled one
    /// is left alone.
    #[test]
    fn the_model_sees_what_breadth_first_saves() {
        let (s, _) = shuffled_band(20_000, 4);
        let order = breadth_first(&s);
        let (stored, first) = misses(&s, 0..s.begins.len(), 2000);
        let (ordered, _) = misses(&s, order.iter().map(|&r| r as usize), 2000);
        assert!((first as f64 - 20_000.0).abs() < 0.2 * 20_000.0, "first reads: every B row once, about: {first}");
        assert!(stored as f64 > 3.0 * ordered as f64, "stored {stored}, breadth-first {ordered}");
        assert!((ordered as f64) < 1.3 * 20_000.0, "about one miss per B row: {ordered}");
        if forced().is_none() {
            assert!(choose(&s, L2_MODEL_BYTES / 2000).is_some());
            // The same band stored in order: nothing to gain.
            let (mut b, mut e, mut c) = (vec![], vec![], vec![]);
            for r in 0..20_000usize {
                b.push(c.len() as i64);
                c.extend((0..4).map(|d| (r + d).saturating_sub(2).min(19_999) as u32));
                e.push(c.len() as i64);
            }
            let band = Structure { begins: b, ends: e, cols: c, k: 20_000 };
            assert!(choose(&band, L2_MODEL_BYTES / 2000).is_none());
        }
    }

    #[test]
    fn only_where_op_b_outgrows_the_model() {
        assert!(may_order(258_569, 258_569, 128, 4), "mdual FP32 N = 128: 132 MB");
        assert!(!may_order(18_660, 18_660, 128, 4), "Cornell5: 9.6 MB");
        assert!(!may_order(0, 258_569, 128, 4));
        assert_eq!(capacity(100, 32), 132);
    }
}

