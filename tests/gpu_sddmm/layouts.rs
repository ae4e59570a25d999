//! How A and B lie in memory: every opA x opB x order of A x order of B (op(A)'s rows and op(B)'s
//! columns read in place, or copied first), leading dimensions well beyond the minimum, operands
//! whose first value lies one element past a 16-byte boundary (every vector load of a line off:
//! the kernel must fall back to single loads), and lines that all start on 16 bytes (the vector
//! loads, with a tail of single elements when k is not a whole number of vectors).

use super::harness::*;
use oxsparse::types::DataType::*;
use oxsparse::types::Order;

const FORMATS: [Fmt; 3] = [Fmt::Csr, Fmt::Bsr { rb: 4, cb: 4, order: ROW }, Fmt::Bsr { rb: 2, cb: 2, order: COL }];
const SHAPES: [(i64, i64, i64); 4] = [(40, 33, 24), (24, 100, 48), (8, 7, 64), (64, 64, 16)];
const ORDERS: [Order; 2] = [ROW, COL];

/// Every operation and order of A and B, over `formats`, with `types` cycled.
pub fn layouts(formats: &[Fmt], types: &[Types], seed: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &fmt in formats {
        for op_a in [N, T] {
            for op_b in [N, T] {
                for order_a in ORDERS {
                    for order_b in ORDERS {
                        let i = cases.len();
                        let c = Case { op_a, op_b, order_a, order_b, types: pick(types, i / 2), ..Case::new(fmt, pick(&SHAPES, i)) };
                        cases.push(vary(c, seed + i));
                    }
                }
            }
        }
    }
    cases
}

#[test]
fn every_operation_and_order() {
    sweep("sddmm every op and order of A and B", &layouts(&FORMATS, &[F32, F64], 3000));
}

/// Every layout in CSR with A's lines 17 and B's 9 elements longer than needed.
pub fn wide_cases() -> Vec<Case> {
    let f16: Types = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let types = [F32, f16, (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F)];
    layouts(&FORMATS[..1], &types, 3100).into_iter().map(|c| Case { pad_a: 17, pad_b: 9, ..c }).collect()
}

#[test]
fn wide_leading_dimensions() {
    sweep("sddmm leading dimensions beyond the minimum", &wide_cases());
}

/// Types whose elements are narrower than a vector (a complex double is one whole vector: one
/// element off is still aligned).
const NARROW: [Types; 5] =
    [F32, F64, (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F), (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F)];

/// A and B one element off (each, or both) in layouts whose lines would otherwise all start on 16
/// bytes (k a multiple of every vector width, no padding): read in place, and copied.
pub fn misaligned_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for types in NARROW {
        for (shift_a, shift_b) in [(1, 0), (0, 1), (1, 1)] {
            for (op_a, order_a, op_b, order_b) in [(N, ROW, N, COL), (T, ROW, T, COL), (N, COL, T, ROW)] {
                for fmt in [Fmt::Csr, Fmt::Bsr { rb: 2, cb: 4, order: ROW }] {
                    let i = cases.len();
                    let k = pick(&[64, 72, 128, 8], i);
                    let c = Case { op_a, op_b, order_a, order_b, types, ..Case::new(fmt, (48, k, 40)) };
                    cases.push(Case { shift_a, shift_b, pad_a: 0, pad_b: 0, ..vary(c, 3200 + i) });
                }
            }
        }
    }
    cases
}

#[test]
fn misaligned_operands() {
    sweep("sddmm A and B one element off 16 bytes", &misaligned_cases());
}

/// Every type, lines 16-byte aligned, read in place: A's and B's ld a multiple of 8 elements (so
/// of every vector width, whatever the type), k whole vectors (8, 256) or not (33, 100: a tail of
/// single elements after the vectors), one batch or two (batches 16-byte aligned too).
pub fn aligned_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for types in COMBOS {
        for k in [8, 33, 100, 256] {
            for fmt in [Fmt::Csr, Fmt::Bsr { rb: 8, cb: 8, order: COL }] {
                let i = cases.len();
                let c = vary(Case { types, ..Case::new(fmt, (64, k, 48)) }, 3300 + i);
                let pad = (8 - k % 8) % 8;
                cases.push(Case {
                    pad_a: pad,
                    pad_b: pad,
                    batch: pick(&[NO_BATCH, Batch { a: 2, b: 2, c: 2, share: Share::Own }], i / 2),
                    ..c
                });
            }
        }
    }
    cases
}

#[test]
fn aligned_lines() {
    sweep("sddmm 16-byte aligned lines", &aligned_cases());
}
