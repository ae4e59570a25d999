//! SpMM: `oxsparseSpMM_bufferSize`, `oxsparseSpMM_preprocess` and `oxsparseSpMM`,
//! C = alpha * op(A) * op(B) + beta * C with sparse A and dense B and C.

use super::*;
use crate::ops::spmm::{self as op, Call};
use crate::ops::ActiveBuffer;
use crate::types::{DataType, Operation, SpMMAlg};
use std::os::raw::c_void;

/// Decodes the arguments shared by the three calls, in the API's order.
#[allow(clippy::too_many_arguments)]
unsafe fn call<'a>(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseConstDnMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMMAlg_t,
) -> Result<(&'a oxsparseContext, &'a oxsparseSpMatDescr, Call<'a>)> {
    let live = live_objects();
    let h = live.borrow(handle, Kind::Handle, "handle")?;
    let a = live.borrow(matA, Kind::SpMat, "matA")?;
    let b = &live.borrow(matB, Kind::DnMat, "matB")?.inner;
    let c = &live.borrow(matC, Kind::DnMat, "matC")?.inner;
    drop(live);
    scalars_given(alpha, beta)?;
    let op_a = decode(opA, "opA", Operation::from_raw)?;
    let op_b = decode(opB, "opB", Operation::from_raw)?;
    let compute = decode(computeType, "computeType", DataType::from_raw)?;
    let alg = decode(alg, "alg", SpMMAlg::from_raw)?;
    Ok((
        h,
        a,
        Call {
            op_a,
            op_b,
            a: &a.inner,
            b,
            c,
            compute,
            alg,
            alpha,
            beta,
            math: h.inner.math_mode,
            reorder: h.inner.reorder_mode,
            a_serial: a.serial,
            device: &h.inner.device_model,
            settings: &h.inner.settings,
        },
    ))
}

/// Workspace size in bytes for `oxsparseSpMM_preprocess` and `oxsparseSpMM` with these arguments.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM_bufferSize(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseDnMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMMAlg_t,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseSpMM_bufferSize", || {
        let (h, _, call) = call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg)?;
        let out = out_ptr(bufferSize, "bufferSize")?;
        *out = op::buffer_size(&h.inner, &call)?;
        Ok(())
    })
}

/// Optional: builds the plan for these arguments into `externalBuffer` and makes it the active
/// buffer of `matA`. Later `oxsparseSpMM` calls with the same arguments (alpha, beta, the dense
/// values and A's values may change) and that buffer skip the planning. It waits for the GPU
/// where it measures A's rows (the longest row; the row offsets when it cuts long rows into pieces).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM_preprocess(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseDnMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMMAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSpMM_preprocess", || {
        let (h, a, call) = call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg)?;
        keep_preprocessed(a, ActiveBuffer::SpMM, |deactivate| op::preprocess(&h.inner, &call, externalBuffer as u64, deactivate))
    })
}

/// C = alpha * op(A) * op(B) + beta * C on the handle's stream. When beta is zero C is only
/// written. Deterministic: the same inputs give bitwise the same C run to run. A call after
/// preprocess may run another kernel than a plain one (preprocess measures the rows), so the two
/// may differ in rounding.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstSpMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseDnMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSpMMAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSpMM", || {
        let (h, a, call) = call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg)?;
        with_preprocessed(a, kept, |state| op::spmm(&h.inner, &call, externalBuffer as u64, state))
    })
}

/// The decision record SpMM's preprocess kept for `matA` (None: no SpMM preprocess is active on
/// it, or `matA` is not a live sparse matrix): for tests and tools, not part of the C API.
///
/// # Safety
/// `matA` is NULL or a value this library returned (anything else is refused).
pub unsafe fn preprocessed_decision(matA: oxsparseConstSpMatDescr_t) -> Option<op::Decision> {
    preprocessed(matA, |active| kept(active).map(|b| b.decision.clone()))
}

/// SpMM's state among what a preprocess may have left on a sparse matrix.
fn kept(active: &ActiveBuffer) -> Option<&op::ActiveBuffer> {
    match active {
        ActiveBuffer::SpMM(b) => Some(b),
        _ => None,
    }
}
