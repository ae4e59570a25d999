//! The sparse-vector routines on generated vectors: Gather (X = Y[indices]) and SpVV (the dot
//! product of a sparse X with a dense Y), FP32 values, 32-bit indices, base 0. Dense sizes 2^20 and
//! 2^24 (2^20 only with `--quick`), X storing 1% or 10% of them at random distinct indices, sorted.
//!
//! SpVV runs in device pointer mode (the result stays on the GPU, so a call does not wait for it),
//! and its operands are small integers (+-1, +-2): every partial sum is an integer below 2^24,
//! exact in FP32 in any summation order, so the check is exact.

use super::VectorOp;
use crate::api::{Lib, PointerModeGuard, BASE_ZERO, INDEX_32I, NON_TRANSPOSE, POINTER_DEVICE, R_32F};
use crate::case::{Call, Case, Checker, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::Rng;
use crate::report::Check;
use crate::Result;

pub const GATHER: VectorOp = VectorOp { name: "Gather", cases: |quick| cases(Kind::Gather, quick) };
pub const SPVV: VectorOp = VectorOp { name: "SpVV", cases: |quick| cases(Kind::SpVV, quick) };

const SIZES: [usize; 2] = [1 << 20, 1 << 24];
const PERCENT_STORED: [usize; 2] = [1, 10];

fn cases(kind: Kind, quick: bool) -> Vec<Box<dyn Case>> {
    let sizes = if quick { &SIZES[..1] } else { &SIZES[..] };
    let mut v: Vec<Box<dyn Case>> = Vec::new();
    for &n in sizes {
        for &pct in &PERCENT_STORED {
            v.push(Box::new(VectorCase { kind, n, nnz: n * pct / 100, pct, host: None, copies: Vec::new() }));
        }
    }
    v
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gather,
    SpVV,
}

struct VectorCase {
    kind: Kind,
    n: usize,
    nnz: usize,
    pct: usize,
    host: Option<Host>,
    copies: Vec<Operands>,
}

/// The inputs, kept on the host for the check.
struct Host {
    indices: Vec<i32>,
    /// X's values (SpVV's input; Gather's output starts poisoned).
    x: Vec<f32>,
    y: Vec<f32>,
}

struct Operands {
    indices: DevBuf,
    x: DevBuf,
    y: DevBuf,
    /// SpVV's result (one f32).
    result: DevBuf,
}

impl VectorCase {
    fn make_host(&self) -> Host {
        let mut rng = Rng::new(0x5EC7 ^ ((self.n as u64) << 8) ^ self.nnz as u64);
        let indices: Vec<i32> = rng.distinct_sorted(self.n as u64, self.nnz as u64).into_iter().map(|i| i as i32).collect();
        match self.kind {
            Kind::Gather => Host { indices, x: Vec::new(), y: (0..self.n).map(|_| rng.value()).collect() },
            Kind::SpVV => {
                let mut small = || [-2.0f32, -1.0, 1.0, 2.0][rng.below(4) as usize];
                let x = (0..self.nnz).map(|_| small()).collect();
                let y = (0..self.n).map(|_| small()).collect();
                Host { indices, x, y }
            }
        }
    }

    fn host(&self) -> &Host {
        self.host.as_ref().expect("alloc runs before check")
    }
}

impl Case for VectorCase {
    fn info(&self) -> Info {
        let (op, variant) = match self.kind {
            Kind::Gather => ("Gather", "f32 i32, sorted indices"),
            Kind::SpVV => ("SpVV", "f32 i32 sorted, result on device"),
        };
        let nnz = self.nnz as u64;
        Info {
            op,
            variant: variant.into(),
            input: format!("n=2^{} nnz={}%", self.n.trailing_zeros(), self.pct),
            group: "vector".into(),
            rows: self.n as u64,
            cols: 1,
            nnz,
            // indices + X's values + the Y entries they index (+ SpVV's result).
            traffic_bytes: 12 * nnz + if self.kind == Kind::SpVV { 4 } else { 0 },
            copy_bytes: 8 * nnz + 4 * self.n as u64 + 4,
            set: "vector",
            ..Info::default()
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let h = self.make_host();
        for _ in 0..copies {
            let x = if self.kind == Kind::SpVV { DevBuf::upload(&h.x)? } else { DevBuf::new(4 * self.nnz)? };
            self.copies.push(Operands { indices: DevBuf::upload(&h.indices)?, x, y: DevBuf::upload(&h.y)?, result: DevBuf::new(4)? });
        }
        self.host = Some(h);
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, _variant: Variant) -> Result<Prepared<'s>> {
        let (n, nnz) = (self.n as i64, self.nnz as i64);
        let mut keep: Vec<Box<dyn crate::case::Keep>> = Vec::new();
        if self.kind == Kind::SpVV {
            keep.push(Box::new(PointerModeGuard::set(lib, POINTER_DEVICE)?));
        }
        let mut descrs = Vec::new();
        let mut work_bytes = 0;
        for o in &self.copies {
            let x = lib.create_sp_vec(n, nnz, o.indices.ptr, o.x.ptr, INDEX_32I, BASE_ZERO, R_32F)?;
            let y = lib.create_dn_vec(n, o.y.ptr, R_32F)?;
            if self.kind == Kind::SpVV {
                work_bytes = work_bytes.max(lib.spvv_buffer_size(NON_TRANSPOSE, &x, &y, o.result.ptr, R_32F)?);
            }
            descrs.push((x, y, o.result.ptr));
        }
        let work = if work_bytes > 0 { Some(DevBuf::new(work_bytes)?) } else { None };
        let wp = work.as_ref().map_or(0, |w| w.ptr);
        keep.push(Box::new(work));
        let kind = self.kind;
        let calls = descrs
            .into_iter()
            .map(|(x, y, result)| {
                Box::new(move || match kind {
                    Kind::Gather => lib.gather(&y, &x),
                    Kind::SpVV => lib.spvv(NON_TRANSPOSE, &x, &y, result, R_32F, wp),
                }) as Call
            })
            .collect();
        Ok(Prepared { calls, resets: Vec::new(), keep, preprocess_ms: None })
    }

    fn poison(&self) -> Result<()> {
        match self.kind {
            Kind::Gather => self.copies[0].x.fill(0xFF),
            Kind::SpVV => self.copies[0].result.fill(0xFF),
        }
    }

    fn check(&self, _lib: Lib) -> Result<Check> {
        let h = self.host();
        let mut c = Checker::new();
        match self.kind {
            Kind::Gather => {
                let got: Vec<f32> = self.copies[0].x.download(self.nnz)?;
                for (k, &i) in h.indices.iter().enumerate() {
                    c.value(got[k], h.y[i as usize] as f64, 0.0, || format!("X[{k}] (index {i})"));
                }
            }
            Kind::SpVV => {
                let got: Vec<f32> = self.copies[0].result.download(1)?;
                let (want, tol) = spvv_reference(h);
                c.value(got[0], want, tol, || "result".into());
            }
        }
        Ok(c.finish(None))
    }
}

/// SpVV's float64 result and its tolerance: 0 while the sum of |terms| (a bound on every partial
/// sum) stays below 2^24, so that FP32 sums of these integers are exact; else FP32's error bound.
fn spvv_reference(h: &Host) -> (f64, f64) {
    let terms = h.indices.iter().zip(&h.x).map(|(&i, &x)| x as f64 * h.y[i as usize] as f64);
    let (sum, abs_sum) = terms.fold((0.0, 0.0), |(s, a), t: f64| (s + t, a + t.abs()));
    let tol = if abs_sum < (1u64 << 24) as f64 { 0.0 } else { abs_sum * h.indices.len() as f64 * f32::EPSILON as f64 };
    (sum, tol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_and_density_is_a_case() {
        let full = cases(Kind::Gather, false);
        assert_eq!(full.len(), 4);
        let i = full[3].info();
        assert_eq!((i.op, i.rows, i.nnz), ("Gather", 1 << 24, (1 << 24) / 10));
        assert_eq!(i.traffic_bytes, 12 * i.nnz);
        assert_eq!(i.input, "n=2^24 nnz=10%");
        assert_eq!(cases(Kind::SpVV, true).len(), 2);
    }

    #[test]
    fn spvv_operands_keep_the_reference_exact() {
        let c = VectorCase { kind: Kind::SpVV, n: 1 << 24, nnz: (1 << 24) / 10, pct: 10, host: None, copies: Vec::new() };
        let h = c.make_host();
        assert!(h.x.iter().chain(&h.y).all(|v| [-2.0, -1.0, 1.0, 2.0].contains(v)));
        assert!(h.indices.windows(2).all(|w| w[0] < w[1]));
        let (want, tol) = spvv_reference(&h);
        assert_eq!(tol, 0.0, "the largest case must still be checked exactly");
        assert_eq!(want.fract(), 0.0);
    }
}
