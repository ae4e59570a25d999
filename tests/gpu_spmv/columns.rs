//! The column order preprocess keeps for SpMV (FastLoad's column sort, src/ops/spmv/columns.rs):
//! a matrix of 1.2M entries whose busy columns are scattered over an x larger than L1, so that
//! preprocess chooses the order by itself. Against the reference with and without preprocess, for
//! stored rows (CSR N, CSC T), both index types and bases, FP32, FP64 and complex; then new A
//! values and a new x after preprocess (the gather runs every call), and a buffer overwritten after
//! preprocess (the order's stamp is gone: the natural order, the same result).
//! `scripts/device_suite.sh` also runs every SpMV case with `OXSPARSE_SPMV_COLUMNS=sorted`.

use super::determinism;
use super::harness::*;
use oxsparse::types::Operation;

/// 150000 x 70000, 8 entries per row (17 per column): x is 280 KB in FP32, half the entries fall in
/// ~270 columns.
fn hot_case(fmt: Fmt, op: Operation, types: Types, i: usize) -> Case {
    vary(Case { op, types, pattern: Pattern::HotColumns(8), ..Case::new(fmt, (150_000, 70_000)) }, 15_000 + i)
}

pub fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (fmt, op) in [(Fmt::Csr, N), (Fmt::Csc, T)] {
        for types in [F32, F64, C32] {
            for preprocess in [true, false] {
                let i = cases.len();
                cases.push(Case { preprocess, ..hot_case(fmt, op, types, i) });
            }
        }
    }
    cases
}

#[test]
fn busy_scattered_columns() {
    sweep("spmv busy scattered columns", &cases());
}

#[test]
fn busy_scattered_columns_reused_and_overwritten() {
    let all: Vec<Case> =
        [(Fmt::Csr, N, F32), (Fmt::Csc, T, F64)].into_iter().enumerate().map(|(i, (f, o, t))| hot_case(f, o, t, 100 + i)).collect();
    // The determinism group's two checks: new A values, then a new x and scalars, after
    // preprocess; a buffer overwritten after preprocess.
    let reuse = |h: &CHandle, c: &Case| {
        determinism::new_values_after_preprocess(h, c).and_then(|_| determinism::buffer_overwritten_after_preprocess(h, c))
    };
    sweep_with("spmv column order reused", &all, reuse);
}
