//! SpVV with a host result inside CUDA graph capture, as NVIDIA's graph_capture sample does it
//! (size = nnz = 65536, R_32F, capture mode global, a blocking stream). Its own test binary: global
//! capture forbids CUDA calls from every other thread, so nothing else may run in this process.

mod common;

use common::{gpu, DevBuf, Rng};
use cudarc::driver::{result as cu, sys};
use oxsparse::descr::{DnVec, SpVec};
use oxsparse::ops::vector_ops as ops;
use oxsparse::reference::vector_ops as reference;
use oxsparse::types::{DataType::CUDA_R_32F, IndexBase, IndexType, Operation};
use std::ffi::c_void;

/// The call must not wait (that would invalidate the capture); running the graph writes the result.
#[test]
fn spvv_host_result_under_graph_capture() {
    let Some(h) = gpu("spvv_host_result_under_graph_capture") else { return };
    let mut h = h;
    let n = 65_536usize;
    let mut rng = Rng::new(11);
    let indices: Vec<i32> = rng.distinct(n as u64, n).into_iter().map(|i| i as i32).collect();
    let x: Vec<f32> = (0..n).map(|_| rng.value() as f32).collect();
    let y: Vec<f32> = (0..n).map(|_| rng.value() as f32).collect();
    let (indices_dev, x_dev, y_dev) = (DevBuf::from_slice(&indices), DevBuf::from_slice(&x), DevBuf::from_slice(&y));
    let spvec = SpVec::new(
        n as i64,
        n as i64,
        indices_dev.ptr,
        x_dev.ptr,
        IndexType::OXSPARSE_INDEX_32I,
        IndexBase::OXSPARSE_INDEX_BASE_ZERO,
        CUDA_R_32F,
    )
    .unwrap();
    let dnvec = DnVec::new(n as i64, y_dev.ptr, CUDA_R_32F).unwrap();
    let op = Operation::OXSPARSE_OPERATION_NON_TRANSPOSE;

    let mut slot = Box::new(f32::NAN);
    let out: *mut f32 = &mut *slot;
    let result = out as *mut c_void;
    let buffer = DevBuf::zeroed(ops::spvv_buffer_size(op, &spvec, &dnvec, result, CUDA_R_32F).unwrap());
    unsafe {
        let stream = cu::stream::create(cu::stream::StreamKind::Default).unwrap();
        h.set_stream(stream as usize).unwrap();
        // A first call outside capture, as the sample makes (the kernels get loaded here).
        ops::spvv(&h, op, &spvec, &dnvec, result, CUDA_R_32F, buffer.ptr).unwrap();
        *out = f32::NAN;
        cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
        let captured = ops::spvv(&h, op, &spvec, &dnvec, result, CUDA_R_32F, buffer.ptr);
        let graph = cu::stream::end_capture(stream);
        captured.unwrap();
        let graph = graph.expect("the capture was invalidated");
        let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
        cu::graph::launch(exec, stream).unwrap();
        cu::stream::synchronize(stream).unwrap();

        let idx: Vec<i64> = indices.iter().map(|&i| i as i64).collect();
        let xs: Vec<(f64, f64)> = x.iter().map(|&v| (v as f64, 0.0)).collect();
        let ys: Vec<(f64, f64)> = y.iter().map(|&v| (v as f64, 0.0)).collect();
        let want = reference::spvv(false, &idx, 0, &xs, &ys).0;
        let mag: f64 = (0..n).map(|i| (x[i] as f64 * y[indices[i] as usize] as f64).abs()).sum();
        let got = *out as f64;
        assert!((got - want).abs() <= 32.0 * 2f64.powi(-24) * mag, "graph wrote {got}, want {want}");

        h.set_stream(0).unwrap();
        cu::graph::exec_destroy(exec).unwrap();
        cu::graph::destroy(graph).unwrap();
        cu::stream::destroy(stream).unwrap();
    }
}
