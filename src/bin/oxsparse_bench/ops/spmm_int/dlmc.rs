//! SpMM-int's inputs: DLMC-like weight matrices (the generator Magicube measures on: vectors of
//! `V` consecutive rows share their nonzero columns, the same count of columns kept by every
//! vector row), the same count of nonzeros as a Blocked-ELL matrix of square blocks, int8 values
//! and B, and the exact int32 product they are checked against.

use crate::matrix::Rng;
use crate::par;

/// An int8 CSR matrix, 32-bit offsets and column indices, base 0, columns ascending in each row.
#[derive(Clone, Debug, PartialEq)]
pub struct IntCsr {
    pub rows: usize,
    pub cols: usize,
    pub offsets: Vec<i32>,
    pub columns: Vec<i32>,
    pub values: Vec<i8>,
}

impl IntCsr {
    pub fn nnz(&self) -> usize {
        self.values.len()
    }
}

/// A Blocked-ELL matrix as cuSPARSE stores it: `block` x `block` blocks, `ell_cols / block` of
/// them in every block row; `col_ind` their block columns (block units, ascending in each block
/// row), `values` a rows x `ell_cols` row-major array of the blocks side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockedEll {
    pub rows: usize,
    pub cols: usize,
    pub block: usize,
    pub ell_cols: usize,
    pub col_ind: Vec<i32>,
    pub values: Vec<i8>,
}

/// A nonzero int8 in [-127, 127]: never 0 (a stored zero would make the nonzero count a lie) and
/// never -128 (whose negation does not fit).
fn value(rng: &mut Rng) -> i8 {
    let v = rng.below(254) as i32 - 127;
    (if v >= 0 { v + 1 } else { v }) as i8
}

/// The columns every row keeps at `sparsity_pct` percent sparsity: the nearest multiple of
/// `multiple` (at least one multiple), so that a Blocked-ELL matrix of `multiple`-wide blocks holds
/// exactly as many entries.
pub fn kept_columns(cols: usize, sparsity_pct: usize, multiple: usize) -> usize {
    let want = cols as f64 * (100 - sparsity_pct) as f64 / 100.0;
    (((want / multiple as f64).round() as usize).max(1) * multiple).min(cols)
}

/// `rows` x `cols` with `keep` columns per row: each group of `v` consecutive rows (the last one
/// may be shorter) shares one set of distinct random columns; every entry has its own value.
pub fn vector_sparse(rows: usize, cols: usize, v: usize, keep: usize, seed: u64) -> IntCsr {
    assert!(v > 0 && keep <= cols);
    let mut rng = Rng::new(seed);
    let (mut columns, mut values) = (Vec::with_capacity(rows * keep), Vec::with_capacity(rows * keep));
    for first in (0..rows).step_by(v) {
        let set: Vec<i32> = rng.distinct_sorted(cols as u64, keep as u64).into_iter().map(|c| c as i32).collect();
        for _ in first..(first + v).min(rows) {
            columns.extend_from_slice(&set);
            values.extend((0..keep).map(|_| value(&mut rng)));
        }
    }
    let offsets = (0..=rows).map(|r| (r * keep) as i32).collect();
    IntCsr { rows, cols, offsets, columns, values }
}

/// `rows` x `cols` in Blocked-ELL with `keep / block` random distinct blocks per block row (rows,
/// cols and keep multiples of `block`): `keep` entries a row, all nonzero.
pub fn blocked_ell(rows: usize, cols: usize, block: usize, keep: usize, seed: u64) -> BlockedEll {
    assert!(rows % block == 0 && cols % block == 0 && keep % block == 0 && keep <= cols);
    let mut rng = Rng::new(seed);
    let per_row = keep / block;
    let mut col_ind = Vec::with_capacity(rows / block * per_row);
    for _ in 0..rows / block {
        col_ind.extend(rng.distinct_sorted((cols / block) as u64, per_row as u64).into_iter().map(|c| c as i32));
    }
    let values = (0..rows * keep).map(|_| value(&mut rng)).collect();
    BlockedEll { rows, cols, block, ell_cols: keep, col_ind, values }
}

impl BlockedEll {
    /// The same matrix in CSR, for the reference product.
    pub fn to_csr(&self) -> IntCsr {
        let (b, per_row) = (self.block, self.ell_cols / self.block);
        let (mut columns, mut values) = (Vec::with_capacity(self.values.len()), Vec::with_capacity(self.values.len()));
        for r in 0..self.rows {
            for j in 0..per_row {
                let block_col = self.col_ind[r / b * per_row + j] as usize;
                for i in 0..b {
                    columns.push((block_col * b + i) as i32);
                    values.push(self.values[r * self.ell_cols + j * b + i]);
                }
            }
        }
        let offsets = (0..=self.rows).map(|r| (r * self.ell_cols) as i32).collect();
        IntCsr { rows: self.rows, cols: self.cols, offsets, columns, values }
    }
}

/// A `rows` x `cols` int8 matrix of nonzero values, row-major.
pub fn dense(rows: usize, cols: usize, seed: u64) -> Vec<i8> {
    let mut rng = Rng::new(seed);
    (0..rows * cols).map(|_| value(&mut rng)).collect()
}

/// `b` (a.cols x n, row-major) transposed: the same matrix column-major.
pub fn column_major(b: &[i8], rows: usize, n: usize) -> Vec<i8> {
    let mut t = vec![0i8; b.len()];
    for r in 0..rows {
        for j in 0..n {
            t[j * rows + r] = b[r * n + j];
        }
    }
    t
}

/// A B exactly (a.rows x n, row-major) for `b` row-major a.cols x n: every sum fits int32 while
/// a row holds fewer than 2^31 / 127^2 (133,000) entries, far above any shape measured.
pub fn product(a: &IntCsr, b: &[i8], n: usize) -> Vec<i32> {
    assert!(a.cols * n == b.len() && (a.cols as u64) * 127 * 127 < 1 << 31);
    par::map(a.rows, |r| {
        let mut row = vec![0i32; n];
        for k in a.offsets[r] as usize..a.offsets[r + 1] as usize {
            let (x, bk) = (a.values[k] as i32, &b[a.columns[k] as usize * n..][..n]);
            for (c, &y) in row.iter_mut().zip(bk) {
                *c += x * y as i32;
            }
        }
        row
    })
    .concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_columns_round_to_whole_blocks() {
        assert_eq!(kept_columns(1024, 70, 16), 304);
        assert_eq!(kept_columns(1024, 90, 16), 96);
        assert_eq!(kept_columns(1024, 98, 16), 16);
        assert_eq!(kept_columns(512, 98, 16), 16, "at least one block");
        assert_eq!(kept_columns(4608, 98, 16), 96);
        assert_eq!(kept_columns(16, 0, 16), 16);
    }

    #[test]
    fn vector_rows_share_their_columns() {
        let (rows, cols, v, keep) = (37, 200, 8, 24);
        let a = vector_sparse(rows, cols, v, keep, 7);
        assert_eq!((a.rows, a.cols, a.nnz(), a.offsets.len()), (rows, cols, rows * keep, rows + 1));
        assert_eq!(a.offsets.last(), Some(&((rows * keep) as i32)));
        let row = |r: usize| &a.columns[a.offsets[r] as usize..a.offsets[r + 1] as usize];
        for r in 0..rows {
            assert_eq!(row(r).len(), keep);
            assert!(row(r).windows(2).all(|w| w[0] < w[1]), "ascending, distinct");
            assert!(row(r).iter().all(|&c| (0..cols as i32).contains(&c)));
            assert_eq!(row(r), row(r / v * v), "row {r} shares its group's columns");
        }
        assert_ne!(row(0), row(8), "groups differ");
        assert!(a.values.iter().all(|&x| x != 0 && x != -128));
        assert!(a.values.iter().any(|&x| x < -100) && a.values.iter().any(|&x| x > 100), "the whole range");
        assert_ne!(a.values[..keep], a.values[keep..2 * keep], "each row its own values");
    }

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(vector_sparse(64, 96, 8, 32, 3), vector_sparse(64, 96, 8, 32, 3));
        assert_ne!(vector_sparse(64, 96, 8, 32, 3), vector_sparse(64, 96, 8, 32, 4));
        assert_eq!(blocked_ell(64, 96, 16, 32, 5), blocked_ell(64, 96, 16, 32, 5));
        assert_eq!(dense(5, 7, 1), dense(5, 7, 1));
    }

    #[test]
    fn blocked_ell_holds_as_many_entries_and_converts() {
        let e = blocked_ell(64, 128, 16, 48, 9);
        assert_eq!((e.col_ind.len(), e.values.len()), (4 * 3, 64 * 48));
        assert!(e.col_ind.chunks(3).all(|c| c.windows(2).all(|w| w[0] < w[1]) && c.iter().all(|&x| (0..8).contains(&x))));
        let a = e.to_csr();
        assert_eq!(a.nnz(), vector_sparse(64, 128, 8, 48, 1).nnz(), "equal nonzeros");
        // Row 17 is block row 1, row 1 inside its blocks.
        let (first, k) = (e.col_ind[3] as usize, a.offsets[17] as usize);
        assert_eq!(a.columns[k..k + 16], (first as i32 * 16..first as i32 * 16 + 16).collect::<Vec<_>>()[..]);
        assert_eq!(a.values[k], e.values[17 * 48]);
        assert!(a.columns[k..k + 48].windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn product_and_transpose_by_hand() {
        // [[1, 0, -2], [0, 3, 0]] x [[1, 2], [3, 4], [5, 6]]
        let a = IntCsr { rows: 2, cols: 3, offsets: vec![0, 2, 3], columns: vec![0, 2, 1], values: vec![1, -2, 3] };
        let b = [1, 2, 3, 4, 5, 6];
        assert_eq!(product(&a, &b, 2), vec![1 - 10, 2 - 12, 9, 12]);
        assert_eq!(column_major(&b, 3, 2), vec![1, 3, 5, 2, 4, 6]);
    }
}
