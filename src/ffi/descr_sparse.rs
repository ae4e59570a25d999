//! Sparse matrix descriptors: create (every format, with `Const` twins) and destroy. Their getters,
//! setters, attributes and strided batches are in descr_sparse_access.rs; sparse vectors in
//! descr_sparse_vector.rs (re-exported here).

use super::descr_dense::value_type;
pub use super::descr_sparse_vector::{
    oxsparseConstSpVecGet, oxsparseConstSpVecGetValues, oxsparseCreateConstSpVec, oxsparseCreateSpVec, oxsparseDestroySpVec,
    oxsparseSpVecGet, oxsparseSpVecGetIndexBase, oxsparseSpVecGetValues, oxsparseSpVecSetValues,
};
use super::*;
use crate::descr::{SpArrays, SpMat};
use crate::types::{IndexBase, IndexType, Order};
use std::os::raw::c_void;
use std::sync::Mutex;

pub(super) fn index_type(v: oxsparseIndexType_t, what: &str) -> Result<IndexType> {
    decode(v, what, IndexType::from_raw)
}

pub(super) fn index_base(v: oxsparseIndexBase_t) -> Result<IndexBase> {
    decode(v, "idxBase", IndexBase::from_raw)
}

fn arrays(offsets: *const c_void, indices: *const c_void, values: *const c_void) -> SpArrays {
    SpArrays { offsets: offsets as u64, indices: indices as u64, values: values as u64 }
}

/// Checks the out pointer before building, so a refused call leaves `*out` untouched.
unsafe fn publish_sp_mat(out: *mut oxsparseSpMatDescr_t, build: impl FnOnce() -> Result<SpMat>) -> Result<()> {
    out_ptr(out, "spMatDescr")?;
    let inner = build()?;
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    publish(out, Kind::SpMat, oxsparseSpMatDescr { inner, active: Mutex::new(None), serial })
}

/// Non-NULL index and value arrays are required once there are entries to point at.
fn require_entries(nnz: i64, indices: *const c_void, values: *const c_void, names: &str) -> Result<()> {
    if nnz > 0 && (indices.is_null() || values.is_null()) {
        return Err(Error::InvalidValue(format!("{names} must be non-NULL when nnz > 0")));
    }
    Ok(())
}

// ---- sparse matrix: creation -------------------------------------------------------------------

#[allow(clippy::too_many_arguments)]
unsafe fn create_compressed(
    csc: bool,
    out: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    offsets: *const c_void,
    indices: *const c_void,
    values: *const c_void,
    ot: oxsparseIndexType_t,
    it: oxsparseIndexType_t,
    base: oxsparseIndexBase_t,
    vt: cudaDataType,
) -> Result<()> {
    publish_sp_mat(out, || {
        require_entries(nnz, indices, values, "indices and values")?;
        let (ot, it) = (index_type(ot, "offsetsType")?, index_type(it, "indicesType")?);
        SpMat::compressed(csc, rows, cols, nnz, arrays(offsets, indices, values), ot, it, index_base(base)?, value_type(vt)?)
    })
}

/// Creates a CSR descriptor: `rows + 1` row offsets, `nnz` column indices and values.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateCsr(
    spMatDescr: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    csrRowOffsets: *mut c_void,
    csrColInd: *mut c_void,
    csrValues: *mut c_void,
    csrRowOffsetsType: oxsparseIndexType_t,
    csrColIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateCsr", || {
        create_compressed(
            false,
            spMatDescr,
            rows,
            cols,
            nnz,
            csrRowOffsets,
            csrColInd,
            csrValues,
            csrRowOffsetsType,
            csrColIndType,
            idxBase,
            valueType,
        )
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstCsr(
    spMatDescr: *mut oxsparseConstSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    csrRowOffsets: *const c_void,
    csrColInd: *const c_void,
    csrValues: *const c_void,
    csrRowOffsetsType: oxsparseIndexType_t,
    csrColIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstCsr", || {
        create_compressed(
            false,
            spMatDescr as _,
            rows,
            cols,
            nnz,
            csrRowOffsets,
            csrColInd,
            csrValues,
            csrRowOffsetsType,
            csrColIndType,
            idxBase,
            valueType,
        )
    })
}

/// Creates a CSC descriptor: `cols + 1` column offsets, `nnz` row indices and values.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateCsc(
    spMatDescr: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    cscColOffsets: *mut c_void,
    cscRowInd: *mut c_void,
    cscValues: *mut c_void,
    cscColOffsetsType: oxsparseIndexType_t,
    cscRowIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateCsc", || {
        create_compressed(
            true,
            spMatDescr,
            rows,
            cols,
            nnz,
            cscColOffsets,
            cscRowInd,
            cscValues,
            cscColOffsetsType,
            cscRowIndType,
            idxBase,
            valueType,
        )
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstCsc(
    spMatDescr: *mut oxsparseConstSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    cscColOffsets: *const c_void,
    cscRowInd: *const c_void,
    cscValues: *const c_void,
    cscColOffsetsType: oxsparseIndexType_t,
    cscRowIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstCsc", || {
        create_compressed(
            true,
            spMatDescr as _,
            rows,
            cols,
            nnz,
            cscColOffsets,
            cscRowInd,
            cscValues,
            cscColOffsetsType,
            cscRowIndType,
            idxBase,
            valueType,
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn create_coo(
    out: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    row_ind: *const c_void,
    col_ind: *const c_void,
    values: *const c_void,
    it: oxsparseIndexType_t,
    base: oxsparseIndexBase_t,
    vt: cudaDataType,
) -> Result<()> {
    publish_sp_mat(out, || {
        require_entries(nnz, row_ind, values, "cooRowInd, cooColInd and cooValues")?;
        require_entries(nnz, col_ind, values, "cooRowInd, cooColInd and cooValues")?;
        SpMat::coo(rows, cols, nnz, arrays(row_ind, col_ind, values), index_type(it, "cooIdxType")?, index_base(base)?, value_type(vt)?)
    })
}

/// Creates a COO descriptor: `nnz` row indices, column indices and values.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateCoo(
    spMatDescr: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    cooRowInd: *mut c_void,
    cooColInd: *mut c_void,
    cooValues: *mut c_void,
    cooIdxType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateCoo", || create_coo(spMatDescr, rows, cols, nnz, cooRowInd, cooColInd, cooValues, cooIdxType, idxBase, valueType))
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstCoo(
    spMatDescr: *mut oxsparseConstSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    cooRowInd: *const c_void,
    cooColInd: *const c_void,
    cooValues: *const c_void,
    cooIdxType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstCoo", || {
        create_coo(spMatDescr as _, rows, cols, nnz, cooRowInd, cooColInd, cooValues, cooIdxType, idxBase, valueType)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn create_bsr(
    out: *mut oxsparseSpMatDescr_t,
    brows: i64,
    bcols: i64,
    bnnz: i64,
    rbs: i64,
    cbs: i64,
    offsets: *const c_void,
    col_ind: *const c_void,
    values: *const c_void,
    ot: oxsparseIndexType_t,
    it: oxsparseIndexType_t,
    base: oxsparseIndexBase_t,
    vt: cudaDataType,
    order: oxsparseOrder_t,
) -> Result<()> {
    publish_sp_mat(out, || {
        require_entries(bnnz, col_ind, values, "bsrColInd and bsrValues")?;
        let (ot, it) = (index_type(ot, "bsrRowOffsetsType")?, index_type(it, "bsrColIndType")?);
        let (base, vt, order) = (index_base(base)?, value_type(vt)?, decode(order, "order", Order::from_raw)?);
        SpMat::bsr((brows, bcols, bnnz), (rbs, cbs), arrays(offsets, col_ind, values), ot, it, base, vt, order)
    })
}

/// Creates a BSR descriptor: `brows x bcols` blocks of `rowBlockSize x colBlockSize`, `bnnz` stored
/// blocks whose entries are laid out in `order`.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateBsr(
    spMatDescr: *mut oxsparseSpMatDescr_t,
    brows: i64,
    bcols: i64,
    bnnz: i64,
    rowBlockSize: i64,
    colBlockSize: i64,
    bsrRowOffsets: *mut c_void,
    bsrColInd: *mut c_void,
    bsrValues: *mut c_void,
    bsrRowOffsetsType: oxsparseIndexType_t,
    bsrColIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
    order: oxsparseOrder_t,
) -> oxsparseStatus_t {
    guard("oxsparseCreateBsr", || {
        create_bsr(
            spMatDescr,
            brows,
            bcols,
            bnnz,
            rowBlockSize,
            colBlockSize,
            bsrRowOffsets,
            bsrColInd,
            bsrValues,
            bsrRowOffsetsType,
            bsrColIndType,
            idxBase,
            valueType,
            order,
        )
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstBsr(
    spMatDescr: *mut oxsparseConstSpMatDescr_t,
    brows: i64,
    bcols: i64,
    bnnz: i64,
    rowBlockDim: i64,
    colBlockDim: i64,
    bsrRowOffsets: *const c_void,
    bsrColInd: *const c_void,
    bsrValues: *const c_void,
    bsrRowOffsetsType: oxsparseIndexType_t,
    bsrColIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
    order: oxsparseOrder_t,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstBsr", || {
        create_bsr(
            spMatDescr as _,
            brows,
            bcols,
            bnnz,
            rowBlockDim,
            colBlockDim,
            bsrRowOffsets,
            bsrColInd,
            bsrValues,
            bsrRowOffsetsType,
            bsrColIndType,
            idxBase,
            valueType,
            order,
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn create_blocked_ell(
    out: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    block: i64,
    ell_cols: i64,
    col_ind: *const c_void,
    values: *const c_void,
    it: oxsparseIndexType_t,
    base: oxsparseIndexBase_t,
    vt: cudaDataType,
) -> Result<()> {
    publish_sp_mat(out, || {
        // Saturating: the sizes are checked below, and an overflow must be refused, not panic.
        require_entries(rows.saturating_mul(ell_cols.max(0)), col_ind, values, "ellColInd and ellValue")?;
        let it = index_type(it, "ellIdxType")?;
        SpMat::blocked_ell(rows, cols, block, ell_cols, col_ind as u64, values as u64, it, index_base(base)?, value_type(vt)?)
    })
}

/// Creates a Blocked-ELL descriptor: square blocks of `ellBlockSize`, `ellCols` stored columns per
/// row (values are `rows x ellCols`, row-major; a block-column index of -1 marks an empty slot).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateBlockedEll(
    spMatDescr: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    ellBlockSize: i64,
    ellCols: i64,
    ellColInd: *mut c_void,
    ellValue: *mut c_void,
    ellIdxType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateBlockedEll", || {
        create_blocked_ell(spMatDescr, rows, cols, ellBlockSize, ellCols, ellColInd, ellValue, ellIdxType, idxBase, valueType)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstBlockedEll(
    spMatDescr: *mut oxsparseConstSpMatDescr_t,
    rows: i64,
    cols: i64,
    ellBlockSize: i64,
    ellCols: i64,
    ellColInd: *const c_void,
    ellValue: *const c_void,
    ellIdxType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstBlockedEll", || {
        create_blocked_ell(spMatDescr as _, rows, cols, ellBlockSize, ellCols, ellColInd, ellValue, ellIdxType, idxBase, valueType)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn create_sliced_ell(
    out: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    values_size: i64,
    slice: i64,
    offsets: *const c_void,
    col_ind: *const c_void,
    values: *const c_void,
    ot: oxsparseIndexType_t,
    it: oxsparseIndexType_t,
    base: oxsparseIndexBase_t,
    vt: cudaDataType,
) -> Result<()> {
    publish_sp_mat(out, || {
        require_entries(values_size, col_ind, values, "sellColInd and sellValues")?;
        let (ot, it) = (index_type(ot, "sellSliceOffsetsType")?, index_type(it, "sellColIndType")?);
        SpMat::sliced_ell(rows, cols, nnz, values_size, slice, arrays(offsets, col_ind, values), ot, it, index_base(base)?, value_type(vt)?)
    })
}

/// Creates a Sliced-ELL descriptor: slices of `sliceSize` rows stored column by column, padded
/// with column index -1, `sellValuesSize` slots in all.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateSlicedEll(
    spMatDescr: *mut oxsparseSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    sellValuesSize: i64,
    sliceSize: i64,
    sellSliceOffsets: *mut c_void,
    sellColInd: *mut c_void,
    sellValues: *mut c_void,
    sellSliceOffsetsType: oxsparseIndexType_t,
    sellColIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateSlicedEll", || {
        create_sliced_ell(
            spMatDescr,
            rows,
            cols,
            nnz,
            sellValuesSize,
            sliceSize,
            sellSliceOffsets,
            sellColInd,
            sellValues,
            sellSliceOffsetsType,
            sellColIndType,
            idxBase,
            valueType,
        )
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateConstSlicedEll(
    spMatDescr: *mut oxsparseConstSpMatDescr_t,
    rows: i64,
    cols: i64,
    nnz: i64,
    sellValuesSize: i64,
    sliceSize: i64,
    sellSliceOffsets: *const c_void,
    sellColInd: *const c_void,
    sellValues: *const c_void,
    sellSliceOffsetsType: oxsparseIndexType_t,
    sellColIndType: oxsparseIndexType_t,
    idxBase: oxsparseIndexBase_t,
    valueType: cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCreateConstSlicedEll", || {
        create_sliced_ell(
            spMatDescr as _,
            rows,
            cols,
            nnz,
            sellValuesSize,
            sliceSize,
            sellSliceOffsets,
            sellColInd,
            sellValues,
            sellSliceOffsetsType,
            sellColIndType,
            idxBase,
            valueType,
        )
    })
}

/// Destroys a sparse matrix descriptor of any format (NULL is accepted and ignored).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroySpMat(spMatDescr: oxsparseConstSpMatDescr_t) -> oxsparseStatus_t {
    guard("oxsparseDestroySpMat", || destroy(spMatDescr, Kind::SpMat, "spMatDescr"))
}
