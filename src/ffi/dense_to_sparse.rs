//! DenseToSparse: `oxsparseDenseToSparse_bufferSize`, `_analysis` and `_convert`.

use super::*;
use crate::ops::dense_to_sparse as op;
use crate::types::DenseToSparseAlg;
use std::os::raw::c_void;

/// Workspace size in bytes for `_analysis` and `_convert` with these arguments: the scan's chunk
/// sums, plus the row offsets for a COO target (0 for Blocked-ELL).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDenseToSparse_bufferSize(
    handle: oxsparseHandle_t,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseSpMatDescr_t,
    alg: oxsparseDenseToSparseAlg_t,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseDenseToSparse_bufferSize", || {
        borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::DnMat, "matA")?.inner;
        let b = &borrow(matB, Kind::SpMat, "matB")?.inner;
        let out = out_ptr(bufferSize, "bufferSize")?;
        let alg = decode(alg, "alg", DenseToSparseAlg::from_raw)?;
        *out = op::buffer_size(a, b, alg)?;
        Ok(())
    })
}

/// Counts the nonzeros of `matA` and writes `matB`'s offsets (CSR, CSC; COO keeps them in the
/// buffer), then sets `matB`'s nnz for `oxsparseSpMatGetSize`. Waits for the handle's stream to read
/// nnz back, as cuSPARSE's does; NOT_SUPPORTED while the stream is captured.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDenseToSparse_analysis(
    handle: oxsparseHandle_t,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseSpMatDescr_t,
    alg: oxsparseDenseToSparseAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseDenseToSparse_analysis", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::DnMat, "matA")?.inner;
        let b = &mut borrow_mut(matB, Kind::SpMat, "matB")?.inner;
        let alg = decode(alg, "alg", DenseToSparseAlg::from_raw)?;
        op::analysis(&h.inner, a, b, alg, externalBuffer as u64)
    })
}

/// Writes `matA`'s nonzeros into `matB` at the offsets `_analysis` wrote (Blocked-ELL: fills the
/// values of the user's structure). Asynchronous on the handle's stream.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDenseToSparse_convert(
    handle: oxsparseHandle_t,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseSpMatDescr_t,
    alg: oxsparseDenseToSparseAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseDenseToSparse_convert", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::DnMat, "matA")?.inner;
        let b = &borrow(matB, Kind::SpMat, "matB")?.inner;
        let alg = decode(alg, "alg", DenseToSparseAlg::from_raw)?;
        op::convert(&h.inner, a, b, alg, externalBuffer as u64)
    })
}
