//! Axpby, Gather, Scatter, Rot and SpVV on the GPU equal the CPU reference, for every value type x
//! index type x index base x pointer mode x shape (sizes 0, 1, 7, 33, 100000; nnz 0 to size, with
//! distinct unsorted indices); and the C path through the exported functions.
//!
//! Outputs the routine writes are poisoned (0xFF) before every run. Gather and Scatter only move
//! values, so they must match bit for bit; arithmetic results must lie within a few unit roundoffs
//! of the storage (Axpby, Rot) or compute (SpVV) type, scaled by the magnitude of the terms.

mod common;
// Helpers and the larger groups of tests live beside this file (a test crate root resolves `mod`
// paths from tests/, hence the explicit paths).
#[path = "gpu_vector_ops/values.rs"]
mod values;

use common::{gpu, DevBuf, Rng};
use oxsparse::context::Handle;
use oxsparse::descr::{DnVec, SpVec};
use oxsparse::error::Error;
use oxsparse::ops::vector_ops::{self as ops, Routine};
use oxsparse::reference::vector_ops::{self as reference, Value, ZERO};
use oxsparse::types::{DataType, DataType::*, IndexBase, IndexType, Operation, PointerMode};
use std::ffi::c_void;
use values::{abs1, decode, encode, encode_indices, random, roundoff};

const FLOAT_TYPES: [DataType; 8] = [CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F, CUDA_R_64F, CUDA_C_16F, CUDA_C_16BF, CUDA_C_32F, CUDA_C_64F];
const INDEX_TYPES: [IndexType; 2] = [IndexType::OXSPARSE_INDEX_32I, IndexType::OXSPARSE_INDEX_64I];
const BASES: [IndexBase; 2] = [IndexBase::OXSPARSE_INDEX_BASE_ZERO, IndexBase::OXSPARSE_INDEX_BASE_ONE];
const MODES: [PointerMode; 2] = [PointerMode::OXSPARSE_POINTER_MODE_HOST, PointerMode::OXSPARSE_POINTER_MODE_DEVICE];
/// (size, nnz).
const SHAPES: [(i64, i64); 7] = [(0, 0), (1, 1), (7, 0), (7, 4), (33, 19), (33, 33), (100_000, 60_000)];

/// One point of the parameter matrix.
#[derive(Clone, Copy, Debug)]
struct Case {
    t: DataType,
    it: IndexType,
    base: IndexBase,
    mode: PointerMode,
    size: i64,
    nnz: i64,
}

fn cases(types: &[DataType]) -> Vec<Case> {
    let mut v = Vec::new();
    for &t in types {
        for it in INDEX_TYPES {
            for base in BASES {
                for mode in MODES {
                    for (size, nnz) in SHAPES {
                        v.push(Case { t, it, base, mode, size, nnz });
                    }
                }
            }
        }
    }
    v
}

/// X (sparse) and Y (dense) on the host and on the device; `indices` are as stored (base added).
struct Vectors {
    indices: Vec<i64>,
    x: Vec<Value>,
    y: Vec<Value>,
    x_dev: DevBuf,
    y_dev: DevBuf,
    _indices_dev: DevBuf,
    spvec: SpVec,
    dnvec: DnVec,
}

impl Vectors {
    fn new(seed: u64, c: &Case) -> Vectors {
        let mut rng = Rng::new(seed);
        let base = c.base.offset();
        let indices: Vec<i64> = rng.distinct(c.size as u64, c.nnz as usize).into_iter().map(|i| i as i64 + base).collect();
        let x = random(&mut rng, c.t, c.nnz as usize);
        let y = random(&mut rng, c.t, c.size as usize);
        let indices_dev = DevBuf::from_slice(&encode_indices(c.it, &indices));
        let x_dev = DevBuf::from_slice(&encode(c.t, &x));
        let y_dev = DevBuf::from_slice(&encode(c.t, &y));
        let spvec = SpVec::new(c.size, c.nnz, indices_dev.ptr, x_dev.ptr, c.it, c.base, c.t).unwrap();
        let dnvec = DnVec::new(c.size, y_dev.ptr, c.t).unwrap();
        Vectors { indices, x, y, x_dev, y_dev, _indices_dev: indices_dev, spvec, dnvec }
    }

    /// Position in Y of the i-th stored entry.
    fn pos(&self, i: usize) -> usize {
        (self.indices[i] - self.spvec.index_base.offset()) as usize
    }
}

/// A scalar of type `compute` where the pointer mode wants it: host bytes, or a device copy.
struct ScalarArg {
    bytes: Vec<u8>,
    dev: Option<DevBuf>,
}

impl ScalarArg {
    fn new(mode: PointerMode, compute: DataType, v: Value) -> ScalarArg {
        let bytes = encode(compute, &[v]);
        let dev = (mode == PointerMode::OXSPARSE_POINTER_MODE_DEVICE).then(|| DevBuf::from_slice(&bytes));
        ScalarArg { bytes, dev }
    }
    fn ptr(&self) -> *const c_void {
        match &self.dev {
            Some(d) => d.ptr as *const c_void,
            None => self.bytes.as_ptr() as *const c_void,
        }
    }
}

/// A real value for real types, the complex one otherwise.
fn of_type(t: DataType, v: Value) -> Value {
    if t.is_complex() {
        v
    } else {
        (v.0, 0.0)
    }
}

/// Every `got[i]` within `k * u * mag[i]` of `want[i]` (so entries with `mag == 0` must be exact).
fn compare(what: &str, c: &Case, got: &[Value], want: &[Value], mag: &[f64], k_u: f64) -> Result<(), String> {
    assert_eq!(got.len(), want.len());
    for i in 0..got.len() {
        let (g, w) = (got[i], want[i]);
        let err = (g.0 - w.0).abs().max((g.1 - w.1).abs());
        if err.is_nan() || err > k_u * mag[i] {
            return Err(format!("{what} {c:?}: entry {i} is {g:?}, want {w:?} (tolerance {:e})", k_u * mag[i]));
        }
    }
    Ok(())
}

fn report(test: &str, failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{test}: {} failing cases, first ones:\n{}",
        failures.len(),
        failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn axpby_case(h: &Handle, c: &Case, seed: u64, alpha: Value, beta: Value) -> Result<(), String> {
    let mut v = Vectors::new(seed, c);
    let compute = ops::compute_type(Routine::Axpby, c.t).unwrap();
    let (alpha, beta) = (of_type(c.t, alpha), of_type(c.t, beta));
    if beta == ZERO {
        // beta == 0 must not read Y: NaNs there must not reach the result.
        v.y_dev.poison(0xFF);
        v.y.iter_mut().for_each(|y| *y = (f64::NAN, f64::NAN));
    }
    let (a, b) = (ScalarArg::new(c.mode, compute, alpha), ScalarArg::new(c.mode, compute, beta));
    unsafe { ops::axpby(h, a.ptr(), &v.spvec, b.ptr(), &v.dnvec) }.map_err(|e| format!("axpby {c:?}: {e}"))?;
    let got = decode(c.t, &v.y_dev.to_vec::<u8>());
    let mut mag: Vec<f64> = v.y.iter().map(|&y| if beta == ZERO { 0.0 } else { abs1(beta) * abs1(y) }).collect();
    for i in 0..v.indices.len() {
        mag[v.pos(i)] += abs1(alpha) * abs1(v.x[i]);
    }
    let mut want = v.y.clone();
    reference::axpby(alpha, &v.indices, c.base.offset(), &v.x, beta, &mut want);
    compare("axpby Y", c, &got, &want, &mag, 8.0 * roundoff(c.t))
}

#[test]
fn axpby_equals_reference() {
    let Some(h) = gpu("axpby_equals_reference") else { return };
    let mut h = h;
    let mut failures = Vec::new();
    for (n, c) in cases(&FLOAT_TYPES).iter().enumerate() {
        h.pointer_mode = c.mode;
        for (alpha, beta) in [((1.5, -0.5), (-0.75, 0.25)), ((-2.0, 0.25), ZERO), ((0.5, 0.0), (1.0, 0.0))] {
            if let Err(e) = axpby_case(&h, c, n as u64, alpha, beta) {
                failures.push(e);
            }
        }
    }
    report("axpby", failures);
}

#[test]
fn gather_equals_reference() {
    let Some(h) = gpu("gather_equals_reference") else { return };
    let mut h = h;
    let mut failures = Vec::new();
    for (n, c) in cases(&FLOAT_TYPES).iter().enumerate() {
        h.pointer_mode = c.mode;
        let v = Vectors::new(100 + n as u64, c);
        v.x_dev.poison(0xFF);
        if let Err(e) = ops::gather(&h, &v.dnvec, &v.spvec) {
            failures.push(format!("gather {c:?}: {e}"));
            continue;
        }
        let mut want = vec![ZERO; v.x.len()];
        reference::gather(&v.y, &v.indices, c.base.offset(), &mut want);
        if v.x_dev.to_vec::<u8>() != encode(c.t, &want)[..] {
            failures.push(format!("gather {c:?}: X differs from Y[indices]"));
        }
        if v.y_dev.to_vec::<u8>() != encode(c.t, &v.y) {
            failures.push(format!("gather {c:?}: Y was written"));
        }
    }
    report("gather", failures);
}

#[test]
fn scatter_equals_reference() {
    let Some(h) = gpu("scatter_equals_reference") else { return };
    let mut h = h;
    let mut failures = Vec::new();
    let types: Vec<DataType> = FLOAT_TYPES.iter().copied().chain([CUDA_R_8I]).collect();
    for (n, c) in cases(&types).iter().enumerate() {
        h.pointer_mode = c.mode;
        let v = Vectors::new(200 + n as u64, c);
        v.y_dev.poison(0xFF);
        if let Err(e) = ops::scatter(&h, &v.spvec, &v.dnvec) {
            failures.push(format!("scatter {c:?}: {e}"));
            continue;
        }
        // Entries X does not index keep their poison.
        let width = c.t.size_bytes() as usize;
        let mut want = vec![0xFFu8; v.y_dev.bytes];
        for (i, bytes) in encode(c.t, &v.x).chunks_exact(width).enumerate() {
            want[v.pos(i) * width..][..width].copy_from_slice(bytes);
        }
        if v.y_dev.to_vec::<u8>() != want {
            failures.push(format!("scatter {c:?}: Y differs"));
        }
    }
    report("scatter", failures);
}

fn rot_case(h: &Handle, c: &Case, seed: u64) -> Result<(), String> {
    let v = Vectors::new(seed, c);
    let compute = ops::compute_type(Routine::Rot, c.t).unwrap();
    let (cc, ss) = (of_type(c.t, (0.75, 0.125)), of_type(c.t, (-0.625, 0.25)));
    let (ca, sa) = (ScalarArg::new(c.mode, compute, cc), ScalarArg::new(c.mode, compute, ss));
    unsafe { ops::rot(h, ca.ptr(), sa.ptr(), &v.spvec, &v.dnvec) }.map_err(|e| format!("rot {c:?}: {e}"))?;
    let (mut want_x, mut want_y) = (v.x.clone(), v.y.clone());
    reference::rot(cc, ss, &v.indices, c.base.offset(), &mut want_x, &mut want_y);
    let mut mag_y = vec![0.0; v.y.len()];
    let mut mag_x = vec![0.0; v.x.len()];
    for i in 0..v.x.len() {
        let (x, y) = (abs1(v.x[i]), abs1(v.y[v.pos(i)]));
        mag_x[i] = abs1(cc) * x + abs1(ss) * y;
        mag_y[v.pos(i)] = abs1(cc) * y + abs1(ss) * x;
    }
    let k_u = 8.0 * roundoff(c.t);
    compare("rot X", c, &decode(c.t, &v.x_dev.to_vec::<u8>()), &want_x, &mag_x, k_u)?;
    compare("rot Y", c, &decode(c.t, &v.y_dev.to_vec::<u8>()), &want_y, &mag_y, k_u)
}

#[test]
fn rot_equals_reference() {
    let Some(h) = gpu("rot_equals_reference") else { return };
    let mut h = h;
    let mut failures = Vec::new();
    for (n, c) in cases(&FLOAT_TYPES).iter().enumerate() {
        h.pointer_mode = c.mode;
        if let Err(e) = rot_case(&h, c, 300 + n as u64) {
            failures.push(e);
        }
    }
    report("rot", failures);
}

#[path = "gpu_vector_ops/c_api.rs"]
mod c_api;
#[path = "gpu_vector_ops/spvv.rs"]
mod spvv;
