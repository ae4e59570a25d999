//! Generated matrices, each a pure function of its parameters and seed: uniform random, banded,
//! block-diagonal and 27-point 3-D stencil matrices (R-MAT graphs are in `rmat.rs`). Values are
//! uniform in [-1, 1).

use crate::matrix::{Csr, Rng, MAX_I32};
use crate::Result;
use std::collections::HashSet;

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
        for c in distinct_sorted(cols, k, &mut rng) {
            m.col_idx.push(c as i32);
            m.values.push(rng.value());
        }
        push_row_end(&mut m)?;
    }
    Ok(m)
}

/// `k` distinct values of 0..n, sorted, by Floyd's sampling: O(k) draws whatever n is.
fn distinct_sorted(n: usize, k: usize, rng: &mut Rng) -> Vec<usize> {
    let mut chosen = HashSet::with_capacity(k);
    for j in n - k..n {
        let t = rng.below(j as u64 + 1) as usize;
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    let mut v: Vec<usize> = chosen.into_iter().collect();
    v.sort_unstable();
    v
}

/// An n x n block-diagonal matrix: diagonal blocks of `block` rows and columns (the last one
/// smaller when `block` does not divide n), each row storing about `density` of its block's
/// columns (floor(density * width) or one more, distinct).
pub fn block_diagonal(n: usize, block: usize, density: f64, seed: u64) -> Result<Csr> {
    if n > MAX_I32 || block == 0 || !(0.0..=1.0).contains(&density) {
        return Err(format!("block-diagonal {n}:{block}:{density}: at most 2^31-1 rows, a block of at least 1, density in [0, 1]"));
    }
    let mut rng = Rng::new(seed);
    let mut m = Csr { rows: n, cols: n, row_ptr: vec![0], col_idx: Vec::new(), values: Vec::new() };
    for i in 0..n {
        let start = i / block * block;
        let width = block.min(n - start);
        let per_row = density * width as f64;
        let k = (per_row.floor() as usize + usize::from(rng.unit() < per_row.fract())).min(width);
        for c in distinct_sorted(width, k, &mut rng) {
            m.col_idx.push((start + c) as i32);
            m.values.push(rng.value());
        }
        push_row_end(&mut m)?;
    }
    Ok(m)
}

/// The 27-point stencil of an nx x nx x nx grid: row (x, y, z), numbered x + nx (y + nx z),
/// stores every grid neighbour at distance at most 1 in each coordinate, itself included: 27
/// entries in interior rows, fewer on the faces; (3 nx - 2)^3 in all.
pub fn stencil27(nx: usize, seed: u64) -> Result<Csr> {
    let n = nx.checked_pow(3).filter(|&n| n <= MAX_I32).ok_or(format!("stencil {nx}: nx^3 must be at most 2^31-1"))?;
    let mut rng = Rng::new(seed);
    let mut m = Csr { rows: n, cols: n, row_ptr: Vec::with_capacity(n + 1), col_idx: Vec::new(), values: Vec::new() };
    m.row_ptr.push(0);
    let near = |v: usize| v.saturating_sub(1)..=(v + 1).min(nx - 1);
    for z in 0..nx {
        for y in 0..nx {
            for x in 0..nx {
                // z, then y, then x ascending: the columns come out sorted.
                for zz in near(z) {
                    for yy in near(y) {
                        for xx in near(x) {
                            m.col_idx.push((xx + nx * (yy + nx * zz)) as i32);
                            m.values.push(rng.value());
                        }
                    }
                }
                push_row_end(&mut m)?;
            }
        }
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

/// An n x n band of half-width `half_width` whose entries are each kept with probability
/// `fill_percent` / 100 (a band with holes; 100: every entry, as `banded`).
pub fn band_with_holes(n: usize, half_width: usize, fill_percent: u32, seed: u64) -> Result<Csr> {
    if n > MAX_I32 || fill_percent > 100 {
        return Err(format!("band {n}:{half_width}:{fill_percent}: at most 2^31-1 rows, a fill of at most 100%"));
    }
    let mut rng = Rng::new(seed);
    let mut m = Csr { rows: n, cols: n, row_ptr: vec![0], col_idx: Vec::new(), values: Vec::new() };
    let keep = fill_percent as f64 / 100.0;
    for i in 0..n {
        for c in i.saturating_sub(half_width)..=(i.saturating_add(half_width)).min(n - 1) {
            if fill_percent == 100 || rng.unit() < keep {
                m.col_idx.push(c as i32);
                m.values.push(rng.value());
            }
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

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Rows sorted, columns in range and distinct, row_ptr consistent.
    pub fn well_formed(m: &Csr) -> bool {
        m.row_ptr.len() == m.rows + 1
            && *m.row_ptr.last().unwrap() as usize == m.nnz()
            && m.values.len() == m.nnz()
            && (0..m.rows).all(|r| {
                let row = &m.col_idx[m.row_ptr[r] as usize..m.row_ptr[r + 1] as usize];
                row.windows(2).all(|w| w[0] < w[1]) && row.iter().all(|&c| c >= 0 && (c as usize) < m.cols)
            })
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
        // Full, the band itself; half full, about half of it, inside the band.
        assert_eq!(band_with_holes(10, 2, 100, 0).unwrap(), banded(10, 2, 0).unwrap());
        let h = band_with_holes(2000, 8, 50, 1).unwrap();
        assert!(well_formed(&h) && (15_000..19_000).contains(&h.nnz()), "{}", h.nnz());
        assert!((0..2000)
            .all(|r| h.col_idx[h.row_ptr[r] as usize..h.row_ptr[r + 1] as usize].iter().all(|&c| (c as i64 - r as i64).abs() <= 8)));
        assert!(band_with_holes(10, 2, 101, 0).is_err());
    }

    #[test]
    fn block_diagonal_stays_in_its_blocks() {
        let m = block_diagonal(1000, 64, 0.25, 4).unwrap();
        assert!(well_formed(&m));
        for r in 0..m.rows {
            let block = r / 64;
            for &c in &m.col_idx[m.row_ptr[r] as usize..m.row_ptr[r + 1] as usize] {
                assert_eq!(c as usize / 64, block, "row {r} stores column {c}");
            }
        }
        // 15 full blocks and one of 40: density * (15 * 64^2 + 40^2) entries, about.
        let want = 0.25 * (15.0 * 64.0 * 64.0 + 40.0 * 40.0);
        assert!((m.nnz() as f64 - want).abs() < 0.02 * want, "nnz {}", m.nnz());
        assert_eq!(m, block_diagonal(1000, 64, 0.25, 4).unwrap());
    }

    #[test]
    fn full_blocks_and_edge_cases() {
        let m = block_diagonal(12, 4, 1.0, 0).unwrap();
        assert_eq!(m.nnz(), 3 * 16);
        assert_eq!(&m.col_idx[..4], &[0, 1, 2, 3]);
        assert_eq!(&m.col_idx[m.row_ptr[11] as usize..], &[8, 9, 10, 11]);
        assert_eq!(block_diagonal(10, 1, 1.0, 0).unwrap().nnz(), 10, "blocks of one: the diagonal");
        assert_eq!(block_diagonal(10, 100, 1.0, 0).unwrap().nnz(), 100, "one block, smaller than asked");
        assert_eq!(block_diagonal(10, 5, 0.0, 0).unwrap().nnz(), 0);
        assert!(block_diagonal(10, 0, 0.5, 0).is_err());
        assert!(block_diagonal(10, 5, 1.5, 0).is_err());
    }

    #[test]
    fn stencil_rows_and_counts() {
        for nx in [1, 2, 3, 5] {
            let m = stencil27(nx, 0).unwrap();
            assert!(well_formed(&m));
            assert_eq!((m.rows, m.cols), (nx * nx * nx, nx * nx * nx));
            assert_eq!(m.nnz(), (3 * nx - 2).pow(3), "nx {nx}");
        }
        let m = stencil27(4, 0).unwrap();
        let len = |r: usize| (m.row_ptr[r + 1] - m.row_ptr[r]) as usize;
        let id = |x: usize, y: usize, z: usize| x + 4 * (y + 4 * z);
        assert_eq!(len(id(1, 2, 1)), 27, "interior");
        assert_eq!(len(id(0, 0, 0)), 8, "corner");
        assert_eq!(len(id(0, 0, 2)), 12, "edge");
        assert_eq!(len(id(0, 1, 2)), 18, "face");
        // Symmetric pattern: (r, c) stored exactly when (c, r) is.
        for r in 0..m.rows {
            for &c in &m.col_idx[m.row_ptr[r] as usize..m.row_ptr[r + 1] as usize] {
                let back = &m.col_idx[m.row_ptr[c as usize] as usize..m.row_ptr[c as usize + 1] as usize];
                assert!(back.contains(&(r as i32)));
            }
        }
        assert!(stencil27(1291, 0).is_err(), "1291^3 > 2^31-1");
    }
}
