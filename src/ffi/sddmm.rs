//! SDDMM: `oxsparseSDDMM_bufferSize`, `oxsparseSDDMM_preprocess` and `oxsparseSDDMM`,
//! C = alpha * (op(A) * op(B)) o spy(C) + beta * C with dense A and B and sparse C (CSR or BSR).

use super::*;
use crate::ops::sddmm::{self as op, Call};
use crate::ops::ActiveBuffer;
use crate::types::{DataType, Operation, SDDMMAlg};
use std::os::raw::c_void;

/// Decodes the arguments shared by the three calls, in the API's order.
#[allow(clippy::too_many_arguments)]
unsafe fn call<'a>(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseConstSpMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSDDMMAlg_t,
) -> Result<(&'a oxsparseContext, &'a oxsparseSpMatDescr, Call<'a>)> {
    let live = live_objects();
    let h = live.borrow(handle, Kind::Handle, "handle")?;
    let a = &live.borrow(matA, Kind::DnMat, "matA")?.inner;
    let b = &live.borrow(matB, Kind::DnMat, "matB")?.inner;
    let c = live.borrow(matC, Kind::SpMat, "matC")?;
    drop(live);
    scalars_given(alpha, beta)?;
    let op_a = decode(opA, "opA", Operation::from_raw)?;
    let op_b = decode(opB, "opB", Operation::from_raw)?;
    let compute = decode(computeType, "computeType", DataType::from_raw)?;
    let alg = decode(alg, "alg", SDDMMAlg::from_raw)?;
    let call = Call {
        op_a,
        op_b,
        a,
        b,
        c: &c.inner,
        compute,
        alg,
        alpha,
        beta,
        math: h.inner.math_mode,
        device: &h.inner.device_model,
        settings: &h.inner.settings,
    };
    Ok((h, c, call))
}

/// Workspace size in bytes for `oxsparseSDDMM_preprocess` and `oxsparseSDDMM` with these
/// arguments: 0 when op(A)'s rows and op(B)'s columns already lie contiguously in memory (A
/// row-major with opA = N or column-major with opA = T; B column-major with opB = N or row-major
/// with opB = T), otherwise room for a copy of the operand that does not.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSDDMM_bufferSize(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseSpMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSDDMMAlg_t,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseSDDMM_bufferSize", || {
        let (h, _, call) = call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg)?;
        let out = out_ptr(bufferSize, "bufferSize")?;
        *out = op::buffer_size(&h.inner, &call)?;
        Ok(())
    })
}

/// Optional: plans the call for these arguments and makes `externalBuffer` the active buffer of
/// `matC`. Later `oxsparseSDDMM` calls with the same arguments (alpha, beta, A's, B's and C's
/// values may change) and that buffer run the kept plan. Never waits for the GPU.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSDDMM_preprocess(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseSpMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSDDMMAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSDDMM_preprocess", || {
        let (h, c, call) = call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg)?;
        keep_preprocessed(c, ActiveBuffer::SDDMM, |deactivate| op::preprocess(&h.inner, &call, externalBuffer as u64, deactivate))
    })
}

/// C = alpha * (op(A) * op(B)) o spy(C) + beta * C on the handle's stream: only C's stored
/// entries are computed, its structure is unchanged. When beta is zero C is only written; when
/// op(A) has no columns (k = 0) or alpha is zero, C becomes beta * C. Deterministic: each entry is
/// one dot product summed in a fixed order, the same with or without preprocess.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSDDMM(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseSpMatDescr_t,
    computeType: cudaDataType,
    alg: oxsparseSDDMMAlg_t,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSDDMM", || {
        let (h, c, call) = call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg)?;
        with_preprocessed(c, kept, |state| op::sddmm(&h.inner, &call, externalBuffer as u64, state))
    })
}

/// The decision record SDDMM's preprocess kept for `matC` (None: no SDDMM preprocess is active on
/// it, or `matC` is not a live sparse matrix): for tests and tools, not part of the C API.
///
/// # Safety
/// `matC` is NULL or a value this library returned (anything else is refused).
pub unsafe fn preprocessed_decision(matC: oxsparseConstSpMatDescr_t) -> Option<op::Decision> {
    preprocessed(matC, |active| kept(active).map(|b| b.decision.clone()))
}

/// SDDMM's state among what a preprocess may have left on a sparse matrix.
fn kept(active: &ActiveBuffer) -> Option<&op::ActiveBuffer> {
    match active {
        ActiveBuffer::SDDMM(b) => Some(b),
        _ => None,
    }
}
