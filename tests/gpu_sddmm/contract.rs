//! The preprocess contract and determinism. After preprocess, a call with the same arguments runs
//! the kept decision: alpha, beta and the values of A, B and C may change (in place, or moved to
//! other addresses, one element off 16 bytes), and every call must match the reference for the
//! values it was given. Each stored value is one dot product summed in a fixed order: two calls
//! give the same bits, and a preprocessed call the same bits as a plain one.

use super::harness::*;
use super::*;
use crate::common::compare::bitwise_runs;
use oxsparse::ffi::descr_dense::oxsparseDnMatSetValues;
use oxsparse::ffi::descr_sparse_access::oxsparseSpMatSetValues;
use oxsparse::ffi::sddmm::preprocessed_decision;
use oxsparse::types::DataType::*;

/// Preprocess, SDDMM; new scalars and new values of A, B and C written in place, SDDMM; new values
/// again, the same arguments, SDDMM (sent again as the last call sent it); A and B
/// moved to buffers where they start one element past 16 bytes and C's values to a fresh buffer,
/// with new values again, SDDMM. The decision preprocess kept stays, the same, throughout.
fn preprocess_contract(h: &CHandle, case: &Case) -> Result<(), String> {
    let mut p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    if unsafe { preprocessed_decision(g.c) }.is_some() {
        return Err("a decision before any preprocess".into());
    }
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    let ws = workspace(args.size(h)?);
    expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SDDMM_preprocess")?;
    let kept = unsafe { preprocessed_decision(g.c) }.ok_or("preprocess kept no decision")?;
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM")?;
    p.check(&g.c_values()).map_err(|e| format!("first call: {e}"))?;
    let same_decision = |when: &str| match unsafe { preprocessed_decision(g.c) } {
        Some(d) if d == kept => Ok(()),
        other => Err(format!("{when}: the kept decision is now {other:?}, was {kept}")),
    };

    // New scalars (beta != 0: C is read now), new values in place.
    let compute = case.types.2;
    (p.alpha, p.beta) = (fit(compute, (-2.0, 0.5)), fit(compute, (0.5, -1.0)));
    p.renew_values(case.seed ^ 0xA11);
    g.rewrite(&p);
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM")?;
    p.check(&g.c_values()).map_err(|e| format!("after new scalars and values: {e}"))?;
    same_decision("after new values")?;

    // The same arguments again, new values in place: the call sends the last one's launches again
    // (src/ops/sddmm/replay.rs), which read the new values.
    p.renew_values(case.seed ^ 0xC33);
    g.rewrite(&p);
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM")?;
    p.check(&g.c_values()).map_err(|e| format!("after new values, the same arguments: {e}"))?;

    // New values at new addresses.
    p.renew_values(case.seed ^ 0xB22);
    let w = case.types.0.size_bytes() as usize;
    let (a2, b2, c2) = (shifted(&p.a_bytes, w), shifted(&p.b_bytes, w), DevBuf::from_slice(&p.c_bytes));
    unsafe {
        expect(oxsparseDnMatSetValues(g.a, (a2.ptr + w as u64) as _), "DnMatSetValues(A)")?;
        expect(oxsparseDnMatSetValues(g.b, (b2.ptr + w as u64) as _), "DnMatSetValues(B)")?;
        expect(oxsparseSpMatSetValues(g.c, c2.ptr as _), "SpMatSetValues(C)")?;
    }
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM")?;
    p.check(&c2.to_vec()).map_err(|e| format!("after moving A, B and C's values: {e}"))?;
    same_decision("after moving the values")
}

/// Every type combination, operands read in place or both copied, CSR and BSR, with and without
/// batches.
pub fn contract_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, types) in COMBOS.into_iter().enumerate() {
        for (j, (op_a, order_a, op_b, order_b)) in [(N, ROW, N, COL), (T, ROW, N, ROW)].into_iter().enumerate() {
            let fmt = pick(&[Fmt::Csr, Fmt::Bsr { rb: 2, cb: 4, order: ROW }], i + j);
            let batch = pick(&[NO_BATCH, Batch { a: 2, b: 1, c: 2, share: Share::Offsets }], i);
            let c = Case { op_a, order_a, op_b, order_b, types, batch, ..Case::new(fmt, (40, 64, 48)) };
            cases.push(vary(c, 8000 + 2 * i + j));
        }
    }
    cases
}

#[test]
fn preprocess_then_new_scalars_and_values() {
    sweep_with("sddmm preprocess contract", &contract_cases(), preprocess_contract);
}

/// Plain and preprocessed runs interleaved, each kind bitwise equal to its first run; then a plain
/// and a preprocessed run bitwise equal to each other.
pub fn bitwise_identical(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    bitwise_runs(&[false, true, true, false, true, false], |pre| run(h, &p, &g, pre), |got| p.check(got))?;
    if run(h, &p, &g, false)? != run(h, &p, &g, true)? {
        return Err("a preprocessed call differs bitwise from a plain one".into());
    }
    Ok(())
}

/// Large enough that many warps share rows (hubs over many runs), k past a warp's loads.
pub fn determinism_cases() -> Vec<Case> {
    let f16: Types = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let c32: Types = (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F);
    let cases = [
        Case::new(Fmt::Csr, (2000, 257, 1500)),
        Case { op_a: T, order_b: ROW, ..Case::new(Fmt::Csr, (1500, 1000, 800)) },
        Case { pattern: Pattern::Hubs(10_000), types: f16, ..Case::new(Fmt::Csr, (400, 128, 12_000)) },
        Case { types: c32, order_a: COL, ..Case::new(Fmt::Bsr { rb: 4, cb: 4, order: COL }, (800, 33, 800)) },
        Case { types: F64, batch: Batch { a: 3, b: 3, c: 3, share: Share::Own }, ..Case::new(Fmt::Csr, (300, 100, 300)) },
    ];
    cases.into_iter().enumerate().map(|(i, c)| vary(c, 8100 + i)).collect()
}

#[test]
fn bitwise_identical_runs_plain_and_preprocessed() {
    sweep_with("sddmm determinism", &determinism_cases(), bitwise_identical);
}
