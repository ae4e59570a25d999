//! Kernel launches through one-node CUDA graphs, the launch path of every call.
//!
//! Why: on the H100 machine a `cuLaunchKernel` costs 4.2-4.6 us of host time, and a small call's
//! time on an idle stream is mostly that host time (session 19, `bench/lab/launch_floor.cu`).
//! Re-parameterising an instantiated one-node graph and launching it
//! (`cuGraphExecKernelNodeSetParams` + `cuGraphLaunch`) costs 2.7 us, with the same kernel, grid
//! and parameter block, on the same stream, in the same order.
//!
//! Each handle keeps one executable graph per (stream, kernel): launches of one executable graph
//! are ordered behind each other by the driver, so sharing one across streams would serialise
//! work the caller meant to overlap. A graph is built on a kernel's first launch on a stream
//! (tens of microseconds, once) and only its node's parameters change after that; the driver
//! copies the parameter block when they are set, and work already launched keeps the parameters
//! it was launched with.
//!
//! The plain launch stays: while the stream is being captured into the caller's graph (a
//! captured launch must be a node of that graph), when `OXSPARSE_LAUNCH=direct` (for
//! comparisons), and whenever the graph path cannot take a launch (the plain launch then reports
//! the driver's own error).

use cudarc::driver::{sys, DriverError};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// One kernel's one-node graph, instantiated.
struct Exec {
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
}

/// A handle's graphs, keyed by (stream, kernel) as addresses, with the ID of the context they were
/// made in.
#[derive(Default)]
pub struct LaunchGraphs {
    inner: Mutex<Graphs>,
}

#[derive(Default)]
struct Graphs {
    context_id: u64,
    execs: HashMap<(usize, usize), Exec>,
}

// SAFETY: the raw driver objects are only used under the mutex, with the owning context current.
unsafe impl Send for Graphs {}

/// What one launch is: the kernel, its grid and block, dynamic shared memory and argument array.
pub struct Launch {
    pub function: sys::CUfunction,
    pub grid: (u32, u32, u32),
    pub block: u32,
    pub shared: u32,
    pub args: *mut *mut c_void,
}

impl Launch {
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
}

/// Whether launches may go through graphs (`OXSPARSE_LAUNCH=direct` turns them off).
pub fn enabled() -> bool {
    static ON: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| std::env::var("OXSPARSE_LAUNCH").map_or(true, |v| v != "direct"));
    *ON
}

fn ok(r: sys::CUresult) -> std::result::Result<(), sys::CUresult> {
    if r == sys::CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(r)
    }
}

impl LaunchGraphs {
    /// Launches `l` on `stream` through the kernel's graph. `None`: the graph path does not take
    /// this launch, launch it plainly. The caller's context (`context_id`) must be current.
    ///
    /// # Safety
    /// `l` must describe a valid launch of a kernel of the current context: `args` as
    /// `cuLaunchKernel` takes them, alive for the duration of the call.
    pub unsafe fn launch(&self, context_id: u64, stream: sys::CUstream, l: &Launch) -> Option<std::result::Result<(), DriverError>> {
        if !enabled() || capturing(stream) {
            return None;
        }
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if g.context_id != context_id {
            // The context was reset (cudaDeviceReset) and took its graphs with it: nothing is left
            // to destroy, and destroying would touch freed driver state.
            std::mem::take(&mut g.execs).into_values().for_each(std::mem::forget);
            g.context_id = context_id;
        }
        let params = l.node_params();
        let key = (stream as usize, l.function as usize);
        let exec = match g.execs.get(&key) {
            // SAFETY: a live graph of this context; the driver copies `params` and its arguments.
            Some(e) => match ok(unsafe { sys::cuGraphExecKernelNodeSetParams_v2(e.exec, e.node, &params) }) {
                Ok(()) => e.exec,
                Err(_) => return None,
            },
            None => {
                // SAFETY: as above; the graph is instantiated with these parameters.
                let e = unsafe { Exec::new(&params) }?;
                let exec = e.exec;
                g.execs.insert(key, e);
                exec
            }
        };
        // SAFETY: a live executable graph of the current context, on the caller's stream.
        Some(ok(unsafe { sys::cuGraphLaunch(exec, stream) }).map_err(DriverError))
    }

    /// Destroys the graphs, if they were made in the current context (`context_id`); those of a
    /// context that was reset are gone with it.
    pub fn clear(&self, context_id: u64) {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if g.context_id != context_id {
            std::mem::take(&mut g.execs).into_values().for_each(std::mem::forget);
            return;
        }
        for (_, e) in g.execs.drain() {
            // SAFETY: objects we created, destroyed once.
            unsafe {
                sys::cuGraphExecDestroy(e.exec);
                sys::cuGraphDestroy(e.graph);
            }
        }
    }
}

impl Exec {
    /// A one-node graph of `params`, instantiated; None if the driver refuses any step.
    unsafe fn new(params: &sys::CUDA_KERNEL_NODE_PARAMS) -> Option<Exec> {
        let mut graph: sys::CUgraph = std::ptr::null_mut();
        ok(sys::cuGraphCreate(&mut graph, 0)).ok()?;
        let mut node: sys::CUgraphNode = std::ptr::null_mut();
        let mut exec: sys::CUgraphExec = std::ptr::null_mut();
        let built = ok(sys::cuGraphAddKernelNode_v2(&mut node, graph, std::ptr::null(), 0, params)).and_then(|()| ok(sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0)));
        if built.is_err() {
            sys::cuGraphDestroy(graph);
            return None;
        }
        Some(Exec { graph, exec, node })
    }
}

/// Whether `stream` is being captured (an error counts as captured: the plain launch decides).
unsafe fn capturing(stream: sys::CUstream) -> bool {
    let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
    sys::cuStreamIsCapturing(stream, &mut status) != sys::CUresult::CUDA_SUCCESS || status != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE
}
