//! "Safe to use from many threads with one handle per thread": eight threads, each with its own
//! handle and its own stream, run Scatter and SparseToDense many times through the C ABI at once;
//! every result is checked against a CPU reference made for that thread's own random data.

mod common;

use common::{gpu, DevBuf, Rng};
use cudarc::driver::{result, sys};
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::sparse_to_dense::*;
use oxsparse::ffi::vector_ops::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType::CUDA_R_32F, Status::OXSPARSE_STATUS_SUCCESS};
use std::ptr::null_mut;

const OK: i32 = OXSPARSE_STATUS_SUCCESS as i32;
const THREADS: u64 = 8;
const ROUNDS: usize = 25;

/// One thread's work: a rows x cols CSR with random pattern and values, converted to a row-major
/// dense matrix, and its values scattered into a dense vector, ROUNDS times on a private stream.
fn worker(seed: u64) {
    let mut rng = Rng::new(seed);
    let (rows, cols) = (40 + rng.below(60) as i64, 30 + rng.below(50) as i64);
    let mut offsets = vec![0i32];
    let (mut col_ind, mut values) = (Vec::new(), Vec::new());
    for _ in 0..rows {
        let k = rng.below(cols as u64 / 2) as usize;
        for c in rng.distinct(cols as u64, k) {
            col_ind.push(c as i32);
            values.push(rng.value() as f32);
        }
        offsets.push(col_ind.len() as i32);
    }
    let nnz = values.len() as i64;
    let mut expect = vec![0f32; (rows * cols) as usize];
    for r in 0..rows as usize {
        for k in offsets[r] as usize..offsets[r + 1] as usize {
            expect[r * cols as usize + col_ind[k] as usize] = values[k];
        }
    }
    // Scatter: values of the first row's worth of entries into a vector of `cols` slots.
    let scatter_n = offsets[1] as i64;
    let mut expect_vec = vec![0f32; cols as usize];
    for k in 0..scatter_n as usize {
        expect_vec[col_ind[k] as usize] = values[k];
    }

    let (d_off, d_col, d_val) = (DevBuf::from_slice(&offsets), DevBuf::from_slice(&col_ind), DevBuf::from_slice(&values));
    let dense = DevBuf::zeroed((rows * cols) as usize * 4);
    let vec_y = DevBuf::zeroed(cols as usize * 4);
    unsafe {
        let stream = result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream");
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        assert_eq!(oxsparseSetStream(h, stream as cudaStream_t), OK);
        let (mut a, mut b) = (null_mut(), null_mut());
        assert_eq!(
            oxsparseCreateCsr(&mut a, rows, cols, nnz, d_off.ptr as _, d_col.ptr as _, d_val.ptr as _, 2, 2, 0, CUDA_R_32F as i32),
            OK
        );
        assert_eq!(oxsparseCreateDnMat(&mut b, rows, cols, cols, dense.ptr as _, CUDA_R_32F as i32, 2), OK);
        let (mut x, mut y) = (null_mut(), null_mut());
        assert_eq!(oxsparseCreateSpVec(&mut x, cols, scatter_n, d_col.ptr as _, d_val.ptr as _, 2, 0, CUDA_R_32F as i32), OK);
        assert_eq!(oxsparseCreateDnVec(&mut y, cols, vec_y.ptr as _, CUDA_R_32F as i32), OK);
        for round in 0..ROUNDS {
            dense.poison(0xFF);
            vec_y.poison(0);
            assert_eq!(oxsparseSparseToDense(h, a, b, 0, null_mut()), OK);
            assert_eq!(oxsparseScatter(h, x, y), OK);
            result::stream::synchronize(stream).expect("kernel failed");
            assert_eq!(dense.to_vec::<f32>(), expect, "thread {seed} round {round}: SparseToDense");
            assert_eq!(vec_y.to_vec::<f32>(), expect_vec, "thread {seed} round {round}: Scatter");
        }
        assert_eq!(oxsparseDestroySpMat(a), OK);
        assert_eq!(oxsparseDestroyDnMat(b), OK);
        assert_eq!(oxsparseDestroySpVec(x), OK);
        assert_eq!(oxsparseDestroyDnVec(y), OK);
        assert_eq!(oxsparseDestroy(h), OK);
        result::stream::destroy(stream as sys::CUstream).expect("stream destroy");
    }
}

#[test]
fn one_handle_per_thread_in_parallel() {
    let Some(_h) = gpu("one handle per thread") else { return };
    // Threads need the context current to allocate; the handle created above keeps it alive.
    let ctx = result::ctx::get_current().expect("ctx").expect("a current context");
    let ctx = ctx as usize;
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            std::thread::spawn(move || {
                unsafe { result::ctx::set_current(ctx as sys::CUcontext) }.expect("set ctx");
                worker(1000 + t)
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a worker thread failed");
    }
}
