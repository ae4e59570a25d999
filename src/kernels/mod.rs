//! Kernel launchers: the layer between plans and the CUDA kernels in `kernels/`.
//!
//! A launcher picks the kernel instantiation for the operand types (`oxs_<op>_<value>_<index>`),
//! fills the operation's `#[repr(C)]` parameter block from `params.rs` (the same struct the kernel
//! receives, through the generated `oxsparse_kernel_params.h`), and enqueues it on the handle's
//! stream (through the handle's launch graphs, `graph/`). Every kernel takes exactly one argument:
//! its parameter block, by value.

pub mod brcv;
pub mod coo_csr;
pub mod csr2csc;
pub mod csr2csc_radix;
pub mod dense_to_sparse;
pub mod graph;
#[cfg(test)]
mod int_mma_model;
pub mod module;
pub mod name;
pub mod params;
pub mod row_view;
pub mod sddmm;
pub mod sort;
pub mod sparse_to_dense;
pub mod spmm;
pub mod spmm_bsr_small;
mod spmm_row_shape;
pub mod spmm_tc;
mod spmm_tma;
pub mod spmv;
pub mod spmv_columns;
pub mod srbcrs;
pub mod srbcrs_sddmm;
pub mod vector_ops;

use crate::context::Handle;
use crate::error::{Error, Result};
use crate::types::{DataType, PointerMode};
use params::Scalar;
use std::ffi::c_void;

/// Threads per block for the simple element-wise kernels.
pub const BLOCK: u32 = 256;
/// Upper bound on blocks for grid-stride kernels: enough to fill any current GPU several times.
pub const MAX_GRID: u64 = 65_535;

/// Grid size for a grid-stride loop over `n` items.
pub fn grid_for(n: u64, block: u32) -> u32 {
    n.div_ceil(block as u64).clamp(1, MAX_GRID) as u32
}

/// Enqueues `family`'s kernel `name` with one parameter block on the handle's stream.
pub fn launch<P: Copy>(
    h: &Handle,
    family: &'static str,
    name: &str,
    grid: (u32, u32, u32),
    block: u32,
    shared: u32,
    params: &P,
) -> Result<()> {
    let _bound = h.bind()?;
    // SAFETY: the handle keeps its context alive and `_bound` made it current.
    let context_id = unsafe { module::context_id(h.context())? };
    // SAFETY: as above.
    let function = unsafe { module::function(context_id, family, name)? };
    enqueue(h, context_id, function, name, grid, block, shared, params)
}

/// [`launch`] for the hottest launch sites: the kernel is found by `key` (`module::KernelKey`),
/// and `name()` builds its name only the first time.
#[allow(clippy::too_many_arguments)]
pub fn launch_keyed<P: Copy>(
    h: &Handle,
    family: &'static str,
    key: module::KernelKey,
    name: impl FnOnce() -> name::KernelName,
    grid: (u32, u32, u32),
    block: u32,
    shared: u32,
    params: &P,
) -> Result<()> {
    let _bound = h.bind()?;
    // SAFETY: the handle keeps its context alive and `_bound` made it current.
    let context_id = unsafe { module::context_id(h.context())? };
    // SAFETY: as above.
    let (function, name) = unsafe { module::function_keyed(context_id, family, key, name)? };
    enqueue(h, context_id, function, &name, grid, block, shared, params)
}

/// Records `function` in the open batch, or launches it (through the handle's graphs).
#[allow(clippy::too_many_arguments)]
fn enqueue<P: Copy>(
    h: &Handle,
    context_id: u64,
    function: cudarc::driver::sys::CUfunction,
    name: &str,
    grid: (u32, u32, u32),
    block: u32,
    shared: u32,
    params: &P,
) -> Result<()> {
    let mut args = [params as *const P as *mut c_void];
    if log_enabled() {
        crate::logger::log(crate::logger::Category::Trace, "launch", format_args!("{name} grid {grid:?} block {block} shared {shared}"));
    }
    let l = graph::Launch { function, grid, block, shared, args: args.as_mut_ptr(), overlaps: false, words: &[] };
    if graph::record(h, &l, params, name) {
        return Ok(());
    }
    // Launched now: its words tell the graph whether its node already holds this launch.
    let words = graph::ParamWords::copy_of(params);
    let l = graph::Launch { words: words.as_slice(), ..l };
    let stream = h.cu_stream();
    // SAFETY: `function` takes one by-value argument of type P (the kernel and P come from the
    // same generated header); the driver copies the block before either call returns.
    unsafe {
        match h.cache::<graph::LaunchGraphs>().launch(&h.settings.launch, context_id, stream, &[&l]) {
            Some(launched) => launched,
            None => l.plain(stream),
        }
    }
    .map_err(|e| Error::from_driver(&format!("launching {name}"), e))
}

/// Blocks of `block` threads of `family`'s kernel `name` that one multiprocessor holds at once (its
/// occupancy, from the driver, by the kernel's registers and shared memory). Asked once per device
/// and kernel, then cached: planners ask on every call.
pub fn resident_blocks(h: &Handle, family: &'static str, name: &str, block: u32) -> Result<i64> {
    resident_blocks_sharing(h, family, name, block, 0)
}

/// [`resident_blocks`] for a kernel launched with `shared` bytes of dynamic shared memory, which
/// it first allows the kernel (above 48 KB a kernel must be allowed them). Asked once per context
/// and kernel: the allowance belongs to the context's copy of the kernel.
pub fn resident_blocks_sharing(h: &Handle, family: &'static str, name: &str, block: u32, shared: u32) -> Result<i64> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    type Key = (u64, &'static str, String, u32, u32);
    static BLOCKS: once_cell::sync::Lazy<Mutex<HashMap<Key, i64>>> = once_cell::sync::Lazy::new(Default::default);
    // SAFETY: the handle keeps its context alive.
    let context_id = unsafe { module::context_id(h.context())? };
    let key = (context_id, family, name.to_string(), block, shared);
    if let Some(&n) = BLOCKS.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(n);
    }
    let _bound = h.bind()?;
    // SAFETY: as above, and `_bound` made the context current; `f` is a kernel of it.
    let blocks = unsafe {
        let f = module::function(context_id, family, name)?;
        if shared > 0 {
            use cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
            cudarc::driver::result::function::set_function_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared as i32)
                .map_err(|e| Error::from_driver("cuFuncSetAttribute", e))?;
        }
        cudarc::driver::result::occupancy::max_active_block_per_multiprocessor(f, block as i32, shared as usize)
    }
    .map_err(|e| Error::from_driver("cuOccupancyMaxActiveBlocksPerMultiprocessor", e))?;
    let n = blocks.max(1) as i64;
    BLOCKS.lock().unwrap_or_else(|p| p.into_inner()).insert(key, n);
    Ok(n)
}

/// Whether the handle's stream is being captured into a graph (nothing may wait then).
pub fn capturing(h: &Handle) -> Result<bool> {
    let _bound = h.bind()?;
    // SAFETY: the handle's live stream.
    let status =
        unsafe { cudarc::driver::result::stream::is_capturing(h.cu_stream()) }.map_err(|e| Error::from_driver("cuStreamIsCapturing", e))?;
    Ok(status != cudarc::driver::sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE)
}

/// Whether launches are logged: the logger's Trace category (level 2 and up, src/logger.rs).
pub fn log_enabled() -> bool {
    crate::logger::enabled(crate::logger::Category::Trace)
}

/// Reads a host scalar of `compute` type from `ptr`, or records the device address, according to
/// the handle's pointer mode. The kernel reads `Scalar` through `load_scalar<T>()`.
///
/// # Safety
/// In host mode `ptr` must point to a readable value of `compute` type.
pub unsafe fn scalar(h: &Handle, ptr: *const c_void, compute: DataType) -> Result<Scalar> {
    if ptr.is_null() {
        return Err(Error::InvalidValue("scalar pointer is NULL".into()));
    }
    Ok(match h.pointer_mode {
        PointerMode::OXSPARSE_POINTER_MODE_DEVICE => Scalar { host: [0; 2], device: ptr as u64 },
        PointerMode::OXSPARSE_POINTER_MODE_HOST => {
            let mut host = [0u64; 2];
            let n = compute.size_bytes() as usize;
            std::ptr::copy_nonoverlapping(ptr as *const u8, host.as_mut_ptr() as *mut u8, n);
            Scalar { host, device: 0 }
        }
    })
}
