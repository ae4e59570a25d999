//! C-visible type names: opaque object types, their pointer typedefs, and the integer aliases
//! through which enums cross the boundary.
//!
//! Enum arguments are received as `c_int` (an out-of-range value must be representable, so it can
//! be refused); the header still shows the real enum type, because cbindgen writes the enums of
//! `crate::types` under these same names (`cbindgen.toml`, `[export.rename]`).
#![allow(non_camel_case_types)]

use crate::context::Handle;
use crate::descr::{DnMat, DnVec, MatDescr, SpMat, SpVec};
use crate::ops::ActiveBuffer;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::Mutex;

/// The library context behind `oxsparseHandle_t`.
pub struct oxsparseContext {
    pub(crate) inner: Handle,
}
/// Sparse vector descriptor.
pub struct oxsparseSpVecDescr {
    pub(crate) inner: SpVec,
}
/// Dense vector descriptor.
pub struct oxsparseDnVecDescr {
    pub(crate) inner: DnVec,
}
/// Sparse matrix descriptor (every format).
pub struct oxsparseSpMatDescr {
    pub(crate) inner: SpMat,
    /// The buffer a `*_preprocess` call made active for this matrix, and what it was planned for.
    /// Preprocess takes a const descriptor (as in cuSPARSE) yet records state, hence the lock.
    pub(crate) active: Mutex<Option<ActiveBuffer>>,
    /// This descriptor's number, unique in the process: what a plain SpMM call learns of the
    /// matrix is kept under it (src/ops/spmm/plain_choice.rs), never carried to another.
    pub(crate) serial: u64,
}
/// Dense matrix descriptor.
pub struct oxsparseDnMatDescr {
    pub(crate) inner: DnMat,
}
/// Legacy matrix descriptor: type, fill mode, diagonal type and index base of a matrix.
pub struct oxsparseMatDescr {
    pub(crate) inner: MatDescr,
}
/// A sparse matrix in BitTCF, the tensor cores' format (oxsparse only; `oxsparseCreateBitTcf`).
pub struct oxsparseBitTcf {
    pub(crate) inner: crate::ops::spmm::bittcf::BitTcf,
}

/// A sparse matrix in BRCV, the banded format (oxsparse only; `oxsparseCreateBrcv`).
pub struct oxsparseBrcv {
    pub(crate) inner: crate::ops::spmm::brcv::Brcv,
}

/// An int8 sparse matrix in SR-BCRS, vectors of 2, 4 or 8 rows for integer tensor cores (oxsparse
/// only; `oxsparseCreateSrBcrs`).
pub struct oxsparseSrBcrs {
    pub(crate) inner: crate::ops::srbcrs::SrBcrs,
}

pub type oxsparseHandle_t = *mut oxsparseContext;
pub type oxsparseSpVecDescr_t = *mut oxsparseSpVecDescr;
pub type oxsparseConstSpVecDescr_t = *const oxsparseSpVecDescr;
pub type oxsparseDnVecDescr_t = *mut oxsparseDnVecDescr;
pub type oxsparseConstDnVecDescr_t = *const oxsparseDnVecDescr;
pub type oxsparseSpMatDescr_t = *mut oxsparseSpMatDescr;
pub type oxsparseConstSpMatDescr_t = *const oxsparseSpMatDescr;
pub type oxsparseDnMatDescr_t = *mut oxsparseDnMatDescr;
pub type oxsparseConstDnMatDescr_t = *const oxsparseDnMatDescr;
pub type oxsparseMatDescr_t = *mut oxsparseMatDescr;
pub type oxsparseBitTcf_t = *mut oxsparseBitTcf;
pub type oxsparseConstBitTcf_t = *const oxsparseBitTcf;
pub type oxsparseBrcv_t = *mut oxsparseBrcv;
pub type oxsparseConstBrcv_t = *const oxsparseBrcv;
pub type oxsparseSrBcrs_t = *mut oxsparseSrBcrs;
pub type oxsparseConstSrBcrs_t = *const oxsparseSrBcrs;

/// What the logger calls with each message when set: its level (1 error, 2 trace, 3 hints, 4 info,
/// 5 API trace), the function it is about, and the message (both valid only during the call).
pub type oxsparseLoggerCallback_t = Option<unsafe extern "C" fn(logLevel: c_int, functionName: *const c_char, message: *const c_char)>;

/// cbindgen:no-export
pub type oxsparseStatus_t = c_int;
/// cbindgen:no-export
pub type oxsparsePointerMode_t = c_int;
/// cbindgen:no-export
pub type oxsparseMath_t = c_int;
/// cbindgen:no-export
pub type oxsparseReorder_t = c_int;
/// cbindgen:no-export
pub type oxsparseOperation_t = c_int;
/// cbindgen:no-export
pub type oxsparseDirection_t = c_int;
/// cbindgen:no-export
pub type oxsparseIndexBase_t = c_int;
/// cbindgen:no-export
pub type oxsparseMatrixType_t = c_int;
/// cbindgen:no-export
pub type oxsparseFillMode_t = c_int;
/// cbindgen:no-export
pub type oxsparseDiagType_t = c_int;
/// cbindgen:no-export
pub type oxsparseFormat_t = c_int;
/// cbindgen:no-export
pub type oxsparseOrder_t = c_int;
/// cbindgen:no-export
pub type oxsparseIndexType_t = c_int;
/// cbindgen:no-export
pub type oxsparseSpMatAttribute_t = c_int;
/// cbindgen:no-export
pub type oxsparseSpMVAlg_t = c_int;
/// cbindgen:no-export
pub type oxsparseSpMMAlg_t = c_int;
/// cbindgen:no-export
pub type oxsparseSDDMMAlg_t = c_int;
/// cbindgen:no-export
pub type oxsparseSparseToDenseAlg_t = c_int;
/// cbindgen:no-export
pub type oxsparseDenseToSparseAlg_t = c_int;
/// cbindgen:no-export
pub type oxsparseAction_t = c_int;
/// cbindgen:no-export
pub type oxsparseCsr2CscAlg_t = c_int;
/// CUDA's own type, from library_types.h.
/// cbindgen:no-export
pub type cudaDataType = c_int;
/// CUDA's own type, from library_types.h.
/// cbindgen:no-export
pub type libraryPropertyType = c_int;
/// CUDA's own type, from cuComplex.h: a single-precision complex number (real, imaginary).
/// cbindgen:no-export
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cuComplex {
    pub x: f32,
    pub y: f32,
}
/// CUDA's own type, from cuComplex.h: a double-precision complex number (real, imaginary).
/// cbindgen:no-export
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cuDoubleComplex {
    pub x: f64,
    pub y: f64,
}
/// CUDA's own type, from cuda_runtime_api.h; the same handle as a driver `CUstream`.
/// cbindgen:no-export
pub type cudaStream_t = *mut c_void;
