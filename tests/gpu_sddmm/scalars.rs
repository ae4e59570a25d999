//! The scalars: general ones, beta == 0 (C is NaN before the call and must never be read),
//! beta == 1, alpha == 0 (C = beta * C), both zero (C = 0 from NaN), in host and device pointer
//! modes over real, complex and 16-bit types; and k == 0 (no products: C = beta * C).

use super::harness::*;
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::DataType::*;

const PAIRS: [(Value, Value); 6] =
    [((1.5, -0.5), (-0.75, 0.25)), ((-0.75, 0.25), ZERO), ((0.5, 1.0), (1.0, 0.0)), (ZERO, (0.5, -2.0)), (ZERO, ZERO), ((2.0, 0.0), ZERO)];
const TYPES: [Types; 4] =
    [F32, (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F), (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F), (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F)];

pub fn scalar_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (alpha, beta) in PAIRS {
        for mode in [HOST, DEVICE] {
            for types in TYPES {
                let i = cases.len();
                let fmt = pick(&[Fmt::Csr, Fmt::Bsr { rb: 4, cb: 3, order: COL }], i);
                let (op_a, order_a) = pick(&[(N, ROW), (T, ROW)], i / 2);
                let c = vary(Case { op_a, order_a, types, ..Case::new(fmt, (48, 33, 36)) }, 7000 + i);
                cases.push(Case { alpha, beta, mode, ..c });
            }
        }
    }
    cases
}

#[test]
fn scalars_in_both_pointer_modes() {
    sweep("sddmm scalars (beta 0 over NaN, alpha 0) x pointer modes", &scalar_cases());
}

/// k == 0: op(A) has no columns, every stored value becomes beta * C (0 where beta == 0, from NaN),
/// with and without batches, whatever the layouts.
pub fn k_zero_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in [Fmt::Csr, Fmt::Bsr { rb: 2, cb: 2, order: ROW }] {
        for beta in [(-0.75, 0.25), ZERO] {
            for (op_a, order_a, op_b, order_b) in [(N, ROW, N, COL), (T, ROW, N, ROW)] {
                let i = cases.len();
                let batch = pick(&[NO_BATCH, Batch { a: 2, b: 1, c: 2, share: Share::Offsets }], i);
                let c =
                    vary(Case { op_a, order_a, op_b, order_b, batch, types: pick(&COMBOS, i), ..Case::new(fmt, (24, 0, 18)) }, 7100 + i);
                cases.push(Case { beta, ..c });
            }
        }
    }
    cases
}

#[test]
fn k_zero_scales_c() {
    sweep("sddmm k == 0: C = beta * C", &k_zero_cases());
}
