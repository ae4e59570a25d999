//! The native BRCV object (`oxsparseCreateBrcv`, `oxsparseBrcvGetInfo`, `oxsparseSpMM_brcv`,
//! issue 59) through the exported C functions: what the build stores against its CPU twin
//! (`oxsparse::reference::brcv`), and products against the float64 reference
//! `oxsparse::reference::spmm`.
//!
//! Matrices: bands of half-width 0 (diagonal) to 256, full or with holes (10-100% fill), off the
//! diagonal, block tridiagonal, banded plus a few far entries, duplicates, rectangular, empty, and
//! matrices that are not banded (all far entries). Every SpMM type combination, opB N / T / H, B
//! and C row- or column-major with padded leading dimensions, strided batches, 32- and 64-bit
//! indices, base 0 and 1, host and device scalars. A's arrays are freed before the product (the
//! object holds its own values). With beta == 0, C is poisoned (NaN) and must come back right; C's
//! padding and the gaps between batches must keep their bytes; a second run is bitwise the first.

mod common;
use common::bytes::{decode_element, encode};
use common::capi::{expect, CHandle, Scalar, OK};
use common::compare::{Tally, Tolerance};
use common::descr::{create_sparse, dn_mat, upload_arrays};
use common::*;
use oxsparse::descr::{FormatInfo, SpBatch};
use oxsparse::ffi::brcv::*;
use oxsparse::ffi::descr_dense::oxsparseDestroyDnMat;
use oxsparse::ffi::descr_sparse::{oxsparseCreateCsc, oxsparseDestroySpMat};
use oxsparse::ffi::*;
use oxsparse::ops::spmm::check::TYPE_COMBINATIONS;
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::spmm::{self as reference, BatchedDense, BatchedSparse};
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::{DataType, DataType::*, IndexBase, IndexType, Operation, Order, PointerMode, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

const N: Operation = Operation::OXSPARSE_OPERATION_NON_TRANSPOSE;
const T: Operation = Operation::OXSPARSE_OPERATION_TRANSPOSE;
const H: Operation = Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
const ROW: Order = Order::OXSPARSE_ORDER_ROW;
const COL: Order = Order::OXSPARSE_ORDER_COL;
const I32: IndexType = IndexType::OXSPARSE_INDEX_32I;
const I64: IndexType = IndexType::OXSPARSE_INDEX_64I;
const F32: (DataType, DataType, DataType) = (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F);
const F64: (DataType, DataType, DataType) = (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F);

#[derive(Clone, Copy, Debug)]
enum Pattern {
    /// Columns r - half ..= r + half, each kept with probability `fill` percent.
    Band { half: i64, fill: u64 },
    /// Columns r + from .. r + from + width (a band off the diagonal).
    Shifted { from: i64, width: i64 },
    /// Blocks of this many rows coupled with their own and the two neighbouring blocks' columns.
    BlockTridiagonal(i64),
    /// A full band of half-width `half`, and one entry in a random column in every `every`-th row.
    BandFar { half: i64, every: i64 },
    /// This many random columns a row, anywhere: not banded.
    Random(i64),
    /// A band of half-width `half` whose every entry is given twice.
    Duplicates(i64),
    /// No entries.
    Empty,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    pattern: Pattern,
    m: i64,
    k: i64,
    n: i64,
    types: (DataType, DataType, DataType),
    op_b: Operation,
    order_b: Order,
    order_c: Order,
    /// Added to the leading dimensions.
    pad: i64,
    /// Batch counts of B and C.
    batches: (i32, i32),
    index: IndexType,
    base: i64,
    beta_zero: bool,
    device_scalars: bool,
    /// Columns in increasing order within rows (else shuffled).
    sorted: bool,
    seed: u64,
}

impl Case {
    fn new(pattern: Pattern, (m, k, n): (i64, i64, i64)) -> Case {
        Case {
            pattern,
            m,
            k,
            n,
            types: F32,
            op_b: N,
            order_b: ROW,
            order_c: ROW,
            pad: 0,
            batches: (1, 1),
            index: I32,
            base: 0,
            beta_zero: true,
            device_scalars: false,
            sorted: false,
            seed: 1,
        }
    }
}

/// Each row's columns (0-based).
fn columns(c: &Case, rng: &mut Rng) -> Vec<Vec<i64>> {
    let clip = |v: Vec<i64>| -> Vec<i64> { v.into_iter().filter(|&x| x >= 0 && x < c.k).collect() };
    (0..c.m)
        .map(|r| match c.pattern {
            Pattern::Band { half, fill } => clip((r - half..=r + half).filter(|_| rng.below(100) < fill).collect()),
            Pattern::Shifted { from, width } => clip((r + from..r + from + width).collect()),
            Pattern::BlockTridiagonal(b) => clip((b * (r / b - 1)..b * (r / b + 2)).collect()),
            Pattern::BandFar { half, every } => {
                let mut v = clip((r - half..=r + half).collect());
                if r % every == 0 && c.k > 0 {
                    let far = rng.below(c.k as u64) as i64;
                    if !v.contains(&far) {
                        v.push(far);
                    }
                }
                v
            }
            Pattern::Random(per_row) => {
                let mut v = vec![];
                while (v.len() as i64) < per_row.min(c.k) {
                    let x = rng.below(c.k as u64) as i64;
                    if !v.contains(&x) {
                        v.push(x);
                    }
                }
                v
            }
            Pattern::Duplicates(half) => {
                let v = clip((r - half..=r + half).collect());
                v.iter().chain(v.iter()).copied().collect()
            }
            Pattern::Empty => vec![],
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|mut v| {
            if c.sorted {
                v.sort();
            } else {
                values::shuffle(rng, &mut v);
            }
            v
        })
        .collect()
}

/// alpha and beta exact in the compute type (beta 0 when asked).
fn scalars(c: &Case) -> (Value, Value) {
    let compute = c.types.2;
    let (alpha, beta) = match compute {
        CUDA_R_32I => ((2.0, 0.0), (-1.0, 0.0)),
        t if t.is_complex() => ((1.25, -0.5), (-0.75, 0.25)),
        _ => ((1.25, 0.0), (-0.75, 0.0)),
    };
    (alpha, if c.beta_zero { ZERO } else { beta })
}

fn tolerance(c: &Case) -> Tolerance {
    let rel = match c.types.2 {
        CUDA_R_64F | CUDA_C_64F => 1e-12,
        CUDA_R_32I => 0.0,
        _ => 1e-5,
    };
    Tolerance::new(rel, c.types.1)
}

/// A dense operand of `count` batches with its bytes (`gen::dense`: padding 0xFF, random values or
/// all poison when not `fill`), leading dimension padded by the case's `pad`, batches 3 apart.
fn dense(rng: &mut Rng, c: &Case, (rows, cols): (i64, i64), order: Order, count: i32, t: DataType, fill: bool) -> (BatchedDense, Vec<u8>) {
    let (line, lines) = if order == ROW { (cols, rows) } else { (rows, cols) };
    let ld = line.max(1) + c.pad;
    gen::dense(rng, (rows, cols), order, ld, count, ld * lines + 3, t, fill)
}

/// Creates the object, checks what it stores against the twin, frees A, multiplies twice and
/// checks C.
fn run(h: &CHandle, c: &Case) -> Result<(), String> {
    let mut rng = Rng::new(c.seed);
    let vt = c.types.0;
    let rows = columns(c, &mut rng);
    let mut offsets = vec![c.base];
    let mut indices = vec![];
    for r in &rows {
        indices.extend(r.iter().map(|&x| x + c.base));
        offsets.push(indices.len() as i64 + c.base);
    }
    let nnz = indices.len() as i64;
    let host = HostSparse {
        format: FormatInfo::Csr,
        rows: c.m,
        cols: c.k,
        base: c.base,
        offsets,
        indices,
        values: values::random(&mut rng, vt, nnz as usize),
    };
    let twin = oxsparse::reference::brcv::layout(c.m, c.k, &host.offsets, &host.indices, c.base);
    let a = BatchedSparse { m: host.clone(), nnz, batch: SpBatch { count: 1, offsets_stride: 0, indices_stride: 0, values_stride: 0 } };

    // The object, from A's arrays, which go before the product.
    let brcv = {
        let arrays = upload_arrays(&host, vt, c.index);
        let base = if c.base == 1 { IndexBase::OXSPARSE_INDEX_BASE_ONE } else { IndexBase::OXSPARSE_INDEX_BASE_ZERO };
        let mut d = null_mut();
        expect(unsafe { create_sparse(&mut d, &host, &arrays, nnz, (vt, c.index, base)) }, "oxsparseCreateCsr")?;
        let mut brcv = null_mut();
        let s = unsafe { oxsparseCreateBrcv(h.0, d, &mut brcv) };
        unsafe { oxsparseDestroySpMat(d) };
        expect(s, "oxsparseCreateBrcv")?;
        brcv
    };
    let mut info = [-1i64; 6];
    let [m, k, entries, band_values, far, widest] = info.each_mut();
    expect(unsafe { oxsparseBrcvGetInfo(brcv, m, k, entries, band_values, far, widest) }, "oxsparseBrcvGetInfo")?;
    let want = [c.m, c.k, nnz, twin.values as i64, twin.far as i64, twin.widest as i64];
    let result = if info != want {
        Err(format!("GetInfo (rows, cols, nnz, band values, far, widest) = {info:?}, the twin says {want:?}"))
    } else {
        multiply(h, c, brcv, &a, &mut rng)
    };
    assert_eq!(unsafe { oxsparseDestroyBrcv(brcv) }, OK);
    result.map_err(|e| format!("{c:?}: {e}"))
}

fn multiply(h: &CHandle, c: &Case, brcv: oxsparseBrcv_t, a: &BatchedSparse, rng: &mut Rng) -> Result<(), String> {
    let (vt, ct, compute) = c.types;
    let b_shape = if c.op_b == N { (c.k, c.n) } else { (c.n, c.k) };
    let (b, b_bytes) = dense(rng, c, b_shape, c.order_b, c.batches.0, vt, true);
    let (cm, c_bytes) = dense(rng, c, (c.m, c.n), c.order_c, c.batches.1, ct, !c.beta_zero);
    let (b_buf, c_buf) = (DevBuf::from_slice(&b_bytes), DevBuf::from_slice(&c_bytes));
    let (bd, cd) = unsafe { (dn_mat(&b, b_buf.ptr, vt)?, dn_mat(&cm, c_buf.ptr, ct)?) };
    let (alpha, beta) = scalars(c);
    let mode = if c.device_scalars { PointerMode::OXSPARSE_POINTER_MODE_DEVICE } else { PointerMode::OXSPARSE_POINTER_MODE_HOST };
    h.set_mode(mode);
    let (sa, sb) = (Scalar::new(mode, compute, alpha), Scalar::new(mode, compute, beta));
    let call = || -> Result<Vec<u8>, String> {
        c_buf.write_ordered(&c_bytes);
        let s = unsafe { oxsparseSpMM_brcv(h.0, N as i32, c.op_b as i32, sa.ptr(), brcv, bd, sb.ptr(), cd, compute as i32) };
        expect(s, "oxsparseSpMM_brcv")?;
        Ok(c_buf.to_vec::<u8>())
    };
    let first = call();
    let second = call();
    h.set_mode(PointerMode::OXSPARSE_POINTER_MODE_HOST);
    unsafe {
        oxsparseDestroyDnMat(bd);
        oxsparseDestroyDnMat(cd);
    }
    let (first, second) = (first?, second?);

    let mut want = cm.clone();
    reference::spmm(N, c.op_b, alpha, a, &b, beta, &mut want);
    let scale = reference::error_scale(N, c.op_b, alpha, a, &b, beta, &cm);
    let w = ct.size_bytes() as usize;
    let tol = tolerance(c);
    let mut logical = vec![false; want.values.len()];
    let mut tally = Tally::default();
    for batch in 0..cm.count {
        for i in 0..cm.rows {
            for j in 0..cm.cols {
                let at = cm.index(batch, i, j);
                logical[at] = true;
                let got = decode_element(ct, &first[at * w..(at + 1) * w]);
                tally.check(&tol, got, want.values[at], scale[at], || format!("C[batch {batch}][{i}][{j}]"));
            }
        }
    }
    tally.result()?;
    if let Some(at) = (0..logical.len()).find(|&at| !logical[at] && first[at * w..(at + 1) * w] != c_bytes[at * w..(at + 1) * w]) {
        return Err(format!("C element {at}, outside the matrices, was written"));
    }
    if first != second {
        return Err("a second run differs bitwise from the first".into());
    }
    Ok(())
}

fn sweep(test: &str, cases: &[Case]) {
    let Some(_gpu) = gpu(test) else { return };
    let h = CHandle::new();
    let failures: Vec<String> = cases.iter().filter_map(|c| run(&h, c).err()).collect();
    assert!(failures.is_empty(), "{test}: {} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// Half-widths 0 to 256, full and with holes, FP32 and FP64, N around the column tiles' edges.
#[test]
fn bands_match_the_reference() {
    let mut cases = vec![];
    let halves = [0, 1, 7, 16, 33, 64, 100, 256];
    let fills = [100, 50, 10];
    let ns = [1, 7, 32, 33, 64, 100, 130];
    for (i, &half) in halves.iter().enumerate() {
        for (j, &fill) in fills.iter().enumerate() {
            let x = i * 3 + j;
            let m = [1000, 77, 129, 64, 1][x % 5];
            cases.push(Case {
                types: if x % 2 == 0 { F32 } else { F64 },
                order_b: if x % 3 == 0 { COL } else { ROW },
                order_c: if x % 4 == 1 { COL } else { ROW },
                beta_zero: x % 3 != 2,
                sorted: x % 2 == 1,
                seed: 100 + x as u64,
                ..Case::new(Pattern::Band { half, fill }, (m, m, ns[x % ns.len()]))
            });
        }
    }
    // A taller matrix: many row blocks, chunks of the widest bands.
    cases.push(Case { seed: 7, ..Case::new(Pattern::Band { half: 16, fill: 100 }, (20_000, 20_000, 64)) });
    cases.push(Case { seed: 8, types: F64, ..Case::new(Pattern::Band { half: 64, fill: 60 }, (5_000, 5_000, 40)) });
    sweep("brcv bands", &cases);
}

/// Every SpMM type combination on a band with holes and far entries, opB N / T (H for complex),
/// both orders, beta 0 and not.
#[test]
fn every_type_matches_the_reference() {
    let mut cases = vec![];
    for (i, &types) in TYPE_COMBINATIONS.iter().enumerate() {
        for (j, op_b) in [N, T, H].into_iter().enumerate() {
            if op_b == H && !types.0.is_complex() {
                continue;
            }
            let x = i * 3 + j;
            cases.push(Case {
                types,
                op_b,
                order_b: if x % 2 == 0 { ROW } else { COL },
                order_c: if x % 3 == 0 { COL } else { ROW },
                beta_zero: x % 2 == 1,
                pad: (x % 3) as i64,
                seed: 200 + x as u64,
                ..Case::new(Pattern::BandFar { half: 9, every: 13 }, (300, 300, [16, 33, 48][x % 3]))
            });
        }
    }
    sweep("brcv types", &cases);
}

/// Shapes other than a square band around the diagonal: off the diagonal, block tridiagonal, far
/// entries, duplicates, rectangular, empty, and matrices that are not banded.
#[test]
fn patterns_and_shapes_match_the_reference() {
    let p = |pattern, shape| Case::new(pattern, shape);
    let cases = [
        p(Pattern::Shifted { from: 300, width: 40 }, (500, 1000, 32)),
        p(Pattern::Shifted { from: -700, width: 17 }, (900, 400, 20)),
        p(Pattern::BlockTridiagonal(16), (640, 640, 64)),
        Case { types: F64, ..p(Pattern::BlockTridiagonal(48), (1000, 1000, 24)) },
        p(Pattern::BandFar { half: 16, every: 50 }, (3000, 3000, 64)),
        Case { order_c: COL, ..p(Pattern::BandFar { half: 64, every: 7 }, (700, 700, 33)) },
        p(Pattern::Duplicates(5), (200, 200, 16)),
        p(Pattern::Band { half: 16, fill: 100 }, (300, 5000, 64)),
        p(Pattern::Band { half: 16, fill: 100 }, (5000, 300, 64)),
        p(Pattern::Band { half: 3, fill: 100 }, (1, 1, 1)),
        p(Pattern::Random(5), (1000, 100_000, 32)),
        Case { types: F64, ..p(Pattern::Random(40), (500, 600, 17)) },
        p(Pattern::Random(3), (130, 200_000, 8)),
        p(Pattern::Empty, (100, 100, 32)),
        Case { beta_zero: false, ..p(Pattern::Empty, (100, 100, 32)) },
        p(Pattern::Empty, (0, 10, 32)),
        p(Pattern::Band { half: 4, fill: 100 }, (50, 50, 0)),
        Case { beta_zero: false, ..p(Pattern::Empty, (10, 0, 5)) },
    ];
    sweep("brcv patterns", &cases);
}

/// Strided batches of C with B shared or batched, 64-bit indices, base 1, device scalars, padded
/// leading dimensions.
#[test]
fn batches_indices_and_scalars() {
    let band = Pattern::Band { half: 12, fill: 70 };
    let cases = [
        Case { batches: (1, 3), ..Case::new(band, (400, 400, 40)) },
        Case { batches: (3, 3), order_b: COL, beta_zero: false, ..Case::new(band, (400, 400, 40)) },
        Case { batches: (2, 2), types: F64, op_b: T, pad: 5, ..Case::new(band, (129, 129, 70)) },
        Case { index: I64, base: 1, ..Case::new(band, (700, 700, 64)) },
        Case { index: I64, device_scalars: true, beta_zero: false, ..Case::new(band, (700, 700, 64)) },
        Case { base: 1, device_scalars: true, pad: 3, order_c: COL, ..Case::new(Pattern::BandFar { half: 20, every: 9 }, (333, 333, 31)) },
    ];
    sweep("brcv batches", &cases);
}

/// Refused calls return their status and leave C as it was; CSC, batched A and 16-bit indices are
/// not taken.
#[test]
fn refusals() {
    let Some(_gpu) = gpu("brcv refusals") else { return };
    let h = CHandle::new();
    let st = |s: Status| s as i32;
    let (m, k, n) = (64i64, 48i64, 8i64);
    let offsets = DevBuf::from_slice(&(0..=m as i32).collect::<Vec<i32>>());
    let cols = DevBuf::from_slice(&(0..m as i32).map(|r| r % k as i32).collect::<Vec<i32>>());
    let vals = DevBuf::from_slice(&vec![1.5f32; m as usize]);
    let (r32, i32t) = (CUDA_R_32F as i32, I32 as i32);
    let ptr = |b: &DevBuf| b.ptr as *mut c_void;
    let mut csc = null_mut();
    assert_eq!(unsafe { oxsparseCreateCsc(&mut csc, k, m, m, ptr(&offsets), ptr(&cols), ptr(&vals), i32t, i32t, 0, r32) }, OK);
    let mut brcv = null_mut();
    assert_eq!(unsafe { oxsparseCreateBrcv(h.0, csc, &mut brcv) }, st(Status::OXSPARSE_STATUS_NOT_SUPPORTED), "CSC");
    assert!(brcv.is_null(), "a refused create wrote its output");
    unsafe { oxsparseDestroySpMat(csc) };
    let arrays = [offsets, cols, vals];
    let a = unsafe { common::descr::csr_f32(m, k, m, &arrays) };
    assert_eq!(unsafe { oxsparseCreateBrcv(h.0, a, null_mut()) }, st(Status::OXSPARSE_STATUS_INVALID_VALUE), "NULL output");
    assert_eq!(unsafe { oxsparseCreateBrcv(h.0, a, &mut brcv) }, OK);
    unsafe { oxsparseDestroySpMat(a) };

    let b = DevBuf::from_slice(&vec![0.5f32; (k * n) as usize]);
    let c = DevBuf::from_slice(&encode(CUDA_R_32F, &vec![(3.0, 0.0); (m * n) as usize]));
    let before = c.to_vec::<u8>();
    let (bd, cd, c7) =
        unsafe { (common::descr::dn_mat_f32(k, n, &b), common::descr::dn_mat_f32(m, n, &c), common::descr::dn_mat_f32(m - 1, n, &c)) };
    let (one, zero) = common::descr::one_zero();
    let call = |op_a: Operation, c: oxsparseDnMatDescr_t, compute: DataType| unsafe {
        oxsparseSpMM_brcv(h.0, op_a as i32, N as i32, one, brcv, bd, zero, c, compute as i32)
    };
    assert_eq!(call(T, cd, CUDA_R_32F), st(Status::OXSPARSE_STATUS_NOT_SUPPORTED), "opA = T");
    assert_eq!(call(N, c7, CUDA_R_32F), st(Status::OXSPARSE_STATUS_INVALID_VALUE), "C of m - 1 rows");
    assert_eq!(call(N, cd, CUDA_R_64F), st(Status::OXSPARSE_STATUS_NOT_SUPPORTED), "FP64 compute for FP32 operands");
    let s = unsafe { oxsparseSpMM_brcv(h.0, 0, 0, one, brcv as oxsparseConstBrcv_t, bd, std::ptr::null(), cd, r32) };
    assert_eq!(s, st(Status::OXSPARSE_STATUS_INVALID_VALUE), "beta NULL");
    assert!(c.to_vec::<u8>() == before, "a refused call wrote C");
    // And a valid call writes it: row r of A holds 1.5 at column r % k, B is all 0.5.
    assert_eq!(call(N, cd, CUDA_R_32F), OK);
    assert!(c.to_vec::<f32>().iter().all(|&x| x == 0.75), "C = A B");
    unsafe {
        oxsparseDestroyDnMat(bd);
        oxsparseDestroyDnMat(cd);
        oxsparseDestroyDnMat(c7);
    }
    assert_eq!(unsafe { oxsparseDestroyBrcv(brcv) }, OK);
    assert_eq!(unsafe { oxsparseDestroyBrcv(brcv) }, st(Status::OXSPARSE_STATUS_NOT_INITIALIZED), "destroyed twice");
}

/// An infinite row of B reaches exactly the output rows whose band holds its column: the kernel
/// multiplies a row's own offsets only, never another row's B values by a zero.
#[test]
fn an_infinite_b_row_stays_in_its_band() {
    let Some(_gpu) = gpu("brcv infinite B row") else { return };
    let h = CHandle::new();
    let (m, n, half, inf_row) = (300i64, 8i64, 2i64, 150i64);
    let mut rng = Rng::new(31);
    let mut a = gen::CsrF32 { rows: m as usize, cols: m as usize, offsets: vec![0], indices: vec![], values: vec![] };
    for r in 0..m {
        for c in (r - half..=r + half).filter(|&c| (0..m).contains(&c)) {
            a.indices.push(c as i32);
            a.values.push(0.25 + rng.below(1000) as f32 / 1000.0);
        }
        a.offsets.push(a.indices.len() as i32);
    }
    let mut b: Vec<f32> = (0..m * n).map(|_| rng.below(2000) as f32 / 1000.0 - 1.0).collect();
    b[(inf_row * n) as usize..((inf_row + 1) * n) as usize].fill(f32::INFINITY);
    let arrays = a.upload();
    let (b_buf, c_buf) = (DevBuf::from_slice(&b), DevBuf::from_slice(&vec![f32::NAN; (m * n) as usize]));
    let a_descr = unsafe { common::descr::csr_f32(m, m, a.nnz() as i64, &arrays) };
    let mut brcv = null_mut();
    assert_eq!(unsafe { oxsparseCreateBrcv(h.0, a_descr, &mut brcv) }, OK);
    let (bd, cd) = unsafe { (common::descr::dn_mat_f32(m, n, &b_buf), common::descr::dn_mat_f32(m, n, &c_buf)) };
    let (one, zero) = common::descr::one_zero();
    let s = unsafe { oxsparseSpMM_brcv(h.0, N as i32, N as i32, one, brcv, bd, zero, cd, CUDA_R_32F as i32) };
    unsafe {
        oxsparseDestroyDnMat(bd);
        oxsparseDestroyDnMat(cd);
        oxsparseDestroySpMat(a_descr);
    }
    assert_eq!(unsafe { oxsparseDestroyBrcv(brcv) }, OK);
    assert_eq!(s, OK);
    let got = c_buf.to_vec::<f32>();
    let (want, scale) = a.product(&a.values, &b, n as usize);
    for r in 0..m {
        for j in 0..n {
            let at = (r * n + j) as usize;
            let x = got[at] as f64;
            if (r - inf_row).abs() <= half {
                assert!(x == f64::INFINITY, "C[{r}][{j}] = {x}: its band holds the infinite row");
            } else {
                assert!(
                    (x - want[at]).abs() <= 1e-5 * scale[at],
                    "C[{r}][{j}] = {x}, want {}: the infinite row is outside its band",
                    want[at]
                );
            }
        }
    }
}
