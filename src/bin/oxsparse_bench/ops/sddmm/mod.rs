//! SDDMM: C = alpha (A B) o spy(C) + beta C, C in CSR (32-bit indices, base 0) with the pattern
//! of the matrix (its values random), opA = opB = N, alpha = 1, beta = 0, on every matrix and
//! attention mask, at K = 32 / 64 / 128 / 256 (`--sddmm-k`), in two configurations: FP32
//! throughout, and FP16 A and B with FP32 C and compute; and in the layouts of `--sddmm-layouts`
//! ([`SddmmLayout`]): A (m x K) row-major and B (K x n) column-major, cuSPARSE's fast layout for
//! CSR (the default), and both row-major, as PyTorch's `sampled_addmm` passes them (oxsparse's
//! bufferSize then asks for B's lines in its workspace). Both libraries get the same descriptors.
//!
//! Both libraries ask bufferSize, get that workspace, preprocess once per copy (timed, as SpMM's:
//! the preprocess column), then make the timed calls; oxsparse also runs on fresh descriptors that
//! never saw a preprocess (reported only, as in SpMM). Every copy of the rotation has its own C,
//! A and B. Every result is checked against the float64 reference (`check.rs`).
//!
//! cuSPARSE documents FP16 A and B with FP32 compute for CSR C; should the one loaded refuse them
//! (any cuSPARSE status from its calls), the refusal and its status are reported per case and do
//! not fail the run.
//!
//! A call's floor (`Info::traffic_bytes`): C's values written once, its column indices and row
//! offsets read once, and the rows of A and columns of B that C's entries touch (C's rows and
//! columns with entries) read once each. The report compares GB/s over it with the device's peak
//! bandwidth.

mod check;

use super::prepare::{self, DeviceCsr, Preprocess};
use super::spmm::check::sample_rows;
use super::spmm::data::{self, Layout, Precision, Values};
use super::spmm::{gib, POISON_BYTE};
use super::{MatrixOp, OpConfig};
use crate::api::{Lib, MmArgs, MmDescrs, R_32F, SDDMM_DEFAULT};
use crate::case::{Case, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::{Csr, Matrix};
use crate::report::{Check, NO_PREPROCESS};
use crate::Result;
use check::Reference;

pub const SDDMM: &str = "SDDMM";
pub const OP: MatrixOp = MatrixOp { name: SDDMM, skip, cases };

/// K, op(A)'s columns and op(B)'s rows, unless `--sddmm-k` names others.
pub const DEFAULT_K: [usize; 4] = [32, 64, 128, 256];
/// The seeds of A's and B's values (mixed with K).
const A_SEED: u64 = 0x5DD_A000;
const B_SEED: u64 = 0x5DD_B000;

/// FP32 throughout; FP16 A and B (C and compute FP32).
const PRECISIONS: [Precision; 2] = [Precision::F32, Precision::F16];

/// How A (m x K) and B (K x n) are stored, opA = opB = N for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SddmmLayout {
    /// A row-major, B column-major: cuSPARSE's fast layout, the default.
    Fast,
    /// A and B row-major, as PyTorch's `sampled_addmm` (and the published comparisons) pass them.
    Row,
}

impl SddmmLayout {
    pub const ALL: [SddmmLayout; 2] = [SddmmLayout::Fast, SddmmLayout::Row];

    /// The name `--sddmm-layouts` takes.
    pub fn name(self) -> &'static str {
        match self {
            SddmmLayout::Fast => "fast",
            SddmmLayout::Row => "row",
        }
    }

    pub fn parse(s: &str) -> Option<SddmmLayout> {
        Self::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(s))
    }

    pub fn a(self) -> Layout {
        Layout::Row
    }

    pub fn b(self) -> Layout {
        match self {
            SddmmLayout::Fast => Layout::Col,
            SddmmLayout::Row => Layout::Row,
        }
    }

    /// What the variant and the summary groups append: nothing for the default layout, so that
    /// its records stay comparable with those before the option.
    fn suffix(self) -> &'static str {
        match self {
            SddmmLayout::Fast => "",
            SddmmLayout::Row => ", B row-major",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Config {
    /// A's and B's precision.
    p: Precision,
    k: usize,
    layout: SddmmLayout,
}

impl Config {
    /// Bytes of one A (rows x k) and one B (k x cols).
    fn dense_bytes(&self, rows: u64, cols: u64) -> u64 {
        (rows + cols).saturating_mul(self.k as u64).saturating_mul(self.p.bytes())
    }

    /// The configuration's name in the summary groups.
    fn name(&self) -> &'static str {
        match self.p {
            Precision::F16 => "FP16 A/B",
            _ => "FP32",
        }
    }
}

fn ks(cfg: &OpConfig) -> &[usize] {
    if cfg.sddmm_k.is_empty() {
        &DEFAULT_K
    } else {
        &cfg.sddmm_k
    }
}

fn layouts(cfg: &OpConfig) -> &[SddmmLayout] {
    if cfg.sddmm_layouts.is_empty() {
        &[SddmmLayout::Fast]
    } else {
        &cfg.sddmm_layouts
    }
}

fn skip(rows: u64, cols: u64, _max_nnz: u64, cfg: &OpConfig) -> Option<String> {
    let smallest =
        ks(cfg).iter().map(|&k| Config { p: Precision::F16, k, layout: SddmmLayout::Fast }.dense_bytes(rows, cols)).min().unwrap_or(0);
    (smallest > cfg.dense_cap_bytes)
        .then(|| format!("even the smallest A and B take {} > the cap of {} (--dense-cap-gib)", gib(smallest), gib(cfg.dense_cap_bytes)))
}

/// The chart series of an FP32 case: "K=128", "K=128, B row". The usual K's are spelled out;
/// another (from `--sddmm-k`) is leaked, a few bytes per matrix.
fn k_label(k: usize, layout: SddmmLayout) -> &'static str {
    match (k, layout) {
        (32, SddmmLayout::Fast) => "K=32",
        (64, SddmmLayout::Fast) => "K=64",
        (128, SddmmLayout::Fast) => "K=128",
        (256, SddmmLayout::Fast) => "K=256",
        (32, SddmmLayout::Row) => "K=32, B row",
        (64, SddmmLayout::Row) => "K=64, B row",
        (128, SddmmLayout::Row) => "K=128, B row",
        (256, SddmmLayout::Row) => "K=256, B row",
        (_, SddmmLayout::Fast) => Box::leak(format!("K={k}").into_boxed_str()),
        (_, SddmmLayout::Row) => Box::leak(format!("K={k}, B row").into_boxed_str()),
    }
}

/// How many of C's rows and columns hold entries: the rows of A and columns of B a call reads.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Touched {
    rows: u64,
    cols: u64,
}

fn touched(c: &Csr) -> Touched {
    let rows = c.row_ptr.windows(2).filter(|w| w[1] > w[0]).count() as u64;
    let mut seen = vec![false; c.cols];
    for &j in &c.col_idx {
        seen[j as usize] = true;
    }
    Touched { rows, cols: seen.iter().filter(|&&s| s).count() as u64 }
}

fn cases<'m>(m: &'m Matrix, cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    let (ks, layouts, touched) = (ks(cfg), layouts(cfg), touched(&m.csr));
    let all_k = (ks.len() > 1).then(|| ks.iter().map(|k| k.to_string()).collect::<Vec<_>>().join("/"));
    // The layouts of one configuration side by side, measured one after the other.
    let configs = PRECISIONS.iter().flat_map(|&p| ks.iter().flat_map(move |&k| layouts.iter().map(move |&layout| Config { p, k, layout })));
    configs
        .map(|c| {
            let all_k = all_k.clone();
            let case =
                SddmmCase { m, cfg: c, all_k, touched, dense_cap: cfg.dense_cap_bytes, copies: Vec::new(), reference: None, scope: None };
            Box::new(case) as Box<dyn Case>
        })
        .collect()
}

struct SddmmCase<'m> {
    m: &'m Matrix,
    cfg: Config,
    /// Every K of the run ("32/64/128/256"), for the summary of them together; None for one K.
    all_k: Option<String>,
    touched: Touched,
    dense_cap: u64,
    copies: Vec<Operands>,
    reference: Option<Reference>,
    /// The rows checked, when not all of them.
    scope: Option<String>,
}

struct Operands {
    c: DeviceCsr,
    a: DevBuf,
    b: DevBuf,
}

impl SddmmCase<'_> {
    /// alpha = 1 and beta = 0 in the compute type, FP32 in both configurations.
    fn args<'d, 'a>(&self, d: &'d MmDescrs<'a>) -> MmArgs<'d, 'a> {
        d.args(Precision::F32.alpha_beta(), R_32F, SDDMM_DEFAULT)
    }

    fn descrs<'a>(&self, lib: Lib<'a>, o: &Operands) -> Result<MmDescrs<'a>> {
        let c = &self.m.csr;
        let (m, n, k, vt) = (c.rows, c.cols, self.cfg.k, self.cfg.p.value_type());
        let (al, bl) = (self.cfg.layout.a(), self.cfg.layout.b());
        Ok(MmDescrs {
            a: lib.create_dn_mat(m as i64, k as i64, al.ld(m, k) as i64, o.a.ptr, vt, al.order())?,
            b: lib.create_dn_mat(k as i64, n as i64, bl.ld(k, n) as i64, o.b.ptr, vt, bl.order())?,
            c: o.c.descr(lib, c, R_32F)?,
        })
    }

    /// The floor's bytes: C's FP32 values written, its 32-bit column indices and row offsets
    /// read, and the touched rows of A and columns of B read, once each (in either layout).
    fn floor_bytes(&self) -> u64 {
        let c = &self.m.csr;
        let (m, nnz) = (c.rows as u64, c.nnz() as u64);
        let dense = (self.touched.rows + self.touched.cols) * self.cfg.k as u64 * self.cfg.p.bytes();
        4 * nnz + 4 * nnz + 4 * (m + 1) + dense
    }
}

impl Case for SddmmCase<'_> {
    fn info(&self) -> Info {
        let c = &self.m.csr;
        let Config { p, k, layout } = self.cfg;
        let (m, n, nnz) = (c.rows as u64, c.cols as u64, c.nnz() as u64);
        let (name, lay) = (self.cfg.name(), layout.suffix());
        let mut groups: Vec<String> = self.all_k.iter().map(|all| format!("{name} K={all}{lay}")).collect();
        groups.push(format!("{name} K={k}{lay}"));
        let types = if p == Precision::F16 { "FP16 A/B (FP32 C)" } else { "FP32" };
        Info {
            op: SDDMM,
            variant: format!("csr {types}, K={k}{lay}"),
            input: self.m.name.clone(),
            group: self.m.group.clone(),
            rows: m,
            cols: n,
            nnz,
            traffic_bytes: self.floor_bytes(),
            copy_bytes: 4 * (m + 1) + 8 * nnz + self.cfg.dense_bytes(m, n),
            flops: 2 * nnz * k as u64,
            set: self.m.set,
            summary_groups: groups,
            chart_series: (p == Precision::F32).then(|| k_label(k, layout)),
        }
    }

    fn skip(&self) -> Option<String> {
        let c = &self.m.csr;
        let bytes = self.cfg.dense_bytes(c.rows as u64, c.cols as u64);
        (bytes > self.dense_cap).then(|| format!("A and B take {} > the cap of {} (--dense-cap-gib)", gib(bytes), gib(self.dense_cap)))
    }

    fn variants(&self, lib: Lib) -> Vec<Variant> {
        let v = |label, extra| Variant { label, code: SDDMM_DEFAULT, extra };
        match lib {
            Lib::Ox(_) => vec![v("DEFAULT", false), v(NO_PREPROCESS, true)],
            Lib::Cu(_) => vec![v("DEFAULT", false)],
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let c = &self.m.csr;
        let Config { p, k, layout } = self.cfg;
        // The same values in either layout (drawn in row-major order): only their places differ.
        let a = data::dense_b(c.rows, k, layout.a(), p, A_SEED ^ k as u64);
        let b = data::dense_b(k, c.cols, layout.b(), p, B_SEED ^ k as u64);
        let sample = sample_rows(c, k);
        self.scope = sample.scope;
        self.reference = Some(match (&a, &b) {
            (Values::F32(av), Values::F32(bv)) => check::reference(c, av, bv, k, layout, sample.rows),
            (Values::F16(av), Values::F16(bv)) => check::reference(c, av, bv, k, layout, sample.rows),
            _ => unreachable!("A and B share one precision, FP32 or FP16"),
        });
        for _ in 0..copies {
            self.copies.push(Operands { c: DeviceCsr::upload(c, DevBuf::upload(&c.values)?)?, a: a.upload()?, b: b.upload()? });
        }
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, v: Variant) -> Result<Prepared<'s>> {
        let sets = self.copies.iter().map(|o| self.descrs(lib, o)).collect::<Result<Vec<_>>>()?;
        let run = |d: &MmDescrs<'s>, buffer: u64| lib.sddmm_preprocess(&self.args(d), buffer);
        let preprocess = (!v.extra).then_some(Preprocess { run: &run, min_samples: 1 });
        prepare::with_workspaces(
            sets,
            |d| lib.sddmm_buffer_size(&self.args(d)),
            preprocess,
            move |d, buffer| lib.sddmm(&self.args(d), buffer),
        )
    }

    /// beta = 0: C's values are write-only, so they start poisoned (finite, as SpMM's C).
    fn poison(&self) -> Result<()> {
        self.copies[0].c.values.fill(POISON_BYTE)
    }

    fn check(&self, _lib: Lib) -> Result<Check> {
        let c = &self.m.csr;
        let r = self.reference.as_ref().expect("alloc computes the reference");
        let got: Vec<f32> = self.copies[0].c.values.download(c.nnz())?;
        Ok(check::compare(r, c, &got, self.scope.clone()))
    }

    fn refused(&self, lib: &str, error: &str) -> bool {
        self.cfg.p == Precision::F16 && lib == "cuSPARSE" && error.contains("failed: CUSPARSE_STATUS_")
    }
}

#[cfg(test)]
mod tests;
