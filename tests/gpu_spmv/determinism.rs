//! Determinism and preprocess: the same inputs give bitwise the same y run after run, plain or
//! preprocessed (a preprocessed call may run another kernel than a plain one, so the two may
//! differ in rounding), for every algorithm of every format family; after preprocess, new values
//! of A (same pointer), then new X and scalars, give the result for the new values; a buffer
//! overwritten after preprocess still gives the right result.

use super::gen;
use super::harness::*;
use super::*;
use crate::common::compare::bitwise_runs;
use oxsparse::types::DataType::*;

const FORMATS: [Fmt; 5] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Sell(32)];

/// Large and skewed enough that atomics, a split reduction or a schedule that depends on timing
/// would show (opA = T especially): every (format, opA N/T, algorithm).
pub fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in FORMATS {
        for &op in ops_for(fmt).iter().take(2) {
            for alg in algs_for(fmt) {
                let c = match fmt {
                    // A padded power law would be large; one long row makes the same point.
                    Fmt::Sell(_) => Case { pattern: Pattern::HeavyRow(20000), ..Case::new(fmt, (1000, 20011)) },
                    _ => Case { op, pattern: Pattern::PowerLaw(20000), ..Case::new(fmt, (20000, 40000)) },
                };
                let i = cases.len();
                cases.push(Case { alg, ..vary(c, 12_000 + i) });
            }
        }
    }
    cases.push(vary(Case { op: H, types: (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), ..Case::new(Fmt::Coo, (3000, 2000)) }, 12_900));
    cases.push(vary(Case { types: (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F), ..Case::new(Fmt::Csr, (3000, 2000)) }, 12_901));
    cases
}

/// Plain runs first: once preprocess has run, a call with a buffer at the same address (a new
/// allocation may reuse it) takes the preprocessed path, stamp or no stamp.
fn bitwise_identical(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    bitwise_runs(&[false, false, true, true, true], |pre| run(h, &p, &g, pre), |got| p.check(got))
}

#[test]
fn bitwise_identical_runs_plain_and_preprocessed() {
    sweep_with("spmv determinism", &cases(), bitwise_identical);
}

/// Preprocess, then new A values in place, SpMV; then new X and scalars, SpMV again.
pub fn new_values_after_preprocess(h: &CHandle, case: &Case) -> Result<(), String> {
    // `_scalars` stays bound: `args` points at them.
    let Preprocessed { mut p, g, scalars: _scalars, args, ws } = Preprocessed::new(h, case)?;
    p.renew_a_values(case.seed ^ 0xA);
    g.rewrite(&p);
    expect(unsafe { args.spmv(h, ws_ptr(&ws)) }, "SpMV")?;
    p.check(&g.y_buf.to_vec()).map_err(|e| format!("after new A values: {e}"))?;

    let mut rng = Rng::new(case.seed ^ 0xB);
    (p.x, p.x_bytes) = gen::vector(&mut rng, case.types.1, case.k, true);
    (p.alpha, p.beta) = (fit(case.types.3, (-2.0, 0.5)), fit(case.types.3, (0.5, -1.0)));
    // beta is now nonzero, so Y must hold finite values (the first pass may have had a poisoned Y).
    (p.y, p.y_bytes) = gen::vector(&mut rng, case.types.2, case.m, true);
    g.rewrite(&p);
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    expect(unsafe { args.spmv(h, ws_ptr(&ws)) }, "SpMV")?;
    p.check(&g.y_buf.to_vec()).map_err(|e| format!("after new X, alpha and beta: {e}"))
}

#[test]
fn new_values_after_preprocess_are_used() {
    let mut all = Vec::new();
    for (i, fmt) in FORMATS.into_iter().enumerate() {
        for &op in ops_for(fmt) {
            for alg in algs_for(fmt) {
                let seed = 13_000 + 16 * i + 4 * op as usize + alg as usize;
                let case = Case { alg, ..vary(Case { op, pattern: Pattern::HeavyRow(3000), ..Case::new(fmt, (48, 3072)) }, seed) };
                all.extend([case, Case { types: (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F), ..case }]);
            }
        }
    }
    sweep_with("spmv new values after preprocess", &all, new_values_after_preprocess);
}

/// Preprocess, then the whole buffer overwritten (the kernels must notice the stamp is gone and do
/// without the lists or table), SpMV: the right result, and no fault.
pub fn buffer_overwritten_after_preprocess(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    write_at(&g.y_buf, 0, &p.y_bytes);
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    let ws = args.workspace(h)?;
    expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SpMV_preprocess")?;
    if let Some(ws) = &ws {
        write_at(ws, 0, &vec![0xA5u8; ws.bytes]);
    }
    expect(unsafe { args.spmv(h, ws_ptr(&ws)) }, "SpMV")?;
    p.check(&g.y_buf.to_vec())
}

#[test]
fn buffer_overwritten_after_preprocess_still_gives_y() {
    let mut all = Vec::new();
    for (i, (fmt, op)) in [(Fmt::Csr, N), (Fmt::Csr, T), (Fmt::Coo, N), (Fmt::Csc, N)].into_iter().enumerate() {
        for (j, pattern) in [Pattern::PowerLaw(20000), Pattern::HeavyRow(9000)].into_iter().enumerate() {
            all.push(vary(Case { op, pattern, ..Case::new(fmt, (20000, 30000)) }, 14_000 + 2 * i + j));
        }
    }
    sweep_with("spmv buffer overwritten after preprocess", &all, buffer_overwritten_after_preprocess);
}
