//! The short-row kernel (kernels/spmm_short_rows.cu), which a call runs after preprocess found
//! every row short (src/ops/spmm/short_rows.rs): against the float64 reference over the vectorised
//! types, index types and bases, op(A) read as stored and through row views, both layouts of B
//! and C, widths that leave lanes of a slice idle, rows of exactly one load round (32 entries) and
//! one more, shared-structure batches, beta zero (C poisoned) and not; and the choice itself.

use super::harness::*;
use super::*;

/// Every case is preprocessed, with rows short enough for the rule (the longest at most 128
/// entries and 8 times the mean, or all of one length), so its call runs the short-row kernel;
/// as the matrices are small, those whose rows make two pieces that would fill the device run it
/// over a split-row table (src/ops/spmm/split_rows/mod.rs `piece`). The device suite's pass with
/// OXSPARSE_SPMM_KERNEL=short_rows runs them all on whole rows.
pub fn cases() -> Vec<Case> {
    let shapes: [((i64, i64, i64), Pattern); 8] = [
        ((300, 400, 32), Pattern::Random),
        ((257, 129, 36), Pattern::Random),
        ((70, 32, 64), Pattern::Dense),
        ((70, 33, 96), Pattern::Dense),
        ((1000, 700, 8), Pattern::OneColumn),
        ((45, 90, 40), Pattern::Random),
        // FP32 groups of two vectors a lane (n a multiple of 64 or 128): 128 and 256 columns
        ((200, 300, 128), Pattern::Random),
        ((100, 200, 256), Pattern::Random),
    ];
    let formats = [(Fmt::Csr, N), (Fmt::Csc, T), (Fmt::Csr, T), (Fmt::Csc, N), (Fmt::Coo, N)];
    let mut cases = Vec::new();
    for (t, &types) in VECTORISED_TYPES.iter().enumerate() {
        for (s, &(shape, pattern)) in shapes.iter().enumerate() {
            let i = cases.len();
            let (fmt, op_a) = pick(&formats, t + s);
            let (order_b, order_c) = (pick(&[ROW, COL], i), pick(&[ROW, ROW, COL], i));
            let case = Case { op_a, types, pattern, order_b, order_c, preprocess: true, ..Case::new(fmt, shape) };
            cases.push(vary(case, 21_000 + i));
        }
    }
    // One A for three B and C: the structure is shared, so preprocess measures it once.
    for (i, fmt) in [Fmt::Csr, Fmt::Coo].into_iter().enumerate() {
        let case = Case {
            order_b: ROW,
            order_c: ROW,
            batch: Batch { a: 1, b: 3, c: 3, shared: false },
            preprocess: true,
            ..Case::new(fmt, (64, 48, 24))
        };
        cases.push(vary(case, 21_100 + i));
    }
    cases
}

#[test]
fn short_rows_match_the_reference() {
    sweep("spmm short rows (after preprocess)", &cases());
}

/// Rows of 200 entries (at most 256, and the mean): preprocess takes the short-row kernel (over
/// pieces, this matrix being small), which adds a row in other pieces than the tiles: the bits
/// differ, both are right; the same rows shared by two batches take it on whole rows (no room for
/// pieces): the bits differ too. A row of 9000 entries in an A that two batches share keeps the
/// tiles (one batch would take split rows, tests/gpu_spmm/split_rows.rs): the bits are the same.
/// Skipped when OXSPARSE_SPMM_KERNEL forces a kernel.
#[test]
fn preprocess_chooses_by_the_longest_row() {
    let Some(_gpu) = gpu("spmm short rows: the choice") else { return };
    let short = Case { order_b: ROW, order_c: ROW, pattern: Pattern::Dense, ..Case::new(Fmt::Csr, (300, 200, 64)) };
    let long = Case {
        order_b: ROW,
        order_c: ROW,
        pattern: Pattern::HeavyRow(9000),
        batch: Batch { a: 1, b: 2, c: 2, shared: false },
        ..Case::new(Fmt::Csr, (1200, 10_000, 64))
    };
    // Two batches sharing the short rows: no room for a table of pieces, whole rows still.
    let shared = Case { batch: Batch { a: 1, b: 2, c: 2, shared: false }, ..short };
    probe_choice("short rows", &[(short, true), (shared, true), (long, false)]);
    println!("spmm short rows: the choice: rows of 200 on short rows, a row of 9000 on tiles");
}

/// Whole short rows in breadth-first order (src/ops/spmm/row_order/): a band whose rows are
/// stored shuffled (the graph of rows and columns orders it) and one renumbered as a mesh (its
/// own graph does), op(B) over the model's 40 MB of L2 (FP32 90000 x 128, FP64 45000 x 128), so
/// preprocess runs the short-row kernel over a table of whole rows in another order; the result
/// against the reference, and bitwise the same on a second call.
#[test]
fn rows_in_breadth_first_order_match_the_reference() {
    let f64s = VECTORISED_TYPES[1];
    let cases: Vec<Case> =
        [(F32, 90_000i64, Pattern::ShuffledBand(4)), (f64s, 45_000, Pattern::ShuffledBand(4)), (F32, 90_000, Pattern::ShuffledMesh(5))]
            .into_iter()
            .enumerate()
            .map(|(i, (types, size, pattern))| {
                let case = Case { types, pattern, order_b: ROW, order_c: ROW, preprocess: true, ..Case::new(Fmt::Csr, (size, size, 128)) };
                Case { pad_b: 0, pad_c: 0, ..vary(case, 22_000 + i) }
            })
            .collect();
    sweep("spmm short rows in breadth-first order", &cases);
    let Some(_gpu) = gpu("spmm short rows in breadth-first order: repeat") else { return };
    let h = CHandle::new();
    let p = Problem::new(&cases[0]);
    let g = Gpu::upload(&p).unwrap();
    let first = run(&h, &p, &g, true).unwrap();
    assert!(run(&h, &p, &g, true).unwrap() == first, "a second preprocessed call differs bitwise");
}
