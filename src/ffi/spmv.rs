//! SpMV: `oxsparseSpMV_bufferSize`, `oxsparseSpMV_preprocess` and `oxsparseSpMV`,
//! y = alpha * op(A) * x + beta * y with sparse A and dense vectors x and y.

use super::*;
use crate::ops::spmv::{self as op, Call};
use crate::ops::ActiveBuffer;
use crate::types::{DataType, Operation, SpMVAlg};
use std::os::raw::c_void;

/// Decodes the arguments shared by the three calls, in the API's order.
#[allow(clippy::too_many_arguments)]
unsafe fn call<'a>(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    vecX: oxsparseConstDnVecDescr_t,
    beta: *const c_void,
    vecY: oxsparseConstDnVecDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMVAlg_t,
) -> Result<(&'a oxsparseContext, &'a oxsparseSpMatDescr, Call<'a>)> {
    let live = live_objects();
    let h = live.borrow(handle, Kind::Handle, "handle")?;
    let a = live.borrow(matA, Kind::SpMat, "matA")?;
    let x = &live.borrow(vecX, Kind::DnVec, "vecX")?.inner;
    let y = &live.borrow(vecY, Kind::DnVec, "vecY")?.inner;
    drop(live);
    scalars_given(alpha, beta)?;
    let op_a = decode(opA, "opA", Operation::from_raw)?;
    let compute = decode(computeType, "computeType", DataType::from_raw)?;
    let alg = decode(alg, "alg", SpMVAlg::from_raw)?;
    Ok((h, a, Call { op_a, a: &a.inner, x, y, compute, alg, alpha, beta, settings: &h.inner.settings }))
}

/// Workspace size in bytes for `oxsparseSpMV_preprocess` and `oxsparseSpMV` with these arguments.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMV_bufferSize(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    vecX: oxsparseConstDnVecDescr_t,
    beta: *const c_void,
    vecY: oxsparseDnVecDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMVAlg_t,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseSpMV_bufferSize", || {
        let (h, _, call) = call(handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg)?;
        let out = out_ptr(bufferSize, "bufferSize")?;
        *out = op::buffer_size(&h.inner, &call)?;
        Ok(())
    })
}

/// Optional: measures the lengths of op(A)'s rows and keeps a schedule for these arguments (the
/// lists of long rows, or where each tile's rows start) in `externalBuffer`, and makes it the
/// active buffer of `matA`. Later `oxsparseSpMV` calls with the same arguments (alpha, beta, x, y
/// and A's values may change, A's sparsity pattern may not) and that buffer run that schedule.
/// For large matrices it may also keep a column order of A (power-law graphs) or A's column
/// indices as 16-bit offsets from their row (banded matrices), which those calls read instead of
/// A's indices. Waits for the handle's stream (it reads the row-length histogram back, and for
/// large matrices what decides those two), except under graph capture, where it keeps the plain
/// schedule.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMV_preprocess(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    vecX: oxsparseConstDnVecDescr_t,
    beta: *const c_void,
    vecY: oxsparseDnVecDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMVAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSpMV_preprocess", || {
        let (h, a, call) = call(handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg)?;
        keep_preprocessed(a, ActiveBuffer::SpMV, |deactivate| op::preprocess(&h.inner, &call, externalBuffer as u64, deactivate))
    })
}

/// y = alpha * op(A) * x + beta * y on the handle's stream. When beta is zero y is only written.
/// Deterministic: the same inputs give bitwise the same y run to run, for every algorithm and
/// opA; a call after preprocess may run another kernel than a plain call, so the two may differ in
/// rounding.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMV(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    vecX: oxsparseConstDnVecDescr_t,
    beta: *const c_void,
    vecY: oxsparseDnVecDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMVAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSpMV", || {
        let (h, a, call) = call(handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg)?;
        with_preprocessed(a, kept, |state| op::spmv(&h.inner, &call, externalBuffer as u64, state))
    })
}

/// The decision record SpMV's preprocess kept for `matA` (None: no SpMV preprocess is active on
/// it, or `matA` is not a live sparse matrix): for tests and tools, not part of the C API.
///
/// # Safety
/// `matA` is NULL or a value this library returned (anything else is refused).
pub unsafe fn preprocessed_decision(matA: oxsparseConstSpMatDescr_t) -> Option<crate::ops::spmv::Decision> {
    preprocessed(matA, |active| kept(active).map(|b| b.decision.clone()))
}

/// SpMV's state among what a preprocess may have left on a sparse matrix.
fn kept(active: &ActiveBuffer) -> Option<&op::ActiveBuffer> {
    match active {
        ActiveBuffer::SpMV(b) => Some(b),
        _ => None,
    }
}
