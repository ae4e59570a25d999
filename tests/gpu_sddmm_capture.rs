//! SDDMM captured into a CUDA graph and replayed (capture mode global: its own test binary). One
//! call, after an optional preprocess, is captured on the handle's stream; each replay follows new
//! values of A, B and C copied in on that stream, and must write the reference's C for them. The
//! cases cover the kernel alone (A and B read in place), the copies of A and B before it (a chain of
//! three launches), BSR with batches, a hub row, both pointer modes and FP16.

mod common;
use common::bytes::{decode_element, encode};
use common::*;

// The suite's harness (tests/gpu_sddmm.rs), of which this binary uses a part.
#[allow(dead_code, unused_imports)]
#[path = "gpu_sddmm/calls.rs"]
mod calls;
#[allow(dead_code)]
#[path = "gpu_sddmm/gen.rs"]
mod gen;
#[allow(dead_code, unused_imports)]
#[path = "gpu_sddmm/harness.rs"]
mod harness;

use cudarc::driver::{result as cu, sys};
use harness::*;
use oxsparse::ffi::cudaStream_t;
use oxsparse::ffi::handle::oxsparseSetStream;
use oxsparse::types::DataType::*;

const REPLAYS: u64 = 4;

/// Captures one SDDMM of `case` and replays it `REPLAYS` times with new values each time.
unsafe fn captured_replays(case: &Case, stream: sys::CUstream) -> Result<(), String> {
    let h = CHandle::new();
    expect(oxsparseSetStream(h.0, stream as cudaStream_t), "oxsparseSetStream")?;
    let mut p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    let (alpha, beta) = scalars(&h, &p);
    let args = g.args(&p, &alpha, &beta);
    let ws = workspace(args.size(&h)?);
    if case.preprocess {
        expect(args.preprocess(&h, ws_ptr(&ws)), "SDDMM_preprocess")?;
    }
    // Kernels loaded outside the capture.
    expect(args.sddmm(&h, ws_ptr(&ws)), "SDDMM before the capture")?;
    cu::stream::synchronize(stream).map_err(|e| format!("{e:?}"))?;
    cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).map_err(|e| format!("{e:?}"))?;
    let status = args.sddmm(&h, ws_ptr(&ws));
    let graph = cu::stream::end_capture(stream).map_err(|e| format!("end_capture: {e:?}"))?;
    expect(status, "the captured SDDMM")?;
    let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).map_err(|e| format!("{e:?}"))?;
    let mut result = Ok(());
    for r in 0..REPLAYS {
        if r > 0 {
            p.renew_values(case.seed ^ (r << 20));
        }
        for (buf, at, bytes) in [(&g.a_buf, g.at.0, &p.a_bytes), (&g.b_buf, g.at.1, &p.b_bytes), (&g.c_arrays[2], 0, &p.c_bytes)] {
            if !bytes.is_empty() {
                cu::memcpy_htod_async(buf.ptr + at, &bytes[..], stream).map_err(|e| format!("{e:?}"))?;
            }
        }
        cu::stream::synchronize(stream).map_err(|e| format!("{e:?}"))?;
        cu::graph::launch(exec, stream).map_err(|e| format!("{e:?}"))?;
        cu::stream::synchronize(stream).map_err(|e| format!("replay {r}: {e:?}"))?;
        result = p.check(&g.c_values()).map_err(|e| format!("replay {r}: {e}"));
        if result.is_err() {
            break;
        }
    }
    cu::graph::exec_destroy(exec).map_err(|e| format!("{e:?}"))?;
    cu::graph::destroy(graph).map_err(|e| format!("{e:?}"))?;
    expect(oxsparseSetStream(h.0, std::ptr::null_mut()), "oxsparseSetStream(NULL)")?;
    result
}

#[test]
fn captured_sddmm_replayed_with_new_values() {
    let Some(_gpu) = gpu("SDDMM captured into a graph and replayed") else { return };
    let f16: Types = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let cases = [
        // A and B read in place: the kernel alone.
        Case::new(Fmt::Csr, (300, 64, 200)),
        // Both copied, then the kernel; device scalars, after preprocess.
        Case { op_a: T, order_b: ROW, mode: DEVICE, preprocess: true, ..Case::new(Fmt::Csr, (300, 33, 200)) },
        // BSR, one A, B per batch (copied), C's batches sharing their offsets; FP16, beta 0.
        Case {
            types: f16,
            order_b: ROW,
            beta: (0.0, 0.0),
            batch: Batch { a: 1, b: 3, c: 3, share: Share::Offsets },
            ..Case::new(Fmt::Bsr { rb: 2, cb: 4, order: COL }, (120, 100, 96))
        },
        // A hub row of 12,000 entries among short rows, 64-bit indices from 1, after preprocess.
        Case { pattern: Pattern::Hubs(12_000), it: I64, base: BASE1, preprocess: true, ..Case::new(Fmt::Csr, (200, 32, 12_000)) },
    ];
    let stream = cu::stream::create(cu::stream::StreamKind::Default).expect("a stream");
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let case = Case { seed: 20_000 + i as u64, ..*c };
            unsafe { captured_replays(&case, stream) }.err().map(|e| format!("{}: {e}", case.label()))
        })
        .collect();
    unsafe { cu::stream::destroy(stream) }.expect("destroying the stream");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("SDDMM captured and replayed: {} cases x {REPLAYS} replays right", cases.len());
}
