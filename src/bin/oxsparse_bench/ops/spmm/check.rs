//! The float64 reference of C = A B and the comparison of a library's C with it.
//!
//! A result passes when |c - ref| <= tol * sum_k |a_ik b_kj| + tiny (see `Precision`): the error
//! a correct summation in any order may make grows with the magnitudes summed, not with |ref|,
//! which cancellation can make arbitrarily small. The largest |c - ref| / sum |a b| is kept as the
//! check's `max_rel_err`; oxsparse in TF32 math mode is held to `Precision::tf32_tolerance`.
//!
//! On large matrices a sample of rows is checked, to bound the host work and memory per case:
//! every s-th row (from row 0), the last row and the densest rows (where row-splitting kernels
//! differ most), with s chosen to keep the multiply-adds under `MAX_MACS` and the checked values
//! under `MAX_VALUES`. The sample is named in the check's scope.

use super::data::{Layout, Precision, Scalar};
use crate::case::Checker;
use crate::matrix::Csr;
use crate::par;
use crate::report::Check;

/// Multiply-adds of a full check beyond which rows are sampled.
pub const MAX_MACS: u64 = 1 << 28;
/// Reference values (rows x N) beyond which rows are sampled.
pub const MAX_VALUES: u64 = 1 << 22;
/// How many of the densest rows a sample always includes.
const DENSEST: usize = 8;

/// The rows a check compares, and what they are when not all of them.
pub struct Sample {
    pub rows: Vec<usize>,
    pub scope: Option<String>,
}

pub fn sample_rows(a: &Csr, n: usize) -> Sample {
    let (m, n64) = (a.rows, n as u64);
    let macs = a.nnz() as u64 * n64;
    let values = m as u64 * n64;
    if macs <= MAX_MACS && values <= MAX_VALUES {
        return Sample { rows: (0..m).collect(), scope: None };
    }
    let stride = macs.div_ceil(MAX_MACS).max(values.div_ceil(MAX_VALUES)).max(2) as usize;
    let mut rows: Vec<usize> = (0..m).step_by(stride).collect();
    rows.push(m - 1);
    let mut by_length: Vec<usize> = (0..m).collect();
    let len = |r: usize| a.row_ptr[r + 1] - a.row_ptr[r];
    by_length.select_nth_unstable_by_key(DENSEST.min(m - 1), |&r| std::cmp::Reverse(len(r)));
    rows.extend(&by_length[..DENSEST.min(m)]);
    rows.sort_unstable();
    rows.dedup();
    let scope = format!("{} of {m} rows: every {stride}th, the last and the {DENSEST} densest", rows.len());
    Sample { rows, scope: Some(scope) }
}

/// The float64 reference of the sampled rows of C: `want` and `bound` (sum |a b|), N per row.
pub struct Reference {
    pub rows: Vec<usize>,
    pub n: usize,
    pub want: Vec<f64>,
    pub bound: Vec<f64>,
}

/// Computes the reference rows from the values exactly as uploaded (A's in CSR order, B k x n in
/// `layout`), on every core.
pub fn reference<T: Scalar>(a: &Csr, a_vals: &[T], b: &[T], layout: Layout, n: usize, rows: Vec<usize>) -> Reference {
    let k = a.cols;
    let (want, bound) = by_rows(&rows, |r, want, bound| {
        let start = want.len();
        want.resize(start + n, 0.0);
        bound.resize(start + n, 0.0);
        let (w, bd) = (&mut want[start..], &mut bound[start..]);
        let span = a.row_ptr[r] as usize..a.row_ptr[r + 1] as usize;
        for (&v, &col) in a_vals[span.clone()].iter().zip(&a.col_idx[span]) {
            let (av, col) = (v.to_f64(), col as usize);
            for j in 0..n {
                let t = av * b[layout.index(col, j, k, n)].to_f64();
                w[j] += t;
                bd[j] += t.abs();
            }
        }
    });
    Reference { rows, n, want, bound }
}

/// The reference values of `rows` and their bounds (sum |a b|), in the order of `rows`: `row(r,
/// want, bound)` appends row r's, on every core (tasks of consecutive rows, joined in order).
pub fn by_rows(rows: &[usize], row: impl Fn(usize, &mut Vec<f64>, &mut Vec<f64>) + Sync) -> (Vec<f64>, Vec<f64>) {
    const ROWS_PER_TASK: usize = 64;
    let parts = par::map(rows.len().div_ceil(ROWS_PER_TASK), |t| {
        let (mut want, mut bound) = (Vec::new(), Vec::new());
        for &r in &rows[t * ROWS_PER_TASK..((t + 1) * ROWS_PER_TASK).min(rows.len())] {
            row(r, &mut want, &mut bound);
        }
        (want, bound)
    });
    let (mut want, mut bound) = (Vec::new(), Vec::new());
    for (w, b) in parts {
        want.extend(w);
        bound.extend(b);
    }
    (want, bound)
}

/// Compares an m x n C in `layout` with the reference rows; `tf32`: C may have been computed
/// from inputs rounded to TF32.
pub fn compare<T: Scalar>(r: &Reference, c: &[T], layout: Layout, m: usize, p: Precision, tf32: bool, scope: Option<String>) -> Check {
    let mut ch = Checker::new();
    let (tol, tiny) = (if tf32 { p.tf32_tolerance() } else { p.tolerance() }, p.tiny());
    for (i, &row) in r.rows.iter().enumerate() {
        for j in 0..r.n {
            let k = i * r.n + j;
            let got = c[layout.index(row, j, m, r.n)].to_f64();
            ch.summed(got, r.want[k], r.bound[k], tol, tiny, || format!("C[{row}][{j}]"));
        }
    }
    ch.finish(scope)
}

#[cfg(test)]
mod tests {
    use super::super::data::Half;
    use super::*;
    use crate::half;

    /// A 3 x 4 matrix with an empty row, and a 4 x 2 B.
    fn small() -> (Csr, Vec<f64>) {
        let a = Csr::from_triplets(3, 4, vec![(0, 0, 1.0), (0, 3, -2.0), (2, 1, 0.5), (2, 2, 4.0), (2, 3, 1.0)]).unwrap();
        let b = vec![1.0, 2.0, 3.0, 4.0, -1.0, 0.5, 0.25, -0.125]; // row-major 4 x 2
        (a, b)
    }

    #[test]
    fn reference_multiplies_and_bounds() {
        let (a, b) = small();
        let vals: Vec<f64> = a.values.iter().map(|&v| v as f64).collect();
        let r = reference(&a, &vals, &b, Layout::Row, 2, (0..3).collect());
        assert_eq!(r.want, vec![0.5, 2.25, 0.0, 0.0, -2.25, 3.875]);
        assert_eq!(r.bound, vec![1.5, 2.25, 0.0, 0.0, 5.75, 4.125]);
        // The same B stored column-major gives the same reference.
        let col: Vec<f64> = (0..8).map(|idx| b[Layout::Row.index(idx % 4, idx / 4, 4, 2)]).collect();
        let rc = reference(&a, &vals, &col, Layout::Col, 2, (0..3).collect());
        assert_eq!((rc.want, rc.bound), (r.want, r.bound));
    }

    #[test]
    fn compare_allows_rounding_and_catches_the_rest() {
        let (a, b) = small();
        let vals: Vec<f64> = a.values.iter().map(|&v| v as f64).collect();
        let r = reference(&a, &vals, &b, Layout::Row, 2, vec![0, 1, 2]);
        let exact: Vec<f32> = r.want.iter().map(|&v| v as f32).collect();
        assert!(compare(&r, &exact, Layout::Row, 3, Precision::F32, false, None).ok());
        let mut near = exact.clone();
        near[4] += 4e-6; // within 1e-5 * 5.75
        assert!(compare(&r, &near, Layout::Row, 3, Precision::F32, false, None).ok());
        let mut off = exact.clone();
        off[4] += 1e-4;
        let c = compare(&r, &off, Layout::Row, 3, Precision::F32, false, None);
        assert_eq!((c.compared, c.mismatches), (6, 1));
        assert!(c.first.unwrap().starts_with("C[2][0]"));
        // An empty row must come out exactly zero: a poisoned or NaN value fails.
        let mut unwritten = exact.clone();
        unwritten[2] = 1.3e36;
        unwritten[3] = f32::NAN;
        assert_eq!(compare(&r, &unwritten, Layout::Row, 3, Precision::F32, false, None).mismatches, 2);
        // Column-major C: element (row, j) at j * m + row.
        let col: Vec<f32> = (0..6).map(|idx| exact[(idx % 3) * 2 + idx / 3]).collect();
        assert!(compare(&r, &col, Layout::Col, 3, Precision::F32, false, None).ok());
        assert!(!compare(&r, &exact, Layout::Col, 3, Precision::F32, false, None).ok(), "the wrong layout is caught");
    }

    #[test]
    fn tf32_tolerance_allows_input_rounding_only() {
        let (a, b) = small();
        let vals: Vec<f64> = a.values.iter().map(|&v| v as f64).collect();
        let r = reference(&a, &vals, &b, Layout::Row, 2, vec![0, 1, 2]);
        let exact: Vec<f32> = r.want.iter().map(|&v| v as f32).collect();
        let fp32 = compare(&r, &exact, Layout::Row, 3, Precision::F32, false, None);
        assert!(fp32.ok() && fp32.max_rel_err.unwrap() < 1e-7, "{:?}", fp32.max_rel_err);
        // C[2][0]: sum |a b| = 5.75. Off by 5e-4 of it: TF32 rounding, not FP32's.
        let mut rounded = exact.clone();
        rounded[4] += (5e-4 * 5.75) as f32;
        assert!(!compare(&r, &rounded, Layout::Row, 3, Precision::F32, false, None).ok());
        let tf32 = compare(&r, &rounded, Layout::Row, 3, Precision::F32, true, None);
        assert!(tf32.ok());
        assert!((tf32.max_rel_err.unwrap() - 5e-4).abs() < 1e-6, "{:?}", tf32.max_rel_err);
        // Off by 2e-3: more than two TF32 roundings can explain.
        let mut wrong = exact.clone();
        wrong[4] += (2e-3 * 5.75) as f32;
        assert!(!compare(&r, &wrong, Layout::Row, 3, Precision::F32, true, None).ok());
        // FP64 and FP16 keep their tolerances.
        assert_eq!(Precision::F64.tf32_tolerance(), Precision::F64.tolerance());
        assert_eq!(Precision::F16.tf32_tolerance(), Precision::F16.tolerance());
    }

    #[test]
    fn fp16_output_rounding_passes_fp64_does_not_forgive() {
        let (a, b) = small();
        let vals: Vec<f64> = a.values.iter().map(|&v| v as f64).collect();
        let r = reference(&a, &vals, &b, Layout::Row, 2, vec![0, 1, 2]);
        let h: Vec<Half> = r.want.iter().map(|&v| Half(half::from_f32(v as f32 * (1.0 + 4e-4)))).collect();
        assert!(compare(&r, &h, Layout::Row, 3, Precision::F16, false, None).ok());
        let d: Vec<f64> = r.want.iter().map(|&v| v * (1.0 + 1e-9)).collect();
        assert!(!compare(&r, &d, Layout::Row, 3, Precision::F64, false, None).ok());
    }

    #[test]
    fn small_matrices_are_checked_in_full_large_ones_sampled() {
        let (a, _) = small();
        let s = sample_rows(&a, 256);
        assert_eq!((s.rows, s.scope), (vec![0, 1, 2], None));
        // 2^20 rows x N=256 values: sampled, densest rows and the last one included.
        let m = 1 << 20;
        let mut t: Vec<(u32, u32, f32)> = (0..m as u32).map(|r| (r, r, 1.0)).collect();
        t.extend((0..100).map(|c| (777_777, c, 1.0)));
        let big = Csr::from_triplets(m, m, t).unwrap();
        let s = sample_rows(&big, 256);
        assert!((s.rows.len() as u64) * 256 <= MAX_VALUES + 256 * (DENSEST as u64 + 1));
        assert!(s.rows.contains(&777_777) && s.rows.contains(&0) && s.rows.contains(&(m - 1)));
        assert!(s.rows.windows(2).all(|w| w[0] < w[1]));
        assert!(s.scope.unwrap().contains("densest"));
    }
}
