//! SpMV and SpMM captured into a CUDA graph once and replayed many times with new values of A (the
//! preprocess contract under capture, as a solver or a training loop that graphs its step uses it).
//! A captured launch keeps its parameters, so every replay carries the same epoch: the tile
//! kernels' look-back must not take a flag left by the previous replay for one of this replay's
//! (it did, and read that replay's partial sums: wrong rows where rows cross tiles).
//! Capture mode global: its own test binary.

mod common;

use common::hubs::{Problem, SETS};
use common::{gpu, DevBuf};
use cudarc::driver::{result as cu, sys};
use oxsparse::ffi::handle::*;
use oxsparse::ffi::*;
use oxsparse::types::Status;
use std::ffi::c_void;
use std::ptr::null_mut;

const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;

/// Captures one SpMV (w == 1) or SpMM call after an optional preprocess, then replays it with
/// each value set in turn; returns the wrong elements over all replays.
unsafe fn captured_replays(p: &Problem, preprocess: bool, replays: usize) -> usize {
    let stream = cu::stream::create(cu::stream::StreamKind::Default).unwrap();
    let mut h: oxsparseHandle_t = null_mut();
    assert_eq!(oxsparseCreate(&mut h), OK);
    assert_eq!(oxsparseSetStream(h, stream as cudaStream_t), OK);
    let d = p.on_device(h);
    let ws = DevBuf::poisoned(d.size, 0xFF);
    let ws_ptr = ws.ptr as *mut c_void;
    if preprocess {
        assert_eq!(d.preprocess(0, ws_ptr), OK);
    }
    // Kernels loaded outside the capture.
    assert_eq!(d.call(ws_ptr), OK);
    cu::stream::synchronize(stream).unwrap();
    cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
    let captured = d.call(ws_ptr);
    let graph = cu::stream::end_capture(stream).unwrap();
    assert_eq!(captured, OK, "the captured call");
    let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
    let mut wrong = 0;
    for r in 0..replays {
        let s = r % SETS;
        cu::memcpy_htod_async(d.a_arrays[2].ptr, &p.values[s][..], stream).unwrap();
        cu::stream::synchronize(stream).unwrap();
        d.out.poison(0xFF);
        cu::graph::launch(exec, stream).unwrap();
        cu::stream::synchronize(stream).unwrap();
        wrong += p.wrong(s, &d.out.to_vec::<f32>());
    }
    cu::graph::exec_destroy(exec).unwrap();
    cu::graph::destroy(graph).unwrap();
    d.destroy();
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
