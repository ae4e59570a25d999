//! Every (A/B, C, compute) value type combination SpMM accepts, each over the formats and a few op
//! pairs (16 cases per combination; H conjugates the complex types).

use super::harness::*;
use oxsparse::types::DataType::*;
use oxsparse::types::Operation;

/// The accepted combinations: (A and B, C, compute).
pub const COMBOS: [Types; 12] = [
    (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
    (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F),
    (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_8I, CUDA_R_32I, CUDA_R_32I),
    (CUDA_R_8I, CUDA_R_32F, CUDA_R_32F),
    (CUDA_C_16F, CUDA_C_16F, CUDA_C_32F),
    (CUDA_C_16BF, CUDA_C_16BF, CUDA_C_32F),
];
const FORMATS: [Fmt; 5] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bell];
const SHAPES: [(i64, i64, i64); 4] = [(36, 24, 7), (24, 12, 33), (12, 36, 8), (48, 48, 16)];

fn op_pairs(fmt: Fmt) -> &'static [(Operation, Operation)] {
    match fmt {
        Fmt::Bsr(_) => &[(N, N), (N, H)],
        Fmt::Bell => &[(N, N), (N, T)],
        _ => &[(N, N), (T, N), (H, T), (N, H)],
    }
}

pub fn cases(combos: &[Types], seed: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &types in combos {
        for fmt in FORMATS {
            for &(op_a, op_b) in op_pairs(fmt) {
                let i = cases.len();
                let (order_b, order_c) = (pick(&[COL, ROW], i), pick(&[ROW, COL], i / 2));
                let c = Case { op_a, op_b, order_b, order_c, types, ..Case::new(fmt, pick(&SHAPES, i)) };
                cases.push(vary(c, seed + i));
            }
        }
    }
    cases
}

#[test]
fn single_and_double_precision() {
    sweep("spmm types fp32/fp64/c32/c64", &cases(&COMBOS[..4], 2000));
}

#[test]
fn half_and_bfloat16() {
    sweep("spmm types f16/bf16", &cases(&COMBOS[4..8], 3000));
}

#[test]
fn int8() {
    sweep("spmm types int8", &cases(&COMBOS[8..10], 4000));
}

#[test]
fn complex_half_and_bfloat16() {
    sweep("spmm types c16/cbf16", &cases(&COMBOS[10..], 5000));
}
