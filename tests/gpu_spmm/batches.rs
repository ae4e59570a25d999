//! Strided batches: C_i = A_i op B_i, A op B_i and A_i op B, for CSR (own or shared row offsets)
//! and COO. Sparse batches lie `nnz + 2` entries apart with in-range garbage between them; dense
//! batches `ld * lines + 5` elements apart with poisoned gaps that must survive.

use super::harness::*;
use oxsparse::types::DataType::*;

/// (A, B, C) batch counts.
const MODES: [(i32, i32, i32); 3] = [(3, 3, 3), (1, 3, 3), (3, 1, 3)];

pub fn three_batch_modes_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (fmt, shared) in [(Fmt::Csr, false), (Fmt::Coo, false), (Fmt::Csr, true)] {
        for (a, b, c) in MODES {
            if shared && a == 1 {
                continue;
            }
            for op_a in [N, T] {
                let i = cases.len();
                let (order_b, order_c) = (pick(&[COL, ROW], i), pick(&[ROW, COL], i / 2));
                let case = Case {
                    op_a,
                    op_b: pick(&[N, T, H], i / 3),
                    order_b,
                    order_c,
                    batch: Batch { a, b, c, shared },
                    ..Case::new(fmt, pick(&[(33, 24, 7), (24, 33, 12)], i))
                };
                cases.push(vary(case, 11_000 + i));
            }
        }
    }
    cases
}

#[test]
fn three_batch_modes() {
    sweep("spmm batches (fp32)", &three_batch_modes_cases());
}

pub fn batches_of_other_types_cases() -> Vec<Case> {
    let types = [(CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), (CUDA_R_8I, CUDA_R_32I, CUDA_R_32I)];
    let mut cases = Vec::new();
    for t in types {
        for (fmt, shared) in [(Fmt::Csr, true), (Fmt::Coo, false)] {
            let i = cases.len();
            let case = Case { op_a: pick(&[N, H], i), types: t, batch: Batch { a: 3, b: 3, c: 3, shared }, ..Case::new(fmt, (33, 24, 7)) };
            cases.push(vary(case, 12_000 + i));
        }
    }
    cases
}

#[test]
fn batches_of_other_types() {
    sweep("spmm batches (c32, f16, int8)", &batches_of_other_types_cases());
}
