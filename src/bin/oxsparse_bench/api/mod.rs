//! One Rust wrapper per C API function, for both libraries: `Lib::Ox` calls the `oxsparse*`
//! function exactly as a C user would (the exported `extern "C"` functions), `Lib::Cu` the
//! `cusparse*` function of the same name. Operations are therefore written once, library-agnostic.
//! Every status is checked and a failure names the call. Descriptors are destroyed on drop.

use crate::cusparse::Cusparse;
use crate::Result;
use oxsparse::ffi::{self, descr_dense as oxd, descr_sparse as oxs, handle as oxh};
use oxsparse::types::{
    DataType, DenseToSparseAlg, IndexBase, IndexType, MathMode, Operation, Order, PointerMode, ReorderMode, SDDMMAlg, SpMMAlg, SpMVAlg,
    SparseToDenseAlg, Status,
};
use std::ffi::{c_int, c_void, CStr};
use std::ptr::null_mut;

mod blocked;
mod brcv;
mod compute;
mod sort;
mod srbcrs;
pub use brcv::Brcv;
pub use compute::{MmArgs, MmDescrs, SpmvArgs};
pub use srbcrs::SrBcrs;

// The enum values used by the benchmark; the same numbers for both libraries.
pub const R_32F: c_int = DataType::CUDA_R_32F as c_int;
pub const R_64F: c_int = DataType::CUDA_R_64F as c_int;
pub const R_16F: c_int = DataType::CUDA_R_16F as c_int;
pub const R_8I: c_int = DataType::CUDA_R_8I as c_int;
pub const R_32I: c_int = DataType::CUDA_R_32I as c_int;
pub const ORDER_COL: c_int = Order::OXSPARSE_ORDER_COL as c_int;
pub const INDEX_32I: c_int = IndexType::OXSPARSE_INDEX_32I as c_int;
pub const BASE_ZERO: c_int = IndexBase::OXSPARSE_INDEX_BASE_ZERO as c_int;
pub const ORDER_ROW: c_int = Order::OXSPARSE_ORDER_ROW as c_int;
pub const NON_TRANSPOSE: c_int = Operation::OXSPARSE_OPERATION_NON_TRANSPOSE as c_int;
pub const POINTER_HOST: c_int = PointerMode::OXSPARSE_POINTER_MODE_HOST as c_int;
pub const POINTER_DEVICE: c_int = PointerMode::OXSPARSE_POINTER_MODE_DEVICE as c_int;
pub const S2D_DEFAULT: c_int = SparseToDenseAlg::OXSPARSE_SPARSETODENSE_ALG_DEFAULT as c_int;
pub const D2S_DEFAULT: c_int = DenseToSparseAlg::OXSPARSE_DENSETOSPARSE_ALG_DEFAULT as c_int;
pub const SPMM_DEFAULT: c_int = SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT as c_int;
pub const SPMM_CSR_ALG1: c_int = SpMMAlg::OXSPARSE_SPMM_CSR_ALG1 as c_int;
pub const SPMM_CSR_ALG2: c_int = SpMMAlg::OXSPARSE_SPMM_CSR_ALG2 as c_int;
pub const SPMM_CSR_ALG3: c_int = SpMMAlg::OXSPARSE_SPMM_CSR_ALG3 as c_int;
pub const SPMM_BLOCKED_ELL_ALG1: c_int = SpMMAlg::OXSPARSE_SPMM_BLOCKED_ELL_ALG1 as c_int;
pub const SPMV_DEFAULT: c_int = SpMVAlg::OXSPARSE_SPMV_ALG_DEFAULT as c_int;
pub const SPMV_CSR_ALG1: c_int = SpMVAlg::OXSPARSE_SPMV_CSR_ALG1 as c_int;
pub const SPMV_CSR_ALG2: c_int = SpMVAlg::OXSPARSE_SPMV_CSR_ALG2 as c_int;
pub const SDDMM_DEFAULT: c_int = SDDMMAlg::OXSPARSE_SDDMM_ALG_DEFAULT as c_int;
/// NOT_SUPPORTED, the same number in both libraries.
const NOT_SUPPORTED: c_int = Status::OXSPARSE_STATUS_NOT_SUPPORTED as c_int;

/// The arguments of `Csr2cscEx2` after the handle: (m, n, nnz); the device arrays csrVal,
/// csrRowPtr, csrColInd, cscVal, cscColPtr, cscRowInd; (valType, copyValues, idxBase, alg).
#[derive(Clone, Copy, Debug)]
pub struct Csr2cscArgs {
    pub shape: (c_int, c_int, c_int),
    pub arrays: [u64; 6],
    pub modes: (c_int, c_int, c_int, c_int),
}

/// An oxsparse handle, destroyed on drop.
pub struct OxHandle(pub ffi::oxsparseHandle_t);

impl OxHandle {
    /// `oxsparseCreate`; the raw status is returned on failure (NOT_INITIALIZED means no GPU).
    pub fn create() -> std::result::Result<OxHandle, c_int> {
        let mut h = null_mut();
        // SAFETY: out-pointer to a local.
        match unsafe { oxh::oxsparseCreate(&mut h) } {
            0 => Ok(OxHandle(h)),
            s => Err(s),
        }
    }
}

impl OxHandle {
    /// `oxsparseSetMathMode`, then `oxsparseGetMathMode` to confirm it: the report records the
    /// mode the handle is in.
    pub fn set_math_mode(&self, mode: MathMode) -> Result<()> {
        // SAFETY: a live handle; out-pointer to a local.
        ox_check("oxsparseSetMathMode", unsafe { oxh::oxsparseSetMathMode(self.0, mode as c_int) })?;
        let mut got = -1;
        ox_check("oxsparseGetMathMode", unsafe { oxh::oxsparseGetMathMode(self.0, &mut got) })?;
        if got != mode as c_int {
            return Err(format!("oxsparseGetMathMode returned {got} after oxsparseSetMathMode({})", mode as c_int));
        }
        Ok(())
    }

    /// `oxsparseSetReorderMode`, confirmed by `oxsparseGetReorderMode`.
    pub fn set_reorder_mode(&self, mode: ReorderMode) -> Result<()> {
        // SAFETY: a live handle; out-pointer to a local.
        ox_check("oxsparseSetReorderMode", unsafe { oxh::oxsparseSetReorderMode(self.0, mode as c_int) })?;
        let mut got = -1;
        ox_check("oxsparseGetReorderMode", unsafe { oxh::oxsparseGetReorderMode(self.0, &mut got) })?;
        if got != mode as c_int {
            return Err(format!("oxsparseGetReorderMode returned {got} after oxsparseSetReorderMode({})", mode as c_int));
        }
        Ok(())
    }
}

impl Drop for OxHandle {
    fn drop(&mut self) {
        // SAFETY: created by `create`, destroyed once, after every descriptor (see main).
        if let Err(e) = ox_check("oxsparseDestroy", unsafe { oxh::oxsparseDestroy(self.0) }) {
            eprintln!("oxsparse-bench: warning: {e}");
        }
    }
}

/// `OXSPARSE_STATUS_...` for a status.
pub fn ox_status_name(status: c_int) -> String {
    // SAFETY: returns a static string for every code.
    unsafe { CStr::from_ptr(oxh::oxsparseGetErrorName(status)) }.to_string_lossy().into_owned()
}

/// Whether an error of this module (or of `Cusparse::check`) is a NOT_SUPPORTED status: a
/// configuration a library does not offer, reported as such rather than as a failure. Both
/// format a failed status as "<call> failed: <NAME> (<number>)".
pub fn is_not_supported(error: &str) -> bool {
    error.contains(&format!("STATUS_NOT_SUPPORTED ({NOT_SUPPORTED})"))
}

fn ox_check(call: &str, status: c_int) -> Result<()> {
    match status {
        0 => Ok(()),
        s => Err(format!("{call} failed: {} ({s})", ox_status_name(s))),
    }
}

/// The library a call goes to.
#[derive(Clone, Copy)]
pub enum Lib<'a> {
    Ox(ffi::oxsparseHandle_t),
    Cu(&'a Cusparse),
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    SpMat,
    DnMat,
    SpVec,
    DnVec,
    /// The legacy matrix descriptor (the index sorts').
    MatDescr,
}

/// A descriptor of either library, destroyed on drop. Its data stays owned by the caller.
pub struct Descr<'a> {
    lib: Lib<'a>,
    kind: Kind,
    ptr: *mut c_void,
}

impl Drop for Descr<'_> {
    fn drop(&mut self) {
        let p = self.ptr;
        // SAFETY: created by this module, destroyed once.
        let (call, status) = unsafe {
            match (self.lib, self.kind) {
                (Lib::Ox(_), Kind::SpMat) => ("oxsparseDestroySpMat", Ok(oxs::oxsparseDestroySpMat(p as _))),
                (Lib::Ox(_), Kind::DnMat) => ("oxsparseDestroyDnMat", Ok(oxd::oxsparseDestroyDnMat(p as _))),
                (Lib::Ox(_), Kind::SpVec) => ("oxsparseDestroySpVec", Ok(oxs::oxsparseDestroySpVec(p as _))),
                (Lib::Ox(_), Kind::DnVec) => ("oxsparseDestroyDnVec", Ok(oxd::oxsparseDestroyDnVec(p as _))),
                (Lib::Cu(c), Kind::SpMat) => ("cusparseDestroySpMat", c.api.cusparseDestroySpMat().map(|f| f(p))),
                (Lib::Cu(c), Kind::DnMat) => ("cusparseDestroyDnMat", c.api.cusparseDestroyDnMat().map(|f| f(p))),
                (Lib::Cu(c), Kind::SpVec) => ("cusparseDestroySpVec", c.api.cusparseDestroySpVec().map(|f| f(p))),
                (Lib::Cu(c), Kind::DnVec) => ("cusparseDestroyDnVec", c.api.cusparseDestroyDnVec().map(|f| f(p))),
                (Lib::Ox(_), Kind::MatDescr) => ("oxsparseDestroyMatDescr", Ok(oxsparse::ffi::mat_descr::oxsparseDestroyMatDescr(p as _))),
                (Lib::Cu(c), Kind::MatDescr) => ("cusparseDestroyMatDescr", c.api.cusparseDestroyMatDescr().map(|f| f(p))),
            }
        };
        if let Err(e) = status.and_then(|s| self.lib.check(call, s)) {
            eprintln!("oxsparse-bench: warning: {e}");
        }
    }
}

/// A device address as the `void*` the C API takes.
fn vp(addr: u64) -> *mut c_void {
    addr as usize as *mut c_void
}

impl<'a> Lib<'a> {
    pub fn name(&self) -> &'static str {
        match self {
            Lib::Ox(_) => "oxsparse",
            Lib::Cu(_) => "cuSPARSE",
        }
    }

    /// Names the call of this library's spelling ("oxsparseX" / "cusparseX") in an error.
    fn check(&self, call: &str, status: c_int) -> Result<()> {
        match self {
            Lib::Ox(_) => ox_check(call, status),
            Lib::Cu(c) => c.check(call, status),
        }
    }

    /// Runs a descriptor constructor (`call` names it in each library's spelling).
    fn descr(&self, kind: Kind, call: (&str, &str), create: impl FnOnce(&mut *mut c_void) -> Result<c_int>) -> Result<Descr<'a>> {
        let mut p = null_mut();
        let name = if matches!(self, Lib::Ox(_)) { call.0 } else { call.1 };
        self.check(name, create(&mut p)?)?;
        Ok(Descr { lib: *self, kind, ptr: p })
    }

    /// `CreateCsr` over device arrays (addresses).
    #[allow(clippy::too_many_arguments)]
    pub fn create_csr(
        &self,
        rows: i64,
        cols: i64,
        nnz: i64,
        offsets: u64,
        indices: u64,
        values: u64,
        offset_type: c_int,
        index_type: c_int,
        base: c_int,
        value_type: c_int,
    ) -> Result<Descr<'a>> {
        let (o, i, v) = (vp(offsets), vp(indices), vp(values));
        self.descr(Kind::SpMat, ("oxsparseCreateCsr", "cusparseCreateCsr"), |p| unsafe {
            match self {
                Lib::Ox(_) => Ok(oxs::oxsparseCreateCsr(
                    p as *mut *mut c_void as _,
                    rows,
                    cols,
                    nnz,
                    o,
                    i,
                    v,
                    offset_type,
                    index_type,
                    base,
                    value_type,
                )),
                Lib::Cu(c) => Ok((c.api.cusparseCreateCsr()?)(p, rows, cols, nnz, o, i, v, offset_type, index_type, base, value_type)),
            }
        })
    }

    pub fn create_dn_mat(&self, rows: i64, cols: i64, ld: i64, values: u64, value_type: c_int, order: c_int) -> Result<Descr<'a>> {
        self.descr(Kind::DnMat, ("oxsparseCreateDnMat", "cusparseCreateDnMat"), |p| unsafe {
            match self {
                Lib::Ox(_) => Ok(oxd::oxsparseCreateDnMat(p as *mut *mut c_void as _, rows, cols, ld, vp(values), value_type, order)),
                Lib::Cu(c) => Ok((c.api.cusparseCreateDnMat()?)(p, rows, cols, ld, vp(values), value_type, order)),
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn create_sp_vec(
        &self,
        size: i64,
        nnz: i64,
        indices: u64,
        values: u64,
        index_type: c_int,
        base: c_int,
        value_type: c_int,
    ) -> Result<Descr<'a>> {
        self.descr(Kind::SpVec, ("oxsparseCreateSpVec", "cusparseCreateSpVec"), |p| unsafe {
            match self {
                Lib::Ox(_) => Ok(oxs::oxsparseCreateSpVec(
                    p as *mut *mut c_void as _,
                    size,
                    nnz,
                    vp(indices),
                    vp(values),
                    index_type,
                    base,
                    value_type,
                )),
                Lib::Cu(c) => Ok((c.api.cusparseCreateSpVec()?)(p, size, nnz, vp(indices), vp(values), index_type, base, value_type)),
            }
        })
    }

    pub fn create_dn_vec(&self, size: i64, values: u64, value_type: c_int) -> Result<Descr<'a>> {
        self.descr(Kind::DnVec, ("oxsparseCreateDnVec", "cusparseCreateDnVec"), |p| unsafe {
            match self {
                Lib::Ox(_) => Ok(oxd::oxsparseCreateDnVec(p as *mut *mut c_void as _, size, vp(values), value_type)),
                Lib::Cu(c) => Ok((c.api.cusparseCreateDnVec()?)(p, size, vp(values), value_type)),
            }
        })
    }

    pub fn set_pointer_mode(&self, mode: c_int) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseSetPointerMode", unsafe { oxh::oxsparseSetPointerMode(*h, mode) }),
            Lib::Cu(c) => self.check("cusparseSetPointerMode", unsafe { (c.api.cusparseSetPointerMode()?)(c.handle, mode) }),
        }
    }

    pub fn sparse_to_dense_buffer_size(&self, a: &Descr, b: &Descr, alg: c_int) -> Result<usize> {
        let mut size = 0usize;
        match self {
            Lib::Ox(h) => self.check("oxsparseSparseToDense_bufferSize", unsafe {
                oxsparse::ffi::sparse_to_dense::oxsparseSparseToDense_bufferSize(*h, a.ptr as _, b.ptr as _, alg, &mut size)
            })?,
            Lib::Cu(c) => self.check("cusparseSparseToDense_bufferSize", unsafe {
                (c.api.cusparseSparseToDense_bufferSize()?)(c.handle, a.ptr, b.ptr, alg, &mut size)
            })?,
        }
        Ok(size)
    }

    pub fn sparse_to_dense(&self, a: &Descr, b: &Descr, alg: c_int, buffer: u64) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseSparseToDense", unsafe {
                oxsparse::ffi::sparse_to_dense::oxsparseSparseToDense(*h, a.ptr as _, b.ptr as _, alg, vp(buffer))
            }),
            Lib::Cu(c) => {
                self.check("cusparseSparseToDense", unsafe { (c.api.cusparseSparseToDense()?)(c.handle, a.ptr, b.ptr, alg, vp(buffer)) })
            }
        }
    }

    /// `m + 1` CSR row offsets from `nnz` sorted COO row indices (32-bit device arrays).
    pub fn coo2csr(&self, rows: u64, nnz: c_int, m: c_int, offsets: u64, base: c_int) -> Result<()> {
        let (rows, offsets) = (rows as usize as *const c_int, offsets as usize as *mut c_int);
        match self {
            Lib::Ox(h) => {
                self.check("oxsparseXcoo2csr", unsafe { oxsparse::ffi::coo_csr::oxsparseXcoo2csr(*h, rows, nnz, m, offsets, base) })
            }
            Lib::Cu(c) => self.check("cusparseXcoo2csr", unsafe { (c.api.cusparseXcoo2csr()?)(c.handle, rows, nnz, m, offsets, base) }),
        }
    }

    /// `nnz` COO row indices from `m + 1` CSR row offsets (32-bit device arrays).
    pub fn csr2coo(&self, offsets: u64, nnz: c_int, m: c_int, rows: u64, base: c_int) -> Result<()> {
        let (offsets, rows) = (offsets as usize as *const c_int, rows as usize as *mut c_int);
        match self {
            Lib::Ox(h) => {
                self.check("oxsparseXcsr2coo", unsafe { oxsparse::ffi::coo_csr::oxsparseXcsr2coo(*h, offsets, nnz, m, rows, base) })
            }
            Lib::Cu(c) => self.check("cusparseXcsr2coo", unsafe { (c.api.cusparseXcsr2coo()?)(c.handle, offsets, nnz, m, rows, base) }),
        }
    }

    /// `DenseToSparse_bufferSize` (A dense, B sparse).
    pub fn dense_to_sparse_buffer_size(&self, a: &Descr, b: &Descr) -> Result<usize> {
        let mut size = 0usize;
        match self {
            Lib::Ox(h) => self.check("oxsparseDenseToSparse_bufferSize", unsafe {
                oxsparse::ffi::dense_to_sparse::oxsparseDenseToSparse_bufferSize(*h, a.ptr as _, b.ptr as _, D2S_DEFAULT, &mut size)
            })?,
            Lib::Cu(c) => self.check("cusparseDenseToSparse_bufferSize", unsafe {
                (c.api.cusparseDenseToSparse_bufferSize()?)(c.handle, a.ptr, b.ptr, D2S_DEFAULT, &mut size)
            })?,
        }
        Ok(size)
    }

    /// `DenseToSparse_analysis`: B's offsets and nnz (both libraries wait for the stream).
    pub fn dense_to_sparse_analysis(&self, a: &Descr, b: &Descr, buffer: u64) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseDenseToSparse_analysis", unsafe {
                oxsparse::ffi::dense_to_sparse::oxsparseDenseToSparse_analysis(*h, a.ptr as _, b.ptr as _, D2S_DEFAULT, vp(buffer))
            }),
            Lib::Cu(c) => self.check("cusparseDenseToSparse_analysis", unsafe {
                (c.api.cusparseDenseToSparse_analysis()?)(c.handle, a.ptr, b.ptr, D2S_DEFAULT, vp(buffer))
            }),
        }
    }

    /// `DenseToSparse_convert`.
    pub fn dense_to_sparse_convert(&self, a: &Descr, b: &Descr, buffer: u64) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseDenseToSparse_convert", unsafe {
                oxsparse::ffi::dense_to_sparse::oxsparseDenseToSparse_convert(*h, a.ptr as _, b.ptr as _, D2S_DEFAULT, vp(buffer))
            }),
            Lib::Cu(c) => self.check("cusparseDenseToSparse_convert", unsafe {
                (c.api.cusparseDenseToSparse_convert()?)(c.handle, a.ptr, b.ptr, D2S_DEFAULT, vp(buffer))
            }),
        }
    }

    /// `SpMatGetSize`: (rows, cols, nnz).
    pub fn sp_mat_get_size(&self, m: &Descr) -> Result<(i64, i64, i64)> {
        let (mut r, mut c, mut nnz) = (0i64, 0i64, 0i64);
        match self {
            Lib::Ox(_) => self.check("oxsparseSpMatGetSize", unsafe {
                oxsparse::ffi::descr_sparse_access::oxsparseSpMatGetSize(m.ptr as _, &mut r, &mut c, &mut nnz)
            })?,
            Lib::Cu(cu) => {
                self.check("cusparseSpMatGetSize", unsafe { (cu.api.cusparseSpMatGetSize()?)(m.ptr, &mut r, &mut c, &mut nnz) })?
            }
        }
        Ok((r, c, nnz))
    }

    /// `CsrSetPointers`.
    pub fn csr_set_pointers(&self, m: &Descr, offsets: u64, indices: u64, values: u64) -> Result<()> {
        match self {
            Lib::Ox(_) => self.check("oxsparseCsrSetPointers", unsafe {
                oxsparse::ffi::descr_sparse_access::oxsparseCsrSetPointers(m.ptr as _, vp(offsets), vp(indices), vp(values))
            }),
            Lib::Cu(c) => self
                .check("cusparseCsrSetPointers", unsafe { (c.api.cusparseCsrSetPointers()?)(m.ptr, vp(offsets), vp(indices), vp(values)) }),
        }
    }

    /// `Csr2cscEx2_bufferSize`.
    pub fn csr2csc_buffer_size(&self, a: &Csr2cscArgs) -> Result<usize> {
        let mut size = 0usize;
        let (m, n, nnz) = a.shape;
        let [cv, rp, ci, ov, op, or] = a.arrays.map(vp);
        let (t, action, base, alg) = a.modes;
        match self {
            Lib::Ox(h) => self.check("oxsparseCsr2cscEx2_bufferSize", unsafe {
                oxsparse::ffi::csr2csc::oxsparseCsr2cscEx2_bufferSize(
                    *h, m, n, nnz, cv, rp as _, ci as _, ov, op as _, or as _, t, action, base, alg, &mut size,
                )
            })?,
            Lib::Cu(c) => self.check("cusparseCsr2cscEx2_bufferSize", unsafe {
                (c.api.cusparseCsr2cscEx2_bufferSize()?)(c.handle, m, n, nnz, cv, rp, ci, ov, op, or, t, action, base, alg, &mut size)
            })?,
        }
        Ok(size)
    }

    /// `Csr2cscEx2`.
    pub fn csr2csc(&self, a: &Csr2cscArgs, buffer: u64) -> Result<()> {
        let (m, n, nnz) = a.shape;
        let [cv, rp, ci, ov, op, or] = a.arrays.map(vp);
        let (t, action, base, alg) = a.modes;
        match self {
            Lib::Ox(h) => self.check("oxsparseCsr2cscEx2", unsafe {
                oxsparse::ffi::csr2csc::oxsparseCsr2cscEx2(
                    *h,
                    m,
                    n,
                    nnz,
                    cv,
                    rp as _,
                    ci as _,
                    ov,
                    op as _,
                    or as _,
                    t,
                    action,
                    base,
                    alg,
                    vp(buffer),
                )
            }),
            Lib::Cu(c) => self.check("cusparseCsr2cscEx2", unsafe {
                (c.api.cusparseCsr2cscEx2()?)(c.handle, m, n, nnz, cv, rp, ci, ov, op, or, t, action, base, alg, vp(buffer))
            }),
        }
    }

    /// X's values = Y[X's indices].
    pub fn gather(&self, y: &Descr, x: &Descr) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseGather", unsafe { oxsparse::ffi::vector_ops::oxsparseGather(*h, y.ptr as _, x.ptr as _) }),
            Lib::Cu(c) => self.check("cusparseGather", unsafe { (c.api.cusparseGather()?)(c.handle, y.ptr, x.ptr) }),
        }
    }

    pub fn spvv_buffer_size(&self, op: c_int, x: &Descr, y: &Descr, result: u64, compute: c_int) -> Result<usize> {
        let mut size = 0usize;
        match self {
            Lib::Ox(h) => self.check("oxsparseSpVV_bufferSize", unsafe {
                oxsparse::ffi::vector_ops::oxsparseSpVV_bufferSize(*h, op, x.ptr as _, y.ptr as _, vp(result), compute, &mut size)
            })?,
            Lib::Cu(c) => self.check("cusparseSpVV_bufferSize", unsafe {
                (c.api.cusparseSpVV_bufferSize()?)(c.handle, op, x.ptr, y.ptr, vp(result), compute, &mut size)
            })?,
        }
        Ok(size)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn spvv(&self, op: c_int, x: &Descr, y: &Descr, result: u64, compute: c_int, buffer: u64) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseSpVV", unsafe {
                oxsparse::ffi::vector_ops::oxsparseSpVV(*h, op, x.ptr as _, y.ptr as _, vp(result), compute, vp(buffer))
            }),
            Lib::Cu(c) => {
                self.check("cusparseSpVV", unsafe { (c.api.cusparseSpVV()?)(c.handle, op, x.ptr, y.ptr, vp(result), compute, vp(buffer)) })
            }
        }
    }
}

/// Sets a pointer mode for as long as it lives, then puts back host mode (the default).
pub struct PointerModeGuard<'a>(Lib<'a>);

impl<'a> PointerModeGuard<'a> {
    pub fn set(lib: Lib<'a>, mode: c_int) -> Result<PointerModeGuard<'a>> {
        lib.set_pointer_mode(mode)?;
        Ok(PointerModeGuard(lib))
    }
}

impl Drop for PointerModeGuard<'_> {
    fn drop(&mut self) {
        if let Err(e) = self.0.set_pointer_mode(POINTER_HOST) {
            eprintln!("oxsparse-bench: warning: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_supported_is_told_apart() {
        let e = ox_check("oxsparseSpMM", NOT_SUPPORTED).unwrap_err();
        assert!(is_not_supported(&e), "{e}");
        let other = Status::OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED as c_int;
        assert!(!is_not_supported(&ox_check("oxsparseSpMM", other).unwrap_err()));
        assert!(!is_not_supported("cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY"));
    }
}
