//! The column order preprocess keeps for SpMV (FastLoad's column sort, src/ops/spmv/columns.rs):
//! a matrix of 1.2M entries whose busy columns are scattered over an x larger than L1, so that
//! preprocess chooses the order by itself. Against the reference with and without preprocess, for
//! stored rows (CSR N, CSC T), both index types and bases, FP32, FP64 and complex; then the same
//! buffer after new A values and a new x (the gather runs every call), and after the whole buffer
//! was overwritten (the order's stamp is gone: the natural order, the same result).
//! `scripts/device_suite.sh` also runs every SpMV case with `OXSPARSE_SPMV_COLUMNS=sorted`.

use super::gen;
use super::harness::*;
use super::*;
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

/// Preprocess; SpMV; new A values and a new x, SpMV; the buffer overwritten, SpMV.
fn reuse(h: &CHandle, case: &Case) -> Result<(), String> {
    let mut p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    write_at(&g.y_buf, 0, &p.y_bytes);
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    let ws = args.workspace(h)?;
    expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SpMV_preprocess")?;
    expect(unsafe { args.spmv(h, ws_ptr(&ws)) }, "SpMV")?;
    p.check(&g.y_buf.to_vec()).map_err(|e| format!("first call: {e}"))?;

    p.renew_a_values(case.seed ^ 0xC);
    let mut rng = Rng::new(case.seed ^ 0xD);
    (p.x, p.x_bytes) = gen::vector(&mut rng, case.types.1, case.k, true);
    (p.y, p.y_bytes) = gen::vector(&mut rng, case.types.2, case.m, true);
    (p.alpha, p.beta) = (fit(case.types.3, (0.5, 0.25)), fit(case.types.3, (-1.0, 0.5)));
    g.rewrite(&p);
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    expect(unsafe { args.spmv(h, ws_ptr(&ws)) }, "SpMV")?;
    p.check(&g.y_buf.to_vec()).map_err(|e| format!("after new A values and x: {e}"))?;

    if let Some(ws) = &ws {
        write_at(ws, 0, &vec![0x5Au8; ws.bytes]);
    }
    write_at(&g.y_buf, 0, &p.y_bytes);
    expect(unsafe { args.spmv(h, ws_ptr(&ws)) }, "SpMV")?;
    p.check(&g.y_buf.to_vec()).map_err(|e| format!("after the buffer was overwritten: {e}"))
}

#[test]
fn busy_scattered_columns_reused_and_overwritten() {
    let Some(_gpu) = gpu("spmv column order reused") else { return };
    let h = CHandle::new();
    let all: Vec<Case> = [(Fmt::Csr, N, F32), (Fmt::Csc, T, F64)].into_iter().enumerate().map(|(i, (f, o, t))| hot_case(f, o, t, 100 + i)).collect();
    let failures: Vec<String> = all.iter().filter_map(|c| reuse(&h, c).err().map(|e| format!("{}: {e}", c.label()))).collect();
    assert!(failures.is_empty(), "{} of {} failing:\n{}", failures.len(), all.len(), failures.join("\n"));
    println!("spmv column order reused: {} cases passed", all.len());
}
