//! The legacy masked BSR product on the GPU equals the CPU reference (src/reference/legacy_bsr.rs),
//! through the C ABI: `oxsparse[SDCZ]bsrxmv`.
//!
//! Seeded random structures and values; blocks of 1, 2, 3, 4 and 16; both block orders (dirA),
//! both index bases, host and device scalars. Each block row reads a random sub-range of its
//! stored blocks (start and end pointers of their own); the mask lists a random set of distinct
//! block rows in random order, from none to all. Rows of y outside the mask must come back bit for
//! bit as they were (poison with beta zero, where the listed rows must not read theirs), and
//! nothing past y may be written. With every block row listed over its full range, bsrxmv equals
//! bsrmv exactly (the same sums, in the same order).

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

/// The mask side of one call: sizeOfMask, the mask and the start and end pointers (device).
struct Mask {
    size: c_int,
    mask: u64,
    starts: u64,
    ends: u64,
}

#[allow(clippy::too_many_arguments)]
unsafe fn call_bsrxmv(
    t: DataType,
    h: &CHandle,
    (dir, trans): (c_int, c_int),
    (mb, nb, nnzb, block): (c_int, c_int, c_int, c_int),
    alpha: u64,
    d: &Descr,
    a: &DevMatrix,
    m: &Mask,
    x: u64,
    beta: u64,
    y: u64,
) -> c_int {
    let (ci, v) = (a.col_ind.ptr as *const c_int, a.values.ptr);
    let (s, mp, rp, ep) = (m.size, m.mask as *const c_int, m.starts as *const c_int, m.ends as *const c_int);
    match t {
        CUDA_R_32F => {
            oxsparseSbsrxmv(h.0, dir, trans, s, mb, nb, nnzb, alpha as _, d.0, v as _, mp, rp, ep, ci, block, x as _, beta as _, y as _)
        }
        CUDA_R_64F => {
            oxsparseDbsrxmv(h.0, dir, trans, s, mb, nb, nnzb, alpha as _, d.0, v as _, mp, rp, ep, ci, block, x as _, beta as _, y as _)
        }
        CUDA_C_32F => {
            let y = y as *mut cuComplex;
            oxsparseCbsrxmv(h.0, dir, trans, s, mb, nb, nnzb, alpha as _, d.0, v as _, mp, rp, ep, ci, block, x as _, beta as _, y)
        }
        _ => {
            let y = y as *mut cuDoubleComplex;
            oxsparseZbsrxmv(h.0, dir, trans, s, mb, nb, nnzb, alpha as _, d.0, v as _, mp, rp, ep, ci, block, x as _, beta as _, y)
        }
    }
}

/// A device array of 32-bit indices (one placeholder when empty).
fn indices(v: &[i32]) -> DevBuf {
    DevBuf::from_slice(if v.is_empty() { &[0i32][..] } else { v })
}

/// (mb, nb, block, blocks per block row).
const SHAPES: [(usize, usize, usize, usize); 9] = [
    (1, 1, 1, 1),
    (37, 29, 1, 4),
    (13, 17, 2, 3),
    (21, 8, 3, 2),
    (50, 61, 4, 5),
    (9, 7, 16, 2),
    (300, 280, 4, 3),
    (5, 6, 3, 0), // no stored block: listed rows are beta * y
    (4, 0, 2, 2), // no block column: listed rows are beta * y
];

/// How the mask and the ranges are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Draw {
    /// Random sub-ranges, a random set of block rows in random order.
    Random,
    /// No block row listed: nothing may change.
    Empty,
    /// Every block row in order over its full range: bsrmv's result.
    Whole,
}

#[allow(clippy::too_many_arguments)]
fn check_bsrxmv(
    h: &CHandle,
    rng: &mut Rng,
    t: DataType,
    shape: (usize, usize, usize, usize),
    draw: Draw,
    column_blocks: bool,
    base: i32,
) -> Result<(), String> {
    let (mb, nb, block, per_row) = shape;
    let a = Matrix::random(rng, t, (mb, nb, block), per_row, base);
    let dev = DevMatrix::upload(&a, t);
    let descr = Descr::new(base);
    let (m, k) = (mb * block, nb * block);
    // Block row i reads positions starts[i] .. ends[i], inside its stored blocks.
    let (mut starts, mut ends) = (Vec::with_capacity(mb), Vec::with_capacity(mb));
    for i in 0..mb {
        let (lo, count) = (a.row_ptr[i], (a.row_ptr[i + 1] - a.row_ptr[i]) as u64);
        let (s, e) = if draw == Draw::Random {
            let (p, q) = (rng.below(count + 1) as i32, rng.below(count + 1) as i32);
            (p.min(q), p.max(q))
        } else {
            (0, count as i32)
        };
        starts.push(lo + s);
        ends.push(lo + e);
    }
    let listed = match draw {
        Draw::Random => {
            let count = rng.below(mb as u64 + 1) as usize;
            rng.distinct(mb as u64, count)
        }
        Draw::Empty => vec![],
        Draw::Whole => (0..mb as u64).collect(),
    };
    let mask: Vec<i32> = listed.iter().map(|&r| r as i32 + base).collect();
    let (mask_dev, starts_dev, ends_dev) = (indices(&mask), indices(&starts), indices(&ends));
    let masks = Mask { size: mask.len() as c_int, mask: mask_dev.ptr, starts: starts_dev.ptr, ends: ends_dev.ptr };
    let x = random(rng, t, k);
    let x_dev = DevBuf::from_slice(&common::bytes::encode(t, &x).into_iter().chain([0u8; 16]).collect::<Vec<_>>());
    let mode = if rng.below(2) == 0 { PointerMode::OXSPARSE_POINTER_MODE_HOST } else { PointerMode::OXSPARSE_POINTER_MODE_DEVICE };
    h.set_mode(mode);
    let dims = (mb as c_int, nb as c_int, a.col_ind.len() as c_int, block as c_int);
    for beta_zero in [true, false] {
        let alpha = random(rng, t, 1)[0];
        let beta = if beta_zero { ZERO } else { random(rng, t, 1)[0] };
        let y0 = random(rng, t, m);
        let y_dev = output(t, m, (!beta_zero).then_some(&y0[..]));
        let (alpha_s, beta_s) = (Scalar::new(mode, t, alpha), Scalar::new(mode, t, beta));
        let (a_ptr, b_ptr) = (alpha_s.ptr() as u64, beta_s.ptr() as u64);
        let s = unsafe { call_bsrxmv(t, h, (column_blocks as c_int, 0), dims, a_ptr, &descr, &dev, &masks, x_dev.ptr, b_ptr, y_dev.ptr) };
        expect(s, "bsrxmv")?;
        sync();
        let got = read(&y_dev, t, m)?;
        let old = if beta_zero { vec![(f64::NAN, f64::NAN); m] } else { y0.clone() };
        let mut want = old.clone();
        let legacy = LegacyBsr { row_ptr: &starts, ..a.legacy(column_blocks, base) };
        reference::bsrxmv(alpha, &legacy, &ends, &mask, &x, beta, &mut want);
        let abs_values: Vec<Value> = a.values.iter().map(|&v| abs1(v)).collect();
        let abs_a = LegacyBsr { values: &abs_values, ..legacy };
        let abs_x: Vec<Value> = x.iter().map(|&v| abs1(v)).collect();
        let mut scale: Vec<Value> = y0.iter().map(|&v| abs1(v)).collect();
        reference::bsrxmv(abs1(alpha), &abs_a, &ends, &mask, &abs_x, if beta_zero { ZERO } else { abs1(beta) }, &mut scale);
        let tol = tolerance(t, k);
        let mut tally = Tally::default();
        let mut in_mask = vec![false; mb];
        listed.iter().for_each(|&r| in_mask[r as usize] = true);
        for r in 0..m {
            if in_mask[r / block] {
                tally.check(&tol, got[r], want[r], scale[r].0, || format!("y[{r}]"));
            } else {
                // The NaN poison reads back as (NaN, 0) in a real type, (NaN, NaN) in a complex one.
                let kept = if beta_zero { got[r].0.is_nan() && (got[r].1.is_nan() || !t.is_complex()) } else { got[r] == old[r] };
                if !kept {
                    return Err(format!("y[{r}] lies in block row {} outside the mask but was written: {:?}", r / block, got[r]));
                }
            }
        }
        tally.result().map_err(|e| format!("beta {}: {e}", if beta_zero { "0" } else { "random" }))?;
        if draw == Draw::Whole {
            same_as_bsrmv(h, t, (column_blocks as c_int, dims), (a_ptr, b_ptr), &descr, &dev, x_dev.ptr, &y0, beta_zero, &got)?;
        }
    }
    Ok(())
}

/// bsrmv on the same A, x, scalars and starting y gives `got` exactly.
#[allow(clippy::too_many_arguments)]
fn same_as_bsrmv(
    h: &CHandle,
    t: DataType,
    (dir, (mb, nb, nnzb, block)): (c_int, (c_int, c_int, c_int, c_int)),
    (alpha, beta): (u64, u64),
    d: &Descr,
    a: &DevMatrix,
    x: u64,
    y0: &[Value],
    beta_zero: bool,
    got: &[Value],
) -> Result<(), String> {
    let m = y0.len();
    let y = output(t, m, (!beta_zero).then_some(y0));
    let (rp, ci, v) = (a.row_ptr.ptr as *const c_int, a.col_ind.ptr as *const c_int, a.values.ptr);
    let s = unsafe {
        match t {
            CUDA_R_32F => oxsparseSbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y.ptr as _),
            CUDA_R_64F => oxsparseDbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y.ptr as _),
            CUDA_C_32F => oxsparseCbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y.ptr as _),
            _ => oxsparseZbsrmv(h.0, dir, 0, mb, nb, nnzb, alpha as _, d.0, v as _, rp, ci, block, x as _, beta as _, y.ptr as _),
        }
    };
    expect(s, "bsrmv")?;
    sync();
    let want = read(&y, t, m)?;
    // Equal values (bsrmv may take a scaling shortcut for an empty A, whose zeros carry no sign).
    match got.iter().zip(&want).position(|(g, w)| g != w) {
        None => Ok(()),
        Some(r) => Err(format!("every block row listed: y[{r}] = {:?}, bsrmv gives {:?}", got[r], want[r])),
    }
}

#[test]
fn bsrxmv_equals_the_reference() {
    let Some(_gpu) = gpu("legacy bsrxmv") else { return };
    let h = CHandle::new();
    let mut rng = Rng::new(0xb5_4a3);
    let mut failures = Vec::new();
    let mut cases = 0;
    for t in TYPES {
        for (i, shape) in SHAPES.into_iter().enumerate() {
            for (j, (column_blocks, base)) in [(false, 0), (true, 1), (true, 0), (false, 1)].into_iter().enumerate() {
                let draw = [Draw::Random, Draw::Random, Draw::Whole, Draw::Empty][(i + j) % 4];
                cases += 1;
                if let Err(e) = check_bsrxmv(&h, &mut rng, t, shape, draw, column_blocks, base) {
                    failures.push(format!("{t:?} {shape:?} {draw:?} column blocks {column_blocks} base {base}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cases} cases failed:\n{}", failures.len(), failures.join("\n"));
    println!("bsrxmv: {cases} cases equal the reference");
}

/// The statuses cuSPARSE's arguments call for, on a live handle, nothing written: sizeOfMask
/// above mb or negative, transA T (NOT_SUPPORTED), a symmetric descriptor
/// (MATRIX_TYPE_NOT_SUPPORTED), blockDim 0, a NULL end pointer array.
#[test]
fn refusals_leave_y_alone() {
    let Some(_gpu) = gpu("legacy bsrxmv refusals") else { return };
    let h = CHandle::new();
    let mut rng = Rng::new(4);
    let t = CUDA_R_32F;
    let a = Matrix::random(&mut rng, t, (4, 4, 2), 2, 0);
    let dev = DevMatrix::upload(&a, t);
    let (descr, symmetric) = (Descr::new(0), Descr::new(0));
    assert_eq!(unsafe { oxsparseSetMatType(symmetric.0, 1) }, 0);
    let x = DevBuf::from_slice(&common::bytes::encode(t, &random(&mut rng, t, 8)));
    let y = output(t, 8, None);
    let (mask, ends) = (indices(&[2, 0]), indices(&a.row_ptr[1..]));
    let (one, zero) = (1.0f32, 0.0f32);
    let (alpha, beta) = (&one as *const f32, &zero as *const f32);
    let nnzb = a.col_ind.len() as c_int;
    let call = |size: c_int, trans: c_int, d: &Descr, block: c_int, ends: u64| {
        let m = Mask { size, mask: mask.ptr, starts: dev.row_ptr.ptr, ends };
        unsafe { call_bsrxmv(t, &h, (0, trans), (4, 4, nnzb, block), alpha as u64, d, &dev, &m, x.ptr, beta as u64, y.ptr) }
    };
    let status = |s: Status| s as c_int;
    let invalid = status(Status::OXSPARSE_STATUS_INVALID_VALUE);
    assert_eq!(call(5, 0, &descr, 2, ends.ptr), invalid, "sizeOfMask 5 for mb 4");
    assert_eq!(call(-1, 0, &descr, 2, ends.ptr), invalid, "sizeOfMask -1");
    assert_eq!(call(2, 1, &descr, 2, ends.ptr), status(Status::OXSPARSE_STATUS_NOT_SUPPORTED), "transA T");
    assert_eq!(call(2, 0, &symmetric, 2, ends.ptr), status(Status::OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED), "symmetric");
    assert_eq!(call(2, 0, &descr, 0, ends.ptr), invalid, "blockDim 0");
    assert_eq!(call(2, 0, &descr, 2, 0), invalid, "no end pointers");
    assert_eq!(call(2, 3, &descr, 2, ends.ptr), invalid, "transA 3");
    sync();
    assert!(read(&y, t, 8).unwrap().iter().all(|v| v.0.is_nan()), "a refused call wrote y");
    assert_eq!(call(2, 0, &descr, 2, ends.ptr), 0, "the valid call");
    sync();
    let got = read(&y, t, 8).unwrap();
    assert!(got[2..4].iter().chain(&got[6..]).all(|v| v.0.is_nan()), "block rows 1 and 3 are not in the mask");
    assert!(got[..2].iter().chain(&got[4..6]).all(|v| !v.0.is_nan()), "block rows 0 and 2 are, and beta is 0");
}
