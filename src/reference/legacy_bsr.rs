//! The legacy BSR products in float64, read straight from the legacy arrays: the twins of
//! src/ops/legacy_bsr.rs (`bsrmv`, `bsrxmv`, `bsrmm` with column-major B and C).

use super::vector_ops::{add, mul, Value, ZERO};

/// A in the legacy arguments: `mb` block rows of square `block x block` blocks, values stored row
/// by row in each block (`column_blocks` false, `CUSPARSE_DIRECTION_ROW`) or column by column.
pub struct LegacyBsr<'a> {
    pub mb: usize,
    pub block: usize,
    pub column_blocks: bool,
    pub base: i64,
    pub row_ptr: &'a [i32],
    pub col_ind: &'a [i32],
    pub values: &'a [Value],
}

impl LegacyBsr<'_> {
    /// Every stored element as (row, column, value), duplicates and zeros included.
    pub fn entries(&self) -> Vec<(usize, usize, Value)> {
        (0..self.mb).flat_map(|br| self.row_entries(br, self.row_ptr[br], self.row_ptr[br + 1])).collect()
    }

    /// The elements of block row `br` stored at positions `start .. end` (in the base).
    fn row_entries(&self, br: usize, start: i32, end: i32) -> Vec<(usize, usize, Value)> {
        let (bd, mut out) = (self.block, Vec::new());
        for slot in (start as i64 - self.base) as usize..(end as i64 - self.base) as usize {
            let bc = (self.col_ind[slot] as i64 - self.base) as usize;
            for i in 0..bd {
                for j in 0..bd {
                    let within = if self.column_blocks { j * bd + i } else { i * bd + j };
                    out.push((br * bd + i, bc * bd + j, self.values[slot * bd * bd + within]));
                }
            }
        }
        out
    }
}

/// y = alpha * A * x + beta * y; beta zero writes y without reading it.
pub fn bsrmv(alpha: Value, a: &LegacyBsr, x: &[Value], beta: Value, y: &mut [Value]) {
    let mut ax = vec![ZERO; a.mb * a.block];
    for (r, c, v) in a.entries() {
        ax[r] = add(ax[r], mul(v, x[c]));
    }
    for (yr, axr) in y.iter_mut().zip(ax) {
        let kept = if beta == ZERO { ZERO } else { mul(beta, *yr) };
        *yr = add(mul(alpha, axr), kept);
    }
}

/// y = alpha * A * x + beta * y on the block rows `mask` lists (in the base), block row i summing
/// its blocks `row_ptr[i] .. ends[i]` (`row_ptr` holds the starts); the other rows of y keep their
/// values. Beta zero writes the listed rows without reading them.
pub fn bsrxmv(alpha: Value, a: &LegacyBsr, ends: &[i32], mask: &[i32], x: &[Value], beta: Value, y: &mut [Value]) {
    for &listed in mask {
        let br = (listed as i64 - a.base) as usize;
        let mut ax = vec![ZERO; a.block];
        for (r, c, v) in a.row_entries(br, a.row_ptr[br], ends[br]) {
            ax[r - br * a.block] = add(ax[r - br * a.block], mul(v, x[c]));
        }
        for (i, axi) in ax.into_iter().enumerate() {
            let yr = &mut y[br * a.block + i];
            let kept = if beta == ZERO { ZERO } else { mul(beta, *yr) };
            *yr = add(mul(alpha, axi), kept);
        }
    }
}

/// C = alpha * A * op(B) + beta * C for `n` columns, B and C column-major; op(B) is B
/// (`kb*block x n`) or, with `transposed_b`, B's transpose (B is `n x kb*block`). Beta zero writes
/// C without reading it.
#[allow(clippy::too_many_arguments)]
pub fn bsrmm(alpha: Value, a: &LegacyBsr, transposed_b: bool, n: usize, b: &[Value], ldb: usize, beta: Value, c: &mut [Value], ldc: usize) {
    let m = a.mb * a.block;
    let op_b = |k: usize, j: usize| if transposed_b { b[k * ldb + j] } else { b[j * ldb + k] };
    let mut ab = vec![ZERO; m * n];
    for (r, k, v) in a.entries() {
        for j in 0..n {
            ab[j * m + r] = add(ab[j * m + r], mul(v, op_b(k, j)));
        }
    }
    for j in 0..n {
        for r in 0..m {
            let at = j * ldc + r;
            let kept = if beta == ZERO { ZERO } else { mul(beta, c[at]) };
            c[at] = add(mul(alpha, ab[j * m + r]), kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One 2 x 2 block [[1, 2], [3, 4]] at block (0, 1) of a 1 x 2 block matrix, both orders.
    #[test]
    fn block_orders_place_values() {
        let values = [(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)];
        let a = |column_blocks| LegacyBsr { mb: 1, block: 2, column_blocks, base: 1, row_ptr: &[1, 2], col_ind: &[2], values: &values };
        let x = [(0.0, 0.0), (0.0, 0.0), (1.0, 0.0), (10.0, 0.0)];
        let mut y = [(f64::NAN, 0.0); 2];
        bsrmv((1.0, 0.0), &a(false), &x, ZERO, &mut y);
        assert_eq!(y, [(21.0, 0.0), (43.0, 0.0)], "row-major block");
        bsrmv((1.0, 0.0), &a(true), &x, ZERO, &mut y);
        assert_eq!(y, [(31.0, 0.0), (42.0, 0.0)], "column-major block");
        // The same product as one column of B, given as B and as B's transpose (ldb 1).
        let mut c = [(f64::NAN, 0.0); 2];
        bsrmm((1.0, 0.0), &a(false), false, 1, &x, 4, ZERO, &mut c, 2);
        assert_eq!(c, [(21.0, 0.0), (43.0, 0.0)]);
        bsrmm((2.0, 0.0), &a(false), true, 1, &x, 1, (1.0, 0.0), &mut c, 2);
        assert_eq!(c, [(63.0, 0.0), (129.0, 0.0)]);
    }

    /// Three block rows of 1 x 1 blocks; the mask names rows 3 and 1 (one-based), row 3 reading
    /// only the first of its two stored blocks (its end pointer stops short); row 2 is untouched.
    #[test]
    fn bsrxmv_updates_only_the_listed_rows() {
        let values = [(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)];
        let a = LegacyBsr { mb: 3, block: 1, column_blocks: false, base: 1, row_ptr: &[1, 2, 3], col_ind: &[1, 2, 1, 2], values: &values };
        let ends = [2, 3, 4];
        let x = [(10.0, 0.0), (100.0, 0.0)];
        let mut y = [(1.0, 0.0), (f64::NAN, 0.0), (2.0, 0.0)];
        bsrxmv((1.0, 0.0), &a, &ends, &[3, 1], &x, (5.0, 0.0), &mut y);
        assert_eq!(y[0], (15.0, 0.0));
        assert!(y[1].0.is_nan(), "row 2 is not in the mask");
        assert_eq!(y[2], (40.0, 0.0), "row 3: its block at position 3 only");
    }
}
