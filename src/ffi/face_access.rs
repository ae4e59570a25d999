//! What the cuSPARSE face (dropin/) reads and writes of descriptors to keep the real cuSPARSE's
//! shadow descriptors in step with ours when it forwards a generic function
//! (docs/design/dropin.md): copies of the descriptors, and the one field a forwarded call writes
//! back (the entry count SpGEMM's compute sets on C). Rust only, not part of the C API.

use super::*;
use crate::descr::{DnMat, DnVec, FormatInfo, SpMat};

/// A copy of the sparse matrix descriptor named `p` (None: not a live one).
///
/// # Safety
/// `p` is 0 or a value this library returned (anything else is refused).
pub unsafe fn sp_mat(p: usize) -> Option<SpMat> {
    borrow(p as *const oxsparseSpMatDescr, Kind::SpMat, "spMatDescr").ok().map(|d| d.inner.clone())
}

/// A copy of the dense matrix descriptor named `p` (None: not a live one).
///
/// # Safety
/// As [`sp_mat`].
pub unsafe fn dn_mat(p: usize) -> Option<DnMat> {
    borrow(p as *const oxsparseDnMatDescr, Kind::DnMat, "dnMatDescr").ok().map(|d| d.inner.clone())
}

/// A copy of the dense vector descriptor named `p` (None: not a live one).
///
/// # Safety
/// As [`sp_mat`].
pub unsafe fn dn_vec(p: usize) -> Option<DnVec> {
    borrow(p as *const oxsparseDnVecDescr, Kind::DnVec, "dnVecDescr").ok().map(|d| d.inner.clone())
}

/// Sets the entry count of the CSR, CSC or COO descriptor `p`, as cuSPARSE's `SpGEMM_compute`
/// sets C's (the arrays stay; the caller gives new ones with `CsrSetPointers`), and drops what a
/// preprocess kept for it. False when `p` is none of those or `nnz` is negative.
///
/// # Safety
/// As [`sp_mat`].
pub unsafe fn set_sp_mat_nnz(p: usize, nnz: i64) -> bool {
    let Ok(d) = borrow_mut(p as *mut oxsparseSpMatDescr, Kind::SpMat, "spMatDescr") else { return false };
    if nnz < 0 || !matches!(d.inner.format, FormatInfo::Csr | FormatInfo::Csc | FormatInfo::Coo) {
        return false;
    }
    d.inner.nnz = nnz;
    *d.active.lock().unwrap_or_else(|p| p.into_inner()) = None;
    true
}
