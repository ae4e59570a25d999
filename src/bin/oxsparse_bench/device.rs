//! The GPU side of the harness: the device we run on, device buffers that free themselves, and
//! CUDA driver errors turned into messages that name the failing call. Everything runs on the
//! device's primary context (the one oxsparse and the CUDA runtime inside cuSPARSE use) and on the
//! legacy default stream.

use crate::Result;
use cudarc::driver::{result, sys, DriverError};

/// `Err("<call>: CUDA_ERROR_...")` for a failed driver call.
pub fn cu<T>(call: &str, r: std::result::Result<T, DriverError>) -> Result<T> {
    r.map_err(|e| format!("{call} failed: {:?}", e.0))
}

/// Waits for all enqueued work; an asynchronous kernel fault surfaces here, named after `after`.
pub fn sync(after: &str) -> Result<()> {
    cu(&format!("cuCtxSynchronize (after {after})"), result::ctx::synchronize())
}

/// The device of the current (primary) context, which we keep retained while we use it.
pub struct Gpu {
    pub device: i32,
    pub name: String,
    pub l2_bytes: u64,
    pub total_bytes: u64,
    pub sm_count: i32,
    pub cc: (i32, i32),
    pub driver_version: i32,
    /// Peak memory bandwidth in bytes a second, as oxsparse's planner reads it (its `DeviceModel`:
    /// the driver's memory clock x bus width, double data rate); 0 when the driver does not say.
    pub peak_bytes_per_s: u64,
}

impl Gpu {
    /// Attaches to the context made current by `oxsparseCreate` (the device's primary context).
    pub fn attach() -> Result<Gpu> {
        let ctx = cu("cuCtxGetCurrent", result::ctx::get_current())?.ok_or("no CUDA context is current after oxsparseCreate")?;
        let mut device: sys::CUdevice = 0;
        // SAFETY: out-pointer to a local.
        cu("cuCtxGetDevice", unsafe { sys::cuCtxGetDevice(&mut device).result() })?;
        // SAFETY: balanced by the release in Drop.
        let primary = cu("cuDevicePrimaryCtxRetain", unsafe { result::primary_ctx::retain(device) })?;
        if primary != ctx {
            unsafe { result::primary_ctx::release(device).ok() };
            return Err("the current CUDA context is not the device's primary context".into());
        }
        let attr = |a, what| cu(what, unsafe { result::device::get_attribute(device, a) });
        use sys::CUdevice_attribute as A;
        let mut driver_version = 0;
        cu("cuDriverGetVersion", unsafe { sys::cuDriverGetVersion(&mut driver_version).result() })?;
        Ok(Gpu {
            device,
            name: cu("cuDeviceGetName", result::device::get_name(device))?,
            l2_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "cuDeviceGetAttribute(L2_CACHE_SIZE)")? as u64,
            total_bytes: cu("cuDeviceTotalMem", unsafe { result::device::total_mem(device) })? as u64,
            sm_count: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)")?,
            cc: (
                attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)")?,
                attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)")?,
            ),
            driver_version,
            peak_bytes_per_s: oxsparse::device::DeviceModel::read(device).map_or(0, |m| m.memory_bytes_per_s),
        })
    }

    /// The peak memory bandwidth in GB/s (1e9 B), when known.
    pub fn peak_gbps(&self) -> Option<f64> {
        (self.peak_bytes_per_s > 0).then(|| self.peak_bytes_per_s as f64 / 1e9)
    }

    /// Free device memory now, in bytes.
    pub fn free_bytes(&self) -> Result<u64> {
        Ok(cu("cuMemGetInfo", result::mem_get_info())?.0 as u64)
    }

    pub fn describe(&self) -> String {
        format!(
            "{} (sm_{}{}, {} SMs, {:.0} GiB, L2 {} MiB, driver {}.{})",
            self.name,
            self.cc.0,
            self.cc.1,
            self.sm_count,
            self.total_bytes as f64 / (1u64 << 30) as f64,
            self.l2_bytes >> 20,
            self.driver_version / 1000,
            self.driver_version % 1000 / 10
        )
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: balances the retain in `attach`; every buffer was freed before (see main).
        unsafe { result::primary_ctx::release(self.device).ok() };
    }
}

/// Device memory owned by the harness, freed on drop.
pub struct DevBuf {
    pub ptr: u64,
    pub bytes: usize,
}

impl DevBuf {
    /// `bytes` of uninitialized device memory (at least one byte, so every buffer has an address).
    pub fn new(bytes: usize) -> Result<DevBuf> {
        // SAFETY: plain allocation in the current context.
        let ptr = cu(&format!("cuMemAlloc({bytes} bytes)"), unsafe { result::malloc_sync(bytes.max(1)) })?;
        Ok(DevBuf { ptr, bytes })
    }

    /// A device copy of `data`.
    pub fn upload<T: Copy>(data: &[T]) -> Result<DevBuf> {
        let b = DevBuf::new(std::mem::size_of_val(data))?;
        if !data.is_empty() {
            // SAFETY: the buffer holds exactly size_of_val(data) bytes.
            cu("cuMemcpyHtoD", unsafe { result::memcpy_htod_sync(b.ptr, data) })?;
        }
        Ok(b)
    }

    /// Sets every byte to `byte`, in stream order (0xFF makes every float a NaN).
    pub fn fill(&self, byte: u8) -> Result<()> {
        // SAFETY: within the allocation.
        cu("cuMemsetD8", unsafe { result::memset_d8_sync(self.ptr, byte, self.bytes.max(1)) })
    }

    /// Copies all of `src` (of the same size) into this buffer on the legacy default stream, in
    /// stream order: how the in-place sorts get their input back before every call.
    pub fn copy_from(&self, src: &DevBuf) -> Result<()> {
        assert_eq!(self.bytes, src.bytes, "copy between buffers of different sizes");
        if self.bytes == 0 {
            return Ok(());
        }
        // SAFETY: both allocations hold `bytes` bytes; the legacy stream.
        cu("cuMemcpyDtoDAsync", unsafe { result::memcpy_dtod_async(self.ptr, src.ptr, self.bytes, std::ptr::null_mut()) })
    }

    /// The first `n` elements, after all enqueued work has finished.
    pub fn download<T: Copy + Default>(&self, n: usize) -> Result<Vec<T>> {
        assert!(n * std::mem::size_of::<T>() <= self.bytes, "download past the end of a buffer");
        sync("download")?;
        let mut v = vec![T::default(); n];
        if n > 0 {
            // SAFETY: the buffer holds at least n elements of T.
            cu("cuMemcpyDtoH", unsafe { result::memcpy_dtoh_sync(&mut v, self.ptr) })?;
        }
        Ok(v)
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        // SAFETY: allocated by `new`, freed once.
        if let Err(e) = unsafe { result::free_sync(self.ptr) } {
            eprintln!("oxsparse-bench: warning: cuMemFree failed: {:?}", e.0);
        }
    }
}
