//! Host-side sparse matrices (CSR, FP32 values, 32-bit indices) and the seeded random generator
//! that every input of the benchmark is drawn from.

use crate::Result;

/// A CSR matrix on the host: rows sorted by column, no duplicate entries, zero-based.
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    pub rows: usize,
    pub cols: usize,
    pub row_ptr: Vec<i32>,
    pub col_idx: Vec<i32>,
    pub values: Vec<f32>,
}

/// A matrix of the benchmark set, with the names it is reported under.
pub struct Matrix {
    /// e.g. "cora" or "rmat_n4096_e40960".
    pub name: String,
    /// The class in MANIFEST.tsv, "generated", or "" when unknown.
    pub group: String,
    /// The set it belongs to, which the summaries keep apart: "Matrix Market", "R-MAT" or
    /// "generated".
    pub set: &'static str,
    pub csr: Csr,
}

/// Largest row or column count, and largest nnz, that 32-bit CSR indices can address.
pub const MAX_I32: usize = i32::MAX as usize;

impl Csr {
    pub fn nnz(&self) -> usize {
        self.col_idx.len()
    }

    /// Builds a CSR matrix from (row, col, value) triplets in any order; duplicates are summed.
    pub fn from_triplets(rows: usize, cols: usize, triplets: Vec<(u32, u32, f32)>) -> Result<Csr> {
        if rows > MAX_I32 || cols > MAX_I32 {
            return Err(format!("{rows} x {cols} is too large for 32-bit indices"));
        }
        // Counting sort by row, then sort each row by column and merge duplicates.
        let mut start = vec![0usize; rows + 1];
        for &(r, c, _) in &triplets {
            if r as usize >= rows || c as usize >= cols {
                return Err(format!("entry ({r}, {c}) lies outside the {rows} x {cols} matrix"));
            }
            start[r as usize + 1] += 1;
        }
        for r in 0..rows {
            start[r + 1] += start[r];
        }
        let mut next = start.clone();
        let mut entries = vec![(0u32, 0f32); triplets.len()];
        for (r, c, v) in triplets {
            entries[next[r as usize]] = (c, v);
            next[r as usize] += 1;
        }
        let mut row_ptr = Vec::with_capacity(rows + 1);
        let mut col_idx = Vec::with_capacity(entries.len());
        let mut values = Vec::with_capacity(entries.len());
        row_ptr.push(0i32);
        for r in 0..rows {
            let row = &mut entries[start[r]..start[r + 1]];
            row.sort_unstable_by_key(|&(c, _)| c);
            let mut i = 0;
            while i < row.len() {
                let c = row[i].0;
                let mut sum = 0f64;
                while i < row.len() && row[i].0 == c {
                    sum += row[i].1 as f64;
                    i += 1;
                }
                col_idx.push(c as i32);
                values.push(sum as f32);
            }
            if col_idx.len() > MAX_I32 {
                return Err(format!("more than {MAX_I32} entries: too many for 32-bit indices"));
            }
            row_ptr.push(col_idx.len() as i32);
        }
        Ok(Csr { rows, cols, row_ptr, col_idx, values })
    }

    /// Bytes of the dense rows x cols FP32 form, or None when that overflows 64 bits.
    pub fn dense_bytes(rows: u64, cols: u64) -> Option<u64> {
        rows.checked_mul(cols)?.checked_mul(4)
    }
}

/// SplitMix64's state increment per draw.
const SPLITMIX_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// Seeded benchmark data on top of the shared SplitMix64 generator: reproducible on every machine.
pub struct Rng(oxsparse::reference::rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(oxsparse::reference::rng::SplitMix64::new(seed))
    }

    /// The generator `Rng::new(seed)` becomes after `n` draws, in O(1): SplitMix64's state only
    /// advances by a constant per draw. Lets threads fill parts of one sequence independently.
    pub fn at(seed: u64, n: u64) -> Rng {
        Rng::new(seed.wrapping_add(n.wrapping_mul(SPLITMIX_GAMMA)))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [-1, 1), a multiple of 2^-23: the values given to pattern matrices and
    /// generated graphs (computed in f32 so that rounding never reaches 1).
    pub fn value(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u32 << 23) as f32 - 1.0
    }

    /// Uniform in [0, n), n > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        // Multiply-shift: unbiased enough for benchmark data, and no division.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// `k` distinct values of [0, n) in ascending order (k <= n).
    pub fn distinct_sorted(&mut self, n: u64, k: u64) -> Vec<u32> {
        assert!(k <= n && n <= u32::MAX as u64 + 1, "distinct_sorted({n}, {k})");
        // Mark the smaller of the chosen set and its complement, by rejection on a bitset.
        let complement = k > n / 2;
        let marks = if complement { n - k } else { k };
        let mut bits = vec![0u64; n.div_ceil(64) as usize];
        let mut marked = 0;
        while marked < marks {
            let i = self.below(n);
            let (w, b) = ((i / 64) as usize, 1u64 << (i % 64));
            if bits[w] & b == 0 {
                bits[w] |= b;
                marked += 1;
            }
        }
        (0..n).filter(|&i| ((bits[(i / 64) as usize] >> (i % 64)) & 1 == 1) != complement).map(|i| i as u32).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triplets_are_sorted_and_duplicates_summed() {
        let t = vec![(1, 2, 1.0), (0, 1, 2.0), (1, 0, 3.0), (1, 2, 0.5), (2, 2, 4.0)];
        let m = Csr::from_triplets(3, 3, t).unwrap();
        assert_eq!(m.row_ptr, vec![0, 1, 3, 4]);
        assert_eq!(m.col_idx, vec![1, 0, 2, 2]);
        assert_eq!(m.values, vec![2.0, 3.0, 1.5, 4.0]);
    }

    #[test]
    fn triplets_outside_the_matrix_are_refused() {
        assert!(Csr::from_triplets(2, 2, vec![(2, 0, 1.0)]).is_err());
        assert!(Csr::from_triplets(2, 2, vec![(0, 2, 1.0)]).is_err());
    }

    #[test]
    fn empty_rows_and_empty_matrices() {
        let m = Csr::from_triplets(3, 4, vec![]).unwrap();
        assert_eq!(m.row_ptr, vec![0, 0, 0, 0]);
        assert_eq!(m.nnz(), 0);
    }

    #[test]
    fn distinct_sorted_is_distinct_sorted_and_seeded() {
        for (n, k) in [(100, 0), (100, 1), (100, 10), (100, 60), (100, 100), (1000, 999)] {
            let v = Rng::new(7).distinct_sorted(n, k);
            assert_eq!(v.len() as u64, k);
            assert!(v.windows(2).all(|w| w[0] < w[1]));
            assert!(v.iter().all(|&i| (i as u64) < n));
            assert_eq!(v, Rng::new(7).distinct_sorted(n, k));
        }
    }

    #[test]
    fn at_jumps_within_the_sequence() {
        let mut r = Rng::new(42);
        let seq: Vec<u64> = (0..10).map(|_| r.next_u64()).collect();
        for (n, &want) in seq.iter().enumerate() {
            assert_eq!(Rng::at(42, n as u64).next_u64(), want);
        }
    }

    #[test]
    fn values_lie_in_range() {
        let mut r = Rng::new(1);
        for _ in 0..10_000 {
            let v = r.value();
            assert!((-1.0..1.0).contains(&v));
            assert!(r.below(7) < 7);
        }
    }

    #[test]
    fn dense_bytes_detects_overflow() {
        assert_eq!(Csr::dense_bytes(3, 5), Some(60));
        assert_eq!(Csr::dense_bytes(1 << 31, 1 << 31), None);
    }
}
