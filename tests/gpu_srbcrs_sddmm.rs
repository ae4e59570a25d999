//! `oxsparseSDDMM_srBcrs` through the exported C functions: the integer SDDMM on an SR-BCRS
//! object's stored slots against the exact i64 reference (`oxsparse::reference::srbcrs_sddmm`)
//! with the API's int32 and FP32 epilogues, compared exactly slot for slot (padding slots 0), and
//! the status of every refused call (the output untouched).
//!
//! Cases cross every pair of A's and B's bits (4-4, 8-4, 8-8, 16-4, 16-8, 16-16), objects of
//! int4, int8 and int16 values (strides 64 and 32: the output's order), V in {2, 4, 8}, sparsity
//! 50% to 98% (unstructured, and vector-structured with rows dropped from groups), M and N from 1
//! to 1,023 (M not a multiple of V), K from 1 to 1,024 (K not a multiple of the kernel's 64-k
//! step, nor of 16), A and B each row- or column-major with padded leading dimensions (A
//! row-major and B column-major with aligned lines: the wide path, whole and with a partial last
//! step; other layouts and odd leading dimensions: element by element), both pointer modes,
//! alpha and beta of both signs, and beta 0 over a poisoned output (0xFF: int32 -1, FP32 NaN).
//! Values are seeded random over each type's full range (never all ones).

mod common;
use common::capi::*;
use common::srbcrs::{int_type, seconds_per_call};
use common::*;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::srbcrs::*;
use oxsparse::ffi::*;
use oxsparse::reference::srbcrs::{encode, epilogue_f32, epilogue_i32, CsrInt, DenseInt, SrBcrsHost};
use oxsparse::reference::srbcrs_sddmm::srbcrs_sddmm;
use oxsparse::types::{DataType, IndexType, Order, PointerMode, Status};
use std::ffi::c_void;
use std::ptr::{null, null_mut};

const R8I: DataType = DataType::CUDA_R_8I;
const R32I: DataType = DataType::CUDA_R_32I;
const R32F: DataType = DataType::CUDA_R_32F;
const ROW: Order = Order::OXSPARSE_ORDER_ROW;
const COL: Order = Order::OXSPARSE_ORDER_COL;
const HOST: PointerMode = PointerMode::OXSPARSE_POINTER_MODE_HOST;
const DEVICE: PointerMode = PointerMode::OXSPARSE_POINTER_MODE_DEVICE;

/// A 0-based CSR mask with int8 values, about `sparsity` percent zeros. Unstructured: each entry
/// on its own. Vectors: each group of `v` rows draws its columns, each row keeping each with
/// probability 3/4.
fn random_csr(rng: &mut Rng, (rows, cols): (usize, usize), sparsity: u64, vectors: Option<usize>) -> (Vec<i64>, Vec<i64>, Vec<i8>) {
    let mut keep = vec![vec![false; cols]; rows];
    match vectors {
        None => keep.iter_mut().flatten().for_each(|k| *k = rng.below(100) >= sparsity),
        Some(v) => {
            for g in 0..rows.div_ceil(v) {
                for c in (0..cols).filter(|_| rng.below(7500) < (100 - sparsity) * 100).collect::<Vec<_>>() {
                    for row in (g * v..(g * v + v).min(rows)).filter(|_| rng.below(4) != 0) {
                        keep[row][c] = true;
                    }
                }
            }
        }
    }
    let (mut ptr, mut ind, mut val) = (vec![0i64], vec![], vec![]);
    for row in &keep {
        for (c, _) in row.iter().enumerate().filter(|(_, k)| **k) {
            ind.push(c as i64);
            val.push((rng.below(255) as i64 - 127) as i8);
        }
        ptr.push(ind.len() as i64);
    }
    (ptr, ind, val)
}

/// The object of the mask's values as `bits`-bit integers (int4 keeps each value's low nibble),
/// made from a CSR upload (the CSR's arrays and descriptor freed after it).
fn make_object(
    h: &CHandle,
    (ptr, ind, val): &(Vec<i64>, Vec<i64>, Vec<i8>),
    (rows, cols): (usize, usize),
    v: i32,
    bits: usize,
) -> oxsparseSrBcrs_t {
    let i32s = |x: &[i64]| x.iter().map(|&y| y as i32).collect::<Vec<_>>();
    let t = int_type(bits);
    let values = encode(&val.iter().map(|&x| x as i16).collect::<Vec<_>>(), bits);
    let bufs = [DevBuf::from_slice(&i32s(ptr)), DevBuf::from_slice(&i32s(ind)), DevBuf::from_slice(&values)];
    let mut d = null_mut();
    let i32i = IndexType::OXSPARSE_INDEX_32I as i32;
    let s = unsafe {
        oxsparseCreateCsr(
            &mut d,
            rows as i64,
            cols as i64,
            val.len() as i64,
            bufs[0].ptr as *mut c_void,
            bufs[1].ptr as *mut c_void,
            bufs[2].ptr as *mut c_void,
            i32i,
            i32i,
            0,
            t as i32,
        )
    };
    assert_eq!(s, OK, "oxsparseCreateCsr");
    let mut obj = null_mut();
    assert_eq!(unsafe { oxsparseCreateSrBcrs(h.0, d, v, &mut obj) }, OK, "oxsparseCreateSrBcrs");
    unsafe { oxsparseDestroySpMat(d) };
    obj
}

/// The object's stored vectors.
fn vectors_of(obj: oxsparseSrBcrs_t) -> i64 {
    let (mut n, z) = (0i64, null_mut());
    let s = unsafe { oxsparseSrBcrsGetInfo(obj, z, z, z, null_mut(), null_mut(), &mut n, null_mut(), null_mut(), null_mut()) };
    assert_eq!(s, OK, "oxsparseSrBcrsGetInfo");
    n
}

/// A dense integer matrix on the device: its descriptor, buffer and host copy (element (i, j) at
/// `i * row_stride + j * col_stride`).
struct Dense {
    d: oxsparseDnMatDescr_t,
    _buf: DevBuf,
    /// The values, widened as the reference takes them.
    host: Vec<i16>,
    row_stride: usize,
    col_stride: usize,
}

impl Dense {
    /// Random `bits`-bit values over the full range, stored as `encode` stores them.
    fn random(rng: &mut Rng, (rows, cols): (usize, usize), bits: usize, order: Order, pad: usize) -> Dense {
        let ld = if order == ROW { cols } else { rows } + pad;
        let (row_stride, col_stride) = if order == ROW { (ld, 1) } else { (1, ld) };
        let count = if order == ROW { rows * ld } else { cols * ld };
        let host: Vec<i16> = (0..count.max(1)).map(|_| (rng.below(1 << bits) as i64 - (1 << (bits - 1))) as i16).collect();
        let buf = DevBuf::from_slice(&encode(&host, bits));
        let mut d = null_mut();
        let t = int_type(bits) as i32;
        let s = unsafe { oxsparseCreateDnMat(&mut d, rows as i64, cols as i64, ld.max(1) as i64, buf.ptr as *mut c_void, t, order as i32) };
        assert_eq!(s, OK, "oxsparseCreateDnMat");
        Dense { d, _buf: buf, host, row_stride, col_stride }
    }
    fn view(&self) -> DenseInt<'_> {
        DenseInt { values: &self.host, row_stride: self.row_stride, col_stride: self.col_stride }
    }
}

impl Drop for Dense {
    fn drop(&mut self) {
        unsafe { oxsparseDestroyDnMat(self.d) };
    }
}

/// The output: a DnVec of `size` values of `t` over `buf`.
struct Out {
    d: oxsparseDnVecDescr_t,
    buf: DevBuf,
}

impl Out {
    fn new(size: usize, t: DataType, bytes: &[u8]) -> Out {
        let buf = DevBuf::from_slice(if bytes.is_empty() { &[0u8; 4] } else { bytes });
        let mut d = null_mut();
        assert_eq!(unsafe { oxsparseCreateDnVec(&mut d, size as i64, buf.ptr as *mut c_void, t as i32) }, OK, "oxsparseCreateDnVec");
        Out { d, buf }
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        unsafe { oxsparseDestroyDnVec(self.d) };
    }
}

#[derive(Clone, Copy, Debug)]
struct Case {
    /// Bits of A's and B's values, and of the object's (its stride: the output's order).
    pair: (usize, usize),
    object_bits: usize,
    v: i32,
    m: usize,
    k: usize,
    n: usize,
    sparsity: u64,
    vectors: bool,
    /// Orders of A and B, and the padding of their leading dimensions.
    orders: (Order, Order),
    pads: (usize, usize),
    out: DataType,
    mode: PointerMode,
    /// (alpha, beta); beta 0 runs over a poisoned output.
    scalars: (i32, i32),
}

fn case(v: i32, (m, k, n): (usize, usize, usize), sparsity: u64) -> Case {
    Case {
        pair: (8, 8),
        object_bits: 8,
        v,
        m,
        k,
        n,
        sparsity,
        vectors: false,
        orders: (ROW, COL),
        pads: (0, 0),
        out: R32I,
        mode: HOST,
        scalars: (-2, 3),
    }
}

const PAIRS: [(usize, usize); 6] = [(4, 4), (8, 4), (8, 8), (16, 4), (16, 8), (16, 16)];

fn cases() -> Vec<Case> {
    let mut all = vec![];
    let shapes = [
        (1, 1, 1),
        (2, 32, 1),
        (7, 33, 5),
        (33, 64, 17),
        (9, 100, 65),
        (100, 128, 64),
        (257, 96, 130),
        (64, 1000, 96),
        (1000, 1024, 33),
        (1023, 48, 1000),
        (31, 1024, 1023),
    ];
    let sparsities = [50, 70, 90, 98];
    for (i, &shape) in shapes.iter().enumerate() {
        for (j, v) in [2, 4, 8].into_iter().enumerate() {
            let t = i * 3 + j;
            let mut c = case(v, shape, sparsities[t % 4]);
            c.vectors = t % 2 == 1;
            // The wide path (A row-major, B column-major) half the time; every other layout too.
            c.orders = [(ROW, COL), (COL, ROW), (ROW, COL), (ROW, ROW), (ROW, COL), (COL, COL)][t % 6];
            c.pads = [(0, 0), (16, 32), (3, 0), (0, 5), (32, 16)][t % 5];
            c.out = if t % 3 == 2 { R32F } else { R32I };
            c.mode = if t % 4 == 1 { DEVICE } else { HOST };
            c.scalars = [(-2, 3), (1, 0), (3, -1), (-1, 0), (2, 1)][t % 5];
            c.object_bits = [8, 4, 16, 8][t % 4];
            // Every pair on every shape.
            for pair in PAIRS {
                all.push(Case { pair, ..c });
            }
        }
    }
    // The wide path with K not a multiple of the step (an element-read last step), and whole steps.
    // (Leading dimensions of 1,024 elements: 16-byte aligned lines in every type.)
    for (i, v) in [2, 4, 8].into_iter().enumerate() {
        for pair in PAIRS {
            let object_bits = [4, 8, 16][i];
            all.push(Case { pair, object_bits, vectors: i != 1, pads: (24, 24), ..case(v, (301, 1000, 257), [60, 80, 95][i]) });
            all.push(Case { pair, vectors: i == 1, out: R32F, mode: DEVICE, scalars: (3, -2), ..case(v, (77, 512, 200), 90) });
        }
    }
    // K past the scaled int4 kernels' 65,536: the sign-extending ones (int32 output: the sums
    // leave int32 and wrap as the reference does).
    for pair in [(4, 4), (8, 4), (16, 4)] {
        all.push(Case { pair, pads: (16, 16), ..case(4, (9, 70_000, 20), 50) });
    }
    // Dense and empty extremes: a full mask, no entries, no rows, no columns.
    all.push(Case { vectors: true, ..case(8, (50, 64, 70), 0) });
    all.push(case(4, (77, 64, 20), 100));
    all.push(case(4, (0, 32, 3), 50));
    all.push(case(8, (4, 32, 0), 50));
    all
}

fn scalar_bytes(out: DataType, x: i32) -> Vec<u8> {
    if out == R32I {
        x.to_le_bytes().to_vec()
    } else {
        (x as f32).to_le_bytes().to_vec()
    }
}

/// Host bytes, or a device copy, as the pointer mode wants them.
struct ScalarArg(Vec<u8>, Option<DevBuf>);

impl ScalarArg {
    fn new(h: &CHandle, mode: PointerMode, bytes: Vec<u8>) -> ScalarArg {
        h.set_mode(mode);
        let dev = (mode == DEVICE).then(|| DevBuf::from_slice(&bytes));
        ScalarArg(bytes, dev)
    }
    fn ptr(&self) -> *const c_void {
        self.1.as_ref().map_or(self.0.as_ptr() as *const c_void, |d| d.ptr as *const c_void)
    }
}

fn run(h: &CHandle, c: &Case, seed: u64) -> Result<(), String> {
    let mut rng = Rng::new(seed);
    let mask = random_csr(&mut rng, (c.m, c.n), c.sparsity, c.vectors.then_some(c.v as usize));
    let obj = make_object(h, &mask, (c.m, c.n), c.v, c.object_bits);
    let values: Vec<i16> = mask.2.iter().map(|&x| x as i16).collect();
    let csr = CsrInt { rows: c.m, cols: c.n, row_ptr: &mask.0, col_ind: &mask.1, values: &values };
    let layout = SrBcrsHost::from_csr(&csr, c.v as usize, c.object_bits);
    let result = (|| {
        let slots = vectors_of(obj) as usize * c.v as usize;
        if slots != layout.vec_col.len() * c.v as usize {
            return Err(format!("the object stores {slots} slots, the reference layout {}", layout.vec_col.len() * c.v as usize));
        }
        let a = Dense::random(&mut rng, (c.m, c.k), c.pair.0, c.orders.0, c.pads.0);
        let b = Dense::random(&mut rng, (c.k, c.n), c.pair.1, c.orders.1, c.pads.1);
        let old: Vec<i32> = (0..slots).map(|_| rng.below(2001) as i32 - 1000).collect();
        let bytes: Vec<u8> = if c.out == R32I {
            old.iter().flat_map(|x| x.to_le_bytes()).collect()
        } else {
            old.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect()
        };
        let out = Out::new(slots, c.out, &bytes);
        let (alpha, beta) = c.scalars;
        if beta == 0 {
            out.buf.poison(0xFF);
        }
        let before = out.buf.to_vec::<u8>();
        let sa = ScalarArg::new(h, c.mode, scalar_bytes(c.out, alpha));
        let sb = ScalarArg::new(h, c.mode, scalar_bytes(c.out, beta));
        let mut size = usize::MAX;
        let t = c.out as i32;
        expect(unsafe { oxsparseSDDMM_srBcrs_bufferSize(h.0, sa.ptr(), a.d, b.d, sb.ptr(), obj, out.d, t, &mut size) }, "bufferSize")?;
        let ws = DevBuf::poisoned(size, 0xFF);
        let wsp = ws.ptr as *mut c_void;
        expect(unsafe { oxsparseSDDMM_srBcrs_preprocess(h.0, sa.ptr(), a.d, b.d, sb.ptr(), obj, out.d, t, wsp) }, "preprocess")?;
        expect(unsafe { oxsparseSDDMM_srBcrs(h.0, sa.ptr(), a.d, b.d, sb.ptr(), obj, out.d, t, wsp) }, "oxsparseSDDMM_srBcrs")?;
        let after = out.buf.to_vec::<u8>();
        let want = srbcrs_sddmm(&layout, &a.view(), &b.view(), c.k);
        let (mut bad, mut first) = (0, String::new());
        for (e, w) in want.iter().enumerate() {
            let word = |v: &[u8]| [v[4 * e], v[4 * e + 1], v[4 * e + 2], v[4 * e + 3]];
            let (ok, what) = if c.out == R32I {
                let w = w.map_or(0, |d| epilogue_i32(alpha, d, beta, i32::from_le_bytes(word(&before))));
                let g = i32::from_le_bytes(word(&after));
                (g == w, format!("got {g}, want {w}"))
            } else {
                let w = w.map_or(0.0, |d| epilogue_f32(alpha as f32, 1.0, d, beta as f32, f32::from_le_bytes(word(&before))));
                let g = f32::from_le_bytes(word(&after));
                (g.to_bits() == w.to_bits(), format!("got {g}, want {w}"))
            };
            if !ok {
                bad += 1;
                if first.is_empty() {
                    first = format!("slot {e} ({}): {what}", if w.is_some() { "stored" } else { "padding" });
                }
            }
        }
        if bad > 0 {
            return Err(format!("{bad} of {slots} slots wrong, first {first}"));
        }
        Ok(())
    })();
    unsafe { oxsparseDestroySrBcrs(obj) };
    result
}

#[test]
fn srbcrs_sddmm_is_exact() {
    let Some(_gpu) = gpu("SR-BCRS int8 SDDMM") else { return };
    let h = CHandle::new();
    let mut failures = vec![];
    for (i, c) in cases().iter().enumerate() {
        if let Err(e) = run(&h, c, 6000 + i as u64) {
            failures.push(format!("{c:?}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases().len(), failures.join("\n"));
}

/// Refused calls: the expected status, and the output unchanged.
#[test]
fn srbcrs_sddmm_refuses_bad_arguments() {
    let Some(_gpu) = gpu("SR-BCRS SDDMM bad arguments") else { return };
    let h = CHandle::new();
    let status = |s: Status| s as i32;
    let (inv, uns) = (status(Status::OXSPARSE_STATUS_INVALID_VALUE), status(Status::OXSPARSE_STATUS_NOT_SUPPORTED));
    let mut rng = Rng::new(78);
    let mask = random_csr(&mut rng, (10, 40), 60, None);
    let obj = make_object(&h, &mask, (10, 40), 4, 8);
    let slots = vectors_of(obj) as usize * 4;
    let a = Dense::random(&mut rng, (10, 64), 8, ROW, 0);
    let b = Dense::random(&mut rng, (64, 40), 8, COL, 0);
    let a9 = Dense::random(&mut rng, (9, 64), 8, ROW, 0);
    let b63 = Dense::random(&mut rng, (63, 40), 8, COL, 0);
    let b41 = Dense::random(&mut rng, (64, 41), 8, COL, 0);
    // Pairs with B wider than A.
    let a4 = Dense::random(&mut rng, (10, 64), 4, ROW, 0);
    let b16 = Dense::random(&mut rng, (64, 40), 16, COL, 0);
    let af_buf = DevBuf::zeroed(10 * 64 * 4);
    let mut af = null_mut();
    assert_eq!(unsafe { oxsparseCreateDnMat(&mut af, 10, 64, 64, af_buf.ptr as *mut c_void, R32F as i32, ROW as i32) }, OK);
    let out = Out::new(slots, R32I, &vec![0x5Au8; 4 * slots]);
    let short = Out::new(slots - 1, R32I, &vec![0x5Au8; 4 * slots]);
    let outf = Out::new(slots, R32F, &vec![0x5Au8; 4 * slots]);
    let one = 1i32.to_le_bytes();
    let (al, be) = (one.as_ptr() as *const c_void, one.as_ptr() as *const c_void);
    let call = |hh: oxsparseHandle_t,
                a: oxsparseDnMatDescr_t,
                b: oxsparseDnMatDescr_t,
                s: oxsparseSrBcrs_t,
                c: oxsparseDnVecDescr_t,
                compute: DataType| unsafe { oxsparseSDDMM_srBcrs(hh, al, a, b, be, s, c, compute as i32, null_mut()) };
    let rows = vec![
        ("NULL handle", call(null_mut(), a.d, b.d, obj, out.d, R32I), status(Status::OXSPARSE_STATUS_NOT_INITIALIZED)),
        ("NULL A", call(h.0, null_mut(), b.d, obj, out.d, R32I), inv),
        ("NULL object", call(h.0, a.d, b.d, null_mut(), out.d, R32I), inv),
        ("NULL vecC", call(h.0, a.d, b.d, obj, null_mut(), R32I), inv),
        ("NULL alpha", unsafe { oxsparseSDDMM_srBcrs(h.0, null(), a.d, b.d, be, obj, out.d, R32I as i32, null_mut()) }, inv),
        ("A rows", call(h.0, a9.d, b.d, obj, out.d, R32I), inv),
        ("B rows", call(h.0, a.d, b63.d, obj, out.d, R32I), inv),
        ("B columns", call(h.0, a.d, b41.d, obj, out.d, R32I), inv),
        ("vecC size", call(h.0, a.d, b.d, obj, short.d, R32I), inv),
        ("A float", call(h.0, af, b.d, obj, out.d, R32I), uns),
        ("compute float, vecC int32", call(h.0, a.d, b.d, obj, out.d, R32F), uns),
        ("compute int32, vecC float", call(h.0, a.d, b.d, obj, outf.d, R32I), uns),
        ("compute int8", call(h.0, a.d, b.d, obj, out.d, R8I), uns),
        ("A int4, B int8", call(h.0, a4.d, b.d, obj, out.d, R32I), uns),
        ("A int8, B int16", call(h.0, a.d, b16.d, obj, out.d, R32I), uns),
        (
            "bufferSize, A int8, B int16",
            unsafe { oxsparseSDDMM_srBcrs_bufferSize(h.0, al, a.d, b16.d, be, obj, out.d, R32I as i32, &mut 0) },
            uns,
        ),
        ("compute 99", unsafe { oxsparseSDDMM_srBcrs(h.0, al, a.d, b.d, be, obj, out.d, 99, null_mut()) }, inv),
        (
            "bufferSize NULL size",
            unsafe { oxsparseSDDMM_srBcrs_bufferSize(h.0, al, a.d, b.d, be, obj, out.d, R32I as i32, null_mut()) },
            inv,
        ),
        ("preprocess A rows", unsafe { oxsparseSDDMM_srBcrs_preprocess(h.0, al, a9.d, b.d, be, obj, out.d, R32I as i32, null_mut()) }, inv),
    ];
    sync();
    for o in [&out, &short, &outf] {
        assert!(o.buf.to_vec::<u8>().iter().all(|&x| x == 0x5A), "a refused call wrote vecC");
    }
    // The object destroyed: refused, nothing written.
    assert_eq!(unsafe { oxsparseDestroySrBcrs(obj) }, OK);
    let dead = call(h.0, a.d, b.d, obj, out.d, R32I);
    unsafe { oxsparseDestroyDnMat(af) };
    let mut wrong: Vec<String> = rows
        .iter()
        .filter(|(_, got, want)| got != want)
        .map(|(what, got, want)| format!("{what}: {} (want {})", status_name(*got), status_name(*want)))
        .collect();
    if dead != status(Status::OXSPARSE_STATUS_NOT_INITIALIZED) {
        wrong.push(format!("destroyed object: {}", status_name(dead)));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Throughput of every pair on the same masks (ignored: a measurement, run by hand on a GPU with
/// `--ignored --nocapture`): a 4096 x 4096 mask, V = 8, vector-structured and unstructured, at
/// 70/90/98% sparsity, K = 64, 256 and 1,024; A row-major, B column-major (the wide path), int32
/// output, 20 calls after 3 untimed ones. Each narrower pair reads fewer bytes for the same (or
/// less) mma work.
#[test]
#[ignore]
fn srbcrs_sddmm_pair_throughput() {
    let Some(_gpu) = gpu("SR-BCRS SDDMM pair throughput") else { return };
    let h = CHandle::new();
    let (m, n, v) = (4096, 4096, 8);
    for vectors in [true, false] {
        for sparsity in [70, 90, 98] {
            let mut rng = Rng::new(sparsity + vectors as u64);
            let mask = random_csr(&mut rng, (m, n), sparsity, vectors.then_some(v as usize));
            let obj = make_object(&h, &mask, (m, n), v, 8);
            let slots = vectors_of(obj) as usize * v as usize;
            for k in [64, 256, 1024] {
                let mut times = vec![];
                for (la, lb) in PAIRS {
                    let a = Dense::random(&mut rng, (m, k), la, ROW, 0);
                    let b = Dense::random(&mut rng, (k, n), lb, COL, 0);
                    let out = Out::new(slots, R32I, &vec![0u8; 4 * slots]);
                    let (one, zero) = (1i32.to_le_bytes(), 0i32.to_le_bytes());
                    let call = || unsafe {
                        oxsparseSDDMM_srBcrs(
                            h.0,
                            one.as_ptr() as *const c_void,
                            a.d,
                            b.d,
                            zero.as_ptr() as *const c_void,
                            obj,
                            out.d,
                            R32I as i32,
                            null_mut(),
                        )
                    };
                    times.push(seconds_per_call(call));
                }
                let line: Vec<String> = PAIRS
                    .iter()
                    .zip(&times)
                    .map(|((l, r), t)| {
                        format!("L{l}-R{r} {:.1} us ({:.1} TOP/s)", t * 1e6, 2.0 * mask.1.len() as f64 * k as f64 / t / 1e12)
                    })
                    .collect();
                let kind = if vectors { "vectors     " } else { "unstructured" };
                println!("{kind} sparsity {sparsity}% K={k}: {}", line.join(", "));
            }
            unsafe { oxsparseDestroySrBcrs(obj) };
        }
    }
}
