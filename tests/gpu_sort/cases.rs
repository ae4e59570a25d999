//! Inputs of the sort tests and their CPU reference.

use crate::common::Rng;

/// How the minor indices of a segment (or the COO entries) are arranged before the sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Shuffled,
    Sorted,
    Reversed,
}

/// A compressed matrix to sort: `lines` segments, minor indices in [base, minor_dim + base).
#[derive(Clone, Debug)]
pub struct Segments {
    pub lines: usize,
    pub minor_dim: usize,
    pub base: i32,
    pub offsets: Vec<i32>,
    pub indices: Vec<i32>,
    pub perm: Vec<i32>,
}

/// `lengths[s]` entries in segment s; minor indices distinct within a segment unless `dups`
/// (then drawn from a range a quarter of the length, so most repeat).
pub fn segments(rng: &mut Rng, minor_dim: usize, lengths: &[usize], base: i32, order: Order, dups: bool, identity: bool) -> Segments {
    let mut offsets = vec![base];
    let mut indices = Vec::new();
    for &len in lengths {
        let mut seg: Vec<i32> = if dups {
            let range = (len / 4).clamp(1, minor_dim.max(1)) as u64;
            (0..len).map(|_| rng.below(range) as i32).collect()
        } else if len * 2 > minor_dim {
            // Dense enough to draw without replacement from all of [0, minor_dim).
            rng.distinct(minor_dim as u64, len).into_iter().map(|c| c as i32).collect()
        } else {
            let mut seen = std::collections::HashSet::with_capacity(len);
            let mut v = Vec::with_capacity(len);
            while v.len() < len {
                let c = rng.below(minor_dim as u64) as i32;
                if seen.insert(c) {
                    v.push(c);
                }
            }
            v
        };
        assert!(seg.len() == len, "segment of {len} entries does not fit {minor_dim} minor indices");
        match order {
            Order::Shuffled => {}
            Order::Sorted => seg.sort(),
            Order::Reversed => seg.sort_by(|a, b| b.cmp(a)),
        }
        indices.extend(seg.iter().map(|c| c + base));
        offsets.push(indices.len() as i32 + base);
    }
    let perm = permutation(rng, indices.len(), identity);
    Segments { lines: lengths.len(), minor_dim, base, offsets, indices, perm }
}

/// The identity, or arbitrary distinct-free values (P need not be a permutation).
pub fn permutation(rng: &mut Rng, nnz: usize, identity: bool) -> Vec<i32> {
    if identity {
        (0..nnz as i32).collect()
    } else {
        (0..nnz).map(|_| rng.next_u64() as i32).collect()
    }
}

impl Segments {
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }
    /// The reference: each segment's (index, P) pairs stably sorted by index.
    pub fn sorted(&self) -> (Vec<i32>, Vec<i32>) {
        let mut idx = self.indices.clone();
        let mut perm = self.perm.clone();
        for s in 0..self.lines {
            let (b, e) = ((self.offsets[s] - self.base) as usize, (self.offsets[s + 1] - self.base) as usize);
            let mut pairs: Vec<(i32, i32)> = (b..e).map(|k| (self.indices[k], self.perm[k])).collect();
            pairs.sort_by_key(|p| p.0); // stable
            for (k, (i, p)) in (b..e).zip(pairs) {
                idx[k] = i;
                perm[k] = p;
            }
        }
        (idx, perm)
    }
}

/// A COO matrix to sort: `m x n`, entries (rows[k], cols[k]) in [base, dim + base).
#[derive(Clone, Debug)]
pub struct Coo {
    pub m: usize,
    pub n: usize,
    pub rows: Vec<i32>,
    pub cols: Vec<i32>,
    pub perm: Vec<i32>,
}

/// `nnz` entries drawn uniformly (so duplicates appear once nnz is near m * n), or in `few_rows`
/// rows only; arranged by `order` on (row, col).
#[allow(clippy::too_many_arguments)]
pub fn coo(rng: &mut Rng, m: usize, n: usize, nnz: usize, few_rows: Option<usize>, base: i32, order: Order, identity: bool) -> Coo {
    let row_range = few_rows.unwrap_or(m).min(m) as u64;
    let mut e: Vec<(i32, i32)> = (0..nnz).map(|_| (rng.below(row_range) as i32 + base, rng.below(n as u64) as i32 + base)).collect();
    match order {
        Order::Shuffled => {}
        Order::Sorted => e.sort(),
        Order::Reversed => e.sort_by(|a, b| b.cmp(a)),
    }
    let perm = permutation(rng, nnz, identity);
    Coo { m, n, rows: e.iter().map(|x| x.0).collect(), cols: e.iter().map(|x| x.1).collect(), perm }
}

impl Coo {
    /// The reference: entries stably sorted by (row, col) or (col, row), P alongside.
    pub fn sorted(&self, by_row: bool) -> (Vec<i32>, Vec<i32>, Vec<i32>) {
        let mut k: Vec<usize> = (0..self.rows.len()).collect();
        if by_row {
            k.sort_by_key(|&i| (self.rows[i], self.cols[i]));
        } else {
            k.sort_by_key(|&i| (self.cols[i], self.rows[i]));
        }
        (k.iter().map(|&i| self.rows[i]).collect(), k.iter().map(|&i| self.cols[i]).collect(), k.iter().map(|&i| self.perm[i]).collect())
    }
}

/// The first index where two arrays differ, for a short failure message.
pub fn first_difference(what: &str, got: &[i32], want: &[i32]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{what}: {} entries, expected {}", got.len(), want.len()));
    }
    match got.iter().zip(want).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(i) => Err(format!("{what}[{i}] = {}, expected {} ({} entries)", got[i], want[i], got.len())),
    }
}
