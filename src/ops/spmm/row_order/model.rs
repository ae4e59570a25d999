//! The row-order model: op(A)'s sample (the entries whose B rows it follows, `sampled`), read
//! from the whole structure, in chunks or as the GPU found it, and an LRU list of L2 (`Lru`) that
//! counts the B-row misses of an order (`misses`); step one of the decision
//! (`stored_misses_to_save`).

use super::{Structure, MIN_GAIN};

/// One B row in 2^SAMPLE_SHIFT is followed by the model.
const SAMPLE_SHIFT: u32 = 4;

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

/// Step one, on the sample alone: the stored order's misses in an L2 of `cache_rows` B rows when
/// they reach MIN_GAIN times the first reads, else None. No order misses fewer times than the
/// first reads, so below that no order is worth making (most meshes miss once per B row as
/// stored: cage11, ct2010, nh2010 and PROTEINS_full 1.00, wave 1.19 at N = 256).
pub fn stored_misses_to_save(sample: &Sample, cache_rows: u64) -> Option<u64> {
    let (stored, first) = misses(sample, 0..sample.offsets.len() - 1, cache_rows);
    ((stored as f64) >= MIN_GAIN * first.max(1) as f64).then_some(stored)
}

#[cfg(test)]
mod tests {
    use super::super::breadth_first;
    use super::super::tests::shuffled_band;
    use super::*;

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
}
