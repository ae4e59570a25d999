//! Shapes (m, k in {0, 1, 7, 33, 1000+}), sparsity patterns (a dense row, a dense column, one
//! column, no entries), index types x bases, pointer modes x scalars.

use super::harness::*;
use oxsparse::reference::vector_ops::{Value, ZERO};

const FORMATS: [Fmt; 6] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Sell(2), Fmt::Sell(32)];

/// Pushes `vary(c)` and returns it for overrides.
fn push(cases: &mut Vec<Case>, c: Case, seed: usize) -> &mut Case {
    let i = cases.len();
    cases.push(vary(c, seed + i));
    cases.last_mut().unwrap()
}

/// Every format on `shapes`, FP32 and FP64 alternating, opA cycling where the format allows.
pub fn shape_cases(shapes: &[(i64, i64)], seed: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &shape in shapes {
        for fmt in FORMATS {
            let i = cases.len();
            let op = pick(ops_for(fmt), i / 2);
            push(&mut cases, Case { op, types: pick(&[F32, F64], i / 4), ..Case::new(fmt, shape) }, seed);
        }
    }
    cases
}

pub const SMALL: [(i64, i64); 10] = [(0, 0), (0, 7), (7, 0), (1, 1), (1, 33), (33, 1), (7, 33), (33, 7), (33, 33), (7, 7)];
pub const LARGE: [(i64, i64); 5] = [(1000, 1000), (1031, 4099), (4099, 1031), (20000, 7), (7, 20000)];

#[test]
fn small_and_empty_shapes() {
    sweep("spmv small and empty shapes", &shape_cases(&SMALL, 5000));
}

#[test]
fn large_shapes() {
    sweep("spmv large shapes", &shape_cases(&LARGE, 6000));
}

pub fn sparsity_patterns_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in FORMATS {
        for &op in ops_for(fmt) {
            // One row of op(A) with 20000 of its entries, the others 0 to 3; then one column.
            push(&mut cases, Case { op, pattern: Pattern::HeavyRow(20000), ..Case::new(fmt, (64, 20011)) }, 7000);
            push(&mut cases, Case { op, pattern: Pattern::HeavyCol(20000), ..Case::new(fmt, (20011, 64)) }, 7000);
        }
        // Every entry in one column, or in one row of op(A) for the formats that transpose.
        push(&mut cases, Case { pattern: Pattern::OneColumn, ..Case::new(fmt, (1000, 36)) }, 7000);
        if ops_for(fmt).len() > 1 {
            push(&mut cases, Case { op: T, pattern: Pattern::OneColumn, ..Case::new(fmt, (36, 20000)) }, 7000);
        }
        // No stored entries: y = beta y (zeros from a NaN-poisoned Y when beta == 0).
        for beta in [(-0.75, 0.25), ZERO] {
            push(&mut cases, Case { pattern: Pattern::Empty, ..Case::new(fmt, (36, 24)) }, 7000).beta = beta;
        }
    }
    cases
}

#[test]
fn sparsity_patterns() {
    sweep("spmv sparsity patterns", &sparsity_patterns_cases());
}

pub fn index_types_and_bases_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in super::formats::FORMATS {
        for it in [I32, I64] {
            for base in [BASE0, BASE1] {
                let i = cases.len();
                let op = pick(ops_for(fmt), i);
                let c = vary(Case { op, ..Case::new(fmt, pick(&[(36, 24), (24, 36), (33, 9)], i)) }, 8000 + i);
                cases.push(Case { it, base, ..c });
            }
        }
    }
    cases
}

#[test]
fn index_types_and_bases() {
    sweep("spmv index types and bases", &index_types_and_bases_cases());
}

/// alpha == 0 (with beta == 0 and != 0), beta == 0, beta == 1, complex scalars: each in host and
/// device pointer mode, over the formats.
pub fn pointer_modes_and_scalars_cases() -> Vec<Case> {
    let scalars: [(Value, Value); 6] =
        [(ZERO, (0.5, -1.0)), (ZERO, ZERO), ((2.0, 0.0), ZERO), ((1.0, 0.0), (1.0, 0.0)), ((-0.5, 2.0), (0.25, -1.5)), ((1.0, 0.0), ZERO)];
    let mut cases = Vec::new();
    for fmt in [Fmt::Csr, Fmt::Coo, Fmt::Csc, Fmt::Bsr(COL), Fmt::Sell(4)] {
        for (alpha, beta) in scalars {
            for mode in [HOST, DEVICE] {
                let i = cases.len();
                let op = pick(ops_for(fmt), i / 2);
                let c = vary(Case { op, types: pick(&[F32, C32, F64], i / 2), ..Case::new(fmt, (40, 30)) }, 9000 + i);
                cases.push(Case { alpha, beta, mode, ..c });
            }
        }
    }
    cases
}

#[test]
fn pointer_modes_and_scalars() {
    sweep("spmv pointer modes and scalars", &pointer_modes_and_scalars_cases());
}
