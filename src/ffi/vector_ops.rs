//! Sparse-vector routines: Axpby, Gather, Scatter, Rot, SpVV_bufferSize, SpVV.

use super::*;
use crate::ops::vector_ops as ops;
use crate::types::{DataType, Operation};
use std::os::raw::c_void;

/// Y = alpha * X + beta * Y for the sparse vector X and the dense vector Y: every entry of Y is
/// scaled by beta, the entries X indexes also get alpha * X. alpha and beta are of the compute type
/// (float for 16-bit real data, cuComplex for 16-bit complex data).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseAxpby(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    vecX: oxsparseConstSpVecDescr_t,
    beta: *const c_void,
    vecY: oxsparseDnVecDescr_t,
) -> oxsparseStatus_t {
    guard("oxsparseAxpby", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let x = &borrow(vecX, Kind::SpVec, "vecX")?.inner;
        let y = &borrow(vecY, Kind::DnVec, "vecY")?.inner;
        ops::axpby(&h.inner, alpha, x, beta, y)
    })
}

/// Gathers the entries of the dense vector Y that the sparse vector X indexes into X's values.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGather(
    handle: oxsparseHandle_t,
    vecY: oxsparseConstDnVecDescr_t,
    vecX: oxsparseSpVecDescr_t,
) -> oxsparseStatus_t {
    guard("oxsparseGather", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let y = &borrow(vecY, Kind::DnVec, "vecY")?.inner;
        let x = &borrow(vecX, Kind::SpVec, "vecX")?.inner;
        ops::gather(&h.inner, y, x)
    })
}

/// Scatters the values of the sparse vector X into the dense vector Y; other entries of Y keep their values.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseScatter(
    handle: oxsparseHandle_t,
    vecX: oxsparseConstSpVecDescr_t,
    vecY: oxsparseDnVecDescr_t,
) -> oxsparseStatus_t {
    guard("oxsparseScatter", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let x = &borrow(vecX, Kind::SpVec, "vecX")?.inner;
        let y = &borrow(vecY, Kind::DnVec, "vecY")?.inner;
        ops::scatter(&h.inner, x, y)
    })
}

/// Applies the Givens rotation (c, s) to each stored x of X and the entry y of Y it indexes:
/// x = c * x + s * y, y = c * y - s * x (both from the old values).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseRot(
    handle: oxsparseHandle_t,
    c_coeff: *const c_void,
    s_coeff: *const c_void,
    vecX: oxsparseSpVecDescr_t,
    vecY: oxsparseDnVecDescr_t,
) -> oxsparseStatus_t {
    guard("oxsparseRot", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let x = &borrow(vecX, Kind::SpVec, "vecX")?.inner;
        let y = &borrow(vecY, Kind::DnVec, "vecY")?.inner;
        ops::rot(&h.inner, c_coeff, s_coeff, x, y)
    })
}

/// Workspace size in bytes for `oxsparseSpVV` with these arguments (0 when X stores nothing).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpVV_bufferSize(
    handle: oxsparseHandle_t,
    opX: oxsparseOperation_t,
    vecX: oxsparseConstSpVecDescr_t,
    vecY: oxsparseConstDnVecDescr_t,
    result: *const c_void,
    computeType: cudaDataType,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseSpVV_bufferSize", || {
        borrow(handle, Kind::Handle, "handle")?;
        let x = &borrow(vecX, Kind::SpVec, "vecX")?.inner;
        let y = &borrow(vecY, Kind::DnVec, "vecY")?.inner;
        ops::check_operands(x, y, &[("result", result)])?;
        let out = out_ptr(bufferSize, "bufferSize")?;
        let op = decode(opX, "opX", Operation::from_raw)?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        *out = ops::spvv_buffer_size(op, x, y, result, compute)?;
        Ok(())
    })
}

/// result = sum of op(X)[i] * Y[index of i], op conjugating X for CONJUGATE_TRANSPOSE. The result
/// is of computeType; in host pointer mode the call waits until it is written, in device pointer
/// mode it is written in stream order. Deterministic.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpVV(
    handle: oxsparseHandle_t,
    opX: oxsparseOperation_t,
    vecX: oxsparseConstSpVecDescr_t,
    vecY: oxsparseConstDnVecDescr_t,
    result: *mut c_void,
    computeType: cudaDataType,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSpVV", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let x = &borrow(vecX, Kind::SpVec, "vecX")?.inner;
        let y = &borrow(vecY, Kind::DnVec, "vecY")?.inner;
        ops::check_operands(x, y, &[("result", result as *const c_void)])?;
        let op = decode(opX, "opX", Operation::from_raw)?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        ops::spvv(&h.inner, op, x, y, result, compute, externalBuffer as u64)
    })
}
