//! Results: one [`Row`] per case, printed as a table on stdout and written as JSON and CSV
//! (`files.rs`), summarized per operation, matrix set and case group (`summary.rs`).
//!
//! A row holds one [`LibResult`] per library and variant (algorithm). A library's time in a row is
//! its best variant's median, leaving out the `extra` variants (oxsparse without preprocess);
//! speedup is cuSPARSE's time over oxsparse's: above 1 means oxsparse is faster. GB/s counts the
//! bytes a call must read and write at least (`Info::traffic_bytes`, 1 GB = 1e9 B); GFLOP/s
//! counts `Info::flops`. SpMV's rows get their own table section and summary (`spmv.rs`): both
//! oxsparse variants count in its speedup, and its GB/s is compared with the device's copy
//! bandwidth. SDDMM's rows get theirs too (`sddmm.rs`): both libraries' preprocess, and GB/s of
//! the call's floor compared with the device's peak bandwidth (`bandwidth.rs` for both
//! comparisons in the summary). `chart.rs` draws the SVG bar charts.

mod bandwidth;
mod chart;
mod files;
mod sddmm;
mod spmv;
mod summary;
mod table;

use crate::case::{Info, Variant};
use crate::timing::Timing;
use files::{jn, js};
pub use summary::summarize;

/// The label of oxsparse's variant that runs without a preprocess where another one runs after
/// it (SpMM, SpMV, SDDMM).
pub const NO_PREPROCESS: &str = "DEFAULT, no preprocess";

/// Variants (always `extra`) measured beside an operation as yardsticks, each with its own table
/// column: its time over oxsparse's (SpMM-int's dense cuBLAS GEMM; SDDMM-int's oxsparse FP16 CSR
/// SDDMM, whose target ratio is 2x). (label, column heading.)
pub const YARDSTICKS: [(&str, &str); 2] = [("cuBLAS int8 GEMM", "x cuBLAS"), ("oxsparse FP16 CSR", "x FP16")];

/// The device's copy bandwidth, measured once per run (`ops/spmv/bandwidth.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyBandwidth {
    /// Bytes copied per call (each read once and written once).
    pub bytes: u64,
    pub median_ms: f64,
    /// 2 * bytes / time, 1 GB = 1e9 B.
    pub gbps: f64,
}

/// Result of comparing one library's output with the float64 reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub compared: u64,
    pub mismatches: u64,
    pub max_abs_err: f64,
    /// The largest error as a fraction of its tolerance (above 1 is a mismatch).
    pub worst_ratio: f64,
    /// The largest error as a fraction of sum |a b| over the value's terms, where the check
    /// knows it (SpMM): comparable across libraries, precisions and math modes.
    pub max_rel_err: Option<f64>,
    /// Where and how the first mismatch differs.
    pub first: Option<String>,
    /// What was compared when not all outputs were, or how the inputs were adapted.
    pub scope: Option<String>,
}

impl Check {
    pub fn ok(&self) -> bool {
        self.mismatches == 0
    }
}

/// One library's measurement of a case in one variant.
pub struct LibResult {
    pub lib: &'static str,
    /// The algorithm, or "" for a library's only way.
    pub alg: &'static str,
    /// Reported only: never the library's time in the speedup.
    pub extra: bool,
    pub time: Option<Timing>,
    pub preprocess_ms: Option<f64>,
    pub check: Option<Check>,
    pub error: Option<String>,
    /// The error is a NOT_SUPPORTED status: reported, but not a failure of the run.
    pub unsupported: bool,
}

impl LibResult {
    pub fn new(lib: &'static str, v: Variant) -> LibResult {
        LibResult { lib, alg: v.label, extra: v.extra, time: None, preprocess_ms: None, check: None, error: None, unsupported: false }
    }

    pub fn failed(&self) -> bool {
        (self.error.is_some() && !self.unsupported) || self.check.as_ref().is_some_and(|c| !c.ok())
    }

    pub fn status(&self) -> &'static str {
        match (&self.error, &self.check) {
            (Some(_), _) if self.unsupported => "unsupported",
            (Some(_), _) => "ERROR",
            (None, Some(c)) if !c.ok() => "MISMATCH",
            (None, Some(_)) => "ok",
            (None, None) => "-",
        }
    }

    /// "cuSPARSE CSR_ALG2", or the library alone.
    pub fn label(&self) -> String {
        if self.alg.is_empty() {
            self.lib.to_string()
        } else {
            format!("{} {}", self.lib, self.alg)
        }
    }

    pub fn median(&self) -> Option<f64> {
        self.time.map(|t| t.median_ms)
    }

    /// The problem, for the lines under the table and stderr (NOT_SUPPORTED is none).
    pub fn problem(&self) -> Option<String> {
        if !self.failed() {
            return None;
        }
        if let Some(e) = &self.error {
            return Some(format!("{}: {e}", self.label()));
        }
        let c = self.check.as_ref()?;
        Some(format!(
            "{}: MISMATCH: {} of {} values differ from the float64 reference; first {}",
            self.label(),
            c.mismatches,
            c.compared,
            c.first.as_deref().unwrap_or("?")
        ))
    }
}

pub struct Row {
    pub op: &'static str,
    pub variant: String,
    pub input: String,
    pub group: String,
    pub set: String,
    pub summary_groups: Vec<String>,
    pub chart_series: Option<&'static str>,
    pub rows: u64,
    pub cols: u64,
    pub nnz: u64,
    pub traffic_bytes: u64,
    pub flops: u64,
    pub copies: usize,
    /// oxsparse's variants first, then cuSPARSE's when it is loaded.
    pub libs: Vec<LibResult>,
    /// A failure before any library ran (allocating the operands).
    pub error: Option<String>,
}

impl Row {
    pub fn new(i: &Info) -> Row {
        Row {
            op: i.op,
            variant: i.variant.clone(),
            input: i.input.clone(),
            group: i.group.clone(),
            set: i.set.to_string(),
            summary_groups: i.summary_groups.clone(),
            chart_series: i.chart_series,
            rows: i.rows,
            cols: i.cols,
            nnz: i.nnz,
            traffic_bytes: i.traffic_bytes,
            flops: i.flops,
            copies: 0,
            libs: Vec::new(),
            error: None,
        }
    }

    /// The library's variant that stands for it: the fastest of those not `extra`, else (none
    /// timed) the first of them, for its status.
    pub fn primary(&self, lib: &str) -> Option<&LibResult> {
        let main = || self.libs.iter().filter(|l| l.lib == lib && !l.extra);
        let fastest = main().filter_map(|l| Some((l.median()?, l))).min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, l)| l);
        fastest.or_else(|| main().next())
    }

    /// The library's first `extra` variant (oxsparse without preprocess).
    pub fn extra(&self, lib: &str) -> Option<&LibResult> {
        self.libs.iter().find(|l| l.lib == lib && l.extra && self.yardstick_label(l).is_none())
    }

    /// The yardstick `l` is, if any.
    fn yardstick_label(&self, l: &LibResult) -> Option<&'static str> {
        YARDSTICKS.iter().find(|(label, _)| l.alg == *label).map(|(label, _)| *label)
    }

    /// The yardstick labelled `label`'s time over oxsparse's: above 1 means oxsparse is faster.
    pub fn yardstick_ratio(&self, label: &str) -> Option<f64> {
        let y = self.libs.iter().find(|l| l.alg == label)?.median()?;
        Some(y / self.median("oxsparse")?)
    }

    /// Whether the row measured the yardstick labelled `label` (timed or not).
    pub fn has_yardstick(&self, label: &str) -> bool {
        self.libs.iter().any(|l| l.alg == label)
    }

    /// The library's variant without preprocess: its `extra` one (SpMM), or the one labelled
    /// [`NO_PREPROCESS`] (SpMV, where it also competes for the library's time).
    pub fn no_preprocess(&self, lib: &str) -> Option<&LibResult> {
        self.extra(lib).or_else(|| self.libs.iter().find(|l| l.lib == lib && l.alg == NO_PREPROCESS))
    }

    /// The library's preprocessed variant where it also has a [`NO_PREPROCESS`] one: the first
    /// of its other main variants.
    pub fn preprocessed(&self, lib: &str) -> Option<&LibResult> {
        self.no_preprocess(lib)?;
        self.libs.iter().find(|l| l.lib == lib && !l.extra && l.alg != NO_PREPROCESS)
    }

    /// The library's preprocess time (ms), from the variant that ran one.
    pub fn preprocess_ms(&self, lib: &str) -> Option<f64> {
        self.libs.iter().filter(|l| l.lib == lib).find_map(|l| l.preprocess_ms)
    }

    /// cuSPARSE's best time over oxsparse's time without preprocess.
    pub fn speedup_no_preprocess(&self) -> Option<f64> {
        Some(self.median("cuSPARSE")? / self.no_preprocess("oxsparse")?.median()?)
    }

    /// GB/s of a time in ms as a percentage of the copy bandwidth.
    pub fn pct_of_copy(&self, ms: Option<f64>, copy: Option<&CopyBandwidth>) -> Option<f64> {
        self.pct_of(ms, copy.map(|c| c.gbps))
    }

    /// GB/s of a time in ms as a percentage of `gbps` (a yardstick: copy or peak bandwidth).
    pub fn pct_of(&self, ms: Option<f64>, gbps: Option<f64>) -> Option<f64> {
        Some(100.0 * self.gbps(ms)? / gbps?)
    }

    pub fn median(&self, lib: &str) -> Option<f64> {
        self.primary(lib)?.median()
    }

    pub fn speedup(&self) -> Option<f64> {
        Some(self.median("cuSPARSE")? / self.median("oxsparse")?)
    }

    /// Whether every main variant of `lib` answered NOT_SUPPORTED.
    pub fn unsupported(&self, lib: &str) -> bool {
        let mut main = self.libs.iter().filter(|l| l.lib == lib && !l.extra).peekable();
        main.peek().is_some() && main.all(|l| l.unsupported)
    }

    pub fn failed(&self) -> bool {
        self.error.is_some() || self.libs.iter().any(LibResult::failed)
    }

    /// The most severe status of a library's variants (of all, for None).
    pub fn status(&self, lib: Option<&str>) -> &'static str {
        if self.error.is_some() {
            return "ERROR";
        }
        worst(self.libs.iter().filter(|l| lib.is_none_or(|n| l.lib == n)).map(LibResult::status))
    }

    /// Every problem of the row, one line each.
    pub fn problems(&self) -> Vec<String> {
        let what = format!("{} {} ({})", self.op, self.input, self.variant);
        let mut v: Vec<String> = self.error.iter().map(|e| format!("{what}: {e}")).collect();
        v.extend(self.libs.iter().filter_map(|l| l.problem()).map(|p| format!("{what}: {p}")));
        v
    }

    /// GFLOP/s when the case counts flops, else GB/s, of a time in ms.
    pub fn rate(&self, ms: Option<f64>) -> Option<f64> {
        let work = if self.flops > 0 { self.flops } else { self.traffic_bytes };
        Some(work as f64 / ms? / 1e6)
    }

    pub fn gbps(&self, ms: Option<f64>) -> Option<f64> {
        Some(self.traffic_bytes as f64 / ms? / 1e6)
    }

    pub fn gflops(&self, ms: Option<f64>) -> Option<f64> {
        (self.flops > 0).then_some(())?;
        Some(self.flops as f64 / ms? / 1e6)
    }
}

/// The whole run.
pub struct Report {
    pub device: String,
    /// "12.6.3 (libcusparse.so.12)", or None when cuSPARSE was not measured.
    pub cusparse: Option<String>,
    /// oxsparse's math mode for the run (`--math-mode`): "default", "tf32" or "fp32_accurate".
    pub math_mode: &'static str,
    /// oxsparse's reorder mode for the run (`--reorder`): "none" or "affinity".
    pub reorder: &'static str,
    pub runs: usize,
    pub warmup: usize,
    /// Measured when SpMV runs; its GB/s are compared with it.
    pub copy_bandwidth: Option<CopyBandwidth>,
    /// The device's peak memory bandwidth in GB/s (the driver's memory clock x bus width), when
    /// known; SDDMM's GB/s are compared with it.
    pub peak_gbps: Option<f64>,
    pub notes: Vec<String>,
    pub rows: Vec<Row>,
}

/// The most severe of the statuses: ERROR, MISMATCH, unsupported, ok, or "-" when none ran.
fn worst<'a>(statuses: impl Iterator<Item = &'a str>) -> &'a str {
    let rank = |s: &str| match s {
        "ERROR" => 4,
        "MISMATCH" => 3,
        "unsupported" => 2,
        "ok" => 1,
        _ => 0,
    };
    statuses.max_by_key(|s| rank(s)).unwrap_or("-")
}

#[cfg(test)]
pub mod tests;
