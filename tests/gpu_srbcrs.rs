//! The native SR-BCRS object through the exported C functions: `oxsparseCreateSrBcrs`'s GPU build
//! against the CPU layout `oxsparse::reference::srbcrs` (array for array), `oxsparseSpMM_srBcrs`
//! against the exact i64 products of the CSR matrix with the API's int32 and FP32 (row-scaled)
//! epilogues (compared exactly, the product taken modulo 2^32 as the API defines it), and the
//! status of every refused call (C left untouched).
//!
//! Cases cross every (A bits, B bits) pair (4-4, 8-4, 8-8, 16-4, 16-8, 16-16), V in {2, 4, 8},
//! sparsity 50% to 98% (unstructured, and vector-structured with rows dropped from groups so that
//! vectors are partial), M, K and N from 1 to 1,024 (M not a multiple of V, K not of the stride,
//! N not of the kernel's 64-column tile), row- and column-major B and C with padded leading
//! dimensions (B row-major with aligned rows: whole tiles and an edge tile), 32- and 64-bit
//! indices, bases 0 and 1, both pointer modes, FP32 row scales, and beta 0 over a poisoned C
//! (0xFF: int32 -1, FP32 NaN). Values are seeded random integers (never all ones) over each
//! type's range (int8 A in [-100, 100]).

mod common;
use common::capi::*;
use common::srbcrs::{download_object, int_type, seconds_per_call};
use common::*;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::srbcrs::*;
use oxsparse::ffi::*;
use oxsparse::reference::srbcrs::{csr_times_dense, encode, epilogue_f32, epilogue_i32, CsrInt, DenseInt, SrBcrsHost};
use oxsparse::types::{DataType, IndexType, Order, PointerMode, Status};
use std::ffi::c_void;
use std::ptr::{null, null_mut};

const R4I: DataType = DataType::CUDA_R_4I;
const R8I: DataType = DataType::CUDA_R_8I;
const R16I: DataType = DataType::CUDA_R_16I;
const R32I: DataType = DataType::CUDA_R_32I;
const R32F: DataType = DataType::CUDA_R_32F;
const ROW: Order = Order::OXSPARSE_ORDER_ROW;
const COL: Order = Order::OXSPARSE_ORDER_COL;

/// A 0-based CSR matrix of integer values, columns strictly increasing in each row.
struct Csr {
    rows: usize,
    cols: usize,
    ptr: Vec<i64>,
    ind: Vec<i64>,
    val: Vec<i16>,
}

impl Csr {
    fn view(&self) -> CsrInt<'_> {
        CsrInt { rows: self.rows, cols: self.cols, row_ptr: &self.ptr, col_ind: &self.ind, values: &self.val }
    }
}

/// A random value of `bits` bits over the type's range.
fn full_range(rng: &mut Rng, bits: usize) -> i16 {
    ((rng.next_u64() as i64) << (64 - bits) >> (64 - bits)) as i16
}

/// A nonzero A value: int8 in [-100, 100], int4 and int16 over their range.
fn a_value(rng: &mut Rng, bits: usize) -> i16 {
    if bits == 8 {
        let v = rng.below(200) as i64 - 100;
        return (if v >= 0 { v + 1 } else { v }) as i16;
    }
    let v = full_range(rng, bits);
    if v == 0 {
        1
    } else {
        v
    }
}

/// About `sparsity` percent of zeros. Unstructured: each entry kept on its own. Vectors: each group
/// of `v` rows draws its columns, and each of its rows keeps each column with probability 3/4.
fn random_csr(rng: &mut Rng, (rows, cols): (usize, usize), sparsity: u64, vectors: Option<usize>, bits: usize) -> Csr {
    let mut keep: Vec<Vec<bool>> = vec![vec![false; cols]; rows];
    match vectors {
        None => keep.iter_mut().flatten().for_each(|k| *k = rng.below(100) >= sparsity),
        Some(v) => {
            for g in 0..rows.div_ceil(v) {
                let columns: Vec<usize> = (0..cols).filter(|_| rng.below(7500) < (100 - sparsity) * 100).collect();
                for c in columns {
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
            val.push(a_value(rng, bits));
        }
        ptr.push(ind.len() as i64);
    }
    Csr { rows, cols, ptr, ind, val }
}

fn encode_index(v: &[i64], t: IndexType, base: i64) -> Vec<u8> {
    match t {
        IndexType::OXSPARSE_INDEX_32I => v.iter().flat_map(|x| ((x + base) as i32).to_le_bytes()).collect(),
        _ => v.iter().flat_map(|x| (x + base).to_le_bytes()).collect(),
    }
}

/// A CSR descriptor over device copies of `a`'s arrays (kept alive by the returned buffers).
fn upload(a: &Csr, it: IndexType, base: i64, vt: DataType) -> (oxsparseSpMatDescr_t, [DevBuf; 3]) {
    let vals: Vec<u8> = match vt {
        R4I => encode(&a.val, 4),
        R8I => encode(&a.val, 8),
        R16I => encode(&a.val, 16),
        _ => a.val.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect(),
    };
    let bufs = [
        DevBuf::from_slice(&encode_index(&a.ptr, it, base)),
        DevBuf::from_slice(&encode_index(&a.ind, it, base)),
        DevBuf::from_slice(&vals),
    ];
    let mut d = null_mut();
    let s = unsafe {
        oxsparseCreateCsr(
            &mut d,
            a.rows as i64,
            a.cols as i64,
            a.val.len() as i64,
            bufs[0].ptr as *mut c_void,
            bufs[1].ptr as *mut c_void,
            bufs[2].ptr as *mut c_void,
            it as i32,
            it as i32,
            base as i32,
            vt as i32,
        )
    };
    assert_eq!(s, OK, "oxsparseCreateCsr");
    (d, bufs)
}

/// A dense matrix's descriptor and buffer: rows x cols in `order`, leading dimension padded by
/// `pad`, filled from `bytes` (element (i, j) at i * rs + j * cs).
struct Dense {
    d: oxsparseDnMatDescr_t,
    buf: DevBuf,
    row_stride: usize,
    col_stride: usize,
}

impl Dense {
    fn new((rows, cols): (usize, usize), t: DataType, order: Order, pad: usize, bytes: &[u8]) -> Dense {
        let ld = if order == ROW { cols } else { rows } + pad;
        let (row_stride, col_stride) = if order == ROW { (ld, 1) } else { (1, ld) };
        let count = if order == ROW { rows * ld } else { cols * ld };
        let buf = DevBuf::from_slice(bytes);
        assert_eq!(buf.bytes, if t == R4I { count.div_ceil(2) } else { count * t.size_bytes() as usize });
        let mut d = null_mut();
        let s = unsafe { oxsparseCreateDnMat(&mut d, rows as i64, cols as i64, ld as i64, buf.ptr as *mut c_void, t as i32, order as i32) };
        assert_eq!(s, OK, "oxsparseCreateDnMat");
        Dense { d, buf, row_stride, col_stride }
    }
}

impl Drop for Dense {
    fn drop(&mut self) {
        unsafe { oxsparseDestroyDnMat(self.d) };
    }
}

/// Storage elements of a rows x cols matrix with that order and padding.
fn storage((rows, cols): (usize, usize), order: Order, pad: usize) -> usize {
    if order == ROW {
        rows * (cols + pad)
    } else {
        cols * (rows + pad)
    }
}

#[derive(Clone, Copy, Debug)]
struct Case {
    /// Bits of A's and B's values.
    bits: (usize, usize),
    v: i32,
    m: usize,
    k: usize,
    n: usize,
    sparsity: u64,
    vectors: bool,
    orders: (Order, Order),
    pad: usize,
    out: DataType,
    index: IndexType,
    base: i64,
    mode: PointerMode,
    /// (alpha, beta); beta 0 runs over a poisoned C.
    scalars: (i32, i32),
    /// An FP32 scale per row (FP32 output only).
    row_scale: bool,
    /// Warps per vector row forced through `OXSPARSE_SRBCRS_SPLITS` (None: the planner's).
    splits: Option<u32>,
}

fn case(v: i32, (m, k, n): (usize, usize, usize), sparsity: u64) -> Case {
    Case {
        bits: (8, 8),
        v,
        m,
        k,
        n,
        sparsity,
        vectors: false,
        orders: (ROW, ROW),
        pad: 0,
        out: R32I,
        index: IndexType::OXSPARSE_INDEX_32I,
        base: 0,
        mode: PointerMode::OXSPARSE_POINTER_MODE_HOST,
        scalars: (-2, 3),
        row_scale: false,
        splits: None,
    }
}

fn cases() -> Vec<Case> {
    let mut all = vec![];
    let shapes = [
        (1, 1, 1),
        (2, 1, 1),
        (7, 33, 5),
        (33, 1, 17),
        (9, 64, 65),
        (100, 257, 64),
        (257, 100, 130),
        (1000, 1024, 1),
        (1023, 1000, 96),
        (64, 1024, 1024),
    ];
    let sparsities = [50, 70, 90, 98];
    for (i, &shape) in shapes.iter().enumerate() {
        for (j, v) in [2, 4, 8].into_iter().enumerate() {
            let t = i * 3 + j;
            let mut c = case(v, shape, sparsities[t % 4]);
            c.vectors = t % 2 == 1;
            c.orders = [(ROW, ROW), (COL, ROW), (ROW, COL), (COL, COL)][t % 4];
            c.pad = [0, 3, 0, 1, 16][t % 5];
            c.out = if t % 3 == 2 { R32F } else { R32I };
            c.index = if t % 2 == 0 { IndexType::OXSPARSE_INDEX_32I } else { IndexType::OXSPARSE_INDEX_64I };
            c.base = (t % 7 == 3) as i64;
            c.mode = if t % 4 == 1 { PointerMode::OXSPARSE_POINTER_MODE_DEVICE } else { PointerMode::OXSPARSE_POINTER_MODE_HOST };
            c.scalars = [(-2, 3), (1, 0), (3, -1), (-1, 0), (2, 1)][t % 5];
            all.push(c);
        }
    }
    // B row-major with 8-byte aligned rows: whole 64-column tiles read 8 bytes at a time, and an
    // edge tile (N = 200) read by bytes.
    for (i, v) in [2, 4, 8].into_iter().enumerate() {
        all.push(Case { vectors: i != 1, orders: (ROW, [ROW, COL, ROW][i]), ..case(v, (301, 517, 256), [60, 80, 95][i]) });
        let device = PointerMode::OXSPARSE_POINTER_MODE_DEVICE;
        all.push(Case { vectors: i == 1, out: R32F, mode: device, pad: 8, scalars: (3, -2), ..case(v, (77, 1000, 200), 90) });
    }
    // Dense and empty extremes: a full matrix, no entries, and an all-but-empty K.
    all.push(Case { vectors: true, ..case(8, (50, 40, 70), 0) });
    all.push(case(4, (77, 300, 20), 100));
    all.push(Case { out: R32F, scalars: (1, 0), ..case(2, (5, 1, 200), 50) });
    all.push(case(4, (0, 5, 3), 50));
    all.push(case(8, (4, 5, 0), 50));
    all.extend(pair_cases());
    all.extend(split_cases());
    all
}

/// Vector rows shared by 1 to 8 warps: rows of 15 to 90 stride blocks (shares that differ by
/// one), a partial last vector row, rows without blocks, both C orders (the split warps' sums
/// are stored along C's contiguous side), an edge column tile, int16 parts and int4's stride of
/// 64.
fn split_cases() -> Vec<Case> {
    let mut all = vec![];
    for (i, splits) in [1, 2, 4, 8].into_iter().enumerate() {
        let mut c = case([8, 4, 2, 8][i], (41, 3000, 200), [50, 70, 90, 98][i]);
        c.splits = Some(splits);
        c.orders = [(ROW, ROW), (ROW, COL), (COL, ROW), (COL, COL)][i];
        c.out = if i % 2 == 0 { R32I } else { R32F };
        c.scalars = [(-2, 3), (1, 0), (3, -1), (2, 1)][i];
        all.push(c);
        all.push(Case { bits: [(16, 16), (4, 4), (16, 8), (8, 4)][i], pad: 8, ..case([4, 8, 2, 8][i], (19, 2500, 70), 60) });
        let last = all.len() - 1;
        all[last].splits = Some(splits);
    }
    all.push(Case { splits: Some(8), ..case(4, (77, 300, 20), 100) });
    // Vector rows longer than the scaled int4 kernels take (2^16 vectors): the int4 pairs fall
    // back to sign-extended widening.
    for (i, bits) in [(4, 4), (8, 4), (16, 4)].into_iter().enumerate() {
        all.push(Case { bits, out: [R32I, R32F, R32I][i], ..case([2, 4, 8][i], (5, 70_000, 17), 0) });
    }
    all
}

/// Every (A bits, B bits) pair over a table of shapes: each pair meets every vector length, the
/// sparsities, both orders, padding, the aligned whole-tile path and its edge, row scales, and
/// the int4 stride of 64 (K just past a multiple, partial stride blocks).
fn pair_cases() -> Vec<Case> {
    let pairs = [(4, 4), (8, 4), (16, 4), (16, 8), (16, 16), (8, 8)];
    let shapes = [(1, 1, 1), (9, 65, 17), (33, 130, 64), (257, 100, 130), (100, 1024, 8), (1000, 129, 1), (64, 1000, 1024)];
    let mut all = vec![];
    for (p, &bits) in pairs.iter().enumerate() {
        for (i, &shape) in shapes.iter().enumerate() {
            let t = p * shapes.len() + i;
            let mut c = case([2, 4, 8][t % 3], shape, [50, 70, 90, 98][t % 4]);
            c.bits = bits;
            c.vectors = t % 2 == 0;
            c.orders = [(ROW, ROW), (COL, ROW), (ROW, COL), (COL, COL)][(t / 3) % 4];
            c.pad = [0, 8, 1, 0, 16][t % 5];
            c.out = if t % 3 == 1 { R32I } else { R32F };
            c.row_scale = c.out == R32F && t % 2 == 1;
            c.index = if t % 2 == 1 { IndexType::OXSPARSE_INDEX_32I } else { IndexType::OXSPARSE_INDEX_64I };
            c.base = (t % 5 == 2) as i64;
            c.mode = if t % 4 == 3 { PointerMode::OXSPARSE_POINTER_MODE_DEVICE } else { PointerMode::OXSPARSE_POINTER_MODE_HOST };
            c.scalars = [(-2, 3), (1, 0), (3, -1), (-1, 0), (2, 1)][t % 5];
            all.push(c);
        }
        // B row-major with aligned rows: whole 64-column tiles (one load of 8 elements per k),
        // then an edge tile read element by element.
        all.push(Case { bits, vectors: true, row_scale: true, out: R32F, ..case([2, 4, 8][p % 3], (301, 517, 256), 80) });
        all.push(Case { bits, pad: 8, ..case([8, 2, 4][p % 3], (77, 300, 200), 95) });
    }
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
        let dev = (mode == PointerMode::OXSPARSE_POINTER_MODE_DEVICE).then(|| DevBuf::from_slice(&bytes));
        ScalarArg(bytes, dev)
    }
    fn ptr(&self) -> *const c_void {
        self.1.as_ref().map_or(self.0.as_ptr() as *const c_void, |d| d.ptr as *const c_void)
    }
}

fn run(h: &CHandle, c: &Case, seed: u64) -> Result<(), String> {
    let mut rng = Rng::new(seed);
    h.set_tuning("OXSPARSE_SRBCRS_SPLITS", c.splits.map(|s| s.to_string()).as_deref());
    let (l_bits, r_bits) = c.bits;
    let a = random_csr(&mut rng, (c.m, c.k), c.sparsity, c.vectors.then_some(c.v as usize), l_bits);
    let (da, a_bufs) = upload(&a, c.index, c.base, int_type(l_bits));
    let mut obj = null_mut();
    expect(unsafe { oxsparseCreateSrBcrs(h.0, da, c.v, &mut obj) }, "oxsparseCreateSrBcrs")?;
    // The object owns its copy: A's arrays and descriptor go before it is used.
    unsafe { oxsparseDestroySpMat(da) };
    drop(a_bufs);
    let (got, nnz) = download_object(obj, l_bits);
    let want = SrBcrsHost::from_csr(&a.view(), c.v as usize, l_bits);
    let result = (|| {
        if nnz != a.val.len() as i64 || got != want {
            return Err(format!(
                "the GPU build differs from the reference layout (nnz {nnz}, vectors {} vs {})",
                got.vec_col.len(),
                want.vec_col.len()
            ));
        }
        let (ob, oc) = c.orders;
        let b_host: Vec<i16> = (0..storage((c.k, c.n), ob, c.pad)).map(|_| full_range(&mut rng, r_bits)).collect();
        let b = Dense::new((c.k, c.n), int_type(r_bits), ob, c.pad, &encode(&b_host, r_bits));
        // Scales of a few bits (exact products), some negative.
        let scale: Vec<f32> = (0..c.m).map(|_| (rng.below(129) as f32 - 64.0) / 32.0).collect();
        let _scale_buf = if c.row_scale {
            let d = DevBuf::from_slice(&scale.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
            expect(unsafe { oxsparseSrBcrsSetRowScale(h.0, obj, d.ptr as *const c_void) }, "oxsparseSrBcrsSetRowScale")?;
            Some(d)
        } else {
            None
        };
        let c_count = storage((c.m, c.n), oc, c.pad);
        let c_old: Vec<i32> = (0..c_count).map(|_| rng.below(2001) as i32 - 1000).collect();
        let c_bytes: Vec<u8> = if c.out == R32I {
            c_old.iter().flat_map(|x| x.to_le_bytes()).collect()
        } else {
            c_old.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect()
        };
        let dc = Dense::new((c.m, c.n), c.out, oc, c.pad, &c_bytes);
        let (alpha, beta) = c.scalars;
        if beta == 0 {
            dc.buf.poison(0xFF);
        }
        let before = dc.buf.to_vec::<u8>();
        let sa = ScalarArg::new(h, c.mode, scalar_bytes(c.out, alpha));
        let sb = ScalarArg::new(h, c.mode, scalar_bytes(c.out, beta));
        let mut size = usize::MAX;
        expect(unsafe { oxsparseSpMM_srBcrs_bufferSize(h.0, sa.ptr(), obj, b.d, sb.ptr(), dc.d, c.out as i32, &mut size) }, "bufferSize")?;
        let ws = DevBuf::poisoned(size, 0xFF);
        expect(
            unsafe { oxsparseSpMM_srBcrs_preprocess(h.0, sa.ptr(), obj, b.d, sb.ptr(), dc.d, c.out as i32, ws.ptr as *mut c_void) },
            "preprocess",
        )?;
        expect(
            unsafe { oxsparseSpMM_srBcrs(h.0, sa.ptr(), obj, b.d, sb.ptr(), dc.d, c.out as i32, ws.ptr as *mut c_void) },
            "oxsparseSpMM_srBcrs",
        )?;
        let after = dc.buf.to_vec::<u8>();
        let product = csr_times_dense(&a.view(), &DenseInt { values: &b_host, row_stride: b.row_stride, col_stride: b.col_stride }, c.n);
        let mut bad = 0;
        let mut first = String::new();
        for e in 0..c_count {
            let (i, j) = if oc == ROW { (e / dc.row_stride, e % dc.row_stride) } else { (e % dc.col_stride, e / dc.col_stride) };
            let word = |v: &[u8]| [v[4 * e], v[4 * e + 1], v[4 * e + 2], v[4 * e + 3]];
            let inside = i < c.m && j < c.n;
            let (ok, what) = match (inside, c.out == R32I) {
                // Padding of the leading dimension stays as it was.
                (false, _) => (word(&after) == word(&before), "padding changed".to_string()),
                (true, true) => {
                    let w = epilogue_i32(alpha, product[i * c.n + j], beta, i32::from_le_bytes(word(&before)));
                    let g = i32::from_le_bytes(word(&after));
                    (g == w, format!("got {g}, want {w}"))
                }
                (true, false) => {
                    let s = if c.row_scale { scale[i] } else { 1.0 };
                    let w = epilogue_f32(alpha as f32, s, product[i * c.n + j], beta as f32, f32::from_le_bytes(word(&before)));
                    let g = f32::from_le_bytes(word(&after));
                    (g.to_bits() == w.to_bits(), format!("got {g}, want {w}"))
                }
            };
            if !ok {
                bad += 1;
                if first.is_empty() {
                    first = format!("C({i}, {j}): {what}");
                }
            }
        }
        if bad > 0 {
            return Err(format!("{bad} wrong elements, first {first}"));
        }
        Ok(())
    })();
    unsafe { oxsparseDestroySrBcrs(obj) };
    result
}

#[test]
fn srbcrs_builds_and_multiplies_exactly() {
    let Some(_gpu) = gpu("SR-BCRS build and int8 SpMM") else { return };
    let h = CHandle::new();
    let mut failures = vec![];
    for (i, c) in cases().iter().enumerate() {
        if let Err(e) = run(&h, c, 600 + i as u64) {
            failures.push(format!("{c:?}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases().len(), failures.join("\n"));
}

/// Refused calls: the expected status, and C unchanged.
#[test]
fn srbcrs_refuses_bad_arguments() {
    let Some(_gpu) = gpu("SR-BCRS bad arguments") else { return };
    let h = CHandle::new();
    let status = |s: Status| s as i32;
    let mut rng = Rng::new(77);
    let a = random_csr(&mut rng, (10, 40), 60, None, 4);
    let i32i = IndexType::OXSPARSE_INDEX_32I;
    let (da, _ab) = upload(&a, i32i, 0, R8I);
    let (df, _fb) = upload(&a, i32i, 0, R32F);
    let mut rows = Vec::new();
    let mut obj = null_mut();
    for (v, want) in [
        (3, Status::OXSPARSE_STATUS_INVALID_VALUE),
        (0, Status::OXSPARSE_STATUS_INVALID_VALUE),
        (16, Status::OXSPARSE_STATUS_INVALID_VALUE),
        (-2, Status::OXSPARSE_STATUS_INVALID_VALUE),
    ] {
        rows.push((format!("vectorLength {v}"), unsafe { oxsparseCreateSrBcrs(h.0, da, v, &mut obj) }, status(want)));
    }
    rows.push((
        "float values".into(),
        unsafe { oxsparseCreateSrBcrs(h.0, df, 4, &mut obj) },
        status(Status::OXSPARSE_STATUS_NOT_SUPPORTED),
    ));
    rows.push((
        "NULL handle".into(),
        unsafe { oxsparseCreateSrBcrs(null_mut(), da, 4, &mut obj) },
        status(Status::OXSPARSE_STATUS_NOT_INITIALIZED),
    ));
    rows.push((
        "NULL matA".into(),
        unsafe { oxsparseCreateSrBcrs(h.0, null(), 4, &mut obj) },
        status(Status::OXSPARSE_STATUS_INVALID_VALUE),
    ));
    rows.push((
        "NULL output".into(),
        unsafe { oxsparseCreateSrBcrs(h.0, da, 4, null_mut()) },
        status(Status::OXSPARSE_STATUS_INVALID_VALUE),
    ));
    // A row with its columns out of order.
    let mut unsorted = Csr { rows: 2, cols: 8, ptr: vec![0, 2, 3], ind: vec![5, 1, 0], val: vec![3, -4, 7] };
    let (du, _ub) = upload(&unsorted, i32i, 0, R8I);
    rows.push((
        "unsorted columns".into(),
        unsafe { oxsparseCreateSrBcrs(h.0, du, 2, &mut obj) },
        status(Status::OXSPARSE_STATUS_INVALID_VALUE),
    ));
    unsorted.ind = vec![1, 9, 0];
    let (dr, _rb) = upload(&unsorted, i32i, 0, R8I);
    rows.push((
        "column out of range".into(),
        unsafe { oxsparseCreateSrBcrs(h.0, dr, 2, &mut obj) },
        status(Status::OXSPARSE_STATUS_INVALID_VALUE),
    ));
    assert!(obj.is_null(), "a refused creation wrote its output");

    let mut s = null_mut();
    assert_eq!(unsafe { oxsparseCreateSrBcrs(h.0, da, 4, &mut s) }, OK);
    let b = Dense::new((40, 8), R8I, ROW, 0, &vec![3u8; 320]);
    let bf = Dense::new((40, 8), R32F, ROW, 0, &vec![0u8; 1280]);
    let wrong_k = Dense::new((41, 8), R8I, ROW, 0, &vec![3u8; 328]);
    let c = Dense::new((10, 8), R32I, ROW, 0, &vec![0x5Au8; 320]);
    let wrong_m = Dense::new((9, 8), R32I, ROW, 0, &vec![0x5Au8; 288]);
    let one = 1i32.to_le_bytes();
    let (al, be) = (one.as_ptr() as *const c_void, one.as_ptr() as *const c_void);
    let call = |hh: oxsparseHandle_t,
                s: oxsparseSrBcrs_t,
                b: oxsparseDnMatDescr_t,
                c: oxsparseDnMatDescr_t,
                alpha: *const c_void,
                compute: DataType| unsafe { oxsparseSpMM_srBcrs(hh, alpha, s, b, be, c, compute as i32, null_mut()) };
    let inv = status(Status::OXSPARSE_STATUS_INVALID_VALUE);
    let uns = status(Status::OXSPARSE_STATUS_NOT_SUPPORTED);
    rows.push(("NULL handle".into(), call(null_mut(), s, b.d, c.d, al, R32I), status(Status::OXSPARSE_STATUS_NOT_INITIALIZED)));
    rows.push(("NULL object".into(), call(h.0, null_mut(), b.d, c.d, al, R32I), inv));
    rows.push(("NULL alpha".into(), call(h.0, s, b.d, c.d, null(), R32I), inv));
    rows.push(("B float".into(), call(h.0, s, bf.d, c.d, al, R32I), uns));
    rows.push(("compute float, C int32".into(), call(h.0, s, b.d, c.d, al, R32F), uns));
    rows.push(("compute int8".into(), call(h.0, s, b.d, c.d, al, R8I), uns));
    rows.push(("compute 99".into(), unsafe { oxsparseSpMM_srBcrs(h.0, al, s, b.d, be, c.d, 99, null_mut()) }, inv));
    rows.push(("B rows".into(), call(h.0, s, wrong_k.d, c.d, al, R32I), inv));
    rows.push(("C rows".into(), call(h.0, s, b.d, wrong_m.d, al, R32I), inv));
    let mut size = 7usize;
    rows.push((
        "bufferSize NULL size".into(),
        unsafe { oxsparseSpMM_srBcrs_bufferSize(h.0, al, s, b.d, be, c.d, R32I as i32, null_mut()) },
        inv,
    ));
    rows.push((
        "bufferSize B float".into(),
        unsafe { oxsparseSpMM_srBcrs_bufferSize(h.0, al, s, bf.d, be, c.d, R32I as i32, &mut size) },
        uns,
    ));
    rows.push((
        "preprocess C rows".into(),
        unsafe { oxsparseSpMM_srBcrs_preprocess(h.0, al, s, b.d, be, wrong_m.d, R32I as i32, null_mut()) },
        inv,
    ));
    rows.push((
        "GetInfo NULL".into(),
        unsafe {
            oxsparseSrBcrsGetInfo(
                null(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
            )
        },
        inv,
    ));
    assert_eq!(size, 7, "a refused bufferSize wrote its output");
    assert!(
        c.buf.to_vec::<u8>().iter().all(|&x| x == 0x5A) && wrong_m.buf.to_vec::<u8>().iter().all(|&x| x == 0x5A),
        "a refused call wrote C"
    );
    // Pairs, alignment and row scales: an int4 object takes int4 B only; int16 B must be 2-byte
    // aligned; a row scale needs FP32 C and a 4-byte aligned pointer.
    let (d4, _b4) = upload(&a, i32i, 0, R4I);
    let (d16, _b16) = upload(&a, i32i, 0, R16I);
    let (mut s4, mut s16) = (null_mut(), null_mut());
    assert_eq!(unsafe { oxsparseCreateSrBcrs(h.0, d4, 8, &mut s4) }, OK);
    assert_eq!(unsafe { oxsparseCreateSrBcrs(h.0, d16, 2, &mut s16) }, OK);
    let mut vt = -1;
    rows.push(("GetValueType".into(), unsafe { oxsparseSrBcrsGetValueType(s4, &mut vt) }, OK));
    rows.push(("GetValueType NULL output".into(), unsafe { oxsparseSrBcrsGetValueType(s4, null_mut()) }, inv));
    assert_eq!(vt, R4I as i32);
    let b16 = Dense::new((40, 8), R16I, ROW, 0, &vec![3u8; 640]);
    let b4 = Dense::new((40, 8), R4I, ROW, 0, &[0x35u8; 160]);
    rows.push(("int4 object, int8 B".into(), call(h.0, s4, b.d, c.d, al, R32I), uns));
    rows.push(("int4 object, int16 B".into(), call(h.0, s4, b16.d, c.d, al, R32I), uns));
    rows.push(("int8 object, int16 B".into(), call(h.0, s, b16.d, c.d, al, R32I), uns));
    // Misaligned int16 B is refused where its descriptor is made.
    let odd = DevBuf::from_slice(&[0u8; 642]);
    let mut b16_odd = null_mut();
    let st = unsafe { oxsparseCreateDnMat(&mut b16_odd, 40, 8, 8, (odd.ptr + 1) as *mut c_void, R16I as i32, ROW as i32) };
    rows.push(("int16 B misaligned (CreateDnMat)".into(), st, inv));
    let scale = DevBuf::from_slice(&[0u8; 48]);
    rows.push(("SetRowScale misaligned".into(), unsafe { oxsparseSrBcrsSetRowScale(h.0, s16, (scale.ptr + 2) as *const c_void) }, inv));
    rows.push((
        "SetRowScale NULL handle".into(),
        unsafe { oxsparseSrBcrsSetRowScale(null_mut(), s16, scale.ptr as *const c_void) },
        status(Status::OXSPARSE_STATUS_NOT_INITIALIZED),
    ));
    rows.push(("SetRowScale NULL object".into(), unsafe { oxsparseSrBcrsSetRowScale(h.0, null_mut(), scale.ptr as *const c_void) }, inv));
    rows.push(("SetRowScale".into(), unsafe { oxsparseSrBcrsSetRowScale(h.0, s16, scale.ptr as *const c_void) }, OK));
    rows.push(("row scale, int32 C".into(), call(h.0, s16, b4.d, c.d, al, R32I), uns));
    assert!(c.buf.to_vec::<u8>().iter().all(|&x| x == 0x5A), "a refused call wrote C");
    rows.push(("SetRowScale NULL (removed)".into(), unsafe { oxsparseSrBcrsSetRowScale(h.0, s16, std::ptr::null()) }, OK));
    rows.push(("row scale removed, int32 C".into(), call(h.0, s16, b4.d, c.d, al, R32I), OK));
    rows.push(("int8 object, int4 B".into(), call(h.0, s, b4.d, c.d, al, R32I), OK));
    unsafe {
        oxsparseDestroySrBcrs(s4);
        oxsparseDestroySrBcrs(s16);
        oxsparseDestroySpMat(d4);
        oxsparseDestroySpMat(d16);
    }
    assert_eq!(unsafe { oxsparseDestroySrBcrs(s) }, OK);
    rows.push(("destroyed object".into(), call(h.0, s, b.d, c.d, al, R32I), status(Status::OXSPARSE_STATUS_NOT_INITIALIZED)));
    rows.push(("destroyed twice".into(), unsafe { oxsparseDestroySrBcrs(s) }, status(Status::OXSPARSE_STATUS_NOT_INITIALIZED)));
    rows.push(("destroy NULL".into(), unsafe { oxsparseDestroySrBcrs(null()) }, OK));
    for d in [da, df, du, dr] {
        unsafe { oxsparseDestroySpMat(d) };
    }
    let wrong: Vec<String> = rows
        .iter()
        .filter(|(_, got, want)| got != want)
        .map(|(what, got, want)| format!("{what}: {} (want {})", status_name(*got), status_name(*want)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Throughput, for the record (not a check): `cargo test --release --test gpu_srbcrs -- --ignored
/// --nocapture srbcrs_throughput` prints the time per call and the effective rate, 2 nnz N / time,
/// of int8 SpMM into int32 on 4096 x 4096 matrices, vector-structured and unstructured.
#[test]
#[ignore]
fn srbcrs_throughput() {
    let Some(_gpu) = gpu("SR-BCRS throughput") else { return };
    let h = CHandle::new();
    let (m, k) = (4096, 4096);
    for vectors in [true, false] {
        for v in [2, 4, 8] {
            for sparsity in [70, 90, 98] {
                let mut rng = Rng::new(v as u64 * 100 + sparsity);
                let a = random_csr(&mut rng, (m, k), sparsity, vectors.then_some(v as usize), 8);
                let (da, _bufs) = upload(&a, IndexType::OXSPARSE_INDEX_32I, 0, R8I);
                let mut obj = null_mut();
                assert_eq!(unsafe { oxsparseCreateSrBcrs(h.0, da, v, &mut obj) }, OK);
                let mut stored = 0i64;
                unsafe {
                    oxsparseSrBcrsGetInfo(
                        obj,
                        null_mut(),
                        null_mut(),
                        null_mut(),
                        null_mut(),
                        null_mut(),
                        &mut stored,
                        null_mut(),
                        null_mut(),
                        null_mut(),
                    )
                };
                for n in [256, 1024] {
                    let b_host: Vec<u8> = (0..k * n).map(|_| rng.next_u64() as u8).collect();
                    let b = Dense::new((k, n), R8I, ROW, 0, &b_host);
                    let c = Dense::new((m, n), R32I, ROW, 0, &vec![0u8; m * n * 4]);
                    let (one, zero) = (1i32.to_le_bytes(), 0i32.to_le_bytes());
                    let call = || unsafe {
                        oxsparseSpMM_srBcrs(
                            h.0,
                            one.as_ptr() as *const c_void,
                            obj,
                            b.d,
                            zero.as_ptr() as *const c_void,
                            c.d,
                            R32I as i32,
                            null_mut(),
                        )
                    };
                    let seconds = seconds_per_call(call);
                    let rate = 2.0 * a.val.len() as f64 * n as f64 / seconds / 1e12;
                    let fill = a.val.len() as f64 / (stored as f64 * v as f64);
                    println!(
                        "{} V={v} sparsity {sparsity}% N={n}: nnz {} stored fill {:.2}, {:.3} ms, {rate:.2} effective TOP/s",
                        if vectors { "vectors     " } else { "unstructured" },
                        a.val.len(),
                        fill,
                        seconds * 1e3
                    );
                }
                unsafe { oxsparseDestroySrBcrs(obj) };
                unsafe { oxsparseDestroySpMat(da) };
            }
        }
    }
}

/// The pairs against each other, for the record (not a check): `cargo test --release --test
/// gpu_srbcrs -- --ignored --nocapture srbcrs_pair_throughput` prints the time per call of every
/// (A bits, B bits) pair on the same 4096 x 4096 pattern (V = 8, FP32 C), each pair beside the
/// next wider one: int4 and the mixed pairs should be faster.
#[test]
#[ignore]
fn srbcrs_pair_throughput() {
    let Some(_gpu) = gpu("SR-BCRS pair throughput") else { return };
    let h = CHandle::new();
    let (m, k, v) = (4096, 4096, 8);
    let pairs = [(16, 16), (16, 8), (16, 4), (8, 8), (8, 4), (4, 4)];
    for vectors in [true, false] {
        for sparsity in [70, 90, 98] {
            for n in [256, 1024] {
                let mut rng = Rng::new(sparsity * 10 + n as u64);
                // int4 values: the same matrix in every type.
                let a = random_csr(&mut rng, (m, k), sparsity, vectors.then_some(v as usize), 4);
                let mut times = vec![];
                for (l_bits, r_bits) in pairs {
                    let (da, _bufs) = upload(&a, IndexType::OXSPARSE_INDEX_32I, 0, int_type(l_bits));
                    let mut obj = null_mut();
                    assert_eq!(unsafe { oxsparseCreateSrBcrs(h.0, da, v, &mut obj) }, OK);
                    let b_host: Vec<i16> = (0..k * n).map(|_| full_range(&mut rng, r_bits)).collect();
                    let b = Dense::new((k, n), int_type(r_bits), ROW, 0, &encode(&b_host, r_bits));
                    let c = Dense::new((m, n), R32F, ROW, 0, &vec![0u8; m * n * 4]);
                    let (one, zero) = (1f32.to_le_bytes(), 0f32.to_le_bytes());
                    let call = || unsafe {
                        oxsparseSpMM_srBcrs(
                            h.0,
                            one.as_ptr() as *const c_void,
                            obj,
                            b.d,
                            zero.as_ptr() as *const c_void,
                            c.d,
                            R32F as i32,
                            null_mut(),
                        )
                    };
                    times.push(seconds_per_call(call));
                    unsafe { oxsparseDestroySrBcrs(obj) };
                    unsafe { oxsparseDestroySpMat(da) };
                }
                let line: Vec<String> = pairs
                    .iter()
                    .zip(&times)
                    .map(|((l, r), t)| format!("L{l}-R{r} {:.1} us ({:.2} TOP/s)", t * 1e6, 2.0 * a.val.len() as f64 * n as f64 / t / 1e12))
                    .collect();
                println!("{} sparsity {sparsity}% N={n}: {}", if vectors { "vectors     " } else { "unstructured" }, line.join(", "));
            }
        }
    }
}
