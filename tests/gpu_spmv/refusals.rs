//! Refused SpMV calls, one thing wrong at a time, through the fixture of `c_api`: arguments, value
//! type combinations, algorithm per format, ops per format, index types, batches; and a workspace
//! left out although bufferSize asked for one. After every refusal Y holds what it held.

use super::c_api::Fixture;
use super::harness::*;
use super::*;
use oxsparse::ffi::descr_dense::oxsparseDestroyDnVec;
use oxsparse::ffi::descr_sparse_access::{oxsparseCooSetStridedBatch, oxsparseCsrSetStridedBatch};
use oxsparse::ffi::*;
use oxsparse::types::Status::{self, *};
use oxsparse::types::{DataType, DataType::*, IndexType, SpMVAlg};
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
        Fmt::Sell(_) => f.sell((it, it), vt),
    }
}

const FORMATS: [Fmt; 6] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bsr(COL), Fmt::Sell(2)];

#[test]
fn refused_arguments() {
    let Some(_gpu) = gpu("spmv refused arguments") else { return };
    let mut f = Fixture::new();
    let a = f.csr(false, (4, 6), (I32, I32), R32F);
    let (x, y) = (f.x(6, R32F), f.y(4, R32F));
    let ok = f.args(a, x, y, R32F);
    f.expect("valid arguments", ok, SUCCESS);
    f.expect("NULL matA", Args { a: null(), ..ok }, INVALID);
    f.expect("NULL vecX", Args { x: null(), ..ok }, INVALID);
    f.expect("NULL vecY", Args { y: null_mut(), ..ok }, INVALID);
    f.expect("NULL alpha", Args { alpha: null(), ..ok }, INVALID);
    f.expect("NULL beta", Args { beta: null(), ..ok }, INVALID);
    for op in [3, -1, 99] {
        f.expect(&format!("opA {op}"), Args { op, ..ok }, INVALID);
    }
    for alg in [7, 8, 99, -1] {
        f.expect(&format!("alg {alg}"), Args { alg, ..ok }, INVALID);
    }
    f.expect("computeType 99", Args { compute: 99, ..ok }, INVALID);
    // op(A) is 4 x 6: X needs 6 elements and Y 4.
    let x5 = f.x(5, R32F);
    f.expect("X has 5 elements for k = 6", Args { x: x5, ..ok }, INVALID);
    let y5 = f.y(5, R32F);
    f.expect("Y has 5 elements for m = 4", Args { y: y5, ..ok }, INVALID);
    f.expect("opA = T makes op(A) 6 x 4", Args { op: T as i32, ..ok }, INVALID);
    let (x4, y6) = (f.x(4, R32F), f.y(6, R32F));
    f.expect("opA = T with X of 4 and Y of 6", Args { op: T as i32, x: x4, y: y6, ..ok }, SUCCESS);
    f.expect("matA is a dense vector", Args { a: x as oxsparseConstSpMatDescr_t, ..ok }, INVALID);
    let gone = f.x(6, R32F);
    f.dense.vecs.pop();
    unsafe { oxsparseDestroyDnVec(gone) };
    f.expect("vecX destroyed", Args { x: gone, ..ok }, OXSPARSE_STATUS_NOT_INITIALIZED);
    let s = unsafe { ok.buffer_size(&f.h, null_mut()) };
    if s != INVALID as i32 {
        f.failures.push(format!("NULL bufferSize: returned {}", status_name(s)));
    }
    f.finish("refused_arguments");
}

/// Every (A, X, Y, compute) quadruple of cudaDataTypes on CSR (10^4): accepted exactly when listed
/// in `types::COMBOS`; on the other formats the accepted ones and, per A type, every other compute.
#[test]
fn value_type_combinations() {
    let Some(_gpu) = gpu("spmv value type combinations") else { return };
    let mut f = Fixture::new();
    let all = DataType::ALL;
    let xs: Vec<_> = all.iter().map(|&t| f.x(6, t)).collect();
    let ys: Vec<_> = all.iter().map(|&t| f.y(4, t)).collect();
    let at = |t: DataType| all.iter().position(|&x| x == t).unwrap();
    for fmt in FORMATS {
        for &ta in all {
            let a = make(&mut f, fmt, I32, ta);
            for &tx in all {
                for &ty in all {
                    for &tc in all {
                        let listed = super::types::COMBOS.contains(&(ta, tx, ty, tc));
                        // Beyond CSR: the accepted quadruples, and the listed (A, X, Y) with another compute.
                        let near = super::types::COMBOS.iter().any(|c| (c.0, c.1, c.2) == (ta, tx, ty));
                        if fmt != Fmt::Csr && !near {
                            continue;
                        }
                        let args = f.args(a, xs[at(tx)], ys[at(ty)], tc);
                        f.expect(&format!("{fmt:?} {ta:?}/{tx:?}/{ty:?}/{tc:?}"), args, if listed { SUCCESS } else { UNSUPPORTED });
                    }
                }
            }
        }
    }
    f.finish("value_type_combinations");
}

/// DEFAULT and the format family's own algorithms are accepted; another family's NOT_SUPPORTED.
#[test]
fn algorithms_per_format() {
    let Some(_gpu) = gpu("spmv algorithms per format") else { return };
    let mut f = Fixture::new();
    let (x, y) = (f.x(6, R32F), f.y(4, R32F));
    for fmt in FORMATS {
        let a = make(&mut f, fmt, I32, R32F);
        for &alg in SpMVAlg::ALL {
            let want = if algs_for(fmt).contains(&alg) { SUCCESS } else { UNSUPPORTED };
            f.expect(&format!("{fmt:?} {alg:?}"), Args { alg: alg as i32, ..f.args(a, x, y, R32F) }, want);
        }
    }
    f.finish("algorithms_per_format");
}

#[test]
fn refused_ops_formats_and_index_types() {
    let Some(_gpu) = gpu("spmv refused ops, formats and index types") else { return };
    let mut f = Fixture::new();
    for vt in [R32F, CUDA_C_32F] {
        // BSR and Sliced-ELL take opA = N only (with T or H op(A) is 6 x 4); Blocked-ELL nothing.
        let (x4, y6, x6, y4) = (f.x(4, vt), f.y(6, vt), f.x(6, vt), f.y(4, vt));
        for fmt in [Fmt::Bsr(ROW), Fmt::Bsr(COL), Fmt::Sell(2)] {
            let a = make(&mut f, fmt, I32, vt);
            for op in [T, H] {
                f.expect(&format!("{fmt:?} {vt:?} opA {op:?}"), Args { op: op as i32, ..f.args(a, x4, y6, vt) }, UNSUPPORTED);
            }
        }
        let bell = f.bell(I32, vt);
        f.expect(&format!("Blocked-ELL {vt:?}"), f.args(bell, x6, y4, vt), UNSUPPORTED);
        f.expect(&format!("Blocked-ELL {vt:?} opA T"), Args { op: T as i32, ..f.args(bell, x4, y6, vt) }, UNSUPPORTED);
    }
    // Offsets and indices of one type, 32I or 64I.
    let (x, y) = (f.x(6, R32F), f.y(4, R32F));
    let matrices = [
        ("CSR 32I/64I", f.csr(false, (4, 6), (I32, I64), R32F), UNSUPPORTED),
        ("CSR 64I/32I", f.csr(false, (4, 6), (I64, I32), R32F), UNSUPPORTED),
        ("CSR 16U", f.csr(false, (4, 6), (U16, U16), R32F), UNSUPPORTED),
        ("CSC 64I/32I", f.csr(true, (4, 6), (I64, I32), R32F), UNSUPPORTED),
        ("COO 16U", f.coo((4, 6), U16, R32F), UNSUPPORTED),
        ("BSR 32I/64I", f.bsr(ROW, (I32, I64), R32F), UNSUPPORTED),
        ("Sliced-ELL 64I/32I", f.sell((I64, I32), R32F), UNSUPPORTED),
        ("Sliced-ELL 16U", f.sell((U16, U16), R32F), UNSUPPORTED),
        ("CSR 64I", f.csr(false, (4, 6), (I64, I64), R32F), SUCCESS),
        ("CSC 64I", f.csr(true, (4, 6), (I64, I64), R32F), SUCCESS),
        ("COO 64I", f.coo((4, 6), I64, R32F), SUCCESS),
        ("BSR 64I", f.bsr(COL, (I64, I64), R32F), SUCCESS),
        ("Sliced-ELL 64I", f.sell((I64, I64), R32F), SUCCESS),
    ];
    for (what, a, want) in matrices {
        f.expect(what, f.args(a, x, y, R32F), want);
    }
    f.finish("refused_ops_formats_and_index_types");
}

/// SpMV has no batches: a sparse matrix with a batch count above 1 is refused.
#[test]
fn batched_a_is_not_supported() {
    let Some(_gpu) = gpu("spmv batched A") else { return };
    let mut f = Fixture::new();
    let (x, y) = (f.x(6, R32F), f.y(4, R32F));
    for (count, want) in [(1, SUCCESS), (2, UNSUPPORTED), (3, UNSUPPORTED)] {
        let csr = f.csr(false, (4, 6), (I32, I32), R32F);
        assert_eq!(unsafe { oxsparseCsrSetStridedBatch(csr, count, 5, 4) }, OK);
        f.expect(&format!("CSR batch count {count}"), f.args(csr, x, y, R32F), want);
        let csc = f.csr(true, (4, 6), (I32, I32), R32F);
        assert_eq!(unsafe { oxsparseCsrSetStridedBatch(csc, count, 7, 4) }, OK);
        f.expect(&format!("CSC batch count {count}"), f.args(csc, x, y, R32F), want);
        let coo = f.coo((4, 6), I32, R32F);
        assert_eq!(unsafe { oxsparseCooSetStridedBatch(coo, count, 4) }, OK);
        f.expect(&format!("COO batch count {count}"), f.args(coo, x, y, R32F), want);
    }
    f.finish("batched_a_is_not_supported");
}

/// Where bufferSize asks for bytes, preprocess and SpMV with a NULL buffer are INVALID_VALUE and
/// leave Y alone. Runs over problems likely to need a workspace (transposes, long rows); prints
/// how many did (a planner that needs none anywhere leaves nothing to check).
#[test]
fn null_buffer_when_one_is_needed() {
    let Some(_gpu) = gpu("spmv NULL buffer") else { return };
    let h = CHandle::new();
    let (mut checked, mut failures) = (0, Vec::new());
    let mut cases = Vec::new();
    for fmt in [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Sell(32)] {
        for &op in ops_for(fmt) {
            for alg in algs_for(fmt) {
                cases.push(Case { op, alg, beta: (0.5, 0.0), pattern: Pattern::PowerLaw(5000), ..Case::new(fmt, (5000, 8000)) });
            }
        }
    }
    for case in &cases {
        let p = Problem::new(case);
        let outcome = Gpu::upload(&p).and_then(|g| {
            let (alpha, beta) = scalars(&h, &p);
            let args = g.args(&p, &alpha, &beta);
            if args.size(&h)? == 0 {
                return Ok(());
            }
            checked += 1;
            let got = unsafe { [args.preprocess(&h, null_mut()), args.spmv(&h, null_mut())] };
            if got != [INVALID as i32; 2] {
                return Err(format!("preprocess / SpMV with a NULL buffer returned {} / {}", status_name(got[0]), status_name(got[1])));
            }
            if g.y_buf.to_vec::<u8>() != p.y_bytes {
                return Err("a refused call wrote Y".into());
            }
            Ok(())
        });
        if let Err(e) = outcome {
            failures.push(format!("{}: {e}", case.label()));
        }
    }
    assert!(failures.is_empty(), "{} failing:\n{}", failures.len(), failures.join("\n"));
    println!("spmv NULL buffer: {checked} of {} cases needed a workspace and refused NULL", cases.len());
}
