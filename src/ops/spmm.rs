//! SpMM: C = alpha * op(A) * op(B) + beta * C. (Skeleton; filled in below this commit.)

use crate::context::Handle;
use crate::descr::{DnMat, SpMat};
use crate::error::{unsupported, Result};
use crate::types::{DataType, Operation, SpMMAlg};
use std::ffi::c_void;

/// The arguments of one SpMM call, decoded.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    pub op_a: Operation,
    pub op_b: Operation,
    pub a: &'a SpMat,
    pub b: &'a DnMat,
    pub c: &'a DnMat,
    pub compute: DataType,
    pub alg: SpMMAlg,
    pub alpha: *const c_void,
    pub beta: *const c_void,
}

/// What `preprocess` left in the user's buffer, and for which arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveBuffer {
    pub buffer: u64,
    pub signature: String,
}

pub fn buffer_size(_h: &Handle, _call: &Call) -> Result<usize> {
    unsupported!("SpMM is not implemented yet")
}

pub fn preprocess(_h: &Handle, _call: &Call, _buffer: u64) -> Result<Option<ActiveBuffer>> {
    unsupported!("SpMM is not implemented yet")
}

pub fn spmm(_h: &Handle, _call: &Call, _buffer: u64, _active: Option<&ActiveBuffer>) -> Result<()> {
    unsupported!("SpMM is not implemented yet")
}
