//! The native BitTCF object (oxsparse only; issue 4): `oxsparseCreateBitTcf` converts a sparse
//! matrix once into the tensor cores' tiles, optionally reordered by data affinity, and hands the
//! row order back; `oxsparseSpMM_bitTcf` multiplies with it; `oxsparseDestroyBitTcf` frees it.
//! The core is src/ops/spmm/bittcf.rs.

use super::*;
use crate::ops::spmm::bittcf::BitTcf;
use crate::types::{DataType, Operation, ReorderMode};
use std::os::raw::c_void;

/// Converts op(`matA`) (CSR, CSC or COO; FP32, FP16 or BF16) into BitTCF for SpMMs whose B and C
/// have the shapes, types and layouts of `matB` and `matC` (their values may change between calls,
/// as may A's: the object refers to A's arrays, which must outlive it). The work is that of
/// `oxsparseSpMM_preprocess`, into device memory the object owns; it waits for the GPU.
///
/// - `reorder`: `OXSPARSE_REORDER_DATA_AFFINITY` clusters op(A)'s rows (see
///   `oxsparseSetReorderMode`: kept only where it saves 5% or more of the B rows the tiles read);
///   `OXSPARSE_REORDER_NONE` keeps them as stored. The handle's own reorder mode is not used.
/// - `rowOrder` (host, op(A)'s row count of int64, or NULL): receives the order the tiles use,
///   `rowOrder[i]` = the row of op(A) at position i (0-based; the identity when not reordered).
///   C always comes out in the user's row order.
/// - FP32 computes in the handle's tensor-op math mode, TF32 if the handle is in the default mode.
///
/// NOT_SUPPORTED when the operands cannot run on tensor cores (other value types, batches, BSR,
/// Blocked-ELL, B or C rows that are not 16-byte vectors, 2^31 or more entries).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateBitTcf(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    matA: oxsparseConstSpMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    matC: oxsparseConstDnMatDescr_t,
    computeType: cudaDataType,
    reorder: oxsparseReorder_t,
    tcf: *mut oxsparseBitTcf_t,
    rowOrder: *mut i64,
) -> oxsparseStatus_t {
    guard("oxsparseCreateBitTcf", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::SpMat, "matA")?.inner;
        let b = &borrow(matB, Kind::DnMat, "matB")?.inner;
        let c = &borrow(matC, Kind::DnMat, "matC")?.inner;
        let op_a = decode(opA, "opA", Operation::from_raw)?;
        let op_b = decode(opB, "opB", Operation::from_raw)?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        let reorder = decode(reorder, "reorder", ReorderMode::from_raw)?;
        out_ptr(tcf, "tcf")?;
        let object = BitTcf::create(&h.inner, op_a, op_b, a, b, c, compute, reorder)?;
        if !rowOrder.is_null() {
            // SAFETY: the caller's array of op(A)'s row count (the API's contract).
            std::slice::from_raw_parts_mut(rowOrder, object.rows.len()).copy_from_slice(&object.rows);
        }
        publish(tcf, Kind::BitTcf, oxsparseBitTcf { inner: object })
    })
}

/// What the object holds: op(A)'s rows, columns and entries, whether the rows were reordered, and
/// whether its SpMMs run on tensor cores (1) or, for a matrix whose 8-row windows share too few
/// columns, on the CUDA-core tile kernel (0; -1 when created under stream capture, where the
/// build's choice is made on the GPU at each call). Any output pointer may be NULL.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseBitTcfGetInfo(
    tcf: oxsparseConstBitTcf_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    reordered: *mut c_int,
    tensorCores: *mut c_int,
) -> oxsparseStatus_t {
    guard("oxsparseBitTcfGetInfo", || {
        let t = &borrow(tcf, Kind::BitTcf, "tcf")?.inner;
        let (m, k, entries) = t.shape();
        for (p, v) in [(rows, m), (cols, k), (nnz, entries)] {
            if !p.is_null() {
                *p = v;
            }
        }
        if !reordered.is_null() {
            *reordered = t.reordered as c_int;
        }
        if !tensorCores.is_null() {
            *tensorCores = t.tensor_cores.map_or(-1, |on| on as c_int);
        }
        Ok(())
    })
}

/// C = alpha * op(A) * op(B) + beta * C over the object, on the handle's stream (asynchronous;
/// alpha and beta in the handle's pointer mode, of `computeType` as at creation). `matB` and `matC`
/// must have the shapes, types and layouts of creation (INVALID_VALUE otherwise).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM_bitTcf(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    tcf: oxsparseConstBitTcf_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseDnMatDescr_t,
) -> oxsparseStatus_t {
    guard("oxsparseSpMM_bitTcf", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let t = &borrow(tcf, Kind::BitTcf, "tcf")?.inner;
        let b = &borrow(matB, Kind::DnMat, "matB")?.inner;
        let c = &borrow(matC, Kind::DnMat, "matC")?.inner;
        scalars_given(alpha, beta)?;
        t.spmm(&h.inner, alpha, b, beta, c)
    })
}

/// Frees the object and its device memory (waiting for work that uses it). NULL is a no-op.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroyBitTcf(tcf: oxsparseConstBitTcf_t) -> oxsparseStatus_t {
    guard("oxsparseDestroyBitTcf", || destroy(tcf, Kind::BitTcf, "tcf"))
}
