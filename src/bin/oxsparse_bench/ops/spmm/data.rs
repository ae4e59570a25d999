//! The host side of the SpMM operands: precisions, dense layouts, A's values and a random B in
//! each precision, ready to upload and to feed the float64 reference.

use crate::api::{ORDER_COL, ORDER_ROW, R_16F, R_32F, R_64F};
use crate::device::DevBuf;
use crate::matrix::{Csr, Rng};
use crate::{half, par, Result};
use std::borrow::Cow;
use std::ffi::{c_int, c_void};

/// Value precision of A, B and C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    F32,
    F64,
    /// Half-precision storage, FP32 compute (and FP32 alpha, beta).
    F16,
}

/// The relative error of a product of two values rounded to TF32 (2 x 2^-11), to first order.
pub const TF32_ROUNDING: f64 = 1.0 / 1024.0;

static ONE_F32: f32 = 1.0;
static ZERO_F32: f32 = 0.0;
static ONE_F64: f64 = 1.0;
static ZERO_F64: f64 = 0.0;

impl Precision {
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "FP32",
            Precision::F64 => "FP64",
            Precision::F16 => "FP16",
        }
    }

    pub fn value_type(self) -> c_int {
        match self {
            Precision::F32 => R_32F,
            Precision::F64 => R_64F,
            Precision::F16 => R_16F,
        }
    }

    pub fn compute_type(self) -> c_int {
        match self {
            Precision::F64 => R_64F,
            Precision::F32 | Precision::F16 => R_32F,
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            Precision::F32 => 4,
            Precision::F64 => 8,
            Precision::F16 => 2,
        }
    }

    /// Host pointers to alpha = 1 and beta = 0 in the compute type; they live for the process.
    pub fn alpha_beta(self) -> (*const c_void, *const c_void) {
        match self.compute_type() {
            R_64F => (&ONE_F64 as *const f64 as _, &ZERO_F64 as *const f64 as _),
            _ => (&ONE_F32 as *const f32 as _, &ZERO_F32 as *const f32 as _),
        }
    }

    /// The relative tolerance of the check, against sum_k |a_ik b_kj|: a hundred units of FP32 /
    /// FP64 rounding for the accumulation, and FP16's output rounding (2^-11) with room.
    pub fn tolerance(self) -> f64 {
        match self {
            Precision::F32 => 1e-5,
            Precision::F64 => 1e-12,
            Precision::F16 => 1e-2,
        }
    }

    /// The relative tolerance of a result that oxsparse may compute in its TF32 math mode
    /// (`--math-mode tf32`): FP32 inputs rounded to nearest with an 11-bit significand are each
    /// off by up to 2^-11, a product of two by up to 2^-10 (+ 2^-22), and FP32's own tolerance
    /// covers the accumulation. FP16 values are exact in TF32 and FP64 has no TF32 path, so only
    /// FP32 changes.
    pub fn tf32_tolerance(self) -> f64 {
        match self {
            Precision::F32 => TF32_ROUNDING + Precision::F32.tolerance(),
            p => p.tolerance(),
        }
    }

    /// The absolute slack added to it: the spacing of the output type near zero, so that a
    /// result whose terms cancel exactly may still round.
    pub fn tiny(self) -> f64 {
        match self {
            Precision::F32 => f32::MIN_POSITIVE as f64,
            Precision::F64 => f64::MIN_POSITIVE,
            // Two spacings: the output's rounding plus one more, as cuSPARSE's FP16 results show
            // near zero (bcsstk13: -2^-24 for 9.5e-9 on the H100), whatever its compute type says.
            Precision::F16 => 2.0 * half::MIN_SUBNORMAL,
        }
    }
}

/// How B and C are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Row,
    Col,
}

impl Layout {
    pub fn name(self) -> &'static str {
        match self {
            Layout::Row => "row-major",
            Layout::Col => "col-major",
        }
    }

    pub fn order(self) -> c_int {
        match self {
            Layout::Row => ORDER_ROW,
            Layout::Col => ORDER_COL,
        }
    }

    /// Where element (i, j) of a rows x cols matrix lies.
    pub fn index(self, i: usize, j: usize, rows: usize, cols: usize) -> usize {
        match self {
            Layout::Row => i * cols + j,
            Layout::Col => j * rows + i,
        }
    }

    /// The leading dimension of a rows x cols matrix (at least 1, as the APIs require).
    pub fn ld(self, rows: usize, cols: usize) -> usize {
        match self {
            Layout::Row => cols.max(1),
            Layout::Col => rows.max(1),
        }
    }
}

/// Binary16 bits; a type of its own so that nothing mistakes them for integers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(transparent)]
pub struct Half(pub u16);

/// A host value of some precision, read as a float64 by the reference and the check.
pub trait Scalar: Copy + Default + Send + Sync {
    fn to_f64(self) -> f64;
}

impl Scalar for f32 {
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Scalar for f64 {
    fn to_f64(self) -> f64 {
        self
    }
}

impl Scalar for Half {
    fn to_f64(self) -> f64 {
        half::to_f32(self.0) as f64
    }
}

/// Values in one precision (FP32 ones may be borrowed from the matrix).
pub enum Values<'a> {
    F32(Cow<'a, [f32]>),
    F64(Vec<f64>),
    F16(Vec<Half>),
}

impl Values<'_> {
    pub fn upload(&self) -> Result<DevBuf> {
        match self {
            Values::F32(v) => DevBuf::upload(v),
            Values::F64(v) => DevBuf::upload(v),
            Values::F16(v) => DevBuf::upload(v),
        }
    }
}

/// A's values in precision `p`, and a note when they had to be scaled: FP16 holds at most 65504,
/// so its values are multiplied by the power of two that brings the largest |a| into [0.5, 1)
/// (exact, short of underflow), which keeps every product and most sums in range.
pub fn matrix_values(a: &Csr, p: Precision) -> (Values<'_>, Option<String>) {
    match p {
        Precision::F32 => (Values::F32(Cow::Borrowed(&a.values)), None),
        Precision::F64 => (Values::F64(a.values.iter().map(|&v| v as f64).collect()), None),
        Precision::F16 => {
            let max = a.values.iter().filter(|v| v.is_finite()).fold(0f32, |m, v| m.max(v.abs()));
            let shift = if max > 0.0 { (max as f64).log2().floor() as i32 + 1 } else { 0 };
            let scale = 2f64.powi(-shift) as f32;
            let v = a.values.iter().map(|&x| Half(half::from_f32(x * scale))).collect();
            (Values::F16(v), (shift != 0).then(|| format!("A's values scaled by 2^{} to fit FP16", -shift)))
        }
    }
}

/// The dense k x n B in `layout` and precision `p`: element (i, j) is draw i * n + j of
/// `Rng::new(seed).value()` (uniform in [-1, 1)), whatever the layout, filled on every core.
pub fn dense_b(k: usize, n: usize, layout: Layout, p: Precision, seed: u64) -> Values<'static> {
    let at = move |idx: usize| {
        // The element stored at idx, then its place in the row-major draw order.
        let (i, j) = match layout {
            Layout::Row => (idx / n, idx % n),
            Layout::Col => (idx % k, idx / k),
        };
        Rng::at(seed, (i * n + j) as u64).value()
    };
    fn filled<T: Send + Default + Clone>(len: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
        let mut v = vec![T::default(); len];
        par::fill(&mut v, f);
        v
    }
    let len = k * n;
    match p {
        Precision::F32 => Values::F32(Cow::Owned(filled(len, at))),
        Precision::F64 => Values::F64(filled(len, |i| at(i) as f64)),
        Precision::F16 => Values::F16(filled(len, |i| Half(half::from_f32(at(i))))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b_is_the_same_matrix_in_both_layouts() {
        let (k, n) = (7, 5);
        let (Values::F32(row), Values::F32(col)) =
            (dense_b(k, n, Layout::Row, Precision::F32, 9), dense_b(k, n, Layout::Col, Precision::F32, 9))
        else {
            panic!("FP32 asked")
        };
        let mut rng = Rng::new(9);
        for i in 0..k {
            for j in 0..n {
                let want = rng.value();
                assert_eq!(row[Layout::Row.index(i, j, k, n)], want);
                assert_eq!(col[Layout::Col.index(i, j, k, n)], want);
            }
        }
        assert!(row.iter().all(|v| (-1.0..1.0).contains(v)));
    }

    #[test]
    fn fp16_values_are_scaled_into_range() {
        let a = Csr { rows: 1, cols: 3, row_ptr: vec![0, 3], col_idx: vec![0, 1, 2], values: vec![3.0e6, -1.5, 0.0] };
        let (Values::F16(v), note) = matrix_values(&a, Precision::F16) else { panic!("FP16 asked") };
        // 3e6 lies in [2^21, 2^22): scaled by 2^-22 into [0.5, 1).
        assert_eq!(note.as_deref(), Some("A's values scaled by 2^-22 to fit FP16"));
        assert!((v[0].to_f64() - 3.0e6 / 4194304.0).abs() < 1e-3);
        assert_eq!(v[2].to_f64(), 0.0);
        let small = Csr { values: vec![0.5, -0.25, 0.0], ..a };
        assert!(matrix_values(&small, Precision::F16).1.is_none(), "already in [0.5, 1): untouched");
    }

    #[test]
    fn layouts_index_and_lead() {
        assert_eq!(Layout::Row.index(2, 3, 4, 5), 13);
        assert_eq!(Layout::Col.index(2, 3, 4, 5), 14);
        assert_eq!((Layout::Row.ld(4, 5), Layout::Col.ld(4, 5), Layout::Col.ld(0, 5)), (5, 4, 1));
    }
}
