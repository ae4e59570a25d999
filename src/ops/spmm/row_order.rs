//! Whole short rows in an order that keeps op(B)'s rows in L2: preprocess may run the short-row
//! kernel over a table of whole rows (split_rows/table.rs's table, every slot one row) in breadth-first
//! order instead of the stored order.
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

use crate::device::DeviceModel;

/// Bytes of B rows the model's L2 holds: four fifths of the device's L2 (the rest for A, C and the
/// other partition's copies), at most L2_MODEL_MAX, the size the model was measured with (40 MB
/// of 50 MiB; a larger L2 was not found to change the orders worth taking).
pub fn l2_model_bytes(device: &DeviceModel) -> u64 {
    (device.l2_bytes / 5 * 4).min(L2_MODEL_MAX)
}
const L2_MODEL_MAX: u64 = 40_000_000;
/// The breadth-first order is taken when the stored order misses this many times as often.
pub const MIN_GAIN: f64 = 1.5;
/// One B row in 2^SAMPLE_SHIFT is followed by the model.
const SAMPLE_SHIFT: u32 = 4;

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

/// Rows in breadth-first order over the graph of rows and columns (a row's neighbours are the
/// other rows of its columns), each component from its first unvisited row as stored.
pub fn breadth_first(s: &Structure) -> Vec<u32> {
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
    for r in 0..s.begins.len() {
        for &c in s.row(r) {
            if (c as usize) < s.k {
                rows_of[fill[c as usize]] = r as u32;
                fill[c as usize] += 1;
            }
        }
    }
    let mut col_seen = vec![false; s.k];
    breadth_first_by(s.begins.len(), |r, queue| {
        for &c in s.row(r) {
            let c = c as usize;
            if c < s.k && !std::mem::replace(&mut col_seen[c], true) {
                rows_of[start[c]..start[c + 1]].iter().for_each(|&r2| queue.visit(r2 as usize));
            }
        }
    })
}

/// Rows in breadth-first order over op(A)'s own graph, for a square op(A) (row r's neighbours are
/// the rows its columns number), each component from its first unvisited row as stored: the
/// Cuthill-McKee order without its sort by degree, whose reverse was measured (above).
/// It walks each entry once and builds no transpose, where `breadth_first` walks each twice after
/// building one: 10 against 21-28 ms on mdual, 20 against 104 on wave_squared_2hop (development
/// machine), with the same misses in the model on the meshes of the corpus (mdual, wave,
/// wave_squared_2hop, delaunay_n16, wing, cage11, ct2010, nh2010; 256-1024 bytes a B row).
pub fn breadth_first_square(s: &Structure) -> Vec<u32> {
    let m = s.begins.len();
    breadth_first_by(m, |r, queue| s.row(r).iter().filter(|&&c| (c as usize) < m).for_each(|&c| queue.visit(c as usize)))
}

/// The rows a breadth-first walk has reached, in the order it reached them.
struct Queue {
    seen: Vec<bool>,
    order: Vec<u32>,
}

impl Queue {
    /// Queues row `r` unless it was reached before.
    fn visit(&mut self, r: usize) {
        if !std::mem::replace(&mut self.seen[r], true) {
            self.order.push(r as u32);
        }
    }
}

/// Rows 0 .. m breadth-first, each component from its first unvisited row as stored; `expand(r,
/// queue)` visits row r's neighbours.
fn breadth_first_by(m: usize, mut expand: impl FnMut(usize, &mut Queue)) -> Vec<u32> {
    let mut queue = Queue { seen: vec![false; m], order: Vec::with_capacity(m) };
    for first in 0..m {
        if queue.seen[first] {
            continue;
        }
        let mut head = queue.order.len();
        queue.visit(first);
        while head < queue.order.len() {
            let r = queue.order[head] as usize;
            head += 1;
            expand(r, &mut queue);
        }
    }
    queue.order
}

/// The hash that picks the B rows the model follows: column c when `(c * multiplier) >> 40 & mask`
/// is 0 (also the GPU's, `kernels::spmm::row_sample`).
pub const SAMPLE_HASH: (u64, u64) = (0x9E37_79B9_7F4A_7C15, (1 << SAMPLE_SHIFT) - 1);

/// Whether B row c is one the model follows.
fn sampled(c: u32) -> bool {
    (c as u64).wrapping_mul(SAMPLE_HASH.0) >> 40 & SAMPLE_HASH.1 == 0
}

/// The model's sample of op(A): each row's entries whose B row is followed (`sampled`), the
/// columns renumbered 0 .. `distinct` in order of first appearance, so that the model's state
/// is a sixteenth of k and both orders read a sixteenth of the entries.
#[derive(Debug, PartialEq)]
pub struct Sample {
    offsets: Vec<usize>,
    ids: Vec<u32>,
    distinct: usize,
}

impl Sample {
    /// The sample of a whole structure.
    pub fn of(s: &Structure) -> Sample {
        let mut builder = SampleBuilder::new(s.k, s.begins.len());
        for r in 0..s.begins.len() {
            builder.row(s.row(r));
        }
        builder.finish()
    }

    /// The sample from the followed columns themselves, as the GPU found them
    /// (`kernels::spmm::row_sample`): row r's at `offsets[r] .. offsets[r + 1]` of `cols`, in
    /// stored order.
    pub fn of_followed(k: usize, offsets: &[usize], cols: &[u32]) -> Sample {
        let mut builder = SampleBuilder::new(k, offsets.len().saturating_sub(1));
        for w in offsets.windows(2) {
            builder.row(&cols[w[0]..w[1]]);
        }
        builder.finish()
    }

    /// The sample of op(A) whose rows are the consecutive entry ranges `begins[r] .. ends[r]`
    /// (`contiguous`), its columns read `chunk` entries at a time by `read(first entry, columns)`
    /// into one reused buffer (u32::MAX for a column outside [0, k)), so that preprocess never
    /// holds all of them when the stored order turns out good enough (their pages, fresh from the
    /// system, cost more than the reading: first-touch faults on a VM).
    pub fn by_chunks<E>(
        begins: &[i64],
        ends: &[i64],
        k: usize,
        chunk: usize,
        mut read: impl FnMut(usize, &mut [u32]) -> Result<(), E>,
    ) -> Result<Sample, E> {
        debug_assert!(contiguous(begins, ends));
        let mut builder = SampleBuilder::new(k, begins.len());
        let (first, last) = match (begins.first(), ends.last()) {
            (Some(&b), Some(&e)) => (b as usize, e as usize),
            _ => return Ok(builder.finish()),
        };
        let chunk = chunk.max(1);
        let mut buffer = vec![0u32; chunk.min(last - first)];
        let mut row = 0;
        let mut at = first;
        while at < last {
            let n = (last - at).min(chunk);
            read(at, &mut buffer[..n])?;
            // The rows (or their parts) within entries at .. at + n.
            while row < begins.len() && (begins[row] as usize) < at + n {
                let (b, e) = ((begins[row] as usize).max(at), (ends[row] as usize).min(at + n));
                buffer[b - at..e - at].iter().for_each(|&c| builder.entry(c));
                if ends[row] as usize > at + n {
                    break;
                }
                builder.end_row();
                row += 1;
            }
            at += n;
        }
        while row < begins.len() {
            builder.end_row();
            row += 1;
        }
        Ok(builder.finish())
    }

    fn row(&self, r: usize) -> &[u32] {
        &self.ids[self.offsets[r]..self.offsets[r + 1]]
    }
}

/// A sample under construction, a row at a time.
struct SampleBuilder {
    k: usize,
    id_of: Vec<u32>,
    sample: Sample,
}

impl SampleBuilder {
    fn new(k: usize, m: usize) -> SampleBuilder {
        let mut offsets = Vec::with_capacity(m + 1);
        offsets.push(0);
        SampleBuilder { k, id_of: vec![u32::MAX; k], sample: Sample { offsets, ids: Vec::new(), distinct: 0 } }
    }

    #[inline]
    fn entry(&mut self, c: u32) {
        if (c as usize) < self.k && sampled(c) {
            let id = &mut self.id_of[c as usize];
            if *id == u32::MAX {
                *id = self.sample.distinct as u32;
                self.sample.distinct += 1;
            }
            self.sample.ids.push(*id);
        }
    }

    fn end_row(&mut self) {
        self.sample.offsets.push(self.sample.ids.len());
    }

    fn row(&mut self, cols: &[u32]) {
        cols.iter().for_each(|&c| self.entry(c));
        self.end_row();
    }

    fn finish(self) -> Sample {
        self.sample
    }
}

/// Whether the rows are consecutive ranges of the entries (row r + 1 begins where row r ends), as
/// CSR offsets and the row views describe them: `Sample::by_chunks` reads them so.
pub fn contiguous(begins: &[i64], ends: &[i64]) -> bool {
    begins.iter().zip(ends).all(|(&b, &e)| b <= e) && begins.iter().skip(1).zip(ends).all(|(&b, &e)| b == e)
}

/// An LRU cache of sampled B rows as a doubly linked list over their ids (slot `distinct` is the
/// list's head): a row is in it exactly when fewer than `capacity` other rows were used since
/// its last use, the same test as a reuse distance below the capacity.
struct Lru {
    prev: Vec<u32>,
    next: Vec<u32>,
    inside: Vec<bool>,
    len: u64,
    capacity: u64,
}

impl Lru {
    fn new(distinct: usize, capacity: u64) -> Lru {
        let head = distinct as u32;
        Lru { prev: vec![head; distinct + 1], next: vec![head; distinct + 1], inside: vec![false; distinct], len: 0, capacity }
    }

    fn unlink(&mut self, i: u32) {
        let (p, n) = (self.prev[i as usize], self.next[i as usize]);
        self.next[p as usize] = n;
        self.prev[n as usize] = p;
    }

    fn push_front(&mut self, i: u32) {
        let head = self.inside.len() as u32;
        let first = self.next[head as usize];
        self.prev[i as usize] = head;
        self.next[i as usize] = first;
        self.prev[first as usize] = i;
        self.next[head as usize] = i;
    }

    /// Uses row `i`: whether it was in the cache.
    fn hit(&mut self, i: u32) -> bool {
        if self.inside[i as usize] {
            self.unlink(i);
            self.push_front(i);
            return true;
        }
        self.push_front(i);
        self.inside[i as usize] = true;
        self.len += 1;
        if self.len > self.capacity {
            let last = self.prev[self.inside.len()];
            self.unlink(last);
            self.inside[last as usize] = false;
            self.len -= 1;
        }
        false
    }
}

/// Estimated B-row misses of processing the rows in `order` with an LRU cache of `capacity` B
/// rows, from the sampled rows with the cache scaled with them (SHARDS). Also the first reads
/// alone (the misses of an unbounded cache), both scaled back from the sample.
pub fn misses(sample: &Sample, order: impl Iterator<Item = usize>, capacity: u64) -> (u64, u64) {
    let mut lru = Lru::new(sample.distinct, capacity >> SAMPLE_SHIFT);
    let mut missed = 0u64;
    for r in order {
        for &i in sample.row(r) {
            missed += !lru.hit(i) as u64;
        }
    }
    (missed << SAMPLE_SHIFT, (sample.distinct as u64) << SAMPLE_SHIFT)
}

/// The row order for a structure (both steps below on its sample, with an L2 of `cache_rows` B
/// rows), None to keep the stored one. `forced` (`OXSPARSE_SPMM_ROW_ORDER`): `never` (false) keeps
/// the stored order, `always` (true) takes the breadth-first one (`breadth_first_any`) wherever the
/// plan has room (for tests and comparisons).
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

/// Step one, on the sample alone: the stored order's misses in an L2 of `cache_rows` B rows when
/// they reach MIN_GAIN times the first reads, else None. No order misses fewer times than the
/// first reads, so below that no order is worth making (most meshes miss once per B row as
/// stored: cage11, ct2010, nh2010 and PROTEINS_full 1.00, wave 1.19 at N = 256).
pub fn stored_misses_to_save(sample: &Sample, cache_rows: u64) -> Option<u64> {
    let (stored, first) = misses(sample, 0..sample.offsets.len() - 1, cache_rows);
    ((stored as f64) >= MIN_GAIN * first.max(1) as f64).then_some(stored)
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

    /// The model's reference twin: reuse distances (distinct sampled B rows between two uses of
    /// one) counted with a Fenwick tree over the accesses' times, a miss when the distance
    /// reaches the scaled capacity.
    fn misses_by_reuse_distance(s: &Structure, order: impl Iterator<Item = usize>, capacity: u64) -> (u64, u64) {
        let accesses: Vec<u32> = order.flat_map(|r| s.row(r).iter().copied().filter(|&c| (c as usize) < s.k && sampled(c))).collect();
        let mut tree = vec![0i64; accesses.len() + 1];
        let add = |tree: &mut Vec<i64>, i: usize, v: i64| {
            let mut i = i + 1;
            while i < tree.len() {
                tree[i] += v;
                i += i & i.wrapping_neg();
            }
        };
        let prefix = |tree: &Vec<i64>, mut i: usize| {
            let mut sum = 0;
            while i > 0 {
                sum += tree[i];
                i &= i - 1;
            }
            sum
        };
        let mut last = vec![usize::MAX; s.k];
        let scaled = (capacity >> SAMPLE_SHIFT) as i64;
        let (mut missed, mut first) = (0u64, 0u64);
        for (t, &c) in accesses.iter().enumerate() {
            match std::mem::replace(&mut last[c as usize], t) {
                usize::MAX => {
                    missed += 1;
                    first += 1;
                }
                p => {
                    missed += (prefix(&tree, t) - prefix(&tree, p + 1) >= scaled) as u64;
                    add(&mut tree, p, -1);
                }
            }
            add(&mut tree, t, 1);
        }
        (missed << SAMPLE_SHIFT, first << SAMPLE_SHIFT)
    }

    /// The LRU list counts the misses the reuse distances count, on random structures (empty
    /// rows, repeated columns, columns outside [0, k)), in stored and breadth-first order, for
    /// caches from none to larger than the sample.
    #[test]
    fn lru_agrees_with_reuse_distances() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |bound: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % bound.max(1)
        };
        for trial in 0..60 {
            let (m, k) = (1 + next(400) as usize, 1 + next(3000) as usize);
            let (mut begins, mut ends, mut cols) = (vec![], vec![], vec![]);
            for r in 0..m {
                begins.push(cols.len() as i64);
                let len = if trial % 3 == 0 { next(60) } else { next(12) };
                let centre = (r * k / m) as u64;
                for _ in 0..len {
                    let c = if next(50) == 0 {
                        u32::MAX
                    } else if trial % 2 == 0 {
                        next(k as u64) as u32
                    } else {
                        (centre + next(200)).min(k as u64 - 1) as u32
                    };
                    cols.push(c);
                }
                ends.push(cols.len() as i64);
            }
            let s = Structure { begins, ends, cols, k };
            let sample = Sample::of(&s);
            let order = breadth_first(&s);
            for capacity in [0u64, 16, 100, 1000, 20_000, 1 << 40] {
                assert_eq!(
                    misses(&sample, 0..m, capacity),
                    misses_by_reuse_distance(&s, 0..m, capacity),
                    "trial {trial}, capacity {capacity}, stored order"
                );
                let bfs = || order.iter().map(|&r| r as usize);
                assert_eq!(
                    misses(&sample, bfs(), capacity),
                    misses_by_reuse_distance(&s, bfs(), capacity),
                    "trial {trial}, capacity {capacity}, breadth-first"
                );
            }
        }
    }

    /// A sample read in chunks of any size equals the sample of the whole structure, with empty
    /// rows first, last and between, and entries before the first row.
    #[test]
    fn a_sample_by_chunks_is_the_whole_sample() {
        let (band, _) = shuffled_band(3000, 9);
        let mut begins: Vec<i64> = vec![5, 5];
        let mut cols: Vec<u32> = vec![7; 5];
        for r in 0..band.begins.len() {
            if r % 97 == 0 {
                begins.push(cols.len() as i64); // an empty row
            }
            begins.push(cols.len() as i64);
            cols.extend_from_slice(band.row(r));
        }
        begins.push(cols.len() as i64);
        let ends: Vec<i64> = begins[1..].iter().copied().chain([cols.len() as i64]).collect();
        let s = Structure { begins, ends, cols, k: 3000 };
        assert!(contiguous(&s.begins, &s.ends));
        let whole = Sample::of(&s);
        assert!(whole.distinct > 100 && whole.ids.len() > 1000, "a sample worth comparing");
        for chunk in [1, 2, 7, 9, 64, 1000, 1 << 20] {
            let mut reads = 0;
            let by_chunks = Sample::by_chunks::<()>(&s.begins, &s.ends, s.k, chunk, |first, out| {
                reads += 1;
                out.copy_from_slice(&s.cols[first..first + out.len()]);
                Ok(())
            });
            assert_eq!(by_chunks, Ok(Sample::of(&s)), "chunks of {chunk}");
            assert_eq!(reads, (s.cols.len() - 5).div_ceil(chunk), "chunks of {chunk}: each entry read once");
        }
        // The followed columns alone, as the GPU finds them, make the same sample.
        let mut offsets = vec![0usize];
        let mut followed = vec![];
        for r in 0..s.begins.len() {
            followed.extend(s.row(r).iter().filter(|&&c| (c as usize) < s.k && sampled(c)));
            offsets.push(followed.len());
        }
        assert_eq!(Sample::of_followed(s.k, &offsets, &followed), whole);
        let mut gapped = s.ends.clone();
        gapped[10] -= 1;
        assert!(!contiguous(&s.begins, &gapped));
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
