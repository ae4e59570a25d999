//! The legacy BSR products, `bsrmv` (y = alpha * A * x + beta * y), `bsrxmv` (the same on the
//! block rows a mask names) and `bsrmm` (C = alpha * A * op(B) + beta * C, B and C column-major),
//! as cuSPARSE 12.6 defines them: square blocks of `blockDim`, 32-bit indices, `dirA` the order of
//! each block's values, the legacy matrix descriptor's index base, only
//! `CUSPARSE_MATRIX_TYPE_GENERAL` and only A not transposed.
//!
//! They take no workspace. `bsrmv` and `bsrmm` build internal descriptors over the caller's arrays
//! (never registered, never seen by C) and run the generic SpMV / SpMM BSR path, whose plans for
//! BSR ask for none; `bsrxmv`, whose rows have separate start and end positions, has a kernel of
//! its own beside the generic BSR one (kernels/spmv_formats.cu) with the same sums. Scalars follow
//! the handle's pointer mode.

use crate::context::Handle;
use crate::descr::{check_aligned, DnMat, DnVec, MatDescr, SpArrays, SpMat};
use crate::error::{invalid, unsupported, Error, Result};
use crate::kernels::params::spmv::{SpmvBsrParams, SpmvBsrxParams, SpmvShape};
use crate::kernels::{self, spmv as k};
use crate::ops::{spmm, spmv};
use crate::types::{DataType, Direction, IndexType, MatrixType, Operation, Order, SpMMAlg, SpMVAlg};
use std::ffi::c_void;

/// A in the legacy arguments: `mb x nb` blocks of `block x block`, `nnzb` stored.
#[derive(Clone, Copy, Debug)]
pub struct BsrA {
    /// `dirA` as received (decoded after the sizes and pointers, in the API's order of checks).
    pub dir: i32,
    pub mb: i32,
    pub nb: i32,
    pub nnzb: i32,
    pub block: i32,
    pub descr: MatDescr,
    pub values: u64,
    pub row_ptr: u64,
    pub col_ind: u64,
    pub value_type: DataType,
}

/// The dense operands of `bsrmm`: B (`ldb`, transposed or not) and C (`ldc`), `n` columns of C.
#[derive(Clone, Copy, Debug)]
pub struct BsrmmDense {
    /// `transB` as received.
    pub trans_b: i32,
    pub n: i32,
    pub b: u64,
    pub ldb: i32,
    pub c: u64,
    pub ldc: i32,
}

/// A's sizes, checked by both routines after the handle and the descriptor.
fn check_a(a: &BsrA) -> Result<()> {
    if a.mb < 0 || a.nb < 0 || a.nnzb < 0 {
        invalid!("mb ({}), nb ({}) and nnzb ({}) must be >= 0", a.mb, a.nb, a.nnzb);
    }
    if a.block <= 0 {
        invalid!("blockDim ({}) must be > 0", a.block);
    }
    Ok(())
}

/// The scalars, then the enums: A's block order and operation.
fn check_scalars_and_enums(a: &BsrA, trans_a: i32, alpha: *const c_void, beta: *const c_void) -> Result<(Order, Operation)> {
    if alpha.is_null() || beta.is_null() {
        invalid!("alpha and beta must not be NULL");
    }
    let order = match Direction::from_raw(a.dir) {
        Some(Direction::OXSPARSE_DIRECTION_ROW) => Order::OXSPARSE_ORDER_ROW,
        Some(Direction::OXSPARSE_DIRECTION_COLUMN) => Order::OXSPARSE_ORDER_COL,
        None => invalid!("dirA has invalid value {}", a.dir),
    };
    let Some(op) = Operation::from_raw(trans_a) else { invalid!("transA has invalid value {trans_a}") };
    Ok((order, op))
}

/// What both routines refuse as unsupported once every value is valid.
fn check_support(a: &BsrA, trans_a: Operation) -> Result<()> {
    if a.descr.matrix_type != MatrixType::OXSPARSE_MATRIX_TYPE_GENERAL {
        return Err(Error::MatrixTypeNotSupported(format!("descrA's type is {:?}; only GENERAL is supported", a.descr.matrix_type)));
    }
    if trans_a != Operation::OXSPARSE_OPERATION_NON_TRANSPOSE {
        unsupported!("transA {trans_a:?}: only NON_TRANSPOSE is supported");
    }
    Ok(())
}

/// The internal generic descriptor of A.
fn sp_mat(a: &BsrA, order: Order) -> Result<SpMat> {
    let arrays = SpArrays { offsets: a.row_ptr, indices: a.col_ind, values: a.values };
    let i32i = IndexType::OXSPARSE_INDEX_32I;
    let block = a.block as i64;
    SpMat::bsr((a.mb as i64, a.nb as i64, a.nnzb as i64), (block, block), arrays, i32i, i32i, a.descr.index_base, a.value_type, order)
}

/// `bsrmv`: arguments in cuSPARSE's order of checks, then y = alpha * A * x + beta * y.
///
/// # Safety
/// `alpha` and `beta` are non-NULL and, in host pointer mode, point to a value of A's type.
pub unsafe fn bsrmv(h: &Handle, a: &BsrA, trans_a: i32, alpha: *const c_void, x: u64, beta: *const c_void, y: u64) -> Result<()> {
    check_a(a)?;
    let (order, trans_a) = check_scalars_and_enums(a, trans_a, alpha, beta)?;
    check_support(a, trans_a)?;
    if a.mb == 0 {
        return Ok(());
    }
    let mat = sp_mat(a, order)?;
    let x = DnVec::new(mat.cols, x, a.value_type)?;
    let y = DnVec::new(mat.rows, y, a.value_type)?;
    let call = spmv::Call {
        op_a: trans_a,
        a: &mat,
        x: &x,
        y: &y,
        compute: a.value_type,
        alg: SpMVAlg::OXSPARSE_SPMV_ALG_DEFAULT,
        alpha,
        beta,
        settings: &h.settings,
    };
    no_workspace(spmv::buffer_size(h, &call)?)?;
    spmv::spmv(h, &call, 0, None)
}

/// `bsrmm`: arguments in cuSPARSE's order of checks, then C = alpha * A * op(B) + beta * C.
///
/// # Safety
/// `alpha` and `beta` are non-NULL and, in host pointer mode, point to a value of A's type.
pub unsafe fn bsrmm(h: &Handle, a: &BsrA, trans_a: i32, d: &BsrmmDense, alpha: *const c_void, beta: *const c_void) -> Result<()> {
    check_a(a)?;
    if d.n < 0 {
        invalid!("n ({}) must be >= 0", d.n);
    }
    let (m, k, n) = (a.mb as i64 * a.block as i64, a.nb as i64 * a.block as i64, d.n as i64);
    // ldb is checked before transB is decoded: an invalid transB reads as NON_TRANSPOSE here.
    let transposed_b = d.trans_b == Operation::OXSPARSE_OPERATION_TRANSPOSE as i32
        || d.trans_b == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE as i32;
    let b_rows = if transposed_b { n } else { k };
    if (d.ldb as i64) < b_rows.max(1) {
        invalid!("ldb ({}) must be >= max(1, {})", d.ldb, b_rows);
    }
    if (d.ldc as i64) < m.max(1) {
        invalid!("ldc ({}) must be >= max(1, m = {m})", d.ldc);
    }
    let (order, trans_a) = check_scalars_and_enums(a, trans_a, alpha, beta)?;
    let Some(trans_b) = Operation::from_raw(d.trans_b) else { invalid!("transB has invalid value {}", d.trans_b) };
    check_support(a, trans_a)?;
    if trans_b == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE {
        unsupported!("transB CONJUGATE_TRANSPOSE: only NON_TRANSPOSE and TRANSPOSE are supported");
    }
    if m == 0 || n == 0 {
        return Ok(());
    }
    let mat = sp_mat(a, order)?;
    let col = Order::OXSPARSE_ORDER_COL;
    let b = if transposed_b {
        DnMat::new(n, k, d.ldb as i64, d.b, a.value_type, col)?
    } else {
        DnMat::new(k, n, d.ldb as i64, d.b, a.value_type, col)?
    };
    let c = DnMat::new(m, n, d.ldc as i64, d.c, a.value_type, col)?;
    let call = spmm::Call {
        op_a: trans_a,
        op_b: trans_b,
        a: &mat,
        b: &b,
        c: &c,
        compute: a.value_type,
        alg: SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT,
        alpha,
        beta,
        math: h.math_mode,
        reorder: h.reorder_mode,
        a_serial: 0,
        device: &h.device_model,
        settings: &h.settings,
    };
    no_workspace(spmm::buffer_size(h, &call)?)?;
    spmm::spmm(h, &call, 0, None)
}

/// The mask of `bsrxmv`: `size` block rows listed at `mask` (32-bit, in descrA's base), and the
/// end positions `ends[i]` of every block row's blocks (A's `row_ptr` holds the starts).
#[derive(Clone, Copy, Debug)]
pub struct BsrxMask {
    pub size: i32,
    pub mask: u64,
    pub ends: u64,
}

/// `bsrxmv`'s sizes and pointers once A's sizes passed: `sizeOfMask` in 0..=mb (a block row is
/// listed at most once), then the arrays a masked row reads, non-NULL when read and aligned to
/// their elements.
fn check_bsrx_arrays(a: &BsrA, m: &BsrxMask, x: u64, y: u64) -> Result<()> {
    if m.size < 0 || m.size > a.mb {
        invalid!("sizeOfMask ({}) must be in 0..=mb ({})", m.size, a.mb);
    }
    let rows = m.size > 0;
    let element = a.value_type.size_bytes();
    let arrays = [
        ("bsrSortedValA", a.values, rows && a.nnzb > 0, element),
        ("bsrSortedMaskPtrA", m.mask, rows, 4),
        ("bsrSortedRowPtrA", a.row_ptr, rows, 4),
        ("bsrSortedEndPtrA", m.ends, rows, 4),
        ("bsrSortedColIndA", a.col_ind, rows && a.nnzb > 0, 4),
        ("x", x, rows && a.nb > 0, element),
        ("y", y, rows, element),
    ];
    for (what, p, read, align) in arrays {
        if read && p == 0 {
            invalid!("{what} is NULL");
        }
        check_aligned(what, p, align)?;
    }
    Ok(())
}

/// `bsrxmv`: arguments in cuSPARSE's order of checks, then y = alpha * A * x + beta * y on the
/// rows of the block rows the mask lists, each block row `i` summing its blocks `row_ptr[i] ..
/// ends[i]`; every other row of y is left as it was. A block row listed twice gives an undefined
/// result (cuSPARSE's mask lists distinct block rows).
///
/// # Safety
/// `alpha` and `beta` are non-NULL and, in host pointer mode, point to a value of A's type.
#[allow(clippy::too_many_arguments)]
pub unsafe fn bsrxmv(
    h: &Handle,
    a: &BsrA,
    trans_a: i32,
    m: &BsrxMask,
    alpha: *const c_void,
    x: u64,
    beta: *const c_void,
    y: u64,
) -> Result<()> {
    check_a(a)?;
    check_bsrx_arrays(a, m, x, y)?;
    let (order, trans_a) = check_scalars_and_enums(a, trans_a, alpha, beta)?;
    check_support(a, trans_a)?;
    // Products of two ints: they fit in int64.
    let block = a.block as i64;
    let (rows, cols) = (a.mb as i64 * block, a.nb as i64 * block);
    if m.size == 0 {
        return Ok(());
    }
    let t = a.value_type;
    let shape = SpmvShape { m: rows, k: cols, x, y, alpha: kernels::scalar(h, alpha, t)?, beta: kernels::scalar(h, beta, t)? };
    let bsr = SpmvBsrParams {
        shape,
        offsets: a.row_ptr,
        col_ind: a.col_ind,
        values: a.values,
        base: a.descr.index_base.offset(),
        row_block: block,
        col_block: block,
        col_major_blocks: (order == Order::OXSPARSE_ORDER_COL) as i32,
        pad: 0,
    };
    k::bsrx(h, &SpmvBsrxParams { bsr, ends: m.ends, mask: m.mask, mask_size: m.size as i64 }, t)
}

/// The legacy routines have no workspace argument: the BSR plans they run must need none.
fn no_workspace(bytes: usize) -> Result<()> {
    if bytes != 0 {
        return Err(Error::Internal(format!("the BSR plan asks for {bytes} bytes of workspace; the legacy routines have none")));
    }
    Ok(())
}
