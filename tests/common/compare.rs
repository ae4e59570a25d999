//! Results against the float64 CPU references: a per-component tolerance relative to each
//! element's error scale, a tally of the wrong elements, and determinism (repeated runs bitwise
//! equal).

use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, DataType::*};

/// |got - want| <= rel * scale + out_u * |want| + out_min per component: the accumulation error of
/// the compute type relative to the element's error scale (sum of the magnitudes of its terms),
/// plus half an ulp of a 16-bit output type.
pub struct Tolerance {
    pub rel: f64,
    pub out_u: f64,
    pub out_min: f64,
}

impl Tolerance {
    /// `rel` of the scale, and the rounding of an output of type `out`: half an ulp relative to the
    /// value and half the smallest subnormal spacing near zero (nothing for wider types).
    pub fn new(rel: f64, out: DataType) -> Tolerance {
        let (out_u, out_min) = match out {
            CUDA_R_16F | CUDA_C_16F => (2f64.powi(-11), 2f64.powi(-25)),
            CUDA_R_16BF | CUDA_C_16BF => (2f64.powi(-8), 2f64.powi(-134)),
            _ => (0.0, 0.0),
        };
        Tolerance { rel, out_u, out_min }
    }

    /// NaN (an element never written, or poison read) is never accepted.
    pub fn accepts(&self, got: Value, want: Value, scale: f64) -> bool {
        let ok = |g: f64, w: f64| (g - w).abs() <= self.rel * scale + self.out_u * w.abs() + self.out_min;
        ok(got.0, want.0) && ok(got.1, want.1)
    }
}

/// Elements compared so far: how many were wrong, and the first of them described.
#[derive(Default)]
pub struct Tally {
    pub seen: usize,
    pub bad: usize,
    pub first: String,
}

impl Tally {
    /// Counts `got` wrong unless `tol` accepts it; `name` (called for the first wrong one only)
    /// says which element it is.
    pub fn check(&mut self, tol: &Tolerance, got: Value, want: Value, scale: f64, name: impl FnOnce() -> String) {
        self.seen += 1;
        if !tol.accepts(got, want, scale) {
            if self.bad == 0 {
                self.first = format!("{} = {got:?}, want {want:?} (scale {scale:e})", name());
            }
            self.bad += 1;
        }
    }

    pub fn result(&self) -> Result<(), String> {
        if self.bad > 0 {
            Err(format!("{} of {} wrong; first: {}", self.bad, self.seen, self.first))
        } else {
            Ok(())
        }
    }
}

/// Determinism of one problem: `run(preprocess)` gives the output's bytes after a call, plain or
/// preprocessed as `order` lists them. The first run of each kind must pass `check`; every later
/// one must be bitwise the first of its kind.
pub fn bitwise_runs(
    order: &[bool],
    mut run: impl FnMut(bool) -> Result<Vec<u8>, String>,
    check: impl Fn(&[u8]) -> Result<(), String>,
) -> Result<(), String> {
    let mut first: [Option<Vec<u8>>; 2] = [None, None];
    for (n, &pre) in order.iter().enumerate() {
        let got = run(pre)?;
        let kind = if pre { "preprocessed" } else { "plain" };
        match &first[pre as usize] {
            None => {
                check(&got).map_err(|e| format!("{kind}: {e}"))?;
                first[pre as usize] = Some(got);
            }
            Some(f) if *f != got => return Err(format!("run {} ({kind}) differs bitwise from the first {kind} run", n + 1)),
            Some(_) => {}
        }
    }
    Ok(())
}
