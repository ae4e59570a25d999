//! Every (A/B, C, compute) type combination SDDMM accepts, each over CSR and BSR (row- and
//! column-major blocks, square and not) and every opA x opB (36 cases per combination; the layouts
//! of A and B cycle, so that both are read in place in some cases and copied in others).

use super::harness::*;

const FORMATS: [Fmt; 3] = [Fmt::Csr, Fmt::Bsr { rb: 2, cb: 3, order: ROW }, Fmt::Bsr { rb: 3, cb: 2, order: COL }];
/// (m, k, n): m and n multiples of 6, so that both block shapes divide them; k odd, a multiple of
/// every vector width, and longer than a warp's loads.
const SHAPES: [(i64, i64, i64); 4] = [(36, 33, 24), (24, 64, 36), (12, 7, 30), (48, 128, 12)];

pub fn cases(combos: &[Types], seed: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &types in combos {
        for fmt in FORMATS {
            for op_a in [N, T] {
                for op_b in [N, T] {
                    for order in [(ROW, COL), (COL, ROW), (ROW, ROW)] {
                        let i = cases.len();
                        let c = Case { op_a, op_b, order_a: order.0, order_b: order.1, types, ..Case::new(fmt, pick(&SHAPES, i)) };
                        cases.push(vary(c, seed + i));
                    }
                }
            }
        }
    }
    cases
}

#[test]
fn single_double_and_complex() {
    sweep("sddmm types fp32/fp64/c32/c64", &cases(&COMBOS[..4], 1000));
}

#[test]
fn half_and_bfloat16() {
    sweep("sddmm types f16/bf16 (C fp32, f16, bf16)", &cases(&COMBOS[4..], 2000));
}
