//! oxsparse's banded format (oxsparse only, issue 59): `oxsparseCreateBrcv`, `oxsparseBrcvGetInfo`,
//! `oxsparseSpMM_brcv`. cuSPARSE has no twin: its side of the comparison is its CSR SpMM.

use super::{ox_check, Descr, NON_TRANSPOSE};
use crate::Result;
use oxsparse::ffi::{self, brcv as oxb};
use std::ffi::{c_int, c_void};
use std::ptr::null_mut;

/// A BRCV object, destroyed on drop.
pub struct Brcv(ffi::oxsparseBrcv_t);

impl Brcv {
    /// `oxsparseCreateBrcv` of `a`, an oxsparse CSR descriptor, on the handle `h`.
    pub fn create(h: ffi::oxsparseHandle_t, a: &Descr) -> Result<Brcv> {
        let mut b = null_mut();
        // SAFETY: a live handle and descriptor; out-pointer to a local.
        ox_check("oxsparseCreateBrcv", unsafe { oxb::oxsparseCreateBrcv(h, a.ptr as _, &mut b) })?;
        Ok(Brcv(b))
    }

    /// (band values stored, far entries, widest band) as `oxsparseBrcvGetInfo` reports them.
    pub fn info(&self) -> Result<(i64, i64, i64)> {
        let (mut values, mut far, mut widest) = (0i64, 0i64, 0i64);
        let null = null_mut();
        // SAFETY: a live object; out-pointers to locals or NULL.
        ox_check("oxsparseBrcvGetInfo", unsafe { oxb::oxsparseBrcvGetInfo(self.0, null, null, null, &mut values, &mut far, &mut widest) })?;
        Ok((values, far, widest))
    }

    /// C = alpha A B + beta C over the object (opA = opB = N); `alpha` and `beta` host scalars of
    /// `compute` that outlive the call.
    pub fn spmm(
        &self,
        h: ffi::oxsparseHandle_t,
        (alpha, beta): (*const c_void, *const c_void),
        b: &Descr,
        c: &Descr,
        compute: c_int,
    ) -> Result<()> {
        // SAFETY: live handle, object and descriptors; the scalars as documented.
        let s = unsafe { oxb::oxsparseSpMM_brcv(h, NON_TRANSPOSE, NON_TRANSPOSE, alpha, self.0, b.ptr as _, beta, c.ptr as _, compute) };
        ox_check("oxsparseSpMM_brcv", s)
    }
}

impl Drop for Brcv {
    fn drop(&mut self) {
        // SAFETY: created by `create`, destroyed once.
        if let Err(e) = ox_check("oxsparseDestroyBrcv", unsafe { oxb::oxsparseDestroyBrcv(self.0) }) {
            eprintln!("oxsparse-bench: warning: {e}");
        }
    }
}
