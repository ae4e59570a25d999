//! SpMV and SpMM captured into a CUDA graph once and replayed many times with new values of A (the
//! preprocess contract under capture, as a solver or a training loop that graphs its step uses it).
//! A captured launch keeps its parameters, so every replay carries the same epoch: the tile
//! kernels' look-back must not take a flag left by the previous replay for one of this replay's
//! (it did, and read that replay's partial sums: wrong rows where rows cross tiles).
//! Capture mode global: its own test binary.

mod common;

use common::{gpu, DevBuf};
use cudarc::driver::{result as cu, sys};
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::spmm::*;
use oxsparse::ffi::spmv::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType::CUDA_R_32F, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;
use common::hubs::{Problem, SETS};

/// Captures one SpMV (w == 1) or SpMM call after an optional preprocess, then replays it with
/// each value set in turn; returns the wrong elements over all replays.
unsafe fn captured_replays(p: &Problem, preprocess: bool, replays: usize) -> usize {
    let stream = cu::stream::create(cu::stream::StreamKind::Default).unwrap();
    let (off, ind, val) = (DevBuf::from_slice(&p.offsets), DevBuf::from_slice(&p.cols), DevBuf::from_slice(&p.values[0]));
    let (b, out) = (DevBuf::from_slice(&p.b), DevBuf::zeroed(p.n * p.w * 4));
    let (n, w, nnz, f32t) = (p.n as i64, p.w as i64, p.cols.len() as i64, CUDA_R_32F as i32);
    let mut h: oxsparseHandle_t = null_mut();
    assert_eq!(oxsparseCreate(&mut h), OK);
    assert_eq!(oxsparseSetStream(h, stream as cudaStream_t), OK);
    let mut a = null_mut();
    let ptr = |d: &DevBuf| d.ptr as *mut c_void;
    assert_eq!(oxsparseCreateCsr(&mut a, n, n, nnz, ptr(&off), ptr(&ind), ptr(&val), 2, 2, 0, f32t), OK);
    let (alpha, beta) = (1.0f32, 0.0f32);
    let (al, be) = (&alpha as *const f32 as *const c_void, &beta as *const f32 as *const c_void);
    let (mut bd, mut cd, mut xd, mut yd) = (null_mut(), null_mut(), null_mut(), null_mut());
    let mut size = 0usize;
    if p.w > 1 {
        assert_eq!(oxsparseCreateDnMat(&mut bd, n, w, w, ptr(&b), f32t, 2), OK);
        assert_eq!(oxsparseCreateDnMat(&mut cd, n, w, w, ptr(&out), f32t, 2), OK);
        assert_eq!(oxsparseSpMM_bufferSize(h, 0, 0, al, a, bd, be, cd, f32t, 0, &mut size), OK);
    } else {
        assert_eq!(oxsparseCreateDnVec(&mut xd, n, ptr(&b), f32t), OK);
        assert_eq!(oxsparseCreateDnVec(&mut yd, n, ptr(&out), f32t), OK);
        assert_eq!(oxsparseSpMV_bufferSize(h, 0, al, a, xd, be, yd, f32t, 0, &mut size), OK);
    }
    let ws = DevBuf::zeroed(size);
    ws.poison(0xFF);
    let call = || {
        if p.w > 1 {
            oxsparseSpMM(h, 0, 0, al, a, bd, be, cd, f32t, 0, ptr(&ws))
        } else {
            oxsparseSpMV(h, 0, al, a, xd, be, yd, f32t, 0, ptr(&ws))
        }
    };
    if preprocess {
        let s = if p.w > 1 {
            oxsparseSpMM_preprocess(h, 0, 0, al, a, bd, be, cd, f32t, 0, ptr(&ws))
        } else {
            oxsparseSpMV_preprocess(h, 0, al, a, xd, be, yd, f32t, 0, ptr(&ws))
        };
        assert_eq!(s, OK);
    }
    // Kernels loaded outside the capture.
    assert_eq!(call(), OK);
    cu::stream::synchronize(stream).unwrap();
    cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
    let captured = call();
    let graph = cu::stream::end_capture(stream).unwrap();
    assert_eq!(captured, OK, "the captured call");
    let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
    let mut wrong = 0;
    for r in 0..replays {
        let s = r % SETS;
        cu::memcpy_htod_async(val.ptr, &p.values[s][..], stream).unwrap();
        cu::stream::synchronize(stream).unwrap();
        out.poison(0xFF);
        cu::graph::launch(exec, stream).unwrap();
        cu::stream::synchronize(stream).unwrap();
        wrong += p.wrong(s, &out.to_vec::<f32>());
    }
    cu::graph::exec_destroy(exec).unwrap();
    cu::graph::destroy(graph).unwrap();
    for d in [bd, cd] {
        if !d.is_null() {
            assert_eq!(oxsparseDestroyDnMat(d), OK);
        }
    }
    for d in [xd, yd] {
        if !d.is_null() {
            assert_eq!(oxsparseDestroyDnVec(d), OK);
        }
    }
    assert_eq!(oxsparseDestroySpMat(a), OK);
    assert_eq!(oxsparseDestroy(h), OK);
    cu::stream::destroy(stream).unwrap();
    wrong
}

#[test]
fn captured_calls_replayed_with_new_values_stay_right() {
    let Some(_gpu) = gpu("captured SpMV and SpMM replayed with new values") else { return };
    let mut failures = Vec::new();
    let mut cases = 0;
    for (w, what) in [(1, "SpMV"), (32, "SpMM N = 32"), (128, "SpMM N = 128")] {
        for (seed, n) in [(1u64, 8192usize), (2, 20000)] {
            let p = Problem::new(n, w, seed);
            for preprocess in [false, true] {
                cases += 1;
                let wrong = unsafe { captured_replays(&p, preprocess, 9) };
                if wrong > 0 {
                    failures.push(format!("{what}, {n} rows, preprocess {preprocess}: {wrong} wrong over 9 replays"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("captured calls replayed with new values: {cases} cases x 9 replays right");
}
