//! cuSPARSE's preprocess contract, as a solver lives it: preprocess once, then call SpMV again and
//! again with new values of A (same pointer), new vectors and scalars, values behind a new pointer
//! (`SpMatSetValues`), across a refused preprocess. Every upload and read-back is ordered on the
//! legacy default stream only, as a C program's `cudaMemcpy` is: no device-wide synchronisation
//! hides a launch that escapes the stream's order. The device suite runs this file again with
//! each SpMV kernel forced.

use super::gen;
use super::harness::*;
use super::*;
use oxsparse::ffi::descr_sparse_access::{oxsparseCsrSetPointers, oxsparseSpMatSetValues};
use oxsparse::types::Status;

/// The fixture of the report that found the fault: 8192 x 8192 CSR FP32, rows of 2-15 entries and
/// every 97th of 300-2000, which crosses many tiles.
pub fn hub_case(seed: u64) -> Case {
    Case { pattern: Pattern::Hubs { every: 97 }, seed, alpha: (1.25, 0.0), beta: (-0.5, 0.0), ..Case::new(Fmt::Csr, (8192, 8192)) }
}

/// Y uploaded in stream order, one SpMV with the preprocessed buffer, Y read back in stream order.
fn call(h: &CHandle, pre: &Preprocessed, args: &Args) -> Result<Vec<u8>, String> {
    pre.g.y_buf.write_ordered(&pre.p.y_bytes);
    expect(unsafe { args.spmv(h, ws_ptr(&pre.ws)) }, "SpMV")?;
    Ok(pre.g.y_buf.read_ordered())
}

/// Preprocess, then rounds of new A values in place, new X / Y / scalars, a refused preprocess
/// (which must leave the active buffer in force: bitwise the same result after it), and values
/// behind a new pointer.
pub fn lifecycle(h: &CHandle, case: &Case, rounds: usize) -> Result<(), String> {
    let mut pre = Preprocessed::new(h, case)?;
    let args = pre.args;
    let first = call(h, &pre, &args)?;
    pre.p.check(&first).map_err(|e| format!("first call: {e}"))?;
    for round in 0..rounds {
        pre.p.renew_a_values(case.seed ^ (0xA0 + round as u64));
        pre.g.a_arrays[2].write_ordered(&encode(case.types.0, &pre.p.a.values));
        let got = call(h, &pre, &args)?;
        pre.p.check(&got).map_err(|e| format!("round {round} with new A values: {e}"))?;
    }

    let mut rng = Rng::new(case.seed ^ 0xB);
    (pre.p.x, pre.p.x_bytes) = gen::vector(&mut rng, case.types.1, case.k, true);
    (pre.p.y, pre.p.y_bytes) = gen::vector(&mut rng, case.types.2, case.m, true);
    (pre.p.alpha, pre.p.beta) = (fit(case.types.3, (-2.0, 0.5)), fit(case.types.3, (0.5, -1.0)));
    pre.g.x_buf.write_ordered(&pre.p.x_bytes);
    let (alpha, beta) = scalars(h, &pre.p);
    let args = pre.g.args(&pre.p, &alpha, &beta);
    let before = call(h, &pre, &args)?;
    pre.p.check(&before).map_err(|e| format!("new X, Y, alpha and beta: {e}"))?;

    // A refused preprocess (an invalid algorithm, then a NULL buffer where one is needed) changes
    // nothing: the next call runs what the first preprocess chose, bit for bit.
    let bad_alg = Args { alg: 77, ..args };
    let s = unsafe { bad_alg.preprocess(h, ws_ptr(&pre.ws)) };
    if s != Status::OXSPARSE_STATUS_INVALID_VALUE as i32 {
        return Err(format!("preprocess with alg 77 returned {}", status_name(s)));
    }
    if pre.ws.is_some() {
        let s = unsafe { args.preprocess(h, std::ptr::null_mut()) };
        if s != Status::OXSPARSE_STATUS_INVALID_VALUE as i32 {
            return Err(format!("preprocess with a NULL buffer returned {}", status_name(s)));
        }
    }
    if call(h, &pre, &args)? != before {
        return Err("a refused preprocess changed the result's bits".into());
    }

    // The values behind a new pointer (SetValues): the pattern is the same, the buffer still valid.
    pre.p.renew_a_values(case.seed ^ 0xC);
    let moved = DevBuf::from_slice(&encode(case.types.0, &pre.p.a.values));
    expect(unsafe { oxsparseSpMatSetValues(pre.g.a, moved.ptr as *mut _) }, "SpMatSetValues")?;
    let got = call(h, &pre, &args)?;
    pre.p.check(&got).map_err(|e| format!("values behind a new pointer: {e}"))?;
    expect(unsafe { oxsparseSpMatSetValues(pre.g.a, pre.g.a_arrays[2].ptr as *mut _) }, "SpMatSetValues")?;
    // Back at the first values array, which must now hold the case's current values too.
    pre.g.a_arrays[2].write_ordered(&encode(case.types.0, &pre.p.a.values));

    // Every array moved (CsrSetPointers on CSR; COO and the others keep theirs).
    if case.fmt == Fmt::Csr {
        let moved: Vec<DevBuf> = (0..3).map(|k| DevBuf::from_slice(&pre.g.a_arrays[k].read_ordered())).collect();
        let [o, i, v] = [0, 1, 2].map(|k| moved[k].ptr as *mut std::ffi::c_void);
        expect(unsafe { oxsparseCsrSetPointers(pre.g.a, o, i, v) }, "CsrSetPointers")?;
        let got = call(h, &pre, &args)?;
        pre.p.check(&got).map_err(|e| format!("arrays moved by CsrSetPointers: {e}"))?;
        let [o, i, v] = [0, 1, 2].map(|k| pre.g.a_arrays[k].ptr as *mut std::ffi::c_void);
        expect(unsafe { oxsparseCsrSetPointers(pre.g.a, o, i, v) }, "CsrSetPointers")?;
    }
    // The buffer freed and allocated again (most likely at the same address) with other bytes.
    if let Some(size) = pre.ws.as_ref().map(|w| w.bytes) {
        pre.ws = None;
        let fresh = DevBuf::zeroed(size);
        fresh.poison(0xA5);
        pre.ws = Some(fresh);
        let got = call(h, &pre, &args)?;
        pre.p.check(&got).map_err(|e| format!("buffer reallocated: {e}"))?;
    }
    Ok(())
}

#[test]
fn preprocess_contract_holds_over_a_solver_loop() {
    let mut all: Vec<Case> = (0..3).map(|i| hub_case(15_000 + i)).collect();
    // The other shapes preprocess keeps a state for: a power law (vector kernel with lists), a
    // band (band offsets), hot columns over a large x (column order), a transposed view, FP64, and
    // 64-bit indices with base 1.
    all.push(vary(Case { pattern: Pattern::PowerLaw(20000), ..Case::new(Fmt::Csr, (20000, 40000)) }, 15_010));
    all.push(Case { pattern: Pattern::Band { below: 40, above: 40, per_row: 27 }, ..Case::new(Fmt::Csr, (100_000, 100_000)) });
    all.push(Case { pattern: Pattern::HotColumns(8), ..Case::new(Fmt::Csr, (200_000, 2_000_000)) });
    all.push(vary(Case { op: T, pattern: Pattern::PowerLaw(20000), ..Case::new(Fmt::Csr, (20000, 30000)) }, 15_011));
    all.push(Case { types: F64, it: I64, base: BASE1, ..hub_case(15_012) });
    all.push(Case { fmt: Fmt::Coo, ..hub_case(15_013) });
    all.push(Case { mode: DEVICE, ..hub_case(15_014) });
    sweep_with("spmv preprocess contract", &all, |h, case| lifecycle(h, case, 6));
}
