//! The host side of the SpMV operands (precisions, scalars, A's values, random X and Y), the
//! float64 reference of Y = alpha A X + beta Y and the comparison of a library's Y with it.
//!
//! The check follows SpMM's (`ops/spmm/check.rs`) with its tolerances: a result passes when
//! |y - ref| <= tol * (|alpha| sum_k |a_ik x_k| + |beta y0_i|) + tiny, because the error a correct
//! summation in any order may make grows with the magnitudes summed, not with |ref|. SpMV costs
//! O(nnz) on the host, so every row is checked (no sample).

use crate::api::{R_32F, R_64F};
use crate::case::Checker;
use crate::device::{cu, DevBuf};
use crate::matrix::{Csr, Rng};
use crate::report::Check;
use crate::{par, Result};
use cudarc::driver::result;
use std::borrow::Cow;
use std::ffi::c_int;

/// Value type of A, X and Y, which is also the compute type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    F32,
    F64,
}

impl Precision {
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "FP32",
            Precision::F64 => "FP64",
        }
    }

    pub fn value_type(self) -> c_int {
        match self {
            Precision::F32 => R_32F,
            Precision::F64 => R_64F,
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            Precision::F32 => 4,
            Precision::F64 => 8,
        }
    }

    /// SpMM's relative tolerances: a hundred units of rounding for the accumulation.
    pub fn tolerance(self) -> f64 {
        match self {
            Precision::F32 => 1e-5,
            Precision::F64 => 1e-12,
        }
    }

    /// The absolute slack: the spacing of the output type near zero, so that a result whose
    /// terms cancel exactly may still round.
    pub fn tiny(self) -> f64 {
        match self {
            Precision::F32 => f32::MIN_POSITIVE as f64,
            Precision::F64 => f64::MIN_POSITIVE,
        }
    }

    /// `v` as the library sees it: rounded to FP32 for an FP32 compute type.
    pub fn round(self, v: f64) -> f64 {
        match self {
            Precision::F32 => v as f32 as f64,
            Precision::F64 => v,
        }
    }
}

/// Values in one precision (FP32 ones may be borrowed from the matrix).
pub enum Values<'a> {
    F32(Cow<'a, [f32]>),
    F64(Vec<f64>),
}

impl Values<'_> {
    pub fn upload(&self) -> Result<DevBuf> {
        match self {
            Values::F32(v) => DevBuf::upload(v),
            Values::F64(v) => DevBuf::upload(v),
        }
    }

    /// Copies the values into `buf` (which must hold them), in stream order.
    pub fn write_to(&self, buf: &DevBuf) -> Result<()> {
        fn put<T: Copy>(buf: &DevBuf, v: &[T]) -> Result<()> {
            assert!(std::mem::size_of_val(v) <= buf.bytes, "write past the end of a buffer");
            // SAFETY: the buffer holds at least size_of_val(v) bytes.
            cu("cuMemcpyHtoD", unsafe { result::memcpy_htod_sync(buf.ptr, v) })
        }
        match self {
            Values::F32(v) => put(buf, v),
            Values::F64(v) => put(buf, v),
        }
    }
}

/// A's values in precision `p`.
pub fn matrix_values(a: &Csr, p: Precision) -> Values<'_> {
    match p {
        Precision::F32 => Values::F32(Cow::Borrowed(&a.values)),
        Precision::F64 => Values::F64(a.values.iter().map(|&v| v as f64).collect()),
    }
}

/// A vector of `len` values uniform in [-1, 1): element i is draw i of `Rng::new(seed)`, filled
/// on every core.
pub fn random_vector(len: usize, p: Precision, seed: u64) -> Values<'static> {
    let draw = move |i: usize| Rng::at(seed, i as u64).value();
    match p {
        Precision::F32 => {
            let mut v = vec![0f32; len];
            par::fill(&mut v, draw);
            Values::F32(Cow::Owned(v))
        }
        Precision::F64 => {
            let mut v = vec![0f64; len];
            par::fill(&mut v, |i| draw(i) as f64);
            Values::F64(v)
        }
    }
}

/// The float64 reference of every element of Y, and the magnitude bound of its tolerance.
pub struct Reference {
    pub want: Vec<f64>,
    pub bound: Vec<f64>,
}

/// Y = alpha A X + beta Y0 from the values exactly as uploaded; `alpha` and `beta` as the
/// library receives them (see [`Precision::round`]); `y0` only when beta is not zero.
pub fn reference(a: &Csr, a_vals: &Values, x: &Values, y0: Option<&Values>, alpha: f64, beta: f64) -> Reference {
    match (a_vals, x, y0) {
        (Values::F32(av), Values::F32(xv), None) => rows(a, av, xv, None::<&[f32]>, alpha, beta),
        (Values::F32(av), Values::F32(xv), Some(Values::F32(y))) => rows(a, av, xv, Some(&y[..]), alpha, beta),
        (Values::F64(av), Values::F64(xv), None) => rows(a, av, xv, None::<&[f64]>, alpha, beta),
        (Values::F64(av), Values::F64(xv), Some(Values::F64(y))) => rows(a, av, xv, Some(&y[..]), alpha, beta),
        _ => unreachable!("A, X and Y share one precision"),
    }
}

fn rows<T: Copy + Into<f64> + Sync>(a: &Csr, a_vals: &[T], x: &[T], y0: Option<&[T]>, alpha: f64, beta: f64) -> Reference {
    let ranges = par::ranges(a.rows, 4 * par::threads());
    let parts = par::map(ranges.len(), |t| {
        let range = ranges[t].clone();
        let (mut want, mut bound) = (Vec::with_capacity(range.len()), Vec::with_capacity(range.len()));
        for r in range {
            let (mut sum, mut mag) = (0f64, 0f64);
            let span = a.row_ptr[r] as usize..a.row_ptr[r + 1] as usize;
            for (&v, &c) in a_vals[span.clone()].iter().zip(&a.col_idx[span]) {
                let t = v.into() * x[c as usize].into();
                sum += t;
                mag += t.abs();
            }
            let old = y0.map_or(0.0, |y| beta * y[r].into());
            want.push(alpha * sum + old);
            bound.push(alpha.abs() * mag + old.abs());
        }
        (want, bound)
    });
    let (mut want, mut bound) = (Vec::with_capacity(a.rows), Vec::with_capacity(a.rows));
    for (w, b) in parts {
        want.extend(w);
        bound.extend(b);
    }
    Reference { want, bound }
}

/// Compares a library's Y with the reference.
pub fn compare<T: Copy + Into<f64>>(r: &Reference, y: &[T], p: Precision) -> Check {
    let mut ch = Checker::new();
    let (tol, tiny) = (p.tolerance(), p.tiny());
    for (i, &got) in y.iter().enumerate() {
        ch.value(got.into(), r.want[i], tol * r.bound[i] + tiny, || format!("Y[{i}]"));
    }
    ch.finish(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3 x 4 matrix with an empty row.
    fn small() -> Csr {
        Csr::from_triplets(3, 4, vec![(0, 0, 1.0), (0, 3, -2.0), (2, 1, 0.5), (2, 2, 4.0), (2, 3, 1.0)]).unwrap()
    }

    #[test]
    fn reference_scales_and_adds_beta_y() {
        let a = small();
        let x = Values::F64(vec![1.0, 2.0, -1.0, 0.25]);
        let r = reference(&a, &matrix_values(&a, Precision::F64), &x, None, 2.0, 0.0);
        // Row 0: 1 - 0.5 = 0.5; row 2: 1 - 4 + 0.25 = -2.75.
        assert_eq!(r.want, vec![1.0, 0.0, -5.5]);
        assert_eq!(r.bound, vec![3.0, 0.0, 10.5]);
        let y0 = Values::F64(vec![1.0, -4.0, 2.0]);
        let r = reference(&a, &matrix_values(&a, Precision::F64), &x, Some(&y0), 2.0, 0.5);
        assert_eq!(r.want, vec![1.5, -2.0, -4.5]);
        assert_eq!(r.bound, vec![3.5, 2.0, 11.5]);
    }

    #[test]
    fn compare_allows_rounding_and_catches_the_rest() {
        let a = small();
        let x = random_vector(4, Precision::F32, 7);
        let r = reference(&a, &matrix_values(&a, Precision::F32), &x, None, Precision::F32.round(0.7), 0.0);
        let exact: Vec<f32> = r.want.iter().map(|&v| v as f32).collect();
        assert!(compare(&r, &exact, Precision::F32).ok());
        let mut off = exact.clone();
        off[2] += 1e-3;
        let c = compare(&r, &off, Precision::F32);
        assert_eq!((c.compared, c.mismatches), (3, 1));
        assert!(c.first.unwrap().starts_with("Y[2]"));
        // The empty row must come out zero: a poisoned (never written) value fails.
        let mut unwritten = exact.clone();
        unwritten[1] = f32::from_bits(0x7B7B_7B7B);
        assert!(!compare(&r, &unwritten, Precision::F32).ok());
        let d: Vec<f64> = r.want.iter().map(|&v| v * (1.0 + 1e-9)).collect();
        assert!(!compare(&r, &d, Precision::F64).ok(), "FP64 does not forgive FP32 rounding");
    }

    #[test]
    fn random_vectors_are_the_same_in_both_precisions() {
        let (Values::F32(s), Values::F64(d)) = (random_vector(100, Precision::F32, 3), random_vector(100, Precision::F64, 3)) else {
            panic!("asked for FP32 and FP64")
        };
        assert!(s.iter().zip(&d).all(|(&a, &b)| a as f64 == b && (-1.0..1.0).contains(&b)));
        assert_eq!(Precision::F32.round(0.7), 0.7f32 as f64);
    }
}
