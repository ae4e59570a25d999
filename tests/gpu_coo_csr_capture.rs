//! coo2csr, then csr2coo of its offsets, then the identity permutation, captured on the handle's
//! stream into one CUDA graph and replayed with new row indices: the calls must enqueue on that
//! stream and nothing else (a launch elsewhere, or a wait, would invalidate the capture), and each
//! replay must convert the rows it finds. A blocking stream, so that the tests' memsets on the
//! legacy stream stay ordered with it. Capture mode global: its own test binary.

mod common;

use common::{gpu, DevBuf, Rng};
use cudarc::driver::{result as cu, sys};
use oxsparse::ffi::coo_csr::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::{cudaStream_t, oxsparseHandle_t};
use oxsparse::reference::coo_csr as reference;
use oxsparse::types::Status;
use std::os::raw::c_int;
use std::ptr::null_mut;

const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;

/// `nnz` sorted one-based row indices of `m` rows, with a hub row when `hub`.
fn rows(rng: &mut Rng, m: usize, nnz: usize, hub: bool) -> Vec<i32> {
    let mut r: Vec<i32> = (0..nnz).map(|i| if hub && i % 3 == 0 { m as i32 / 2 } else { rng.below(m as u64) as i32 }).collect();
    r.sort_unstable();
    r.iter().map(|x| x + 1).collect()
}

#[test]
fn captured_conversions_replay_with_new_rows() {
    let Some(_gpu) = gpu("coo2csr / csr2coo under graph capture") else { return };
    let (m, nnz) = (50_001usize, 400_003usize);
    let mut rng = Rng::new(0x5eed);
    unsafe {
        let stream = cu::stream::create(cu::stream::StreamKind::Default).unwrap();
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        assert_eq!(oxsparseSetStream(h, stream as cudaStream_t), OK);
        let rows_in = DevBuf::zeroed(nnz * 4);
        let (offsets, back, perm) = (DevBuf::zeroed((m + 1) * 4), DevBuf::zeroed(nnz * 4), DevBuf::zeroed(nnz * 4));
        let calls = || {
            let a = oxsparseXcoo2csr(h, rows_in.ptr as *const c_int, nnz as c_int, m as c_int, offsets.ptr as *mut c_int, 1);
            let b = oxsparseXcsr2coo(h, offsets.ptr as *const c_int, nnz as c_int, m as c_int, back.ptr as *mut c_int, 1);
            let c = oxsparseCreateIdentityPermutation(h, nnz as c_int, perm.ptr as *mut c_int);
            [a, b, c]
        };
        // Kernels loaded outside the capture.
        assert_eq!(calls(), [OK; 3]);
        cu::stream::synchronize(stream).unwrap();
        cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
        let captured = calls();
        let graph = cu::stream::end_capture(stream);
        assert_eq!(captured, [OK; 3], "the captured calls");
        let graph = graph.expect("the capture was invalidated");
        let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
        for replay in 0..4 {
            let want_rows = rows(&mut rng, m, nnz, replay % 2 == 1);
            cu::memcpy_htod_async(rows_in.ptr, &want_rows[..], stream).unwrap();
            cu::stream::synchronize(stream).unwrap();
            for b in [&offsets, &back, &perm] {
                b.poison(0xFF);
            }
            cu::graph::launch(exec, stream).unwrap();
            cu::stream::synchronize(stream).unwrap();
            assert_eq!(offsets.to_vec::<i32>(), reference::coo2csr(&want_rows, m, 1), "replay {replay}: coo2csr");
            assert_eq!(back.to_vec::<i32>(), want_rows, "replay {replay}: csr2coo of coo2csr");
            assert_eq!(perm.to_vec::<i32>(), reference::identity(nnz), "replay {replay}: permutation");
        }
        cu::graph::exec_destroy(exec).unwrap();
        cu::graph::destroy(graph).unwrap();
        assert_eq!(oxsparseDestroy(h), OK);
        cu::stream::destroy(stream).unwrap();
    }
}
