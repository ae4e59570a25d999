//! What an operation provides to the harness ([`Case`]), and the harness itself ([`measure`]):
//! for each library, prepare its calls, poison the outputs, run one call and check it against the
//! float64 CPU reference, then time it.

use crate::api::Lib;
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
    /// Dropped after the calls (fields drop in order); held only for that.
    #[allow(dead_code)]
    pub keep: Vec<Box<dyn Keep + 'a>>,
}

/// What a case is, for the report.
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
}

/// One operation in one configuration on one input.
pub trait Case {
    fn info(&self) -> Info;
    /// Allocates `copies` copies of the operands on the GPU and uploads the inputs.
    fn alloc(&mut self, copies: usize) -> Result<()>;
    /// Creates `lib`'s descriptors (and workspace) and returns one call per copy.
    fn prepare<'s>(&'s self, lib: Lib<'s>) -> Result<Prepared<'s>>;
    /// Poisons copy 0's outputs (0xFF bytes), so that an output a call never writes is caught.
    fn poison(&self) -> Result<()>;
    /// Compares copy 0's outputs with the float64 reference.
    fn check(&self) -> Result<Check>;
}

pub struct Settings {
    pub warmup: usize,
    pub runs: usize,
}

/// Measures a case with every library, oxsparse first. Errors are recorded in the row.
pub fn measure(case: &mut dyn Case, libs: &[Lib], gpu: &Gpu, s: &Settings) -> Row {
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
    for &lib in libs {
        row.libs.push(measure_lib(case, lib, copies, s));
    }
    row
}

fn measure_lib(case: &dyn Case, lib: Lib, copies: usize, s: &Settings) -> LibResult {
    let mut out = LibResult { lib: lib.name(), time: None, check: None, error: None };
    let mut prepared = match case.prepare(lib) {
        Ok(p) => p,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    assert_eq!(prepared.calls.len(), copies, "a case must prepare one call per copy");
    let checked = (|| {
        case.poison()?;
        (prepared.calls[0])()?;
        sync(&format!("{}'s first call", lib.name()))?;
        case.check()
    })();
    match checked {
        Ok(c) => out.check = Some(c),
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    }
    match timing::measure(s.warmup, s.runs, copies, |c| (prepared.calls[c])()) {
        Ok(t) => out.time = Some(t),
        Err(e) => out.error = Some(e),
    }
    out
}

/// Accumulates element comparisons into a [`Check`].
pub struct Checker {
    compared: u64,
    mismatches: u64,
    max_abs_err: f64,
    first: Option<String>,
}

impl Checker {
    pub fn new() -> Checker {
        Checker { compared: 0, mismatches: 0, max_abs_err: 0.0, first: None }
    }

    /// Compares one value; `at` names its position for the report of the first mismatch.
    /// A NaN (a poisoned output never written) always mismatches.
    pub fn value(&mut self, got: f32, want: f64, tol: f64, at: impl FnOnce() -> String) {
        self.compared += 1;
        let err = (got as f64 - want).abs();
        let err = if err.is_nan() { f64::INFINITY } else { err };
        self.max_abs_err = self.max_abs_err.max(err);
        if err <= tol {
            return;
        }
        self.mismatches += 1;
        if self.first.is_none() {
            self.first = Some(format!("{}: got {got:e}, want {want:e} (tolerance {tol:e})", at()));
        }
    }

    pub fn finish(self) -> Check {
        Check { compared: self.compared, mismatches: self.mismatches, max_abs_err: self.max_abs_err, first: self.first }
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
        let r = c.finish();
        assert_eq!((r.compared, r.mismatches), (4, 2));
        assert!(r.first.as_deref().unwrap().starts_with("b: got"));
        assert_eq!(r.max_abs_err, f64::INFINITY);
        assert!(!r.ok());
        assert!(Checker::new().finish().ok());
    }
}
