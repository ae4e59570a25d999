//! The library handle's core: which GPU and context we run on, and which stream we enqueue on.
//!
//! We attach to the caller's *primary* context, the one the CUDA runtime uses, so the pointers a
//! C program gets from `cudaMalloc` and the streams it creates are valid for us. We link no CUDA at
//! build time; cudarc opens `libcuda.so` on first use. Without a driver or a GPU, `Handle::create`
//! returns `NotInitialized` and nothing else is touched.
//!
//! The layers above keep what they learn per handle in it through [`HandleCache`] (launch graphs,
//! SpMM's plain-call verdicts), so that this file depends on none of them.

use crate::device::DeviceModel;
use crate::error::{Error, Result};
use crate::settings::Settings;
use crate::types::{MathMode, PointerMode, ReorderMode};
use cudarc::driver::{result, sys};
use std::any::Any;
use std::ptr;
use std::sync::OnceLock;

/// Stream handles the driver treats specially; they belong to no single context.
const STREAM_LEGACY: usize = 0x1;
const STREAM_PER_THREAD: usize = 0x2;

pub struct Handle {
    pub device: i32,
    /// Primary context of `device`, retained by us until `Drop`.
    ctx: usize,
    /// `CUstream` as an address; 0 is the legacy default stream.
    pub stream: usize,
    pub pointer_mode: PointerMode,
    /// Whether FP32 SpMM may use tensor cores (`oxsparseSetMathMode`); starts as `OXSPARSE_MATH_MODE` says.
    pub math_mode: MathMode,
    /// Whether SpMM's preprocess may reorder rows for tensor cores (`oxsparseSetReorderMode`);
    /// starts as `OXSPARSE_REORDER` says.
    pub reorder_mode: ReorderMode,
    /// The device's facts every planner rule reads (src/device.rs).
    pub device_model: DeviceModel,
    /// Tuning and forcing settings: the environment's at creation, then `oxsparseSetTuning`'s.
    pub settings: Settings,
    /// What the layers above keep per handle ([`HandleCache`]), one slot per [`CacheSlot`], made
    /// at first use.
    caches: [OnceLock<Kept>; CacheSlot::COUNT],
}

/// Where a [`HandleCache`] lives in its handle. The handle's Drop releases them in this order, in
/// its context, before it releases the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheSlot {
    /// The graphs the handle launches its kernels through (src/kernels/graph/). First: work
    /// already enqueued keeps running (the driver defers freeing a launched graph, and the
    /// caller's runtime holds the primary context too).
    LaunchGraphs,
    /// What SpMM's plain calls learned of their matrices (src/ops/spmm/plain_choice.rs). After
    /// the graphs: it waits for the context's work, since a queued plain call may still write its
    /// verdict there.
    PlainVerdicts,
}

impl CacheSlot {
    /// The last slot's index plus one.
    const COUNT: usize = CacheSlot::PlainVerdicts as usize + 1;
}

/// State a layer above the handle keeps per handle (its cache lives with the operation that fills
/// it, not here): made empty at first use, released by the handle's Drop.
pub trait HandleCache: Default + Send + Sync + 'static {
    /// The slot it lives in (one type per slot).
    const SLOT: CacheSlot;

    /// Frees what the cache holds in the handle's context. Called once, by the handle's Drop, if
    /// the cache was made, with the context current and still retained (not called when it cannot
    /// be made current).
    fn release(&self, h: &Handle);
}

/// A cache in its slot, with how to release it.
struct Kept {
    cache: Box<dyn Any + Send + Sync>,
    release: fn(&Kept, &Handle),
}

impl Kept {
    fn new<T: HandleCache>() -> Kept {
        Kept { cache: Box::new(T::default()), release: release_as::<T> }
    }
}

fn release_as<T: HandleCache>(kept: &Kept, h: &Handle) {
    if let Some(c) = kept.cache.downcast_ref::<T>() {
        c.release(h);
    }
}

// Handles move between the caller's threads, and their caches with them.
const _: () = {
    const fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Handle>()
};

fn drv<T>(what: &str, r: std::result::Result<T, cudarc::driver::DriverError>) -> Result<T> {
    r.map_err(|e| Error::from_driver(what, e))
}

/// True when `libcuda.so` can be loaded. Checked before any driver call: calling into a missing
/// driver panics inside cudarc.
pub fn driver_present() -> bool {
    // SAFETY: only probes whether the shared library loads.
    unsafe { sys::is_culib_present() }
}

impl Handle {
    /// Attaches to the current context's device (device 0 when no context is current), as
    /// `cusparseCreate` does.
    pub fn create() -> Result<Handle> {
        if !driver_present() {
            return Err(Error::NotInitialized("no CUDA driver (libcuda.so) found".into()));
        }
        result::init().map_err(|e| Error::NotInitialized(format!("cuInit failed: {:?}", e.0)))?;
        let count = result::device::get_count().map_err(|e| Error::NotInitialized(format!("no GPU: {:?}", e.0)))?;
        if count == 0 {
            return Err(Error::NotInitialized("no CUDA-capable GPU".into()));
        }
        let current = drv("cuCtxGetCurrent", result::ctx::get_current())?;
        let device = match current {
            Some(_) => {
                let mut dev: sys::CUdevice = 0;
                // SAFETY: out-pointer to a local.
                drv("cuCtxGetDevice", unsafe { sys::cuCtxGetDevice(&mut dev).result() })?;
                dev
            }
            None => drv("cuDeviceGet", result::device::get(0))?,
        };
        // SAFETY: retains (reference-counts) the primary context; released in Drop.
        let primary = drv("cuDevicePrimaryCtxRetain", unsafe { result::primary_ctx::retain(device) })?;
        match current {
            None => {
                // SAFETY: primary is a live context we hold a reference to.
                if let Err(e) = unsafe { result::ctx::set_current(primary) } {
                    unsafe { result::primary_ctx::release(device).ok() };
                    return Err(Error::from_driver("cuCtxSetCurrent", e));
                }
            }
            Some(c) if c != primary => {
                unsafe { result::primary_ctx::release(device).ok() };
                return Err(Error::NotSupported(
                    "the current CUDA context is not the device's primary context; oxsparse works on the runtime's (primary) context"
                        .into(),
                ));
            }
            Some(_) => {}
        }
        let device_model = match DeviceModel::read(device) {
            Ok(m) => m,
            Err(e) => {
                unsafe { result::primary_ctx::release(device).ok() };
                return Err(e);
            }
        };
        let settings = Settings::from_env();
        Ok(Handle {
            device,
            ctx: primary as usize,
            stream: 0,
            pointer_mode: PointerMode::OXSPARSE_POINTER_MODE_HOST,
            math_mode: settings.math_mode.unwrap_or(MathMode::OXSPARSE_DEFAULT_MATH),
            reorder_mode: settings.reorder_mode.unwrap_or(ReorderMode::OXSPARSE_REORDER_NONE),
            device_model,
            settings,
            caches: Default::default(),
        })
    }

    /// The handle's cache of type `T`, made empty the first time (on the hot path of every
    /// launch: a load and a type check after that).
    #[inline]
    pub fn cache<T: HandleCache>(&self) -> &T {
        let kept = self.caches[T::SLOT as usize].get_or_init(Kept::new::<T>);
        kept.cache.downcast_ref::<T>().expect("one cache type per slot")
    }

    pub fn context(&self) -> sys::CUcontext {
        self.ctx as sys::CUcontext
    }

    pub fn cu_stream(&self) -> sys::CUstream {
        self.stream as sys::CUstream
    }

    /// Sets the stream after checking that it belongs to our context (the driver's special stream
    /// handles, NULL, legacy and per-thread, belong to every context).
    pub fn set_stream(&mut self, stream: usize) -> Result<()> {
        if stream != 0 && stream != STREAM_LEGACY && stream != STREAM_PER_THREAD {
            let mut owner: sys::CUcontext = ptr::null_mut();
            // SAFETY: the driver validates the stream handle and reports an error for a bad one.
            let r = unsafe { sys::cuStreamGetCtx(stream as sys::CUstream, &mut owner).result() };
            match r {
                Ok(()) if owner as usize == self.ctx => {}
                Ok(()) => return Err(Error::InvalidValue("stream belongs to another context".into())),
                Err(e) => return Err(Error::InvalidValue(format!("invalid stream: {:?}", e.0))),
            }
        }
        self.stream = stream;
        Ok(())
    }

    /// Makes our context current for the duration of the guard, restoring the caller's after.
    pub fn bind(&self) -> Result<ContextGuard> {
        let current = drv("cuCtxGetCurrent", result::ctx::get_current())?;
        if current.map(|c| c as usize) == Some(self.ctx) {
            return Ok(ContextGuard { restore: None });
        }
        // SAFETY: our context is retained for the lifetime of the handle.
        drv("cuCtxSetCurrent", unsafe { result::ctx::set_current(self.context()) })?;
        Ok(ContextGuard { restore: Some(current.map(|c| c as usize).unwrap_or(0)) })
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // The caches go first, in slot order (`CacheSlot` says why), in our context.
        if let Ok(_bound) = self.bind() {
            for kept in self.caches.iter().filter_map(OnceLock::get) {
                (kept.release)(kept, self);
            }
        }
        // SAFETY: balances the retain in `create`.
        unsafe { result::primary_ctx::release(self.device).ok() };
    }
}

/// Restores the context that was current before `Handle::bind`.
pub struct ContextGuard {
    restore: Option<usize>,
}

impl Drop for ContextGuard {
    fn drop(&mut self) {
        if let Some(c) = self.restore {
            // SAFETY: restoring the caller's own context (or none).
            unsafe { result::ctx::set_current(c as sys::CUcontext).ok() };
        }
    }
}

/// Device memory the library owns (not the user's workspace): the native BitTCF object's. It keeps
/// the primary context retained while it lives, so it can be freed without a handle.
pub struct DeviceMemory {
    pub ptr: u64,
    pub bytes: usize,
    device: i32,
    ctx: usize,
}

impl DeviceMemory {
    /// `bytes` bytes (at least one) in the handle's context.
    pub fn alloc(h: &Handle, bytes: usize) -> Result<DeviceMemory> {
        let _bound = h.bind()?;
        // SAFETY: reference-counts the primary context, released in Drop (or below on failure).
        let ctx = drv("cuDevicePrimaryCtxRetain", unsafe { result::primary_ctx::retain(h.device) })?;
        // SAFETY: our context is current; the pointer is freed in Drop.
        match unsafe { result::malloc_sync(bytes.max(1)) } {
            Ok(ptr) => Ok(DeviceMemory { ptr, bytes, device: h.device, ctx: ctx as usize }),
            Err(e) => {
                unsafe { result::primary_ctx::release(h.device).ok() };
                Err(Error::AllocFailed(format!("{bytes} bytes of device memory: {e:?}")))
            }
        }
    }
}

impl Drop for DeviceMemory {
    fn drop(&mut self) {
        // SAFETY: the context is retained by us; the caller's current context is restored after.
        unsafe {
            let current = result::ctx::get_current().ok().flatten();
            if result::ctx::set_current(self.ctx as sys::CUcontext).is_ok() {
                result::free_sync(self.ptr).ok();
                result::ctx::set_current(current.unwrap_or(ptr::null_mut())).ok();
            }
            result::primary_ctx::release(self.device).ok();
        }
    }
}
