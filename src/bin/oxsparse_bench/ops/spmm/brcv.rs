//! SpMM-brcv: SpMM over oxsparse's banded format (`oxsparseCreateBrcv`, `oxsparseSpMM_brcv`,
//! issue 59) on banded matrices only (the generated band set, `sources::BAND_SET`, and `--banded`
//! ones), against cuSPARSE's CSR SpMM in the same process (every CSR algorithm that suits the
//! layout; the speedup is against its best), FP32, alpha = 1, beta = 0.
//!
//! oxsparse's preprocess time is `oxsparseCreateBrcv` (the build on the GPU from the CSR arrays,
//! its wait included), timed once per copy after one untimed creation. GB/s are against the bytes
//! floor of the issue: A as CSR (4 bytes an offset, 8 an entry) and B and C once, so that a
//! bandwidth near the device's means a product near the floor. Each result is checked as SpMM's.

use super::{gib, Config, Layout, Precision, SpmmCase};
use crate::api::{Brcv, Lib};
use crate::case::{Call, Case, Info, Prepared};
use crate::matrix::Matrix;
use crate::ops::{MatrixOp, OpConfig};
use crate::timing::{median, time_once};
use crate::Result;
use oxsparse::ffi::oxsparseHandle_t;

pub const NAME: &str = "SpMM-brcv";
pub const OP: MatrixOp = MatrixOp { name: NAME, skip, cases };

/// The N (32 and up), row-major, and column-major at N = 128.
const CONFIGS: [Config; 4] = [
    Config { p: Precision::F32, layout: Layout::Row, n: 32 },
    Config { p: Precision::F32, layout: Layout::Row, n: 64 },
    Config { p: Precision::F32, layout: Layout::Row, n: 128 },
    Config { p: Precision::F32, layout: Layout::Col, n: 128 },
];

fn skip(rows: u64, cols: u64, _max_nnz: u64, cfg: &OpConfig) -> Option<String> {
    let smallest = CONFIGS.iter().map(|c| c.dense_bytes(rows, cols)).min().unwrap_or(0);
    (smallest > cfg.dense_cap_bytes)
        .then(|| format!("even the smallest B and C take {} > the cap of {} (--dense-cap-gib)", gib(smallest), gib(cfg.dense_cap_bytes)))
}

fn cases<'m>(m: &'m Matrix, cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    CONFIGS.iter().map(|&c| Box::new(SpmmCase::new(m, c, cfg, true)) as Box<dyn Case>).collect()
}

/// The case's report entry: SpMM's floor (`sparse` bytes of CSR A, B and C once), under its own
/// operation and summary groups.
pub(super) fn info(case: &SpmmCase, sparse: u64) -> Info {
    let a = &case.m.csr;
    let Config { p, layout, n } = case.cfg;
    let (m, k, nnz) = (a.rows as u64, a.cols as u64, a.nnz() as u64);
    Info {
        op: NAME,
        variant: format!("brcv {}, {}, N={n}", p.name(), layout.name()),
        input: case.m.name.clone(),
        group: case.m.group.clone(),
        rows: m,
        cols: k,
        nnz,
        traffic_bytes: sparse + case.cfg.dense_bytes(m, k),
        copy_bytes: sparse + case.cfg.dense_bytes(m, k),
        flops: 2 * nnz * n as u64,
        set: case.m.set,
        summary_groups: vec![format!("banded {} {} N={n}", p.name(), layout.name())],
        chart_series: None,
    }
}

/// oxsparse's calls: a BRCV per copy (its creation timed as the preprocess), then SpMM_brcv.
pub(super) fn prepare<'s>(case: &'s SpmmCase, lib: Lib<'s>, h: oxsparseHandle_t) -> Result<Prepared<'s>> {
    let (a, vt) = (&case.m.csr, case.cfg.p.value_type());
    // Untimed first: module loading stays out of the times.
    drop(Brcv::create(h, &case.copies[0].a.descr(lib, a, vt)?)?);
    let (scalars, compute) = (case.cfg.p.alpha_beta(), case.cfg.p.compute_type());
    let mut times = Vec::with_capacity(case.copies.len());
    let mut calls: Vec<Call<'s>> = Vec::with_capacity(case.copies.len());
    for o in &case.copies {
        let d = case.descrs(lib, o)?;
        let mut made = None;
        times.push(time_once(|| {
            made = Some(Brcv::create(h, &d.a)?);
            Ok(())
        })?);
        let object = made.ok_or("oxsparseCreateBrcv made nothing")?;
        if calls.is_empty() {
            let (values, far, widest) = object.info()?;
            eprintln!("oxsparse-bench: {}: BRCV of {} entries: {values} band values, {far} far, widest band {widest}", NAME, a.nnz());
        }
        calls.push(Box::new(move || object.spmm(h, scalars, &d.b, &d.c, compute)));
    }
    Ok(Prepared { calls, resets: Vec::new(), keep: Vec::new(), preprocess_ms: Some(median(&times)) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Csr;

    #[test]
    fn four_configurations_against_the_csr_floor() {
        let csr = Csr::from_triplets(1000, 1000, (0..1000u32).map(|r| (r, r, 1.0)).collect()).unwrap();
        let m = Matrix { name: "band".into(), group: "generated".into(), set: "banded", csr };
        let cs = cases(&m, &OpConfig::with_cap(8 << 30));
        assert_eq!(cs.len(), 4);
        let i = cs[2].info();
        assert_eq!((i.op, i.variant.as_str(), i.flops), (NAME, "brcv FP32, row-major, N=128", 2 * 1000 * 128));
        assert_eq!(i.traffic_bytes, 4 * 1001 + 8 * 1000 + 4 * 2000 * 128, "CSR A, B and C once");
        assert_eq!(i.summary_groups, vec!["banded FP32 row-major N=128"]);
        assert_eq!(cs[3].info().variant, "brcv FP32, col-major, N=128");
        assert!(skip(1000, 1000, 0, &OpConfig::with_cap(1 << 20)).is_none());
        assert!(skip(1 << 20, 1 << 20, 0, &OpConfig::with_cap(1 << 20)).is_some());
    }
}
