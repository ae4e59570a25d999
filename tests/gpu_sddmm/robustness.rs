//! What SDDMM must not do: follow a column index outside C (cuSPARSE leaves such entries undefined;
//! reading op(B)'s column there would fault or read garbage), or change anything when it refuses a
//! call (C's values, A and B, the decision an earlier preprocess kept, bufferSize's output).

use super::harness::*;
use crate::common::values::encode_indices;
use oxsparse::descr::FormatInfo;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::oxsparseDnMatDescr_t;
use oxsparse::ffi::sddmm::preprocessed_decision;
use oxsparse::types::DataType::*;
use oxsparse::types::Status::{self, *};
use std::ptr::null_mut;

/// Every seventh stored index (CSR columns, BSR block columns) replaced by one outside C: one
/// past the last column, one before the first (base - 1), and one far out of any allocation.
/// The call must not fault, and every other value must be right.
fn invalid_columns(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    let (m, base) = (&p.c.m, p.c.m.base);
    let (cols, area) = match m.format {
        FormatInfo::Bsr { bcols, row_block, col_block, .. } => (bcols, row_block * col_block),
        _ => (m.cols, 1),
    };
    let far = if case.it == I64 { 1 << 40 } else { i32::MAX as i64 - 1 };
    let mut indices = m.indices.clone();
    let mut bad = vec![false; p.stored.len()];
    for q in (3..indices.len()).step_by(7) {
        indices[q] = [cols + base, base - 1, far][(q / 7) % 3];
        bad[q * area as usize..(q + 1) * area as usize].fill(true);
    }
    write(&g.c_arrays[1], &encode_indices(case.it, &indices));
    let got = run(h, &p, &g, case.preprocess)?;
    p.check_except(&got, |at| bad[at])
}

/// CSR and BSR of both orders, 32- and 64-bit indices, B read in place and copied.
pub fn invalid_column_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in [Fmt::Csr, Fmt::Bsr { rb: 2, cb: 3, order: ROW }, Fmt::Bsr { rb: 4, cb: 2, order: COL }] {
        for it in [I32, I64] {
            for (op_b, order_b) in [(N, COL), (N, ROW)] {
                let i = cases.len();
                let c = vary(Case { op_b, order_b, types: pick(&COMBOS, i), ..Case::new(fmt, (48, 33, 96)) }, 9000 + i);
                cases.push(Case { it, ..c });
            }
        }
    }
    cases
}

#[test]
fn invalid_column_indices_are_never_followed() {
    sweep_with("sddmm invalid column indices", &invalid_column_cases(), invalid_columns);
}

/// A dense descriptor over `which`'s values with `more` lines (stored rows or columns across its
/// order), for a refused call.
unsafe fn reshaped(which: oxsparseDnMatDescr_t, more: i64) -> Result<oxsparseDnMatDescr_t, String> {
    let (mut rows, mut cols, mut ld, mut values, mut vt, mut order) = (0i64, 0i64, 0i64, null_mut(), 0, 0);
    expect(oxsparseDnMatGet(which, &mut rows, &mut cols, &mut ld, &mut values, &mut vt, &mut order), "DnMatGet")?;
    let mut d = null_mut();
    let (rows, cols) = if order == COL as i32 { (rows, cols + more) } else { (rows + more, cols) };
    let ld = ld.max(if order == COL as i32 { rows } else { cols });
    expect(oxsparseCreateDnMat(&mut d, rows, cols, ld, values, vt, order), "CreateDnMat")?;
    Ok(d)
}

/// After a preprocess and a call, each refused call (preprocess and SDDMM alike) must leave C's
/// values, A and B as they were, and the kept decision in force; a refused bufferSize leaves its
/// output; then the kept decision still gives the right C.
fn refusals_change_nothing(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    let size = args.size(h)?;
    let ws = workspace(size);
    expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SDDMM_preprocess")?;
    let kept = unsafe { preprocessed_decision(g.c) }.ok_or("preprocess kept no decision")?;
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM")?;
    let before = (g.c_values(), g.a_buf.to_vec::<u8>(), g.b_buf.to_vec::<u8>());
    p.check(&before.0)?;
    let (wide_a, wide_b) = unsafe { (reshaped(g.a, 1)?, reshaped(g.b, 2)?) };
    let (t, ct, compute) = case.types;
    let other = if compute == CUDA_R_64F { CUDA_R_32F } else { CUDA_R_64F };
    // The transposed operand conjugated instead: the shapes still agree.
    let h_op = H as i32;
    let conj = if args.op_b == T as i32 { Args { op_b: h_op, ..args } } else { Args { op_a: h_op, ..args } };
    let mut refused: Vec<(String, Args, *mut std::ffi::c_void, Status)> = vec![
        ("CONJUGATE_TRANSPOSE for T".into(), conj, ws_ptr(&ws), OXSPARSE_STATUS_NOT_SUPPORTED),
        (
            format!("computeType {other:?} for {t:?} / {ct:?}"),
            Args { compute: other as i32, ..args },
            ws_ptr(&ws),
            OXSPARSE_STATUS_NOT_SUPPORTED,
        ),
        ("A one line longer".into(), Args { a: wide_a, ..args }, ws_ptr(&ws), OXSPARSE_STATUS_INVALID_VALUE),
        ("B two lines longer".into(), Args { b: wide_b, ..args }, ws_ptr(&ws), OXSPARSE_STATUS_INVALID_VALUE),
        ("alg 1".into(), Args { alg: 1, ..args }, ws_ptr(&ws), OXSPARSE_STATUS_INVALID_VALUE),
    ];
    if size > 0 {
        refused.push(("a NULL workspace where one is needed".into(), args, null_mut(), OXSPARSE_STATUS_INVALID_VALUE));
    }
    let mut failures = Vec::new();
    for (what, bad, buffer, want) in &refused {
        let mut out = 4242usize;
        let got = unsafe { [bad.buffer_size(h, &mut out), bad.preprocess(h, *buffer), bad.sddmm(h, *buffer)] };
        let calls = ["bufferSize", "preprocess", "SDDMM"];
        // bufferSize takes no buffer: it answers a NULL workspace's row.
        let wants = if buffer.is_null() { [OXSPARSE_STATUS_SUCCESS, *want, *want] } else { [*want; 3] };
        for ((call, s), w) in calls.iter().zip(got).zip(wants) {
            if s != w as i32 {
                failures.push(format!("{what}: {call} returned {}, want {}", status_name(s), w.name()));
            }
        }
        if !buffer.is_null() && out != 4242 {
            failures.push(format!("{what}: a refused bufferSize wrote {out}"));
        }
        let now = (g.c_values(), g.a_buf.to_vec::<u8>(), g.b_buf.to_vec::<u8>());
        for (name, same) in [("C's values", now.0 == before.0), ("A", now.1 == before.1), ("B", now.2 == before.2)] {
            if !same {
                failures.push(format!("{what}: the refused calls changed {name}"));
            }
        }
        if unsafe { preprocessed_decision(g.c) }.as_ref() != Some(&kept) {
            failures.push(format!("{what}: a refused preprocess dropped or changed the kept decision"));
        }
    }
    unsafe {
        oxsparseDestroyDnMat(wide_a);
        oxsparseDestroyDnMat(wide_b);
    }
    if !failures.is_empty() {
        return Err(failures.join("; "));
    }
    // The kept decision still runs: C from its original values.
    write(&g.c_arrays[2], &p.c_bytes);
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM after the refusals")?;
    p.check(&g.c_values()).map_err(|e| format!("after the refusals: {e}"))
}

/// CSR and BSR; A read in place (T of column-major) and B copied, or both copied: each layout has
/// a T to conjugate. beta != 0, so that C holds values a write would change.
pub fn refusal_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, fmt) in [Fmt::Csr, Fmt::Bsr { rb: 3, cb: 2, order: COL }].into_iter().enumerate() {
        for (j, (op_a, order_a, op_b, order_b)) in [(T, COL, N, ROW), (N, COL, T, COL)].into_iter().enumerate() {
            let types = pick(&COMBOS, 3 * i + j);
            let c = vary(Case { op_a, order_a, op_b, order_b, types, ..Case::new(fmt, (36, 33, 24)) }, 9100 + 2 * i + j);
            cases.push(Case { beta: (0.5, 0.0), ..c });
        }
    }
    cases
}

#[test]
fn refused_calls_change_nothing() {
    sweep_with("sddmm refused calls change nothing", &refusal_cases(), refusals_change_nothing);
}
