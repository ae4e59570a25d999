//! The lanes that share one dot product, forced per handle with `OXSPARSE_SDDMM_LANES`
//! (`oxsparseSetTuning`): every count from 1 to 32, and the library's own choice (at most 8), must
//! give the reference's C, bitwise the same run to run and with or without preprocess. More lanes
//! than a line has vectors leave some idle; fewer make each lane walk more of the line (and hold
//! more of A's vectors while its row stays, which BSR of column-major blocks changes every value).

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
    let hub = Case { pattern: Pattern::Hubs(10_000), ..Case::new(Fmt::Csr, (200, 64, 10_240)) };
    cases.push(vary(hub, 10_100));
    cases
}

#[test]
fn forced_lane_counts() {
    let Some(_gpu) = crate::common::gpu("sddmm forced lanes per dot product") else { return };
    let cases = lanes_cases();
    let mut failures = Vec::new();
    for lanes in [None, Some("1"), Some("2"), Some("4"), Some("8"), Some("16"), Some("32")] {
        let h = CHandle::unforced();
        h.set_tuning("OXSPARSE_SDDMM_LANES", lanes);
        for case in &cases {
            if let Err(e) = bitwise_identical(&h, case) {
                failures.push(format!("lanes {lanes:?}: {}: {e}", case.label()));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures; first ones:\n{}", failures.len(), failures[..failures.len().min(10)].join("\n"));
    println!("sddmm forced lanes: {} cases x 7 lane counts right and bitwise stable", cases.len());
}
