//! Dense vector and dense matrix descriptors: create, destroy, getters, setters, strided batch.
//!
//! The `Const` variants take and return `const` pointers but are the same objects: a descriptor made
//! by `oxsparseCreateConstDnMat` is destroyed by `oxsparseDestroyDnMat`, as in cuSPARSE.

use super::*;
use crate::descr::{DnMat, DnVec};
use crate::types::{DataType, Order};
use std::os::raw::c_void;

pub(crate) fn value_type(v: cudaDataType) -> Result<DataType> {
    decode(v, "valueType", DataType::from_raw)
}

// ---- dense vector ----------------------------------------------------------------------------

unsafe fn create_dn_vec(out: *mut oxsparseDnVecDescr_t, size: i64, values: *const c_void, vt: cudaDataType) -> Result<()> {
    out_ptr(out, "dnVecDescr")?;
    if values.is_null() && size > 0 {
        return Err(Error::InvalidValue("values is NULL with size > 0".into()));
    }
    let inner = DnVec::new(size, values as u64, value_type(vt)?)?;
    publish(out, Kind::DnVec, oxsparseDnVecDescr { inner })
}

/// Creates a dense vector descriptor of `size` contiguous elements.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateDnVec(
    dnVecDescr: *mut oxsparseDnVecDescr_t,
    size: i64,
    values: *mut c_void,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateDnVec", || create_dn_vec(dnVecDescr, size, values, valueType))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstDnVec(
    dnVecDescr: *mut oxsparseConstDnVecDescr_t,
    size: i64,
    values: *const c_void,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstDnVec", || create_dn_vec(dnVecDescr as *mut oxsparseDnVecDescr_t, size, values, valueType))
}

/// Destroys a dense vector descriptor (NULL is accepted and ignored).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroyDnVec(dnVecDescr: oxsparseConstDnVecDescr_t) -> oxsparseStatus_t {
    guard("oxsparseDestroyDnVec", || destroy(dnVecDescr, Kind::DnVec, "dnVecDescr"))
}

unsafe fn dn_vec_get(d: oxsparseConstDnVecDescr_t, size: *mut i64, values: *mut *const c_void, vt: *mut cudaDataType) -> Result<()> {
    let v = &borrow(d, Kind::DnVec, "dnVecDescr")?.inner;
    let (size, values, vt) = (out_ptr(size, "size")?, out_ptr(values, "values")?, out_ptr(vt, "valueType")?);
    *size = v.size;
    *values = v.values as *const c_void;
    *vt = v.value_type as c_int;
    Ok(())
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnVecGet(
    dnVecDescr: oxsparseDnVecDescr_t,
    size: *mut i64,
    values: *mut *mut c_void,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseDnVecGet", || dn_vec_get(dnVecDescr, size, values as *mut *const c_void, valueType))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstDnVecGet(
    dnVecDescr: oxsparseConstDnVecDescr_t,
    size: *mut i64,
    values: *mut *const c_void,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseConstDnVecGet", || dn_vec_get(dnVecDescr, size, values, valueType))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnVecGetValues(dnVecDescr: oxsparseDnVecDescr_t, values: *mut *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseDnVecGetValues", || {
        let v = &borrow(dnVecDescr, Kind::DnVec, "dnVecDescr")?.inner;
        *out_ptr(values, "values")? = v.values as *mut c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstDnVecGetValues(
    dnVecDescr: oxsparseConstDnVecDescr_t,
    values: *mut *const c_void,
) -> oxsparseStatus_t {
    guard("oxsparseConstDnVecGetValues", || {
        let v = &borrow(dnVecDescr, Kind::DnVec, "dnVecDescr")?.inner;
        *out_ptr(values, "values")? = v.values as *const c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnVecSetValues(dnVecDescr: oxsparseDnVecDescr_t, values: *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseDnVecSetValues", || {
        let v = &mut borrow_mut(dnVecDescr, Kind::DnVec, "dnVecDescr")?.inner;
        if values.is_null() && v.size > 0 {
            return Err(Error::InvalidValue("values is NULL with size > 0".into()));
        }
        v.set_values(values as u64)
    })
}

// ---- dense matrix ----------------------------------------------------------------------------

unsafe fn create_dn_mat(
    out: *mut oxsparseDnMatDescr_t,
    rows: i64,
    cols: i64,
    ld: i64,
    values: *const c_void,
    vt: cudaDataType,
    order: oxsparseOrder_t,
) -> Result<()> {
    out_ptr(out, "dnMatDescr")?;
    if values.is_null() && rows > 0 && cols > 0 {
        return Err(Error::InvalidValue("values is NULL for a non-empty matrix".into()));
    }
    let order = decode(order, "order", Order::from_raw)?;
    let inner = DnMat::new(rows, cols, ld, values as u64, value_type(vt)?, order)?;
    publish(out, Kind::DnMat, oxsparseDnMatDescr { inner })
}

/// Creates a dense matrix descriptor (`ld >= rows` for column-major, `ld >= cols` for row-major).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateDnMat(
    dnMatDescr: *mut oxsparseDnMatDescr_t,
    rows: i64,
    cols: i64,
    ld: i64,
    values: *mut c_void,
    valueType: cudaDataType,
    order: oxsparseOrder_t,
) -> oxsparseStatus_t {
    guard("oxsparseCreateDnMat", || create_dn_mat(dnMatDescr, rows, cols, ld, values, valueType, order))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstDnMat(
    dnMatDescr: *mut oxsparseConstDnMatDescr_t,
    rows: i64,
    cols: i64,
    ld: i64,
    values: *const c_void,
    valueType: cudaDataType,
    order: oxsparseOrder_t,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstDnMat", || create_dn_mat(dnMatDescr as *mut oxsparseDnMatDescr_t, rows, cols, ld, values, valueType, order))
}

/// Destroys a dense matrix descriptor (NULL is accepted and ignored).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroyDnMat(dnMatDescr: oxsparseConstDnMatDescr_t) -> oxsparseStatus_t {
    guard("oxsparseDestroyDnMat", || destroy(dnMatDescr, Kind::DnMat, "dnMatDescr"))
}

#[allow(clippy::too_many_arguments)]
unsafe fn dn_mat_get(
    d: oxsparseConstDnMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    ld: *mut i64,
    values: *mut *const c_void,
    vt: *mut cudaDataType,
    order: *mut oxsparseOrder_t,
) -> Result<()> {
    let m = &borrow(d, Kind::DnMat, "dnMatDescr")?.inner;
    let outs = (out_ptr(rows, "rows")?, out_ptr(cols, "cols")?, out_ptr(ld, "ld")?);
    let (values, vt, order) = (out_ptr(values, "values")?, out_ptr(vt, "type")?, out_ptr(order, "order")?);
    (*outs.0, *outs.1, *outs.2) = (m.rows, m.cols, m.ld);
    *values = m.values as *const c_void;
    *vt = m.value_type as c_int;
    *order = m.order as c_int;
    Ok(())
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnMatGet(
    dnMatDescr: oxsparseDnMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    ld: *mut i64,
    values: *mut *mut c_void,
    type_: *mut cudaDataType,
    order: *mut oxsparseOrder_t,
) -> oxsparseStatus_t {
    guard("oxsparseDnMatGet", || dn_mat_get(dnMatDescr, rows, cols, ld, values as *mut *const c_void, type_, order))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstDnMatGet(
    dnMatDescr: oxsparseConstDnMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    ld: *mut i64,
    values: *mut *const c_void,
    type_: *mut cudaDataType,
    order: *mut oxsparseOrder_t,
) -> oxsparseStatus_t {
    guard("oxsparseConstDnMatGet", || dn_mat_get(dnMatDescr, rows, cols, ld, values, type_, order))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnMatGetValues(dnMatDescr: oxsparseDnMatDescr_t, values: *mut *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseDnMatGetValues", || {
        let m = &borrow(dnMatDescr, Kind::DnMat, "dnMatDescr")?.inner;
        *out_ptr(values, "values")? = m.values as *mut c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstDnMatGetValues(
    dnMatDescr: oxsparseConstDnMatDescr_t,
    values: *mut *const c_void,
) -> oxsparseStatus_t {
    guard("oxsparseConstDnMatGetValues", || {
        let m = &borrow(dnMatDescr, Kind::DnMat, "dnMatDescr")?.inner;
        *out_ptr(values, "values")? = m.values as *const c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnMatSetValues(dnMatDescr: oxsparseDnMatDescr_t, values: *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseDnMatSetValues", || {
        let m = &mut borrow_mut(dnMatDescr, Kind::DnMat, "dnMatDescr")?.inner;
        if values.is_null() && m.rows > 0 && m.cols > 0 {
            return Err(Error::InvalidValue("values is NULL for a non-empty matrix".into()));
        }
        m.set_values(values as u64)
    })
}

/// Makes the descriptor a batch of `batchCount` matrices `batchStride` elements apart.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnMatSetStridedBatch(
    dnMatDescr: oxsparseDnMatDescr_t,
    batchCount: c_int,
    batchStride: i64,
) -> oxsparseStatus_t {
    guard("oxsparseDnMatSetStridedBatch", || {
        borrow_mut(dnMatDescr, Kind::DnMat, "dnMatDescr")?.inner.set_strided_batch(batchCount, batchStride)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDnMatGetStridedBatch(
    dnMatDescr: oxsparseConstDnMatDescr_t,
    batchCount: *mut c_int,
    batchStride: *mut i64,
) -> oxsparseStatus_t {
    guard("oxsparseDnMatGetStridedBatch", || {
        let m = &borrow(dnMatDescr, Kind::DnMat, "dnMatDescr")?.inner;
        let (count, stride) = (out_ptr(batchCount, "batchCount")?, out_ptr(batchStride, "batchStride")?);
        *count = m.batch_count;
        *stride = m.batch_stride;
        Ok(())
    })
}
