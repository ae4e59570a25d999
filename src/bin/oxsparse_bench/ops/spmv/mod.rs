//! SpMV: Y = alpha A X + beta Y with A in CSR (32-bit indices, base 0, opA = N), dense X and Y,
//! on every matrix, in FP32 and FP64 (value type = compute type). X is random in [-1, 1); alpha
//! and beta are `--spmv-alpha` (default 0.7, so that a missing or misapplied alpha shows) and
//! `--spmv-beta` (default 0; otherwise Y starts from random values, the same for both libraries).
//!
//! oxsparse runs its default algorithm twice: on fresh descriptors and buffer that never saw a
//! preprocess ([`NO_PREPROCESS`], measured first) and after `oxsparseSpMV_preprocess` (its time,
//! the median of several, is reported apart); the better of the two is oxsparse's time, and the
//! report keeps the speedup without preprocess too. cuSPARSE runs ALG_DEFAULT, CSR_ALG1 and
//! CSR_ALG2, each also after `cusparseSpMV_preprocess` where this cuSPARSE has it, and the
//! speedup is against its best. Every variant's Y is checked against the float64 reference.
//!
//! Every copy of the rotation has its own A, X and Y (and, for a preprocessed variant, its own
//! workspace holding the plan of that copy's A), as in SpMM.

pub mod bandwidth;
mod data;

use super::prepare::{self, DeviceCsr, Preprocess};
use super::{MatrixOp, OpConfig};
use crate::api::{Descr, Lib, SpmvArgs, NON_TRANSPOSE, SPMV_CSR_ALG1, SPMV_CSR_ALG2, SPMV_DEFAULT};
use crate::case::{Case, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::Matrix;
use crate::report::{Check, NO_PREPROCESS};
use crate::Result;
use data::{Precision, Reference, Values};
use std::ffi::c_void;
use std::sync::OnceLock;

pub const SPMV: &str = "SpMV";
pub const OP: MatrixOp = MatrixOp { name: SPMV, skip, cases };

/// alpha and beta of every SpMV case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scalars {
    pub alpha: f64,
    pub beta: f64,
}

pub const DEFAULT_SCALARS: Scalars = Scalars { alpha: 0.7, beta: 0.0 };

/// Set once by main from the command line. SpMV's own settings live here rather than in
/// `OpConfig`, which every operation's tests build.
static SCALARS: OnceLock<Scalars> = OnceLock::new();

pub fn set_scalars(s: Scalars) {
    SCALARS.set(s).expect("the SpMV scalars are set once");
}

fn scalars() -> Scalars {
    SCALARS.get().copied().unwrap_or(DEFAULT_SCALARS)
}

const X_SEED: u64 = 0x5EED_0F0A;
const Y_SEED: u64 = 0x5EED_0F0B;
/// Written over Y before a checked call with beta = 0: finite (a library may compute beta * Y
/// even then, and 0 * NaN would be NaN) but far from any result, as in SpMM.
const POISON_BYTE: u8 = 0x7B;
/// A variant's code is its algorithm, plus this bit when a preprocess comes before its calls.
const PREPROCESS: i32 = 1 << 16;
/// The fewest preprocess calls timed for the median (more when there are more copies).
const PREPROCESS_SAMPLES: usize = 5;

/// Every matrix fits: SpMV's dense operands are two vectors.
fn skip(_rows: u64, _cols: u64, _max_nnz: u64, _cfg: &OpConfig) -> Option<String> {
    None
}

fn cases<'m>(m: &'m Matrix, _cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    [Precision::F32, Precision::F64].into_iter().map(|p| Box::new(SpmvCase::new(m, p, scalars())) as Box<dyn Case>).collect()
}

struct SpmvCase<'m> {
    m: &'m Matrix,
    p: Precision,
    s: Scalars,
    /// alpha and beta as the libraries receive them (host pointers to these), per precision.
    host32: [f32; 2],
    host64: [f64; 2],
    /// Y's values before the call when beta is not zero.
    y0: Option<Values<'static>>,
    copies: Vec<Operands>,
    reference: Option<Reference>,
}

struct Operands {
    a: DeviceCsr,
    x: DevBuf,
    y: DevBuf,
}

/// One copy's descriptors.
struct Descrs<'a> {
    a: Descr<'a>,
    x: Descr<'a>,
    y: Descr<'a>,
}

impl<'m> SpmvCase<'m> {
    fn new(m: &'m Matrix, p: Precision, s: Scalars) -> SpmvCase<'m> {
        let host32 = [s.alpha as f32, s.beta as f32];
        SpmvCase { m, p, s, host32, host64: [s.alpha, s.beta], y0: None, copies: Vec::new(), reference: None }
    }

    fn args<'d, 'a>(&self, d: &'d Descrs<'a>, alg: i32) -> SpmvArgs<'d, 'a> {
        let (alpha, beta): (*const c_void, *const c_void) = match self.p {
            Precision::F32 => (&self.host32[0] as *const f32 as _, &self.host32[1] as *const f32 as _),
            Precision::F64 => (&self.host64[0] as *const f64 as _, &self.host64[1] as *const f64 as _),
        };
        SpmvArgs { op_a: NON_TRANSPOSE, alpha, a: &d.a, x: &d.x, beta, y: &d.y, compute: self.p.value_type(), alg }
    }

    fn descrs<'a>(&self, lib: Lib<'a>, o: &Operands) -> Result<Descrs<'a>> {
        let a = &self.m.csr;
        let vt = self.p.value_type();
        Ok(Descrs {
            a: o.a.descr(lib, a, vt)?,
            x: lib.create_dn_vec(a.cols as i64, o.x.ptr, vt)?,
            y: lib.create_dn_vec(a.rows as i64, o.y.ptr, vt)?,
        })
    }
}

/// (algorithm, whether a preprocess comes first) of a variant's code.
fn decode(code: i32) -> (i32, bool) {
    (code & !PREPROCESS, code & PREPROCESS != 0)
}

impl Case for SpmvCase<'_> {
    fn info(&self) -> Info {
        let a = &self.m.csr;
        let (m, n, nnz, vs) = (a.rows as u64, a.cols as u64, a.nnz() as u64, self.p.bytes());
        // The issue's byte count: A's values, X and Y once each, the column indices and the row
        // offsets (32-bit). It is also what one copy of the operands takes on the device.
        let bytes = (nnz + m + n) * vs + nnz * 4 + (m + 1) * 4;
        Info {
            op: SPMV,
            variant: format!("csr {}, alpha {}, beta {}", self.p.name(), self.s.alpha, self.s.beta),
            input: self.m.name.clone(),
            group: self.m.group.clone(),
            rows: m,
            cols: n,
            nnz,
            traffic_bytes: bytes,
            copy_bytes: bytes,
            flops: 2 * nnz,
            set: self.m.set,
            summary_groups: vec![self.p.name().to_string()],
            chart_series: Some(self.p.name()),
        }
    }

    fn variants(&self, lib: Lib) -> Vec<Variant> {
        let v = |label, code| Variant { label, code, extra: false };
        match lib {
            // Without preprocess first: its buffer can then never hold a plan left by the other.
            Lib::Ox(_) => vec![v(NO_PREPROCESS, SPMV_DEFAULT), v("DEFAULT", SPMV_DEFAULT | PREPROCESS)],
            Lib::Cu(c) => {
                let mut all = vec![v("DEFAULT", SPMV_DEFAULT), v("CSR_ALG1", SPMV_CSR_ALG1), v("CSR_ALG2", SPMV_CSR_ALG2)];
                // cusparseSpMV_preprocess came with cuSPARSE 12.4; older ones run without it.
                if c.api.cusparseSpMV_preprocess().is_ok() {
                    all.extend([
                        v("DEFAULT+prep", SPMV_DEFAULT | PREPROCESS),
                        v("CSR_ALG1+prep", SPMV_CSR_ALG1 | PREPROCESS),
                        v("CSR_ALG2+prep", SPMV_CSR_ALG2 | PREPROCESS),
                    ]);
                }
                all
            }
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let a = &self.m.csr;
        let p = self.p;
        let values = data::matrix_values(a, p);
        let x = data::random_vector(a.cols, p, X_SEED);
        self.y0 = (self.s.beta != 0.0).then(|| data::random_vector(a.rows, p, Y_SEED));
        self.reference = Some(data::reference(a, &values, &x, self.y0.as_ref(), p.round(self.s.alpha), p.round(self.s.beta)));
        for _ in 0..copies {
            let y = DevBuf::new(a.rows * p.bytes() as usize)?;
            if let Some(y0) = &self.y0 {
                y0.write_to(&y)?;
            }
            self.copies.push(Operands { a: DeviceCsr::upload(a, values.upload()?)?, x: x.upload()?, y });
        }
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, v: Variant) -> Result<Prepared<'s>> {
        let (alg, preprocess) = decode(v.code);
        let sets = self.copies.iter().map(|o| self.descrs(lib, o)).collect::<Result<Vec<_>>>()?;
        let run = |d: &Descrs<'s>, buffer: u64| lib.spmv_preprocess(&self.args(d, alg), buffer);
        prepare::with_workspaces(
            sets,
            |d| lib.spmv_buffer_size(&self.args(d, alg)),
            preprocess.then_some(Preprocess { run: &run, min_samples: PREPROCESS_SAMPLES }),
            move |d, buffer| lib.spmv(&self.args(d, alg), buffer),
        )
    }

    /// beta = 0: Y is poisoned; otherwise Y gets its starting values back (the reference's).
    fn poison(&self) -> Result<()> {
        let y = &self.copies[0].y;
        match &self.y0 {
            Some(y0) => y0.write_to(y),
            None => y.fill(POISON_BYTE),
        }
    }

    fn check(&self, _lib: Lib) -> Result<Check> {
        let (r, y, m) = (self.reference.as_ref().expect("alloc computes the reference"), &self.copies[0].y, self.m.csr.rows);
        Ok(match self.p {
            Precision::F32 => data::compare(r, &y.download::<f32>(m)?, self.p),
            Precision::F64 => data::compare(r, &y.download::<f64>(m)?, self.p),
        })
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
    fn two_precisions_with_the_issues_byte_count() {
        let m = matrix();
        let cs = cases(&m, &OpConfig::with_cap(8 << 30));
        assert_eq!(cs.len(), 2);
        let (f32i, f64i) = (cs[0].info(), cs[1].info());
        assert_eq!((f32i.op, f32i.flops, f32i.chart_series), ("SpMV", 2 * 1000, Some("FP32")));
        assert_eq!(f32i.variant, "csr FP32, alpha 0.7, beta 0");
        // (nnz + m + n) * value + nnz * index + (m + 1) * offset.
        assert_eq!(f32i.traffic_bytes, (1000 + 1000 + 500) * 4 + 1000 * 4 + 1001 * 4);
        assert_eq!(f64i.traffic_bytes, (1000 + 1000 + 500) * 8 + 1000 * 4 + 1001 * 4);
        assert_eq!(f64i.summary_groups, vec!["FP64"]);
        assert!(cs.iter().all(|c| c.skip().is_none()));
    }

    #[test]
    fn oxsparse_runs_without_then_with_preprocess() {
        let m = matrix();
        let c = SpmvCase::new(&m, Precision::F32, Scalars { alpha: 2.5, beta: -1.0 });
        let v = c.variants(Lib::Ox(std::ptr::null_mut()));
        assert_eq!(
            v.iter().map(|v| (v.label, decode(v.code), v.extra)).collect::<Vec<_>>(),
            vec![(NO_PREPROCESS, (SPMV_DEFAULT, false), false), ("DEFAULT", (SPMV_DEFAULT, true), false)]
        );
        assert_eq!(decode(SPMV_CSR_ALG2 | PREPROCESS), (SPMV_CSR_ALG2, true));
        assert_eq!(c.info().variant, "csr FP32, alpha 2.5, beta -1");
        assert_eq!((c.host32, c.host64), ([2.5, -1.0], [2.5, -1.0]));
    }
}
