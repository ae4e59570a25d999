//! Split rows (src/ops/spmm/split_rows/): after preprocess, a matrix with long rows runs the
//! short-row kernel over a table of row pieces whose pieces of a row meet in shared memory.
//! Against the float64 reference over the vectorised types, index types and bases, op(A) read as
//! stored and through row views, both layouts of B and C, widths that leave lanes of a slice idle,
//! rows just over one piece, rows that need a whole block of pieces, skewed rows, beta zero (C
//! poisoned) and not; and the choice (a plain call keeps the tiles, batches keep them too).

use super::harness::*;
use super::*;

/// Every case is preprocessed and has rows of op(A) too long for the short-row rule but within the
/// split-row rule, so its call runs on split rows (one batch). The generator's pattern describes
/// A's stored rows: skewed rows stay rows of op(A) only without a transpose (CSR as stored, CSC
/// and COO through row views); dense ones are long either way.
pub fn cases() -> Vec<Case> {
    let skewed: [((i64, i64, i64), Pattern); 8] = [
        // rows of 2500 / (rank + 1): pieces of about 64; the longest row needs more than a block of
        // pieces (FP32 and 16-bit: 32 groups, FP64: 16) and is cut into one per group
        ((400, 4000, 32), Pattern::Skewed(2500)),
        ((257, 2100, 36), Pattern::Skewed(2100)),
        // one such row among rows of 0 to 3 entries (a small matrix: the rule takes it)
        ((1200, 10_000, 40), Pattern::HeavyRow(2500)),
        // rows of ~500: eight pieces, four rows per block of 32 groups
        ((90, 2000, 96), Pattern::Random),
        ((33, 3000, 4), Pattern::Skewed(2400)),
        // n a multiple of 128 (FP32, FP64, FP16: groups of 128 columns, two vectors a lane) or
        // not (192: narrow groups)
        ((300, 1500, 128), Pattern::Skewed(1400)),
        ((300, 1500, 192), Pattern::Skewed(1200)),
        ((120, 700, 256), Pattern::Skewed(700)),
    ];
    // rows of 300 (five pieces) and of 130 (three: over 128, and the matrix under 64 x 130 entries)
    let dense: [((i64, i64, i64), Pattern); 2] = [((70, 300, 64), Pattern::Dense), ((41, 130, 8), Pattern::Dense)];
    let as_rows = [(Fmt::Csr, N), (Fmt::Csc, N), (Fmt::Coo, N)];
    let any = [(Fmt::Csr, N), (Fmt::Csc, T), (Fmt::Csr, T), (Fmt::Csc, N), (Fmt::Coo, N)];
    let mut cases = Vec::new();
    for (t, &types) in VECTORISED_TYPES.iter().enumerate() {
        let shapes = skewed.iter().map(|s| (*s, &as_rows[..])).chain(dense.iter().map(|s| (*s, &any[..])));
        for (s, ((shape, pattern), formats)) in shapes.enumerate() {
            let i = cases.len();
            let (fmt, op_a) = pick(formats, t + s);
            let (order_b, order_c) = (pick(&[ROW, COL], i), pick(&[ROW, ROW, COL], i));
            let case = Case { op_a, types, pattern, order_b, order_c, preprocess: true, ..Case::new(fmt, shape) };
            cases.push(vary(case, 23_000 + i));
        }
    }
    cases
}

#[test]
fn split_rows_match_the_reference() {
    sweep("spmm split rows (after preprocess)", &cases());
}

/// Skewed rows of one batch: preprocess takes split rows, which add a long row in pieces where the
/// tiles cut it elsewhere: the bits differ from the plain call's, both are right, and a second
/// preprocessed call repeats them. The same matrix shared by two batches keeps the tiles: the
/// bits are the plain call's. Skipped when OXSPARSE_SPMM_KERNEL forces a kernel.
#[test]
fn preprocess_splits_long_rows_of_one_batch() {
    let Some(_gpu) = gpu("spmm split rows: the choice") else { return };
    let one = Case { order_b: ROW, order_c: ROW, pattern: Pattern::Skewed(3000), ..Case::new(Fmt::Csr, (400, 4000, 64)) };
    let shared = Case { batch: Batch { a: 1, b: 2, c: 2, shared: false }, ..one };
    probe_choice("split rows", &[(one, true), (shared, false)]);
    println!("spmm split rows: the choice: one batch on split rows, two batches on tiles");
}

/// A matrix whose rows are too short on average for split rows (~64K entries over 200000 rows)
/// but whose op(B) outgrows the row-order model's L2 (51 MB): the plan keeps room for whole rows
/// in another order only. With `OXSPARSE_SPMM_KERNEL=split_rows` (the device suite's forced pass)
/// its pieces would overflow that room: preprocess keeps the tiles instead of failing (the
/// bench's arxiv_like at N = 64 once returned an internal error there). Unforced, the tiles too.
#[test]
fn pieces_beyond_the_room_keep_the_tiles() {
    let case = Case {
        order_b: ROW,
        order_c: ROW,
        pattern: Pattern::Skewed(5_000),
        preprocess: true,
        ..Case::new(Fmt::Csr, (200_000, 200_000, 64))
    };
    // Unpadded, so that the call takes the vectorised kernels (and preprocess its choice).
    sweep("spmm split rows beyond their room (after preprocess)", &[Case { pad_b: 0, pad_c: 0, ..vary(case, 23_900) }]);
}
