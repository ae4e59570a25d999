//! What an operation provides to the harness ([`Case`]), and the harness itself ([`measure`]):
//! for each library and each of its variants (algorithms), prepare its calls, poison the outputs,
//! run one call and check it against the float64 CPU reference, then time it.

use crate::api::{self, Lib};
use crate::device::{sync, Gpu};
use crate::report::{Check, LibResult, Row};
use crate::timing::{self, copies_for};
use crate::Result;

/// One call of a library on one copy of the operands, with the descriptors it owns.
pub type Call<'a> = Box<dyn FnMut() -> Result<()> + 'a>;

/// Anything kept alive while a library's calls run (workspaces, pointer-mode guards).
pub trait Keep {}
impl<T> Keep for T {}

/// A library's calls over every copy of the operands; `calls[c]` uses copy `c`.
pub struct Prepared<'a> {
    pub calls: Vec<Call<'a>>,
    /// For operations that overwrite their input (the in-place sorts): `resets[c]` gives copy `c`
    /// its input back, enqueued before every call outside the timed region; empty for the others.
    pub resets: Vec<Call<'a>>,
    /// Dropped after the calls (fields drop in order); held only for that.
    #[allow(dead_code)]
    pub keep: Vec<Box<dyn Keep + 'a>>,
    /// The one-off preparation timed apart from the calls (SpMM's preprocess), median over the
    /// copies, in ms; None when there is none.
    pub preprocess_ms: Option<f64>,
}

/// One way a library runs a case: an algorithm, or the only way (`ONLY`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variant {
    /// e.g. "CSR_ALG2"; "" when the library runs the case one way only.
    pub label: &'static str,
    /// The operation's own number for it (SpMM: the algorithm enum).
    pub code: i32,
    /// Reported but never the library's time in the speedup (oxsparse without preprocess).
    pub extra: bool,
}

pub const ONLY: Variant = Variant { label: "", code: 0, extra: false };

/// What a case is, for the report.
#[derive(Default)]
pub struct Info {
    /// The API routine, e.g. "SparseToDense"; `--ops` selects by it.
    pub op: &'static str,
    /// The configuration, e.g. "csr f32 i32 -> dense row-major".
    pub variant: String,
    /// The input: a matrix name or a vector description.
    pub input: String,
    pub group: String,
    pub rows: u64,
    pub cols: u64,
    pub nnz: u64,
    /// Bytes one call must read and write at least: the numerator of GB/s.
    pub traffic_bytes: u64,
    /// Device bytes of one copy of the operands.
    pub copy_bytes: u64,
    /// Floating-point operations of one call (the numerator of GFLOP/s), 0 when not counted.
    pub flops: u64,
    /// The matrix set the summaries keep apart ("Matrix Market", "R-MAT", "generated", "vector").
    pub set: &'static str,
    /// The summary groups the case counts in, e.g. ["FP32 row-major, N=32/128/256", "FP32
    /// row-major N=32"]; none: the operation's one summary.
    pub summary_groups: Vec<String>,
    /// The series of the SVG chart the case is a bar of ("N=32"), if any.
    pub chart_series: Option<&'static str>,
}

/// One operation in one configuration on one input.
pub trait Case {
    fn info(&self) -> Info;
    /// Why the case is not measured at all (too large), before anything is allocated.
    fn skip(&self) -> Option<String> {
        None
    }
    /// The variants measured with `lib`, each checked and timed on its own.
    fn variants(&self, _lib: Lib) -> Vec<Variant> {
        vec![ONLY]
    }
    /// Allocates `copies` copies of the operands on the GPU and uploads the inputs.
    fn alloc(&mut self, copies: usize) -> Result<()>;
    /// Creates `lib`'s descriptors (and workspace) for `variant` and returns one call per copy.
    fn prepare<'s>(&'s self, lib: Lib<'s>, variant: Variant) -> Result<Prepared<'s>>;
    /// Poisons copy 0's outputs (0xFF bytes, NaN, unless the case says why another pattern), so
    /// that an output a call never writes is caught.
    fn poison(&self) -> Result<()>;
    /// Compares copy 0's outputs, written by `lib`, with the float64 reference (the library may
    /// matter: oxsparse's TF32 math mode gets a looser tolerance than cuSPARSE's FP32).
    fn check(&self, lib: Lib) -> Result<Check>;
    /// Whether `error`, from the library named `lib`, is a refusal of the configuration, reported
    /// as "unsupported" like a NOT_SUPPORTED status (which always is) rather than as a failure:
    /// SDDMM's FP16 inputs, which cuSPARSE may refuse with another status.
    fn refused(&self, _lib: &str, _error: &str) -> bool {
        false
    }
}

pub struct Settings {
    pub warmup: usize,
    pub runs: usize,
    /// Times every variant is measured, in turn (see `--passes`).
    pub passes: usize,
}

/// Measures a case with every library, oxsparse first, and every variant of each, `passes` times
/// over (all variants, then all again): each variant's median is taken over the calls of all
/// passes, so that a pause of the machine (seen on the H100: a few ms of host stalls inflating
/// both libraries' times) lands on a share of every variant's sample instead of on one variant's
/// whole sample. Errors are recorded in the row; `status` hears which variant runs.
pub fn measure(case: &mut dyn Case, libs: &[Lib], gpu: &Gpu, s: &Settings, status: &mut dyn FnMut(&str)) -> Row {
    let info = case.info();
    let mut row = Row::new(&info);
    let copies = match gpu.free_bytes() {
        Ok(free) => copies_for(info.copy_bytes, gpu.l2_bytes, free),
        Err(e) => {
            row.error = Some(e);
            return row;
        }
    };
    row.copies = copies;
    if let Err(e) = case.alloc(copies) {
        row.error = Some(e);
        return row;
    }
    let variants: Vec<(Lib, Variant)> = libs.iter().flat_map(|&lib| case.variants(lib).into_iter().map(move |v| (lib, v))).collect();
    let mut results: Vec<LibResult> = variants.iter().map(|&(lib, v)| LibResult::new(lib.name(), v)).collect();
    let mut samples = vec![timing::Samples::default(); variants.len()];
    for _ in 0..s.passes.max(1) {
        for (i, &(lib, v)) in variants.iter().enumerate() {
            if results[i].error.is_some() || results[i].check.as_ref().is_some_and(|c| !c.ok()) {
                continue; // measured no further once refused, broken or wrong
            }
            status(&format!("{} {} {}", info.op, info.variant, [lib.name(), v.label].join(" ").trim_end()));
            measure_lib(case, lib, v, copies, s, &mut results[i], &mut samples[i]);
        }
    }
    for (r, sample) in results.iter_mut().zip(&samples) {
        if r.error.is_none() && !sample.is_empty() {
            r.time = Some(sample.summary());
        }
        r.unsupported = r.error.as_deref().is_some_and(|e| api::is_not_supported(e) || case.refused(r.lib, e));
    }
    row.libs = results;
    row
}

/// One pass of one variant: prepare (its preprocess time is kept from the first pass), check the
/// first call's output, then time `runs` calls into `sample`.
fn measure_lib(case: &dyn Case, lib: Lib, v: Variant, copies: usize, s: &Settings, out: &mut LibResult, sample: &mut timing::Samples) {
    let mut prepared = match case.prepare(lib, v) {
        Ok(p) => p,
        Err(e) => {
            out.error = Some(e);
            return;
        }
    };
    out.preprocess_ms = out.preprocess_ms.or(prepared.preprocess_ms);
    assert_eq!(prepared.calls.len(), copies, "a case must prepare one call per copy");
    let checked = (|| {
        case.poison()?;
        (prepared.calls[0])()?;
        sync(&format!("{}'s first call", lib.name()))?;
        case.check(lib)
    })();
    match checked {
        Ok(c) => out.check = Some(c),
        Err(e) => {
            out.error = Some(e);
            return;
        }
    }
    let Prepared { calls, resets, .. } = &mut prepared;
    let reset = |c: usize| resets.get_mut(c).map_or(Ok(()), |r| r());
    if let Err(e) = timing::measure_into(s.warmup, s.runs, copies, sample, reset, |c| (calls[c])()) {
        out.error = Some(e);
    }
}

/// Accumulates element comparisons into a [`Check`].
pub struct Checker {
    compared: u64,
    mismatches: u64,
    max_abs_err: f64,
    worst_ratio: f64,
    /// Largest error over sum |a b| (`summed`); None when no value was judged that way.
    max_rel_err: Option<f64>,
    first: Option<String>,
}

impl Checker {
    pub fn new() -> Checker {
        Checker { compared: 0, mismatches: 0, max_abs_err: 0.0, worst_ratio: 0.0, max_rel_err: None, first: None }
    }

    /// Compares one value (of any precision); `at` names its position for the report of the
    /// first mismatch. A NaN (a poisoned output never written) always mismatches.
    pub fn value(&mut self, got: impl Into<f64>, want: f64, tol: f64, at: impl FnOnce() -> String) {
        let got = got.into();
        self.compared += 1;
        let err = (got - want).abs();
        let err = if err.is_nan() { f64::INFINITY } else { err };
        self.max_abs_err = self.max_abs_err.max(err);
        let ratio = if tol > 0.0 {
            err / tol
        } else if err == 0.0 {
            0.0
        } else {
            f64::INFINITY
        };
        self.worst_ratio = self.worst_ratio.max(ratio);
        if err <= tol {
            return;
        }
        self.mismatches += 1;
        if self.first.is_none() {
            self.first = Some(format!("{}: got {got:e}, want {want:e} (tolerance {tol:e})", at()));
        }
    }

    /// Compares a sum of products whose terms' magnitudes add up to `bound` (sum |a b|), with the
    /// tolerance `rel * bound + tiny`, and keeps the largest error over `bound`: the error that a
    /// correct summation makes scales with `bound`, so that ratio is what tells one precision or
    /// math mode from another. A bound of 0 with any error (a NaN included) counts as infinite.
    pub fn summed(&mut self, got: impl Into<f64>, want: f64, bound: f64, rel: f64, tiny: f64, at: impl FnOnce() -> String) {
        let got = got.into();
        let err = (got - want).abs();
        let r = if err == 0.0 {
            0.0
        } else if bound > 0.0 && err.is_finite() {
            err / bound
        } else {
            f64::INFINITY
        };
        self.max_rel_err = Some(self.max_rel_err.map_or(r, |m| m.max(r)));
        self.value(got, want, rel * bound + tiny, at);
    }

    /// The check; `scope` says what was compared when not every output was (a sample).
    pub fn finish(self, scope: Option<String>) -> Check {
        Check {
            compared: self.compared,
            mismatches: self.mismatches,
            max_abs_err: self.max_abs_err,
            worst_ratio: self.worst_ratio,
            max_rel_err: self.max_rel_err,
            first: self.first,
            scope,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_counts_mismatches_and_nans() {
        let mut c = Checker::new();
        c.value(1.0, 1.0, 0.0, || "a".into());
        c.value(2.0, 2.5, 0.1, || "b".into());
        c.value(f32::NAN, 0.0, 1e30, || "c".into());
        c.value(3.0, 3.05, 0.1, || "d".into());
        let r = c.finish(None);
        assert_eq!((r.compared, r.mismatches), (4, 2));
        assert!(r.first.as_deref().unwrap().starts_with("b: got"));
        assert_eq!(r.max_abs_err, f64::INFINITY);
        assert!(!r.ok());
        assert!(Checker::new().finish(None).ok());
    }

    #[test]
    fn checker_takes_doubles_and_tracks_the_worst_ratio() {
        let mut c = Checker::new();
        c.value(1.0f64 + 1e-13, 1.0, 1e-12, || "a".into());
        c.value(2.0f64, 2.0, 0.0, || "b".into());
        let r = c.finish(Some("half".into()));
        assert!(r.ok());
        assert!((r.worst_ratio - 0.1).abs() < 1e-3, "{}", r.worst_ratio);
        assert_eq!(r.scope.as_deref(), Some("half"));
        assert_eq!(r.max_rel_err, None, "only `summed` measures it");
    }

    #[test]
    fn summed_values_track_the_error_over_the_magnitudes() {
        let mut c = Checker::new();
        c.summed(1.0f64 + 1e-6, 1.0, 4.0, 1e-5, 0.0, || "a".into());
        c.summed(0.0f64, 0.0, 0.0, 1e-5, 1e-30, || "b".into());
        let r = c.finish(None);
        assert!(r.ok());
        assert!((r.max_rel_err.unwrap() - 2.5e-7).abs() < 1e-12, "{:?}", r.max_rel_err);
        let mut c = Checker::new();
        c.summed(1.0f64 + 1e-3, 1.0, 1.0, 1e-5, 0.0, || "c".into());
        let r = c.finish(None);
        assert_eq!(r.mismatches, 1);
        assert!((r.max_rel_err.unwrap() - 1e-3).abs() < 1e-9);
        let mut c = Checker::new();
        c.summed(f32::NAN, 0.0, 1.0, 1e-5, 0.0, || "d".into());
        assert_eq!(c.finish(None).max_rel_err, Some(f64::INFINITY));
    }
}
