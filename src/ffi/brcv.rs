//! The native BRCV object (oxsparse only; issue 59): `oxsparseCreateBrcv` converts a CSR matrix
//! once, on the GPU, into its banded form (docs/design/brcv.md); `oxsparseSpMM_brcv` multiplies
//! with it; `oxsparseDestroyBrcv` frees it. The core is src/ops/spmm/brcv.rs.

use super::*;
use crate::ops::spmm::brcv::Brcv;
use crate::types::{DataType, Operation};
use std::os::raw::c_void;

/// Converts `matA` (CSR; one batch; offsets and indices both 32- or both 64-bit; any value type of
/// SpMM) into BRCV: per block of 64 rows, a band of diagonal offsets (column - row), at most 1024
/// wide, stored dense without column indices (zeros in its holes), and the entries outside it as
/// far entries (a CSR of their own). The build chooses each block's band on the GPU, weighing the
/// slots a band stores against 16 per far entry: a block whose entries fill less than 1/16 of any
/// band keeps them all far. The object holds copies of A's values (A's arrays may be freed after
/// the call; new values need a new object). It waits for the GPU: not under stream capture
/// (NOT_SUPPORTED).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateBrcv(
    handle: oxsparseHandle_t,
    matA: oxsparseConstSpMatDescr_t,
    brcv: *mut oxsparseBrcv_t,
) -> oxsparseStatus_t {
    guard("oxsparseCreateBrcv", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::SpMat, "matA")?.inner;
        out_ptr(brcv, "brcv")?;
        let object = Brcv::create(&h.inner, a)?;
        publish(brcv, Kind::Brcv, oxsparseBrcv { inner: object })
    })
}

/// What the object holds: A's rows, columns and entries; the band values it stores (64 per row
/// block and band offset, holes included); its far entries; the widest band of any row block (in
/// diagonal offsets: 2b + 1 for a band of half-width b). Any output pointer may be NULL.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseBrcvGetInfo(
    brcv: oxsparseConstBrcv_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    bandValues: *mut i64,
    farNnz: *mut i64,
    widestBand: *mut i64,
) -> oxsparseStatus_t {
    guard("oxsparseBrcvGetInfo", || {
        let b = &borrow(brcv, Kind::Brcv, "brcv")?.inner;
        let (m, k, entries) = b.shape();
        let t = b.totals;
        for (p, v) in
            [(rows, m), (cols, k), (nnz, entries), (bandValues, t.values as i64), (farNnz, t.far as i64), (widestBand, t.widest as i64)]
        {
            if !p.is_null() {
                *p = v;
            }
        }
        Ok(())
    })
}

/// C = alpha * A * op(B) + beta * C over the object, on the handle's stream (asynchronous; alpha
/// and beta of `computeType`, in the handle's pointer mode), with SpMM's value type combinations.
/// B and C in either order with any leading dimension; strided batches of C with B shared (one
/// batch) or batched alike. `opA` must be NON_TRANSPOSE (NOT_SUPPORTED otherwise). With beta == 0
/// C is not read. A hole of the band multiplies its B value by zero (an Inf or NaN of B there
/// reaches C, as with a stored zero).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM_brcv(
    handle: oxsparseHandle_t,
    opA: oxsparseOperation_t,
    opB: oxsparseOperation_t,
    alpha: *const c_void,
    brcv: oxsparseConstBrcv_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseDnMatDescr_t,
    computeType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseSpMM_brcv", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let op_a = decode(opA, "opA", Operation::from_raw)?;
        let op_b = decode(opB, "opB", Operation::from_raw)?;
        let a = &borrow(brcv, Kind::Brcv, "brcv")?.inner;
        let b = &borrow(matB, Kind::DnMat, "matB")?.inner;
        let c = &borrow(matC, Kind::DnMat, "matC")?.inner;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        scalars_given(alpha, beta)?;
        a.spmm(&h.inner, op_a, op_b, alpha, b, beta, c, compute)
    })
}

/// Frees the object and its device memory (waiting for work that uses it). NULL is a no-op.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroyBrcv(brcv: oxsparseConstBrcv_t) -> oxsparseStatus_t {
    guard("oxsparseDestroyBrcv", || destroy(brcv, Kind::Brcv, "brcv"))
}
