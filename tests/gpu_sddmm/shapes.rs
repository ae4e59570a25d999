//! Shapes and patterns: m and n in {0, 1, 7, 33, ...} (no rows, no columns, one of each, odd
//! sizes), every k of {0, 1, 3, 7, 32, 33, 64, 100, 128, 257, 1000}, hub rows of 10,000+ entries
//! among rows of 0 to 4 (the entries are dealt to warps in equal runs, so a hub is shared by many),
//! tall C, long lines, C without stored entries, index types x bases.

use super::harness::*;
use oxsparse::types::DataType::*;
use oxsparse::types::Operation;
use oxsparse::types::Order;

pub const KS: [i64; 11] = [0, 1, 3, 7, 32, 33, 64, 100, 128, 257, 1000];
/// (opA, order of A, opB, order of B): both read in place, both copied, one of each.
const LAYOUTS: [(Operation, Order, Operation, Order); 4] = [(N, ROW, N, COL), (T, ROW, N, ROW), (T, COL, N, ROW), (N, COL, T, ROW)];
const SMALL: [(i64, i64, i64); 14] = [
    (0, 0, 0),
    (0, 7, 5),
    (5, 7, 0),
    (0, 0, 5),
    (5, 0, 7),
    (1, 1, 1),
    (1, 33, 7),
    (7, 1, 1),
    (33, 3, 1),
    (1, 100, 33),
    (7, 7, 7),
    (33, 257, 33),
    (33, 64, 1),
    (1, 0, 1),
];
const TYPES: [Types; 4] = [F32, F64, (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F)];

/// `c` in the layout `LAYOUTS[i]`.
fn laid_out(c: Case, i: usize) -> Case {
    let (op_a, order_a, op_b, order_b) = pick(&LAYOUTS, i);
    Case { op_a, order_a, op_b, order_b, ..c }
}

/// Every small shape in CSR and in BSR of 2 x 3 blocks (m and n scaled by the block), layouts and
/// types cycled.
pub fn small_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (m, k, n) in SMALL {
        for (fmt, (rb, cb)) in [(Fmt::Csr, (1, 1)), (Fmt::Bsr { rb: 2, cb: 3, order: pick(&[ROW, COL], cases.len()) }, (2, 3))] {
            let i = cases.len();
            let c = Case { types: pick(&TYPES, i / 2), ..Case::new(fmt, (m * rb, k, n * cb)) };
            cases.push(vary(laid_out(c, i / 3), 4000 + i));
        }
    }
    cases
}

#[test]
fn small_and_empty_shapes() {
    sweep("sddmm small and empty shapes", &small_cases());
}

/// Every k in CSR and BSR, each type combination and layout in turn.
pub fn every_k_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for k in KS {
        for fmt in [Fmt::Csr, Fmt::Bsr { rb: 4, cb: 2, order: ROW }] {
            let i = cases.len();
            let c = Case { types: pick(&COMBOS, i), ..Case::new(fmt, (96, k, 80)) };
            cases.push(vary(laid_out(c, i / 2), 4100 + i));
        }
    }
    cases
}

#[test]
fn every_k() {
    sweep("sddmm k in {0, 1, 3, 7, 32, 33, 64, 100, 128, 257, 1000}", &every_k_cases());
}

/// Rows r % 97 == 5 of 10,000 or more entries among rows of 0 to 4: CSR (hubs of 10,000 and of
/// 12,000 entries) and BSR (block rows of 5,500 blocks of 2 x 2: rows of 11,000 values), read in
/// place and copied, FP32, FP16 and FP64.
pub fn hub_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let types = [F32, (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), F64];
    for (i, &(fmt, shape, hub)) in [
        (Fmt::Csr, (300, 64, 12_288), 10_000),
        (Fmt::Csr, (300, 7, 12_000), 12_000),
        (Fmt::Csr, (120, 33, 10_007), 10_007),
        (Fmt::Bsr { rb: 2, cb: 2, order: ROW }, (200, 32, 12_000), 5_500),
        (Fmt::Bsr { rb: 2, cb: 2, order: COL }, (200, 100, 12_000), 5_500),
    ]
    .iter()
    .enumerate()
    {
        for layout in 0..2 {
            let c = Case { pattern: Pattern::Hubs(hub), types: pick(&types, i + layout), ..Case::new(fmt, shape) };
            cases.push(vary(laid_out(c, layout), 4200 + 2 * i + layout));
        }
    }
    cases
}

#[test]
fn hub_rows_among_short_rows() {
    sweep("sddmm hub rows of 10,000+ entries", &hub_cases());
}

/// C storing nothing (rows and columns present): nothing to compute, nothing to copy.
pub fn no_entries_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in [Fmt::Csr, Fmt::Bsr { rb: 3, cb: 2, order: ROW }] {
        for (i, batch) in [NO_BATCH, Batch { a: 1, b: 3, c: 3, share: Share::Offsets }].into_iter().enumerate() {
            for layout in 0..2 {
                let c = Case { pattern: Pattern::Empty, batch, ..Case::new(fmt, (36, 33, 24)) };
                cases.push(vary(laid_out(c, 1 + layout), 4300 + cases.len() + i));
            }
        }
    }
    cases
}

#[test]
fn no_stored_entries() {
    sweep("sddmm C without stored entries", &no_entries_cases());
}

/// 32- and 64-bit indices, base 0 and 1, over CSR and BSR of both orders, every layout in turn.
pub fn index_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in [Fmt::Csr, Fmt::Bsr { rb: 3, cb: 3, order: ROW }, Fmt::Bsr { rb: 2, cb: 4, order: COL }] {
        for it in [I32, I64] {
            for base in [BASE0, BASE1] {
                let i = cases.len();
                let c = vary(laid_out(Case { types: pick(&TYPES, i), ..Case::new(fmt, (48, 33, 72)) }, i), 4400 + i);
                cases.push(Case { it, base, ..c });
            }
        }
    }
    cases
}

#[test]
fn index_types_and_bases() {
    sweep("sddmm index types and bases", &index_cases());
}

/// Tall C, rows of 0 to 5 entries (rows r % 5 == 3 empty): the search for each warp's first row
/// (kernels/common/row_search.cuh, `warp_row_window`) takes two rounds over 40,000 rows and three
/// over 2,000,000 before its window, in every form of the lean kernel (FP32 k = 32 chunked, 128
/// stepped, 256 per value; FP16 k = 64), both index types and bases; lines unpadded (the lean
/// kernel's).
pub fn tall_cases() -> Vec<Case> {
    let half = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let mut cases = Vec::new();
    for (m, k, types) in [(40_000, 32, F32), (40_000, 128, F32), (40_000, 256, F32), (40_000, 64, half), (2_000_000, 32, F32)] {
        for (it, base) in [(I32, BASE1), (I64, BASE0)] {
            let c = vary(Case { types, ..Case::new(Fmt::Csr, (m, k, 16)) }, 4500 + cases.len());
            cases.push(Case { it, base, pad_a: 0, pad_b: 0, ..c });
        }
    }
    cases
}

#[test]
fn tall_c() {
    sweep("sddmm tall C", &tall_cases());
}

/// Lines of more than 32 16-byte vectors take 16 lanes of 4 (src/ops/sddmm/plan.rs, `group_for`):
/// FP32 k = 256 and 200 (a lane's last vector past the line), FP64 k = 128, C64 k = 64, FP16
/// k = 512, CSR with unpadded lines (the lean kernel's stepped form) and padded by one element
/// (the general kernel), both index types and bases.
pub fn wide_line_cases() -> Vec<Case> {
    let half = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let c64 = (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F);
    let mut cases = Vec::new();
    for (k, types) in [(256, F32), (200, F32), (128, F64), (64, c64), (512, half)] {
        for (pad, it, base) in [(0, I32, BASE1), (1, I64, BASE0)] {
            let c = vary(Case { types, ..Case::new(Fmt::Csr, (300, k, 200)) }, 4600 + cases.len());
            cases.push(Case { it, base, pad_a: pad, pad_b: pad, ..c });
        }
    }
    cases
}

#[test]
fn wide_lines() {
    sweep("sddmm lines of more than 32 vectors", &wide_line_cases());
}
