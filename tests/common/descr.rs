//! Descriptors made through the exported C functions: a generated `HostSparse` uploaded and
//! described in its own format (the SpMM and SpMV harnesses), and the FP32 CSR matrices (32-bit
//! indices, base 0), row-major dense matrices and dense vectors of the hand-written C-ABI tests,
//! each creation checked.

use super::bytes::encode;
use super::values::encode_indices;
use super::DevBuf;
use oxsparse::descr::FormatInfo;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::*;
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::types::{DataType, IndexBase, IndexType, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;
pub const F32: i32 = DataType::CUDA_R_32F as i32;
const I32: i32 = IndexType::OXSPARSE_INDEX_32I as i32;

/// `a`'s offsets, indices (`it` wide) and values (stored as `t`) on the device, in that order.
pub fn upload_arrays(a: &HostSparse, t: DataType, it: IndexType) -> [DevBuf; 3] {
    [
        DevBuf::from_slice(&encode_indices(it, &a.offsets)),
        DevBuf::from_slice(&encode_indices(it, &a.indices)),
        DevBuf::from_slice(&encode(t, &a.values)),
    ]
}

/// Describes `a`, uploaded in `arrays` (`upload_arrays`), in its format through the matching
/// oxsparseCreate* into `out`; `nnz` as that descriptor counts it (BSR: stored blocks; Sliced-ELL:
/// entries that are not padding). Returns the call's status.
pub unsafe fn create_sparse(
    out: &mut oxsparseSpMatDescr_t,
    a: &HostSparse,
    arrays: &[DevBuf; 3],
    nnz: i64,
    (t, it, base): (DataType, IndexType, IndexBase),
) -> i32 {
    let [o, i, v] = [0, 1, 2].map(|x| arrays[x].ptr as *mut c_void);
    let (rows, cols, t, it, base) = (a.rows, a.cols, t as i32, it as i32, base as i32);
    match a.format {
        FormatInfo::Csr => oxsparseCreateCsr(out, rows, cols, nnz, o, i, v, it, it, base, t),
        FormatInfo::Csc => oxsparseCreateCsc(out, rows, cols, nnz, o, i, v, it, it, base, t),
        FormatInfo::Coo => oxsparseCreateCoo(out, rows, cols, nnz, o, i, v, it, base, t),
        FormatInfo::Bsr { brows, bcols, bnnz, row_block, col_block, block_order } => {
            oxsparseCreateBsr(out, brows, bcols, bnnz, row_block, col_block, o, i, v, it, it, base, t, block_order as i32)
        }
        FormatInfo::BlockedEll { block_size, ell_cols } => {
            oxsparseCreateBlockedEll(out, rows, cols, block_size, ell_cols, i, v, it, base, t)
        }
        FormatInfo::SlicedEll { slice_size, values_size } => {
            oxsparseCreateSlicedEll(out, rows, cols, nnz, values_size, slice_size, o, i, v, it, it, base, t)
        }
    }
}

/// Host pointers to alpha = 1 and beta = 0 in FP32: a plain product.
pub fn one_zero() -> (*const c_void, *const c_void) {
    static ONE: f32 = 1.0;
    static ZERO: f32 = 0.0;
    (&ONE as *const f32 as *const c_void, &ZERO as *const f32 as *const c_void)
}

/// An FP32 CSR descriptor over `arrays` (offsets, columns, values; 32-bit indices from 0).
pub unsafe fn csr_f32(rows: i64, cols: i64, nnz: i64, arrays: &[DevBuf; 3]) -> oxsparseSpMatDescr_t {
    let [o, i, v] = [0, 1, 2].map(|k| arrays[k].ptr as *mut c_void);
    let mut d = null_mut();
    assert_eq!(oxsparseCreateCsr(&mut d, rows, cols, nnz, o, i, v, I32, I32, 0, F32), OK, "oxsparseCreateCsr");
    d
}

/// A row-major FP32 `rows x cols` dense matrix over `buf`, lines `cols` apart.
pub unsafe fn dn_mat_f32(rows: i64, cols: i64, buf: &DevBuf) -> oxsparseDnMatDescr_t {
    let mut d = null_mut();
    let row_major = oxsparse::types::Order::OXSPARSE_ORDER_ROW as i32;
    assert_eq!(oxsparseCreateDnMat(&mut d, rows, cols, cols, buf.ptr as *mut c_void, F32, row_major), OK, "oxsparseCreateDnMat");
    d
}

/// An FP32 dense vector of `n` elements over `buf`.
pub unsafe fn dn_vec_f32(n: i64, buf: &DevBuf) -> oxsparseDnVecDescr_t {
    let mut d = null_mut();
    assert_eq!(oxsparseCreateDnVec(&mut d, n, buf.ptr as *mut c_void, F32), OK, "oxsparseCreateDnVec");
    d
}
