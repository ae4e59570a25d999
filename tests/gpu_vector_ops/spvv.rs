//! SpVV against the reference for every supported (value, compute) pair and every opX; its
//! determinism; and its workspace rules.

use super::*;

/// The (X/Y type, computeType) pairs cuSPARSE documents for SpVV.
const PAIRS: [(DataType, DataType); 10] = [
    (CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_64F, CUDA_R_64F),
    (CUDA_C_32F, CUDA_C_32F),
    (CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_8I, CUDA_R_32I),
    (CUDA_R_8I, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_32F),
    (CUDA_C_16F, CUDA_C_32F),
    (CUDA_C_16BF, CUDA_C_32F),
];
const OPS: [Operation; 3] = [
    Operation::OXSPARSE_OPERATION_NON_TRANSPOSE,
    Operation::OXSPARSE_OPERATION_TRANSPOSE,
    Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE,
];

/// Where SpVV writes its result: host bytes or a device buffer, poisoned either way.
struct ResultArg {
    host: Vec<u8>,
    dev: Option<DevBuf>,
}

impl ResultArg {
    fn new(mode: PointerMode, compute: DataType) -> ResultArg {
        let n = compute.size_bytes() as usize;
        let dev = (mode == PointerMode::OXSPARSE_POINTER_MODE_DEVICE).then(|| {
            let d = DevBuf::zeroed(n);
            d.poison(0xFF);
            d
        });
        ResultArg { host: vec![0xFF; n], dev }
    }
    fn ptr(&mut self) -> *mut c_void {
        match &self.dev {
            Some(d) => d.ptr as *mut c_void,
            None => self.host.as_mut_ptr() as *mut c_void,
        }
    }
    /// The bytes written; in host mode read without any synchronisation of ours, since SpVV must
    /// have waited for them itself.
    fn bytes(&self) -> Vec<u8> {
        match &self.dev {
            Some(d) => d.to_vec(),
            None => self.host.clone(),
        }
    }
}

/// Runs SpVV with a poisoned workspace of exactly the size asked for (NULL when 0).
fn run(h: &Handle, v: &Vectors, op: Operation, compute: DataType, result: &mut ResultArg) -> oxsparse::error::Result<()> {
    let size = ops::spvv_buffer_size(op, &v.spvec, &v.dnvec, result.ptr(), compute)?;
    let buffer = (size > 0).then(|| {
        let b = DevBuf::zeroed(size);
        b.poison(0xFF);
        b
    });
    unsafe { ops::spvv(h, op, &v.spvec, &v.dnvec, result.ptr(), compute, buffer.as_ref().map_or(0, |b| b.ptr)) }
}

fn spvv_case(h: &Handle, c: &Case, compute: DataType, op: Operation, seed: u64) -> Result<(), String> {
    let v = Vectors::new(seed, c);
    let mut result = ResultArg::new(c.mode, compute);
    run(h, &v, op, compute, &mut result).map_err(|e| format!("spvv {op:?} -> {compute:?} {c:?}: {e}"))?;
    let got = decode(compute, &result.bytes());
    let conj = op == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE && c.t.is_complex();
    let want = reference::spvv(conj, &v.indices, c.base.offset(), &v.x, &v.y);
    let mag: f64 = (0..v.x.len()).map(|i| abs1(v.x[i]) * abs1(v.y[v.pos(i)])).sum();
    // Products and a reduction tree a few dozen levels deep, in the compute type.
    compare(&format!("spvv {op:?} -> {compute:?}"), c, &got, &[want], &[mag], 32.0 * roundoff(compute))
}

#[test]
fn spvv_equals_reference() {
    let Some(h) = gpu("spvv_equals_reference") else { return };
    let mut h = h;
    let mut failures = Vec::new();
    for (t, compute) in PAIRS {
        for (n, c) in cases(&[t]).iter().enumerate() {
            h.pointer_mode = c.mode;
            for op in OPS {
                if let Err(e) = spvv_case(&h, c, compute, op, 400 + n as u64) {
                    failures.push(e);
                }
            }
        }
    }
    report("spvv", failures);
}

/// The same inputs give the same bits, run after run and in either pointer mode.
#[test]
fn spvv_is_deterministic() {
    let Some(h) = gpu("spvv_is_deterministic") else { return };
    let mut h = h;
    for (t, compute) in [(CUDA_R_32F, CUDA_R_32F), (CUDA_C_16F, CUDA_C_32F)] {
        let c = Case { t, it: INDEX_TYPES[0], base: BASES[0], mode: MODES[0], size: 1_000_000, nnz: 700_000 };
        let v = Vectors::new(7, &c);
        let mut seen = Vec::new();
        for mode in MODES.iter().chain(MODES.iter()) {
            h.pointer_mode = *mode;
            let mut result = ResultArg::new(*mode, compute);
            run(&h, &v, Operation::OXSPARSE_OPERATION_NON_TRANSPOSE, compute, &mut result).unwrap();
            seen.push(result.bytes());
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{t:?}: results differ between runs: {seen:?}");
    }
}

#[test]
fn spvv_refuses_a_missing_or_misaligned_workspace() {
    let Some(h) = gpu("spvv_refuses_a_missing_or_misaligned_workspace") else { return };
    let c = Case { t: CUDA_R_64F, it: INDEX_TYPES[1], base: BASES[1], mode: MODES[0], size: 33, nnz: 19 };
    let v = Vectors::new(9, &c);
    let op = Operation::OXSPARSE_OPERATION_NON_TRANSPOSE;
    let mut out = 0.0f64;
    let result = &mut out as *mut f64 as *mut c_void;
    let size = ops::spvv_buffer_size(op, &v.spvec, &v.dnvec, result, CUDA_R_64F).unwrap();
    assert!(size > 0);
    let r = unsafe { ops::spvv(&h, op, &v.spvec, &v.dnvec, result, CUDA_R_64F, 0) };
    assert!(matches!(r, Err(Error::InvalidValue(_))), "{r:?}");
    let buffer = DevBuf::zeroed(size + 8);
    let r = unsafe { ops::spvv(&h, op, &v.spvec, &v.dnvec, result, CUDA_R_64F, buffer.ptr + 4) };
    assert!(matches!(r, Err(Error::InvalidValue(_))), "{r:?}");
    unsafe { ops::spvv(&h, op, &v.spvec, &v.dnvec, result, CUDA_R_64F, buffer.ptr) }.unwrap();
    let want = reference::spvv(false, &v.indices, 1, &v.x, &v.y).0;
    assert!((out - want).abs() <= 1e-12 * (1.0 + want.abs()), "{out} vs {want}");
}
