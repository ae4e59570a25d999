//! Csr2cscEx2: `oxsparseCsr2cscEx2_bufferSize` and `oxsparseCsr2cscEx2` (the legacy-style
//! conversion every caller of cuSPARSE's transpose uses).

use super::*;
use crate::ops::csr2csc::{self as op, Csr2cscArgs};
use std::os::raw::{c_int, c_void};

#[allow(clippy::too_many_arguments)]
fn args(
    (m, n, nnz): (c_int, c_int, c_int),
    (csr_val, csr_row_ptr, csr_col_ind): (*const c_void, *const c_int, *const c_int),
    (csc_val, csc_col_ptr, csc_row_ind): (*mut c_void, *mut c_int, *mut c_int),
    val_type: cudaDataType,
    copy_values: oxsparseAction_t,
    idx_base: oxsparseIndexBase_t,
    alg: oxsparseCsr2CscAlg_t,
) -> Csr2cscArgs {
    Csr2cscArgs {
        m: m as i64,
        n: n as i64,
        nnz: nnz as i64,
        csr_val: csr_val as u64,
        csr_row_ptr: csr_row_ptr as u64,
        csr_col_ind: csr_col_ind as u64,
        csc_val: csc_val as u64,
        csc_col_ptr: csc_col_ptr as u64,
        csc_row_ind: csc_row_ind as u64,
        val_type,
        copy_values,
        idx_base,
        alg,
    }
}

/// Workspace size in bytes for `oxsparseCsr2cscEx2` with these arguments: 4 bytes per stored
/// entry plus 4 per 2048 columns (0 when there is nothing to transpose).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCsr2cscEx2_bufferSize(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    csrVal: *const c_void,
    csrRowPtr: *const c_int,
    csrColInd: *const c_int,
    cscVal: *mut c_void,
    cscColPtr: *mut c_int,
    cscRowInd: *mut c_int,
    valType: cudaDataType,
    copyValues: oxsparseAction_t,
    idxBase: oxsparseIndexBase_t,
    alg: oxsparseCsr2CscAlg_t,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseCsr2cscEx2_bufferSize", || {
        borrow(handle, Kind::Handle, "handle")?;
        let a = args((m, n, nnz), (csrVal, csrRowPtr, csrColInd), (cscVal, cscColPtr, cscRowInd), valType, copyValues, idxBase, alg);
        let size = op::buffer_size(&a)?;
        *out_ptr(bufferSize, "bufferSize")? = size;
        Ok(())
    })
}

/// Converts the `m x n` CSR matrix (csrVal, csrRowPtr, csrColInd) into CSC (cscVal, cscColPtr,
/// cscRowInd), rows increasing within each column; `CUSPARSE_ACTION_SYMBOLIC` leaves cscVal
/// untouched. Asynchronous on the handle's stream; deterministic.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCsr2cscEx2(
    handle: oxsparseHandle_t,
    m: c_int,
    n: c_int,
    nnz: c_int,
    csrVal: *const c_void,
    csrRowPtr: *const c_int,
    csrColInd: *const c_int,
    cscVal: *mut c_void,
    cscColPtr: *mut c_int,
    cscRowInd: *mut c_int,
    valType: cudaDataType,
    copyValues: oxsparseAction_t,
    idxBase: oxsparseIndexBase_t,
    alg: oxsparseCsr2CscAlg_t,
    buffer: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseCsr2cscEx2", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let a = args((m, n, nnz), (csrVal, csrRowPtr, csrColInd), (cscVal, cscColPtr, cscRowInd), valType, copyValues, idxBase, alg);
        op::csr2csc(&h.inner, &a, buffer as u64)
    })
}
