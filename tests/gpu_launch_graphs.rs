//! The launch path (src/kernels/graph/): a handle launches its kernels through graphs kept per
//! (stream, kernel), setting a node's parameters before a launch unless it holds them, and keeps
//! a graph per argument set that comes back (graph/pool.rs). One handle moved between two streams
//! and the legacy stream, with different matrices and outputs on every call, must give every call
//! its own result, and so must the same call repeated (whose node is not set again) and a rotation
//! over more argument sets than a pool holds; a handle destroyed with its work still in flight
//! must leave that work to finish.
//! Results are checked against a CPU reference on random data.

mod common;

use common::descr::csr_f32;
use common::gen::random_csr;
use common::{gpu, DevBuf, Rng};
use cudarc::driver::{result, sys};
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::sparse_to_dense::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType::CUDA_R_32F, Status::OXSPARSE_STATUS_SUCCESS};
use std::ptr::null_mut;

const OK: i32 = OXSPARSE_STATUS_SUCCESS as i32;

/// A random rows x cols CSR matrix on the device, its descriptor, and its dense form on the host.
struct Matrix {
    _arrays: [DevBuf; 3],
    descr: oxsparseSpMatDescr_t,
    dense: Vec<f32>,
    rows: i64,
    cols: i64,
}

impl Matrix {
    fn random(rng: &mut Rng, rows: i64, cols: i64) -> Matrix {
        let csr = random_csr(rng, (rows as usize, cols as usize), |rng, _| rng.below(cols as u64 / 3 + 1), true);
        let arrays = csr.upload();
        // SAFETY: device arrays of the stated sizes, alive as long as the descriptor.
        let descr = unsafe { csr_f32(rows, cols, csr.nnz() as i64, &arrays) };
        Matrix { _arrays: arrays, descr, dense: csr.dense(), rows, cols }
    }
}

impl Drop for Matrix {
    fn drop(&mut self) {
        // SAFETY: created in `random`, destroyed once.
        assert_eq!(unsafe { oxsparseDestroySpMat(self.descr) }, OK);
    }
}

/// A row-major dense output of `m`'s shape and its descriptor.
struct Output {
    buf: DevBuf,
    descr: oxsparseDnMatDescr_t,
}

impl Output {
    fn like(m: &Matrix) -> Output {
        let buf = DevBuf::zeroed((m.rows * m.cols) as usize * 4);
        let mut descr = null_mut();
        // SAFETY: a device buffer of rows x cols floats, alive as long as the descriptor.
        assert_eq!(unsafe { oxsparseCreateDnMat(&mut descr, m.rows, m.cols, m.cols, buf.ptr as _, CUDA_R_32F as i32, 2) }, OK);
        Output { buf, descr }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // SAFETY: created in `like`, destroyed once.
        assert_eq!(unsafe { oxsparseDestroyDnMat(self.descr) }, OK);
    }
}

#[test]
fn one_handle_across_streams_with_new_arguments_every_call() {
    let Some(_g) = gpu("launch graphs across streams") else { return };
    let mut rng = Rng::new(19);
    let mats = [Matrix::random(&mut rng, 70, 45), Matrix::random(&mut rng, 33, 90)];
    // Two outputs per (stream, matrix), written in turn, so consecutive launches on one stream
    // never repeat their parameters.
    let outs: Vec<Vec<Output>> = (0..3).map(|_| mats.iter().flat_map(|m| [Output::like(m), Output::like(m)]).collect()).collect();
    unsafe {
        let s1 = result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream");
        let s2 = result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream");
        let streams = [s1 as usize, s2 as usize, 0];
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        for round in 0..12 {
            // Poisoned and waited for first: the non-blocking streams do not wait for the legacy
            // stream the memset runs on.
            outs.iter().flatten().for_each(|o| o.buf.poison(0xFF));
            common::sync();
            for (si, &s) in streams.iter().enumerate() {
                assert_eq!(oxsparseSetStream(h, s as cudaStream_t), OK);
                for (mi, m) in mats.iter().enumerate() {
                    let o = &outs[si][2 * mi + round % 2];
                    assert_eq!(oxsparseSparseToDense(h, m.descr, o.descr, 0, null_mut()), OK);
                }
            }
            for s in [s1, s2] {
                result::stream::synchronize(s).expect("a kernel failed");
            }
            common::sync();
            for (si, per_stream) in outs.iter().enumerate() {
                for (mi, m) in mats.iter().enumerate() {
                    let got = per_stream[2 * mi + round % 2].buf.to_vec::<f32>();
                    assert_eq!(got, m.dense, "round {round}, stream {si}, matrix {mi}");
                }
            }
        }
        assert_eq!(oxsparseDestroy(h), OK);
        result::stream::destroy(s1 as sys::CUstream).expect("stream destroy");
        result::stream::destroy(s2 as sys::CUstream).expect("stream destroy");
    }
}

/// A launch whose arguments equal those its graph's node was last set to skips setting them again
/// (src/kernels/graph/cache.rs `NodeSet`). The same call repeated, then with the other output, then the
/// first again: each call writes its own output in full, and only it.
#[test]
fn repeated_arguments_then_new_ones_then_the_first_again() {
    let Some(_g) = gpu("launch graphs with repeated arguments") else { return };
    let mut rng = Rng::new(23);
    let m = Matrix::random(&mut rng, 41, 57);
    let outs = [Output::like(&m), Output::like(&m)];
    unsafe {
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        for (step, &o) in [0usize, 0, 0, 1, 1, 0, 1].iter().enumerate() {
            outs.iter().for_each(|o| o.buf.poison(0xFF));
            common::sync();
            assert_eq!(oxsparseSparseToDense(h, m.descr, outs[o].descr, 0, null_mut()), OK);
            common::sync();
            assert_eq!(outs[o].buf.to_vec::<f32>(), m.dense, "step {step}, output {o}");
            assert!(outs[1 - o].buf.to_vec::<u32>().iter().all(|&w| w == u32::MAX), "step {step}: the other output was written");
        }
        assert_eq!(oxsparseDestroy(h), OK);
    }
}

/// A call site cycling among argument sets gets a graph per set that comes back, up to a pool per
/// kernel; past the pool the least recently used graph is set again (src/kernels/graph/pool.rs).
/// 21 sets (3 matrices x 7 outputs), more than the pool holds, in rounds of a fixed order and of
/// shuffled orders: every call writes its own output in full, and every other output keeps what
/// it held.
#[test]
fn a_rotation_over_more_argument_sets_than_the_pool_holds() {
    let Some(_g) = gpu("launch graphs over a rotation of argument sets") else { return };
    let mut rng = Rng::new(43);
    let ms: Vec<Matrix> = (0..3).map(|_| Matrix::random(&mut rng, 37, 29)).collect();
    let outs: Vec<Output> = (0..7).map(|_| Output::like(&ms[0])).collect();
    outs.iter().for_each(|o| o.buf.poison(0xFF));
    common::sync();
    let mut held: Vec<Option<usize>> = vec![None; outs.len()];
    let sets: Vec<(usize, usize)> = (0..ms.len()).flat_map(|m| (0..outs.len()).map(move |o| (m, o))).collect();
    unsafe {
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        for round in 0..6 {
            let mut order = sets.clone();
            if round >= 3 {
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i as u64 + 1) as usize);
                }
            }
            for &(m, o) in &order {
                outs[o].buf.poison(0xFF);
                common::sync();
                assert_eq!(oxsparseSparseToDense(h, ms[m].descr, outs[o].descr, 0, null_mut()), OK);
                common::sync();
                assert_eq!(outs[o].buf.to_vec::<f32>(), ms[m].dense, "round {round}, matrix {m}, output {o}");
                held[o] = Some(m);
            }
            for (o, out) in outs.iter().enumerate() {
                assert_eq!(out.buf.to_vec::<f32>(), ms[held[o].expect("every output written")].dense, "round {round}: output {o} changed");
            }
        }
        assert_eq!(oxsparseDestroy(h), OK);
    }
}

/// Pools on many streams at once: past the graphs a handle's pools may hold together (512,
/// src/kernels/graph/cache.rs `MAX_POOLED`) a new graph takes the place of the one launched longest ago.
/// 40 streams, each with a rotation over 16 outputs, three rounds: every call's output right.
#[test]
fn pools_on_many_streams_past_the_handles_cap() {
    let Some(_g) = gpu("launch graph pools past the handle's cap") else { return };
    let mut rng = Rng::new(512);
    let m = Matrix::random(&mut rng, 19, 23);
    let outs: Vec<Output> = (0..16).map(|_| Output::like(&m)).collect();
    unsafe {
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        let streams: Vec<_> = (0..40).map(|_| result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream")).collect();
        for round in 0..3 {
            for (si, &s) in streams.iter().enumerate() {
                assert_eq!(oxsparseSetStream(h, s as cudaStream_t), OK);
                for (o, out) in outs.iter().enumerate() {
                    out.buf.poison(0xFF);
                    common::sync();
                    assert_eq!(oxsparseSparseToDense(h, m.descr, out.descr, 0, null_mut()), OK);
                    result::stream::synchronize(s).expect("a kernel failed");
                    assert_eq!(out.buf.to_vec::<f32>(), m.dense, "round {round}, stream {si}, output {o}");
                }
            }
        }
        assert_eq!(oxsparseSetStream(h, null_mut()), OK);
        assert_eq!(oxsparseDestroy(h), OK);
        for s in streams {
            result::stream::destroy(s as sys::CUstream).expect("stream destroy");
        }
    }
}

#[test]
fn a_handle_destroyed_with_work_in_flight_lets_it_finish() {
    let Some(_g) = gpu("launch graphs in flight at destroy") else { return };
    let mut rng = Rng::new(1919);
    let m = Matrix::random(&mut rng, 3000, 2000);
    let o = Output::like(&m);
    o.buf.poison(0xFF);
    common::sync();
    unsafe {
        let s = result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream");
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        assert_eq!(oxsparseSetStream(h, s as cudaStream_t), OK);
        for _ in 0..3 {
            assert_eq!(oxsparseSparseToDense(h, m.descr, o.descr, 0, null_mut()), OK);
        }
        assert_eq!(oxsparseDestroy(h), OK);
        result::stream::synchronize(s).expect("the work launched before destroy failed");
        result::stream::destroy(s as sys::CUstream).expect("stream destroy");
    }
    assert_eq!(o.buf.to_vec::<f32>(), m.dense);
}

#[test]
fn more_streams_than_the_graphs_a_handle_keeps() {
    let Some(_g) = gpu("launch graphs over many streams") else { return };
    let mut rng = Rng::new(190);
    let m = Matrix::random(&mut rng, 40, 30);
    // Past 256 graphs (src/kernels/graph/cache.rs MAX_GRAPHS) a handle destroys them all and starts
    // again; each stream's result must still be its own.
    let outs: Vec<Output> = (0..300).map(|_| Output::like(&m)).collect();
    outs.iter().for_each(|o| o.buf.poison(0xFF));
    common::sync();
    unsafe {
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        // All alive at once, so no stream reuses another's address (and graph).
        let streams: Vec<_> =
            outs.iter().map(|_| result::stream::create(result::stream::StreamKind::NonBlocking).expect("stream")).collect();
        for (o, &s) in outs.iter().zip(&streams) {
            assert_eq!(oxsparseSetStream(h, s as cudaStream_t), OK);
            assert_eq!(oxsparseSparseToDense(h, m.descr, o.descr, 0, null_mut()), OK);
        }
        assert_eq!(oxsparseSetStream(h, null_mut()), OK);
        for s in streams {
            result::stream::synchronize(s).expect("a kernel failed");
            result::stream::destroy(s as sys::CUstream).expect("stream destroy");
        }
        assert_eq!(oxsparseDestroy(h), OK);
    }
    for (i, o) in outs.iter().enumerate() {
        assert_eq!(o.buf.to_vec::<f32>(), m.dense, "stream {i}");
    }
}
