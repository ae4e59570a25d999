//! The C path on NVIDIA's CUDALibrarySamples data (exact results), and the status of refused
//! calls: each call has one thing wrong, all three entry points must refuse it alike, and a refused
//! bufferSize leaves its output alone. Descriptors point into one zeroed buffer (every row empty),
//! so a call accepted by mistake reads valid memory.

use super::harness::*;
use super::*;
use crate::common::descr::{DnMats, StatusFixture};
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::spmm::*;
use oxsparse::ffi::*;
use oxsparse::types::Status::{self, *};
use oxsparse::types::{DataType, DataType::*};
use std::ffi::c_void;
use std::ptr::{null, null_mut};

/// Zero in every compute type (host pointer mode).
static ZERO_SCALAR: [u64; 2] = [0, 0];

#[test]
fn null_handle_is_not_initialized() {
    // Descriptors need no GPU: their pointers are only recorded.
    let fake = 0x1000 as *mut c_void;
    let (mut a, mut b, mut c) = (null_mut(), null_mut(), null_mut());
    unsafe {
        assert_eq!(oxsparseCreateCsr(&mut a, 4, 6, 4, fake, fake, fake, I32 as i32, I32 as i32, 0, CUDA_R_32F as i32), OK);
        assert_eq!(oxsparseCreateDnMat(&mut b, 6, 3, 6, fake, CUDA_R_32F as i32, COL as i32), OK);
        assert_eq!(oxsparseCreateDnMat(&mut c, 4, 3, 4, fake, CUDA_R_32F as i32, COL as i32), OK);
        let args =
            Args { op_a: 0, op_b: 0, alpha: ZERO_SCALAR.as_ptr() as _, a, b, beta: ZERO_SCALAR.as_ptr() as _, c, compute: 0, alg: 0 };
        let none = std::mem::ManuallyDrop::new(CHandle(null_mut()));
        let mut size = 77usize;
        let ni = OXSPARSE_STATUS_NOT_INITIALIZED as i32;
        assert_eq!(args.buffer_size(&none, &mut size), ni);
        assert_eq!(args.preprocess(&none, fake), ni);
        assert_eq!(args.spmm(&none, fake), ni);
        assert_eq!(size, 77, "bufferSize written on failure");
        let all_null = Args { a: null(), b: null(), c: null_mut(), alpha: null(), beta: null(), ..args };
        assert_eq!(all_null.buffer_size(&none, &mut size), ni);
        assert_eq!(all_null.spmm(&none, null_mut()), ni);
        oxsparseDestroySpMat(a);
        oxsparseDestroyDnMat(b);
        oxsparseDestroyDnMat(c);
    }
}

/// spmm_csr and spmm_coo: A 4 x 4 with 9 nonzeros, B 4 x 3 column-major 1..12, alpha 1, beta 0;
/// the samples compare C with exact float equality.
#[test]
fn cuda_library_samples_spmm_csr_and_coo() {
    let Some(_gpu) = gpu("spmm CUDALibrarySamples") else { return };
    let h = CHandle::new();
    let offsets = DevBuf::from_slice(&[0i32, 3, 4, 7, 9]);
    let rows = DevBuf::from_slice(&[0i32, 0, 0, 1, 2, 2, 2, 3, 3]);
    let columns = DevBuf::from_slice(&[0i32, 2, 3, 1, 0, 2, 3, 1, 3]);
    let values = DevBuf::from_slice(&(1..=9).map(|v| v as f32).collect::<Vec<_>>());
    let b_buf = DevBuf::from_slice(&(1..=12).map(|v| v as f32).collect::<Vec<_>>());
    let want = [19.0f32, 8.0, 51.0, 52.0, 43.0, 24.0, 123.0, 120.0, 67.0, 40.0, 195.0, 188.0];
    let (alpha, beta) = (1.0f32, 0.0f32);
    let (r32, i32t) = (CUDA_R_32F as i32, I32 as i32);
    for coo in [false, true] {
        let c_buf = DevBuf::zeroed(12 * 4);
        c_buf.poison(0xFF);
        unsafe {
            let (mut a, mut b, mut c) = (null(), null(), null_mut());
            let s = if coo {
                oxsparseCreateConstCoo(&mut a, 4, 4, 9, rows.ptr as _, columns.ptr as _, values.ptr as _, i32t, 0, r32)
            } else {
                oxsparseCreateConstCsr(&mut a, 4, 4, 9, offsets.ptr as _, columns.ptr as _, values.ptr as _, i32t, i32t, 0, r32)
            };
            assert_eq!(s, OK);
            assert_eq!(oxsparseCreateConstDnMat(&mut b, 4, 3, 4, b_buf.ptr as _, r32, COL as i32), OK);
            assert_eq!(oxsparseCreateDnMat(&mut c, 4, 3, 4, c_buf.ptr as _, r32, COL as i32), OK);
            let p = |x: &f32| x as *const f32 as *const c_void;
            let mut size = usize::MAX;
            assert_eq!(oxsparseSpMM_bufferSize(h.0, 0, 0, p(&alpha), a, b, p(&beta), c, r32, 0, &mut size), OK);
            // As the samples do: cudaMalloc of exactly that size (NULL for 0).
            let buffer = (size > 0).then(|| DevBuf::zeroed(size));
            assert_eq!(oxsparseSpMM(h.0, 0, 0, p(&alpha), a, b, p(&beta), c, r32, 0, ws_ptr(&buffer)), OK);
            assert_eq!(c_buf.to_vec::<f32>(), want, "{}", if coo { "spmm_coo" } else { "spmm_csr" });
            oxsparseDestroySpMat(a);
            oxsparseDestroyDnMat(b);
            oxsparseDestroyDnMat(c);
        }
    }
}

/// The status fixture with SpMM's dense matrices (`DnMats::dn`), made over the same zeros.
pub type Fixture = StatusFixture<DnMats>;

impl Fixture {
    pub fn args(&self, a: oxsparseSpMatDescr_t, b: oxsparseDnMatDescr_t, c: oxsparseDnMatDescr_t, compute: DataType) -> Args {
        let s = ZERO_SCALAR.as_ptr() as *const c_void;
        Args { op_a: 0, op_b: 0, alpha: s, a, b, beta: s, c, compute: compute as i32, alg: 0 }
    }
    /// All three calls answer `want`; a refused bufferSize leaves its output alone.
    pub fn expect(&mut self, what: &str, args: Args, want: Status) {
        let mut size = 4242usize;
        let ws = self.ws.ptr as *mut c_void;
        let got = unsafe { [args.buffer_size(&self.h, &mut size), args.preprocess(&self.h, ws), args.spmm(&self.h, ws)] };
        for (call, s) in ["bufferSize", "preprocess", "SpMM"].iter().zip(got) {
            if s != want as i32 {
                self.failures.push(format!("{what}: {call} returned {}, want {}", status_name(s), want.name()));
            }
        }
        if want != OXSPARSE_STATUS_SUCCESS && size != 4242 {
            self.failures.push(format!("{what}: a refused bufferSize wrote {size}"));
        }
        if want == OXSPARSE_STATUS_SUCCESS && size > self.ws.bytes {
            self.failures.push(format!("{what}: bufferSize {size} for a 4 x 6 problem"));
        }
    }
}
