//! Sparse vector descriptors: create (with the `Const` twin), destroy, getters and the values'
//! setter.

use super::descr_dense::value_type;
use super::descr_sparse::{index_base, index_type};
use super::*;
use crate::descr::SpVec;
use std::os::raw::c_void;

#[allow(clippy::too_many_arguments)]
unsafe fn create_sp_vec(
    out: *mut oxsparseSpVecDescr_t,
    size: i64,
    nnz: i64,
    indices: *const c_void,
    values: *const c_void,
    it: oxsparseIndexType_t,
    base: oxsparseIndexBase_t,
    vt: cudaDataType,
) -> Result<()> {
    out_ptr(out, "spVecDescr")?;
    let inner = SpVec::new(size, nnz, indices as u64, values as u64, index_type(it, "idxType")?, index_base(base)?, value_type(vt)?)?;
    publish(out, Kind::SpVec, oxsparseSpVecDescr { inner })
}

/// Creates a sparse vector descriptor: `nnz` (index, value) pairs of a vector of length `size`.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateSpVec(
    spVecDescr: *mut oxsparseSpVecDescr_t,
    size: i64,
    nnz: i64,
    indices: *mut c_void,
    values: *mut c_void,
    idxType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateSpVec", || create_sp_vec(spVecDescr, size, nnz, indices, values, idxType, idxBase, valueType))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstSpVec(
    spVecDescr: *mut oxsparseConstSpVecDescr_t,
    size: i64,
    nnz: i64,
    indices: *const c_void,
    values: *const c_void,
    idxType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstSpVec", || {
        create_sp_vec(spVecDescr as *mut oxsparseSpVecDescr_t, size, nnz, indices, values, idxType, idxBase, valueType)
    })
}

/// Destroys a sparse vector descriptor (NULL is accepted and ignored).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroySpVec(spVecDescr: oxsparseConstSpVecDescr_t) -> oxsparseStatus_t {
    guard("oxsparseDestroySpVec", || destroy(spVecDescr, Kind::SpVec, "spVecDescr"))
}

#[allow(clippy::too_many_arguments)]
unsafe fn sp_vec_get(
    d: oxsparseConstSpVecDescr_t,
    size: *mut i64,
    nnz: *mut i64,
    indices: *mut *const c_void,
    values: *mut *const c_void,
    it: *mut oxsparseIndexType_t,
    base: *mut oxsparseIndexBase_t,
    vt: *mut cudaDataType,
) -> Result<()> {
    let v = &borrow(d, Kind::SpVec, "spVecDescr")?.inner;
    let (size, nnz, indices, values) =
        (out_ptr(size, "size")?, out_ptr(nnz, "nnz")?, out_ptr(indices, "indices")?, out_ptr(values, "values")?);
    let (it, base, vt) = (out_ptr(it, "idxType")?, out_ptr(base, "idxBase")?, out_ptr(vt, "valueType")?);
    (*size, *nnz) = (v.size, v.nnz);
    (*indices, *values) = (v.indices as *const c_void, v.values as *const c_void);
    (*it, *base, *vt) = (v.index_type as c_int, v.index_base as c_int, v.value_type as c_int);
    Ok(())
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpVecGet(
    spVecDescr: oxsparseSpVecDescr_t,
    size: *mut i64,
    nnz: *mut i64,
    indices: *mut *mut c_void,
    values: *mut *mut c_void,
    idxType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseSpVecGet", || sp_vec_get(spVecDescr, size, nnz, indices as _, values as _, idxType, idxBase, valueType))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstSpVecGet(
    spVecDescr: oxsparseConstSpVecDescr_t,
    size: *mut i64,
    nnz: *mut i64,
    indices: *mut *const c_void,
    values: *mut *const c_void,
    idxType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseConstSpVecGet", || sp_vec_get(spVecDescr, size, nnz, indices, values, idxType, idxBase, valueType))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpVecGetIndexBase(
    spVecDescr: oxsparseConstSpVecDescr_t,
    idxBase: *mut oxsparseIndexBase_t,
) -> oxsparseStatus_t {
    guard("oxsparseSpVecGetIndexBase", || {
        let v = &borrow(spVecDescr, Kind::SpVec, "spVecDescr")?.inner;
        *out_ptr(idxBase, "idxBase")? = v.index_base as c_int;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpVecGetValues(spVecDescr: oxsparseSpVecDescr_t, values: *mut *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseSpVecGetValues", || {
        let v = &borrow(spVecDescr, Kind::SpVec, "spVecDescr")?.inner;
        *out_ptr(values, "values")? = v.values as *mut c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstSpVecGetValues(
    spVecDescr: oxsparseConstSpVecDescr_t,
    values: *mut *const c_void,
) -> oxsparseStatus_t {
    guard("oxsparseConstSpVecGetValues", || {
        let v = &borrow(spVecDescr, Kind::SpVec, "spVecDescr")?.inner;
        *out_ptr(values, "values")? = v.values as *const c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpVecSetValues(spVecDescr: oxsparseSpVecDescr_t, values: *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseSpVecSetValues", || {
        let v = &mut borrow_mut(spVecDescr, Kind::SpVec, "spVecDescr")?.inner;
        if values.is_null() && v.nnz > 0 {
            return Err(Error::InvalidValue("values is NULL with nnz > 0".into()));
        }
        crate::descr::check_aligned("values", values as u64, v.value_type.size_bytes())?;
        v.values = values as u64;
        Ok(())
    })
}
