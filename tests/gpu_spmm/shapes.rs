//! Shapes (m, k, n in {0, 1, 7, 33, 1000+}), sparsity patterns (empty rows, a row of 20000
//! entries, one column, no entries), index types x bases, wide leading dimensions x pointer modes,
//! column-major operands large enough for the staging copies' larger tiles.

use super::harness::*;
use oxsparse::types::DataType::*;

const FORMATS: [Fmt; 5] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bell];
const F64: Types = (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F);

/// Every format on `shapes`, FP32 and FP64 alternating, opA = T on every other element case.
pub fn shape_cases(shapes: &[(i64, i64, i64)], seed: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &shape in shapes {
        for fmt in FORMATS {
            let i = cases.len();
            let op_a = if ops_for(fmt).0.len() > 1 && i % 2 == 1 { T } else { N };
            let (order_b, order_c) = (pick(&[COL, ROW], i / 2), pick(&[ROW, COL], i / 3));
            let c = Case { op_a, op_b: pick(&[N, T], i / 5), order_b, order_c, types: pick(&[F32, F64], i / 4), ..Case::new(fmt, shape) };
            cases.push(vary(c, seed + i));
        }
    }
    cases
}

pub const SMALL: [(i64, i64, i64); 10] =
    [(0, 0, 0), (0, 7, 7), (7, 0, 7), (7, 7, 0), (1, 1, 1), (1, 33, 7), (33, 1, 33), (7, 33, 1), (33, 33, 33), (7, 7, 7)];
pub const LARGE: [(i64, i64, i64); 3] = [(1000, 1000, 33), (33, 1000, 1000), (1000, 7, 1000)];

#[test]
fn small_and_empty_shapes() {
    sweep("spmm small and empty shapes", &shape_cases(&SMALL, 6000));
}

#[test]
fn large_shapes() {
    sweep("spmm large shapes", &shape_cases(&LARGE, 7000));
}

/// Column-major op(B) and C large enough for the staging copies' 64 x 64 tiles (a wave of blocks
/// or more: src/kernels/spmm.rs `stage_tile`; the other tests' operands take the 32 x 32 ones):
/// op(B) of 70000 rows, C of 70000 rows (a plain call stages C), both at once in FP16.
pub fn large_column_major_cases() -> Vec<Case> {
    let f16: Types = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let shapes = [
        ((200, 70_000, 128), F32, COL, COL),
        ((70_000, 200, 128), F64, ROW, COL),
        ((70_000, 70_000, 64), f16, COL, COL),
        ((300, 70_000, 128), F64, COL, ROW),
    ];
    shapes
        .iter()
        .enumerate()
        .map(|(i, &(shape, types, order_b, order_c))| {
            vary(Case { types, order_b, order_c, pattern: Pattern::HeavyRow(3000), ..Case::new(Fmt::Csr, shape) }, 7100 + i)
        })
        .collect()
}

#[test]
fn large_column_major_operands() {
    sweep("spmm large column-major operands", &large_column_major_cases());
}

/// Pushes `vary(c)` and returns it for overrides.
fn push(cases: &mut Vec<Case>, c: Case, seed: usize) -> &mut Case {
    let i = cases.len();
    cases.push(vary(c, seed + i));
    cases.last_mut().unwrap()
}

pub fn sparsity_patterns_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // One row of A holds 20000 of its ~20100 entries (a column of op(A) when opA != N).
    for fmt in [Fmt::Csr, Fmt::Csc, Fmt::Coo] {
        for op_a in [N, T] {
            let shape = if op_a == N { (64, 20011, 7) } else { (20011, 64, 7) };
            push(&mut cases, Case { op_a, pattern: Pattern::HeavyRow(20000), ..Case::new(fmt, shape) }, 8000);
        }
    }
    push(&mut cases, Case { pattern: Pattern::HeavyRow(20000), order_b: ROW, ..Case::new(Fmt::Bsr(ROW), (64, 40000, 5)) }, 8000);
    // The same row across the 78 tiles (of 256 entries) of the tile kernel, with three 32-column
    // slices, or a last slice of 8 columns (FP32: 8 lanes a group, FP64: 16, 16-bit: 4): the
    // crossing row waits on a flag per tile and slice, and the block where it ends adds the
    // partials its groups loaded side by side, a round per 16 (FP32), 8 or 32 of them; a row of
    // 40000 (157 tiles) has more flags than the block has threads. Rows of whole 16-byte vectors
    // (no padding), so that the tile kernel runs.
    let f16: Types = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let bf16_f32: Types = (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F);
    for (types, n, row) in [(F32, 96, 20000), (F64, 96, 20000), (f16, 96, 20000), (F32, 72, 40000), (f16, 72, 20000), (bf16_f32, 96, 20000)]
    {
        let c = push(
            &mut cases,
            Case { pattern: Pattern::HeavyRow(row), order_b: ROW, order_c: ROW, types, ..Case::new(Fmt::Csr, (64, row + 11, n)) },
            8000,
        );
        (c.pad_b, c.pad_c) = (0, 0);
    }
    // Every entry in one column (with opA = T: one row of op(A) holding all 20000).
    for fmt in FORMATS {
        push(&mut cases, Case { pattern: Pattern::OneColumn, ..Case::new(fmt, (1000, 36, 33)) }, 8000);
        if ops_for(fmt).0.len() > 1 {
            push(&mut cases, Case { op_a: T, pattern: Pattern::OneColumn, ..Case::new(fmt, (36, 20000, 9)) }, 8000);
        }
    }
    // No stored entries: C = beta * C (zeros from a NaN-poisoned C when beta == 0).
    for fmt in FORMATS {
        for beta in [(-0.75, 0.25), (0.0, 0.0)] {
            push(&mut cases, Case { pattern: Pattern::Empty, ..Case::new(fmt, (36, 24, 7)) }, 8000).beta = beta;
        }
    }
    cases
}

#[test]
fn sparsity_patterns() {
    sweep("spmm sparsity patterns", &sparsity_patterns_cases());
}

pub fn index_types_and_bases_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in super::formats::FORMATS {
        for it in [I32, I64] {
            for base in [BASE0, BASE1] {
                let i = cases.len();
                let op_a = if ops_for(fmt).0.len() > 1 { pick(&[N, T, H], i) } else { N };
                let c = vary(Case { op_a, ..Case::new(fmt, pick(&[(36, 24, 7), (24, 36, 9)], i)) }, 9000 + i);
                cases.push(Case { it, base, ..c });
            }
        }
    }
    cases
}

#[test]
fn index_types_and_bases() {
    sweep("spmm index types and bases", &index_types_and_bases_cases());
}

pub fn leading_dimensions_and_pointer_modes_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in [Fmt::Csr, Fmt::Coo, Fmt::Bsr(COL), Fmt::Bell] {
        for order_b in [COL, ROW] {
            for order_c in [COL, ROW] {
                for mode in [HOST, DEVICE] {
                    let i = cases.len();
                    let c = vary(Case { order_b, order_c, op_b: pick(&[N, T], i / 3), ..Case::new(fmt, (24, 36, 12)) }, 10_000 + i);
                    cases.push(Case { mode, pad_b: 17, pad_c: 5, ..c });
                }
            }
        }
    }
    cases
}

#[test]
fn leading_dimensions_and_pointer_modes() {
    sweep("spmm leading dimensions and pointer modes", &leading_dimensions_and_pointer_modes_cases());
}
