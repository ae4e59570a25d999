//! Refused SpMM calls, one thing wrong at a time, through the fixture of `c_api`: arguments, value
//! type combinations, algorithm per format, ops per format, index types, batch counts.

use super::c_api::Fixture;
use super::harness::*;
use super::*;
use oxsparse::ffi::descr_dense::oxsparseDestroyDnMat;
use oxsparse::ffi::descr_sparse_access::{oxsparseBsrSetStridedBatch, oxsparseCooSetStridedBatch, oxsparseCsrSetStridedBatch};
use oxsparse::ffi::*;
use oxsparse::types::Status::{self, *};
use oxsparse::types::{DataType, DataType::*, IndexType, SpMMAlg};
use std::ptr::{null, null_mut};

const SUCCESS: Status = OXSPARSE_STATUS_SUCCESS;
const INVALID: Status = OXSPARSE_STATUS_INVALID_VALUE;
const UNSUPPORTED: Status = OXSPARSE_STATUS_NOT_SUPPORTED;
const U16: IndexType = IndexType::OXSPARSE_INDEX_16U;
const R32F: DataType = CUDA_R_32F;

/// A 4 x 6 matrix of `fmt` (see the fixture's constructors).
fn make(f: &mut Fixture, fmt: Fmt, it: IndexType, vt: DataType) -> oxsparseSpMatDescr_t {
    match fmt {
        Fmt::Csr => f.csr(false, (4, 6), (it, it), vt),
        Fmt::Csc => f.csr(true, (4, 6), (it, it), vt),
        Fmt::Coo => f.coo((4, 6), it, vt),
        Fmt::Bsr(order) => f.bsr(order, (it, it), vt),
        Fmt::Bell => f.bell(it, vt),
    }
}

const FORMATS: [Fmt; 6] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bsr(COL), Fmt::Bell];

#[test]
fn refused_arguments() {
    let Some(_gpu) = gpu("spmm refused arguments") else { return };
    let mut f = Fixture::new();
    let a = f.csr(false, (4, 6), (I32, I32), R32F);
    let (b, c) = (f.dn((6, 3), R32F, COL, 1), f.dn((4, 3), R32F, COL, 1));
    let ok = f.args(a, b, c, R32F);
    f.expect("valid arguments", ok, SUCCESS);
    f.expect("NULL matA", Args { a: null(), ..ok }, INVALID);
    f.expect("NULL matB", Args { b: null(), ..ok }, INVALID);
    f.expect("NULL matC", Args { c: null_mut(), ..ok }, INVALID);
    f.expect("NULL alpha", Args { alpha: null(), ..ok }, INVALID);
    f.expect("NULL beta", Args { beta: null(), ..ok }, INVALID);
    for op in [3, -1, 99] {
        f.expect(&format!("opA {op}"), Args { op_a: op, ..ok }, INVALID);
        f.expect(&format!("opB {op}"), Args { op_b: op, ..ok }, INVALID);
    }
    for alg in [7, 8, 11, 15, -1] {
        f.expect(&format!("alg {alg}"), Args { alg, ..ok }, INVALID);
    }
    f.expect("computeType 99", Args { compute: 99, ..ok }, INVALID);
    // op(A) is 4 x 6, op(B) 6 x 3, C 4 x 3.
    let b5 = f.dn((5, 3), R32F, COL, 1);
    f.expect("B has 5 rows for k = 6", Args { b: b5, ..ok }, INVALID);
    let c5 = f.dn((5, 3), R32F, COL, 1);
    f.expect("C has 5 rows for m = 4", Args { c: c5, ..ok }, INVALID);
    let c2 = f.dn((4, 2), R32F, ROW, 1);
    f.expect("C has 2 columns for n = 3", Args { c: c2, ..ok }, INVALID);
    f.expect("opA = T makes op(A) 6 x 4", Args { op_a: T as i32, ..ok }, INVALID);
    f.expect("opB = T makes op(B) 3 x 6", Args { op_b: T as i32, ..ok }, INVALID);
    f.expect("matA is a dense descriptor", Args { a: b as oxsparseConstSpMatDescr_t, ..ok }, INVALID);
    let gone = f.dn((6, 3), R32F, COL, 1);
    f.dense.0.pop();
    unsafe { oxsparseDestroyDnMat(gone) };
    f.expect("matB destroyed", Args { b: gone, ..ok }, OXSPARSE_STATUS_NOT_INITIALIZED);
    let s = unsafe { ok.buffer_size(&f.h, null_mut()) };
    if s != INVALID as i32 {
        f.failures.push(format!("NULL bufferSize: returned {}", status_name(s)));
    }
    f.finish("refused_arguments");
}

/// Every (A/B, C, compute) triple of cudaDataTypes: accepted exactly when listed in `types::COMBOS`;
/// and A and B of different types refused.
#[test]
fn value_type_combinations() {
    let Some(_gpu) = gpu("spmm value type combinations") else { return };
    let mut f = Fixture::new();
    let all = DataType::ALL;
    let cs: Vec<_> = all.iter().map(|&ct| f.dn((4, 3), ct, COL, 1)).collect();
    let bs: Vec<_> = all.iter().map(|&t| f.dn((6, 3), t, ROW, 1)).collect();
    for fmt in [Fmt::Csr, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bell] {
        for (ti, &t) in all.iter().enumerate() {
            let a = make(&mut f, fmt, I32, t);
            for (ci, &ct) in all.iter().enumerate() {
                for &compute in all {
                    let want = if super::types::COMBOS.contains(&(t, ct, compute)) { SUCCESS } else { UNSUPPORTED };
                    let args = f.args(a, bs[ti], cs[ci], compute);
                    f.expect(&format!("{fmt:?} {t:?}/{ct:?}/{compute:?}"), args, want);
                }
            }
            for combo in super::types::COMBOS.iter().filter(|c| c.0 == t) {
                for (bi, &tb) in all.iter().enumerate().filter(|x| *x.1 != t) {
                    let ci = all.iter().position(|&x| x == combo.1).unwrap();
                    let args = f.args(a, bs[bi], cs[ci], combo.2);
                    f.expect(&format!("{fmt:?} A {t:?}, B {tb:?}, C {:?}/{:?}", combo.1, combo.2), args, UNSUPPORTED);
                }
            }
        }
    }
    f.finish("value_type_combinations");
}

/// DEFAULT and the format's own algorithms are accepted; another format's are NOT_SUPPORTED.
#[test]
fn algorithms_per_format() {
    let Some(_gpu) = gpu("spmm algorithms per format") else { return };
    let mut f = Fixture::new();
    let (b, c) = (f.dn((6, 3), R32F, COL, 1), f.dn((4, 3), R32F, ROW, 1));
    for fmt in FORMATS {
        let a = make(&mut f, fmt, I32, R32F);
        for &alg in SpMMAlg::ALL {
            let want = if algs_for(fmt).contains(&alg) { SUCCESS } else { UNSUPPORTED };
            let args = Args { alg: alg as i32, ..f.args(a, b, c, R32F) };
            f.expect(&format!("{fmt:?} {alg:?}"), args, want);
        }
    }
    f.finish("algorithms_per_format");
}

#[test]
fn refused_ops_formats_and_index_types() {
    let Some(_gpu) = gpu("spmm refused ops, formats and index types") else { return };
    let mut f = Fixture::new();
    for vt in [R32F, CUDA_C_32F] {
        // BSR and Blocked-ELL take opA = N only; with T or H op(A) is 6 x 4.
        let (b4, c6) = (f.dn((4, 3), vt, COL, 1), f.dn((6, 3), vt, COL, 1));
        for fmt in [Fmt::Bsr(ROW), Fmt::Bsr(COL), Fmt::Bell] {
            let a = make(&mut f, fmt, I32, vt);
            for op in [T, H] {
                f.expect(&format!("{fmt:?} {vt:?} opA {op:?}"), Args { op_a: op as i32, ..f.args(a, b4, c6, vt) }, UNSUPPORTED);
            }
        }
        // Blocked-ELL: opB = T accepted, H refused (B stored 3 x 6).
        let (a, bt, c4) = (f.bell(I32, vt), f.dn((3, 6), vt, ROW, 1), f.dn((4, 3), vt, COL, 1));
        f.expect(&format!("Blocked-ELL {vt:?} opB T"), Args { op_b: T as i32, ..f.args(a, bt, c4, vt) }, SUCCESS);
        f.expect(&format!("Blocked-ELL {vt:?} opB H"), Args { op_b: H as i32, ..f.args(a, bt, c4, vt) }, UNSUPPORTED);
        let (sell, b6) = (f.sell((I32, I32), vt), f.dn((6, 3), vt, COL, 1));
        f.expect(&format!("Sliced-ELL {vt:?}"), f.args(sell, b6, c4, vt), UNSUPPORTED);
    }
    // Offsets and indices of one type, 32I or 64I.
    let (b, c) = (f.dn((6, 3), R32F, COL, 1), f.dn((4, 3), R32F, COL, 1));
    let matrices = [
        ("CSR 32I/64I", f.csr(false, (4, 6), (I32, I64), R32F), UNSUPPORTED),
        ("CSR 64I/32I", f.csr(false, (4, 6), (I64, I32), R32F), UNSUPPORTED),
        ("CSR 16U", f.csr(false, (4, 6), (U16, U16), R32F), UNSUPPORTED),
        ("CSC 64I/32I", f.csr(true, (4, 6), (I64, I32), R32F), UNSUPPORTED),
        ("COO 16U", f.coo((4, 6), U16, R32F), UNSUPPORTED),
        ("BSR 32I/64I", f.bsr(ROW, (I32, I64), R32F), UNSUPPORTED),
        ("Blocked-ELL 16U", f.bell(U16, R32F), UNSUPPORTED),
        ("CSR 64I", f.csr(false, (4, 6), (I64, I64), R32F), SUCCESS),
        ("COO 64I", f.coo((4, 6), I64, R32F), SUCCESS),
        ("BSR 64I", f.bsr(COL, (I64, I64), R32F), SUCCESS),
        ("Blocked-ELL 64I", f.bell(I64, R32F), SUCCESS),
    ];
    for (what, a, want) in matrices {
        f.expect(what, f.args(a, b, c, R32F), want);
    }
    f.finish("refused_ops_formats_and_index_types");
}

/// C's batch count must be the largest, the others 1 or equal to it; batched BSR is refused.
#[test]
fn batch_counts() {
    let Some(_gpu) = gpu("spmm batch counts") else { return };
    let mut f = Fixture::new();
    let csr = |f: &mut Fixture, count: i32| {
        let a = f.csr(false, (4, 6), (I32, I32), R32F);
        assert_eq!(unsafe { oxsparseCsrSetStridedBatch(a, count, 5, 4) }, OK);
        a
    };
    for (a, b, c, want) in [
        (2, 3, 3, INVALID),
        (3, 3, 2, INVALID),
        (3, 1, 1, INVALID),
        (1, 2, 1, INVALID),
        (2, 2, 2, SUCCESS),
        (1, 2, 2, SUCCESS),
        (2, 1, 2, SUCCESS),
    ] {
        let (sa, db, dc) = (csr(&mut f, a), f.dn((6, 3), R32F, COL, b), f.dn((4, 3), R32F, ROW, c));
        let args = f.args(sa, db, dc, R32F);
        f.expect(&format!("CSR batches A {a}, B {b}, C {c}"), args, want);
    }
    for (a, b, c, want) in [(2, 2, 3, INVALID), (2, 1, 2, SUCCESS)] {
        let coo = f.coo((4, 6), I32, R32F);
        assert_eq!(unsafe { oxsparseCooSetStridedBatch(coo, a, 4) }, OK);
        let (db, dc) = (f.dn((6, 3), R32F, ROW, b), f.dn((4, 3), R32F, COL, c));
        let args = f.args(coo, db, dc, R32F);
        f.expect(&format!("COO batches A {a}, B {b}, C {c}"), args, want);
    }
    let bsr = f.bsr(ROW, (I32, I32), R32F);
    assert_eq!(unsafe { oxsparseBsrSetStridedBatch(bsr, 2, 3, 2, 8) }, OK);
    let (db, dc) = (f.dn((6, 3), R32F, COL, 2), f.dn((4, 3), R32F, COL, 2));
    let args = f.args(bsr, db, dc, R32F);
    f.expect("batched BSR", args, UNSUPPORTED);
    f.finish("batch_counts");
}
