//! The C calls around SpMV: the argument block the three entry points share, its workspace, and
//! Y's comparison tolerance. The handle, scalars and statuses are `common::capi`'s.

use super::*;
pub use crate::common::capi::*;
use crate::common::compare::Tolerance;
use oxsparse::ffi::spmv::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType, DataType::*};
use std::ffi::c_void;

/// Y's tolerance (`compare::Tolerance`), relative to `reference::spmv::error_scale` (sum
/// |alpha||a_ij||x_j| + |beta||y_i|): 32 unit roundoffs of the compute type (the real error of any
/// summation order of random-signed terms stays near one roundoff of that); exact for int32.
pub fn tolerance(y_type: DataType, compute: DataType) -> Tolerance {
    let rel = match compute {
        CUDA_R_64F | CUDA_C_64F => 32.0 * f64::EPSILON,
        CUDA_R_32I => 0.0,
        _ => 32.0 * f32::EPSILON as f64,
    };
    Tolerance::new(rel, y_type)
}

/// The arguments the three calls share, as raw C values (status tests change them one by one).
#[derive(Clone, Copy)]
pub struct Args {
    pub op: i32,
    pub alpha: *const c_void,
    pub a: oxsparseConstSpMatDescr_t,
    pub x: oxsparseConstDnVecDescr_t,
    pub beta: *const c_void,
    pub y: oxsparseDnVecDescr_t,
    pub compute: i32,
    pub alg: i32,
}

impl Args {
    pub unsafe fn buffer_size(&self, h: &CHandle, out: *mut usize) -> i32 {
        oxsparseSpMV_bufferSize(h.0, self.op, self.alpha, self.a, self.x, self.beta, self.y, self.compute, self.alg, out)
    }
    pub unsafe fn preprocess(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSpMV_preprocess(h.0, self.op, self.alpha, self.a, self.x, self.beta, self.y, self.compute, self.alg, buffer)
    }
    pub unsafe fn spmv(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSpMV(h.0, self.op, self.alpha, self.a, self.x, self.beta, self.y, self.compute, self.alg, buffer)
    }
    /// bufferSize's answer, checked for plausibility.
    pub fn size(&self, h: &CHandle) -> Result<usize, String> {
        buffer_size("SpMV_bufferSize", |out| unsafe { self.buffer_size(h, out) })
    }
    /// A workspace of exactly the size bufferSize asks for, poisoned with 0xFF (none for 0).
    pub fn workspace(&self, h: &CHandle) -> Result<Option<DevBuf>, String> {
        Ok(workspace(self.size(h)?))
    }
}
