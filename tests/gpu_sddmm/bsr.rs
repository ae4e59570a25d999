//! BSR C: blocks of 2, 3, 4, 8 and 16, square and not (2 x 3, 3 x 2, 4 x 8, 16 x 2, 2 x 16), both
//! block orders, every layout of A and B in turn; each value of a block is its own dot product (the
//! row and column of a value follow from its place in the block and the block order).

use super::harness::*;
use oxsparse::types::DataType::*;

const BLOCKS: [(i64, i64); 10] = [(2, 2), (3, 3), (4, 4), (8, 8), (16, 16), (2, 3), (3, 2), (4, 8), (16, 2), (2, 16)];
const TYPES: [Types; 5] =
    [F32, F64, (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F)];

pub fn block_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (rb, cb) in BLOCKS {
        for order in [ROW, COL] {
            for (op_a, op_b) in [(N, N), (T, T)] {
                let i = cases.len();
                // 7 block rows (r % 5 == 3 empty), 5 block columns.
                let c = Case {
                    op_a,
                    op_b,
                    order_a: pick(&[ROW, COL], i / 2),
                    order_b: pick(&[COL, ROW], i / 3),
                    types: pick(&TYPES, i),
                    ..Case::new(Fmt::Bsr { rb, cb, order }, (7 * rb, pick(&[7, 32, 33, 1], i), 5 * cb))
                };
                cases.push(vary(c, 5000 + i));
            }
        }
    }
    cases
}

#[test]
fn block_sizes_and_orders() {
    sweep("sddmm BSR block sizes and orders", &block_cases());
}

/// Every block position stored (no empty block rows): large blocks whose values are dealt over
/// several warps' runs, a run ending inside a block.
pub fn full_cases() -> Vec<Case> {
    [(16, 16, ROW), (8, 4, COL), (3, 16, COL)]
        .iter()
        .enumerate()
        .map(|(i, &(rb, cb, order))| {
            let c = Case { pattern: Pattern::Full, types: pick(&TYPES, i), ..Case::new(Fmt::Bsr { rb, cb, order }, (6 * rb, 64, 9 * cb)) };
            vary(c, 5100 + i)
        })
        .collect()
}

#[test]
fn full_block_patterns() {
    sweep("sddmm BSR every block stored", &full_cases());
}
