//! The float64 reference of SDDMM's C and the comparison of a library's C with it.
//!
//! Stored entry (i, j) of C is alpha (A's row i . B's column j) + beta C_ij, with alpha = 1 and
//! beta = 0: the dot product of k terms, computed from the values exactly as uploaded (A m x k and
//! B k x n in the case's layouts, FP32 or FP16). A result passes within FP32's tolerance of
//! sum_t |a_it b_tj| plus FP32's spacing near zero, as SpMM's do (`Precision::tolerance`,
//! `Checker::summed`): C and the compute type are FP32 in both configurations, and a product of
//! two FP16 values is exact in FP32, so only the summation rounds.
//!
//! Large problems check a sample of C's rows, chosen as SpMM's check chooses them
//! (`spmm::check::sample_rows` with k for N: the work is nnz x k multiply-adds, the dense data m x
//! k values), every entry of each row sampled.

use crate::case::Checker;
use crate::matrix::Csr;
use crate::ops::spmm::check::by_rows;
use crate::ops::spmm::data::{Precision, Scalar};
use crate::report::Check;

use super::SddmmLayout;

/// The reference of the stored entries of the sampled rows, in C's stored order.
pub struct Reference {
    pub rows: Vec<usize>,
    pub want: Vec<f64>,
    pub bound: Vec<f64>,
}

/// The reference of `rows` of C (the pattern of `c`) = A B, A m x k and B k x n stored as
/// `layout` says, on every core.
pub fn reference<T: Scalar>(c: &Csr, a: &[T], b: &[T], k: usize, layout: SddmmLayout, rows: Vec<usize>) -> Reference {
    let (m, n, al, bl) = (c.rows, c.cols, layout.a(), layout.b());
    let (want, bound) = by_rows(&rows, |r, want, bound| {
        for &j in &c.col_idx[c.row_ptr[r] as usize..c.row_ptr[r + 1] as usize] {
            let (mut w, mut bd) = (0f64, 0f64);
            for t in 0..k {
                let p = a[al.index(r, t, m, k)].to_f64() * b[bl.index(t, j as usize, k, n)].to_f64();
                w += p;
                bd += p.abs();
            }
            want.push(w);
            bound.push(bd);
        }
    });
    Reference { rows, want, bound }
}

/// Compares C's values (FP32, in C's stored order) with the reference rows.
pub fn compare(r: &Reference, c: &Csr, got: &[f32], scope: Option<String>) -> Check {
    let mut ch = Checker::new();
    let (tol, tiny) = (Precision::F32.tolerance(), Precision::F32.tiny());
    let mut at = 0;
    for &row in &r.rows {
        let span = c.row_ptr[row] as usize..c.row_ptr[row + 1] as usize;
        for (e, (&g, &col)) in span.clone().zip(got[span.clone()].iter().zip(&c.col_idx[span])) {
            ch.summed(g, r.want[at], r.bound[at], tol, tiny, || format!("C[{row}][{col}] (entry {e})"));
            at += 1;
        }
    }
    ch.finish(scope)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::half;
    use crate::ops::spmm::data::Half;

    /// C: 3 x 4 with an empty row; A 3 x 2 row-major, B 2 x 4 column-major.
    fn small() -> (Csr, Vec<f64>, Vec<f64>) {
        let c = Csr::from_triplets(3, 4, vec![(0, 0, 9.0), (0, 3, 9.0), (2, 1, 9.0), (2, 2, 9.0), (2, 3, 9.0)]).unwrap();
        let a = vec![1.0, 2.0, 0.0, 0.0, -1.0, 0.5]; // rows (1, 2), (0, 0), (-1, 0.5)
        let b = vec![1.0, 0.0, 0.5, 4.0, -2.0, 1.0, 3.0, -0.25]; // columns (1, 0), (0.5, 4), (-2, 1), (3, -0.25)
        (c, a, b)
    }

    #[test]
    fn reference_is_the_sampled_dot_products() {
        let (c, a, b) = small();
        let r = reference(&c, &a, &b, 2, SddmmLayout::Fast, vec![0, 1, 2]);
        // (0,0) 1; (0,3) 3 - 0.5; (2,1) -0.5 + 2; (2,2) 2 + 0.5; (2,3) -3 - 0.125.
        assert_eq!(r.want, vec![1.0, 2.5, 1.5, 2.5, -3.125]);
        assert_eq!(r.bound, vec![1.0, 3.5, 2.5, 2.5, 3.125]);
        let sampled = reference(&c, &a, &b, 2, SddmmLayout::Fast, vec![2]);
        assert_eq!(sampled.want, vec![1.5, 2.5, -3.125], "row 2's entries only");
    }

    #[test]
    fn row_major_b_is_read_by_rows() {
        let (c, a, b) = small();
        // B's values again, row-major: row 0 (1, 0.5, -2, 3), row 1 (0, 4, 1, -0.25).
        let rows: Vec<f64> = (0..2).flat_map(|t| (0..4).map(move |j| (t, j))).map(|(t, j)| b[j * 2 + t]).collect();
        assert_eq!(rows, vec![1.0, 0.5, -2.0, 3.0, 0.0, 4.0, 1.0, -0.25]);
        let fast = reference(&c, &a, &b, 2, SddmmLayout::Fast, vec![0, 1, 2]);
        let row = reference(&c, &a, &rows, 2, SddmmLayout::Row, vec![0, 1, 2]);
        assert_eq!((row.want, row.bound), (fast.want, fast.bound));
        // Read by columns instead, the column-major values give other products.
        assert_ne!(reference(&c, &a, &b, 2, SddmmLayout::Row, vec![0]).want, vec![1.0, 2.5]);
    }

    #[test]
    fn compare_allows_rounding_and_catches_the_rest() {
        let (c, a, b) = small();
        let r = reference(&c, &a, &b, 2, SddmmLayout::Fast, vec![0, 1, 2]);
        let exact: Vec<f32> = r.want.iter().map(|&v| v as f32).collect();
        let ok = compare(&r, &c, &exact, None);
        assert!(ok.ok() && ok.compared == 5, "{ok:?}");
        let mut near = exact.clone();
        near[4] += 2e-5; // within 1e-5 * 3.125
        assert!(compare(&r, &c, &near, None).ok());
        let mut off = exact.clone();
        off[1] += 1e-3;
        let bad = compare(&r, &c, &off, Some("rows".into()));
        assert_eq!((bad.mismatches, bad.scope.as_deref()), (1, Some("rows")));
        assert!(bad.first.unwrap().starts_with("C[0][3] (entry 1)"));
        // An entry never written keeps the poison (0x7B bytes, 1.3e36) or is NaN.
        let mut unwritten = exact;
        unwritten[2] = f32::from_bits(0x7B7B_7B7B);
        unwritten[3] = f32::NAN;
        assert_eq!(compare(&r, &c, &unwritten, None).mismatches, 2);
        // A sample compares its rows' entries only.
        let r2 = reference(&c, &a, &b, 2, SddmmLayout::Fast, vec![2]);
        let mut other = r.want.iter().map(|&v| v as f32).collect::<Vec<_>>();
        other[0] = 100.0; // row 0: not sampled
        assert!(compare(&r2, &c, &other, None).ok());
    }

    #[test]
    fn fp16_inputs_are_read_as_uploaded() {
        let (c, a, b) = small();
        let h = |v: &[f64]| -> Vec<Half> { v.iter().map(|&x| Half(half::from_f32(x as f32 * 1.001))).collect() };
        let r = reference(&c, &h(&a), &h(&b), 2, SddmmLayout::Fast, vec![0]);
        // 1.001 rounds to 1.0009765625 in FP16: (0,0) is that squared.
        let x = half::to_f32(half::from_f32(1.001)) as f64;
        assert_eq!(r.want[0], x * x);
    }
}
