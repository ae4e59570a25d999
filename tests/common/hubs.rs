//! Hub rows: CSR matrices whose every 97th row (r % 97 == 5) is long among short ones, so many
//! rows cross the tile kernels' tiles. `Problem` is the preprocess-contract fixture (rows of 2-15
//! entries and hubs of 300-2000, dense operands of `w` columns, several sets of values for A with
//! a float64 check of each); `Problem::on_device` sets one SpMM or SpMV of it up through the C ABI.

use super::descr::{csr_f32, dn_mat_f32, dn_vec_f32, one_zero, F32};
use super::gen::{random_csr, CsrF32};
use super::{DevBuf, Rng};
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::spmm::*;
use oxsparse::ffi::spmv::*;
use oxsparse::ffi::*;
use std::ffi::c_void;

pub const SETS: usize = 3;
const OK: i32 = oxsparse::types::Status::OXSPARSE_STATUS_SUCCESS as i32;

/// Whether row `r` is a hub.
pub fn hub(r: usize) -> bool {
    r % 97 == 5
}

/// An `n x n` matrix of hub rows (2-15 entries, hubs 300-2000), `w` columns of B (1: SpMV),
/// `SETS` sets of values with their float64 products.
pub struct Problem {
    pub n: usize,
    pub w: usize,
    /// The pattern (its values empty: see `values`).
    pub a: CsrF32,
    pub values: Vec<Vec<f32>>,
    pub b: Vec<f32>,
}

impl Problem {
    pub fn new(n: usize, w: usize, seed: u64) -> Problem {
        let mut rng = Rng::new(seed);
        let a = random_csr(&mut rng, (n, n), |rng, r| if hub(r) { 300 + rng.below(1701) } else { 2 + rng.below(14) }, false);
        let values = (0..SETS).map(|_| (0..a.nnz()).map(|_| rng.value() as f32).collect()).collect();
        let b = (0..n * w).map(|_| rng.value() as f32).collect();
        Problem { n, w, a, values, b }
    }

    /// Wrong elements of `got` (C or y, row-major) for value set `s`.
    pub fn wrong(&self, s: usize, got: &[f32]) -> usize {
        let (sums, scales) = self.a.product(&self.values[s], &self.b, self.w);
        assert!(got.len() >= sums.len(), "{} elements for {} x {}", got.len(), self.n, self.w);
        // NaN (an element never written) is never close: it counts as wrong.
        let close = |g: f32, sum: f64, scale: f64| (g as f64 - sum).abs() <= 1e-5 * scale;
        got.iter().zip(sums.iter().zip(&scales)).filter(|&(&g, (&sum, &scale))| !close(g, sum, scale)).count()
    }

    /// A (value set 0), B and the output on the device with their descriptors, for one call on `h`.
    pub unsafe fn on_device(&self, h: oxsparseHandle_t) -> OnDevice {
        let a_arrays = [DevBuf::from_slice(&self.a.offsets), DevBuf::from_slice(&self.a.indices), DevBuf::from_slice(&self.values[0])];
        let (b, out) = (DevBuf::from_slice(&self.b), DevBuf::zeroed(self.n * self.w * 4));
        let (n, w) = (self.n as i64, self.w as i64);
        let a = csr_f32(n, n, self.a.nnz() as i64, &a_arrays);
        let dense = if self.w > 1 {
            Dense::Mat(dn_mat_f32(n, w, &b), dn_mat_f32(n, w, &out))
        } else {
            Dense::Vec(dn_vec_f32(n, &b), dn_vec_f32(n, &out))
        };
        let mut d = OnDevice { h, a_arrays, b, out, a, dense, size: 0 };
        let (al, be) = one_zero();
        let mut size = 0usize;
        let s = match d.dense {
            Dense::Mat(bd, cd) => oxsparseSpMM_bufferSize(h, 0, 0, al, a, bd, be, cd, F32, 0, &mut size),
            Dense::Vec(xd, yd) => oxsparseSpMV_bufferSize(h, 0, al, a, xd, be, yd, F32, 0, &mut size),
        };
        assert_eq!(s, OK, "bufferSize");
        d.size = size;
        d
    }
}

/// B and C (SpMM), or x and y (SpMV).
#[derive(Clone, Copy)]
pub enum Dense {
    Mat(oxsparseDnMatDescr_t, oxsparseDnMatDescr_t),
    Vec(oxsparseDnVecDescr_t, oxsparseDnVecDescr_t),
}

/// A hub problem on the device: A = a_arrays (offsets, columns, values), B (or x), the output
/// (C or y, row-major), their descriptors, and the workspace size bufferSize gave; alpha = 1 and
/// beta = 0 on the host, the default algorithm.
pub struct OnDevice {
    pub h: oxsparseHandle_t,
    pub a_arrays: [DevBuf; 3],
    pub b: DevBuf,
    pub out: DevBuf,
    pub a: oxsparseSpMatDescr_t,
    pub dense: Dense,
    pub size: usize,
}

impl OnDevice {
    /// SpMM or SpMV with workspace `ws`.
    pub unsafe fn call(&self, ws: *mut c_void) -> i32 {
        let (h, a, (al, be)) = (self.h, self.a, one_zero());
        match self.dense {
            Dense::Mat(bd, cd) => oxsparseSpMM(h, 0, 0, al, a, bd, be, cd, F32, 0, ws),
            Dense::Vec(xd, yd) => oxsparseSpMV(h, 0, al, a, xd, be, yd, F32, 0, ws),
        }
    }

    /// SpMM_preprocess or SpMV_preprocess with algorithm `alg` into `ws`.
    pub unsafe fn preprocess(&self, alg: i32, ws: *mut c_void) -> i32 {
        let (h, a, (al, be)) = (self.h, self.a, one_zero());
        match self.dense {
            Dense::Mat(bd, cd) => oxsparseSpMM_preprocess(h, 0, 0, al, a, bd, be, cd, F32, alg, ws),
            Dense::Vec(xd, yd) => oxsparseSpMV_preprocess(h, 0, al, a, xd, be, yd, F32, alg, ws),
        }
    }

    /// Destroys the descriptors (each must succeed); the buffers go when `self` does, the handle
    /// stays the caller's.
    pub unsafe fn destroy(&self) {
        match self.dense {
            Dense::Mat(bd, cd) => [bd, cd].into_iter().for_each(|d| assert_eq!(oxsparseDestroyDnMat(d), OK)),
            Dense::Vec(xd, yd) => [xd, yd].into_iter().for_each(|d| assert_eq!(oxsparseDestroyDnVec(d), OK)),
        }
        assert_eq!(oxsparseDestroySpMat(self.a), OK);
    }
}
