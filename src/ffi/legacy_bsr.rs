//! The legacy BSR products: `oxsparse[SDCZ]bsrmv`, `oxsparse[SDCZ]bsrxmv` and
//! `oxsparse[SDCZ]bsrmm`, cuSPARSE 12.6's deprecated-but-exported level-2 and level-3 block
//! routines (src/ops/legacy_bsr.rs). Checks: handle, descrA, sizes (blockDim > 0, ldb, ldc;
//! bsrxmv: sizeOfMask in 0..=mb, then its arrays), alpha and beta, the enums, then descrA's type
//! (only GENERAL: MATRIX_TYPE_NOT_SUPPORTED) and the operations (transA only NON_TRANSPOSE, transB
//! not CONJUGATE_TRANSPOSE: NOT_SUPPORTED). blockDim 1 is accepted (cuSPARSE documents blockDim >
//! 1). Asynchronous on the handle's stream; alpha and beta follow the handle's pointer mode.

use super::*;
use crate::ops::legacy_bsr::{self as op, BsrA, BsrmmDense, BsrxMask};
use crate::types::DataType::{self, *};
use std::os::raw::{c_int, c_void};

/// A's legacy arguments, as received.
struct Legacy {
    dir: c_int,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    values: u64,
    row_ptr: u64,
    col_ind: u64,
    block: c_int,
}

/// The handle and descrA, checked first, then A as the core takes it.
unsafe fn operands<'a>(
    handle: oxsparseHandle_t,
    descrA: oxsparseMatDescr_t,
    a: Legacy,
    t: DataType,
) -> Result<(&'a oxsparseContext, BsrA)> {
    let h = borrow(handle, Kind::Handle, "handle")?;
    let descr = borrow(descrA as *const oxsparseMatDescr, Kind::MatDescr, "descrA")?.inner;
    let bsr = BsrA {
        dir: a.dir,
        mb: a.mb,
        nb: a.nb,
        nnzb: a.nnzb,
        block: a.block,
        descr,
        values: a.values,
        row_ptr: a.row_ptr,
        col_ind: a.col_ind,
        value_type: t,
    };
    Ok((h, bsr))
}

#[allow(clippy::too_many_arguments)]
unsafe fn bsrmv(
    func: &str,
    t: DataType,
    handle: oxsparseHandle_t,
    transA: oxsparseOperation_t,
    a: Legacy,
    alpha: *const c_void,
    descrA: oxsparseMatDescr_t,
    x: u64,
    beta: *const c_void,
    y: u64,
) -> oxsparseStatus_t {
    guard(func, || {
        let (h, a) = operands(handle, descrA, a, t)?;
        op::bsrmv(&h.inner, &a, transA, alpha, x, beta, y)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn bsrxmv(
    func: &str,
    t: DataType,
    handle: oxsparseHandle_t,
    transA: oxsparseOperation_t,
    a: Legacy,
    mask: BsrxMask,
    alpha: *const c_void,
    descrA: oxsparseMatDescr_t,
    x: u64,
    beta: *const c_void,
    y: u64,
) -> oxsparseStatus_t {
    guard(func, || {
        let (h, a) = operands(handle, descrA, a, t)?;
        op::bsrxmv(&h.inner, &a, transA, &mask, alpha, x, beta, y)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn bsrmm(
    func: &str,
    t: DataType,
    handle: oxsparseHandle_t,
    transA: oxsparseOperation_t,
    a: Legacy,
    dense: BsrmmDense,
    alpha: *const c_void,
    descrA: oxsparseMatDescr_t,
    beta: *const c_void,
) -> oxsparseStatus_t {
    guard(func, || {
        let (h, a) = operands(handle, descrA, a, t)?;
        op::bsrmm(&h.inner, &a, transA, &dense, alpha, beta)
    })
}

/// y = alpha * A * x + beta * y with A (`mb*blockDim x nb*blockDim`) in BSR: `nnzb` square blocks
/// of `blockDim`, each stored row by row (`dirA` ROW) or column by column (COLUMN), 32-bit
/// indices in `descrA`'s base. When beta is zero y is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSbsrmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const f32,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const f32,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const f32,
    beta: *const f32,
    y: *mut f32,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    bsrmv("oxsparseSbsrmv", CUDA_R_32F, handle, transA, a, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// y = alpha * A * x + beta * y with A (`mb*blockDim x nb*blockDim`) in BSR: `nnzb` square blocks
/// of `blockDim`, each stored row by row (`dirA` ROW) or column by column (COLUMN), 32-bit
/// indices in `descrA`'s base. When beta is zero y is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDbsrmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const f64,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const f64,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const f64,
    beta: *const f64,
    y: *mut f64,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    bsrmv("oxsparseDbsrmv", CUDA_R_64F, handle, transA, a, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// y = alpha * A * x + beta * y with A (`mb*blockDim x nb*blockDim`) in BSR: `nnzb` square blocks
/// of `blockDim`, each stored row by row (`dirA` ROW) or column by column (COLUMN), 32-bit
/// indices in `descrA`'s base. When beta is zero y is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCbsrmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const cuComplex,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const cuComplex,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const cuComplex,
    beta: *const cuComplex,
    y: *mut cuComplex,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    bsrmv("oxsparseCbsrmv", CUDA_C_32F, handle, transA, a, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// y = alpha * A * x + beta * y with A (`mb*blockDim x nb*blockDim`) in BSR: `nnzb` square blocks
/// of `blockDim`, each stored row by row (`dirA` ROW) or column by column (COLUMN), 32-bit
/// indices in `descrA`'s base. When beta is zero y is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`.
#[no_mangle]
pub unsafe extern "C" fn oxsparseZbsrmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const cuDoubleComplex,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const cuDoubleComplex,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const cuDoubleComplex,
    beta: *const cuDoubleComplex,
    y: *mut cuDoubleComplex,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    bsrmv("oxsparseZbsrmv", CUDA_C_64F, handle, transA, a, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// y = alpha * A * x + beta * y on the block rows `bsrSortedMaskPtrA` lists (`sizeOfMask` distinct
/// block rows, in `descrA`'s base), block row i summing its blocks `bsrSortedRowPtrA[i] ..
/// bsrSortedEndPtrA[i]`; A (`mb*blockDim x nb*blockDim`) and its blocks as in bsrmv. The rows of
/// y in other block rows are not touched; when beta is zero the listed rows are only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`, the
/// row and end pointers `mb` entries.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSbsrxmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    sizeOfMask: c_int,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const f32,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const f32,
    bsrSortedMaskPtrA: *const c_int,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedEndPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const f32,
    beta: *const f32,
    y: *mut f32,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    let mask = BsrxMask { size: sizeOfMask, mask: bsrSortedMaskPtrA as u64, ends: bsrSortedEndPtrA as u64 };
    bsrxmv("oxsparseSbsrxmv", CUDA_R_32F, handle, transA, a, mask, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// y = alpha * A * x + beta * y on the block rows `bsrSortedMaskPtrA` lists (`sizeOfMask` distinct
/// block rows, in `descrA`'s base), block row i summing its blocks `bsrSortedRowPtrA[i] ..
/// bsrSortedEndPtrA[i]`; A (`mb*blockDim x nb*blockDim`) and its blocks as in bsrmv. The rows of
/// y in other block rows are not touched; when beta is zero the listed rows are only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`, the
/// row and end pointers `mb` entries.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDbsrxmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    sizeOfMask: c_int,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const f64,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const f64,
    bsrSortedMaskPtrA: *const c_int,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedEndPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const f64,
    beta: *const f64,
    y: *mut f64,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    let mask = BsrxMask { size: sizeOfMask, mask: bsrSortedMaskPtrA as u64, ends: bsrSortedEndPtrA as u64 };
    bsrxmv("oxsparseDbsrxmv", CUDA_R_64F, handle, transA, a, mask, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// y = alpha * A * x + beta * y on the block rows `bsrSortedMaskPtrA` lists (`sizeOfMask` distinct
/// block rows, in `descrA`'s base), block row i summing its blocks `bsrSortedRowPtrA[i] ..
/// bsrSortedEndPtrA[i]`; A (`mb*blockDim x nb*blockDim`) and its blocks as in bsrmv. The rows of
/// y in other block rows are not touched; when beta is zero the listed rows are only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`, the
/// row and end pointers `mb` entries.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCbsrxmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    sizeOfMask: c_int,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const cuComplex,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const cuComplex,
    bsrSortedMaskPtrA: *const c_int,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedEndPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const cuComplex,
    beta: *const cuComplex,
    y: *mut cuComplex,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    let mask = BsrxMask { size: sizeOfMask, mask: bsrSortedMaskPtrA as u64, ends: bsrSortedEndPtrA as u64 };
    bsrxmv("oxsparseCbsrxmv", CUDA_C_32F, handle, transA, a, mask, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// y = alpha * A * x + beta * y on the block rows `bsrSortedMaskPtrA` lists (`sizeOfMask` distinct
/// block rows, in `descrA`'s base), block row i summing its blocks `bsrSortedRowPtrA[i] ..
/// bsrSortedEndPtrA[i]`; A (`mb*blockDim x nb*blockDim`) and its blocks as in bsrmv. The rows of
/// y in other block rows are not touched; when beta is zero the listed rows are only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `x` holds `nb*blockDim` values, `y` `mb*blockDim`, the
/// row and end pointers `mb` entries.
#[no_mangle]
pub unsafe extern "C" fn oxsparseZbsrxmv(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    sizeOfMask: c_int,
    mb: c_int,
    nb: c_int,
    nnzb: c_int,
    alpha: *const cuDoubleComplex,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const cuDoubleComplex,
    bsrSortedMaskPtrA: *const c_int,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedEndPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockDim: c_int,
    x: *const cuDoubleComplex,
    beta: *const cuDoubleComplex,
    y: *mut cuDoubleComplex,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockDim,
    };
    let mask = BsrxMask { size: sizeOfMask, mask: bsrSortedMaskPtrA as u64, ends: bsrSortedEndPtrA as u64 };
    bsrxmv("oxsparseZbsrxmv", CUDA_C_64F, handle, transA, a, mask, alpha.cast(), descrA, x as u64, beta.cast(), y as u64)
}

/// C = alpha * A * op(B) + beta * C with A (`mb*blockDim x kb*blockDim`) in BSR as in bsrmv, B
/// and C column-major: B is `kb*blockDim x n` (transB NON_TRANSPOSE, `ldb >= max(1, kb*blockDim)`)
/// or `n x kb*blockDim` (TRANSPOSE, `ldb >= max(1, n)`), C is `mb*blockDim x n` (`ldc >= max(1,
/// mb*blockDim)`). When beta is zero C is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): B and C hold the columns their leading dimensions give.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSbsrmm(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    transB: oxsparseOperation_t,
    mb: c_int,
    n: c_int,
    kb: c_int,
    nnzb: c_int,
    alpha: *const f32,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const f32,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockSize: c_int,
    B: *const f32,
    ldb: c_int,
    beta: *const f32,
    C: *mut f32,
    ldc: c_int,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb: kb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockSize,
    };
    let dense = BsrmmDense { trans_b: transB, n, b: B as u64, ldb, c: C as u64, ldc };
    bsrmm("oxsparseSbsrmm", CUDA_R_32F, handle, transA, a, dense, alpha.cast(), descrA, beta.cast())
}

/// C = alpha * A * op(B) + beta * C with A (`mb*blockDim x kb*blockDim`) in BSR as in bsrmv, B
/// and C column-major: B is `kb*blockDim x n` (transB NON_TRANSPOSE, `ldb >= max(1, kb*blockDim)`)
/// or `n x kb*blockDim` (TRANSPOSE, `ldb >= max(1, n)`), C is `mb*blockDim x n` (`ldc >= max(1,
/// mb*blockDim)`). When beta is zero C is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): B and C hold the columns their leading dimensions give.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDbsrmm(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    transB: oxsparseOperation_t,
    mb: c_int,
    n: c_int,
    kb: c_int,
    nnzb: c_int,
    alpha: *const f64,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const f64,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockSize: c_int,
    B: *const f64,
    ldb: c_int,
    beta: *const f64,
    C: *mut f64,
    ldc: c_int,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb: kb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockSize,
    };
    let dense = BsrmmDense { trans_b: transB, n, b: B as u64, ldb, c: C as u64, ldc };
    bsrmm("oxsparseDbsrmm", CUDA_R_64F, handle, transA, a, dense, alpha.cast(), descrA, beta.cast())
}

/// C = alpha * A * op(B) + beta * C with A (`mb*blockDim x kb*blockDim`) in BSR as in bsrmv, B
/// and C column-major: B is `kb*blockDim x n` (transB NON_TRANSPOSE, `ldb >= max(1, kb*blockDim)`)
/// or `n x kb*blockDim` (TRANSPOSE, `ldb >= max(1, n)`), C is `mb*blockDim x n` (`ldc >= max(1,
/// mb*blockDim)`). When beta is zero C is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): B and C hold the columns their leading dimensions give.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCbsrmm(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    transB: oxsparseOperation_t,
    mb: c_int,
    n: c_int,
    kb: c_int,
    nnzb: c_int,
    alpha: *const cuComplex,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const cuComplex,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockSize: c_int,
    B: *const cuComplex,
    ldb: c_int,
    beta: *const cuComplex,
    C: *mut cuComplex,
    ldc: c_int,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb: kb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockSize,
    };
    let dense = BsrmmDense { trans_b: transB, n, b: B as u64, ldb, c: C as u64, ldc };
    bsrmm("oxsparseCbsrmm", CUDA_C_32F, handle, transA, a, dense, alpha.cast(), descrA, beta.cast())
}

/// C = alpha * A * op(B) + beta * C with A (`mb*blockDim x kb*blockDim`) in BSR as in bsrmv, B
/// and C column-major: B is `kb*blockDim x n` (transB NON_TRANSPOSE, `ldb >= max(1, kb*blockDim)`)
/// or `n x kb*blockDim` (TRANSPOSE, `ldb >= max(1, n)`), C is `mb*blockDim x n` (`ldc >= max(1,
/// mb*blockDim)`). When beta is zero C is only written.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): B and C hold the columns their leading dimensions give.
#[no_mangle]
pub unsafe extern "C" fn oxsparseZbsrmm(
    handle: oxsparseHandle_t,
    dirA: oxsparseDirection_t,
    transA: oxsparseOperation_t,
    transB: oxsparseOperation_t,
    mb: c_int,
    n: c_int,
    kb: c_int,
    nnzb: c_int,
    alpha: *const cuDoubleComplex,
    descrA: oxsparseMatDescr_t,
    bsrSortedValA: *const cuDoubleComplex,
    bsrSortedRowPtrA: *const c_int,
    bsrSortedColIndA: *const c_int,
    blockSize: c_int,
    B: *const cuDoubleComplex,
    ldb: c_int,
    beta: *const cuDoubleComplex,
    C: *mut cuDoubleComplex,
    ldc: c_int,
) -> oxsparseStatus_t {
    let a = Legacy {
        dir: dirA,
        mb,
        nb: kb,
        nnzb,
        values: bsrSortedValA as u64,
        row_ptr: bsrSortedRowPtrA as u64,
        col_ind: bsrSortedColIndA as u64,
        block: blockSize,
    };
    let dense = BsrmmDense { trans_b: transB, n, b: B as u64, ldb, c: C as u64, ldc };
    bsrmm("oxsparseZbsrmm", CUDA_C_64F, handle, transA, a, dense, alpha.cast(), descrA, beta.cast())
}
