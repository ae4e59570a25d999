//! The kernel's shape, forced per handle (`oxsparseSetTuning`): the lanes that share one dot
//! product (`OXSPARSE_SDDMM_LANES`, 1 to 32) crossed with the values a group takes a step
//! (`OXSPARSE_SDDMM_UNROLL`, 1, 2 or 4), and the library's own choices, must each give the
//! reference's C, bitwise the same run to run and with or without preprocess. More lanes than a
//! line has vectors leave some idle; fewer make each lane walk more of the line (and hold more of
//! A's vectors while its row stays, which BSR of column-major blocks changes every value); a step
//! of 4 values may span rows, blocks and the end of a warp's run.

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
