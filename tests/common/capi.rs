//! The C-ABI plumbing the SpMM and SpMV harnesses share: statuses as `Result`s, a handle made by
//! `oxsparseCreate`, scalars where the pointer mode wants them, synchronous uploads, and the
//! workspace bufferSize asks for, poisoned.

use super::bytes::encode;
use super::DevBuf;
use cudarc::driver::result;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::oxsparseHandle_t;
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, MathMode, PointerMode, ReorderMode, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

pub const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;

pub fn status_name(s: i32) -> String {
    Status::from_raw(s).map_or_else(|| format!("status {s}"), |s| s.name().to_string())
}

pub fn expect(s: i32, what: &str) -> Result<(), String> {
    if s == OK {
        Ok(())
    } else {
        Err(format!("{what} returned {}", status_name(s)))
    }
}

/// An oxsparse handle made by `oxsparseCreate`.
pub struct CHandle(pub oxsparseHandle_t);

impl CHandle {
    pub fn new() -> CHandle {
        let mut h = null_mut();
        assert_eq!(unsafe { oxsparseCreate(&mut h) }, OK, "oxsparseCreate");
        CHandle(h)
    }
    /// A handle with none of the environment's tuning or forcing settings (the device suite runs
    /// binaries under forcing variables): for tests of the library's own choices.
    pub fn unforced() -> CHandle {
        let h = CHandle::new();
        for name in oxsparse::settings::NAMES.iter().filter(|n| !matches!(**n, "OXSPARSE_MATH_MODE" | "OXSPARSE_REORDER")) {
            h.set_tuning(name, None);
        }
        h
    }
    /// Sets one of the handle's settings (`oxsparseSetTuning`); None gives it back to the library.
    pub fn set_tuning(&self, name: &str, value: Option<&str>) {
        let name = std::ffi::CString::new(name).unwrap();
        let value = value.map(|v| std::ffi::CString::new(v).unwrap());
        let status = unsafe { oxsparseSetTuning(self.0, name.as_ptr(), value.as_ref().map_or(std::ptr::null(), |v| v.as_ptr())) };
        assert_eq!(status, OK, "oxsparseSetTuning({name:?}, {value:?})");
    }
    pub fn set_mode(&self, mode: PointerMode) {
        assert_eq!(unsafe { oxsparseSetPointerMode(self.0, mode as i32) }, OK);
    }
    pub fn set_math(&self, math: MathMode) {
        assert_eq!(unsafe { oxsparseSetMathMode(self.0, math as i32) }, OK);
    }
    pub fn set_reorder(&self, mode: ReorderMode) {
        assert_eq!(unsafe { oxsparseSetReorderMode(self.0, mode as i32) }, OK);
    }
}

impl Drop for CHandle {
    fn drop(&mut self) {
        unsafe { oxsparseDestroy(self.0) };
    }
}

/// Copies `bytes` into `buf`, `at` bytes in, and waits for the copy.
pub fn write_at(buf: &DevBuf, at: usize, bytes: &[u8]) {
    assert!(at + bytes.len() <= buf.bytes);
    if !bytes.is_empty() {
        unsafe { result::memcpy_htod_sync(buf.ptr + at as u64, bytes) }.expect("cuMemcpyHtoD");
    }
}

/// `write_at` the start of `buf`.
pub fn write(buf: &DevBuf, bytes: &[u8]) {
    write_at(buf, 0, bytes);
}

/// A scalar of the compute type where the pointer mode wants it.
pub struct Scalar {
    bytes: Vec<u8>,
    dev: Option<DevBuf>,
}

impl Scalar {
    pub fn new(mode: PointerMode, compute: DataType, v: Value) -> Scalar {
        let bytes = encode(compute, &[v]);
        let dev = (mode == PointerMode::OXSPARSE_POINTER_MODE_DEVICE).then(|| DevBuf::from_slice(&bytes));
        Scalar { bytes, dev }
    }
    pub fn ptr(&self) -> *const c_void {
        self.dev.as_ref().map_or(self.bytes.as_ptr() as *const c_void, |d| d.ptr as *const c_void)
    }
}

/// bufferSize's answer: `query` calls it with the output to fill (named `what` in errors), whose
/// answer must be a plausible size.
pub fn buffer_size(what: &str, query: impl FnOnce(*mut usize) -> i32) -> Result<usize, String> {
    let mut size = usize::MAX;
    expect(query(&mut size), what)?;
    if size > 1 << 34 {
        return Err(format!("bufferSize {size} is not a plausible size"));
    }
    Ok(size)
}

/// A workspace of exactly `size` bytes, poisoned with 0xFF (none, i.e. NULL, for 0: cuSPARSE's
/// samples pass what cudaMalloc(0) gives).
pub fn workspace(size: usize) -> Option<DevBuf> {
    (size > 0).then(|| DevBuf::poisoned(size, 0xFF))
}

pub fn ws_ptr(ws: &Option<DevBuf>) -> *mut c_void {
    ws.as_ref().map_or(null_mut(), |b| b.ptr as *mut c_void)
}
