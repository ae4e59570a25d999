//! Repeated preprocessed calls (src/ops/spmm/replay.rs): a call with the arguments of the last one
//! on its matrix sends that call's launches again. Each such call must give C for the data as it
//! is now, bitwise the same as the first for the same data; new values written in place must be
//! read; other scalars take the whole path, and the first ones, called again, are right again.
//! Cases: the determinism group's and a third of the short-, split- and warp-row groups' (so
//! preprocess chooses each kernel, and the tile kernel with rows that cross its tiles, whose
//! epoch must be new on every call), all preprocessed. C is restored (NaN when beta == 0) before
//! every call.

use super::gen;
use super::harness::*;
use super::*;

fn cases() -> Vec<Case> {
    let third = |cs: Vec<Case>| cs.into_iter().step_by(3).collect::<Vec<_>>();
    let mut all = super::determinism::cases();
    all.extend(third(super::short_rows::cases()));
    all.extend(third(super::split_rows::cases()));
    all.extend(third(super::warp_rows::cases()));
    all.into_iter().map(|c| Case { preprocess: true, ..c }).collect()
}

/// One SpMM with `args` on C restored from `p`, checked against `p`'s reference; returns C.
fn call_and_check(h: &CHandle, p: &Problem, g: &Gpu, args: &Args, ws: &Option<DevBuf>, what: &str) -> Result<Vec<u8>, String> {
    write(&g.c_buf, &p.c_bytes);
    expect(unsafe { args.spmm(h, ws_ptr(ws)) }, "SpMM")?;
    let got = g.c_buf.to_vec();
    p.check(&got).map_err(|e| format!("{what}: {e}"))?;
    Ok(got)
}

fn repeated_calls(h: &CHandle, case: &Case) -> Result<(), String> {
    let mut p = Problem::new(case);
    // Held whole: `args` points at the scalars it keeps.
    let pre = preprocessed(h, &p)?;
    let Preprocessed { g, args, ws, .. } = &pre;
    let first = call_and_check(h, &p, g, args, ws, "call 1")?;
    for i in 2..=4 {
        if call_and_check(h, &p, g, args, ws, &format!("call {i}"))? != first {
            return Err(format!("call {i} differs bitwise from call 1"));
        }
    }
    // New values of A and B in place (same pointers, same scalars): the repeated call reads them.
    p.renew_a_values(case.seed ^ 0x4E57);
    let mut rng = Rng::new(case.seed ^ 0xB0B);
    (p.b, p.b_bytes) = gen::dense(&mut rng, case.b_shape(), case.order_b, case.pad_b, case.batch.b, case.types.0, true);
    g.rewrite(&p);
    call_and_check(h, &p, g, args, ws, "after new A and B values in place")?;
    // Other scalars (the whole path), then the first ones again, twice (whole path, then repeated).
    let (first_alpha, first_beta) = (p.alpha, p.beta);
    (p.alpha, p.beta) = (fit(case.types.2, (-2.0, 0.5)), fit(case.types.2, (0.5, -1.0)));
    let mut fresh = Rng::new(case.seed ^ 0xC);
    (p.c, p.c_bytes) = gen::dense(&mut fresh, (case.m, case.n), case.order_c, case.pad_c, case.batch.c, case.types.1, true);
    let (alpha2, beta2) = scalars(h, &p);
    call_and_check(h, &p, g, &g.args(&p, &alpha2, &beta2), ws, "with other scalars")?;
    (p.alpha, p.beta) = (first_alpha, first_beta);
    for what in ["the first scalars again", "the first scalars repeated"] {
        call_and_check(h, &p, g, args, ws, what)?;
    }
    Ok(())
}

#[test]
fn repeated_preprocessed_calls_send_the_same_launches_and_read_current_data() {
    sweep_with("spmm repeated preprocessed calls", &cases(), repeated_calls);
}
