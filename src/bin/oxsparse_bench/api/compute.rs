//! The wrappers of the compute routines that take a workspace: SpMM and SDDMM, whose arguments
//! come in the same order ([`MmArgs`], their wrappers made by one macro), and SpMV.

use super::{vp, Descr, Lib, NON_TRANSPOSE};
use crate::Result;
use oxsparse::ffi::sddmm as oxdd;
use oxsparse::ffi::spmm as oxmm;
use oxsparse::ffi::spmv as oxmv;
use std::ffi::{c_int, c_void};

/// The arguments of the three calls of SpMM (C = alpha op(A) op(B) + beta C) and of SDDMM
/// (C = alpha (op(A) op(B)) o spy(C) + beta C): both take them in this order. `alpha` and `beta`
/// point to host scalars of the compute type that outlive the calls.
pub struct MmArgs<'d, 'a> {
    pub op_a: c_int,
    pub op_b: c_int,
    pub alpha: *const c_void,
    pub a: &'d Descr<'a>,
    pub b: &'d Descr<'a>,
    pub beta: *const c_void,
    pub c: &'d Descr<'a>,
    pub compute: c_int,
    pub alg: c_int,
}

/// One copy's descriptors of an operation that takes [`MmArgs`]: A, B and C.
pub struct MmDescrs<'a> {
    pub a: Descr<'a>,
    pub b: Descr<'a>,
    pub c: Descr<'a>,
}

impl<'a> MmDescrs<'a> {
    /// The arguments with op(A) = A and op(B) = B; `alpha_beta` as `Precision::alpha_beta`.
    pub fn args(&self, (alpha, beta): (*const c_void, *const c_void), compute: c_int, alg: c_int) -> MmArgs<'_, 'a> {
        MmArgs { op_a: NON_TRANSPOSE, op_b: NON_TRANSPOSE, alpha, a: &self.a, b: &self.b, beta, c: &self.c, compute, alg }
    }
}

/// The wrappers of an operation that takes [`MmArgs`]: `size(oxsparse's, cuSPARSE's)` its
/// bufferSize (returning the size), then each `name(oxsparse's, cuSPARSE's)` a call that takes
/// the workspace last (preprocess, the operation). `$ox` is oxsparse's FFI module of them.
macro_rules! mm_calls {
    ($ox:ident: $size:ident($ox_size:ident, $cu_size:ident) $(, $name:ident($ox_fn:ident, $cu_fn:ident))*) => {
        impl Lib<'_> {
            pub fn $size(&self, s: &MmArgs) -> Result<usize> {
                let mut size = 0usize;
                let (a, b, c) = (s.a.ptr, s.b.ptr, s.c.ptr);
                match self {
                    Lib::Ox(h) => self.check(stringify!($ox_size), unsafe {
                        $ox::$ox_size(*h, s.op_a, s.op_b, s.alpha, a as _, b as _, s.beta, c as _, s.compute, s.alg, &mut size)
                    })?,
                    Lib::Cu(cu) => self.check(stringify!($cu_size), unsafe {
                        (cu.api.$cu_size()?)(cu.handle, s.op_a, s.op_b, s.alpha, a, b, s.beta, c, s.compute, s.alg, &mut size)
                    })?,
                }
                Ok(size)
            }

            $(pub fn $name(&self, s: &MmArgs, buffer: u64) -> Result<()> {
                let (a, b, c) = (s.a.ptr, s.b.ptr, s.c.ptr);
                match self {
                    Lib::Ox(h) => self.check(stringify!($ox_fn), unsafe {
                        $ox::$ox_fn(*h, s.op_a, s.op_b, s.alpha, a as _, b as _, s.beta, c as _, s.compute, s.alg, vp(buffer))
                    }),
                    Lib::Cu(cu) => self.check(stringify!($cu_fn), unsafe {
                        (cu.api.$cu_fn()?)(cu.handle, s.op_a, s.op_b, s.alpha, a, b, s.beta, c, s.compute, s.alg, vp(buffer))
                    }),
                }
            })*
        }
    };
}

mm_calls!(oxmm: spmm_buffer_size(oxsparseSpMM_bufferSize, cusparseSpMM_bufferSize),
    spmm_preprocess(oxsparseSpMM_preprocess, cusparseSpMM_preprocess),
    spmm(oxsparseSpMM, cusparseSpMM));

mm_calls!(oxdd: sddmm_buffer_size(oxsparseSDDMM_bufferSize, cusparseSDDMM_bufferSize),
    sddmm_preprocess(oxsparseSDDMM_preprocess, cusparseSDDMM_preprocess),
    sddmm(oxsparseSDDMM, cusparseSDDMM));

/// The arguments of the three SpMV calls (Y = alpha op(A) X + beta Y), in the API's order.
/// `alpha` and `beta` point to host scalars of the compute type that outlive the calls.
pub struct SpmvArgs<'d, 'a> {
    pub op_a: c_int,
    pub alpha: *const c_void,
    pub a: &'d Descr<'a>,
    pub x: &'d Descr<'a>,
    pub beta: *const c_void,
    pub y: &'d Descr<'a>,
    pub compute: c_int,
    pub alg: c_int,
}

impl Lib<'_> {
    pub fn spmv_buffer_size(&self, s: &SpmvArgs) -> Result<usize> {
        let mut size = 0usize;
        let (a, x, y) = (s.a.ptr, s.x.ptr, s.y.ptr);
        match self {
            Lib::Ox(h) => self.check("oxsparseSpMV_bufferSize", unsafe {
                oxmv::oxsparseSpMV_bufferSize(*h, s.op_a, s.alpha, a as _, x as _, s.beta, y as _, s.compute, s.alg, &mut size)
            })?,
            Lib::Cu(cu) => self.check("cusparseSpMV_bufferSize", unsafe {
                (cu.api.cusparseSpMV_bufferSize()?)(cu.handle, s.op_a, s.alpha, a, x, s.beta, y, s.compute, s.alg, &mut size)
            })?,
        }
        Ok(size)
    }

    pub fn spmv_preprocess(&self, s: &SpmvArgs, buffer: u64) -> Result<()> {
        let (a, x, y) = (s.a.ptr, s.x.ptr, s.y.ptr);
        match self {
            Lib::Ox(h) => self.check("oxsparseSpMV_preprocess", unsafe {
                oxmv::oxsparseSpMV_preprocess(*h, s.op_a, s.alpha, a as _, x as _, s.beta, y as _, s.compute, s.alg, vp(buffer))
            }),
            Lib::Cu(cu) => self.check("cusparseSpMV_preprocess", unsafe {
                (cu.api.cusparseSpMV_preprocess()?)(cu.handle, s.op_a, s.alpha, a, x, s.beta, y, s.compute, s.alg, vp(buffer))
            }),
        }
    }

    pub fn spmv(&self, s: &SpmvArgs, buffer: u64) -> Result<()> {
        let (a, x, y) = (s.a.ptr, s.x.ptr, s.y.ptr);
        match self {
            Lib::Ox(h) => self.check("oxsparseSpMV", unsafe {
                oxmv::oxsparseSpMV(*h, s.op_a, s.alpha, a as _, x as _, s.beta, y as _, s.compute, s.alg, vp(buffer))
            }),
            Lib::Cu(cu) => self.check("cusparseSpMV", unsafe {
                (cu.api.cusparseSpMV()?)(cu.handle, s.op_a, s.alpha, a, x, s.beta, y, s.compute, s.alg, vp(buffer))
            }),
        }
    }
}
