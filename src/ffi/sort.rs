//! The legacy index sorts: `oxsparseXcsrsort`, `oxsparseXcscsort`, `oxsparseXcoosortByRow`,
//! `oxsparseXcoosortByColumn` and their `_bufferSizeExt` (cuSPARSE 12.6 arguments, 32-bit indices).

use super::mat_descr::index_base;
use super::*;
use crate::ops::sort::{self as op, Compressed, CooOrder};
use std::os::raw::{c_int, c_void};

/// Workspace bytes `oxsparseXcsrsort` needs for an m x n matrix with nnz entries.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcsrsort_bufferSizeExt(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    csrRowPtrA: *const c_int,
    csrColIndA: *const c_int,
    pBufferSizeInBytes: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseXcsrsort_bufferSizeExt", || {
        borrow(handle, Kind::Handle, "handle")?;
        let bytes = op::compressed_buffer_size(Compressed::Csr, m, n, nnz, csrRowPtrA as u64, csrColIndA as u64)?;
        *out_ptr(pBufferSizeInBytes, "pBufferSizeInBytes")? = bytes;
        Ok(())
    })
}

/// Sorts the column indices of every row in place (stably) and permutes `P` alike; the values
/// follow with Gather through `P`. Asynchronous on the handle's stream.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcsrsort(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    descrA: oxsparseMatDescr_t,
    csrRowPtrA: *const c_int,
    csrColIndA: *mut c_int,
    P: *mut c_int,
    pBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseXcsrsort", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let base = index_base(descrA, "descrA")?;
        op::compressed_sort(&h.inner, Compressed::Csr, m, n, nnz, base, csrRowPtrA as u64, csrColIndA as u64, P as u64, pBuffer as u64)
    })
}

/// Workspace bytes `oxsparseXcscsort` needs for an m x n matrix with nnz entries.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcscsort_bufferSizeExt(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    cscColPtrA: *const c_int,
    cscRowIndA: *const c_int,
    pBufferSizeInBytes: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseXcscsort_bufferSizeExt", || {
        borrow(handle, Kind::Handle, "handle")?;
        let bytes = op::compressed_buffer_size(Compressed::Csc, m, n, nnz, cscColPtrA as u64, cscRowIndA as u64)?;
        *out_ptr(pBufferSizeInBytes, "pBufferSizeInBytes")? = bytes;
        Ok(())
    })
}

/// Sorts the row indices of every column in place (stably) and permutes `P` alike.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcscsort(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    descrA: oxsparseMatDescr_t,
    cscColPtrA: *const c_int,
    cscRowIndA: *mut c_int,
    P: *mut c_int,
    pBuffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseXcscsort", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let base = index_base(descrA, "descrA")?;
        op::compressed_sort(&h.inner, Compressed::Csc, m, n, nnz, base, cscColPtrA as u64, cscRowIndA as u64, P as u64, pBuffer as u64)
    })
}

/// Workspace bytes `oxsparseXcoosortByRow` and `oxsparseXcoosortByColumn` need.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcoosort_bufferSizeExt(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    cooRowsA: *const c_int,
    cooColsA: *const c_int,
    pBufferSizeInBytes: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseXcoosort_bufferSizeExt", || {
        borrow(handle, Kind::Handle, "handle")?;
        let bytes = op::coo_buffer_size(m, n, nnz, cooRowsA as u64, cooColsA as u64)?;
        *out_ptr(pBufferSizeInBytes, "pBufferSizeInBytes")? = bytes;
        Ok(())
    })
}

unsafe fn coosort(
    func: &str,
    order: CooOrder,
    handle: oxsparseHandle_t,
    (m, n, nnz): (c_int, c_int, c_int),
    (rows, cols, perm): (*mut c_int, *mut c_int, *mut c_int),
    buffer: *mut c_void,
) -> oxsparseStatus_t {
    guard(func, || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        op::coo_sort(&h.inner, order, m, n, nnz, rows as u64, cols as u64, perm as u64, buffer as u64)
    })
}

/// Sorts the COO entries stably by (row, column), permuting both index arrays and `P` alike.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcoosortByRow(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    cooRowsA: *mut c_int,
    cooColsA: *mut c_int,
    P: *mut c_int,
    pBuffer: *mut c_void,
) -> oxsparseStatus_t {
    coosort("oxsparseXcoosortByRow", CooOrder::ByRow, handle, (m, n, nnz), (cooRowsA, cooColsA, P), pBuffer)
}

/// Sorts the COO entries stably by (column, row), permuting both index arrays and `P` alike.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcoosortByColumn(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    cooRowsA: *mut c_int,
    cooColsA: *mut c_int,
    P: *mut c_int,
    pBuffer: *mut c_void,
) -> oxsparseStatus_t {
    coosort("oxsparseXcoosortByColumn", CooOrder::ByColumn, handle, (m, n, nnz), (cooRowsA, cooColsA, P), pBuffer)
}
