//! The C calls around SDDMM: a problem uploaded and described through the exported descriptor
//! functions (`Gpu`), the arguments the three entry points share (`Args`), and one run of
//! bufferSize, preprocess and SDDMM. The handle, scalars and statuses are `common::capi`'s.

use super::harness::Problem;
use super::*;
pub use crate::common::capi::*;
use crate::common::descr::{create_sparse, dn_mat};
use crate::common::values::encode_indices;
use oxsparse::descr::FormatInfo;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::descr_sparse_access::{oxsparseBsrSetStridedBatch, oxsparseCsrSetStridedBatch};
use oxsparse::ffi::sddmm::*;
use oxsparse::ffi::*;
use oxsparse::types::SDDMMAlg;
use std::ffi::c_void;
use std::ptr::null_mut;

/// A problem on the device: A's and B's buffers (the operands `shift` elements in), C's offsets,
/// indices and values, and their descriptors.
pub struct Gpu {
    pub a_buf: DevBuf,
    pub b_buf: DevBuf,
    pub c_arrays: [DevBuf; 3],
    pub a: oxsparseDnMatDescr_t,
    pub b: oxsparseDnMatDescr_t,
    pub c: oxsparseSpMatDescr_t,
    /// Byte offsets of A's and B's first values in their buffers.
    pub at: (u64, u64),
}

impl Drop for Gpu {
    fn drop(&mut self) {
        unsafe {
            oxsparseDestroyDnMat(self.a);
            oxsparseDestroyDnMat(self.b);
            oxsparseDestroySpMat(self.c);
        }
    }
}

/// `bytes` in a buffer of their own, `at` bytes in (the bytes before hold 0xFF).
pub fn shifted(bytes: &[u8], at: usize) -> DevBuf {
    let buf = DevBuf::poisoned(at + bytes.len(), 0xFF);
    write_at(&buf, at, bytes);
    buf
}

impl Gpu {
    pub fn upload(p: &Problem) -> Result<Gpu, String> {
        let case = &p.case;
        let (t, ct, _) = case.types;
        let w = t.size_bytes();
        let at = (case.shift_a as u64 * w, case.shift_b as u64 * w);
        let m = &p.c.m;
        let c_arrays = [
            DevBuf::from_slice(&encode_indices(case.it, &m.offsets)),
            DevBuf::from_slice(&encode_indices(case.it, &m.indices)),
            DevBuf::from_slice(&p.c_bytes),
        ];
        let (a_buf, b_buf) = (shifted(&p.a_bytes, at.0 as usize), shifted(&p.b_bytes, at.1 as usize));
        let mut g = Gpu { a_buf, b_buf, c_arrays, a: null_mut(), b: null_mut(), c: null_mut(), at };
        unsafe {
            expect(create_sparse(&mut g.c, m, &g.c_arrays, p.c.nnz, (ct, case.it, case.base)), "creating C")?;
            let s = p.c.batch;
            if s.count > 1 {
                let status = match m.format {
                    FormatInfo::Bsr { .. } => oxsparseBsrSetStridedBatch(g.c, s.count, s.offsets_stride, s.indices_stride, s.values_stride),
                    _ => {
                        assert_eq!(s.indices_stride, s.values_stride, "CSR's indices and values share one batch stride");
                        oxsparseCsrSetStridedBatch(g.c, s.count, s.offsets_stride, s.indices_stride)
                    }
                };
                expect(status, "setting C's strided batch")?;
            }
            g.a = dn_mat(&p.a, g.a_buf.ptr + at.0, t)?;
            g.b = dn_mat(&p.b, g.b_buf.ptr + at.1, t)?;
        }
        Ok(g)
    }

    pub fn args(&self, p: &Problem, alpha: &Scalar, beta: &Scalar) -> Args {
        let c = &p.case;
        Args {
            op_a: c.op_a as i32,
            op_b: c.op_b as i32,
            alpha: alpha.ptr(),
            a: self.a,
            b: self.b,
            beta: beta.ptr(),
            c: self.c,
            compute: c.types.2 as i32,
            alg: SDDMMAlg::OXSPARSE_SDDMM_ALG_DEFAULT as i32,
        }
    }

    /// Uploads `p`'s A, B and C values again (same buffers, same descriptors).
    pub fn rewrite(&self, p: &Problem) {
        write_at(&self.a_buf, self.at.0 as usize, &p.a_bytes);
        write_at(&self.b_buf, self.at.1 as usize, &p.b_bytes);
        write(&self.c_arrays[2], &p.c_bytes);
    }

    /// C's values as they are now.
    pub fn c_values(&self) -> Vec<u8> {
        self.c_arrays[2].to_vec()
    }
}

/// The arguments the three calls share, as raw C values (status tests change them one by one).
#[derive(Clone, Copy)]
pub struct Args {
    pub op_a: i32,
    pub op_b: i32,
    pub alpha: *const c_void,
    pub a: oxsparseConstDnMatDescr_t,
    pub b: oxsparseConstDnMatDescr_t,
    pub beta: *const c_void,
    pub c: oxsparseSpMatDescr_t,
    pub compute: i32,
    pub alg: i32,
}

impl Args {
    pub unsafe fn buffer_size(&self, h: &CHandle, out: *mut usize) -> i32 {
        oxsparseSDDMM_bufferSize(h.0, self.op_a, self.op_b, self.alpha, self.a, self.b, self.beta, self.c, self.compute, self.alg, out)
    }
    pub unsafe fn preprocess(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSDDMM_preprocess(h.0, self.op_a, self.op_b, self.alpha, self.a, self.b, self.beta, self.c, self.compute, self.alg, buffer)
    }
    pub unsafe fn sddmm(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSDDMM(h.0, self.op_a, self.op_b, self.alpha, self.a, self.b, self.beta, self.c, self.compute, self.alg, buffer)
    }
    /// bufferSize's answer.
    pub fn size(&self, h: &CHandle) -> Result<usize, String> {
        buffer_size("SDDMM_bufferSize", |out| unsafe { self.buffer_size(h, out) })
    }
}

/// Scalars of `p` in its pointer mode (the handle is switched to it).
pub fn scalars(h: &CHandle, p: &Problem) -> (Scalar, Scalar) {
    h.set_mode(p.case.mode);
    let compute = p.case.types.2;
    (Scalar::new(p.case.mode, compute, p.alpha), Scalar::new(p.case.mode, compute, p.beta))
}

/// One SDDMM on a fresh copy of C's values: bufferSize (checked against the contract), a
/// poisoned workspace of that size, preprocess when asked (which must keep its decision), SDDMM.
/// Returns C's values.
pub fn run(h: &CHandle, p: &Problem, g: &Gpu, preprocess: bool) -> Result<Vec<u8>, String> {
    write(&g.c_arrays[2], &p.c_bytes);
    let (alpha, beta) = scalars(h, p);
    let args = g.args(p, &alpha, &beta);
    let size = args.size(h)?;
    p.check_buffer_size(size)?;
    let ws = workspace(size);
    if preprocess {
        expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SDDMM_preprocess")?;
        if unsafe { preprocessed_decision(g.c) }.is_none() {
            return Err("preprocess kept no decision for C".into());
        }
    }
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM")?;
    Ok(g.c_values())
}
