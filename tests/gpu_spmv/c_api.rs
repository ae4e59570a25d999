//! The C path on NVIDIA's CUDALibrarySamples data (exact results), and the fixture of the status
//! tests (`refusals`): descriptors over one zeroed buffer (every row empty, so a call accepted by
//! mistake reads valid memory), Y vectors in a poisoned buffer that a refused call must leave
//! alone, all three entry points asked alike.

use super::harness::*;
use super::*;
use crate::common::descr::StatusFixture;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::spmv::*;
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
    let (mut a, mut x, mut y) = (null_mut(), null_mut(), null_mut());
    unsafe {
        assert_eq!(oxsparseCreateCsr(&mut a, 4, 6, 4, fake, fake, fake, I32 as i32, I32 as i32, 0, CUDA_R_32F as i32), OK);
        assert_eq!(oxsparseCreateDnVec(&mut x, 6, fake, CUDA_R_32F as i32), OK);
        assert_eq!(oxsparseCreateDnVec(&mut y, 4, fake, CUDA_R_32F as i32), OK);
        let z = ZERO_SCALAR.as_ptr() as *const c_void;
        let args = Args { op: 0, alpha: z, a, x, beta: z, y, compute: 0, alg: 0 };
        let none = std::mem::ManuallyDrop::new(CHandle(null_mut()));
        let mut size = 77usize;
        let ni = OXSPARSE_STATUS_NOT_INITIALIZED as i32;
        assert_eq!(args.buffer_size(&none, &mut size), ni);
        assert_eq!(args.preprocess(&none, fake), ni);
        assert_eq!(args.spmv(&none, fake), ni);
        assert_eq!(size, 77, "bufferSize written on failure");
        let all_null = Args { a: null(), x: null(), y: null_mut(), alpha: null(), beta: null(), ..args };
        assert_eq!(all_null.buffer_size(&none, &mut size), ni);
        assert_eq!(all_null.spmv(&none, null_mut()), ni);
        oxsparseDestroySpMat(a);
        oxsparseDestroyDnVec(x);
        oxsparseDestroyDnVec(y);
    }
}

/// spmv_csr (with preprocess), spmv_coo and spmv_sell: A 4 x 4 with 9 nonzeros, x = (1, 2, 3, 4),
/// alpha 1, beta 0, y = (19, 8, 51, 52); the samples compare with exact float equality.
#[test]
fn cuda_library_samples_spmv_csr_coo_and_sell() {
    let Some(_gpu) = gpu("spmv CUDALibrarySamples") else { return };
    let h = CHandle::new();
    let offsets = DevBuf::from_slice(&[0i32, 3, 4, 7, 9]);
    let rows = DevBuf::from_slice(&[0i32, 0, 0, 1, 2, 2, 2, 3, 3]);
    let columns = DevBuf::from_slice(&[0i32, 2, 3, 1, 0, 2, 3, 1, 3]);
    let values = DevBuf::from_slice(&(1..=9).map(|v| v as f32).collect::<Vec<_>>());
    let slice_offsets = DevBuf::from_slice(&[0i32, 6, 12]);
    let sell_columns = DevBuf::from_slice(&[0i32, 1, 2, -1, 3, -1, 0, 1, 2, 3, 3, -1]);
    let sell_values = DevBuf::from_slice(&[1.0f32, 4.0, 2.0, 0.0, 3.0, 0.0, 5.0, 8.0, 6.0, 9.0, 7.0, 0.0]);
    let x_buf = DevBuf::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
    let (alpha, beta) = (1.0f32, 0.0f32);
    let (r32, i32t) = (CUDA_R_32F as i32, I32 as i32);
    for sample in ["spmv_csr", "spmv_coo", "spmv_sell"] {
        let y_buf = DevBuf::from_slice(&[0.0f32; 4]);
        unsafe {
            let (mut a, mut x, mut y) = (null(), null(), null_mut());
            let s = match sample {
                "spmv_csr" => {
                    oxsparseCreateConstCsr(&mut a, 4, 4, 9, offsets.ptr as _, columns.ptr as _, values.ptr as _, i32t, i32t, 0, r32)
                }
                "spmv_coo" => oxsparseCreateConstCoo(&mut a, 4, 4, 9, rows.ptr as _, columns.ptr as _, values.ptr as _, i32t, 0, r32),
                _ => oxsparseCreateConstSlicedEll(
                    &mut a,
                    4,
                    4,
                    9,
                    12,
                    2,
                    slice_offsets.ptr as _,
                    sell_columns.ptr as _,
                    sell_values.ptr as _,
                    i32t,
                    i32t,
                    0,
                    r32,
                ),
            };
            assert_eq!(s, OK, "{sample}: creating A");
            assert_eq!(oxsparseCreateConstDnVec(&mut x, 4, x_buf.ptr as _, r32), OK);
            assert_eq!(oxsparseCreateDnVec(&mut y, 4, y_buf.ptr as _, r32), OK);
            let p = |v: &f32| v as *const f32 as *const c_void;
            let mut size = usize::MAX;
            assert_eq!(oxsparseSpMV_bufferSize(h.0, 0, p(&alpha), a, x, p(&beta), y, r32, 0, &mut size), OK, "{sample}");
            // As the samples do: cudaMalloc of exactly that size (NULL for 0).
            let buffer = (size > 0).then(|| DevBuf::zeroed(size));
            if sample == "spmv_csr" {
                assert_eq!(oxsparseSpMV_preprocess(h.0, 0, p(&alpha), a, x, p(&beta), y, r32, 0, ws_ptr(&buffer)), OK, "{sample}");
            }
            assert_eq!(oxsparseSpMV(h.0, 0, p(&alpha), a, x, p(&beta), y, r32, 0, ws_ptr(&buffer)), OK, "{sample}");
            assert_eq!(y_buf.to_vec::<f32>(), [19.0, 8.0, 51.0, 52.0], "{sample}");
            oxsparseDestroySpMat(a);
            oxsparseDestroyDnVec(x);
            oxsparseDestroyDnVec(y);
        }
    }
}

/// The status fixture with SpMV's vectors: X over the same zeros, Y over a poisoned buffer.
pub type Fixture = StatusFixture<DnVecs>;

/// Dense vector descriptors, destroyed on drop, and the buffer of the Y vectors.
pub struct DnVecs {
    ys: DevBuf,
    pub vecs: Vec<oxsparseDnVecDescr_t>,
}

impl Drop for DnVecs {
    fn drop(&mut self) {
        for &d in &self.vecs {
            unsafe { oxsparseDestroyDnVec(d) };
        }
    }
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture::with(DnVecs { ys: DevBuf::zeroed(4096), vecs: vec![] })
    }
    /// An X vector of zeros.
    pub fn x(&mut self, size: i64, vt: DataType) -> oxsparseDnVecDescr_t {
        self.vec(size, vt, self.z())
    }
    /// A Y vector over the poisoned buffer.
    pub fn y(&mut self, size: i64, vt: DataType) -> oxsparseDnVecDescr_t {
        self.vec(size, vt, self.dense.ys.ptr as *mut c_void)
    }
    fn vec(&mut self, size: i64, vt: DataType, at: *mut c_void) -> oxsparseDnVecDescr_t {
        let mut d = null_mut();
        assert_eq!(unsafe { oxsparseCreateDnVec(&mut d, size, at, vt as i32) }, OK);
        self.dense.vecs.push(d);
        d
    }
    pub fn args(&self, a: oxsparseSpMatDescr_t, x: oxsparseDnVecDescr_t, y: oxsparseDnVecDescr_t, compute: DataType) -> Args {
        let s = ZERO_SCALAR.as_ptr() as *const c_void;
        Args { op: 0, alpha: s, a, x, beta: s, y, compute: compute as i32, alg: 0 }
    }
    /// All three calls answer `want`; a refused call leaves bufferSize's output and Y alone.
    pub fn expect(&mut self, what: &str, args: Args, want: Status) {
        let mut size = 4242usize;
        let ws = self.ws.ptr as *mut c_void;
        self.dense.ys.poison(0xFF);
        let got = unsafe { [args.buffer_size(&self.h, &mut size), args.preprocess(&self.h, ws), args.spmv(&self.h, ws)] };
        for (call, s) in ["bufferSize", "preprocess", "SpMV"].iter().zip(got) {
            if s != want as i32 {
                self.failures.push(format!("{what}: {call} returned {}, want {}", status_name(s), want.name()));
            }
        }
        if want != OXSPARSE_STATUS_SUCCESS {
            if size != 4242 {
                self.failures.push(format!("{what}: a refused bufferSize wrote {size}"));
            }
            if self.dense.ys.to_vec::<u8>().iter().any(|&b| b != 0xFF) {
                self.failures.push(format!("{what}: a refused call wrote Y"));
            }
        }
        if want == OXSPARSE_STATUS_SUCCESS && size > self.ws.bytes {
            self.failures.push(format!("{what}: bufferSize {size} for a 4 x 6 problem"));
        }
    }
}
