//! The legacy BSR products on the GPU equal the CPU reference (src/reference/legacy_bsr.rs),
//! through the C ABI: `oxsparse[SDCZ]bsrmv` and `oxsparse[SDCZ]bsrmm`.
//!
//! Seeded random structures and values; blocks of 1, 2, 3, 4 and 16; empty problems (no block
//! rows, no stored blocks, no columns of C); both block orders (dirA), both index bases, host and
//! device scalars; bsrmm with transB N and T and leading dimensions above the minimum. With beta
//! zero, y and C start as NaN (0xFF), which must not leak; elements past the leading dimension's
//! rows and past the end must come back untouched.

mod common;

use common::capi::{expect, CHandle, Scalar};
use common::compare::Tally;
use common::legacy_bsr::{abs1, output, read, tolerance, Descr, DevMatrix, Matrix, TYPES};
use common::values::random;
use common::{gpu, sync, DevBuf, Rng};
use oxsparse::ffi::legacy_bsr::*;
use oxsparse::ffi::mat_descr::*;
use oxsparse::ffi::{cuComplex, cuDoubleComplex};
use oxsparse::reference::legacy_bsr::{self as reference, LegacyBsr};
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::{DataType, DataType::*, PointerMode, Status};
use std::os::raw::c_int;

#[allow(clippy::too_many_arguments)]
unsafe fn call_bsrmv(
    t: DataType,
    h: &CHandle,
    dir: c_int,
    (mb, nb, nnzb, block): (c_int, c_int, c_int, c_int),
    alpha: u64,
    d: &Descr,
    a: &DevMatrix,
    x: u64,
    beta: u64,
    y: u64,
) -> c_int {
    let (rp, ci, v) = (a.row_ptr.ptr as *const c_int, a.col_ind.ptr as *const c_int, a.values.ptr);
    match t {
        CUDA_R_32F => oxsparseSbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y as *mut f32),
        CUDA_R_64F => oxsparseDbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y as *mut f64),
        CUDA_C_32F => {
            oxsparseCbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y as *mut cuComplex)
        }
        _ => {
            oxsparseZbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y as *mut cuDoubleComplex)
        }
    }
}

/// The dense side of one bsrmm call: transB, n, B and ldb, C and ldc.
struct Dense {
    trans_b: c_int,
    n: c_int,
    b: u64,
    ldb: c_int,
    c: u64,
    ldc: c_int,
}

#[allow(clippy::too_many_arguments)]
unsafe fn call_bsrmm(
    t: DataType,
    h: &CHandle,
    dir: c_int,
    (mb, kb, nnzb, block): (c_int, c_int, c_int, c_int),
    alpha: u64,
    d: &Descr,
    a: &DevMatrix,
    beta: u64,
    o: &Dense,
) -> c_int {
    let (rp, ci, v) = (a.row_ptr.ptr as *const c_int, a.col_ind.ptr as *const c_int, a.values.ptr);
    let (tb, n, b, ldb, c, ldc) = (o.trans_b, o.n, o.b, o.ldb, o.c, o.ldc);
    match t {
        CUDA_R_32F => {
            oxsparseSbsrmm(h.0, dir, 0, tb, mb, n, kb, nnzb, alpha as _, d.0, v as _, rp, ci, block, b as _, ldb, beta as _, c as _, ldc)
        }
        CUDA_R_64F => {
            oxsparseDbsrmm(h.0, dir, 0, tb, mb, n, kb, nnzb, alpha as _, d.0, v as _, rp, ci, block, b as _, ldb, beta as _, c as _, ldc)
        }
        CUDA_C_32F => {
            oxsparseCbsrmm(h.0, dir, 0, tb, mb, n, kb, nnzb, alpha as _, d.0, v as _, rp, ci, block, b as _, ldb, beta as _, c as _, ldc)
        }
        _ => oxsparseZbsrmm(h.0, dir, 0, tb, mb, n, kb, nnzb, alpha as _, d.0, v as _, rp, ci, block, b as _, ldb, beta as _, c as _, ldc),
    }
}

/// (mb, nb, block, blocks per block row): the shapes every type and order runs.
const SHAPES: [(usize, usize, usize, usize); 11] = [
    (1, 1, 1, 1),
    (37, 29, 1, 4),
    (13, 17, 2, 3),
    (21, 8, 3, 2),
    (50, 61, 4, 5),
    (9, 7, 16, 2),
    (300, 280, 4, 3),
    (5, 6, 3, 0),    // no stored block: y = beta * y
    (0, 6, 3, 2),    // no block row: nothing to do
    (4, 0, 2, 2),    // no block column: y = beta * y
    (1, 400, 2, 40), // one long block row
];

fn check_bsrmv(
    h: &CHandle,
    rng: &mut Rng,
    t: DataType,
    shape: (usize, usize, usize, usize),
    column_blocks: bool,
    base: i32,
) -> Result<(), String> {
    let (mb, nb, block, per_row) = shape;
    let a = Matrix::random(rng, t, (mb, nb, block), per_row, base);
    let dev = DevMatrix::upload(&a, t);
    let descr = Descr::new(base);
    let (m, k) = (mb * block, nb * block);
    let x = random(rng, t, k);
    let x_dev = DevBuf::from_slice(&common::bytes::encode(t, &x).into_iter().chain([0u8; 16]).collect::<Vec<_>>());
    let mode = if rng.below(2) == 0 { PointerMode::OXSPARSE_POINTER_MODE_HOST } else { PointerMode::OXSPARSE_POINTER_MODE_DEVICE };
    h.set_mode(mode);
    for beta_zero in [true, false] {
        let alpha = random(rng, t, 1)[0];
        let beta = if beta_zero { ZERO } else { random(rng, t, 1)[0] };
        let y0 = random(rng, t, m);
        let y_dev = output(t, m, (!beta_zero).then_some(&y0[..]));
        let (alpha_s, beta_s) = (Scalar::new(mode, t, alpha), Scalar::new(mode, t, beta));
        let dims = (mb as c_int, nb as c_int, a.col_ind.len() as c_int, block as c_int);
        let s = unsafe {
            call_bsrmv(t, h, column_blocks as c_int, dims, alpha_s.ptr() as u64, &descr, &dev, x_dev.ptr, beta_s.ptr() as u64, y_dev.ptr)
        };
        expect(s, "bsrmv")?;
        sync();
        let got = read(&y_dev, t, m)?;
        let mut want = if beta_zero { vec![(f64::NAN, f64::NAN); m] } else { y0.clone() };
        reference::bsrmv(alpha, &a.legacy(column_blocks, base), &x, beta, &mut want);
        let mut scale = y0.iter().map(|&v| abs1(v)).collect::<Vec<_>>();
        let abs_values: Vec<Value> = a.values.iter().map(|&v| abs1(v)).collect();
        let abs_a = LegacyBsr { values: &abs_values, ..a.legacy(column_blocks, base) };
        let abs_x: Vec<Value> = x.iter().map(|&v| abs1(v)).collect();
        reference::bsrmv(abs1(alpha), &abs_a, &abs_x, if beta_zero { ZERO } else { abs1(beta) }, &mut scale);
        let tol = tolerance(t, k);
        let mut tally = Tally::default();
        for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
            tally.check(&tol, g, w, scale[i].0, || format!("y[{i}]"));
        }
        tally.result().map_err(|e| format!("beta {}: {e}", if beta_zero { "0" } else { "random" }))?;
    }
    Ok(())
}

#[test]
fn bsrmv_equals_the_reference() {
    let Some(_gpu) = gpu("legacy bsrmv") else { return };
    let h = CHandle::new();
    let mut rng = Rng::new(0xb5_4a1);
    let mut failures = Vec::new();
    let mut cases = 0;
    for t in TYPES {
        for shape in SHAPES {
            for (column_blocks, base) in [(false, 0), (true, 1), (true, 0), (false, 1)] {
                cases += 1;
                if let Err(e) = check_bsrmv(&h, &mut rng, t, shape, column_blocks, base) {
                    failures.push(format!("{t:?} {shape:?} column blocks {column_blocks} base {base}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cases} cases failed:\n{}", failures.len(), failures.join("\n"));
    println!("bsrmv: {cases} cases equal the reference");
}

#[allow(clippy::too_many_arguments)]
fn check_bsrmm(
    h: &CHandle,
    rng: &mut Rng,
    t: DataType,
    shape: (usize, usize, usize, usize),
    n: usize,
    transposed_b: bool,
    column_blocks: bool,
    base: i32,
) -> Result<(), String> {
    let (mb, kb, block, per_row) = shape;
    let a = Matrix::random(rng, t, (mb, kb, block), per_row, base);
    let dev = DevMatrix::upload(&a, t);
    let descr = Descr::new(base);
    let (m, k) = (mb * block, kb * block);
    // Leading dimensions above the minimum by 0 to 3 rows, which must stay untouched in C.
    let ldb = if transposed_b { n } else { k }.max(1) + rng.below(4) as usize;
    let ldc = m.max(1) + rng.below(4) as usize;
    let b_len = ldb * if transposed_b { k } else { n };
    let b = random(rng, t, b_len);
    let b_dev = DevBuf::from_slice(&common::bytes::encode(t, &b).into_iter().chain([0u8; 16]).collect::<Vec<_>>());
    let mode = if rng.below(2) == 0 { PointerMode::OXSPARSE_POINTER_MODE_HOST } else { PointerMode::OXSPARSE_POINTER_MODE_DEVICE };
    h.set_mode(mode);
    for beta_zero in [true, false] {
        let alpha = random(rng, t, 1)[0];
        let beta = if beta_zero { ZERO } else { random(rng, t, 1)[0] };
        let c_len = ldc * n;
        let c0 = random(rng, t, c_len);
        // Beta zero: C all poison, the rows past m too (they must stay poison).
        let c_dev = output(t, c_len, (!beta_zero).then_some(&c0[..]));
        let (alpha_s, beta_s) = (Scalar::new(mode, t, alpha), Scalar::new(mode, t, beta));
        let dims = (mb as c_int, kb as c_int, a.col_ind.len() as c_int, block as c_int);
        let dense =
            Dense { trans_b: transposed_b as c_int, n: n as c_int, b: b_dev.ptr, ldb: ldb as c_int, c: c_dev.ptr, ldc: ldc as c_int };
        let s = unsafe { call_bsrmm(t, h, column_blocks as c_int, dims, alpha_s.ptr() as u64, &descr, &dev, beta_s.ptr() as u64, &dense) };
        expect(s, "bsrmm")?;
        sync();
        let got = read(&c_dev, t, c_len)?;
        let mut want = if beta_zero { vec![(f64::NAN, f64::NAN); c_len] } else { c0.clone() };
        let legacy = a.legacy(column_blocks, base);
        reference::bsrmm(alpha, &legacy, transposed_b, n, &b, ldb, beta, &mut want, ldc);
        let abs_values: Vec<Value> = a.values.iter().map(|&v| abs1(v)).collect();
        let abs_a = LegacyBsr { values: &abs_values, ..a.legacy(column_blocks, base) };
        let abs_b: Vec<Value> = b.iter().map(|&v| abs1(v)).collect();
        let mut scale: Vec<Value> = c0.iter().map(|&v| abs1(v)).collect();
        reference::bsrmm(abs1(alpha), &abs_a, transposed_b, n, &abs_b, ldb, if beta_zero { ZERO } else { abs1(beta) }, &mut scale, ldc);
        let tol = tolerance(t, k);
        let mut tally = Tally::default();
        for j in 0..n {
            for r in 0..ldc {
                let at = j * ldc + r;
                if r < m {
                    tally.check(&tol, got[at], want[at], scale[at].0, || format!("C[{r}, {j}]"));
                } else {
                    // Rows between m and ldc are not C's: untouched (poison, or their old value).
                    let (g, old) = (got[at], c0[at]);
                    let kept = if beta_zero { g.0.is_nan() } else { g == old };
                    if !kept {
                        return Err(format!("row {r} of column {j} lies past m = {m} but was written: {g:?}"));
                    }
                }
            }
        }
        tally.result().map_err(|e| format!("beta {}: {e}", if beta_zero { "0" } else { "random" }))?;
    }
    Ok(())
}

#[test]
fn bsrmm_equals_the_reference() {
    let Some(_gpu) = gpu("legacy bsrmm") else { return };
    let h = CHandle::new();
    let mut rng = Rng::new(0xb5_4a2);
    let mut failures = Vec::new();
    let mut cases = 0;
    for t in TYPES {
        for (i, shape) in SHAPES.into_iter().enumerate() {
            for (j, transposed_b) in [false, true].into_iter().enumerate() {
                let n = [1, 3, 8, 33, 0, 64][(i + j) % 6];
                let (column_blocks, base) = [(false, 0), (true, 1), (true, 0), (false, 1)][(i + 2 * j) % 4];
                cases += 1;
                if let Err(e) = check_bsrmm(&h, &mut rng, t, shape, n, transposed_b, column_blocks, base) {
                    failures.push(format!("{t:?} {shape:?} n {n} transB {transposed_b} column blocks {column_blocks} base {base}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cases} cases failed:\n{}", failures.len(), failures.join("\n"));
    println!("bsrmm: {cases} cases equal the reference");
}

/// The statuses cuSPARSE's arguments call for, on a live handle, nothing written: transA T
/// (NOT_SUPPORTED), a symmetric descriptor (MATRIX_TYPE_NOT_SUPPORTED), blockDim 0, transB H.
#[test]
fn refusals_leave_outputs_alone() {
    let Some(_gpu) = gpu("legacy bsr refusals") else { return };
    let h = CHandle::new();
    let mut rng = Rng::new(3);
    let t = CUDA_R_32F;
    let a = Matrix::random(&mut rng, t, (4, 4, 2), 2, 0);
    let dev = DevMatrix::upload(&a, t);
    let descr = Descr::new(0);
    let symmetric = Descr::new(0);
    assert_eq!(unsafe { oxsparseSetMatType(symmetric.0, 1) }, 0);
    let x = DevBuf::from_slice(&common::bytes::encode(t, &random(&mut rng, t, 8)));
    let y = output(t, 8, None);
    let (one, zero) = (1.0f32, 0.0f32);
    let (alpha, beta) = (&one as *const f32, &zero as *const f32);
    let (rp, ci, v) = (dev.row_ptr.ptr as *const c_int, dev.col_ind.ptr as *const c_int, dev.values.ptr as *const f32);
    let nnzb = a.col_ind.len() as c_int;
    let mv = |trans: c_int, d: &Descr, block: c_int| unsafe {
        oxsparseSbsrmv(h.0, 0, trans, 4, 4, nnzb, alpha, d.0, v, rp, ci, block, x.ptr as *const f32, beta, y.ptr as *mut f32)
    };
    let status = |s: Status| s as c_int;
    assert_eq!(mv(1, &descr, 2), status(Status::OXSPARSE_STATUS_NOT_SUPPORTED), "transA T");
    assert_eq!(mv(0, &symmetric, 2), status(Status::OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED), "symmetric");
    assert_eq!(mv(0, &descr, 0), status(Status::OXSPARSE_STATUS_INVALID_VALUE), "blockDim 0");
    assert_eq!(mv(3, &descr, 2), status(Status::OXSPARSE_STATUS_INVALID_VALUE), "transA 3");
    let mm = |trans_b: c_int, ldc: c_int| unsafe {
        oxsparseSbsrmm(
            h.0,
            0,
            0,
            trans_b,
            4,
            1,
            4,
            nnzb,
            alpha,
            descr.0,
            v,
            rp,
            ci,
            2,
            x.ptr as *const f32,
            8,
            beta,
            y.ptr as *mut f32,
            ldc,
        )
    };
    assert_eq!(mm(2, 8), status(Status::OXSPARSE_STATUS_NOT_SUPPORTED), "transB H");
    assert_eq!(mm(0, 7), status(Status::OXSPARSE_STATUS_INVALID_VALUE), "ldc 7 for m 8");
    sync();
    assert!(read(&y, t, 8).unwrap().iter().all(|v| v.0.is_nan()), "a refused call wrote y");
    assert_eq!(mm(0, 8), 0, "the valid call");
}
