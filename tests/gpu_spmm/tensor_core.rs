//! The tensor-core path (FP32, FP16 and BF16 with the handle in a tensor-op math mode) against
//! the float64 reference: TF32 within its bound (harness `TF32_REL`), the
//! FP32-accurate mode within FP32's, 16-bit operands within FP32 accumulation's (their products
//! are exact) plus the output's rounding.
//! The build sends matrices whose windows share few columns to the CUDA-core kernel; dense cases
//! here always take the tensor cores after preprocess (plain calls run the CUDA cores), and the
//! device suite runs the whole file again with `OXSPARSE_SPMM_KERNEL=tensor_cores`, which sends
//! every case there, plain calls too.
//! Shapes cover windows cut short at m, a row long enough to split its window into segments,
//! one column, empty rows and matrices, n not a multiple of a strip, CSC and COO through row
//! views, column-major operands through staging, both index types and bases, preprocess or not.
//! With data-affinity reordering (preprocess only): shuffled-group matrices, whose clustered order
//! is kept, through the same parameters and every tensor-core type, and a check that the
//! reordered build really runs (bits differ from the stored order's, C in the user's order).

use super::harness::*;
use super::*;
use oxsparse::types::DataType::*;
use oxsparse::types::{MathMode, ReorderMode};

const TF32: MathMode = MathMode::OXSPARSE_TF32_TENSOR_OP_MATH;
const ACCURATE: MathMode = MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH;

/// The 16-bit combinations with tensor cores: (A and B, C, compute).
const HALF_TYPES: [Types; 4] = [
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
];

fn cases(math: MathMode, seed: usize) -> Vec<Case> {
    cases_of(F32, math, seed)
}

/// 16-bit B and C rows are vectors of 8 (tensor cores, and the CUDA-core vector kernels) only when
/// n is a multiple of 8: round the shapes' n up, so that strips are still cut short (40, 104).
/// Either tensor-op mode lets 16-bit operands on tensor cores; they compute alike.
fn half_cases(types: Types, seed: usize) -> Vec<Case> {
    cases_of(types, pick(&[TF32, ACCURATE], seed / 1000), seed).into_iter().map(|c| Case { n: (c.n + 7) / 8 * 8, ..c }).collect()
}

fn cases_of(types: Types, math: MathMode, seed: usize) -> Vec<Case> {
    let shapes: [(i64, i64, i64, Pattern); 15] = [
        (9, 40, 32, Pattern::Dense),
        (300, 64, 64, Pattern::Dense),
        (61, 700, 100, Pattern::Dense),
        (1, 1, 4, Pattern::Random),
        (7, 7, 4, Pattern::Random),
        (33, 33, 32, Pattern::Random),
        (33, 1000, 64, Pattern::Random),
        (1000, 1000, 36, Pattern::Random),
        (1000, 7, 128, Pattern::Random),
        (1001, 500, 256, Pattern::Random),
        (999, 300, 100, Pattern::Random),
        (64, 20011, 8, Pattern::HeavyRow(20000)),
        (1000, 36, 36, Pattern::OneColumn),
        (100, 100, 16, Pattern::Empty),
        (2000, 2000, 64, Pattern::Random),
    ];
    // Every other case preprocessed.
    over_shapes(&shapes, seed, |c, at| Case { math, types, preprocess: at % 2 == 0, ..c })
}

/// Three cases per shape through CSR, CSC and COO (CSC with T and CSR with N are read as rows
/// directly; CSR with T and COO go through row views), both ops of B, both layouts, the other
/// parameters drawn by `vary`; `set` fixes what the group crosses (given the case's number).
fn over_shapes(shapes: &[(i64, i64, i64, Pattern)], seed: usize, set: impl Fn(Case, usize) -> Case) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, &(m, k, n, pattern)) in shapes.iter().enumerate() {
        for j in 0..3 {
            let at = out.len();
            let fmt = pick(&[Fmt::Csr, Fmt::Csc, Fmt::Coo], i + j);
            let op_a = match fmt {
                Fmt::Csc => T,
                Fmt::Csr => pick(&[N, T], at / 3),
                _ => N,
            };
            let c = Case {
                op_a,
                op_b: pick(&[N, T], at / 2),
                order_b: pick(&[ROW, COL], at),
                order_c: pick(&[ROW, ROW, COL], at),
                pattern,
                ..Case::new(fmt, (m, k, n))
            };
            out.push(set(vary(set(c, at), seed + at), at));
        }
    }
    out
}

#[test]
fn tf32_matches_reference() {
    sweep("spmm tensor cores tf32", &cases(TF32, 21_000));
}

#[test]
fn fp32_accurate_matches_reference_at_fp32_tolerance() {
    sweep("spmm tensor cores fp32-accurate", &cases(ACCURATE, 22_000));
}

#[test]
fn fp16_and_bf16_match_reference() {
    for (i, &types) in HALF_TYPES.iter().enumerate() {
        sweep(&format!("spmm tensor cores {:?} -> {:?}", types.0, types.1), &half_cases(types, 23_000 + 1000 * i));
    }
}

/// The largest error relative to the bound scale, over C's logical entries.
fn max_error(p: &Problem, got: &[u8]) -> f64 {
    let (want, scale) = p.expected();
    let w = p.case.types.1.size_bytes() as usize;
    let mut worst = 0f64;
    for i in 0..p.c.rows {
        for j in 0..p.c.cols {
            let at = p.c.index(0, i, j);
            let g = decode_element(p.case.types.1, &got[at * w..(at + 1) * w]);
            if scale[at] > 0.0 {
                worst = worst.max((g.0 - want[at].0).abs() / scale[at]);
            }
        }
    }
    worst
}

/// The modes really differ after preprocess: TF32's error is TF32-sized (so tensor cores ran),
/// the accurate mode's is FP32-sized; and each mode is bitwise reproducible, plain and
/// preprocessed, each compared with a call of its own kind (a plain call runs the CUDA cores unless
/// tensor cores are forced, and in the default mode a preprocessed call may take the short-row
/// kernel).
#[test]
fn modes_differ_and_reproduce() {
    let Some(_gpu) = gpu("spmm tensor-core modes") else { return };
    let h = CHandle::new();
    // Dense: the build picks tensor cores (8 entries per (window, column) pair).
    let base = Case { order_b: ROW, order_c: ROW, pattern: Pattern::Dense, ..Case::new(Fmt::Csr, (400, 150, 64)) };
    let mut errors = Vec::new();
    for math in [MathMode::OXSPARSE_DEFAULT_MATH, TF32, ACCURATE] {
        let p = Problem::new(&Case { math, ..base });
        let g = Gpu::upload(&p).unwrap();
        let first = run(&h, &p, &g, false).unwrap();
        p.check(&first).unwrap_or_else(|e| panic!("{math:?}: {e}"));
        let first_preprocessed = run(&h, &p, &g, true).unwrap();
        p.check(&first_preprocessed).unwrap_or_else(|e| panic!("{math:?} preprocessed: {e}"));
        for pre in [true, false, true] {
            let want = if pre { &first_preprocessed } else { &first };
            assert!(run(&h, &p, &g, pre).unwrap() == *want, "{math:?}: a run (preprocess {pre}) differs bitwise");
        }
        errors.push(max_error(&p, &first_preprocessed));
    }
    let (fp32, tf32, accurate) = (errors[0], errors[1], errors[2]);
    println!("max error / scale: FP32 {fp32:e}, TF32 {tf32:e}, FP32-accurate tensor ops {accurate:e}");
    assert!(tf32 > 20.0 * fp32.max(1e-9), "TF32 error {tf32:e} is not TF32-sized (FP32 {fp32:e}): did tensor cores run?");
    assert!(accurate <= 4.0 * fp32.max(1e-8), "FP32-accurate error {accurate:e} is far above FP32's {fp32:e}");
}

/// A duplicate's value for an entry `v` of `t`'s test grid (tests/common/values.rs: steps of 2^-10
/// for FP16, 2^-7 for BF16, in [-1, 1]). For v >= 0 the sum lies in [2, 3], where FP16 keeps steps
/// of 2^-9 (BF16 2^-6); for every other such v it is an odd number of grid steps, which the type
/// cannot hold, so a slot holding the rounded sum would be off by a 16-bit rounding, far over FP32
/// C's tolerance.
fn duplicate_value(t: oxsparse::types::DataType, v: f64) -> f64 {
    match t {
        CUDA_R_16F => 2.0 + 1.0 / 512.0,
        CUDA_R_16BF => 2.0 + 1.0 / 64.0,
        _ => 0.375 - v / 2.0,
    }
}

/// 16-bit operands on tensor cores (preprocessed) are bitwise reproducible, and so are their
/// plain calls (the CUDA cores, or tensor cores where forced).
#[test]
fn half_types_reproduce() {
    let Some(_gpu) = gpu("spmm tensor cores: 16-bit reproducibility") else { return };
    let h = CHandle::new();
    for (i, &types) in HALF_TYPES.iter().enumerate() {
        let math = pick(&[TF32, ACCURATE], i);
        let p =
            Problem::new(&Case { order_b: ROW, order_c: ROW, types, math, pattern: Pattern::Dense, ..Case::new(Fmt::Csr, (400, 150, 64)) });
        let g = Gpu::upload(&p).unwrap();
        let first = run(&h, &p, &g, false).unwrap();
        p.check(&first).unwrap_or_else(|e| panic!("{types:?}: {e}"));
        let first_preprocessed = run(&h, &p, &g, true).unwrap();
        p.check(&first_preprocessed).unwrap_or_else(|e| panic!("{types:?} preprocessed: {e}"));
        for pre in [true, false, true] {
            let want = if pre { &first_preprocessed } else { &first };
            assert!(run(&h, &p, &g, pre).unwrap() == *want, "{types:?}: a run (preprocess {pre}) differs bitwise");
        }
    }
}

/// New A values after preprocess are used (values are gathered by every call), and duplicate
/// (row, column) entries are added: in the slot for FP32, on CUDA cores for 16-bit values.
#[test]
fn new_values_and_duplicates() {
    let Some(_gpu) = gpu("spmm tensor cores: new values, duplicates") else { return };
    let h = CHandle::new();
    let runs = [(F32, TF32), (F32, ACCURATE), (HALF_TYPES[1], TF32), (HALF_TYPES[3], ACCURATE)];
    for (types, math) in runs {
        let case = Case { order_b: ROW, order_c: ROW, math, types, pattern: Pattern::Dense, ..Case::new(Fmt::Csr, (200, 120, 32)) };
        // New values after preprocess.
        let mut p = Problem::new(&case);
        let g = Gpu::upload(&p).unwrap();
        let (alpha, beta) = scalars(&h, &p);
        let args = g.args(&p, &alpha, &beta);
        let ws = args.workspace(&h).unwrap();
        expect(unsafe { args.preprocess(&h, ws_ptr(&ws)) }, "SpMM_preprocess").unwrap();
        p.renew_a_values(77);
        g.rewrite(&p);
        expect(unsafe { args.spmm(&h, ws_ptr(&ws)) }, "SpMM").unwrap();
        p.check(&g.c_buf.to_vec()).unwrap_or_else(|e| panic!("{types:?} {math:?}, new values after preprocess: {e}"));

        // Every third row repeats one of its entries (a different value) at its end.
        let mut p = Problem::new(&Case { seed: 5, ..case });
        let a = &mut p.a.m;
        let (mut offsets, mut indices, mut values) = (vec![a.offsets[0]], Vec::new(), Vec::new());
        for r in 0..a.rows as usize {
            let (lo, hi) = ((a.offsets[r] - a.base) as usize, (a.offsets[r + 1] - a.base) as usize);
            indices.extend_from_slice(&a.indices[lo..hi]);
            values.extend_from_slice(&a.values[lo..hi]);
            if r % 3 == 0 && hi > lo {
                indices.push(a.indices[lo]);
                values.push((duplicate_value(types.0, a.values[lo].0), 0.0));
            }
            offsets.push(indices.len() as i64 + a.base);
        }
        p.a.nnz = indices.len() as i64;
        (a.offsets, a.indices, a.values) = (offsets, indices, values);
        let g = Gpu::upload(&p).unwrap();
        for pre in [false, true] {
            p.check(&run(&h, &p, &g, pre).unwrap()).unwrap_or_else(|e| panic!("{types:?} {math:?}, duplicates, preprocess {pre}: {e}"));
        }
    }
}

const AFFINITY: ReorderMode = ReorderMode::OXSPARSE_REORDER_DATA_AFFINITY;

/// Preprocessed calls with data-affinity reordering on: rows hidden in shuffled groups (the
/// clustering keeps its order), and matrices it leaves as stored (random, dense, empty, tiny).
fn reorder_cases(types: Types, math: MathMode, seed: usize) -> Vec<Case> {
    let shapes: [(i64, i64, i64, Pattern); 9] = [
        (64, 64, 32, Pattern::ShuffledGroups),
        (1000, 700, 64, Pattern::ShuffledGroups),
        (999, 1001, 104, Pattern::ShuffledGroups),
        (2000, 300, 40, Pattern::ShuffledGroups),
        (77, 5000, 128, Pattern::ShuffledGroups),
        (1000, 1000, 40, Pattern::Random),
        (300, 64, 64, Pattern::Dense),
        (100, 100, 16, Pattern::Empty),
        (1, 1, 8, Pattern::Random),
    ];
    over_shapes(&shapes, seed, |c, _| Case { math, types, preprocess: true, reorder: AFFINITY, ..c })
}

#[test]
fn reordered_matches_reference() {
    sweep("spmm tensor cores, reordered, tf32", &reorder_cases(F32, TF32, 24_000));
    sweep("spmm tensor cores, reordered, fp32-accurate", &reorder_cases(F32, ACCURATE, 25_000));
    for (i, &types) in HALF_TYPES.iter().enumerate() {
        sweep(&format!("spmm tensor cores, reordered, {:?} -> {:?}", types.0, types.1), &reorder_cases(types, TF32, 26_000 + 1000 * i));
    }
}

/// The reordered build really runs and C keeps the user's row order: on a matrix whose hidden
/// groups the host-side decision keeps, the reordered result matches the reference but differs
/// bitwise from the stored-order one (there the build chooses CUDA cores, other sums); it
/// reproduces bitwise; a plain call with the mode on never reorders (it equals the stored order's
/// plain call); A is left as it was.
#[test]
fn reordering_is_applied_and_reproduces() {
    let Some(_gpu) = gpu("spmm tensor cores: reordering applied") else { return };
    let h = CHandle::new();
    let base = Case { order_b: ROW, order_c: ROW, pattern: Pattern::ShuffledGroups, math: TF32, ..Case::new(Fmt::Csr, (2000, 1500, 64)) };
    let stored = Problem::new(&base);
    let a = &stored.a.m;
    let structure = oxsparse::ops::spmm::tc_reorder::Structure {
        offsets: a.offsets.iter().map(|o| o - a.base).collect(),
        cols: a.indices.iter().map(|c| c - a.base).collect(),
    };
    let decision = oxsparse::ops::spmm::tc_reorder::decide(&structure, a.cols);
    assert!(decision.rows.is_some(), "the clustering should pay here: {decision:?}");
    println!("shuffled groups: (window, column) pairs {} as stored, {} clustered", decision.pairs_stored, decision.pairs_clustered);

    let g = Gpu::upload(&stored).unwrap();
    let a_before: Vec<Vec<u8>> = g.a_arrays.iter().map(|b| b.to_vec::<u8>()).collect();
    let plain_order = run(&h, &stored, &g, true).unwrap();
    stored.check(&plain_order).unwrap();
    let reordered = Problem::new(&Case { reorder: AFFINITY, ..base });
    let first = run(&h, &reordered, &g, true).unwrap();
    reordered.check(&first).unwrap_or_else(|e| panic!("reordered: {e}"));
    assert!(first != plain_order, "the reordered preprocess gave the stored order's bits: was it reordered?");
    assert!(run(&h, &reordered, &g, true).unwrap() == first, "a second reordered preprocess differs bitwise");
    let plain_stored = run(&h, &stored, &g, false).unwrap();
    assert!(run(&h, &reordered, &g, false).unwrap() == plain_stored, "a plain call with the mode on differs from the stored order's");
    assert!(g.a_arrays.iter().map(|b| b.to_vec::<u8>()).collect::<Vec<_>>() == a_before, "A was modified");
}
