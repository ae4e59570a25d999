//! Determinism and preprocess: the same inputs give bitwise the same C run after run, plain calls
//! among themselves and preprocessed ones among themselves (preprocess may choose the short-row
//! kernel, whose sums are grouped otherwise: both right, tests/gpu_spmm/short_rows.rs); after
//! preprocess, new values of A (same pointer), then new B and scalars, give the result for the new
//! values.

use super::gen;
use super::harness::*;
use super::*;
use crate::common::compare::bitwise_runs;
use oxsparse::types::DataType::*;

const FORMATS: [Fmt; 5] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bell];

/// Large enough that atomics or a split reduction would show (with opA = T especially).
pub fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in FORMATS {
        for &op_a in ops_for(fmt).0.iter().take(2) {
            cases.push(Case { op_a, ..Case::new(fmt, (1000, 1000, 33)) });
        }
    }
    for op_a in [N, T] {
        cases.push(Case {
            op_a,
            pattern: Pattern::HeavyRow(20000),
            ..Case::new(Fmt::Csr, if op_a == N { (64, 20011, 33) } else { (20011, 64, 33) })
        });
    }
    cases.push(Case { op_a: T, pattern: Pattern::HeavyRow(20000), ..Case::new(Fmt::Coo, (20011, 64, 16)) });
    cases.push(Case { op_a: H, types: (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), ..Case::new(Fmt::Csr, (1000, 1000, 16)) });
    cases.push(Case { types: (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), ..Case::new(Fmt::Bell, (1000, 1000, 32)) });
    cases.into_iter().enumerate().map(|(i, c)| vary(c, 13_000 + i)).collect()
}

/// Plain and preprocessed runs interleaved: neither kind may disturb the other's bits.
fn bitwise_identical(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    bitwise_runs(&[false, true, true, false, true, false], |pre| run(h, &p, &g, pre), |got| p.check(got))
}

#[test]
fn bitwise_identical_runs_plain_and_preprocessed() {
    sweep_with("spmm determinism", &cases(), bitwise_identical);
}

/// Preprocess, then new A values in place, SpMM; then new B and scalars, SpMM again.
fn new_values_after_preprocess(h: &CHandle, case: &Case) -> Result<(), String> {
    let mut p = Problem::new(case);
    // Held whole: `args` points at the scalars it keeps.
    let pre = preprocessed(h, &p)?;
    let Preprocessed { g, args, ws, .. } = &pre;
    p.renew_a_values(case.seed ^ 0xA);
    g.rewrite(&p);
    expect(unsafe { args.spmm(h, ws_ptr(ws)) }, "SpMM")?;
    p.check(&g.c_buf.to_vec()).map_err(|e| format!("after new A values: {e}"))?;

    let mut rng = Rng::new(case.seed ^ 0xB);
    (p.b, p.b_bytes) = gen::dense(&mut rng, case.b_shape(), case.order_b, case.pad_b, case.batch.b, case.types.0, true);
    (p.alpha, p.beta) = (fit(case.types.2, (-2.0, 0.5)), fit(case.types.2, (0.5, -1.0)));
    // beta is now nonzero, so C must hold finite values (the first pass may have had a poisoned C).
    (p.c, p.c_bytes) = gen::dense(&mut rng, (case.m, case.n), case.order_c, case.pad_c, case.batch.c, case.types.1, true);
    g.rewrite(&p);
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    expect(unsafe { args.spmm(h, ws_ptr(ws)) }, "SpMM")?;
    p.check(&g.c_buf.to_vec()).map_err(|e| format!("after new B, alpha and beta: {e}"))
}

#[test]
fn new_values_after_preprocess_are_used() {
    let mut all = Vec::new();
    for (i, fmt) in FORMATS.into_iter().enumerate() {
        for &op_a in ops_for(fmt).0 {
            let case = vary(Case { op_a, ..Case::new(fmt, (36, 48, 12)) }, 14_000 + 3 * i + op_a as usize);
            all.extend([case, Case { types: (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F), ..case }]);
        }
    }
    sweep_with("spmm new values after preprocess", &all, new_values_after_preprocess);
}

/// Preprocess, then every byte of the buffer overwritten: the kernels must notice that what
/// preprocess left (the tile row table, the long-row schedule) is gone, and still give C.
fn buffer_overwritten_after_preprocess(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    // Held whole: `args` points at the scalars it keeps.
    let pre = preprocessed(h, &p)?;
    let Preprocessed { g, args, ws, .. } = &pre;
    if let Some(ws) = ws {
        ws.poison(0xA5);
    }
    expect(unsafe { args.spmm(h, ws_ptr(ws)) }, "SpMM")?;
    p.check(&g.c_buf.to_vec())
}

#[test]
fn buffer_overwritten_after_preprocess_still_gives_c() {
    let mut all = Vec::new();
    for (i, (fmt, op_a)) in [(Fmt::Csr, N), (Fmt::Csr, T), (Fmt::Csc, N)].into_iter().enumerate() {
        // The heavy row is a row of the stored matrix: a column of op(A) for CSR T and CSC N.
        let heavy_shape = if fmt == Fmt::Csr && op_a == N { (1200, 10_000, 64) } else { (10_000, 1200, 64) };
        for (j, (pattern, shape)) in [(Pattern::Random, (1000, 1200, 64)), (Pattern::HeavyRow(9000), heavy_shape)].into_iter().enumerate() {
            all.push(vary(Case { op_a, pattern, ..Case::new(fmt, shape) }, 15_000 + 2 * i + j));
        }
    }
    sweep_with("spmm buffer overwritten after preprocess", &all, buffer_overwritten_after_preprocess);
}
