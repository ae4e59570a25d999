//! Every format x opA in FP32 and complex FP32 (H conjugates), BSR block shapes and orders, and
//! Sliced-ELL slice sizes. Index type, base, pointer mode, scalars and algorithm hint are cycled.

use super::harness::*;

pub const FORMATS: [Fmt; 9] =
    [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bsr(COL), Fmt::Sell(1), Fmt::Sell(2), Fmt::Sell(4), Fmt::Sell(32)];
/// (m, k): multiples of 2, 3 and 4 give BSR real blocks; 33 and 37 rows leave short last slices.
const SHAPES: [(i64, i64); 8] = [(36, 24), (24, 36), (60, 12), (12, 60), (1, 36), (36, 1), (33, 48), (37, 20)];

pub fn every_format_and_op_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for types in [F32, C32] {
        for fmt in FORMATS {
            for &op in ops_for(fmt) {
                // Every shape in FP32; two per (format, op) in complex.
                let shapes = if types == F32 { &SHAPES[..] } else { &SHAPES[(cases.len() % 4) * 2..][..2] };
                for &shape in shapes {
                    let i = cases.len();
                    cases.push(vary(Case { op, types, ..Case::new(fmt, shape) }, i));
                }
            }
        }
    }
    cases
}

#[test]
fn every_format_and_op() {
    sweep("spmv every format and op (fp32, c32)", &every_format_and_op_cases());
}

/// Square and rectangular blocks from 1 x 1 to 16 x 16, both block orders, about 11 x 13 blocks.
pub fn bsr_block_shapes_cases() -> Vec<Case> {
    let blocks = [(1, 1), (2, 2), (3, 3), (4, 4), (8, 8), (16, 16), (2, 3), (3, 2), (4, 8), (1, 5), (5, 1), (16, 4)];
    let mut cases = Vec::new();
    for (rb, cb) in blocks {
        for order in [ROW, COL] {
            let i = cases.len();
            let c = Case { block: (rb, cb), types: pick(&[F32, F64, C32], i), ..Case::new(Fmt::Bsr(order), (rb * 11, cb * 13)) };
            cases.push(vary(c, 100 + i));
        }
    }
    cases
}

#[test]
fn bsr_block_shapes() {
    sweep("spmv bsr block shapes", &bsr_block_shapes_cases());
}

/// Slice sizes 1 to 128 (a slice larger than the matrix included) over short, long, heavy-row
/// and empty-row matrices; the generator adds an all-padding column to every third slice.
pub fn sliced_ell_slice_sizes_cases() -> Vec<Case> {
    let shapes = [
        ((1, 9), Pattern::Random),
        ((33, 40), Pattern::Random),
        ((100, 50), Pattern::Cycle(&[0, 1, 0, 0, 7, 2])),
        ((257, 300), Pattern::HeavyRow(290)),
    ];
    let mut cases = Vec::new();
    for size in [1, 2, 3, 4, 7, 32, 64, 128] {
        for (shape, pattern) in shapes {
            let i = cases.len();
            cases.push(vary(Case { pattern, types: pick(&[F32, F64], i / 3), ..Case::new(Fmt::Sell(size), shape) }, 200 + i));
        }
    }
    cases
}

#[test]
fn sliced_ell_slice_sizes() {
    sweep("spmv sliced-ell slice sizes", &sliced_ell_slice_sizes_cases());
}
