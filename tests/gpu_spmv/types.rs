//! Every (A, X, Y, compute) value type combination SpMV accepts, each over the formats and ops
//! (10 cases per combination; H conjugates complex A, and is plain T for real A with complex X).

use super::harness::*;
use oxsparse::types::DataType::*;
use oxsparse::types::Operation;

/// The accepted combinations: (A, X, Y, compute).
pub const COMBOS: [Types; 15] = [
    (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
    (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F, CUDA_C_32F),
    (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUDA_R_32I),
    (CUDA_R_8I, CUDA_R_8I, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
    (CUDA_C_16F, CUDA_C_16F, CUDA_C_16F, CUDA_C_32F),
    (CUDA_C_16BF, CUDA_C_16BF, CUDA_C_16BF, CUDA_C_32F),
    (CUDA_R_32F, CUDA_C_32F, CUDA_C_32F, CUDA_C_32F),
    (CUDA_R_64F, CUDA_C_64F, CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_32F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
];

/// (format, opA) pairs each combination runs.
const FORMAT_OPS: [(Fmt, Operation); 10] = [
    (Fmt::Csr, N),
    (Fmt::Csr, H),
    (Fmt::Csc, N),
    (Fmt::Csc, T),
    (Fmt::Coo, N),
    (Fmt::Coo, H),
    (Fmt::Bsr(ROW), N),
    (Fmt::Bsr(COL), N),
    (Fmt::Sell(4), N),
    (Fmt::Sell(32), N),
];
/// Small enough that int8 sums stay far inside int32 and 16-bit outputs inside their range.
const SHAPES: [(i64, i64); 5] = [(36, 24), (24, 12), (12, 36), (48, 48), (33, 33)];

pub fn cases(combos: &[Types], seed: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &types in combos {
        for (fmt, op) in FORMAT_OPS {
            let i = cases.len();
            cases.push(vary(Case { op, types, ..Case::new(fmt, pick(&SHAPES, i)) }, seed + i));
        }
    }
    cases
}

#[test]
fn single_and_double_precision() {
    sweep("spmv types fp32/fp64/c32/c64", &cases(&COMBOS[..4], 1000));
}

#[test]
fn int8() {
    sweep("spmv types int8", &cases(&COMBOS[4..6], 2000));
}

#[test]
fn half_and_bfloat16() {
    sweep("spmv types f16/bf16", &cases(&COMBOS[6..12], 3000));
}

#[test]
fn mixed_real_and_complex_and_precision() {
    sweep("spmv types real A with complex or f64 X", &cases(&COMBOS[12..], 4000));
}
