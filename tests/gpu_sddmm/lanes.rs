//! The kernel's shape, forced per handle (`oxsparseSetTuning`): the lanes that share one dot
//! product (`OXSPARSE_SDDMM_LANES`, 1 to 32) crossed with the values a group takes a step
//! (`OXSPARSE_SDDMM_UNROLL`, 1, 2 or 4), and the library's own choices, must each give the
//! reference's C, bitwise the same run to run and with or without preprocess. More lanes than a
//! line has vectors leave some idle; fewer make each lane walk more of the line (and hold more of
//! A's vectors while its row stays, which BSR of column-major blocks changes every value); a step
//! of 4 values may span rows, blocks and the end of a warp's run.

use super::calls::run;
use super::contract::bitwise_identical;
use super::harness::*;

pub fn lanes_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let formats = [Fmt::Csr, Fmt::Bsr { rb: 4, cb: 2, order: COL }, Fmt::Bsr { rb: 2, cb: 4, order: ROW }];
    for k in [1, 7, 33, 100, 257, 1000] {
        // Lines 16-byte aligned in place (the vector loads and A's cached vectors), then both copied.
        for (op_a, order_a, op_b, order_b) in [(N, ROW, N, COL), (T, ROW, N, ROW)] {
            let i = cases.len();
            let c = vary(
                Case { op_a, order_a, op_b, order_b, types: pick(&COMBOS, i), ..Case::new(pick(&formats, i), (64, k, 48)) },
                10_000 + i,
            );
            let pad = (8 - k % 8) % 8;
            cases.push(Case { pad_a: pad, pad_b: pad, ..c });
        }
    }
    let more = [
        Case { pattern: Pattern::Hubs(10_000), ..Case::new(Fmt::Csr, (200, 64, 10_240)) },
        // Fewer values than one step of the warp.
        Case::new(Fmt::Csr, (3, 33, 5)),
        Case { batch: Batch { a: 3, b: 3, c: 3, share: Share::Own }, ..Case::new(Fmt::Bsr { rb: 3, cb: 2, order: ROW }, (36, 64, 24)) },
    ];
    cases.extend(more.into_iter().enumerate().map(|(i, c)| vary(c, 10_100 + i)));
    cases
}

#[test]
fn forced_lanes_and_unroll() {
    let Some(_gpu) = crate::common::gpu("sddmm forced lanes and unroll") else { return };
    let cases = lanes_cases();
    let mut failures = Vec::new();
    let mut runs = 0;
    for lanes in [None, Some("1"), Some("2"), Some("4"), Some("8"), Some("16"), Some("32")] {
        for unroll in [None, Some("1"), Some("2"), Some("4")] {
            let h = CHandle::unforced();
            h.set_tuning("OXSPARSE_SDDMM_LANES", lanes);
            h.set_tuning("OXSPARSE_SDDMM_UNROLL", unroll);
            for case in &cases {
                runs += 1;
                if let Err(e) = bitwise_identical(&h, case) {
                    failures.push(format!("lanes {lanes:?}, unroll {unroll:?}: {}: {e}", case.label()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {runs} failed; first ones:\n{}", failures.len(), failures[..failures.len().min(10)].join("\n"));
    println!("sddmm forced lanes and unroll: {runs} (case, lanes, unroll) right and bitwise stable");
}

/// CSR cases the lean kernel takes (lines of whole 16-byte vectors, in place and copied), in every
/// type, with k from one vector to the lean kernel's widest lines.
pub fn lean_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, k) in [4, 8, 16, 32, 64, 96, 128, 256].into_iter().enumerate() {
        for (j, types) in COMBOS.into_iter().enumerate() {
            let (op_a, order_a, op_b, order_b) = if (i + j) % 3 == 0 { (T, ROW, N, ROW) } else { (N, ROW, N, COL) };
            let c = Case { op_a, order_a, op_b, order_b, types, ..Case::new(Fmt::Csr, (96, k, 80)) };
            cases.push(vary(c, 10_200 + cases.len()));
        }
    }
    cases.push(vary(Case { pattern: Pattern::Hubs(10_000), ..Case::new(Fmt::Csr, (200, 32, 10_240)) }, 10_300));
    cases
}

/// The lean kernel sums each value in the general kernel's order: a handle held to the general
/// kernel (`OXSPARSE_SDDMM_KERNEL=general`) gives the same bits, at every lane count the lean
/// kernel has a shape for.
#[test]
fn lean_and_general_kernels_agree_bitwise() {
    let Some(_gpu) = crate::common::gpu("sddmm lean and general kernels") else { return };
    let mut failures = Vec::new();
    let mut runs = 0;
    for lanes in [None, Some("1"), Some("2"), Some("4"), Some("8")] {
        let (lean, general) = (CHandle::unforced(), CHandle::unforced());
        for h in [&lean, &general] {
            h.set_tuning("OXSPARSE_SDDMM_LANES", lanes);
        }
        general.set_tuning("OXSPARSE_SDDMM_KERNEL", Some("general"));
        for case in lean_cases() {
            runs += 1;
            let p = Problem::new(&case);
            let outcome = Gpu::upload(&p).and_then(|g| {
                let (x, y) = (run(&lean, &p, &g, true)?, run(&general, &p, &g, false)?);
                p.check(&x)?;
                if x != y {
                    return Err("the lean and the general kernel differ bitwise".into());
                }
                Ok(())
            });
            if let Err(e) = outcome {
                failures.push(format!("lanes {lanes:?}: {}: {e}", case.label()));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {runs} failed; first ones:\n{}", failures.len(), failures[..failures.len().min(10)].join("\n"));
    println!("sddmm lean and general kernels: {runs} (case, lanes) the same bits");
}
