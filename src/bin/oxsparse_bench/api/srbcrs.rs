//! oxsparse's int8 SR-BCRS format (issue 60): `oxsparseCreateSrBcrs`, `oxsparseSrBcrsGetInfo`,
//! `oxsparseSpMM_srBcrs`, `oxsparseSDDMM_srBcrs` (cuSPARSE's Blocked-ELL descriptor, the other int8
//! format SpMM-int measures it against, is in `blocked.rs`).

use super::{ox_check, Descr};
use crate::Result;
use oxsparse::ffi::{self, srbcrs as oxr};
use std::ffi::{c_int, c_void};
use std::ptr::null_mut;

/// An SR-BCRS object, destroyed on drop.
pub struct SrBcrs(ffi::oxsparseSrBcrs_t);

impl SrBcrs {
    /// `oxsparseCreateSrBcrs` of `a`, an oxsparse int8 CSR descriptor, grouping `vector_length`
    /// rows, on the handle `h`.
    pub fn create(h: ffi::oxsparseHandle_t, a: &Descr, vector_length: c_int) -> Result<SrBcrs> {
        let mut s = null_mut();
        // SAFETY: a live handle and descriptor; out-pointer to a local.
        ox_check("oxsparseCreateSrBcrs", unsafe { oxr::oxsparseCreateSrBcrs(h, a.ptr as _, vector_length, &mut s) })?;
        Ok(SrBcrs(s))
    }

    /// The vectors stored, zero padding included, as `oxsparseSrBcrsGetInfo` reports them.
    pub fn vectors(&self) -> Result<i64> {
        let mut vectors = 0i64;
        let (n64, n32, np) = (null_mut(), null_mut(), null_mut());
        // SAFETY: a live object; out-pointers to a local or NULL.
        ox_check("oxsparseSrBcrsGetInfo", unsafe {
            oxr::oxsparseSrBcrsGetInfo(self.0, n64, n64, n64, n32, n32, &mut vectors, np, np, np)
        })?;
        Ok(vectors)
    }

    /// Checks the operands as the call will (`_bufferSize`, which must ask for nothing, then
    /// `_preprocess`), so that a refusal names the first call that refuses.
    pub fn prepare(
        &self,
        h: ffi::oxsparseHandle_t,
        (alpha, beta): (*const c_void, *const c_void),
        b: &Descr,
        c: &Descr,
        compute: c_int,
    ) -> Result<()> {
        let mut size = 0usize;
        // SAFETY: live handle, object and descriptors; the scalars outlive the calls.
        ox_check("oxsparseSpMM_srBcrs_bufferSize", unsafe {
            oxr::oxsparseSpMM_srBcrs_bufferSize(h, alpha, self.0, b.ptr as _, beta, c.ptr as _, compute, &mut size)
        })?;
        if size != 0 {
            return Err(format!("oxsparseSpMM_srBcrs_bufferSize asked for {size} bytes, not the 0 it documents"));
        }
        ox_check("oxsparseSpMM_srBcrs_preprocess", unsafe {
            oxr::oxsparseSpMM_srBcrs_preprocess(h, alpha, self.0, b.ptr as _, beta, c.ptr as _, compute, null_mut())
        })
    }

    /// C = alpha A B + beta C over the object; `alpha` and `beta` host scalars of `compute` that
    /// outlive the call.
    pub fn spmm(
        &self,
        h: ffi::oxsparseHandle_t,
        (alpha, beta): (*const c_void, *const c_void),
        b: &Descr,
        c: &Descr,
        compute: c_int,
    ) -> Result<()> {
        // SAFETY: live handle, object and descriptors; the scalars as documented.
        let s = unsafe { oxr::oxsparseSpMM_srBcrs(h, alpha, self.0, b.ptr as _, beta, c.ptr as _, compute, null_mut()) };
        ox_check("oxsparseSpMM_srBcrs", s)
    }

    /// Checks an SDDMM on the object's slots as the call will (`_bufferSize`, which must ask for
    /// nothing, then `_preprocess`); `out` is a dense vector over the object's slots.
    pub fn sddmm_prepare(
        &self,
        h: ffi::oxsparseHandle_t,
        (alpha, beta): (*const c_void, *const c_void),
        (a, b): (&Descr, &Descr),
        out: &Descr,
        compute: c_int,
    ) -> Result<()> {
        let mut size = 0usize;
        // SAFETY: live handle, object and descriptors; the scalars outlive the calls.
        ox_check("oxsparseSDDMM_srBcrs_bufferSize", unsafe {
            oxr::oxsparseSDDMM_srBcrs_bufferSize(h, alpha, a.ptr as _, b.ptr as _, beta, self.0, out.ptr as _, compute, &mut size)
        })?;
        if size != 0 {
            return Err(format!("oxsparseSDDMM_srBcrs_bufferSize asked for {size} bytes, not the 0 it documents"));
        }
        ox_check("oxsparseSDDMM_srBcrs_preprocess", unsafe {
            oxr::oxsparseSDDMM_srBcrs_preprocess(h, alpha, a.ptr as _, b.ptr as _, beta, self.0, out.ptr as _, compute, null_mut())
        })
    }

    /// out = alpha (A B) at the object's slots + beta out; host scalars of `compute`.
    pub fn sddmm(
        &self,
        h: ffi::oxsparseHandle_t,
        (alpha, beta): (*const c_void, *const c_void),
        (a, b): (&Descr, &Descr),
        out: &Descr,
        compute: c_int,
    ) -> Result<()> {
        // SAFETY: live handle, object and descriptors; the scalars as documented.
        let s = unsafe { oxr::oxsparseSDDMM_srBcrs(h, alpha, a.ptr as _, b.ptr as _, beta, self.0, out.ptr as _, compute, null_mut()) };
        ox_check("oxsparseSDDMM_srBcrs", s)
    }
}

impl Drop for SrBcrs {
    fn drop(&mut self) {
        // SAFETY: created by `create`, destroyed once.
        if let Err(e) = ox_check("oxsparseDestroySrBcrs", unsafe { oxr::oxsparseDestroySrBcrs(self.0) }) {
            eprintln!("oxsparse-bench: warning: {e}");
        }
    }
}
