//! The face's own functions: what a cuSPARSE caller must see where oxsparse answers differently.
//!
//! CuPy and JAX gate features on the version (api-coverage.md (c)6-7), so the face reports
//! cuSPARSE 12.6.3, the version whose names it exports. oxsparse's own version stays available
//! from liboxsparse's `oxsparseGetVersion` and in the OXSPARSE_REPORT header.

use crate::face::{
    ID_cusparseDestroy, ID_cusparseDestroyDnMat, ID_cusparseDestroyDnVec, ID_cusparseDestroySpMat, ID_cusparseGetErrorName,
    ID_cusparseGetErrorString, ID_cusparseGetProperty, ID_cusparseGetVersion,
};
use crate::report::{enter, leave};
use crate::STATUS_INVALID_VALUE;
use std::os::raw::{c_char, c_int};

/// CUSPARSE_VERSION of cuSPARSE 12.6.3: major * 1000 + minor * 100 + patch.
pub const CUSPARSE_VERSION: c_int = 12603;
/// MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL (libraryPropertyType 0, 1, 2).
pub const CUSPARSE_PROPERTIES: [c_int; 3] = [12, 6, 3];

extern "C" {
    fn oxsparseDestroy(handle: usize) -> c_int;
    fn oxsparseDestroySpMat(descr: usize) -> c_int;
    fn oxsparseDestroyDnMat(descr: usize) -> c_int;
    fn oxsparseDestroyDnVec(descr: usize) -> c_int;
    fn oxsparseGetVersion(handle: usize, version: *mut c_int) -> c_int;
    fn oxsparseGetErrorString(status: c_int) -> *const c_char;
}

/// cuSPARSE's status names, by status value.
static STATUS_NAMES: [&CStrLit; 12] = [
    c"CUSPARSE_STATUS_SUCCESS",
    c"CUSPARSE_STATUS_NOT_INITIALIZED",
    c"CUSPARSE_STATUS_ALLOC_FAILED",
    c"CUSPARSE_STATUS_INVALID_VALUE",
    c"CUSPARSE_STATUS_ARCH_MISMATCH",
    c"CUSPARSE_STATUS_MAPPING_ERROR",
    c"CUSPARSE_STATUS_EXECUTION_FAILED",
    c"CUSPARSE_STATUS_INTERNAL_ERROR",
    c"CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
    c"CUSPARSE_STATUS_ZERO_PIVOT",
    c"CUSPARSE_STATUS_NOT_SUPPORTED",
    c"CUSPARSE_STATUS_INSUFFICIENT_RESOURCES",
];
type CStrLit = std::ffi::CStr;

/// The handle is checked as oxsparse checks it; the version is cuSPARSE 12.6.3's.
#[no_mangle]
pub unsafe extern "C" fn cusparseGetVersion(handle: usize, version: *mut c_int) -> c_int {
    let clock = enter(ID_cusparseGetVersion);
    let mut ours: c_int = 0;
    // SAFETY: writes one int to a local; a foreign handle is refused with its status.
    let mut status = unsafe { oxsparseGetVersion(handle, &mut ours) };
    if status == 0 {
        if version.is_null() {
            status = STATUS_INVALID_VALUE;
        } else {
            // SAFETY: the caller's pointer is valid for one int (the C contract).
            unsafe { *version = CUSPARSE_VERSION };
        }
    }
    leave(ID_cusparseGetVersion, clock);
    status
}

/// 12, 6, 3 for MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL.
#[no_mangle]
pub unsafe extern "C" fn cusparseGetProperty(property: c_int, value: *mut c_int) -> c_int {
    let clock = enter(ID_cusparseGetProperty);
    let status = match usize::try_from(property).ok().and_then(|p| CUSPARSE_PROPERTIES.get(p)) {
        Some(&v) if !value.is_null() => {
            // SAFETY: the caller's pointer is valid for one int (the C contract).
            unsafe { *value = v };
            0
        }
        _ => STATUS_INVALID_VALUE,
    };
    leave(ID_cusparseGetProperty, clock);
    status
}

/// `"CUSPARSE_STATUS_*"`; an unknown status gets oxsparse's text for it.
#[no_mangle]
pub extern "C" fn cusparseGetErrorName(status: c_int) -> *const c_char {
    let clock = enter(ID_cusparseGetErrorName);
    let name = match usize::try_from(status).ok().and_then(|s| STATUS_NAMES.get(s)) {
        Some(name) => name.as_ptr(),
        // SAFETY: returns a static string for any value.
        None => unsafe { oxsparseGetErrorString(status) },
    };
    leave(ID_cusparseGetErrorName, clock);
    name
}

/// oxsparse's texts are cuSPARSE's ("success", "invalid value", "operation not supported", ...).
#[no_mangle]
pub extern "C" fn cusparseGetErrorString(status: c_int) -> *const c_char {
    let clock = enter(ID_cusparseGetErrorString);
    // SAFETY: returns a static string for any value.
    let text = unsafe { oxsparseGetErrorString(status) };
    leave(ID_cusparseGetErrorString, clock);
    text
}

/// Destroys our handle and the shadow real handle forwarding made for it.
#[no_mangle]
pub unsafe extern "C" fn cusparseDestroy(handle: usize) -> c_int {
    let clock = enter(ID_cusparseDestroy);
    // SAFETY: our own destroy refuses a foreign handle; the shadow map only holds real handles.
    let status = unsafe { oxsparseDestroy(handle) };
    if status == 0 {
        crate::forward::forget_handle(handle);
    }
    leave(ID_cusparseDestroy, clock);
    status
}

/// Destroys a descriptor of ours with `destroy`, then the shadow real descriptor forwarding made
/// for it (src/shadow.rs), if any.
fn destroy_descriptor(id: usize, descr: usize, destroy: unsafe extern "C" fn(usize) -> c_int) -> c_int {
    let clock = enter(id);
    // SAFETY: our own destroy refuses what is not a live descriptor of its kind.
    let status = unsafe { destroy(descr) };
    if status == 0 && descr != 0 {
        crate::shadow::forget(descr);
    }
    leave(id, clock);
    status
}

/// Destroys our sparse matrix descriptor and its shadow real one.
#[no_mangle]
pub unsafe extern "C" fn cusparseDestroySpMat(descr: usize) -> c_int {
    destroy_descriptor(ID_cusparseDestroySpMat, descr, oxsparseDestroySpMat)
}

/// Destroys our dense matrix descriptor and its shadow real one.
#[no_mangle]
pub unsafe extern "C" fn cusparseDestroyDnMat(descr: usize) -> c_int {
    destroy_descriptor(ID_cusparseDestroyDnMat, descr, oxsparseDestroyDnMat)
}

/// Destroys our dense vector descriptor and its shadow real one.
#[no_mangle]
pub unsafe extern "C" fn cusparseDestroyDnVec(descr: usize) -> c_int {
    destroy_descriptor(ID_cusparseDestroyDnVec, descr, oxsparseDestroyDnVec)
}
