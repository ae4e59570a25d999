//! SpMM: C = A B with A in CSR (32-bit indices, base 0), dense B (k x N) and C (m x N), alpha = 1,
//! beta = 0, on every matrix, in ten configurations (FP32 row-major N = 32 / 64 / 128 / 256, FP32
//! column-major N = 128, FP64 row-major N = 128, FP16 row-major N = 32 / 64 / 128 / 256; FP16
//! computes in FP32).
//!
//! oxsparse runs its default algorithm twice: after `oxsparseSpMM_preprocess` (its time, taken
//! apart with events, is reported; this is the time in the speedup) and on fresh descriptors that
//! never saw a preprocess (reported only). cuSPARSE runs every CSR algorithm that suits the layout
//! (row-major: CSR_ALG2, DEFAULT, CSR_ALG3; column-major: DEFAULT, CSR_ALG1) and the speedup is
//! against its best; `cusparseSpMM_preprocess` is called before CSR_ALG1 and CSR_ALG3, the two
//! its documentation says it speeds up. Each algorithm's result is checked.
//!
//! Every copy of the rotation has its own A, B and C (and, for a preprocessed variant, its own
//! workspace holding the plan of that copy's A).
//!
//! oxsparse runs in the math mode of `--math-mode` (set on its handle in `main`); in TF32 mode its
//! FP32 results are checked with a tolerance for TF32's input rounding, cuSPARSE's with FP32's.
//! Each check records its largest error over sum |a b| (`max_rel_err`), for both libraries.

pub(crate) mod brcv;
pub(super) mod check;
pub(super) mod data;

use super::prepare::{self, DeviceCsr, Preprocess};
use super::{MatrixOp, OpConfig};
use crate::api::{Lib, MmArgs, MmDescrs, SPMM_CSR_ALG1, SPMM_CSR_ALG2, SPMM_CSR_ALG3, SPMM_DEFAULT};
use crate::case::{Case, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::Matrix;
use crate::report::Check;
use crate::Result;
use check::{Reference, Sample};
use data::{Half, Layout, Precision, Scalar, Values};
use oxsparse::types::MathMode;

pub const OP: MatrixOp = MatrixOp { name: "SpMM", skip, cases };

/// The seed of B's values (the configurations with one N share one B).
const DENSE_SEED: u64 = 0xB5EED;
/// Written over C before a checked call: finite (cuSPARSE may compute beta * C even with beta = 0,
/// and 0 * NaN would be NaN) but far from any result, so an output never written is caught.
pub(super) const POISON_BYTE: u8 = 0x7B;

/// The summaries over every FP32 and every FP16 row-major N.
const ALL_N: &str = "FP32 row-major, N=32/64/128/256";
const ALL_N_FP16: &str = "FP16 row-major, N=32/64/128/256";

#[derive(Clone, Copy, Debug, PartialEq)]
struct Config {
    p: Precision,
    layout: Layout,
    n: usize,
}

/// N = 64 is reported apart from the 32/128/256 summary (the CUDA-core issue's target) and in the
/// 32/64/128/256 one (the tensor-core issue's).
/// FP16 runs at every N of the tensor-core issue too (its tensor cores need `--math-mode tf32`).
const CONFIGS: [Config; 10] = [
    Config { p: Precision::F32, layout: Layout::Row, n: 32 },
    Config { p: Precision::F32, layout: Layout::Row, n: 64 },
    Config { p: Precision::F32, layout: Layout::Row, n: 128 },
    Config { p: Precision::F32, layout: Layout::Row, n: 256 },
    Config { p: Precision::F32, layout: Layout::Col, n: 128 },
    Config { p: Precision::F64, layout: Layout::Row, n: 128 },
    Config { p: Precision::F16, layout: Layout::Row, n: 32 },
    Config { p: Precision::F16, layout: Layout::Row, n: 64 },
    Config { p: Precision::F16, layout: Layout::Row, n: 128 },
    Config { p: Precision::F16, layout: Layout::Row, n: 256 },
];

impl Config {
    /// Bytes of one B and one C.
    fn dense_bytes(&self, rows: u64, cols: u64) -> u64 {
        (rows + cols).saturating_mul(self.n as u64).saturating_mul(self.p.bytes())
    }
}

/// Whether `--spmm-precisions` leaves this configuration in.
fn chosen(c: &Config, cfg: &OpConfig) -> bool {
    cfg.spmm_precisions.is_empty() || cfg.spmm_precisions.contains(&c.p.name())
}

fn skip(rows: u64, cols: u64, _max_nnz: u64, cfg: &OpConfig) -> Option<String> {
    let smallest = CONFIGS.iter().filter(|c| chosen(c, cfg)).map(|c| c.dense_bytes(rows, cols)).min().unwrap_or(0);
    (smallest > cfg.dense_cap_bytes)
        .then(|| format!("even the smallest B and C take {} > the cap of {} (--dense-cap-gib)", gib(smallest), gib(cfg.dense_cap_bytes)))
}

pub(super) fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

fn cases<'m>(m: &'m Matrix, cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    CONFIGS.iter().filter(|c| chosen(c, cfg)).map(|&c| Box::new(SpmmCase::new(m, c, cfg, false)) as Box<dyn Case>).collect()
}

struct SpmmCase<'m> {
    m: &'m Matrix,
    cfg: Config,
    dense_cap: u64,
    /// oxsparse's math mode: in TF32 mode its FP32 results get TF32's tolerance.
    math_mode: MathMode,
    copies: Vec<Operands>,
    reference: Option<Reference>,
    /// What the check covers, when not every row or not the values as given.
    scope: Option<String>,
    /// SpMM-brcv: oxsparse multiplies over its banded format (`brcv.rs`) instead of CSR.
    brcv: bool,
}

struct Operands {
    a: DeviceCsr,
    b: DevBuf,
    c: DevBuf,
}

impl<'m> SpmmCase<'m> {
    /// A case of `m` in configuration `c`, nothing measured yet; `brcv`: over BRCV instead of CSR.
    fn new(m: &'m Matrix, c: Config, cfg: &OpConfig, brcv: bool) -> SpmmCase<'m> {
        SpmmCase {
            m,
            cfg: c,
            dense_cap: cfg.dense_cap_bytes,
            math_mode: cfg.math_mode,
            copies: Vec::new(),
            reference: None,
            scope: None,
            brcv,
        }
    }

    fn args<'d, 'a>(&self, d: &'d MmDescrs<'a>, alg: i32) -> MmArgs<'d, 'a> {
        d.args(self.cfg.p.alpha_beta(), self.cfg.p.compute_type(), alg)
    }

    fn descrs<'a>(&self, lib: Lib<'a>, o: &Operands) -> Result<MmDescrs<'a>> {
        let a = &self.m.csr;
        let (m, k, n) = (a.rows, a.cols, self.cfg.n);
        let (vt, layout) = (self.cfg.p.value_type(), self.cfg.layout);
        Ok(MmDescrs {
            a: o.a.descr(lib, a, vt)?,
            b: lib.create_dn_mat(k as i64, n as i64, layout.ld(k, n) as i64, o.b.ptr, vt, layout.order())?,
            c: lib.create_dn_mat(m as i64, n as i64, layout.ld(m, n) as i64, o.c.ptr, vt, layout.order())?,
        })
    }

    fn compare<T: Scalar>(&self, c: &DevBuf, tf32: bool) -> Result<Check> {
        let a = &self.m.csr;
        let r = self.reference.as_ref().expect("alloc computes the reference");
        let got: Vec<T> = c.download(a.rows * self.cfg.n)?;
        Ok(check::compare(r, &got, self.cfg.layout, a.rows, self.cfg.p, tf32, self.scope.clone()))
    }
}

impl Case for SpmmCase<'_> {
    fn info(&self) -> Info {
        let a = &self.m.csr;
        let Config { p, layout, n } = self.cfg;
        let (m, k, nnz) = (a.rows as u64, a.cols as u64, a.nnz() as u64);
        let sparse = 4 * (m + 1) + (4 + p.bytes()) * nnz;
        if self.brcv {
            return brcv::info(self, sparse);
        }
        let compute = if p == Precision::F16 { " (FP32 compute)" } else { "" };
        let (groups, series) = match (p, layout) {
            (Precision::F32, Layout::Row) if n == 64 => (vec![ALL_N.to_string(), "FP32 row-major N=64".to_string()], None),
            (Precision::F32, Layout::Row) => {
                let series = match n {
                    32 => "N=32",
                    128 => "N=128",
                    _ => "N=256",
                };
                (vec!["FP32 row-major, N=32/128/256".to_string(), ALL_N.to_string(), format!("FP32 row-major N={n}")], Some(series))
            }
            (Precision::F16, Layout::Row) => (vec![ALL_N_FP16.to_string(), format!("{} {} N={n}", p.name(), layout.name())], None),
            _ => (vec![format!("{} {} N={n}", p.name(), layout.name())], None),
        };
        Info {
            op: OP.name,
            variant: format!("csr {}{compute}, {}, N={n}", p.name(), layout.name()),
            input: self.m.name.clone(),
            group: self.m.group.clone(),
            rows: m,
            cols: k,
            nnz,
            traffic_bytes: sparse + self.cfg.dense_bytes(m, k),
            copy_bytes: sparse + self.cfg.dense_bytes(m, k),
            flops: 2 * nnz * n as u64,
            set: self.m.set,
            summary_groups: groups,
            chart_series: series,
        }
    }

    fn skip(&self) -> Option<String> {
        let a = &self.m.csr;
        let bytes = self.cfg.dense_bytes(a.rows as u64, a.cols as u64);
        (bytes > self.dense_cap).then(|| format!("B and C take {} > the cap of {} (--dense-cap-gib)", gib(bytes), gib(self.dense_cap)))
    }

    fn variants(&self, lib: Lib) -> Vec<Variant> {
        let v = |label, code, extra| Variant { label, code, extra };
        match (lib, self.cfg.layout) {
            (Lib::Ox(_), _) if self.brcv => vec![v("BRCV", SPMM_DEFAULT, false)],
            (Lib::Ox(_), _) => vec![v("DEFAULT", SPMM_DEFAULT, false), v("DEFAULT, no preprocess", SPMM_DEFAULT, true)],
            (Lib::Cu(_), Layout::Row) => {
                vec![v("CSR_ALG2", SPMM_CSR_ALG2, false), v("DEFAULT", SPMM_DEFAULT, false), v("CSR_ALG3", SPMM_CSR_ALG3, false)]
            }
            (Lib::Cu(_), Layout::Col) => vec![v("DEFAULT", SPMM_DEFAULT, false), v("CSR_ALG1", SPMM_CSR_ALG1, false)],
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let a = &self.m.csr;
        let Config { p, layout, n } = self.cfg;
        let (a_vals, scaled) = data::matrix_values(a, p);
        let b = data::dense_b(a.cols, n, layout, p, DENSE_SEED ^ n as u64);
        let Sample { rows, scope } = check::sample_rows(a, n);
        self.scope = match (scaled, scope) {
            (None, s) => s,
            (Some(x), None) => Some(x),
            (Some(x), Some(s)) => Some(format!("{x}; {s}")),
        };
        self.reference = Some(match (&a_vals, &b) {
            (Values::F32(av), Values::F32(bv)) => check::reference(a, av, bv, layout, n, rows),
            (Values::F64(av), Values::F64(bv)) => check::reference(a, av, bv, layout, n, rows),
            (Values::F16(av), Values::F16(bv)) => check::reference(a, av, bv, layout, n, rows),
            _ => unreachable!("A and B share one precision"),
        });
        let c_bytes = a.rows * n * p.bytes() as usize;
        for _ in 0..copies {
            self.copies.push(Operands { a: DeviceCsr::upload(a, a_vals.upload()?)?, b: b.upload()?, c: DevBuf::new(c_bytes)? });
        }
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, v: Variant) -> Result<Prepared<'s>> {
        if let (Lib::Ox(h), true) = (lib, self.brcv) {
            return brcv::prepare(self, lib, h);
        }
        let preprocess = match lib {
            Lib::Ox(_) => !v.extra,
            Lib::Cu(_) => v.code == SPMM_CSR_ALG1 || v.code == SPMM_CSR_ALG3,
        };
        let alg = v.code;
        let sets = self.copies.iter().map(|o| self.descrs(lib, o)).collect::<Result<Vec<_>>>()?;
        let run = |d: &MmDescrs<'s>, buffer: u64| lib.spmm_preprocess(&self.args(d, alg), buffer);
        prepare::with_workspaces(
            sets,
            |d| lib.spmm_buffer_size(&self.args(d, alg)),
            preprocess.then_some(Preprocess { run: &run, min_samples: 1 }),
            move |d, buffer| lib.spmm(&self.args(d, alg), buffer),
        )
    }

    fn poison(&self) -> Result<()> {
        self.copies[0].c.fill(POISON_BYTE)
    }

    fn check(&self, lib: Lib) -> Result<Check> {
        let c = &self.copies[0].c;
        // Only oxsparse's handle has a math mode; cuSPARSE computes FP32 in FP32.
        let tf32 = matches!(lib, Lib::Ox(_)) && self.math_mode == MathMode::OXSPARSE_TF32_TENSOR_OP_MATH;
        match self.cfg.p {
            Precision::F32 => self.compare::<f32>(c, tf32),
            Precision::F64 => self.compare::<f64>(c, tf32),
            Precision::F16 => self.compare::<Half>(c, tf32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Csr;

    fn matrix() -> Matrix {
        let csr = Csr::from_triplets(1000, 500, (0..1000u32).map(|r| (r, r % 500, 1.0)).collect()).unwrap();
        Matrix { name: "t".into(), group: "g".into(), set: "generated", csr }
    }

    #[test]
    fn ten_configurations_with_flops_and_groups() {
        let m = matrix();
        let cs = cases(&m, &OpConfig::with_cap(8 << 30));
        assert_eq!(cs.len(), 10);
        let n64 = cs[1].info();
        assert_eq!((n64.variant.as_str(), n64.chart_series), ("csr FP32, row-major, N=64", None));
        assert_eq!(n64.summary_groups, vec![ALL_N, "FP32 row-major N=64"]);
        let i = cs[2].info();
        assert_eq!((i.op, i.flops, i.chart_series), ("SpMM", 2 * 1000 * 128, Some("N=128")));
        assert_eq!(i.variant, "csr FP32, row-major, N=128");
        assert_eq!(i.summary_groups, vec!["FP32 row-major, N=32/128/256", ALL_N, "FP32 row-major N=128"]);
        assert_eq!(i.traffic_bytes, 4 * 1001 + 8 * 1000 + 4 * 1500 * 128);
        let h = cs[8].info();
        assert_eq!(h.variant, "csr FP16 (FP32 compute), row-major, N=128");
        assert_eq!((h.summary_groups, h.chart_series), (vec![ALL_N_FP16.to_string(), "FP16 row-major N=128".to_string()], None));
        assert_eq!(cs[6].info().variant, "csr FP16 (FP32 compute), row-major, N=32");
        assert_eq!(cs[4].info().summary_groups, vec!["FP32 col-major N=128"]);
        assert!(cs.iter().all(|c| c.skip().is_none()));
    }

    #[test]
    fn precisions_filter_the_configurations() {
        let m = matrix();
        let cfg = OpConfig { spmm_precisions: vec!["FP16"], ..OpConfig::with_cap(8 << 30) };
        let names: Vec<String> = cases(&m, &cfg).iter().map(|c| c.info().variant).collect();
        assert_eq!(names.len(), 4);
        assert!(names.iter().all(|v| v.contains("FP16")), "{names:?}");
    }

    #[test]
    fn dense_operands_over_the_cap_are_skipped() {
        let m = matrix();
        // FP32 N=256: 1500 * 256 * 4 = 1.5 MB; FP64 N=128 the same; N=32: 192 kB; N=64: 384 kB;
        // FP16 N=256: 768 kB.
        let cs = cases(&m, &OpConfig::with_cap(1 << 20));
        let skipped: Vec<bool> = cs.iter().map(|c| c.skip().is_some()).collect();
        assert_eq!(skipped, vec![false, false, false, true, false, true, false, false, false, false]);
        assert!(skip(1000, 500, 0, &OpConfig::with_cap(1 << 20)).is_none());
        // The smallest: FP16 N=32, 1500 * 32 * 2 = 96 kB.
        assert!(skip(1000, 500, 0, &OpConfig::with_cap(96_000)).is_none());
        assert!(skip(1000, 500, 0, &OpConfig::with_cap(95_999)).unwrap().contains("smallest"));
    }
}
