//! SparseToDense: `oxsparseSparseToDense_bufferSize` and `oxsparseSparseToDense`.

use super::*;
use crate::ops::sparse_to_dense as op;
use crate::types::SparseToDenseAlg;
use std::os::raw::c_void;

/// Workspace size in bytes for `oxsparseSparseToDense` with these arguments (always 0: none needed).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSparseToDense_bufferSize(
    handle: oxsparseHandle_t,
    matA: oxsparseConstSpMatDescr_t,
    matB: oxsparseDnMatDescr_t,
    alg: oxsparseSparseToDenseAlg_t,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseSparseToDense_bufferSize", || {
        borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::SpMat, "matA")?.inner;
        let b = &borrow(matB, Kind::DnMat, "matB")?.inner;
        let out = out_ptr(bufferSize, "bufferSize")?;
        let alg = decode(alg, "alg", SparseToDenseAlg::from_raw)?;
        *out = op::buffer_size(a, b, alg)?;
        Ok(())
    })
}

/// Converts the sparse matrix `matA` into the dense matrix `matB`: stored entries are copied, all
/// other entries of `matB` become zero. Asynchronous on the handle's stream; `externalBuffer` may be NULL.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSparseToDense(
    handle: oxsparseHandle_t,
    matA: oxsparseConstSpMatDescr_t,
    matB: oxsparseDnMatDescr_t,
    alg: oxsparseSparseToDenseAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSparseToDense", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::SpMat, "matA")?.inner;
        let b = &borrow(matB, Kind::DnMat, "matB")?.inner;
        let alg = decode(alg, "alg", SparseToDenseAlg::from_raw)?;
        op::sparse_to_dense(&h.inner, a, b, alg, externalBuffer as u64)
    })
}
