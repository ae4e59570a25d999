//! Refused SDDMM calls, one thing wrong at a time, on the status fixture (`common::descr`): C 4 x 6
//! over one zeroed buffer (CSR of 4 entries, BSR of two 2 x 2 blocks), A 4 x 5 and B 5 x 6 over
//! the same zeros, alpha = beta = 0 (an accepted call reads neither A nor B and writes zeros over
//! zeros). All three entry points must answer alike, and a refused bufferSize leaves its output.

use super::harness::*;
use super::*;
use crate::common::descr::{DnMats, StatusFixture};
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::descr_sparse_access::{oxsparseBsrSetStridedBatch, oxsparseCsrSetStridedBatch};
use oxsparse::ffi::*;
use oxsparse::types::Status::{self, *};
use oxsparse::types::{DataType, DataType::*, IndexType, Order};
use std::ffi::c_void;
use std::ptr::{null, null_mut};

type Fixture = StatusFixture<DnMats>;
const SUCCESS: Status = OXSPARSE_STATUS_SUCCESS;
const INVALID: Status = OXSPARSE_STATUS_INVALID_VALUE;
const UNSUPPORTED: Status = OXSPARSE_STATUS_NOT_SUPPORTED;
const U16: IndexType = IndexType::OXSPARSE_INDEX_16U;
const R32F: DataType = CUDA_R_32F;
/// Zero in every compute type (host pointer mode).
static ZERO_SCALAR: [u64; 2] = [0, 0];

fn args(a: oxsparseDnMatDescr_t, b: oxsparseDnMatDescr_t, c: oxsparseSpMatDescr_t, compute: DataType) -> Args {
    let s = ZERO_SCALAR.as_ptr() as *const c_void;
    Args { op_a: 0, op_b: 0, alpha: s, a, b, beta: s, c, compute: compute as i32, alg: 0 }
}

/// All three calls answer `want`.
fn expect(f: &mut Fixture, what: &str, args: Args, want: Status) {
    let mut size = 4242usize;
    let ws = f.ws.ptr as *mut c_void;
    let got = unsafe { [args.buffer_size(&f.h, &mut size), args.preprocess(&f.h, ws), args.sddmm(&f.h, ws)] };
    f.record(what, &[("bufferSize", got[0]), ("preprocess", got[1]), ("SDDMM", got[2])], want, size);
}

/// A 4 x 5 and B 5 x 6 of `t` (A row-major, B column-major: read in place).
fn operands(f: &mut Fixture, t: DataType) -> (oxsparseDnMatDescr_t, oxsparseDnMatDescr_t) {
    (f.dn((4, 5), t, ROW, 1), f.dn((5, 6), t, COL, 1))
}

#[test]
fn refused_arguments() {
    let Some(_gpu) = gpu("sddmm refused arguments") else { return };
    let mut f = Fixture::new();
    let c = f.csr(false, (4, 6), (I32, I32), R32F);
    let (a, b) = operands(&mut f, R32F);
    let ok = args(a, b, c, R32F);
    expect(&mut f, "valid arguments", ok, SUCCESS);
    expect(&mut f, "NULL matA", Args { a: null(), ..ok }, INVALID);
    expect(&mut f, "NULL matB", Args { b: null(), ..ok }, INVALID);
    expect(&mut f, "NULL matC", Args { c: null_mut(), ..ok }, INVALID);
    expect(&mut f, "NULL alpha", Args { alpha: null(), ..ok }, INVALID);
    expect(&mut f, "NULL beta", Args { beta: null(), ..ok }, INVALID);
    for op in [3, -1, 99] {
        expect(&mut f, &format!("opA {op}"), Args { op_a: op, ..ok }, INVALID);
        expect(&mut f, &format!("opB {op}"), Args { op_b: op, ..ok }, INVALID);
    }
    for alg in [1, 2, -1] {
        expect(&mut f, &format!("alg {alg}"), Args { alg, ..ok }, INVALID);
    }
    expect(&mut f, "computeType 99", Args { compute: 99, ..ok }, INVALID);
    // op(A) is 4 x 5, op(B) 5 x 6, C 4 x 6.
    let a5 = f.dn((5, 5), R32F, ROW, 1);
    expect(&mut f, "A has 5 rows for m = 4", Args { a: a5, ..ok }, INVALID);
    let b4 = f.dn((4, 6), R32F, COL, 1);
    expect(&mut f, "B has 4 rows for k = 5", Args { b: b4, ..ok }, INVALID);
    let b7 = f.dn((5, 7), R32F, COL, 1);
    expect(&mut f, "B has 7 columns for n = 6", Args { b: b7, ..ok }, INVALID);
    expect(&mut f, "opA = T makes op(A) 5 x 4", Args { op_a: T as i32, ..ok }, INVALID);
    expect(&mut f, "opB = T makes op(B) 6 x 5", Args { op_b: T as i32, ..ok }, INVALID);
    let c46 = f.dn((4, 6), R32F, ROW, 1);
    expect(&mut f, "matC is a dense descriptor", Args { c: c46 as oxsparseSpMatDescr_t, ..ok }, INVALID);
    expect(&mut f, "matA is a sparse descriptor", Args { a: c as oxsparseConstDnMatDescr_t, ..ok }, INVALID);
    let gone = f.dn((5, 6), R32F, COL, 1);
    f.dense.0.pop();
    unsafe { oxsparseDestroyDnMat(gone) };
    expect(&mut f, "matB destroyed", Args { b: gone, ..ok }, OXSPARSE_STATUS_NOT_INITIALIZED);
    let s = unsafe { ok.buffer_size(&f.h, null_mut()) };
    if s != INVALID as i32 {
        f.failures.push(format!("NULL bufferSize: returned {}", status_name(s)));
    }
    f.finish("refused_arguments");
}

/// Every (A/B, C, compute) triple of cudaDataTypes over CSR and BSR: accepted exactly when listed
/// in `harness::COMBOS`; A and B of different types refused.
#[test]
fn value_type_combinations() {
    let Some(_gpu) = gpu("sddmm value type combinations") else { return };
    let mut f = Fixture::new();
    let all = DataType::ALL;
    let ab: Vec<_> = all.iter().map(|&t| operands(&mut f, t)).collect();
    for bsr in [false, true] {
        for &ct in all {
            let c = if bsr { f.bsr(ROW, (I32, I32), ct) } else { f.csr(false, (4, 6), (I32, I32), ct) };
            for (ti, &t) in all.iter().enumerate() {
                for &compute in all {
                    let want = if COMBOS.contains(&(t, ct, compute)) { SUCCESS } else { UNSUPPORTED };
                    expect(&mut f, &format!("BSR {bsr} {t:?}/{ct:?}/{compute:?}"), args(ab[ti].0, ab[ti].1, c, compute), want);
                }
            }
            for &(t, _, compute) in COMBOS.iter().filter(|x| x.1 == ct) {
                let ti = all.iter().position(|&x| x == t).unwrap();
                for (bi, &tb) in all.iter().enumerate().filter(|x| *x.1 != t) {
                    let what = format!("BSR {bsr} A {t:?}, B {tb:?}, C {ct:?}/{compute:?}");
                    expect(&mut f, &what, args(ab[ti].0, ab[bi].1, c, compute), UNSUPPORTED);
                }
            }
        }
    }
    f.finish("value_type_combinations");
}

#[test]
fn refused_formats_operations_and_index_types() {
    let Some(_gpu) = gpu("sddmm refused formats, operations and index types") else { return };
    let mut f = Fixture::new();
    for vt in [R32F, CUDA_C_32F] {
        let (a, b) = operands(&mut f, vt);
        // Only CSR and BSR C.
        let others = [("CSC", f.csr(true, (4, 6), (I32, I32), vt)), ("COO", f.coo((4, 6), I32, vt)), ("Blocked-ELL", f.bell(I32, vt))];
        for (what, c) in others.into_iter().chain([("Sliced-ELL", f.sell((I32, I32), vt))]) {
            expect(&mut f, &format!("{what} C, {vt:?}"), args(a, b, c, vt), UNSUPPORTED);
        }
        // T is taken, CONJUGATE_TRANSPOSE not (even for real values), with shapes that agree.
        let (at, bt) = (f.dn((5, 4), vt, COL, 1), f.dn((6, 5), vt, ROW, 1));
        for c in [f.csr(false, (4, 6), (I32, I32), vt), f.bsr(COL, (I32, I32), vt)] {
            let (op_t, op_h) = (T as i32, H as i32);
            expect(&mut f, &format!("{vt:?} opA T"), Args { op_a: op_t, a: at, ..args(a, b, c, vt) }, SUCCESS);
            expect(&mut f, &format!("{vt:?} opB T"), Args { op_b: op_t, b: bt, ..args(a, b, c, vt) }, SUCCESS);
            expect(&mut f, &format!("{vt:?} opA H"), Args { op_a: op_h, a: at, ..args(a, b, c, vt) }, UNSUPPORTED);
            expect(&mut f, &format!("{vt:?} opB H"), Args { op_b: op_h, b: bt, ..args(a, b, c, vt) }, UNSUPPORTED);
        }
    }
    // Offsets and indices of one type, 32I or 64I.
    let (a, b) = operands(&mut f, R32F);
    let matrices = [
        ("CSR 32I/64I", f.csr(false, (4, 6), (I32, I64), R32F), UNSUPPORTED),
        ("CSR 64I/32I", f.csr(false, (4, 6), (I64, I32), R32F), UNSUPPORTED),
        ("CSR 16U", f.csr(false, (4, 6), (U16, U16), R32F), UNSUPPORTED),
        ("BSR 32I/64I", f.bsr(ROW, (I32, I64), R32F), UNSUPPORTED),
        ("BSR 16U", f.bsr(ROW, (U16, U16), R32F), UNSUPPORTED),
        ("CSR 64I", f.csr(false, (4, 6), (I64, I64), R32F), SUCCESS),
        ("BSR 64I", f.bsr(COL, (I64, I64), R32F), SUCCESS),
    ];
    for (what, c, want) in matrices {
        expect(&mut f, what, args(a, b, c, R32F), want);
    }
    f.finish("refused_formats_operations_and_index_types");
}

/// C's count is the call's, A's and B's 1 or the same; C's batches may not overlap; at most 65,535.
#[test]
fn batch_counts() {
    let Some(_gpu) = gpu("sddmm batch counts") else { return };
    let mut f = Fixture::new();
    let csr = |f: &mut Fixture, count: i32, values_stride: i64| {
        let c = f.csr(false, (4, 6), (I32, I32), R32F);
        assert_eq!(unsafe { oxsparseCsrSetStridedBatch(c, count, 0, values_stride) }, OK);
        c
    };
    let table = [(2, 3, 3, INVALID), (3, 3, 2, INVALID), (3, 1, 1, INVALID), (1, 2, 1, INVALID), (2, 2, 2, SUCCESS), (1, 2, 2, SUCCESS)];
    for (a, b, c, want) in table.into_iter().chain([(2, 1, 2, SUCCESS), (1, 1, 2, SUCCESS)]) {
        let (da, db, sc) = (f.dn((4, 5), R32F, ROW, a), f.dn((5, 6), R32F, COL, b), csr(&mut f, c, 4));
        expect(&mut f, &format!("CSR batches A {a}, B {b}, C {c}"), args(da, db, sc, R32F), want);
    }
    let (a1, b1) = operands(&mut f, R32F);
    let overlapping = csr(&mut f, 2, 3);
    expect(&mut f, "CSR batches 3 values apart, nnz 4", args(a1, b1, overlapping, R32F), INVALID);
    for (stride, want) in [(8, SUCCESS), (7, INVALID)] {
        // BSR batches sharing offsets and block columns, values `stride` apart (8 per batch).
        let bsr = f.bsr(ROW, (I32, I32), R32F);
        assert_eq!(unsafe { oxsparseBsrSetStridedBatch(bsr, 2, 0, 0, stride) }, OK);
        let (da, db) = (f.dn((4, 5), R32F, ROW, 2), f.dn((5, 6), R32F, COL, 1));
        expect(&mut f, &format!("BSR of shared structure, values {stride} apart"), args(da, db, bsr, R32F), want);
    }
    // 65,535 batches of 4 values (within the fixture's 1 MiB of zeros), then one more.
    for (count, want) in [(65_535, SUCCESS), (65_536, INVALID)] {
        let many = csr(&mut f, count, 4);
        expect(&mut f, &format!("{count} batches of C"), args(a1, b1, many, R32F), want);
    }
    f.finish("batch_counts");
}

/// NULL arrays are taken where nothing reads them: C's columns and values when it stores nothing,
/// A's and B's values when k == 0 (descriptors with entries cannot hold NULL arrays: their
/// creation refuses them). The workspace must be given when an operand is copied: bufferSize
/// answers, preprocess and SDDMM refuse a NULL one.
#[test]
fn null_arrays_and_workspace() {
    let Some(_gpu) = gpu("sddmm NULL arrays and workspace") else { return };
    let mut f = Fixture::new();
    let (z, i32t, f32t) = (f.z(), I32 as i32, R32F as i32);
    let (a, b) = operands(&mut f, R32F);
    let mut d = null_mut();
    let s = unsafe { oxsparseCreateCsr(&mut d, 4, 6, 0, z, null_mut(), null_mut(), i32t, i32t, 0, f32t) };
    let c_empty = f.keep(s, d);
    expect(&mut f, "C's columns and values NULL, no entries", args(a, b, c_empty, R32F), SUCCESS);
    let c = f.csr(false, (4, 6), (I32, I32), R32F);
    let mut null_dn = |rows: i64, cols: i64, order: Order| {
        let mut d = null_mut();
        assert_eq!(unsafe { oxsparseCreateDnMat(&mut d, rows, cols, 1, null_mut(), f32t, order as i32) }, OK);
        f.dense.0.push(d);
        d
    };
    let (a0, b0) = (null_dn(4, 0, ROW), null_dn(0, 6, COL));
    expect(&mut f, "A's and B's values NULL, k = 0", args(a0, b0, c, R32F), SUCCESS);
    // A column-major with opA = N: its rows are copied, into a workspace that must be given.
    let a_col = f.dn((4, 5), R32F, COL, 1);
    let copied = args(a_col, b, c, R32F);
    let mut size = 4242usize;
    let got = unsafe { copied.buffer_size(&f.h, &mut size) };
    f.record("A copied: bufferSize", &[("bufferSize", got)], SUCCESS, size);
    if got == OK && size == 0 {
        f.failures.push("A copied: bufferSize 0".into());
    }
    let got = unsafe { [copied.preprocess(&f.h, null_mut()), copied.sddmm(&f.h, null_mut())] };
    f.record("A copied, NULL workspace", &[("preprocess", got[0]), ("SDDMM", got[1])], INVALID, 4242);
    expect(&mut f, "A copied, with a workspace", copied, SUCCESS);
    f.finish("null_arrays_and_workspace");
}
