//! Strided batches: C's count is the call's, A and B have 1 or the same, which gives (A B) o C_i,
//! (A_i B) o C_i, (A B_i) o C_i and (A_i B_i) o C_i. C's batches own their arrays (rows and columns
//! of each batch drawn anew), share their row offsets (stride 0, columns renumbered per batch), or
//! for BSR share their whole structure (offsets and block columns stride 0, values apart). Sparse
//! batches lie 3 elements apart, the values between them 0xFF that must survive; dense batches one
//! 16-byte vector apart, poisoned.

use super::harness::*;
use oxsparse::types::DataType::*;

/// (A, B, C) batch counts.
const MODES: [(i32, i32, i32); 4] = [(1, 1, 3), (3, 1, 3), (1, 3, 3), (3, 3, 3)];
const TYPES: [Types; 5] =
    [F32, F64, (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F)];
/// C's format and how its batches share their arrays.
const SHARING: [(Fmt, Share); 5] = [
    (Fmt::Csr, Share::Own),
    (Fmt::Csr, Share::Offsets),
    (Fmt::Bsr { rb: 2, cb: 3, order: ROW }, Share::Own),
    (Fmt::Bsr { rb: 3, cb: 2, order: COL }, Share::Offsets),
    (Fmt::Bsr { rb: 2, cb: 2, order: ROW }, Share::Structure),
];

pub fn four_modes_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (a, b, c) in MODES {
        for (fmt, share) in SHARING {
            // Read in place, then both copied (a copy per batch of a batched operand, one for a
            // shared one).
            for (op_a, order_a, op_b, order_b) in [(N, ROW, N, COL), (N, COL, T, COL)] {
                let i = cases.len();
                let case = Case {
                    op_a,
                    order_a,
                    op_b,
                    order_b,
                    types: pick(&TYPES, i / 2),
                    batch: Batch { a, b, c, share },
                    ..Case::new(fmt, pick(&[(36, 33, 24), (24, 64, 36), (12, 7, 30)], i))
                };
                cases.push(vary(case, 6000 + i));
            }
        }
    }
    cases
}

#[test]
fn four_batch_modes() {
    sweep("sddmm batch modes (A B), (A_i B), (A B_i), (A_i B_i) o C_i", &four_modes_cases());
}

/// Many batches: 1000 of a small C sharing its offsets (CSR) or its structure (BSR), one A, B per
/// batch; and 257 batches of everything.
pub fn many_cases() -> Vec<Case> {
    let shapes = [
        (Fmt::Csr, Batch { a: 1, b: 1000, c: 1000, share: Share::Offsets }, (8, 32, 6)),
        (Fmt::Bsr { rb: 2, cb: 2, order: COL }, Batch { a: 1, b: 1000, c: 1000, share: Share::Structure }, (8, 7, 6)),
        (Fmt::Csr, Batch { a: 257, b: 257, c: 257, share: Share::Own }, (12, 33, 10)),
    ];
    shapes
        .iter()
        .enumerate()
        .map(|(i, &(fmt, batch, shape))| vary(Case { batch, types: pick(&TYPES, i), ..Case::new(fmt, shape) }, 6100 + i))
        .collect()
}

#[test]
fn many_batches() {
    sweep("sddmm many batches", &many_cases());
}
