//! The hub fixture of the preprocess-contract tests: CSR rows of 2-15 entries and every 97th of
//! 300-2000 (many rows cross the tile kernels' tiles), dense operands of `w` columns (1: a
//! vector), and several sets of values for A with a float64 check of each.

use super::Rng;

pub const SETS: usize = 3;

/// Rows of 2-15 entries and every 97th of 300-2000 (many rows cross tiles), `w` columns of B
/// (1: SpMV), `SETS` sets of values with their float64 products.
pub struct Problem {
    pub n: usize,
    pub w: usize,
    pub offsets: Vec<i32>,
    pub cols: Vec<i32>,
    pub values: Vec<Vec<f32>>,
    pub b: Vec<f32>,
}

impl Problem {
    pub fn new(n: usize, w: usize, seed: u64) -> Problem {
        let mut rng = Rng::new(seed);
        let (mut offsets, mut cols) = (vec![0i32], Vec::new());
        for r in 0..n {
            let len = if r % 97 == 5 { 300 + rng.below(1701) } else { 2 + rng.below(14) };
            cols.extend(rng.distinct(n as u64, len as usize).into_iter().map(|c| c as i32));
            offsets.push(cols.len() as i32);
        }
        let values = (0..SETS).map(|_| (0..cols.len()).map(|_| rng.value() as f32).collect()).collect();
        let b = (0..n * w).map(|_| rng.value() as f32).collect();
        Problem { n, w, offsets, cols, values, b }
    }

    /// Wrong elements of `got` (C or y, row-major) for value set `s`.
    pub fn wrong(&self, s: usize, got: &[f32]) -> usize {
        let mut bad = 0;
        for r in 0..self.n {
            for j in 0..self.w {
                let (mut sum, mut scale) = (0f64, 0f64);
                for k in self.offsets[r] as usize..self.offsets[r + 1] as usize {
                    let p = self.values[s][k] as f64 * self.b[self.cols[k] as usize * self.w + j] as f64;
                    sum += p;
                    scale += p.abs();
                }
                // NaN (an element never written) counts as wrong.
                let close = (got[r * self.w + j] as f64 - sum).abs() <= 1e-5 * scale;
                if !close {
                    bad += 1;
                }
            }
        }
        bad
    }
}
