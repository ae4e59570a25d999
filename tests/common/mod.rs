//! Shared helpers for the GPU tests: a handle when a GPU is present (a visible SKIP line when not),
//! device buffers that free themselves, poisoning, and a seeded random generator.
//!
//! Beneath: `bytes` (values as stored bytes), `values` (random values exact in each type), `gen`
//! (sparse matrices assembled from drawn entries), `hubs` (the hub-row CSR fixture), `capi`
//! (handle, scalars, statuses and workspace through the C ABI), `descr` (descriptors made through
//! the C ABI), `compare` (tolerances against the float64 references, determinism), `sweep` (the
//! parameters SpMM and SpMV cases share, and running a group of cases), `legacy_bsr` (the
//! legacy BSR tests' matrices and outputs) and `srbcrs` (SR-BCRS objects read back).
#![allow(dead_code)]

pub mod bytes;
pub mod capi;
pub mod compare;
pub mod descr;
pub mod gen;
pub mod hubs;
pub mod legacy_bsr;
pub mod srbcrs;
pub mod sweep;
pub mod values;

use cudarc::driver::result;
use oxsparse::context::Handle;

/// A handle on device 0, or `None` after printing why the GPU part of a test is skipped.
/// Set `OXSPARSE_REQUIRE_GPU=1` (the device test script does) to turn a missing GPU into a failure.
pub fn gpu(test: &str) -> Option<Handle> {
    match Handle::create() {
        Ok(h) => Some(h),
        Err(e) => {
            if std::env::var("OXSPARSE_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("{test}: GPU required but unavailable: {e}");
            }
            println!("SKIP: {test}: no GPU ({e})");
            None
        }
    }
}

/// Device memory owned by a test.
pub struct DevBuf {
    pub ptr: u64,
    pub bytes: usize,
}

impl DevBuf {
    pub fn zeroed(bytes: usize) -> DevBuf {
        // cuMemAlloc refuses 0 bytes; keep one byte so every buffer has a real address.
        let ptr = unsafe { result::malloc_sync(bytes.max(1)) }.expect("cuMemAlloc");
        unsafe { result::memset_d8_sync(ptr, 0, bytes.max(1)) }.expect("cuMemset");
        DevBuf { ptr, bytes }
    }

    pub fn from_slice<T: Copy>(data: &[T]) -> DevBuf {
        let b = DevBuf::zeroed(std::mem::size_of_val(data));
        if !data.is_empty() {
            unsafe { result::memcpy_htod_sync(b.ptr, data) }.expect("cuMemcpyHtoD");
        }
        b
    }

    /// `bytes` of `byte` (see `poison`).
    pub fn poisoned(bytes: usize, byte: u8) -> DevBuf {
        let b = DevBuf::zeroed(bytes);
        b.poison(byte);
        b
    }

    /// Fills every byte with `byte` (0xFF makes float NaNs and index -1s).
    pub fn poison(&self, byte: u8) {
        unsafe { result::memset_d8_sync(self.ptr, byte, self.bytes.max(1)) }.expect("cuMemset");
    }

    pub fn to_vec<T: Copy + Default>(&self) -> Vec<T> {
        let mut v = vec![T::default(); self.bytes / std::mem::size_of::<T>()];
        sync();
        if !v.is_empty() {
            unsafe { result::memcpy_dtoh_sync(&mut v, self.ptr) }.expect("cuMemcpyDtoH");
        }
        v
    }
}

impl DevBuf {
    /// The contents as a program reads them without a device-wide synchronisation: a copy on the
    /// legacy default stream, ordered after the work queued there (a library whose launches escape
    /// that order shows here as stale results).
    pub fn read_ordered(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.bytes];
        if !v.is_empty() {
            unsafe { result::memcpy_dtoh_sync(&mut v, self.ptr) }.expect("cuMemcpyDtoH");
        }
        v
    }

    /// Copies `bytes` from pageable host memory to the start of the buffer on the legacy default
    /// stream, as `cudaMemcpy` does: the call may return before the copy lands, and only work
    /// ordered after it on the stream may rely on it.
    pub fn write_ordered(&self, bytes: &[u8]) {
        assert!(bytes.len() <= self.bytes);
        if !bytes.is_empty() {
            unsafe { result::memcpy_htod_async(self.ptr, bytes, std::ptr::null_mut()) }.expect("cuMemcpyHtoDAsync");
        }
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        unsafe { result::free_sync(self.ptr) }.ok();
    }
}

/// Waits for all work and fails the test on an asynchronous kernel error.
pub fn sync() {
    result::ctx::synchronize().expect("kernel failed (cuCtxSynchronize)");
}

/// Seeded test data on top of the shared SplitMix64 generator.
pub struct Rng(oxsparse::reference::rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(oxsparse::reference::rng::SplitMix64::new(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in [-1, 1).
    pub fn value(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    /// Uniform in [0, n).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    /// `k` distinct values from [0, n), in random order.
    pub fn distinct(&mut self, n: u64, k: usize) -> Vec<u64> {
        let mut all: Vec<u64> = (0..n).collect();
        for i in 0..k.min(all.len()) {
            let j = i + self.below((all.len() - i) as u64) as usize;
            all.swap(i, j);
        }
        all.truncate(k);
        all
    }
}
