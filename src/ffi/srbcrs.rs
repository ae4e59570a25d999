//! The native SR-BCRS object (oxsparse only; issue 60): `oxsparseCreateSrBcrs` builds it from an
//! int4, int8 or int16 CSR or Blocked-ELL matrix on the GPU (`oxsparseCreateSrBcrsFromArrays` from
//! arrays already in its layout), `oxsparseSrBcrsGetInfo` and
//! `oxsparseSrBcrsGetValueType` describe it, `oxsparseSrBcrsSetRowScale` gives it an FP32 scale per
//! row, `oxsparseSpMM_srBcrs` (with its bufferSize and preprocess) multiplies it on integer tensor
//! cores, `oxsparseDestroySrBcrs` frees it. The core is src/ops/srbcrs.rs; the layout is
//! docs/design/srbcrs.md's. `oxsparseSDDMM_srBcrs` (with its bufferSize and preprocess, at the end
//! of this file) computes integer A B at the object's stored slots (src/ops/srbcrs_sddmm.rs).

use super::*;
use crate::ops::srbcrs::SrBcrs;
use crate::ops::srbcrs_arrays::SrBcrsArrays;
use crate::types::DataType;
use std::os::raw::c_void;

/// Builds the SR-BCRS form of `matA`, on the GPU: CSR or Blocked-ELL, integer values
/// (`CUDA_R_4I`: two to a byte, the lower entry in the low nibble; `CUDA_R_8I`; `CUDA_R_16I`),
/// 32- or 64-bit offsets and indices. CSR: each row's columns strictly increasing. Blocked-ELL:
/// each block row's block columns strictly increasing (a negative one, -1, is an empty slot,
/// anywhere in the row); every element of a stored block is an entry, zeros included (the blocks
/// are the structure), but for the columns of a last block past the matrix's. Rows are grouped
/// `vectorLength` at a time (2, 4 or 8; the
/// last group may be partial); every column any row of a group holds becomes one vector of the
/// group's values (zero where a row has no entry); each group's vectors are padded with zero
/// vectors to a multiple of the stride, the k depth of the `mma` the values feed: 64 for int4
/// (m16n8k64 s4), 32 for int8 and int16 (m16n8k32 s8; int16 is split into bytes). The object owns
/// copies of everything: `matA`'s arrays may be freed after it is made. It waits for the GPU, and
/// is refused under stream capture (its size is read back).
///
/// NOT_SUPPORTED for other formats, value types, batches, 16-bit indices or 2^31 columns or more;
/// INVALID_VALUE for int16 values not 2-byte aligned, a vector length other than 2, 4 or 8, rows
/// whose columns are unsorted, repeated or outside `[0, cols)`, or block rows whose block columns
/// are unsorted, repeated or start at or past `cols`.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateSrBcrs(
    handle: oxsparseHandle_t,
    matA: oxsparseConstSpMatDescr_t,
    vectorLength: c_int,
    srBcrs: *mut oxsparseSrBcrs_t,
) -> oxsparseStatus_t {
    guard("oxsparseCreateSrBcrs", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let a = &borrow(matA, Kind::SpMat, "matA")?.inner;
        out_ptr(srBcrs, "srBcrs")?;
        let object = SrBcrs::create(&h.inner, a, vectorLength)?;
        publish(srBcrs, Kind::SrBcrs, oxsparseSrBcrs { inner: object })
    })
}

/// Makes an SR-BCRS object from its arrays, given directly in the layout `oxsparseSrBcrsGetInfo`
/// describes (device memory, copied into the object: they may be freed after): `vectorOffsets`
/// (int32, rows / vectorLength rounded up, plus one: from 0 to `vectors`, each vector row's count
/// a multiple of the stride, 64 for `CUDA_R_4I` and 32 for `CUDA_R_8I` and `CUDA_R_16I`),
/// `vectorColumns` (int32 per vector: each vector row's columns in `[0, cols)`, strictly
/// increasing, then its padding repeating the last one), `values` (`vectors x vectorLength` of
/// `valueType`, each stride block a vectorLength x stride row-major tile; padding vectors' values
/// zero). The object's nnz counts its real vectors' rows inside the matrix. It waits for the GPU
/// and is refused under stream capture (the arrays are read back and checked).
///
/// INVALID_VALUE for negative sizes, a vector length other than 2, 4 or 8, `vectors` not a
/// multiple of the stride, NULL or misaligned arrays (4 bytes; int16 values 2), or arrays that
/// break the layout (offsets, columns or nonzero padding); NOT_SUPPORTED for other value types or
/// 2^31 columns or more.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names; the
/// arrays are device memory of the sizes above.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn oxsparseCreateSrBcrsFromArrays(
    handle: oxsparseHandle_t,
    rows: i64,
    cols: i64,
    vectorLength: c_int,
    vectors: i64,
    vectorOffsets: *const c_void,
    vectorColumns: *const c_void,
    values: *const c_void,
    valueType: cudaDataType,
    srBcrs: *mut oxsparseSrBcrs_t,
) -> oxsparseStatus_t {
    guard("oxsparseCreateSrBcrsFromArrays", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        out_ptr(srBcrs, "srBcrs")?;
        let value_type = decode(valueType, "valueType", DataType::from_raw)?;
        let arrays = SrBcrsArrays { offsets: vectorOffsets as u64, columns: vectorColumns as u64, values: values as u64 };
        let object = SrBcrs::from_arrays(&h.inner, (rows, cols), vectorLength, value_type, vectors, &arrays)?;
        publish(srBcrs, Kind::SrBcrs, oxsparseSrBcrs { inner: object })
    })
}

/// What the object holds: A's rows, columns and entries as its descriptor counted them (CSR: nnz;
/// Blocked-ELL: rows x ellCols); the vector length and the stride (64
/// for int4, 32 for int8 and int16); the stored vectors, padding included; and its device arrays
/// (read-only, valid while the object lives): `vectorOffsets` (int32, rows / vectorLength rounded
/// up, plus one: where each group's vectors start, multiples of the stride), `vectorColumns` (int32
/// per vector) and `values` (of the object's value type, `oxsparseSrBcrsGetValueType`, int4 two
/// to a byte: vectorLength per vector, the vectors of each stride block stored as a vectorLength x
/// stride row-major tile, the form an `mma` fragment loads directly). Any output pointer may be
/// NULL.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSrBcrsGetInfo(
    srBcrs: oxsparseConstSrBcrs_t,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    vectorLength: *mut c_int,
    stride: *mut c_int,
    vectors: *mut i64,
    vectorOffsets: *mut *const c_void,
    vectorColumns: *mut *const c_void,
    values: *mut *const c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSrBcrsGetInfo", || {
        let s = &borrow(srBcrs, Kind::SrBcrs, "srBcrs")?.inner;
        for (p, v) in [(rows, s.rows), (cols, s.cols), (nnz, s.nnz), (vectors, s.vectors)] {
            if !p.is_null() {
                *p = v;
            }
        }
        for (p, v) in [(vectorLength, s.vector_length), (stride, s.stride as c_int)] {
            if !p.is_null() {
                *p = v;
            }
        }
        for (p, v) in [(vectorOffsets, s.vec_ptr), (vectorColumns, s.vec_col), (values, s.vec_val)] {
            if !p.is_null() {
                *p = v as *const c_void;
            }
        }
        Ok(())
    })
}

/// The workspace `oxsparseSpMM_srBcrs` needs for these operands: 0 bytes (it checks them as the
/// call does, so a refused combination is refused here first).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM_srBcrs_bufferSize(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    srBcrs: oxsparseConstSrBcrs_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseConstDnMatDescr_t,
    computeType: cudaDataType,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseSpMM_srBcrs_bufferSize", || {
        let (h, s, b, c) = spmm_operands(handle, srBcrs, matB, matC)?;
        scalars_given(alpha, beta)?;
        let out = out_ptr(bufferSize, "bufferSize")?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        *out = s.spmm_buffer_size(h, b, c, compute)?;
        Ok(())
    })
}

/// Checks the operands as `oxsparseSpMM_srBcrs` will; the object is already in its final form, so
/// there is nothing to precompute (`externalBuffer` may be NULL).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM_srBcrs_preprocess(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    srBcrs: oxsparseConstSrBcrs_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseDnMatDescr_t,
    computeType: cudaDataType,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    let _ = externalBuffer;
    guard("oxsparseSpMM_srBcrs_preprocess", || {
        let (h, s, b, c) = spmm_operands(handle, srBcrs, matB, matC)?;
        scalars_given(alpha, beta)?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        s.spmm_preprocess(h, b, c, compute)
    })
}

/// C = alpha * rowScale * A * B + beta * C with A the object, B (row- or column-major, any leading
/// dimension) of an integer type at most as wide as A's (sparse bits - dense bits: 16-16, 16-8,
/// 8-8, 16-4, 8-4, 4-4; int4 B two to a byte in the order of its element index, low nibble
/// first) and C of `computeType`: `CUDA_R_32I` (alpha and beta int32; the result wraps as two's
/// complement int32) or `CUDA_R_32F` (alpha and beta float, applied to the int32 product, each
/// operation rounded; rowScale the object's, `oxsparseSrBcrsSetRowScale`, or 1). A * B is
/// accumulated in int32 on integer tensor cores (sm_80 and newer: `mma` m16n8k64 s4 for int4,
/// m16n8k32 s8 for the rest, int4 B widened to bytes, int16 operands split into a signed high and
/// an unsigned low byte with one mma per pair of halves, the partial sums combined by shifts): the
/// exact product modulo 2^32 (exact while it fits int32; each partial sum is exact for K up to
/// 32,768). With beta == 0, C is not read. Asynchronous on the handle's stream; alpha and beta in
/// the handle's pointer mode; `externalBuffer` may be NULL (no workspace).
///
/// INVALID_VALUE when the shapes do not match (B: A's columns x N; C: A's rows x N) or int16 B's
/// values are not 2-byte aligned; NOT_SUPPORTED for a B type that is not an integer type at most as
/// wide as A's (e.g. int8 or int16 B with an int4 object), a C type other than `computeType`, a
/// compute type other than `CUDA_R_32I` or `CUDA_R_32F`, `CUDA_R_32I` on an object with a row
/// scale, batches, or N above 4,194,240.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSpMM_srBcrs(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    srBcrs: oxsparseConstSrBcrs_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    matC: oxsparseDnMatDescr_t,
    computeType: cudaDataType,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    let _ = externalBuffer;
    guard("oxsparseSpMM_srBcrs", || {
        let (h, s, b, c) = spmm_operands(handle, srBcrs, matB, matC)?;
        scalars_given(alpha, beta)?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        s.spmm(h, alpha, b, beta, c, compute)
    })
}

/// Frees the object and its device memory (waiting for work that uses it). NULL is a no-op.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroySrBcrs(srBcrs: oxsparseConstSrBcrs_t) -> oxsparseStatus_t {
    guard("oxsparseDestroySrBcrs", || destroy(srBcrs, Kind::SrBcrs, "srBcrs"))
}

/// The object's value type: `CUDA_R_4I`, `CUDA_R_8I` or `CUDA_R_16I` (the type of the CSR matrix
/// it was made from).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSrBcrsGetValueType(srBcrs: oxsparseConstSrBcrs_t, valueType: *mut cudaDataType) -> oxsparseStatus_t {
    guard("oxsparseSrBcrsGetValueType", || {
        let s = &borrow(srBcrs, Kind::SrBcrs, "srBcrs")?.inner;
        *out_ptr(valueType, "valueType")? = s.value_type as cudaDataType;
        Ok(())
    })
}

/// Gives the object a per-row output scale: `rowScale` points to A's rows FP32 values in device
/// memory (4-byte aligned), copied into the object (the call waits for the copy; the array may go
/// after). `oxsparseSpMM_srBcrs` then writes C = alpha * rowScale[i] * (A B)[i, j] + beta * C, so a
/// layer quantised per output channel is dequantised in the same call; FP32 C only (int32 C is
/// refused while a scale is set). NULL removes the scale.
///
/// INVALID_VALUE for a misaligned `rowScale` or a handle on another device than the object.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names;
/// `rowScale`, when not NULL, is a device pointer to A's rows floats.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSrBcrsSetRowScale(
    handle: oxsparseHandle_t,
    srBcrs: oxsparseSrBcrs_t,
    rowScale: *const c_void,
) -> oxsparseStatus_t {
    guard("oxsparseSrBcrsSetRowScale", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        let s = &mut borrow_mut(srBcrs, Kind::SrBcrs, "srBcrs")?.inner;
        s.set_row_scale(&h.inner, rowScale as u64)
    })
}

/// The handle, the object, B and C of an SpMM call, borrowed in the API's order.
unsafe fn spmm_operands<'a>(
    handle: oxsparseHandle_t,
    srBcrs: oxsparseConstSrBcrs_t,
    matB: oxsparseConstDnMatDescr_t,
    matC: oxsparseConstDnMatDescr_t,
) -> crate::error::Result<(&'a crate::context::Handle, &'a SrBcrs, &'a crate::descr::DnMat, &'a crate::descr::DnMat)> {
    let live = live_objects();
    let h = &live.borrow(handle, Kind::Handle, "handle")?.inner;
    let s = &live.borrow(srBcrs, Kind::SrBcrs, "srBcrs")?.inner;
    let b = &live.borrow(matB, Kind::DnMat, "matB")?.inner;
    let c = &live.borrow(matC, Kind::DnMat, "matC")?.inner;
    Ok((h, s, b, c))
}

// ---- SDDMM on the object's stored slots ---------------------------------------------------------

/// The workspace `oxsparseSDDMM_srBcrs` needs for these operands: 0 bytes (it checks them as the
/// call does, so a refused combination is refused here first).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSDDMM_srBcrs_bufferSize(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    srBcrs: oxsparseConstSrBcrs_t,
    vecC: oxsparseConstDnVecDescr_t,
    computeType: cudaDataType,
    bufferSize: *mut usize,
) -> oxsparseStatus_t {
    guard("oxsparseSDDMM_srBcrs_bufferSize", || {
        let (h, a, b, s, c) = sddmm_operands(handle, matA, matB, srBcrs, vecC)?;
        scalars_given(alpha, beta)?;
        let out = out_ptr(bufferSize, "bufferSize")?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        *out = s.sddmm_buffer_size(h, a, b, c, compute)?;
        Ok(())
    })
}

/// Checks the operands as `oxsparseSDDMM_srBcrs` will; the object is already in its final form,
/// so there is nothing to precompute (`externalBuffer` may be NULL).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSDDMM_srBcrs_preprocess(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    srBcrs: oxsparseConstSrBcrs_t,
    vecC: oxsparseDnVecDescr_t,
    computeType: cudaDataType,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    let _ = externalBuffer;
    guard("oxsparseSDDMM_srBcrs_preprocess", || {
        let (h, a, b, s, c) = sddmm_operands(handle, matA, matB, srBcrs, vecC)?;
        scalars_given(alpha, beta)?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        s.sddmm_preprocess(h, a, b, c, compute)
    })
}

/// SDDMM with the object as the mask: for every slot the object stores (each vector's
/// `vectorLength` rows at its column), `vecC[slot] = alpha * (A * B)(row, column) + beta *
/// vecC[slot]`. A is the object's rows x K, B is K x the object's columns, both of integer types
/// with A at least as wide as B (A bits - B bits: 4-4, 8-4, 8-8, 16-4, 16-8, 16-16; `CUDA_R_4I`
/// two to a byte in the order of the element index, low nibble first); either may be row- or
/// column-major with any leading dimension (A row-major and B column-major with 16-byte aligned
/// lines, addresses and leading dimensions in bytes multiples of 16, are read in 16-byte loads;
/// other layouts element by element, much slower). `vecC` holds `vectors x vectorLength` values of `computeType`
/// (`oxsparseSrBcrsGetInfo`'s counts) in the object's value order: slot (vector p, row r of its
/// group) at `(p / S) * S * vectorLength + r * S + p % S`, S the object's stride (64 for an int4
/// object, 32 otherwise), so the result is laid out as an object of that type's values.
/// `CUDA_R_32I`: alpha and beta int32, the result wraps as two's complement int32;
/// `CUDA_R_32F`: alpha and beta float, applied to the exact product. The slots of padding
/// vectors, and of the missing rows of a partial last group, are set to 0. The mask is
/// vector-wise: a row of a group gets a value at every column any row of its group holds. The
/// object's values and row scale are not read; its value type only sets the order. A * B is
/// accumulated exactly in int32 on integer tensor cores (`mma` m16n8k32, sm_80 and newer; int4
/// widened to bytes, int16 split into a signed high and an unsigned low byte with one mma per
/// pair of halves, the partial sums combined by shifts): exact while no partial sum leaves int32
/// (K up to 131,071 for int4 and int8; 32,768 when an operand is int16). With beta == 0, vecC is
/// not read.
/// Asynchronous on the handle's stream; alpha and beta in the handle's pointer mode;
/// `externalBuffer` may be NULL (no workspace).
///
/// INVALID_VALUE when the shapes do not match (A: the object's rows x K; B: K x its columns) or
/// vecC's size is not the object's slot count; NOT_SUPPORTED for A or B of a non-integer type, B
/// wider than A, a vecC type other than `computeType`, a compute type other than `CUDA_R_32I` or
/// `CUDA_R_32F`, or batches.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSDDMM_srBcrs(
    handle: oxsparseHandle_t,
    alpha: *const c_void,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    beta: *const c_void,
    srBcrs: oxsparseConstSrBcrs_t,
    vecC: oxsparseDnVecDescr_t,
    computeType: cudaDataType,
    externalBuffer: *mut c_void,
) -> oxsparseStatus_t {
    let _ = externalBuffer;
    guard("oxsparseSDDMM_srBcrs", || {
        let (h, a, b, s, c) = sddmm_operands(handle, matA, matB, srBcrs, vecC)?;
        scalars_given(alpha, beta)?;
        let compute = decode(computeType, "computeType", DataType::from_raw)?;
        s.sddmm(h, alpha, a, b, beta, c, compute)
    })
}

/// The handle, A, B, the object and the output of an SDDMM call, borrowed in the API's order.
#[allow(clippy::type_complexity)]
unsafe fn sddmm_operands<'a>(
    handle: oxsparseHandle_t,
    matA: oxsparseConstDnMatDescr_t,
    matB: oxsparseConstDnMatDescr_t,
    srBcrs: oxsparseConstSrBcrs_t,
    vecC: oxsparseConstDnVecDescr_t,
) -> crate::error::Result<(&'a crate::context::Handle, &'a crate::descr::DnMat, &'a crate::descr::DnMat, &'a SrBcrs, &'a crate::descr::DnVec)>
{
    let live = live_objects();
    let h = &live.borrow(handle, Kind::Handle, "handle")?.inner;
    let a = &live.borrow(matA, Kind::DnMat, "matA")?.inner;
    let b = &live.borrow(matB, Kind::DnMat, "matB")?.inner;
    let s = &live.borrow(srBcrs, Kind::SrBcrs, "srBcrs")?.inner;
    let c = &live.borrow(vecC, Kind::DnVec, "vecC")?.inner;
    Ok((h, a, b, s, c))
}
