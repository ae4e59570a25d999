//! The legacy matrix descriptor (`cusparseMatDescr_t`), as far as the index sorts need it: create,
//! destroy, set the index base, and the accessor the sorts read the base through.
//!
//! Minimal on purpose (branch i57-sorts): the full family (type, fill mode, diagonal type, their
//! getters) lands with issue 57's MatDescr work, which replaces this file; the sorts only use
//! [`index_base`].
#![allow(non_camel_case_types)]

use super::*;
use crate::types::IndexBase;

/// The legacy matrix descriptor: cuSPARSE's defaults are a general matrix of base 0.
pub struct oxsparseMatDescr {
    pub(crate) index_base: IndexBase,
}

pub type oxsparseMatDescr_t = *mut oxsparseMatDescr;

/// The index base of a live descriptor (NULL: INVALID_VALUE; never issued or destroyed:
/// NOT_INITIALIZED).
///
/// # Safety
/// `descr` is NULL or a value this library returned (anything else is refused).
pub(crate) unsafe fn index_base(descr: oxsparseMatDescr_t, what: &str) -> Result<IndexBase> {
    Ok(borrow(descr, Kind::MatDescr, what)?.index_base)
}

/// Creates a descriptor with cuSPARSE's defaults (general, base 0).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateMatDescr(descrA: *mut oxsparseMatDescr_t) -> oxsparseStatus_t {
    guard("oxsparseCreateMatDescr", || {
        publish(descrA, Kind::MatDescr, oxsparseMatDescr { index_base: IndexBase::OXSPARSE_INDEX_BASE_ZERO })
    })
}

/// Destroys a descriptor (NULL is accepted and ignored).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroyMatDescr(descrA: oxsparseMatDescr_t) -> oxsparseStatus_t {
    guard("oxsparseDestroyMatDescr", || destroy(descrA as *const oxsparseMatDescr, Kind::MatDescr, "descrA"))
}

/// Sets the index base (`OXSPARSE_INDEX_BASE_ZERO` or `_ONE`).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetMatIndexBase(descrA: oxsparseMatDescr_t, base: oxsparseIndexBase_t) -> oxsparseStatus_t {
    guard("oxsparseSetMatIndexBase", || {
        let d = borrow_mut(descrA, Kind::MatDescr, "descrA")?;
        d.index_base = decode(base, "base", IndexBase::from_raw)?;
        Ok(())
    })
}
