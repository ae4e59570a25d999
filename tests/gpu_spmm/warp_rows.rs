//! Warp rows (src/ops/spmm/warp_rows/): after preprocess, an FP32, FP64, FP16 or BF16 matrix of
//! at most 16 entries a row on average, times an op(B) of a multiple of 128 columns, runs a warp
//! per row or row piece, the pieces of long rows added in piece order by the last to arrive, in
//! groups of 16. Against the float64 reference over index types and bases, both pointer modes,
//! op(A) read as stored and through row views (CSC and COO):
//! - FP32 at n of 128 (one vector a lane), 256 and 512 (two), 384 (three slices of 128), 64 and
//!   192 (8-byte vectors, forced only); rows of one piece, of just over two, of five, hubs of
//!   hundreds of pieces (two levels of adds), rows a warp takes whole though longer than a piece
//!   (a matrix of 436K entries), empty rows, beta zero (C poisoned) and not;
//! - FP64 at n = 64 / 192 (one vector) and 128 / 256 (two);
//! - FP16 and BF16 with 16-bit or FP32 C at n = 128 / 384 (8-byte vectors) and 256 / 512 (16
//!   bytes);
//! - a column-major op(B) or C (staged around the kernel) in FP32, FP64 and FP16;
//! - and the choice.
//!
//! The large cases pass the measured rule (at least 128K entries or 16K rows, at most 16 a row;
//! or, in 16 bits at n = 256, at least 8K rows of at least 24 on average); the device
//! suite's `OXSPARSE_SPMM_KERNEL=warp_rows` pass runs the small ones, and every case of the other
//! groups that fits, on warp rows too.

use super::harness::*;
use super::*;
use oxsparse::types::DataType::{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F, CUDA_R_64F};
use oxsparse::types::Order;

pub fn cases() -> Vec<Case> {
    let shapes: [((i64, i64, i64), Pattern); 10] = [
        // ~250K entries, 13 a row on average, a hub of 20000 (313 pieces), n = 256 (two vectors a
        // lane): the rule's own
        ((20_000, 20_000, 256), Pattern::Skewed(25_000)),
        // ~436K entries: rows of up to 128 whole (~310 of 65-128 entries), ~310 longer ones cut
        ((30_000, 40_000, 128), Pattern::Skewed(40_000)),
        // ~150K entries, n = 512: the rule's too (two slices of 256)
        ((12_000, 9_000, 512), Pattern::Skewed(16_000)),
        ((3_000, 2_000, 384), Pattern::Skewed(1_999)),
        ((2_000, 3_000, 128), Pattern::Skewed(2_999)),
        ((500, 700, 128), Pattern::HeavyRow(650)),
        // rows of 300 (five pieces) and of 129 (three: just over two)
        ((64, 300, 256), Pattern::Dense),
        ((200, 129, 128), Pattern::Dense),
        // n = 64 and 192: 8-byte vectors (64 columns a warp; forced only, the rule asks for 128s)
        ((20_000, 20_000, 64), Pattern::Skewed(25_000)),
        ((2_000, 3_000, 192), Pattern::Skewed(2_999)),
    ];
    let formats = [(Fmt::Csr, N), (Fmt::Csc, N), (Fmt::Coo, N)];
    let mut cases = Vec::new();
    for (i, &(shape, pattern)) in shapes.iter().chain(shapes.iter()).enumerate() {
        let (fmt, op_a) = pick(&formats, i);
        let case = Case { op_a, pattern, order_b: ROW, order_c: ROW, preprocess: true, ..Case::new(fmt, shape) };
        // Leading dimensions that keep 16-byte rows (the kernel's condition): padded by 0 or 4 / 8.
        cases.push(Case { pad_b: pick(&[0, 4], i), pad_c: pick(&[8, 0], i), ..vary(case, 27_000 + i) });
    }
    // FP64: 64 columns a vector, so n = 128 and 256 run two vectors a lane (the rule's, the first
    // two), 192 and 64 one (forced only).
    let f64_shapes: [((i64, i64, i64), Pattern); 4] = [
        ((20_000, 20_000, 128), Pattern::Skewed(25_000)),
        ((30_000, 40_000, 256), Pattern::Skewed(40_000)),
        ((3_000, 2_000, 192), Pattern::Skewed(1_999)),
        ((200, 129, 64), Pattern::Dense),
    ];
    for (i, &(shape, pattern)) in f64_shapes.iter().enumerate() {
        let (fmt, op_a) = pick(&formats, i);
        let case = Case { op_a, pattern, order_b: ROW, order_c: ROW, preprocess: true, types: F64, ..Case::new(fmt, shape) };
        // Leading dimensions that keep 16-byte rows: padded by 0 or 2 / 4 doubles.
        cases.push(Case { pad_b: pick(&[0, 2], i), pad_c: pick(&[4, 0], i), ..vary(case, 27_100 + i) });
    }
    // 16-bit op(A) and op(B), FP32 sums, C 16-bit or FP32: 8-byte vectors (128 columns a warp),
    // 16-byte ones at multiples of 256 (the first two rule-sized).
    let half_shapes: [((i64, i64, i64), Pattern, Types); 4] = [
        ((20_000, 20_000, 256), Pattern::Skewed(25_000), (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F)),
        ((20_000, 20_000, 128), Pattern::Skewed(25_000), (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F)),
        ((3_000, 2_000, 384), Pattern::Skewed(1_999), (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F)),
        ((200, 129, 512), Pattern::Dense, (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F)),
    ];
    for (i, &(shape, pattern, types)) in half_shapes.iter().enumerate() {
        let (fmt, op_a) = pick(&formats, i);
        let case = Case { op_a, pattern, order_b: ROW, order_c: ROW, preprocess: true, types, ..Case::new(fmt, shape) };
        // Leading dimensions that keep 16-byte rows: padded by 0 or 8 values.
        cases.push(Case { pad_b: pick(&[0, 8], i), pad_c: pick(&[8, 0], i), ..vary(case, 27_200 + i) });
    }
    // The rule's other two ways in: a matrix of fewer than 128K entries but 20000
    // rows (~52K entries, 2.6 a row, as pubmed), FP32 at n = 128; and FP16 at n = 256 over 9000
    // rows of ~27 entries on average (~240K entries), which split rows would take
    // (`warp_rows::over_split_rows`).
    let other_ways: [((i64, i64, i64), Pattern, Types); 2] = [
        ((20_000, 20_000, 128), Pattern::Skewed(5_000), F32),
        ((9_000, 30_000, 256), Pattern::Skewed(25_000), (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F)),
    ];
    for (i, &(shape, pattern, types)) in other_ways.iter().enumerate() {
        let (fmt, op_a) = pick(&formats, i);
        let case = Case { op_a, pattern, order_b: ROW, order_c: ROW, preprocess: true, types, ..Case::new(fmt, shape) };
        // Leading dimensions that keep 16-byte rows in both types: padded by 0 or 8 values.
        cases.push(Case { pad_b: pick(&[0, 8], i), pad_c: pick(&[8, 0], i), ..vary(case, 27_400 + i) });
    }
    // A column-major op(B) or C, staged around the kernel (rule-sized): FP32 at n = 256 and 128,
    // FP64 and FP16 at 128.
    let staged: [(Types, i64, (Order, Order)); 4] =
        [(F32, 256, (COL, COL)), (F32, 128, (COL, ROW)), (F64, 128, (ROW, COL)), ((CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), 128, (COL, COL))];
    for (i, &(types, n, (order_b, order_c))) in staged.iter().enumerate() {
        let (fmt, op_a) = pick(&formats, i);
        let case = Case {
            op_a,
            pattern: Pattern::Skewed(25_000),
            order_b,
            order_c,
            preprocess: true,
            types,
            ..Case::new(fmt, (20_000, 20_000, n))
        };
        cases.push(vary(case, 27_300 + i));
    }
    cases
}

const F64: Types = (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F);

#[test]
fn warp_rows_match_the_reference() {
    sweep("spmm warp rows (after preprocess)", &cases());
}

/// A graph of 20000 rows of 2.6 entries (~52K): under MIN_NNZ, but MIN_ROWS rows, so preprocess
/// takes warp rows (adding its longest rows whole) while a plain call keeps the tiles (which cut
/// them elsewhere): the bits differ, both are right, and a second preprocessed call repeats them
/// (the arrival counters were left at zero). The sparse graph of ~250K entries (13 a row, one hub
/// of 20000) at 256 and 128 columns, in FP64 and column-major, is preprocess's too, but a plain
/// call of that size runs warp rows as well (warp_rows/mod.rs `takes_plain`): plain_warp_rows.rs
/// checks that both give the same bits. Skipped when OXSPARSE_SPMM_KERNEL forces a kernel.
#[test]
fn preprocess_takes_warp_rows_for_sparse_graphs() {
    let Some(_gpu) = gpu("spmm warp rows: the choice") else { return };
    let graph = |n| Case { order_b: ROW, order_c: ROW, pattern: Pattern::Skewed(25_000), ..Case::new(Fmt::Csr, (20_000, 20_000, n)) };
    let many_rows = Case { pattern: Pattern::Skewed(5_000), ..graph(128) };
    probe_choice("warp rows", &[(many_rows, true)]);
    println!("spmm warp rows: the choice: a graph of 52K entries over 20000 rows at n = 128");
}
