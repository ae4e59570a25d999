//! The C calls around SpMV: an oxsparse handle, scalars in host or device memory, the argument
//! block the three entry points share, the workspace, statuses, and the comparison tolerance.

use super::*;
use cudarc::driver::result;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::spmv::*;
use oxsparse::ffi::*;
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, DataType::*, PointerMode, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

pub const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;

/// |got - want| <= rel * scale + out_u * |want| + out_min per component, where scale is
/// `reference::spmv::error_scale` (sum |alpha||a_ij||x_j| + |beta||y_i|): a few unit roundoffs of
/// the compute type relative to the magnitude of the terms (the real error of any summation order
/// of random-signed terms stays near one roundoff of that), plus half an ulp of a 16-bit output.
pub struct Tolerance {
    pub rel: f64,
    pub out_u: f64,
    pub out_min: f64,
}

impl Tolerance {
    pub fn of(y_type: DataType, compute: DataType) -> Tolerance {
        let rel = match compute {
            CUDA_R_64F | CUDA_C_64F => 32.0 * f64::EPSILON,
            CUDA_R_32I => 0.0,
            _ => 32.0 * f32::EPSILON as f64,
        };
        // Half an ulp relative to the value, and half the smallest subnormal spacing near zero.
        let (out_u, out_min) = match y_type {
            CUDA_R_16F | CUDA_C_16F => (2f64.powi(-11), 2f64.powi(-25)),
            CUDA_R_16BF | CUDA_C_16BF => (2f64.powi(-8), 2f64.powi(-134)),
            _ => (0.0, 0.0),
        };
        Tolerance { rel, out_u, out_min }
    }
    pub fn accepts(&self, got: Value, want: Value, scale: f64) -> bool {
        let ok = |g: f64, w: f64| (g - w).abs() <= self.rel * scale + self.out_u * w.abs() + self.out_min;
        ok(got.0, want.0) && ok(got.1, want.1)
    }
}

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
        let status = unsafe {
            oxsparse::ffi::handle::oxsparseSetTuning(self.0, name.as_ptr(), value.as_ref().map_or(std::ptr::null(), |v| v.as_ptr()))
        };
        assert_eq!(status, OK, "oxsparseSetTuning({name:?}, {value:?})");
    }
    pub fn set_mode(&self, mode: PointerMode) {
        assert_eq!(unsafe { oxsparseSetPointerMode(self.0, mode as i32) }, OK);
    }
}

impl Drop for CHandle {
    fn drop(&mut self) {
        unsafe { oxsparseDestroy(self.0) };
    }
}

/// Copies `bytes` to the start of `buf` (`at` bytes in).
pub fn write_at(buf: &DevBuf, at: usize, bytes: &[u8]) {
    assert!(at + bytes.len() <= buf.bytes);
    if !bytes.is_empty() {
        unsafe { result::memcpy_htod_sync(buf.ptr + at as u64, bytes) }.expect("cuMemcpyHtoD");
    }
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

/// The arguments the three calls share, as raw C values (status tests change them one by one).
#[derive(Clone, Copy)]
pub struct Args {
    pub op: i32,
    pub alpha: *const c_void,
    pub a: oxsparseConstSpMatDescr_t,
    pub x: oxsparseConstDnVecDescr_t,
    pub beta: *const c_void,
    pub y: oxsparseDnVecDescr_t,
    pub compute: i32,
    pub alg: i32,
}

impl Args {
    pub unsafe fn buffer_size(&self, h: &CHandle, out: *mut usize) -> i32 {
        oxsparseSpMV_bufferSize(h.0, self.op, self.alpha, self.a, self.x, self.beta, self.y, self.compute, self.alg, out)
    }
    pub unsafe fn preprocess(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSpMV_preprocess(h.0, self.op, self.alpha, self.a, self.x, self.beta, self.y, self.compute, self.alg, buffer)
    }
    pub unsafe fn spmv(&self, h: &CHandle, buffer: *mut c_void) -> i32 {
        oxsparseSpMV(h.0, self.op, self.alpha, self.a, self.x, self.beta, self.y, self.compute, self.alg, buffer)
    }
    /// bufferSize's answer, checked for plausibility.
    pub fn size(&self, h: &CHandle) -> Result<usize, String> {
        let mut size = usize::MAX;
        expect(unsafe { self.buffer_size(h, &mut size) }, "SpMV_bufferSize")?;
        if size > 1 << 34 {
            return Err(format!("bufferSize {size} is not a plausible size"));
        }
        Ok(size)
    }
    /// A workspace of exactly the size bufferSize asks for, poisoned with 0xFF (none, i.e. NULL,
    /// when it asks for 0: cuSPARSE's samples pass what cudaMalloc(0) gives).
    pub fn workspace(&self, h: &CHandle) -> Result<Option<DevBuf>, String> {
        let size = self.size(h)?;
        Ok((size > 0).then(|| {
            let b = DevBuf::zeroed(size);
            b.poison(0xFF);
            b
        }))
    }
}

pub fn ws_ptr(ws: &Option<DevBuf>) -> *mut c_void {
    ws.as_ref().map_or(null_mut(), |b| b.ptr as *mut c_void)
}
