//! Handle and library management: Create, Destroy, streams, pointer and math modes, version, error
//! strings.

use super::*;
use crate::context::Handle;
use crate::types::{LibraryProperty, MathMode, PointerMode, ReorderMode};
use std::os::raw::c_char;

/// Creates a library handle on the current device (device 0 when no CUDA context is current).
/// Returns `OXSPARSE_STATUS_NOT_INITIALIZED` when there is no CUDA driver or no GPU.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseCreate(handle: *mut oxsparseHandle_t) -> oxsparseStatus_t {
    guard("oxsparseCreate", || {
        out_ptr(handle, "handle")?;
        let inner = Handle::create()?;
        publish(handle, Kind::Handle, oxsparseContext { inner })
    })
}

/// Destroys a handle. Work already enqueued on its stream is not waited for and keeps running.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseDestroy(handle: oxsparseHandle_t) -> oxsparseStatus_t {
    guard("oxsparseDestroy", || {
        if handle.is_null() {
            return Err(Error::NotInitialized("handle is NULL".into()));
        }
        destroy(handle, Kind::Handle, "handle")
    })
}

/// Library version as `major * 1000 + minor * 100 + patch` (the `OXSPARSE_VERSION` macro).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetVersion(handle: oxsparseHandle_t, version: *mut c_int) -> oxsparseStatus_t {
    guard("oxsparseGetVersion", || {
        borrow(handle, Kind::Handle, "handle")?;
        *out_ptr(version, "version")? = crate::VERSION_NUMBER;
        Ok(())
    })
}

/// One component of the library version: `MAJOR_VERSION`, `MINOR_VERSION` or `PATCH_LEVEL`.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetProperty(type_: libraryPropertyType, value: *mut c_int) -> oxsparseStatus_t {
    guard("oxsparseGetProperty", || {
        let out = out_ptr(value, "value")?;
        let (major, minor, patch) = crate::VERSION;
        *out = match decode(type_, "type", LibraryProperty::from_raw)? {
            LibraryProperty::MAJOR_VERSION => major,
            LibraryProperty::MINOR_VERSION => minor,
            LibraryProperty::PATCH_LEVEL => patch,
        };
        Ok(())
    })
}

/// The enumerator name of a status, e.g. "OXSPARSE_STATUS_INVALID_VALUE".
#[no_mangle]
pub extern "C" fn oxsparseGetErrorName(status: oxsparseStatus_t) -> *const c_char {
    status_text(status, false)
}

/// A short description of a status, e.g. "invalid value".
#[no_mangle]
pub extern "C" fn oxsparseGetErrorString(status: oxsparseStatus_t) -> *const c_char {
    status_text(status, true)
}

/// Static NUL-terminated text for a status; unknown codes get "unrecognized error code".
fn status_text(status: c_int, description: bool) -> *const c_char {
    use once_cell::sync::Lazy;
    use std::ffi::CString;
    // Built once: one C string per (status, kind of text), never freed.
    static TEXTS: Lazy<Vec<(CString, CString)>> =
        Lazy::new(|| Status::ALL.iter().map(|s| (CString::new(s.name()).unwrap(), CString::new(s.description()).unwrap())).collect());
    static UNKNOWN: &[u8] = b"unrecognized error code\0";
    match Status::from_raw(status) {
        Some(s) => {
            let i = Status::ALL.iter().position(|x| *x == s).unwrap();
            let (name, desc) = &TEXTS[i];
            if description {
                desc.as_ptr()
            } else {
                name.as_ptr()
            }
        }
        None => UNKNOWN.as_ptr() as *const c_char,
    }
}

/// Sets the stream on which all later work of this handle is enqueued (NULL: legacy default stream).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetStream(handle: oxsparseHandle_t, streamId: cudaStream_t) -> oxsparseStatus_t {
    guard("oxsparseSetStream", || {
        let h = borrow_mut(handle, Kind::Handle, "handle")?;
        h.inner.set_stream(streamId as usize)
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetStream(handle: oxsparseHandle_t, streamId: *mut cudaStream_t) -> oxsparseStatus_t {
    guard("oxsparseGetStream", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        *out_ptr(streamId, "streamId")? = h.inner.stream as cudaStream_t;
        Ok(())
    })
}

/// Whether scalar arguments (alpha, beta, results) are host or device pointers.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetPointerMode(handle: oxsparseHandle_t, mode: oxsparsePointerMode_t) -> oxsparseStatus_t {
    guard("oxsparseSetPointerMode", || {
        let h = borrow_mut(handle, Kind::Handle, "handle")?;
        h.inner.pointer_mode = decode(mode, "mode", PointerMode::from_raw)?;
        Ok(())
    })
}

/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetPointerMode(handle: oxsparseHandle_t, mode: *mut oxsparsePointerMode_t) -> oxsparseStatus_t {
    guard("oxsparseGetPointerMode", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        *out_ptr(mode, "mode")? = h.inner.pointer_mode as c_int;
        Ok(())
    })
}

/// How FP32 SpMM may compute its products, as cuBLAS's `cublasSetMathMode`. cuSPARSE has no such
/// switch; this one lets a caller trade accuracy for tensor-core speed explicitly, per handle:
///
/// - `OXSPARSE_DEFAULT_MATH` (0): FP32 products and sums on CUDA cores, cuSPARSE's accuracy.
/// - `OXSPARSE_TF32_TENSOR_OP_MATH` (3): FP32 inputs may be rounded to TF32 (10-bit mantissa) for
///   tensor cores, summed in FP32; each entry of C may then be off by about 1e-3 of sum |a b|.
/// - `OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH` (4): tensor cores at FP32 accuracy (3xTF32: each value
///   split into a TF32 head and tail, three products per pair).
///
/// FP16 and BF16 SpMM (FP32 compute) may use tensor cores in either tensor-op mode, with exact
/// products and FP32 sums as on CUDA cores (only the order of the sums differs).
///
/// As in cuBLAS, a mode permits rather than forces: a call the tensor-core path does not cover
/// computes as in the default mode, and other value types are unaffected. New handles start in the
/// mode that the environment variable `OXSPARSE_MATH_MODE` names (`default`, `tf32`,
/// `fp32_accurate` or `3xtf32`, or 0, 3, 4; read by each `oxsparseCreate`), so an
/// unmodified program can opt in; otherwise in `OXSPARSE_DEFAULT_MATH`.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetMathMode(handle: oxsparseHandle_t, mode: oxsparseMath_t) -> oxsparseStatus_t {
    guard("oxsparseSetMathMode", || {
        let h = borrow_mut(handle, Kind::Handle, "handle")?;
        h.inner.math_mode = decode(mode, "mode", MathMode::from_raw)?;
        Ok(())
    })
}

/// The handle's math mode (see `oxsparseSetMathMode`).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetMathMode(handle: oxsparseHandle_t, mode: *mut oxsparseMath_t) -> oxsparseStatus_t {
    guard("oxsparseGetMathMode", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        *out_ptr(mode, "mode")? = h.inner.math_mode as c_int;
        Ok(())
    })
}

/// Whether SpMM's preprocess may reorder A's rows for the tensor cores (issue 4's data-affinity
/// reordering; oxsparse only, like the math modes):
///
/// - `OXSPARSE_REORDER_NONE` (0): rows in the user's order.
/// - `OXSPARSE_REORDER_DATA_AFFINITY` (1): when an SpMM runs on tensor cores (a tensor-op math
///   mode, FP32, FP16 or BF16), `oxsparseSpMM_preprocess` clusters A's rows by the columns they
///   share (on the host: A's structure is read back) and keeps the new order where it lowers the
///   rows of B that the tiles read by 5% or more. It is applied inside: A, B and C stay in the
///   user's order and C gets the same products, summed in another order. Plain `oxsparseSpMM`
///   calls (no preprocess) never reorder. The mode at `bufferSize` sizes the workspace: set it
///   before.
///
/// New handles start in the mode that `OXSPARSE_REORDER` names (`none`, `affinity`, or 0, 1; read by
/// each `oxsparseCreate`), otherwise `OXSPARSE_REORDER_NONE`.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetReorderMode(handle: oxsparseHandle_t, mode: oxsparseReorder_t) -> oxsparseStatus_t {
    guard("oxsparseSetReorderMode", || {
        let h = borrow_mut(handle, Kind::Handle, "handle")?;
        h.inner.reorder_mode = decode(mode, "mode", ReorderMode::from_raw)?;
        Ok(())
    })
}

/// The handle's reorder mode (see `oxsparseSetReorderMode`).
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): every pointer is NULL or valid for what it names.
#[no_mangle]
pub unsafe extern "C" fn oxsparseGetReorderMode(handle: oxsparseHandle_t, mode: *mut oxsparseReorder_t) -> oxsparseStatus_t {
    guard("oxsparseGetReorderMode", || {
        let h = borrow(handle, Kind::Handle, "handle")?;
        *out_ptr(mode, "mode")? = h.inner.reorder_mode as c_int;
        Ok(())
    })
}

/// Sets one of the handle's tuning and forcing settings (oxsparse only): `name` is the
/// environment variable's name and `value` one of its values as docs/tuning.md lists them
/// (`"OXSPARSE_SPMV_KERNEL"`, `"tiles"`); NULL `value` gives the choice back to the library. New
/// handles start with the environment's values; this changes one handle only, so a program can run
/// handles tuned differently side by side. Takes effect at the next plan: a buffer preprocessed
/// before keeps what its preprocess chose while the plan the arguments give stays the same
/// (preprocess again to choose anew).
/// The math and reorder modes have their own calls (`oxsparseSetMathMode`, `oxsparseSetReorderMode`).
///
/// Refused with `OXSPARSE_STATUS_INVALID_VALUE`, the settings unchanged: a NULL handle or name, a
/// name the library does not read, a value the variable does not take.
///
/// # Safety
/// The C ABI's contract (src/ffi/mod.rs): `name` and a non-NULL `value` are NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn oxsparseSetTuning(handle: oxsparseHandle_t, name: *const c_char, value: *const c_char) -> oxsparseStatus_t {
    guard("oxsparseSetTuning", || {
        let h = borrow_mut(handle, Kind::Handle, "handle")?;
        if name.is_null() {
            return Err(Error::InvalidValue("name is NULL".into()));
        }
        let text = |p: *const c_char, what: &str| {
            std::ffi::CStr::from_ptr(p).to_str().map_err(|_| Error::InvalidValue(format!("{what} is not UTF-8")))
        };
        let name = text(name, "name")?;
        if name == "OXSPARSE_MATH_MODE" || name == "OXSPARSE_REORDER" {
            return Err(Error::InvalidValue(format!("{name}: set the mode with oxsparseSetMathMode or oxsparseSetReorderMode")));
        }
        let value = if value.is_null() { None } else { Some(text(value, "value")?) };
        h.inner.settings.set(name, value)
    })
}
