//! Shadow real generic descriptors: the real cuSPARSE's `cusparseSpMatDescr_t`,
//! `cusparseDnMatDescr_t` and `cusparseDnVecDescr_t` standing for ours in forwarded generic calls
//! (SpGEMM, SpSV, SpSM, SpMMOp).
//!
//! One shadow per descriptor of ours, made at its first forwarded use and kept until ours is
//! destroyed (cuSPARSE's SpSV/SpSM analysis and SpGEMM's phases expect the same descriptor from
//! call to call). Before every forwarded call the shadow is brought in step with ours: nothing
//! changed, it is passed as it is; only the arrays changed (`CsrSetPointers`, `SpMatSetValues`,
//! `DnMatSetValues`...), the real setter is called; anything else changed, it is made again. After
//! the call, an entry count the real library wrote (SpGEMM's compute sets C's) is copied to ours.

use crate::forward::RealLibrary;
use crate::STATUS_NOT_SUPPORTED;
use once_cell::sync::Lazy;
use oxsparse::descr::{DnMat, DnVec, FormatInfo, SpMat};
use oxsparse::ffi::face_access;
use std::collections::HashMap;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Mutex;

const STATUS_NOT_INITIALIZED: c_int = 1;
const STATUS_INVALID_VALUE: c_int = 3;
const STATUS_INTERNAL_ERROR: c_int = 7;

/// What ours looked like when its shadow was last brought in step.
#[derive(Clone, PartialEq)]
enum Ours {
    Sp(SpMat),
    Dn(DnMat),
    Vec(DnVec),
}

struct Shadow {
    real: usize,
    ours: Ours,
}

/// Our descriptor's name (never reused) -> its shadow.
static SHADOWS: Lazy<Mutex<HashMap<usize, Shadow>>> = Lazy::new(Default::default);

fn lock() -> std::sync::MutexGuard<'static, HashMap<usize, Shadow>> {
    SHADOWS.lock().unwrap_or_else(|p| p.into_inner())
}

/// The status cuSPARSE gives a descriptor that is not a live one: NULL is INVALID_VALUE.
fn refused(ours: usize) -> c_int {
    if ours == 0 {
        STATUS_INVALID_VALUE
    } else {
        STATUS_NOT_INITIALIZED
    }
}

fn check(status: c_int) -> Result<(), c_int> {
    if status == 0 {
        Ok(())
    } else {
        Err(status)
    }
}

/// The shadow of our sparse matrix `ours`, in step with it.
pub fn sp_mat(real: &RealLibrary, ours: usize) -> Result<usize, c_int> {
    // SAFETY: a name of ours or anything else: the registry refuses what is not a live SpMat.
    let now = unsafe { face_access::sp_mat(ours) }.ok_or_else(|| refused(ours))?;
    in_step(real, ours, Ours::Sp(now))
}

/// The shadow of our dense matrix `ours`, in step with it.
pub fn dn_mat(real: &RealLibrary, ours: usize) -> Result<usize, c_int> {
    // SAFETY: as in sp_mat.
    let now = unsafe { face_access::dn_mat(ours) }.ok_or_else(|| refused(ours))?;
    in_step(real, ours, Ours::Dn(now))
}

/// The shadow of our dense vector `ours`, in step with it.
pub fn dn_vec(real: &RealLibrary, ours: usize) -> Result<usize, c_int> {
    // SAFETY: as in sp_mat.
    let now = unsafe { face_access::dn_vec(ours) }.ok_or_else(|| refused(ours))?;
    in_step(real, ours, Ours::Vec(now))
}

fn in_step(real: &RealLibrary, ours: usize, now: Ours) -> Result<usize, c_int> {
    let mut map = lock();
    if let Some(shadow) = map.get_mut(&ours) {
        if shadow.ours == now {
            return Ok(shadow.real);
        }
        if only_arrays_differ(&shadow.ours, &now) {
            set_arrays(real, shadow.real, &now)?;
            shadow.ours = now;
            return Ok(shadow.real);
        }
        let stale = map.remove(&ours).expect("looked up above");
        destroy(real, &stale);
    }
    let made = create(real, &now)?;
    map.insert(ours, Shadow { real: made, ours: now });
    Ok(made)
}

/// After a forwarded call: copies to ours the entry count the real library wrote into the shadow
/// of our sparse matrix `ours` (SpGEMM's compute sets C's).
pub fn write_back(real: &RealLibrary, ours: usize) -> Result<(), c_int> {
    let mut map = lock();
    let Some(shadow) = map.get_mut(&ours) else { return Ok(()) };
    let Ours::Sp(was) = &shadow.ours else { return Ok(()) };
    let (mut rows, mut cols, mut nnz) = (0i64, 0i64, 0i64);
    // SAFETY: cusparseSpMatGetSize(descr, int64_t*, int64_t*, int64_t*) of a descriptor it made.
    check(unsafe {
        real.named::<unsafe extern "C" fn(usize, *mut i64, *mut i64, *mut i64) -> c_int>("cusparseSpMatGetSize")?(
            shadow.real,
            &mut rows,
            &mut cols,
            &mut nnz,
        )
    })?;
    if nnz == was.nnz {
        return Ok(());
    }
    // SAFETY: as in sp_mat.
    if !unsafe { face_access::set_sp_mat_nnz(ours, nnz) } {
        return Err(STATUS_INTERNAL_ERROR);
    }
    let now = unsafe { face_access::sp_mat(ours) }.ok_or(STATUS_INTERNAL_ERROR)?;
    shadow.ours = Ours::Sp(now);
    Ok(())
}

/// Destroys the shadow of `ours`, if it has one (our cusparseDestroySpMat, DnMat, DnVec). The
/// real library is only asked for when there is a shadow: it was opened to make it.
pub fn forget(ours: usize) {
    let Some(shadow) = lock().remove(&ours) else { return };
    if let Some(real) = crate::forward::real_library() {
        destroy(real, &shadow);
    }
}

fn only_arrays_differ(was: &Ours, now: &Ours) -> bool {
    match (was, now) {
        (Ours::Sp(w), Ours::Sp(n)) => SpMat { arrays: n.arrays, ..w.clone() } == *n,
        (Ours::Dn(w), Ours::Dn(n)) => DnMat { values: n.values, ..w.clone() } == *n,
        (Ours::Vec(w), Ours::Vec(n)) => DnVec { values: n.values, ..w.clone() } == *n,
        _ => false,
    }
}

type Make = unsafe extern "C" fn(*mut usize, i64, i64, i64, usize, usize, usize, c_int, c_int, c_int, c_int) -> c_int;
type MakeCoo = unsafe extern "C" fn(*mut usize, i64, i64, i64, usize, usize, usize, c_int, c_int, c_int) -> c_int;
type SetThree = unsafe extern "C" fn(usize, usize, usize, usize) -> c_int;
type SetOne = unsafe extern "C" fn(usize, usize) -> c_int;

/// A real descriptor as ours is now.
fn create(real: &RealLibrary, now: &Ours) -> Result<usize, c_int> {
    let mut made = 0usize;
    // SAFETY: each create writes one descriptor; the arguments are ours, in cuSPARSE's order and
    // types (enum values are cuSPARSE's by design).
    unsafe {
        match now {
            Ours::Sp(a) => {
                let (rows, cols, nnz, p) = (a.rows, a.cols, a.nnz, a.arrays);
                let (ot, it, base, vt) = (a.offset_type as c_int, a.index_type as c_int, a.index_base as c_int, a.value_type as c_int);
                match a.format {
                    FormatInfo::Csr | FormatInfo::Csc => {
                        let name = if a.format == FormatInfo::Csr { "cusparseCreateCsr" } else { "cusparseCreateCsc" };
                        check(real.named::<Make>(name)?(
                            &mut made,
                            rows,
                            cols,
                            nnz,
                            p.offsets as usize,
                            p.indices as usize,
                            p.values as usize,
                            ot,
                            it,
                            base,
                            vt,
                        ))?;
                    }
                    FormatInfo::Coo => {
                        let make = real.named::<MakeCoo>("cusparseCreateCoo")?;
                        check(make(&mut made, rows, cols, nnz, p.offsets as usize, p.indices as usize, p.values as usize, it, base, vt))?;
                    }
                    _ => return Err(STATUS_NOT_SUPPORTED), // the forwarded routines take CSR, CSC or COO
                }
                if let Err(status) = sp_mat_details(real, made, a) {
                    destroy(real, &Shadow { real: made, ours: now.clone() });
                    return Err(status);
                }
            }
            Ours::Dn(b) => {
                type MakeDn = unsafe extern "C" fn(*mut usize, i64, i64, i64, usize, c_int, c_int) -> c_int;
                let make = real.named::<MakeDn>("cusparseCreateDnMat")?;
                check(make(&mut made, b.rows, b.cols, b.ld, b.values as usize, b.value_type as c_int, b.order as c_int))?;
                if b.batch_count > 1 {
                    type Batch = unsafe extern "C" fn(usize, c_int, i64) -> c_int;
                    let set = real.named::<Batch>("cusparseDnMatSetStridedBatch")?;
                    if let Err(status) = check(set(made, b.batch_count, b.batch_stride)) {
                        destroy(real, &Shadow { real: made, ours: now.clone() });
                        return Err(status);
                    }
                }
            }
            Ours::Vec(x) => {
                type MakeVec = unsafe extern "C" fn(*mut usize, i64, usize, c_int) -> c_int;
                check(real.named::<MakeVec>("cusparseCreateDnVec")?(&mut made, x.size, x.values as usize, x.value_type as c_int))?;
            }
        }
    }
    Ok(made)
}

/// The fill mode, diagonal type and strided batch of a new sparse shadow.
unsafe fn sp_mat_details(real: &RealLibrary, made: usize, a: &SpMat) -> Result<(), c_int> {
    type SetAttribute = unsafe extern "C" fn(usize, c_int, *const c_void, usize) -> c_int;
    let set = real.named::<SetAttribute>("cusparseSpMatSetAttribute")?;
    // Only values other than the defaults (LOWER, NON_UNIT, both 0) are set: cuSPARSE marks a
    // descriptor given either attribute as triangular, and its SpGEMM then refuses it.
    let (fill, diag) = (a.fill_mode as c_int, a.diag_type as c_int);
    if fill != 0 {
        check(set(made, 0, &fill as *const c_int as *const c_void, 4))?; // CUSPARSE_SPMAT_FILL_MODE
    }
    if diag != 0 {
        check(set(made, 1, &diag as *const c_int as *const c_void, 4))?; // CUSPARSE_SPMAT_DIAG_TYPE
    }
    if a.batch.count > 1 {
        match a.format {
            FormatInfo::Csr => {
                type Batch = unsafe extern "C" fn(usize, c_int, i64, i64) -> c_int;
                check(real.named::<Batch>("cusparseCsrSetStridedBatch")?(
                    made,
                    a.batch.count,
                    a.batch.offsets_stride,
                    a.batch.indices_stride,
                ))?;
            }
            FormatInfo::Coo => {
                type Batch = unsafe extern "C" fn(usize, c_int, i64) -> c_int;
                check(real.named::<Batch>("cusparseCooSetStridedBatch")?(made, a.batch.count, a.batch.indices_stride))?;
            }
            _ => return Err(STATUS_NOT_SUPPORTED),
        }
    }
    Ok(())
}

/// Points the shadow at ours's arrays (nothing else differs).
fn set_arrays(real: &RealLibrary, shadow: usize, now: &Ours) -> Result<(), c_int> {
    // SAFETY: the setters of a descriptor the real library made, with ours's device pointers.
    unsafe {
        match now {
            Ours::Sp(a) => {
                let name = match a.format {
                    FormatInfo::Csr => "cusparseCsrSetPointers",
                    FormatInfo::Csc => "cusparseCscSetPointers",
                    FormatInfo::Coo => "cusparseCooSetPointers",
                    _ => return Err(STATUS_NOT_SUPPORTED),
                };
                let p = a.arrays;
                check(real.named::<SetThree>(name)?(shadow, p.offsets as usize, p.indices as usize, p.values as usize))
            }
            Ours::Dn(b) => check(real.named::<SetOne>("cusparseDnMatSetValues")?(shadow, b.values as usize)),
            Ours::Vec(x) => check(real.named::<SetOne>("cusparseDnVecSetValues")?(shadow, x.values as usize)),
        }
    }
}

fn destroy(real: &RealLibrary, shadow: &Shadow) {
    let name = match shadow.ours {
        Ours::Sp(_) => "cusparseDestroySpMat",
        Ours::Dn(_) => "cusparseDestroyDnMat",
        Ours::Vec(_) => "cusparseDestroyDnVec",
    };
    if let Ok(destroy) = real.named::<SetOneArg>(name) {
        // SAFETY: a descriptor the real library made and nothing uses any more.
        unsafe { destroy(shadow.real) };
    }
}

type SetOneArg = unsafe extern "C" fn(usize) -> c_int;

#[cfg(test)]
mod tests {
    use super::*;
    use oxsparse::descr::SpArrays;
    use oxsparse::types::{DataType, IndexBase, IndexType, Order};

    fn csr(offsets: u64, nnz: i64) -> Ours {
        let arrays = SpArrays { offsets, indices: 0x2000, values: 0x3000 };
        let i32i = IndexType::OXSPARSE_INDEX_32I;
        Ours::Sp(
            SpMat::compressed(false, 4, 5, nnz, arrays, i32i, i32i, IndexBase::OXSPARSE_INDEX_BASE_ZERO, DataType::CUDA_R_32F).unwrap(),
        )
    }

    /// New arrays go through the real setters; a new entry count (or anything else) remakes the shadow.
    #[test]
    fn only_new_arrays_keep_the_shadow() {
        assert!(only_arrays_differ(&csr(0x1000, 7), &csr(0x1100, 7)));
        assert!(!only_arrays_differ(&csr(0x1000, 7), &csr(0x1000, 8)), "nnz changed");
        let dn = |values, ld| Ours::Dn(DnMat::new(4, 3, ld, values, DataType::CUDA_R_64F, Order::OXSPARSE_ORDER_COL).unwrap());
        assert!(only_arrays_differ(&dn(0x1000, 4), &dn(0x2000, 4)));
        assert!(!only_arrays_differ(&dn(0x1000, 4), &dn(0x1000, 5)), "ld changed");
        let vec = |values| Ours::Vec(DnVec::new(9, values, DataType::CUDA_R_32F).unwrap());
        assert!(only_arrays_differ(&vec(0x1000), &vec(0x1040)));
        assert!(!only_arrays_differ(&vec(0x1000), &dn(0x1000, 4)), "another kind");
    }
}
