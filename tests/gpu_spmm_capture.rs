//! SpMM plain calls inside CUDA graph capture (capture mode global, so its own test binary), where
//! a plain call chooses between whole short rows and warp rows over a table it builds on the GPU
//! (src/ops/spmm/plain_choice.rs, warp_rows/mod.rs `takes_plain`): a handle that has learned nothing
//! captures the whole chain (it must not allocate its verdict page while capturing), a handle that
//! has learned the verdict captures the chosen kernel alone (whole short rows, or the table's
//! build and warp rows). Each graph, run twice, writes C against a float64 reference; C is
//! poisoned before each run.

mod common;

use common::{gpu, DevBuf, Rng};
use cudarc::driver::{result as cu, sys};
use oxsparse::context::Handle;
use oxsparse::descr::{DnMat, SpArrays, SpMat};
use oxsparse::ops::spmm::{self as ops, Call};
use oxsparse::settings::Settings;
use oxsparse::types::{DataType::CUDA_R_32F, IndexBase, IndexType, MathMode, Operation, Order, ReorderMode, SpMMAlg};
use std::ffi::c_void;

/// A band of 4 entries a row (every row short), m x m, random values, and row 0 of `hub` entries
/// where `hub` is not 0 (longer than short rows take: the verdict is long); n = 256 columns make
/// the work (entries x n x 4 bytes) large enough for the chain.
struct Problem {
    m: usize,
    n: usize,
    offsets: Vec<i32>,
    cols: Vec<i32>,
    vals: Vec<f32>,
    b: Vec<f32>,
}

impl Problem {
    fn new(m: usize, n: usize, hub: usize, seed: u64) -> Problem {
        let mut rng = Rng::new(seed);
        let (mut offsets, mut cols, mut vals) = (vec![0i32], Vec::new(), Vec::new());
        for r in 0..m {
            let first = (r.saturating_sub(2)).min(m - 4);
            let (first, len) = if r == 0 && hub > 0 { (0, hub) } else { (first, 4) };
            let mut row: Vec<i32> = (first..first + len).map(|c| c as i32).collect();
            row.reverse(); // unsorted within the row
            cols.extend(row);
            vals.extend((0..len).map(|_| rng.value() as f32));
            offsets.push(cols.len() as i32);
        }
        let b = (0..m * n).map(|_| rng.value() as f32).collect();
        Problem { m, n, offsets, cols, vals, b }
    }

    /// C = A B (alpha 1, beta 0) in float64, checked against `got` within FP32 rounding.
    fn check(&self, got: &[f32], what: &str) {
        for r in 0..self.m {
            for j in 0..self.n {
                let (mut want, mut scale) = (0f64, 0f64);
                for q in self.offsets[r] as usize..self.offsets[r + 1] as usize {
                    let p = self.vals[q] as f64 * self.b[self.cols[q] as usize * self.n + j] as f64;
                    want += p;
                    scale += p.abs();
                }
                let g = got[r * self.n + j] as f64;
                assert!((g - want).abs() <= 1e-5 * scale + 1e-30, "{what}: C({r}, {j}) = {g}, want {want}");
            }
        }
    }
}

/// Captures one plain call on `h`'s stream, runs the graph twice (C poisoned before each) and
/// checks C each time.
unsafe fn capture_and_run(h: &mut Handle, stream: sys::CUstream, call: &Call, buffer: u64, c: &DevBuf, p: &Problem, what: &str) {
    h.set_stream(stream as usize).unwrap();
    cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
    let captured = ops::spmm(h, call, buffer, None);
    let graph = cu::stream::end_capture(stream);
    captured.unwrap_or_else(|e| panic!("{what}: the captured call failed: {e:?}"));
    let graph = graph.expect("the capture was invalidated");
    let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
    for run in 0..2 {
        c.poison(0xFF);
        cu::graph::launch(exec, stream).unwrap();
        cu::stream::synchronize(stream).unwrap();
        p.check(&c.to_vec::<f32>(), &format!("{what}, run {run}"));
    }
    cu::graph::exec_destroy(exec).unwrap();
    cu::graph::destroy(graph).unwrap();
    h.set_stream(0).unwrap();
}

#[test]
fn plain_calls_choosing_on_the_gpu_under_graph_capture() {
    let Some(_gpu) = gpu("spmm plain calls under graph capture") else { return };
    // Every row short (whole short rows), then a hub row of 3000 entries (warp rows).
    for (hub, serial) in [(0, 38_000), (3000, 39_000)] {
        capture_plain_calls(hub, serial);
    }
    println!("spmm plain calls under graph capture: the chain and the learned kernel, 2 runs each, on short rows and on warp rows");
}

unsafe fn capture_plain_calls_inner(hub: usize, serial: u64) {
    // Handles with the library's own choices, whatever the environment forces.
    let mut first = Handle::create().unwrap();
    first.settings = Settings::default();
    let (device, settings) = (first.device_model, first.settings);
    let (m, n) = (42_000usize, 256usize);
    let p = Problem::new(m, n, hub, 38);
    let (offsets, cols, vals) = (DevBuf::from_slice(&p.offsets), DevBuf::from_slice(&p.cols), DevBuf::from_slice(&p.vals));
    let (b, c) = (DevBuf::from_slice(&p.b), DevBuf::zeroed(m * n * 4));
    let arrays = SpArrays { offsets: offsets.ptr, indices: cols.ptr, values: vals.ptr };
    let i32i = IndexType::OXSPARSE_INDEX_32I;
    let a = SpMat::compressed(
        false,
        m as i64,
        m as i64,
        p.cols.len() as i64,
        arrays,
        i32i,
        i32i,
        IndexBase::OXSPARSE_INDEX_BASE_ZERO,
        CUDA_R_32F,
    )
    .unwrap();
    let bm = DnMat::new(m as i64, n as i64, n as i64, b.ptr, CUDA_R_32F, Order::OXSPARSE_ORDER_ROW).unwrap();
    let cm = DnMat::new(m as i64, n as i64, n as i64, c.ptr, CUDA_R_32F, Order::OXSPARSE_ORDER_ROW).unwrap();
    let (alpha, beta) = (1.0f32, 0.0f32);
    let call = Call {
        op_a: Operation::OXSPARSE_OPERATION_NON_TRANSPOSE,
        op_b: Operation::OXSPARSE_OPERATION_NON_TRANSPOSE,
        a: &a,
        b: &bm,
        c: &cm,
        compute: CUDA_R_32F,
        alg: SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT,
        alpha: &alpha as *const f32 as *const c_void,
        beta: &beta as *const f32 as *const c_void,
        math: MathMode::OXSPARSE_DEFAULT_MATH,
        reorder: ReorderMode::OXSPARSE_REORDER_NONE,
        a_serial: serial,
        device: &device,
        settings: &settings,
    };
    let what = |s: &str| format!("{s} ({})", if hub > 0 { "warp rows" } else { "short rows" });
    let buffer = DevBuf::zeroed(ops::buffer_size(&first, &call).unwrap().max(1));
    let stream = cu::stream::create(cu::stream::StreamKind::Default).unwrap();
    // A handle that has learned nothing: the whole chain goes into the graph.
    let mut fresh = Handle::create().unwrap();
    fresh.settings = Settings::default();
    // Load the kernels outside the capture (a plain call without learning: another serial).
    ops::spmm(&fresh, &Call { a_serial: 0, ..call }, buffer.ptr, None).unwrap();
    cu::stream::synchronize(std::ptr::null_mut()).unwrap();
    capture_and_run(&mut fresh, stream, &call, buffer.ptr, &c, &p, &what("the chain, captured"));
    // A handle that learned the verdict in a call before: the chosen kernel alone.
    let mut learned = first;
    ops::spmm(&learned, &call, buffer.ptr, None).unwrap();
    cu::stream::synchronize(std::ptr::null_mut()).unwrap();
    p.check(&c.to_vec::<f32>(), &what("the call that learns"));
    capture_and_run(&mut learned, stream, &call, buffer.ptr, &c, &p, &what("the learned kernel, captured"));
    drop(fresh);
    cu::stream::destroy(stream).unwrap();
}

fn capture_plain_calls(hub: usize, serial: u64) {
    // SAFETY: the stream and graphs are created and destroyed inside; the buffers outlive them.
    unsafe { capture_plain_calls_inner(hub, serial) }
}
