//! The legacy index helpers: `oxsparseXcoo2csr`, `oxsparseXcsr2coo` and
//! `oxsparseCreateIdentityPermutation` (32-bit indices, as cuSPARSE's). Checks: handle, sizes,
//! pointers, the index base (src/ops/coo_csr.rs).

use super::descr_sparse::index_base;
use super::*;
use crate::ops::coo_csr as op;

/// Fills `p[0..n)` with `0, 1, ..., n - 1`, asynchronously on the handle's stream.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `p` is NULL or a device array of `n` ints.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreateIdentityPermutation(handle: oxsparseHandle_t, n: c_int, p: *mut c_int) -> oxsparseStatus_t {
    guard("oxsparseCreateIdentityPermutation", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        op::identity_permutation(&h.inner, n, p as u64)
    })
}

/// Converts the row indices of `nnz` COO entries, sorted by row, into the `m + 1` CSR row offsets
/// `csrRowPtr`, both in base `idxBase`, asynchronously on the handle's stream.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `cooRowInd` holds `nnz` ints, `csrRowPtr` `m + 1`.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcoo2csr(
    handle: oxsparseHandle_t,
    cooRowInd: *const c_int,
    nnz: c_int,
    m: c_int,
    csrRowPtr: *mut c_int,
    idxBase: oxsparseIndexBase_t,
) -> oxsparseStatus_t {
    guard("oxsparseXcoo2csr", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        op::plan_coo2csr(cooRowInd as u64, nnz, m, csrRowPtr as u64)?;
        let base = index_base(idxBase)?;
        op::coo2csr(&h.inner, cooRowInd as u64, nnz, m, csrRowPtr as u64, base)
    })
}

/// Expands the `m + 1` CSR row offsets `csrRowPtr` into the row index of each of the `nnz`
/// entries, `cooRowInd`, both in base `idxBase`, asynchronously on the handle's stream.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `csrRowPtr` holds `m + 1` ints, `cooRowInd` `nnz`.
#[no_mangle]
pub unsafe extern "C" fn oxsparseXcsr2coo(
    handle: oxsparseHandle_t,
    csrRowPtr: *const c_int,
    nnz: c_int,
    m: c_int,
    cooRowInd: *mut c_int,
    idxBase: oxsparseIndexBase_t,
) -> oxsparseStatus_t {
    guard("oxsparseXcsr2coo", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        op::plan_csr2coo(csrRowPtr as u64, nnz, m, cooRowInd as u64)?;
        let base = index_base(idxBase)?;
        op::csr2coo(&h.inner, csrRowPtr as u64, nnz, m, cooRowInd as u64, base)
    })
}
