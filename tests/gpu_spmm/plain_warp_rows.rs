//! Plain calls on warp rows (src/ops/spmm/warp_rows/mod.rs `takes_plain`): a call that never saw a
//! preprocess, of at least 128K entries times a multiple of 128 columns, builds the warp-row table
//! on the GPU (long rows by class, then short rows) and runs the warp-row kernel over it, alone
//! (rows too long on average for a verdict) or as the long branch of the plain call's chain
//! (plain_choice.rs).
//!
//! - Against the float64 reference over FP32, FP64, FP16 and BF16 (16-bit or FP32 C), every layout
//!   of B and C (column-major ones staged), CSR, CSC read transposed and COO, index types and
//!   bases, beta zero (C poisoned) and not; graphs of ~13 entries a row with a hub of 20000
//!   (the chain's long branch) and of ~90 a row with rows of thousands (pieces in two levels of
//!   adds, rows a warp takes whole though longer than a piece).
//! - Bitwise: where preprocess takes warp rows too (its own rule: at most 16 entries a row), the
//!   plain call gives the preprocessed call's bits (the same items and adds, in another order),
//!   and so does a second plain call, which launches warp rows from the learned verdict; the
//!   workspace then holds the table `build_by_class` makes on the host.

use super::harness::*;
use super::*;
use oxsparse::ops::spmm::warp_rows::{build_by_class, room, whole_max, PIECE};
use oxsparse::types::DataType::{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F, CUDA_R_64F};

const F64: Types = (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F);
const F16: Types = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
const BF16_F32: Types = (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F);

/// ~250K entries, 13 a row, a hub of 20000 (the chain decides, long); ~520K entries over 6000
/// rows of ~87 (no chain: the mean is over what short rows take), rows of up to 8000 entries.
fn graph(n: i64) -> Case {
    Case { pattern: Pattern::Skewed(25_000), order_b: ROW, order_c: ROW, preprocess: false, ..Case::new(Fmt::Csr, (20_000, 20_000, n)) }
}
fn dense_graph(n: i64) -> Case {
    Case { pattern: Pattern::Skewed(60_000), ..Case::new(Fmt::Csr, (6_000, 8_000, n)) }
}

pub fn cases() -> Vec<Case> {
    let formats = [(Fmt::Csr, N), (Fmt::Csc, T), (Fmt::Coo, N)];
    let layouts = [(ROW, ROW), (COL, COL), (ROW, COL), (COL, ROW)];
    let types: [(Types, i64); 5] = [(F32, 128), (F32, 256), (F64, 128), (F16, 256), (BF16_F32, 128)];
    let mut cases = Vec::new();
    for (t, &(types, n)) in types.iter().enumerate() {
        for (s, shape) in [graph(n), dense_graph(n)].into_iter().enumerate() {
            let i = cases.len();
            let (fmt, op_a) = pick(&formats, t + s);
            let (order_b, order_c) = pick(&layouts, t + 2 * s);
            let case = vary(Case { fmt, op_a, types, order_b, order_c, preprocess: false, ..shape }, 39_000 + i);
            // Leading dimensions that keep 16-byte rows (the kernel reads them in place) in one
            // case of two; the others stage what they must.
            cases.push(if i % 2 == 0 { Case { pad_b: 0, pad_c: 0, ..case } } else { case });
        }
    }
    cases
}

#[test]
fn plain_calls_on_gpu_built_warp_rows_match_the_reference() {
    sweep("spmm plain calls on warp rows built on the GPU", &cases());
}

/// Whether `ws` holds the table the GPU builds for op(A) = `p`'s CSR matrix: the header's item
/// count followed by the items, and the adds after the room's item slots.
fn holds_row_order_table(ws: &[u8], p: &Problem) -> bool {
    let a = &p.a.m;
    let m = a.rows as usize;
    let begins: Vec<i64> = a.offsets[..m].iter().map(|o| o - a.base).collect();
    let ends: Vec<i64> = a.offsets[1..=m].iter().map(|o| o - a.base).collect();
    let t = build_by_class(&begins, &ends, PIECE, whole_max(p.a.nnz, None));
    let bytes = |slots: &[[u64; 2]]| slots.iter().flat_map(|s| s.iter().flat_map(|w| w.to_ne_bytes())).collect::<Vec<u8>>();
    let (items, adds) = (bytes(&t.items), bytes(&t.adds));
    let count = (t.items.len() as u64).to_ne_bytes();
    let adds_at = room(a.rows, p.a.nnz, whole_max(p.a.nnz, None)).items as usize * 16;
    (8..ws.len().saturating_sub(8 + items.len())).step_by(16).any(|i| {
        ws[i..i + 8] == count
            && ws[i + 8..i + 8 + items.len()] == items[..]
            && ws.get(i + 8 + adds_at..i + 8 + adds_at + adds.len()) == Some(&adds[..])
    })
}

#[test]
fn plain_warp_rows_give_the_preprocessed_bits() {
    let Some(_gpu) = gpu("spmm plain warp rows: the preprocessed bits") else { return };
    let h = CHandle::unforced();
    let column_major = Case { order_b: COL, order_c: COL, ..graph(128) };
    let checked = [graph(256), graph(128), Case { types: F64, ..graph(128) }, column_major, Case { types: F16, ..graph(256) }];
    for (i, case) in checked.into_iter().enumerate() {
        let case = Case { pad_b: 0, pad_c: 0, it: [I32, I64][i % 2], ..case };
        let p = Problem::new(&case);
        let g = Gpu::upload(&p).unwrap();
        let (plain, ws) = run_keeping_workspace(&h, &p, &g, false).unwrap();
        p.check(&plain).unwrap_or_else(|e| panic!("{} plain: {e}", case.label()));
        assert!(holds_row_order_table(&ws, &p), "{}: the plain call left no warp-row table of the rows in order", case.label());
        let preprocessed = run(&h, &p, &g, true).unwrap();
        assert!(plain == preprocessed, "{}: the plain call's warp rows differ bitwise from the preprocessed call's", case.label());
        assert!(run(&h, &p, &g, false).unwrap() == plain, "{}: a second plain call (the learned verdict) differs bitwise", case.label());
    }
    println!("spmm plain warp rows: 5 graphs (FP32 at 256 and 128, FP64, column-major, FP16) give the preprocessed bits from the table built on the GPU");
}
