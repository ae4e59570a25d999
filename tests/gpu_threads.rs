//! "Safe to use from many threads with one handle per thread": eight threads, each with its own
//! handle and its own stream, run Scatter and SparseToDense many times through the C ABI at once;
//! every result is checked against a CPU reference made for that thread's own random data. Then
//! sixteen threads run SpMM and SpMV over one shared read-only matrix, bitwise as one thread does.

mod common;

use common::descr::{csr_f32, dn_mat_f32, dn_vec_f32, F32};
use common::gen::random_csr;
use common::hubs::hub;
use common::{gpu, DevBuf, Rng};
use cudarc::driver::{result, sys};
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::sparse_to_dense::*;
use oxsparse::ffi::spmm::*;
use oxsparse::ffi::spmv::*;
use oxsparse::ffi::vector_ops::*;
use oxsparse::ffi::*;
use oxsparse::types::Status::OXSPARSE_STATUS_SUCCESS;
use std::ptr::null_mut;

const OK: i32 = OXSPARSE_STATUS_SUCCESS as i32;
const THREADS: u64 = 8;
const ROUNDS: usize = 25;

/// One thread's work: a rows x cols CSR with random pattern and values, converted to a row-major
/// dense matrix, and its values scattered into a dense vector, ROUNDS times on a private stream.
fn worker(seed: u64) {
    let mut rng = Rng::new(seed);
    let (rows, cols) = (40 + rng.below(60) as i64, 30 + rng.below(50) as i64);
    let csr = random_csr(&mut rng, (rows as usize, cols as usize), |rng, _| rng.below(cols as u64 / 2), true);
    let nnz = csr.nnz() as i64;
    let expect = csr.dense();
    // Scatter: values of the first row's worth of entries into a vector of `cols` slots.
    let scatter_n = csr.offsets[1] as i64;
    let mut expect_vec = vec![0f32; cols as usize];
    for k in 0..scatter_n as usize {
        expect_vec[csr.indices[k] as usize] = csr.values[k];
    }

    let arrays = csr.upload();
    let (d_col, d_val) = (&arrays[1], &arrays[2]);
    let dense = DevBuf::zeroed((rows * cols) as usize * 4);
    let vec_y = DevBuf::zeroed(cols as usize * 4);
    unsafe {
        let stream = result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream");
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        assert_eq!(oxsparseSetStream(h, stream as cudaStream_t), OK);
        let (a, b) = (csr_f32(rows, cols, nnz, &arrays), dn_mat_f32(rows, cols, &dense));
        let mut x = null_mut();
        assert_eq!(oxsparseCreateSpVec(&mut x, cols, scatter_n, d_col.ptr as _, d_val.ptr as _, 2, 0, F32), OK);
        let y = dn_vec_f32(cols, &vec_y);
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

/// The SpMM and SpMV results one thread gets for `seed`'s operands over the shared A (plain calls
/// on the shared descriptor, then preprocessed calls on a descriptor of the thread's own over the
/// same arrays), on a handle and stream of its own: C, y, C preprocessed, y preprocessed.
struct SharedA {
    rows: i64,
    cols: i64,
    nnz: i64,
    arrays: [DevBuf; 3],
    /// The descriptor every thread's plain calls share (a const matrix, as cuSPARSE allows).
    descr: usize,
}

const N: i64 = 32;

fn products(a: &SharedA, seed: u64, rounds: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let b_host: Vec<f32> = (0..a.cols * N).map(|_| rng.value() as f32).collect();
    let x_host: Vec<f32> = (0..a.cols).map(|_| rng.value() as f32).collect();
    let (b, x) = (DevBuf::from_slice(&b_host), DevBuf::from_slice(&x_host));
    let (c, y) = (DevBuf::zeroed((a.rows * N) as usize * 4), DevBuf::zeroed(a.rows as usize * 4));
    let (alpha, beta) = (1.25f32, 0.0f32);
    let (al, be) = (&alpha as *const f32 as *const std::ffi::c_void, &beta as *const f32 as *const std::ffi::c_void);
    let mut out = Vec::new();
    unsafe {
        let stream = result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream");
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        assert_eq!(oxsparseSetStream(h, stream as cudaStream_t), OK);
        let (bd, cd) = (dn_mat_f32(a.cols, N, &b), dn_mat_f32(a.rows, N, &c));
        let (xd, yd) = (dn_vec_f32(a.cols, &x), dn_vec_f32(a.rows, &y));
        let own = csr_f32(a.rows, a.cols, a.nnz, &a.arrays);
        let shared = a.descr as oxsparseSpMatDescr_t;
        let size = |m: oxsparseSpMatDescr_t, spmm: bool| {
            let mut s = 0usize;
            let st = if spmm {
                oxsparseSpMM_bufferSize(h, 0, 0, al, m, bd, be, cd, F32, 0, &mut s)
            } else {
                oxsparseSpMV_bufferSize(h, 0, al, m, xd, be, yd, F32, 0, &mut s)
            };
            assert_eq!(st, OK);
            DevBuf::zeroed(s)
        };
        let read = |buf: &DevBuf| {
            result::stream::synchronize(stream).expect("kernel failed");
            buf.to_vec::<u8>()
        };
        for (m, pre) in [(shared, false), (own, true)] {
            let (ws_mm, ws_mv) = (size(m, true), size(m, false));
            if pre {
                assert_eq!(oxsparseSpMM_preprocess(h, 0, 0, al, m, bd, be, cd, F32, 0, ws_mm.ptr as _), OK);
                assert_eq!(oxsparseSpMV_preprocess(h, 0, al, m, xd, be, yd, F32, 0, ws_mv.ptr as _), OK);
            }
            let (mut c_bits, mut y_bits) = (Vec::new(), Vec::new());
            for round in 0..rounds {
                c.poison(0xFF);
                y.poison(0xFF);
                assert_eq!(oxsparseSpMM(h, 0, 0, al, m, bd, be, cd, F32, 0, ws_mm.ptr as _), OK);
                assert_eq!(oxsparseSpMV(h, 0, al, m, xd, be, yd, F32, 0, ws_mv.ptr as _), OK);
                let (cr, yr) = (read(&c), read(&y));
                if round == 0 {
                    (c_bits, y_bits) = (cr, yr);
                } else {
                    assert!(cr == c_bits && yr == y_bits, "seed {seed}: round {round} differs from round 0 (preprocessed: {pre})");
                }
            }
            out.push(c_bits);
            out.push(y_bits);
        }
        for d in [bd, cd] {
            assert_eq!(oxsparseDestroyDnMat(d), OK);
        }
        for d in [xd, yd] {
            assert_eq!(oxsparseDestroyDnVec(d), OK);
        }
        assert_eq!(oxsparseDestroySpMat(own), OK);
        assert_eq!(oxsparseDestroy(h), OK);
        result::stream::destroy(stream as sys::CUstream).expect("stream destroy");
    }
    out
}

/// Sixteen threads, a handle and a stream each, over one read-only A (its arrays, and one shared
/// descriptor for the plain calls): every thread's SpMM and SpMV results, plain and preprocessed,
/// are bitwise those that one thread alone gets for the same operands.
#[test]
fn sixteen_threads_share_a_read_only_matrix() {
    let Some(_h) = gpu("sixteen threads, shared A") else { return };
    let (rows, cols) = (6000i64, 5000i64);
    let len = |rng: &mut Rng, r| if hub(r) { 300 + rng.below(1700) } else { 1 + rng.below(20) };
    let csr = random_csr(&mut Rng::new(77), (rows as usize, cols as usize), len, true);
    let (arrays, nnz) = (csr.upload(), csr.nnz() as i64);
    let descr = unsafe { csr_f32(rows, cols, nnz, &arrays) };
    let a = std::sync::Arc::new(SharedA { rows, cols, nnz, arrays, descr: descr as usize });
    let alone: Vec<Vec<Vec<u8>>> = (0..16).map(|t| products(&a, 3000 + t, 1)).collect();
    let ctx = result::ctx::get_current().expect("ctx").expect("a current context") as usize;
    let threads: Vec<_> = (0..16u64)
        .map(|t| {
            let a = a.clone();
            std::thread::spawn(move || {
                unsafe { result::ctx::set_current(ctx as sys::CUcontext) }.expect("set ctx");
                products(&a, 3000 + t, 4)
            })
        })
        .collect();
    for (t, th) in threads.into_iter().enumerate() {
        let got = th.join().expect("a worker thread failed");
        assert!(got == alone[t], "thread {t}: results differ from the same operands run alone");
    }
    assert_eq!(unsafe { oxsparseDestroySpMat(descr) }, OK);
    println!("sixteen threads: SpMM and SpMV, plain and preprocessed, bitwise equal to one thread");
}
