//! Load balancing: rows of op(A) that start and end exactly on multiples of 256, 1024, 2048 and
//! 4096 entries (and one off), long rows between empty ones, warp-sized rows; and a power-law
//! matrix of ~1.2M entries whose longest rows hold 10^4 - 10^5, so that kernels splitting the
//! entries into fixed tiles see rows cut at, just before and just after every tile edge.

use super::harness::*;
use oxsparse::types::Operation;

/// (op(A) shape, row lengths cycled over the rows).
const CYCLES: [((i64, i64), &[i64]); 14] = [
    ((64, 300), &[256]),
    ((16, 1100), &[1024]),
    ((8, 2100), &[2048]),
    ((8, 4200), &[4096]),
    ((16, 4200), &[4095, 1]),
    ((12, 4200), &[4097, 0, 0, 4095]),
    ((27, 4200), &[1, 255, 0, 256, 1023, 1, 2047, 1, 4096]),
    ((10, 8200), &[0, 0, 0, 8192, 0]),
    ((30, 2100), &[2048, 2048, 1]),
    ((2049, 200), &[128]),
    ((4096, 100), &[64]),
    ((3000, 100), &[31, 33, 32]),
    ((1000, 600), &[511, 513, 512, 0]),
    // A stencil's rows (median in 16..31: groups of 8 lanes after preprocess).
    ((3000, 600), &[27, 26, 18, 12, 27, 9]),
];

/// Where the rows of op(A) come from: stored rows (N), stored columns (T: the row view built from
/// CSR or COO), CSC columns (N), unsorted COO, and Sliced-ELL slices of a warp.
const FORMAT_OPS: [(Fmt, Operation); 6] = [(Fmt::Csr, N), (Fmt::Csr, T), (Fmt::Csc, N), (Fmt::Coo, N), (Fmt::Coo, T), (Fmt::Sell(32), N)];

pub fn tile_boundaries_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (shape, lens) in CYCLES {
        for (fmt, op) in FORMAT_OPS {
            let i = cases.len();
            cases.push(vary(
                Case { op, pattern: Pattern::Cycle(lens), types: pick(&[F32, F64], i / 6), ..Case::new(fmt, shape) },
                10_000 + i,
            ));
        }
    }
    cases
}

#[test]
fn rows_on_tile_boundaries() {
    sweep("spmv rows on tile boundaries", &tile_boundaries_cases());
}

/// 100000 x 200000, row lengths 100000 / rank: ~1.2M entries. Sliced-ELL and BSR get a smaller
/// one (their padding would multiply the size).
pub fn power_law_cases() -> Vec<Case> {
    let big = |fmt, op, types| Case { op, types, pattern: Pattern::PowerLaw(100_000), ..Case::new(fmt, (100_000, 200_000)) };
    let small = |fmt| Case { pattern: Pattern::PowerLaw(20_000), ..Case::new(fmt, (20_000, 40_000)) };
    let cases = [
        big(Fmt::Csr, N, F32),
        big(Fmt::Csr, T, F32),
        big(Fmt::Coo, N, F64),
        big(Fmt::Coo, T, F32),
        big(Fmt::Csc, H, C32),
        small(Fmt::Sell(32)),
        small(Fmt::Bsr(ROW)),
    ];
    cases.into_iter().enumerate().map(|(i, c)| Case { coo_sorted: i % 2 == 0, ..vary(c, 11_000 + i) }).collect()
}

#[test]
fn power_law_matrix() {
    sweep("spmv power-law matrix", &power_law_cases());
}
