//! Generated matrices, each a pure function of its parameters and seed: R-MAT power-law graphs,
//! uniform random matrices and banded matrices. Values are uniform in [-1, 1).

use crate::matrix::{Csr, Rng, MAX_I32};
use crate::Result;
use std::collections::HashSet;

/// R-MAT quadrant probabilities (Graph500's): a = top-left, b = top-right, c = bottom-left.
pub const RMAT_ABC: (f64, f64, f64) = (0.57, 0.19, 0.19);

/// A `nodes` x `nodes` R-MAT graph of `edges` drawn edges (duplicates summed, so nnz <= edges),
/// with a random vertex permutation so that the heavy rows are not all at the top.
pub fn rmat(nodes: usize, edges: usize, seed: u64) -> Result<Csr> {
    if nodes == 0 || nodes > MAX_I32 || edges > MAX_I32 {
        return Err(format!("R-MAT {nodes}:{edges}: nodes must be in 1..=2^31-1 and edges at most 2^31-1"));
    }
    let (a, b, c) = RMAT_ABC;
    let scale = usize::BITS - (nodes - 1).leading_zeros(); // 2^scale >= nodes
    let mut rng = Rng::new(seed);
    let mut triplets = Vec::with_capacity(edges);
    while triplets.len() < edges {
        let (mut r, mut col) = (0usize, 0usize);
        for _ in 0..scale {
            let u = rng.unit();
            let (down, right) = if u < a {
                (0, 0)
            } else if u < a + b {
                (0, 1)
            } else if u < a + b + c {
                (1, 0)
            } else {
                (1, 1)
            };
            r = 2 * r + down;
            col = 2 * col + right;
        }
        // Outside the graph when nodes is not a power of two: draw again.
        if r < nodes && col < nodes {
            triplets.push((r as u32, col as u32, rng.value()));
        }
    }
    let perm = permutation(nodes, &mut rng);
    for t in &mut triplets {
        t.0 = perm[t.0 as usize];
        t.1 = perm[t.1 as usize];
    }
    Csr::from_triplets(nodes, nodes, triplets)
}

/// A rows x cols matrix with each entry present with probability about `density`: every row gets
/// floor(density * cols) or one more distinct columns, so the total is about density * rows * cols.
pub fn uniform(rows: usize, cols: usize, density: f64, seed: u64) -> Result<Csr> {
    if rows > MAX_I32 || cols > MAX_I32 || !(0.0..=1.0).contains(&density) {
        return Err(format!("uniform {rows}:{cols}:{density}: sizes up to 2^31-1, density in [0, 1]"));
    }
    let per_row = density * cols as f64;
    let (whole, frac) = (per_row.floor() as usize, per_row.fract());
    let mut rng = Rng::new(seed);
    let mut m = Csr { rows, cols, row_ptr: vec![0], col_idx: Vec::new(), values: Vec::new() };
    for _ in 0..rows {
        let k = (whole + usize::from(rng.unit() < frac)).min(cols);
        // Floyd's sampling: k distinct columns in O(k).
        let mut chosen = HashSet::with_capacity(k);
        for j in cols - k..cols {
            let t = rng.below(j as u64 + 1) as usize;
            if !chosen.insert(t) {
                chosen.insert(j);
            }
        }
        let mut row: Vec<usize> = chosen.into_iter().collect();
        row.sort_unstable();
        for c in row {
            m.col_idx.push(c as i32);
            m.values.push(rng.value());
        }
        push_row_end(&mut m)?;
    }
    Ok(m)
}

/// An n x n matrix whose row i stores columns i - half_width ..= i + half_width (clipped).
pub fn banded(n: usize, half_width: usize, seed: u64) -> Result<Csr> {
    if n > MAX_I32 {
        return Err(format!("banded {n}: at most 2^31-1 rows"));
    }
    let mut rng = Rng::new(seed);
    let mut m = Csr { rows: n, cols: n, row_ptr: vec![0], col_idx: Vec::new(), values: Vec::new() };
    for i in 0..n {
        for c in i.saturating_sub(half_width)..=(i.saturating_add(half_width)).min(n - 1) {
            m.col_idx.push(c as i32);
            m.values.push(rng.value());
        }
        push_row_end(&mut m)?;
    }
    Ok(m)
}

fn push_row_end(m: &mut Csr) -> Result<()> {
    if m.col_idx.len() > MAX_I32 {
        return Err("more than 2^31-1 entries: too many for 32-bit indices".into());
    }
    m.row_ptr.push(m.col_idx.len() as i32);
    Ok(())
}

/// A uniformly random permutation of 0..n (Fisher-Yates).
fn permutation(n: usize, rng: &mut Rng) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i as u64 + 1) as usize);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows sorted, columns in range and distinct, row_ptr consistent.
    fn well_formed(m: &Csr) -> bool {
        m.row_ptr.len() == m.rows + 1
            && *m.row_ptr.last().unwrap() as usize == m.nnz()
            && m.values.len() == m.nnz()
            && (0..m.rows).all(|r| {
                let row = &m.col_idx[m.row_ptr[r] as usize..m.row_ptr[r + 1] as usize];
                row.windows(2).all(|w| w[0] < w[1]) && row.iter().all(|&c| c >= 0 && (c as usize) < m.cols)
            })
    }

    #[test]
    fn rmat_is_deterministic_and_well_formed() {
        let a = rmat(1000, 8000, 1).unwrap();
        assert!(well_formed(&a));
        assert_eq!(a, rmat(1000, 8000, 1).unwrap());
        assert_ne!(a, rmat(1000, 8000, 2).unwrap());
        // Duplicates are merged: fewer entries than edges, but most survive at this density.
        assert!(a.nnz() <= 8000 && a.nnz() > 6000, "nnz {}", a.nnz());
    }

    #[test]
    fn rmat_is_skewed() {
        let m = rmat(1 << 12, 1 << 16, 3).unwrap();
        let mut degrees: Vec<i32> = m.row_ptr.windows(2).map(|w| w[1] - w[0]).collect();
        degrees.sort_unstable();
        let max = *degrees.last().unwrap() as f64;
        let mean = m.nnz() as f64 / m.rows as f64;
        assert!(max > 10.0 * mean, "max degree {max}, mean {mean}");
    }

    #[test]
    fn rmat_handles_tiny_and_odd_sizes() {
        assert!(well_formed(&rmat(1, 5, 0).unwrap()));
        assert!(well_formed(&rmat(1000, 0, 0).unwrap()));
        assert!(well_formed(&rmat(513, 5000, 0).unwrap()));
        assert!(rmat(0, 5, 0).is_err());
    }

    #[test]
    fn uniform_has_the_asked_density() {
        let m = uniform(300, 1000, 0.05, 9).unwrap();
        assert!(well_formed(&m));
        let want = 300.0 * 1000.0 * 0.05;
        assert!((m.nnz() as f64 - want).abs() < 0.02 * want, "nnz {}", m.nnz());
        assert_eq!(m, uniform(300, 1000, 0.05, 9).unwrap());
        assert_eq!(uniform(10, 20, 1.0, 0).unwrap().nnz(), 200);
        assert_eq!(uniform(10, 20, 0.0, 0).unwrap().nnz(), 0);
    }

    #[test]
    fn banded_stores_the_band() {
        let m = banded(10, 2, 0).unwrap();
        assert!(well_formed(&m));
        assert_eq!(m.nnz(), 10 * 5 - 2 * (2 + 1));
        assert_eq!(&m.col_idx[..3], &[0, 1, 2]);
        assert_eq!(banded(0, 3, 0).unwrap().nnz(), 0);
    }
}
