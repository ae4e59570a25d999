//! The legacy matrix descriptor: create, destroy, and a setter and getter for each of its four
//! fields (matrix type, fill mode, diagonal type, index base), as cuSPARSE's `cusparseMatDescr_t`.
//!
//! As in cuSPARSE the getters return the field itself, not a status. For a NULL, destroyed or
//! foreign descriptor they return the field's default (GENERAL, LOWER, NON_UNIT, ZERO: every one
//! 0) and log the refusal through the logger, so a caller's switch over the value stays defined.

use super::*;
use crate::descr::MatDescr;
use crate::types::{DiagType, FillMode, IndexBase, MatrixType};

/// The index base of the live descriptor `descr` (`what` names it in a refusal): what the
/// routines that take a legacy descriptor read of it.
pub(crate) unsafe fn index_base(descr: oxsparseMatDescr_t, what: &str) -> Result<IndexBase> {
    Ok(borrow(descr as *const oxsparseMatDescr, Kind::MatDescr, what)?.inner.index_base)
}

/// Creates a legacy matrix descriptor with cuSPARSE's defaults: `OXSPARSE_MATRIX_TYPE_GENERAL`,
/// `OXSPARSE_FILL_MODE_LOWER`, `OXSPARSE_DIAG_TYPE_NON_UNIT`, `OXSPARSE_INDEX_BASE_ZERO`.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateMatDescr(descrA: *mut oxsparseMatDescr_t) -> oxsparseStatus_t {
    guard("oxsparseCreateMatDescr", || publish(descrA, Kind::MatDescr, oxsparseMatDescr { inner: MatDescr::default() }))
}

/// Destroys a legacy matrix descriptor (NULL is accepted and ignored).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroyMatDescr(descrA: oxsparseMatDescr_t) -> oxsparseStatus_t {
    guard("oxsparseDestroyMatDescr", || destroy(descrA as *const oxsparseMatDescr, Kind::MatDescr, "descrA"))
}

/// Decodes `value` and stores it with `set` into the live descriptor `d` (descriptor checked first).
unsafe fn set_field<T>(
    func: &str,
    d: oxsparseMatDescr_t,
    value: c_int,
    what: &str,
    from_raw: fn(i32) -> Option<T>,
    set: fn(&mut MatDescr, T),
) -> oxsparseStatus_t {
    guard(func, || {
        let descr = borrow_mut(d, Kind::MatDescr, "descrA")?;
        let v = decode(value, what, from_raw)?;
        set(&mut descr.inner, v);
        Ok(())
    })
}

/// The field `get` reads of the live descriptor `d`; 0 (the field's default) for anything else.
unsafe fn get_field(func: &str, d: oxsparseMatDescr_t, get: fn(&MatDescr) -> c_int) -> c_int {
    let mut value = 0;
    guard(func, || {
        value = get(&borrow(d as *const oxsparseMatDescr, Kind::MatDescr, "descrA")?.inner);
        Ok(())
    });
    value
}

/// Sets the matrix type (`OXSPARSE_MATRIX_TYPE_*`); another value is INVALID_VALUE.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetMatType(descrA: oxsparseMatDescr_t, type_: oxsparseMatrixType_t) -> oxsparseStatus_t {
    set_field("oxsparseSetMatType", descrA, type_, "type", MatrixType::from_raw, |d, v| d.matrix_type = v)
}

/// The matrix type; `OXSPARSE_MATRIX_TYPE_GENERAL` (0) for a NULL, destroyed or foreign descriptor.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetMatType(descrA: oxsparseMatDescr_t) -> oxsparseMatrixType_t {
    get_field("oxsparseGetMatType", descrA, |d| d.matrix_type as c_int)
}

/// Sets the fill mode (`OXSPARSE_FILL_MODE_*`); another value is INVALID_VALUE.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetMatFillMode(descrA: oxsparseMatDescr_t, fillMode: oxsparseFillMode_t) -> oxsparseStatus_t {
    set_field("oxsparseSetMatFillMode", descrA, fillMode, "fillMode", FillMode::from_raw, |d, v| d.fill_mode = v)
}

/// The fill mode; `OXSPARSE_FILL_MODE_LOWER` (0) for a NULL, destroyed or foreign descriptor.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetMatFillMode(descrA: oxsparseMatDescr_t) -> oxsparseFillMode_t {
    get_field("oxsparseGetMatFillMode", descrA, |d| d.fill_mode as c_int)
}

/// Sets the diagonal type (`OXSPARSE_DIAG_TYPE_*`); another value is INVALID_VALUE.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetMatDiagType(descrA: oxsparseMatDescr_t, diagType: oxsparseDiagType_t) -> oxsparseStatus_t {
    set_field("oxsparseSetMatDiagType", descrA, diagType, "diagType", DiagType::from_raw, |d, v| d.diag_type = v)
}

/// The diagonal type; `OXSPARSE_DIAG_TYPE_NON_UNIT` (0) for a NULL, destroyed or foreign descriptor.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetMatDiagType(descrA: oxsparseMatDescr_t) -> oxsparseDiagType_t {
    get_field("oxsparseGetMatDiagType", descrA, |d| d.diag_type as c_int)
}

/// Sets the index base (`OXSPARSE_INDEX_BASE_*`); another value is INVALID_VALUE.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetMatIndexBase(descrA: oxsparseMatDescr_t, base: oxsparseIndexBase_t) -> oxsparseStatus_t {
    set_field("oxsparseSetMatIndexBase", descrA, base, "base", IndexBase::from_raw, |d, v| d.index_base = v)
}

/// The index base; `OXSPARSE_INDEX_BASE_ZERO` (0) for a NULL, destroyed or foreign descriptor.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetMatIndexBase(descrA: oxsparseMatDescr_t) -> oxsparseIndexBase_t {
    get_field("oxsparseGetMatIndexBase", descrA, |d| d.index_base as c_int)
}
