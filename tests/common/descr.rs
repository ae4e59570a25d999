//! Descriptors made through the exported C functions: a generated `HostSparse` uploaded and
//! described in its own format (the SpMM and SpMV harnesses); the FP32 CSR matrices (32-bit
//! indices, base 0), row-major dense matrices and dense vectors of the hand-written C-ABI tests,
//! each creation checked; and the status tests' descriptors of every format over zeros.

use super::bytes::encode;
use super::capi::{expect, CHandle};
use super::values::encode_indices;
use super::DevBuf;
use oxsparse::descr::FormatInfo;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::*;
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::spmm::BatchedDense;
use oxsparse::types::{DataType, IndexBase, IndexType, Order, Status};
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

/// Describes the dense operand `d` (`gen::dense`) whose first element lies at device address
/// `values`, stored as `t`: a strided batch when it has several matrices.
pub unsafe fn dn_mat(d: &BatchedDense, values: u64, t: DataType) -> Result<oxsparseDnMatDescr_t, String> {
    let mut out = null_mut();
    let s = oxsparseCreateDnMat(&mut out, d.rows, d.cols, d.ld, values as *mut c_void, t as i32, d.order as i32);
    expect(s, "oxsparseCreateDnMat")?;
    if d.count > 1 {
        expect(oxsparseDnMatSetStridedBatch(out, d.count as i32, d.stride), "oxsparseDnMatSetStridedBatch")?;
    }
    Ok(out)
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

/// The status tests' ground: a handle, sparse descriptors of every format over one zeroed buffer
/// (every row empty, so a call accepted by mistake reads valid memory), a workspace of 1 MiB
/// poisoned with 0xFF, the failures found, and the dense operands `D` of the product under test
/// (`DnMats` for SpMM and SDDMM; their own `impl StatusFixture<D>` ask the calls, as SpMV's makes
/// its vectors too). The sparse
/// descriptors are destroyed on drop, `D`'s by its own drop, before the handle goes.
pub struct StatusFixture<D> {
    pub dense: D,
    pub h: CHandle,
    zeros: DevBuf,
    pub ws: DevBuf,
    sparse: Vec<oxsparseSpMatDescr_t>,
    pub failures: Vec<String>,
}

impl<D> StatusFixture<D> {
    pub fn with(dense: D) -> StatusFixture<D> {
        let ws = DevBuf::poisoned(1 << 20, 0xFF);
        StatusFixture { dense, h: CHandle::new(), zeros: DevBuf::zeroed(1 << 20), ws, sparse: vec![], failures: vec![] }
    }
    /// The zeroed buffer every descriptor points into.
    pub fn z(&self) -> *mut c_void {
        self.zeros.ptr as *mut c_void
    }
    /// Takes a sparse descriptor a test made (its creation status `s` must be SUCCESS), destroyed
    /// with the fixture.
    pub fn keep(&mut self, s: i32, d: oxsparseSpMatDescr_t) -> oxsparseSpMatDescr_t {
        assert_eq!(s, OK, "creating a sparse descriptor");
        self.sparse.push(d);
        d
    }
    /// CSR (or CSC) with 4 entries, offsets and indices of the given types.
    pub fn csr(&mut self, csc: bool, (rows, cols): (i64, i64), (ot, it): (IndexType, IndexType), vt: DataType) -> oxsparseSpMatDescr_t {
        let (mut d, z) = (null_mut(), self.z());
        let create = if csc { oxsparseCreateCsc } else { oxsparseCreateCsr };
        let s = unsafe { create(&mut d, rows, cols, 4, z, z, z, ot as i32, it as i32, 0, vt as i32) };
        self.keep(s, d)
    }
    pub fn coo(&mut self, (rows, cols): (i64, i64), it: IndexType, vt: DataType) -> oxsparseSpMatDescr_t {
        let (mut d, z) = (null_mut(), self.z());
        let s = unsafe { oxsparseCreateCoo(&mut d, rows, cols, 4, z, z, z, it as i32, 0, vt as i32) };
        self.keep(s, d)
    }
    /// BSR of 2 x 3 blocks of 2 x 2 (4 x 6), two stored blocks.
    pub fn bsr(&mut self, order: Order, (ot, it): (IndexType, IndexType), vt: DataType) -> oxsparseSpMatDescr_t {
        let (mut d, z) = (null_mut(), self.z());
        let s = unsafe { oxsparseCreateBsr(&mut d, 2, 3, 2, 2, 2, z, z, z, ot as i32, it as i32, 0, vt as i32, order as i32) };
        self.keep(s, d)
    }
    /// Blocked-ELL 4 x 6, blocks of 2, one slot per block row.
    pub fn bell(&mut self, it: IndexType, vt: DataType) -> oxsparseSpMatDescr_t {
        let (mut d, z) = (null_mut(), self.z());
        let s = unsafe { oxsparseCreateBlockedEll(&mut d, 4, 6, 2, 2, z, z, it as i32, 0, vt as i32) };
        self.keep(s, d)
    }
    /// Sliced-ELL 4 x 6, slices of 2 (zero offsets: every slice empty).
    pub fn sell(&mut self, (ot, it): (IndexType, IndexType), vt: DataType) -> oxsparseSpMatDescr_t {
        let (mut d, z) = (null_mut(), self.z());
        let s = unsafe { oxsparseCreateSlicedEll(&mut d, 4, 6, 4, 8, 2, z, z, z, ot as i32, it as i32, 0, vt as i32) };
        self.keep(s, d)
    }
    /// Records each call of `got` (its name and status) that did not answer `want`, and a
    /// bufferSize answer `size` (4242 before the call) that a refused call wrote or that is larger
    /// than the fixture's workspace.
    pub fn record(&mut self, what: &str, got: &[(&str, i32)], want: Status, size: usize) {
        for &(call, s) in got {
            if s != want as i32 {
                self.failures.push(format!("{what}: {call} returned {}, want {}", super::capi::status_name(s), want.name()));
            }
        }
        if want != Status::OXSPARSE_STATUS_SUCCESS && size != 4242 {
            self.failures.push(format!("{what}: a refused bufferSize wrote {size}"));
        }
        if want == Status::OXSPARSE_STATUS_SUCCESS && size > self.ws.bytes {
            self.failures.push(format!("{what}: bufferSize {size} exceeds the fixture's workspace"));
        }
    }
    pub fn finish(&self, test: &str) {
        assert!(self.failures.is_empty(), "{test}: {} failures:\n{}", self.failures.len(), self.failures.join("\n"));
    }
}

/// Dense matrix descriptors, destroyed on drop: the dense operands of SpMM's and SDDMM's status
/// tests (`StatusFixture<DnMats>`).
pub struct DnMats(pub Vec<oxsparseDnMatDescr_t>);

impl Drop for DnMats {
    fn drop(&mut self) {
        for &d in &self.0 {
            unsafe { oxsparseDestroyDnMat(d) };
        }
    }
}

impl StatusFixture<DnMats> {
    pub fn new() -> StatusFixture<DnMats> {
        StatusFixture::with(DnMats(vec![]))
    }
    /// A dense rows x cols matrix over the zeros (smallest ld), a strided batch of `count` when
    /// count > 1.
    pub fn dn(&mut self, (rows, cols): (i64, i64), vt: DataType, order: Order, count: i32) -> oxsparseDnMatDescr_t {
        let ld = if order == Order::OXSPARSE_ORDER_COL { rows } else { cols }.max(1);
        let mut d = null_mut();
        assert_eq!(unsafe { oxsparseCreateDnMat(&mut d, rows, cols, ld, self.z(), vt as i32, order as i32) }, OK);
        if count > 1 {
            let span = ld * if order == Order::OXSPARSE_ORDER_COL { cols } else { rows };
            assert_eq!(unsafe { oxsparseDnMatSetStridedBatch(d, count, span) }, OK);
        }
        self.dense.0.push(d);
        d
    }
}

impl<D> Drop for StatusFixture<D> {
    fn drop(&mut self) {
        for &d in &self.sparse {
            unsafe { oxsparseDestroySpMat(d) };
        }
    }
}
