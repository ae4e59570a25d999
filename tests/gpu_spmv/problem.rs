//! A case's host data and expected y (`Problem`), its upload through the exported descriptor
//! functions (`Gpu`), and SpMV runs through the exported C API (`run`, `sweep`).

use super::gen::{self, GUARD};
use super::harness::*;
use super::*;
use crate::common::compare::Tally;
use crate::common::descr::{create_sparse, upload_arrays};
use oxsparse::descr::FormatInfo;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::*;
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::spmv as reference;
use oxsparse::reference::vector_ops::{Value, ZERO};
use std::ffi::c_void;
use std::ptr::null_mut;
/// Host data of one case. `x_bytes` and `y_bytes` are whole device buffers: the vector between
/// two `GUARD`-byte runs of 0xFF (NaN for floats), which a correct kernel neither reads (a NaN
/// would spread into y) nor writes.
pub struct Problem {
    pub case: Case,
    pub alpha: Value,
    pub beta: Value,
    pub a: HostSparse,
    /// The descriptor's nnz (for BSR: stored blocks; for Sliced-ELL: non-padding slots).
    pub nnz: i64,
    pub x: Vec<Value>,
    pub x_bytes: Vec<u8>,
    pub y: Vec<Value>,
    pub y_bytes: Vec<u8>,
}

impl Problem {
    pub fn new(case: &Case) -> Problem {
        let mut rng = Rng::new(case.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5EED);
        let (_, tx, ty, compute) = case.types;
        let (alpha, beta) = (fit(compute, case.alpha), fit(compute, case.beta));
        let (a, nnz) = gen::sparse(&mut rng, case);
        let (x, x_bytes) = gen::vector(&mut rng, tx, case.k, true);
        // beta == 0: y is NaN (0xFF) and must come back finite and right.
        let (y, y_bytes) = gen::vector(&mut rng, ty, case.m, beta != ZERO);
        Problem { case: *case, alpha, beta, a, nnz, x, x_bytes, y, y_bytes }
    }

    /// New values for A (same pattern, same padding), as after the user rewrote them in place.
    pub fn renew_a_values(&mut self, seed: u64) {
        let fresh = gen::random(&mut Rng::new(seed), self.case.types.0, self.a.values.len());
        let padding: Vec<bool> = match self.a.format {
            FormatInfo::SlicedEll { .. } => self.a.indices.iter().map(|&c| c == -1).collect(),
            _ => vec![false; fresh.len()],
        };
        self.a.values = fresh.into_iter().zip(padding).map(|(v, pad)| if pad { ZERO } else { v }).collect();
    }

    /// `got` (Y's whole buffer after the run) against the reference; the guards must keep 0xFF.
    pub fn check(&self, got: &[u8]) -> Result<(), String> {
        let (_, _, ty, compute) = self.case.types;
        let mut want = self.y.clone();
        reference::spmv(self.case.op, self.alpha, &self.a, &self.x, self.beta, &mut want);
        let scale = reference::error_scale(self.case.op, self.alpha, &self.a, &self.x, self.beta, &self.y);
        let w = ty.size_bytes() as usize;
        if got.len() != self.y_bytes.len() {
            return Err(format!("Y has {} bytes, expected {}", got.len(), self.y_bytes.len()));
        }
        let body = &got[GUARD..GUARD + want.len() * w];
        if got[..GUARD].iter().chain(&got[GUARD + body.len()..]).any(|&b| b != 0xFF) {
            return Err("bytes next to Y (before or after it) were written".into());
        }
        let tol = tolerance(ty, compute);
        let mut tally = Tally::default();
        for i in 0..want.len() {
            let g = decode_element(ty, &body[i * w..(i + 1) * w]);
            tally.check(&tol, g, want[i], scale[i], || format!("y[{i}]"));
        }
        tally.result()
    }
}

/// A problem on the device: A's arrays, X and Y (with their guards), and their descriptors.
pub struct Gpu {
    pub a_arrays: [DevBuf; 3],
    pub x_buf: DevBuf,
    pub y_buf: DevBuf,
    pub a: oxsparseSpMatDescr_t,
    pub x: oxsparseDnVecDescr_t,
    pub y: oxsparseDnVecDescr_t,
}

impl Drop for Gpu {
    fn drop(&mut self) {
        unsafe {
            oxsparseDestroySpMat(self.a);
            oxsparseDestroyDnVec(self.x);
            oxsparseDestroyDnVec(self.y);
        }
    }
}

impl Gpu {
    pub fn upload(p: &Problem) -> Result<Gpu, String> {
        let (case, a) = (&p.case, &p.a);
        let a_arrays = upload_arrays(a, case.types.0, case.it);
        let (x_buf, y_buf) = (DevBuf::from_slice(&p.x_bytes), DevBuf::from_slice(&p.y_bytes));
        let mut g = Gpu { a_arrays, x_buf, y_buf, a: null_mut(), x: null_mut(), y: null_mut() };
        let inside = |b: &DevBuf| (b.ptr + GUARD as u64) as *mut c_void;
        unsafe {
            expect(create_sparse(&mut g.a, a, &g.a_arrays, p.nnz, (case.types.0, case.it, case.base)), "creating A")?;
            expect(oxsparseCreateDnVec(&mut g.x, p.case.k, inside(&g.x_buf), case.types.1 as i32), "creating X")?;
            expect(oxsparseCreateDnVec(&mut g.y, p.case.m, inside(&g.y_buf), case.types.2 as i32), "creating Y")?;
        }
        Ok(g)
    }

    pub fn args(&self, p: &Problem, alpha: &Scalar, beta: &Scalar) -> Args {
        let c = &p.case;
        Args {
            op: c.op as i32,
            alpha: alpha.ptr(),
            a: self.a,
            x: self.x,
            beta: beta.ptr(),
            y: self.y,
            compute: c.types.3 as i32,
            alg: c.alg as i32,
        }
    }

    /// Uploads `p`'s A values, X and Y again (same buffers, same descriptors).
    pub fn rewrite(&self, p: &Problem) {
        write_at(&self.a_arrays[2], 0, &encode(p.case.types.0, &p.a.values));
        write_at(&self.x_buf, 0, &p.x_bytes);
        write_at(&self.y_buf, 0, &p.y_bytes);
    }
}

/// Scalars of `p` in its pointer mode (the handle is switched to it).
pub fn scalars(h: &CHandle, p: &Problem) -> (Scalar, Scalar) {
    h.set_mode(p.case.mode);
    let compute = p.case.types.3;
    (Scalar::new(p.case.mode, compute, p.alpha), Scalar::new(p.case.mode, compute, p.beta))
}

/// A case uploaded and preprocessed with a buffer of its own: where the reuse checks start.
pub struct Preprocessed {
    pub p: Problem,
    pub g: Gpu,
    /// Kept alive for `args`, which points at them.
    pub scalars: (Scalar, Scalar),
    pub args: Args,
    pub ws: Option<DevBuf>,
}

impl Preprocessed {
    pub fn new(h: &CHandle, case: &Case) -> Result<Preprocessed, String> {
        let p = Problem::new(case);
        let g = Gpu::upload(&p)?;
        let scalars = scalars(h, &p);
        let args = g.args(&p, &scalars.0, &scalars.1);
        let ws = args.workspace(h)?;
        expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SpMV_preprocess")?;
        Ok(Preprocessed { p, g, scalars, args, ws })
    }

    /// SpMV with the preprocessed buffer.
    pub fn spmv(&self, h: &CHandle) -> Result<(), String> {
        expect(unsafe { self.args.spmv(h, ws_ptr(&self.ws)) }, "SpMV")
    }
}

/// One SpMV on a fresh copy of Y: bufferSize, a poisoned workspace of that size, preprocess when
/// asked, SpMV. Returns Y's whole buffer.
pub fn run(h: &CHandle, p: &Problem, g: &Gpu, preprocess: bool) -> Result<Vec<u8>, String> {
    write_at(&g.y_buf, 0, &p.y_bytes);
    let (alpha, beta) = scalars(h, p);
    let args = g.args(p, &alpha, &beta);
    let ws = args.workspace(h)?;
    if preprocess {
        expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SpMV_preprocess")?;
    }
    expect(unsafe { args.spmv(h, ws_ptr(&ws)) }, "SpMV")?;
    Ok(g.y_buf.to_vec())
}

pub fn run_case(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    p.check(&run(h, &p, &g, case.preprocess)?)
}

/// Runs every case (a SKIP line without a GPU) and fails listing the first failures.
pub fn sweep(test: &str, cases: &[Case]) {
    sweep_with(test, cases, run_case);
}

/// `sweep` with another check than the reference comparison of one call.
pub fn sweep_with(test: &str, cases: &[Case], check: impl Fn(&CHandle, &Case) -> Result<(), String>) {
    crate::common::sweep::sweep(test, cases, Case::label, check);
}
