//! DenseToSparse under stream capture: `_analysis` hands nnz to the host, so while the handle's
//! stream is captured it is refused with NOT_SUPPORTED and enqueues nothing (the captured graph is
//! empty, the offsets untouched); `_convert` waits for nothing and is captured and replayed like
//! any other call. Capture mode global: its own test binary.

mod common;

use common::{gpu, DevBuf};
use cudarc::driver::{result as cu, sys};
use oxsparse::ffi::dense_to_sparse::*;
use oxsparse::ffi::descr_dense::{oxsparseCreateDnMat, oxsparseDestroyDnMat};
use oxsparse::ffi::descr_sparse::{oxsparseCreateCsr, oxsparseDestroySpMat};
use oxsparse::ffi::descr_sparse_access::{oxsparseCsrSetPointers, oxsparseSpMatGetSize};
use oxsparse::ffi::handle::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType, IndexType, Order, Status};
use std::ptr::null_mut;

const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;

#[test]
fn analysis_is_refused_under_capture_and_convert_replays() {
    let Some(_h) = gpu("dense_to_sparse capture") else { return };
    // A = [[1, 0, 2], [0, 0, 3]], row-major.
    let abuf = DevBuf::from_slice(&[1.0f32, 0.0, 2.0, 0.0, 0.0, 3.0]);
    let offsets = DevBuf::poisoned(3 * 4, 0xFF);
    let columns = DevBuf::poisoned(3 * 4, 0xFF);
    let values = DevBuf::poisoned(3 * 4, 0xFF);
    let i32t = IndexType::OXSPARSE_INDEX_32I as i32;
    let f32t = DataType::CUDA_R_32F as i32;
    unsafe {
        let stream = cu::stream::create(cu::stream::StreamKind::NonBlocking).unwrap();
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        assert_eq!(oxsparseSetStream(h, stream as cudaStream_t), OK);
        let mut a: oxsparseDnMatDescr_t = null_mut();
        assert_eq!(oxsparseCreateDnMat(&mut a, 2, 3, 3, abuf.ptr as _, f32t, Order::OXSPARSE_ORDER_ROW as i32), OK);
        let mut b: oxsparseSpMatDescr_t = null_mut();
        assert_eq!(oxsparseCreateCsr(&mut b, 2, 3, 0, offsets.ptr as _, null_mut(), null_mut(), i32t, i32t, 0, f32t), OK);
        let mut size = 0usize;
        assert_eq!(oxsparseDenseToSparse_bufferSize(h, a, b, 0, &mut size), OK);
        let ws = DevBuf::zeroed(size.max(1));

        cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
        let refused = oxsparseDenseToSparse_analysis(h, a, b, 0, ws.ptr as _);
        let graph = cu::stream::end_capture(stream).unwrap();
        assert_eq!(refused, Status::OXSPARSE_STATUS_NOT_SUPPORTED as i32, "analysis under capture");
        let mut nodes = 0usize;
        let r = sys::cuGraphGetNodes(graph, null_mut(), &mut nodes);
        assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
        assert_eq!(nodes, 0, "the refused analysis enqueued work");
        cu::graph::destroy(graph).unwrap();
        assert!(offsets.to_vec::<u8>().iter().all(|&x| x == 0xFF), "the refused analysis wrote the offsets");
        let (mut r, mut c, mut nnz) = (0i64, 0i64, -1i64);
        assert_eq!(oxsparseSpMatGetSize(b, &mut r, &mut c, &mut nnz), OK);
        assert_eq!(nnz, 0, "the refused analysis set nnz");

        // Outside capture: analysis, then the convert captured once and replayed twice.
        assert_eq!(oxsparseDenseToSparse_analysis(h, a, b, 0, ws.ptr as _), OK);
        assert_eq!(oxsparseSpMatGetSize(b, &mut r, &mut c, &mut nnz), OK);
        assert_eq!(nnz, 3);
        assert_eq!(oxsparseCsrSetPointers(b, offsets.ptr as _, columns.ptr as _, values.ptr as _), OK);
        assert_eq!(oxsparseDenseToSparse_convert(h, a, b, 0, ws.ptr as _), OK, "kernels loaded outside the capture");
        cu::stream::synchronize(stream).unwrap();
        cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
        let captured = oxsparseDenseToSparse_convert(h, a, b, 0, ws.ptr as _);
        let graph = cu::stream::end_capture(stream).unwrap();
        assert_eq!(captured, OK, "convert under capture");
        let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
        for _ in 0..2 {
            columns.poison(0xFF);
            values.poison(0xFF);
            cu::graph::launch(exec, stream).unwrap();
            cu::stream::synchronize(stream).unwrap();
            assert_eq!(offsets.to_vec::<i32>(), [0, 2, 3]);
            assert_eq!(columns.to_vec::<i32>(), [0, 2, 2]);
            assert_eq!(values.to_vec::<f32>(), [1.0, 2.0, 3.0]);
        }
        cu::graph::exec_destroy(exec).unwrap();
        cu::graph::destroy(graph).unwrap();
        assert_eq!(oxsparseDestroySpMat(b), OK);
        assert_eq!(oxsparseDestroyDnMat(a), OK);
        assert_eq!(oxsparseDestroy(h), OK);
        cu::stream::destroy(stream).unwrap();
    }
}
