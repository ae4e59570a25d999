//! A plain call's choice between whole short rows and the tiles, made on the GPU
//! (src/ops/spmm/plain_choice.rs): where the work is large enough, a plain call enqueues the
//! verdict, the short-row kernel and the tile kernel (with C's staging copy when the tiles need
//! one), one of which returns at once, and a later plain call on the same matrix launches the
//! chosen one alone. Against the float64 reference over the vectorised types, formats (row views
//! too), index types and bases, layouts of B and C, beta zero (C poisoned, so a call that ran
//! neither kernel fails) and not (so one that ran both fails); and bitwise against the preprocessed
//! call, which takes the same whole short rows, and against the call before.

use super::harness::*;
use super::*;

/// Rows all short (a band of 4 a row, stored shuffled), and rows of 0-3 with one of 300 (longer
/// than the limit of 32 such a mean allows), 256 columns: work over plain_choice.rs's MIN_WORK
/// (80 MB of entries x n x B's bytes) in every type, 16-bit ones included.
fn shapes() -> [((i64, i64, i64), Pattern); 2] {
    [((42_000, 42_000, 256), Pattern::ShuffledBand(4)), ((120_000, 2000, 256), Pattern::HeavyRow(300))]
}

/// Every vectorised type x both shapes x two of the four layouts of B and C (staged op(B), C
/// written column-major by short rows or staged for the tiles), padded or not as `vary` picks.
pub fn cases() -> Vec<Case> {
    let formats = [(Fmt::Csr, N), (Fmt::Coo, N), (Fmt::Csc, T), (Fmt::Csr, N)];
    let layouts = [(ROW, ROW), (COL, COL), (ROW, COL), (COL, ROW)];
    let mut cases = Vec::new();
    for (t, &types) in VECTORISED_TYPES.iter().enumerate() {
        for (s, &(shape, pattern)) in shapes().iter().enumerate() {
            for l in 0..2 {
                let i = cases.len();
                let (fmt, op_a) = pick(&formats, t + s);
                let (order_b, order_c) = pick(&layouts, 2 * (t + s) + l);
                let case = Case { op_a, types, pattern, order_b, order_c, preprocess: false, ..Case::new(fmt, shape) };
                cases.push(vary(case, 23_000 + i));
            }
        }
    }
    cases
}

#[test]
fn plain_calls_choosing_on_the_gpu_match_the_reference() {
    sweep("spmm plain calls choosing on the GPU", &cases());
}

/// On short rows the plain call runs whole short rows, as the preprocessed call does (C row- or
/// column-major): the same
/// bits (the tiles add a row's products in other groups: different bits). A second
/// plain call, which finds the verdict the first left in the handle and launches the chosen kernel
/// alone, gives the first's bits, on short rows and on the row of 300 (the tiles).
#[test]
fn plain_calls_on_short_rows_run_them_as_preprocess_does() {
    let Some(_gpu) = gpu("spmm plain calls on short rows") else {
        return;
    };
    let h = CHandle::unforced();
    let mut count = 0;
    for (i, (shape, pattern)) in shapes().into_iter().enumerate() {
        // Row-major; and column-major C, which short rows write themselves in FP32 and FP64 and
        // which is staged for 16-bit types.
        for (t, &types) in VECTORISED_TYPES.iter().enumerate().step_by(2) {
            for order_c in [ROW, COL] {
                let case = Case { types, pattern, order_b: ROW, order_c, ..Case::new(Fmt::Csr, shape) };
                let case = Case { pad_b: 0, pad_c: 0, ..vary(case, 23_100 + 10 * i + t) };
                let p = Problem::new(&case);
                let g = Gpu::upload(&p).unwrap();
                let plain = run(&h, &p, &g, false).unwrap();
                p.check(&plain).unwrap_or_else(|e| panic!("{} plain: {e}", case.label()));
                assert!(run(&h, &p, &g, false).unwrap() == plain, "{}: a second plain call differs bitwise", case.label());
                if pattern == Pattern::ShuffledBand(4) {
                    let preprocessed = run(&h, &p, &g, true).unwrap();
                    assert!(plain == preprocessed, "{}: the plain call did not run the short rows preprocess chose", case.label());
                }
                count += 1;
            }
        }
    }
    println!("spmm plain calls on short rows: {count} cases, bitwise as preprocessed and as the call before");
}
