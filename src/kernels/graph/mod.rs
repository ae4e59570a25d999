//! Kernel launches through small CUDA graphs, the launch path of every call.
//!
//! Why: a `cuLaunchKernel` costs 4.2-4.6 us of host time, and a small call's time on an idle
//! stream is mostly that host time (`bench/tools/launch_floor.cu`; bench/notes/launch-path.md).
//! Re-parameterising an instantiated one-node graph and launching it
//! (`cuGraphExecKernelNodeSetParams` + `cuGraphLaunch`) costs 2.7 us, with the same kernel, grid
//! and parameter block, on the same stream, in the same order; a chain of two nodes 3.1 us against
//! 9.1 us for two launches.
//!
//! Each handle keeps executable graphs per (stream, kernels launched in a row): launches of one
//! executable graph are ordered behind each other by the driver, so sharing one across streams
//! would serialise work the caller meant to overlap. A graph is built on the first launch of its
//! kernels on a stream (tens of microseconds, once) and only its nodes' parameters change after
//! that, and only where a launch's differ from those its node holds (a loop calling with the same
//! operands sets nothing); the driver copies the parameter blocks when they are set, and work
//! already launched keeps the parameters it was launched with. An argument set that comes back
//! gets a graph of its own, up to a pool per key (pool.rs), so that a loop over a few
//! argument sets sets nothing either.
//!
//! A call that launches several kernels wraps them in [`batched`]: its launches are recorded on
//! this thread and go out at its end as one chain graph. A stream operation other than a launch
//! inside it (a memset, a copy) must call [`flush`] first, which sends what was recorded.
//!
//! A launch may start before the one before it in its chain has finished (programmatic dependent
//! launch, sm_90): [`overlap_next`] marks the next launch of a batch so, and its edge in the chain
//! graph becomes a programmatic one. The marked kernel must wait (`griddepcontrol.wait`,
//! kernels/common/pdl.cuh) before it reads what the launch before it writes; it may read other
//! operands before. Used after SpMM's staging copy of op(B) (the second launch's latency, and the
//! short-row kernel's first memory trip, its row bounds, then overlap the copy) and before the
//! copy back of a column-major C (which waits at its top).
//!
//! The plain launch stays: while the stream is being captured into the caller's graph (a
//! captured launch must be a node of that graph), when `OXSPARSE_LAUNCH=direct` (for
//! comparisons), and whenever the graph path cannot take a launch (the plain launch then reports
//! the driver's own error).
//!
//! Here: what a launch is ([`Launch`]) and whether the graph path is on. `cache.rs`: a handle's
//! graphs ([`LaunchGraphs`]), found, made or re-parameterised per launch; `pool.rs`: which of a
//! key's graphs a launch takes; `batch.rs`: a call's launches recorded on this thread and sent at
//! its end, `recorded.rs` how they are kept and sent; `replay.rs`: a batch sent again as it was;
//! `words.rs`: the copies of parameter blocks they keep.

mod batch;
mod cache;
mod pool;
mod recorded;
mod replay;
mod words;

pub use batch::{batched, batched_for_replay, flush, fresh_word, overlap_next, record};
pub use cache::LaunchGraphs;
pub use replay::{send_again, Replay, Slot};
pub(crate) use words::ParamWords;

use cudarc::driver::{result, sys, DriverError};
use std::ffi::c_void;

/// What one launch is: the kernel, its grid and block, dynamic shared memory and argument array
/// (one by-value parameter block, as every kernel of ours takes).
pub struct Launch<'a> {
    pub function: sys::CUfunction,
    pub grid: (u32, u32, u32),
    pub block: u32,
    pub shared: u32,
    pub args: *mut *mut c_void,
    /// In a chain: may start before the launch before it has finished (see the module notes).
    pub overlaps: bool,
    /// The parameter block's words (`ParamWords`), to tell whether a kept graph's node holds
    /// them already; empty where not known (the node is then always set).
    pub words: &'a [u64],
}

impl Launch<'_> {
    fn node_params(&self) -> sys::CUDA_KERNEL_NODE_PARAMS {
        sys::CUDA_KERNEL_NODE_PARAMS {
            func: self.function,
            gridDimX: self.grid.0,
            gridDimY: self.grid.1,
            gridDimZ: self.grid.2,
            blockDimX: self.block,
            blockDimY: 1,
            blockDimZ: 1,
            sharedMemBytes: self.shared,
            kernelParams: self.args,
            extra: std::ptr::null_mut(),
            kern: std::ptr::null_mut(),
            ctx: std::ptr::null_mut(),
        }
    }

    /// Launches plainly.
    ///
    /// # Safety
    /// As [`LaunchGraphs::launch`].
    pub unsafe fn plain(&self, stream: sys::CUstream) -> std::result::Result<(), DriverError> {
        let (g, b) = (self.grid, (self.block, 1, 1));
        result::launch_kernel(self.function, g, b, self.shared, stream, std::slice::from_raw_parts_mut(self.args, 1))
    }
}

/// Whether `h`'s launches may go through graphs (its `OXSPARSE_LAUNCH=direct` turns them off).
pub fn enabled(h: &crate::context::Handle) -> bool {
    h.settings.launch.graphs
}

/// A driver status as a result.
fn ok(r: sys::CUresult) -> std::result::Result<(), DriverError> {
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(DriverError(e)),
    }
}

/// Logs why the graph path declined a launch (the logger's Trace category), which then goes plainly.
fn declined(e: DriverError) {
    if super::log_enabled() {
        crate::logger::log(crate::logger::Category::Trace, "launch", format_args!("graph launch declined: {:?}", e.0));
    }
}

/// Whether `stream` is being captured (an error counts as captured: the plain launch decides).
unsafe fn capturing(stream: sys::CUstream) -> bool {
    let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
    sys::cuStreamIsCapturing(stream, &mut status) != sys::CUresult::CUDA_SUCCESS
        || status != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A launch of the kernel at address `function` whose words are unknown.
    pub(super) fn launch(function: usize) -> Launch<'static> {
        Launch {
            function: function as sys::CUfunction,
            grid: (3, 2, 1),
            block: 256,
            shared: 0,
            args: std::ptr::null_mut(),
            overlaps: false,
            words: &[],
        }
    }
}
