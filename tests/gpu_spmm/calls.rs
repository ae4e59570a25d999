//! The C calls around SpMM: the argument block the three entry points share, its workspace, and
//! C's comparison tolerance. The handle, scalars and statuses are `common::capi`'s.

use super::*;
pub use crate::common::capi::*;
use crate::common::compare::Tolerance;
use oxsparse::ffi::spmm::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType, DataType::*, MathMode};
use std::ffi::c_void;

/// Error bound of TF32 products, relative to sum |alpha||a||b| (2^-10, and some room).
pub const TF32_REL: f64 = 1.2e-3;

/// C's tolerance (`compare::Tolerance`): rel 1e-12 of the scale for FP64 compute, exact for
/// int32, 1e-5 otherwise. TF32 products (FP32 A and B in the TF32 math mode) round each input to
/// 11 significant bits, so a product is off by up to 2^-10 of |a||b|: `TF32_REL`. The accurate
/// mode keeps FP32's bound.
pub fn tolerance(c_type: DataType, compute: DataType, math: MathMode, types: (DataType, DataType, DataType)) -> Tolerance {
    let rel = match compute {
        CUDA_R_64F | CUDA_C_64F => 1e-12,
        CUDA_R_32I => 0.0,
        _ => 1e-5,
    };
    let tf32 = math == MathMode::OXSPARSE_TF32_TENSOR_OP_MATH && types == (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F);
    Tolerance::new(if tf32 { TF32_REL } else { rel }, c_type)
}

/// The arguments the three calls share, as raw C values (status tests change them one by one).
#[derive(Clone, Copy)]
pub struct Args {
    pub op_a: i32,
    pub op_b: i32,
    pub alpha: *const c_void,
    pub a: oxsparseConstSpMatDescr_t,
    pub b: oxsparseConstDnMatDescr_t,
    pub beta: *const c_void,
    pub c: oxsparseDnMatDescr_t,
    pub compute: i32,
    pub alg: i32,
}

impl Args {
    pub unsafe fn buffer_size(&self, h: &CHandle, out: *mut usize) -> i32 {
        oxsparseSpMM_bufferSize(h.0, self.op_a, self.op_b, self.alpha, self.a, self.b, self.beta, self.c, self.compute, self.alg, out)
    }
    pub unsafe fn preprocess(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSpMM_preprocess(h.0, self.op_a, self.op_b, self.alpha, self.a, self.b, self.beta, self.c, self.compute, self.alg, buffer)
    }
    pub unsafe fn spmm(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSpMM(h.0, self.op_a, self.op_b, self.alpha, self.a, self.b, self.beta, self.c, self.compute, self.alg, buffer)
    }
    /// A workspace of the size bufferSize asks for, poisoned with 0xFF (none when it asks for 0).
    pub fn workspace(&self, h: &CHandle) -> Result<Option<DevBuf>, String> {
        Ok(workspace(buffer_size("SpMM_bufferSize", |out| unsafe { self.buffer_size(h, out) })?))
    }
}
