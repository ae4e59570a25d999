//! The C path on NVIDIA's CUDALibrarySamples data (exact results), and a NULL handle.

use super::harness::*;
use super::*;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::sddmm::*;
use oxsparse::types::DataType::*;
use oxsparse::types::Status::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

/// sddmm_csr: A 4 x 4 row-major 1..16, B 4 x 3 1..12 (row-major in the sample, which the library
/// copies; column-major too, read in place), C 4 x 3 CSR with 9 entries, alpha 1, beta 0:
/// bufferSize, a buffer of exactly that size (NULL for 0, as cudaMalloc(0) gives), preprocess,
/// SDDMM. The sample compares with exact float equality; C starts as NaN here (beta == 0).
#[test]
fn cuda_library_samples_sddmm_csr() {
    let Some(_gpu) = gpu("sddmm CUDALibrarySamples sddmm_csr") else { return };
    let h = CHandle::new();
    let a_buf = DevBuf::from_slice(&(1..=16).map(|v| v as f32).collect::<Vec<_>>());
    let b_rows: Vec<f32> = (1..=12).map(|v| v as f32).collect();
    let b_cols: Vec<f32> = (0..12).map(|i| b_rows[(i % 4) * 3 + i / 4]).collect();
    let offsets = DevBuf::from_slice(&[0i32, 3, 4, 7, 9]);
    let columns = DevBuf::from_slice(&[0i32, 1, 2, 1, 0, 1, 2, 0, 2]);
    let want = [70.0f32, 80.0, 90.0, 184.0, 246.0, 288.0, 330.0, 334.0, 450.0];
    let (alpha, beta) = (1.0f32, 0.0f32);
    let p = |x: &f32| x as *const f32 as *const c_void;
    let (r32, i32t) = (CUDA_R_32F as i32, I32 as i32);
    for (b_host, order, ld) in [(&b_rows, ROW, 3), (&b_cols, COL, 4)] {
        let b_buf = DevBuf::from_slice(b_host);
        let values = DevBuf::poisoned(9 * 4, 0xFF);
        unsafe {
            let (mut a, mut b, mut c) = (null_mut(), null_mut(), null_mut());
            assert_eq!(oxsparseCreateDnMat(&mut a, 4, 4, 4, a_buf.ptr as _, r32, ROW as i32), OK);
            assert_eq!(oxsparseCreateDnMat(&mut b, 4, 3, ld, b_buf.ptr as _, r32, order as i32), OK);
            assert_eq!(oxsparseCreateCsr(&mut c, 4, 3, 9, offsets.ptr as _, columns.ptr as _, values.ptr as _, i32t, i32t, 0, r32), OK);
            let mut size = usize::MAX;
            assert_eq!(oxsparseSDDMM_bufferSize(h.0, 0, 0, p(&alpha), a, b, p(&beta), c, r32, 0, &mut size), OK);
            assert_eq!(size == 0, order == COL, "bufferSize {size} with B {order:?}: a copy exactly when B is row-major");
            let buffer = (size > 0).then(|| DevBuf::zeroed(size));
            assert_eq!(oxsparseSDDMM_preprocess(h.0, 0, 0, p(&alpha), a, b, p(&beta), c, r32, 0, ws_ptr(&buffer)), OK);
            assert_eq!(oxsparseSDDMM(h.0, 0, 0, p(&alpha), a, b, p(&beta), c, r32, 0, ws_ptr(&buffer)), OK);
            assert_eq!(values.to_vec::<f32>(), want, "B {order:?}");
            assert_eq!(oxsparseDestroyDnMat(a), OK);
            assert_eq!(oxsparseDestroyDnMat(b), OK);
            assert_eq!(oxsparseDestroySpMat(c), OK);
        }
    }
}

/// A NULL handle is NOT_INITIALIZED for the three calls whatever else is wrong, and bufferSize's
/// output is left alone. Descriptors need no GPU: their pointers are only recorded.
#[test]
fn null_handle_is_not_initialized() {
    static ZERO_SCALAR: [u64; 2] = [0, 0];
    let fake = 0x1000 as *mut c_void;
    let (mut a, mut b, mut c) = (null_mut(), null_mut(), null_mut());
    unsafe {
        assert_eq!(oxsparseCreateDnMat(&mut a, 4, 5, 5, fake, CUDA_R_32F as i32, ROW as i32), OK);
        assert_eq!(oxsparseCreateDnMat(&mut b, 5, 6, 5, fake, CUDA_R_32F as i32, COL as i32), OK);
        assert_eq!(oxsparseCreateCsr(&mut c, 4, 6, 4, fake, fake, fake, I32 as i32, I32 as i32, 0, CUDA_R_32F as i32), OK);
        let s = ZERO_SCALAR.as_ptr() as *const c_void;
        let args = Args { op_a: 0, op_b: 0, alpha: s, a, b, beta: s, c, compute: CUDA_R_32F as i32, alg: 0 };
        let none = std::mem::ManuallyDrop::new(CHandle(null_mut()));
        let ni = OXSPARSE_STATUS_NOT_INITIALIZED as i32;
        for (what, args) in [
            ("valid arguments", args),
            ("every argument NULL", Args { a: null(), b: null(), c: null_mut(), alpha: null(), beta: null(), ..args }),
        ] {
            let mut size = 77usize;
            assert_eq!(args.buffer_size(&none, &mut size), ni, "bufferSize, {what}");
            assert_eq!(args.preprocess(&none, fake), ni, "preprocess, {what}");
            assert_eq!(args.sddmm(&none, fake), ni, "SDDMM, {what}");
            assert_eq!(size, 77, "bufferSize written on failure ({what})");
        }
        assert_eq!(oxsparseDestroyDnMat(a), OK);
        assert_eq!(oxsparseDestroyDnMat(b), OK);
        assert_eq!(oxsparseDestroySpMat(c), OK);
    }
}
