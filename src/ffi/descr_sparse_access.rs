//! Sparse matrix descriptor getters and setters: size, format, values, per-format `Get`, pointers,
//! attributes and strided batches.

use super::*;
use crate::descr::{FormatInfo, SpArrays, SpMat};
use crate::types::{DiagType, FillMode, SpMatAttribute};
use std::os::raw::c_void;

unsafe fn sp_mat<'a>(d: oxsparseConstSpMatDescr_t) -> Result<&'a SpMat> {
    Ok(&borrow(d, Kind::SpMat, "spMatDescr")?.inner)
}

unsafe fn sp_mat_mut<'a>(d: oxsparseSpMatDescr_t) -> Result<&'a mut SpMat> {
    Ok(&mut borrow_mut(d, Kind::SpMat, "spMatDescr")?.inner)
}

/// Refuses a per-format accessor used on a descriptor of another format.
fn expect_format(m: &SpMat, want: FormatInfo, what: &str) -> Result<()> {
    if std::mem::discriminant(&m.format) != std::mem::discriminant(&want) {
        return Err(Error::InvalidValue(format!("{what} called on a {:?} descriptor", m.format_enum())));
    }
    Ok(())
}

// ---- common ------------------------------------------------------------------------------------

/// Rows, columns and stored entries (BSR: in elements; Blocked-ELL: rows x ellCols).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatGetSize(
    spMatDescr: oxsparseConstSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
) -> oxsparseStatus_t {
    guard("oxsparseSpMatGetSize", || {
        let m = sp_mat(spMatDescr)?;
        let (r, c, n) = (out_ptr(rows, "rows")?, out_ptr(cols, "cols")?, out_ptr(nnz, "nnz")?);
        (*r, *c, *n) = (m.rows, m.cols, m.nnz);
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatGetFormat(spMatDescr: oxsparseConstSpMatDescr_t, format: *mut oxsparseFormat_t) -> oxsparseStatus_t {
    guard("oxsparseSpMatGetFormat", || {
        let m = sp_mat(spMatDescr)?;
        *out_ptr(format, "format")? = m.format_enum() as c_int;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatGetIndexBase(
    spMatDescr: oxsparseConstSpMatDescr_t,
    idxBase: *mut oxsparseIndexBase_t,
) -> oxsparseStatus_t {
    guard("oxsparseSpMatGetIndexBase", || {
        let m = sp_mat(spMatDescr)?;
        *out_ptr(idxBase, "idxBase")? = m.index_base as c_int;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatGetValues(spMatDescr: oxsparseSpMatDescr_t, values: *mut *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseSpMatGetValues", || {
        let m = sp_mat(spMatDescr)?;
        *out_ptr(values, "values")? = m.arrays.values as *mut c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstSpMatGetValues(
    spMatDescr: oxsparseConstSpMatDescr_t,
    values: *mut *const c_void,
) -> oxsparseStatus_t {
    guard("oxsparseConstSpMatGetValues", || {
        let m = sp_mat(spMatDescr)?;
        *out_ptr(values, "values")? = m.arrays.values as *const c_void;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatSetValues(spMatDescr: oxsparseSpMatDescr_t, values: *mut c_void) -> oxsparseStatus_t {
    guard("oxsparseSpMatSetValues", || {
        let m = sp_mat_mut(spMatDescr)?;
        if values.is_null() && m.nnz > 0 {
            return Err(Error::InvalidValue("values is NULL with nnz > 0".into()));
        }
        m.set_values(values as u64)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatGetStridedBatch(spMatDescr: oxsparseConstSpMatDescr_t, batchCount: *mut c_int) -> oxsparseStatus_t {
    guard("oxsparseSpMatGetStridedBatch", || {
        let m = sp_mat(spMatDescr)?;
        *out_ptr(batchCount, "batchCount")? = m.batch.count;
        Ok(())
    })
}

/// COO batch: row indices, column indices and values of batch i start `batchStride * i` entries in.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCooSetStridedBatch(
    spMatDescr: oxsparseSpMatDescr_t,
    batchCount: c_int,
    batchStride: i64,
) -> oxsparseStatus_t {
    guard("oxsparseCooSetStridedBatch", || {
        let m = sp_mat_mut(spMatDescr)?;
        expect_format(m, FormatInfo::Coo, "oxsparseCooSetStridedBatch")?;
        m.set_strided_batch(batchCount, batchStride, batchStride, batchStride)
    })
}

/// CSR batch; a stride of 0 shares that array among all batches.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCsrSetStridedBatch(
    spMatDescr: oxsparseSpMatDescr_t,
    batchCount: c_int,
    offsetsBatchStride: i64,
    columnsValuesBatchStride: i64,
) -> oxsparseStatus_t {
    guard("oxsparseCsrSetStridedBatch", || {
        let m = sp_mat_mut(spMatDescr)?;
        if !matches!(m.format, FormatInfo::Csr | FormatInfo::Csc) {
            return Err(Error::InvalidValue(format!("oxsparseCsrSetStridedBatch called on a {:?} descriptor", m.format_enum())));
        }
        m.set_strided_batch(batchCount, offsetsBatchStride, columnsValuesBatchStride, columnsValuesBatchStride)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseBsrSetStridedBatch(
    spMatDescr: oxsparseSpMatDescr_t,
    batchCount: c_int,
    offsetsBatchStride: i64,
    columnsBatchStride: i64,
    ValuesBatchStride: i64,
) -> oxsparseStatus_t {
    guard("oxsparseBsrSetStridedBatch", || {
        let m = sp_mat_mut(spMatDescr)?;
        if !matches!(m.format, FormatInfo::Bsr { .. }) {
            return Err(Error::InvalidValue(format!("oxsparseBsrSetStridedBatch called on a {:?} descriptor", m.format_enum())));
        }
        m.set_strided_batch(batchCount, offsetsBatchStride, columnsBatchStride, ValuesBatchStride)
    })
}

/// Reads the fill mode or diagonal type; `data` points to a 4-byte enum, `dataSize` must be 4.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatGetAttribute(
    spMatDescr: oxsparseConstSpMatDescr_t,
    attribute: oxsparseSpMatAttribute_t,
    data: *mut c_void,
    dataSize: usize,
) -> oxsparseStatus_t {
    guard("oxsparseSpMatGetAttribute", || {
        let m = sp_mat(spMatDescr)?;
        let out = out_ptr(data as *mut c_int, "data")?;
        let attribute = decode(attribute, "attribute", SpMatAttribute::from_raw)?;
        check_attribute_size(dataSize)?;
        *out = match attribute {
            SpMatAttribute::OXSPARSE_SPMAT_FILL_MODE => m.fill_mode as c_int,
            SpMatAttribute::OXSPARSE_SPMAT_DIAG_TYPE => m.diag_type as c_int,
        };
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMatSetAttribute(
    spMatDescr: oxsparseSpMatDescr_t,
    attribute: oxsparseSpMatAttribute_t,
    data: *mut c_void,
    dataSize: usize,
) -> oxsparseStatus_t {
    guard("oxsparseSpMatSetAttribute", || {
        let m = sp_mat_mut(spMatDescr)?;
        if data.is_null() {
            return Err(Error::InvalidValue("data is NULL".into()));
        }
        let attribute = decode(attribute, "attribute", SpMatAttribute::from_raw)?;
        check_attribute_size(dataSize)?;
        let v = *(data as *const c_int);
        match attribute {
            SpMatAttribute::OXSPARSE_SPMAT_FILL_MODE => m.fill_mode = decode(v, "fill mode", FillMode::from_raw)?,
            SpMatAttribute::OXSPARSE_SPMAT_DIAG_TYPE => m.diag_type = decode(v, "diag type", DiagType::from_raw)?,
        }
        Ok(())
    })
}

fn check_attribute_size(size: usize) -> Result<()> {
    if size != std::mem::size_of::<c_int>() {
        return Err(Error::InvalidValue(format!("dataSize ({size}) must be {}", std::mem::size_of::<c_int>())));
    }
    Ok(())
}

// ---- per-format getters ---------------------------------------------------------------------------

/// Writes the shape, arrays and types shared by the CSR, CSC and COO getters.
#[allow(clippy::too_many_arguments)]
unsafe fn get_three_arrays(
    m: &SpMat,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    a: *mut *const c_void,
    b: *mut *const c_void,
    v: *mut *const c_void,
    types: &[*mut c_int],
    base: *mut oxsparseIndexBase_t,
    vt: *mut cudaDataType,
) -> Result<()> {
    let (rows, cols, nnz) = (out_ptr(rows, "rows")?, out_ptr(cols, "cols")?, out_ptr(nnz, "nnz")?);
    let (a, b, v) = (out_ptr(a, "offsets")?, out_ptr(b, "indices")?, out_ptr(v, "values")?);
    let types: Vec<&mut c_int> = types.iter().map(|&t| out_ptr(t, "index type")).collect::<Result<_>>()?;
    let (base, vt) = (out_ptr(base, "idxBase")?, out_ptr(vt, "valueType")?);
    (*rows, *cols, *nnz) = (m.rows, m.cols, m.nnz);
    (*a, *b, *v) = (m.arrays.offsets as _, m.arrays.indices as _, m.arrays.values as _);
    let kinds = [m.offset_type as c_int, m.index_type as c_int];
    for (t, k) in types.into_iter().zip(kinds) {
        *t = k;
    }
    (*base, *vt) = (m.index_base as c_int, m.value_type as c_int);
    Ok(())
}

/// Shape, arrays and types of a CSR descriptor.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCsrGet(
    spMatDescr: oxsparseSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    csrRowOffsets: *mut *mut c_void,
    csrColInd: *mut *mut c_void,
    csrValues: *mut *mut c_void,
    csrRowOffsetsType: *mut oxsparseIndexType_t,
    csrColIndType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCsrGet", || {
        let m = sp_mat(spMatDescr)?;
        expect_format(m, FormatInfo::Csr, "oxsparseCsrGet")?;
        get_three_arrays(
            m,
            rows,
            cols,
            nnz,
            csrRowOffsets as _,
            csrColInd as _,
            csrValues as _,
            &[csrRowOffsetsType, csrColIndType],
            idxBase,
            valueType,
        )
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstCsrGet(
    spMatDescr: oxsparseConstSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    csrRowOffsets: *mut *const c_void,
    csrColInd: *mut *const c_void,
    csrValues: *mut *const c_void,
    csrRowOffsetsType: *mut oxsparseIndexType_t,
    csrColIndType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseConstCsrGet", || {
        let m = sp_mat(spMatDescr)?;
        expect_format(m, FormatInfo::Csr, "oxsparseConstCsrGet")?;
        get_three_arrays(m, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues, &[csrRowOffsetsType, csrColIndType], idxBase, valueType)
    })
}

/// Shape, arrays and types of a CSC descriptor.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCscGet(
    spMatDescr: oxsparseSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    cscColOffsets: *mut *mut c_void,
    cscRowInd: *mut *mut c_void,
    cscValues: *mut *mut c_void,
    cscColOffsetsType: *mut oxsparseIndexType_t,
    cscRowIndType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCscGet", || {
        let m = sp_mat(spMatDescr)?;
        expect_format(m, FormatInfo::Csc, "oxsparseCscGet")?;
        get_three_arrays(
            m,
            rows,
            cols,
            nnz,
            cscColOffsets as _,
            cscRowInd as _,
            cscValues as _,
            &[cscColOffsetsType, cscRowIndType],
            idxBase,
            valueType,
        )
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstCscGet(
    spMatDescr: oxsparseConstSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    cscColOffsets: *mut *const c_void,
    cscRowInd: *mut *const c_void,
    cscValues: *mut *const c_void,
    cscColOffsetsType: *mut oxsparseIndexType_t,
    cscRowIndType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseConstCscGet", || {
        let m = sp_mat(spMatDescr)?;
        expect_format(m, FormatInfo::Csc, "oxsparseConstCscGet")?;
        get_three_arrays(m, rows, cols, nnz, cscColOffsets, cscRowInd, cscValues, &[cscColOffsetsType, cscRowIndType], idxBase, valueType)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCooGet(
    spMatDescr: oxsparseSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    cooRowInd: *mut *mut c_void,
    cooColInd: *mut *mut c_void,
    cooValues: *mut *mut c_void,
    idxType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseCooGet", || {
        let m = sp_mat(spMatDescr)?;
        expect_format(m, FormatInfo::Coo, "oxsparseCooGet")?;
        get_three_arrays(m, rows, cols, nnz, cooRowInd as _, cooColInd as _, cooValues as _, &[idxType], idxBase, valueType)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstCooGet(
    spMatDescr: oxsparseConstSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    cooRowInd: *mut *const c_void,
    cooColInd: *mut *const c_void,
    cooValues: *mut *const c_void,
    idxType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseConstCooGet", || {
        let m = sp_mat(spMatDescr)?;
        expect_format(m, FormatInfo::Coo, "oxsparseConstCooGet")?;
        get_three_arrays(m, rows, cols, nnz, cooRowInd, cooColInd, cooValues, &[idxType], idxBase, valueType)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn blocked_ell_get(
    m: &SpMat,
    rows: *mut i64,
    cols: *mut i64,
    block: *mut i64,
    ell_cols: *mut i64,
    col_ind: *mut *const c_void,
    values: *mut *const c_void,
    it: *mut oxsparseIndexType_t,
    base: *mut oxsparseIndexBase_t,
    vt: *mut cudaDataType,
) -> Result<()> {
    let FormatInfo::BlockedEll { block_size, ell_cols: ec } = m.format else {
        return Err(Error::InvalidValue(format!("BlockedEllGet called on a {:?} descriptor", m.format_enum())));
    };
    let (rows, cols, block, ell_cols) =
        (out_ptr(rows, "rows")?, out_ptr(cols, "cols")?, out_ptr(block, "ellBlockSize")?, out_ptr(ell_cols, "ellCols")?);
    let (col_ind, values) = (out_ptr(col_ind, "ellColInd")?, out_ptr(values, "ellValue")?);
    let (it, base, vt) = (out_ptr(it, "ellIdxType")?, out_ptr(base, "idxBase")?, out_ptr(vt, "valueType")?);
    (*rows, *cols, *block, *ell_cols) = (m.rows, m.cols, block_size, ec);
    (*col_ind, *values) = (m.arrays.indices as _, m.arrays.values as _);
    (*it, *base, *vt) = (m.index_type as c_int, m.index_base as c_int, m.value_type as c_int);
    Ok(())
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseBlockedEllGet(
    spMatDescr: oxsparseSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    ellBlockSize: *mut i64,
    ellCols: *mut i64,
    ellColInd: *mut *mut c_void,
    ellValue: *mut *mut c_void,
    ellIdxType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseBlockedEllGet", || {
        blocked_ell_get(
            sp_mat(spMatDescr)?,
            rows,
            cols,
            ellBlockSize,
            ellCols,
            ellColInd as _,
            ellValue as _,
            ellIdxType,
            idxBase,
            valueType,
        )
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseConstBlockedEllGet(
    spMatDescr: oxsparseConstSpMatDescr_t,
    rows: *mut i64,
    cols: *mut i64,
    ellBlockSize: *mut i64,
    ellCols: *mut i64,
    ellColInd: *mut *const c_void,
    ellValue: *mut *const c_void,
    ellIdxType: *mut oxsparseIndexType_t,
    idxBase: *mut oxsparseIndexBase_t,
    valueType: *mut cudaDataType,
) -> oxsparseStatus_t {
    guard("oxsparseConstBlockedEllGet", || {
        blocked_ell_get(sp_mat(spMatDescr)?, rows, cols, ellBlockSize, ellCols, ellColInd, ellValue, ellIdxType, idxBase, valueType)
    })
}

// ---- pointer setters ---------------------------------------------------------------------------

unsafe fn set_pointers(
    d: oxsparseSpMatDescr_t,
    want: FormatInfo,
    what: &str,
    a: *mut c_void,
    b: *mut c_void,
    v: *mut c_void,
) -> Result<()> {
    let m = sp_mat_mut(d)?;
    expect_format(m, want, what)?;
    if m.nnz > 0 && (a.is_null() || b.is_null() || v.is_null()) {
        return Err(Error::InvalidValue(format!("{what}: arrays must be non-NULL when nnz > 0")));
    }
    m.set_arrays(SpArrays { offsets: a as u64, indices: b as u64, values: v as u64 })
}

/// Replaces the three arrays of a CSR descriptor (same shape and types).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCsrSetPointers(
    spMatDescr: oxsparseSpMatDescr_t,
    csrRowOffsets: *mut c_void,
    csrColInd: *mut c_void,
    csrValues: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseCsrSetPointers", || {
        set_pointers(spMatDescr, FormatInfo::Csr, "oxsparseCsrSetPointers", csrRowOffsets, csrColInd, csrValues)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCscSetPointers(
    spMatDescr: oxsparseSpMatDescr_t,
    cscColOffsets: *mut c_void,
    cscRowInd: *mut c_void,
    cscValues: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseCscSetPointers", || {
        set_pointers(spMatDescr, FormatInfo::Csc, "oxsparseCscSetPointers", cscColOffsets, cscRowInd, cscValues)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCooSetPointers(
    spMatDescr: oxsparseSpMatDescr_t,
    cooRows: *mut c_void,
    cooColumns: *mut c_void,
    cooValues: *mut c_void,
) -> oxsparseStatus_t {
    guard("oxsparseCooSetPointers", || set_pointers(spMatDescr, FormatInfo::Coo, "oxsparseCooSetPointers", cooRows, cooColumns, cooValues))
}
