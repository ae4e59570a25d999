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
//! gets a graph of its own, up to a pool per key (graph_pool.rs), so that a loop over a few
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

mod pool;

use super::name::KernelName;
use crate::context::{CacheSlot, Handle, HandleCache};
use crate::error::{Error, Result};
use crate::fast_hash::FastHash;
use cudarc::driver::{result, sys, DriverError};
use pool::{Pick, Pool};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;

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

/// Whether launches may go through graphs (`OXSPARSE_LAUNCH=direct` turns them off).
pub fn enabled() -> bool {
    static ON: once_cell::sync::Lazy<bool> =
        once_cell::sync::Lazy::new(|| std::env::var("OXSPARSE_LAUNCH").map_or(true, |v| v != "direct"));
    *ON
}

/// A chain of kernel nodes, instantiated, with what each node was last set to.
struct Exec {
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    nodes: Vec<sys::CUgraphNode>,
    set: Vec<Option<NodeSet>>,
}

/// A node's grid, block, shared memory and parameter words as last set. A launch that matches
/// them needs no `cuGraphExecKernelNodeSetParams`: a solver's loop calls SpMV, and a training loop
/// SpMM, with the same operands every iteration (0.1-0.35 us less host time a call).
struct NodeSet {
    grid: (u32, u32, u32),
    block: u32,
    shared: u32,
    words: ParamWords,
}

impl Exec {
    /// Whether every node holds its launch of `chain` already.
    fn holds(&self, chain: &[&Launch]) -> bool {
        self.set.len() == chain.len() && self.set.iter().zip(chain).all(|(s, l)| s.as_ref().is_some_and(|s| s.holds(l)))
    }

    /// Destroys the graph and its executable form (a launched graph is freed when it ends).
    ///
    /// # Safety
    /// Objects this handle made in the current context, destroyed once.
    unsafe fn destroy(self) {
        // SAFETY: as the caller promises.
        unsafe {
            sys::cuGraphExecDestroy(self.exec);
            sys::cuGraphDestroy(self.graph);
        }
    }
}

/// A chain's kernels, grids, blocks, shared memory and parameter words, hashed: which of a key's
/// graphs may hold it (`Exec::holds` decides). None where a launch's words are unknown.
fn fingerprint(chain: &[&Launch]) -> Option<u64> {
    let mut h = FastHash.build_hasher();
    for l in chain {
        if l.words.is_empty() {
            return None;
        }
        h.write_usize(l.function as usize | l.overlaps as usize);
        h.write_u64(u64::from(l.grid.0) | u64::from(l.grid.1) << 32);
        h.write_u64(u64::from(l.grid.2) | u64::from(l.block) << 32);
        h.write_u32(l.shared);
        l.words.iter().for_each(|&w| h.write_u64(w));
    }
    Some(h.finish())
}

impl NodeSet {
    fn of(l: &Launch) -> NodeSet {
        NodeSet { grid: l.grid, block: l.block, shared: l.shared, words: ParamWords::from_words(l.words) }
    }

    /// Whether the node already holds `l`'s launch (a launch without words never matches).
    fn holds(&self, l: &Launch) -> bool {
        !l.words.is_empty() && self.grid == l.grid && self.block == l.block && self.shared == l.shared && self.words.as_slice() == l.words
    }
}

/// A handle's graphs, a pool per stream and kernels of the chain (as addresses), with the ID of
/// the context they were made in. One-node graphs have their own map, so a single launch looks
/// its pool up without building a key.
#[derive(Default)]
pub struct LaunchGraphs {
    inner: Mutex<Graphs>,
}

#[derive(Default)]
struct Graphs {
    context_id: u64,
    single: HashMap<(usize, usize), Pool<Exec>, FastHash>,
    chains: HashMap<(usize, Vec<usize>), Pool<Exec>, FastHash>,
    /// Graphs the pools hold beyond each key's first.
    pooled: usize,
    /// Launches so far: when each pooled graph was last launched.
    clock: u64,
}

// SAFETY: the raw driver objects are only used under the mutex, with the owning context current.
unsafe impl Send for Graphs {}

fn ok(r: sys::CUresult) -> std::result::Result<(), DriverError> {
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(DriverError(e)),
    }
}

impl Graphs {
    /// Forgets the graphs of a context that was reset (cudaDeviceReset): they went with it, and
    /// destroying them would touch freed driver state.
    fn follow(&mut self, context_id: u64) {
        if self.context_id != context_id {
            std::mem::take(&mut self.single).into_values().for_each(std::mem::forget);
            std::mem::take(&mut self.chains).into_values().for_each(std::mem::forget);
            self.pooled = 0;
            self.context_id = context_id;
        }
    }

    /// Destroys every graph (of the current context).
    fn destroy_all(&mut self) {
        let pools = self.single.drain().map(|(_, p)| p).chain(self.chains.drain().map(|(_, p)| p));
        for e in pools.flat_map(|p| p.slots).map(|s| s.exec) {
            // SAFETY: graphs we made in this context, each taken out of its pool once.
            unsafe { e.destroy() };
        }
        self.pooled = 0;
    }

    /// Destroys the pooled graph launched longest ago, in any pool (a pool keeps its last), to make
    /// room for another (`MAX_POOLED`).
    fn evict_one(&mut self) {
        let pools = self.single.values_mut().chain(self.chains.values_mut());
        let Some((_, i, pool)) = pools.filter_map(|p| p.spare().map(|(used, i)| (used, i, p))).min_by_key(|&(used, i, _)| (used, i)) else {
            return;
        };
        // SAFETY: a graph we made in this context, taken out of its pool.
        unsafe { pool.evict(i).destroy() };
        self.pooled -= 1;
    }

    /// The pool kept under `key`, if there is one.
    fn pool(&mut self, key: &Key) -> Option<&mut Pool<Exec>> {
        match key {
            Key::Single(k) => self.single.get_mut(k),
            Key::Chain(k) => self.chains.get_mut(k),
        }
    }

    /// The executable graph of `chain` on stream `s` with its nodes set to `params`: one of its
    /// pool (graph_pool.rs) that holds them, one made now, or one re-parameterised. None: the
    /// driver refused a step.
    ///
    /// # Safety
    /// As [`LaunchGraphs::launch`]; `params` are `chain`'s node parameters.
    unsafe fn exec_for(&mut self, s: usize, chain: &[&Launch], params: &[sys::CUDA_KERNEL_NODE_PARAMS]) -> Option<sys::CUgraphExec> {
        self.clock += 1;
        let now = self.clock;
        let print = fingerprint(chain);
        let key = Key::of(s, chain);
        if let Some(pool) = self.pool(&key) {
            let i = match pool.pick(now, print, |e| e.holds(chain), true) {
                Pick::Holds(i) => return Some(pool.slots[i].exec.exec),
                Pick::Reuse(i) => i,
                Pick::Grow => {
                    if self.pooled >= MAX_POOLED {
                        self.evict_one();
                    }
                    // SAFETY: as below; another graph of this key, instantiated with these parameters.
                    let made = unsafe { Exec::new(params, chain) };
                    let pool = self.pool(&key).expect("a pool keeps its last graph");
                    match made {
                        Some(e) => {
                            let exec = e.exec;
                            pool.push(e, print, now);
                            self.pooled += 1;
                            return Some(exec);
                        }
                        // Not made (the driver declined): set a kept one instead.
                        None => pool.oldest(now),
                    }
                }
            };
            let pool = self.pool(&key).expect("picked above");
            // SAFETY: a live graph of this context, set to this chain's parameters.
            return unsafe { set_nodes(pool, i, chain, params, print) };
        }
        if self.single.len() + self.chains.len() >= MAX_GRAPHS {
            // A program that sets ever new streams on one handle would otherwise grow this
            // without bound.
            self.destroy_all();
        }
        // SAFETY: as above; the graph is instantiated with these parameters.
        let e = unsafe { Exec::new(params, chain) }?;
        let exec = e.exec;
        let pool = Pool::new(e, print, now);
        match key {
            Key::Single(k) => self.single.insert(k, pool),
            Key::Chain(k) => self.chains.insert(k, pool),
        };
        Some(exec)
    }
}

/// What a pool is kept under: the stream and the kernel of a single launch, or the stream and a
/// chain's kernels and edges (functions are aligned: the low bit marks an overlap).
enum Key {
    Single((usize, usize)),
    Chain((usize, Vec<usize>)),
}

impl Key {
    fn of(s: usize, chain: &[&Launch]) -> Key {
        match chain {
            [one] => Key::Single((s, one.function as usize)),
            _ => Key::Chain((s, chain.iter().map(|l| l.function as usize | l.overlaps as usize).collect())),
        }
    }
}

/// Sets the nodes of `pool`'s graph `i` that do not hold their launch of `chain` (with `params`)
/// and records what the graph then holds. None: the driver refused a set.
///
/// # Safety
/// As [`LaunchGraphs::launch`]; the pool's graphs are live graphs of the current context.
unsafe fn set_nodes(
    pool: &mut Pool<Exec>,
    i: usize,
    chain: &[&Launch],
    params: &[sys::CUDA_KERNEL_NODE_PARAMS],
    print: Option<u64>,
) -> Option<sys::CUgraphExec> {
    pool.mark(i, None);
    let e = &mut pool.slots[i].exec;
    for (((node, p), l), set) in e.nodes.iter().zip(params).zip(chain).zip(e.set.iter_mut()) {
        if set.as_ref().is_some_and(|s| s.holds(l)) {
            continue;
        }
        *set = None;
        // SAFETY: a live graph of this context; the driver copies the parameters.
        unsafe { ok(sys::cuGraphExecKernelNodeSetParams_v2(e.exec, *node, p)) }.map_err(declined).ok()?;
        *set = Some(NodeSet::of(l));
    }
    let exec = e.exec;
    pool.mark(i, print);
    Some(exec)
}

/// The most keys a handle keeps graphs for (each graph a few kilobytes of driver memory); past it
/// they are all destroyed and made again as launches need them.
const MAX_GRAPHS: usize = 256;

/// The most graphs the pools of a handle hold beyond each key's first (graph_pool.rs); at it a new
/// one takes the place of the graph launched longest ago. (A cap without eviction filled up with a
/// bench run's first kernels, and later ones set their one graph on every call; trimming every
/// pool at the cap made the next launches of the kernels in use instantiate theirs again, in a
/// bench's timed calls.)
const MAX_POOLED: usize = 512;

impl LaunchGraphs {
    /// Launches `chain` (one or more launches, in order) on `stream` as one graph. `None`: the
    /// graph path does not take them, launch them plainly. The caller's context (`context_id`)
    /// must be current.
    ///
    /// # Safety
    /// Each launch must describe a valid launch of a kernel of the current context: `args` as
    /// `cuLaunchKernel` takes them, alive for the duration of the call.
    pub unsafe fn launch(&self, context_id: u64, stream: sys::CUstream, chain: &[&Launch]) -> Option<std::result::Result<(), DriverError>> {
        if capturing(stream) {
            return None;
        }
        // SAFETY: the caller's contract; the stream is not capturing.
        unsafe { self.launch_uncaptured(context_id, stream, chain) }
    }

    /// [`LaunchGraphs::launch`] on a stream known not to be capturing (a batch is opened only on
    /// such a stream, so its launches skip asking the driver again).
    ///
    /// # Safety
    /// As [`LaunchGraphs::launch`], and `stream` must not be capturing.
    unsafe fn launch_uncaptured(
        &self,
        context_id: u64,
        stream: sys::CUstream,
        chain: &[&Launch],
    ) -> Option<std::result::Result<(), DriverError>> {
        if chain.is_empty() || !enabled() {
            return None;
        }
        // A single launch (most calls) keeps its node parameters on the stack.
        let (one, many): ([sys::CUDA_KERNEL_NODE_PARAMS; 1], Vec<sys::CUDA_KERNEL_NODE_PARAMS>);
        let params: &[sys::CUDA_KERNEL_NODE_PARAMS] = match chain {
            [l] => {
                one = [l.node_params()];
                &one
            }
            _ => {
                many = chain.iter().map(|l| l.node_params()).collect();
                &many
            }
        };
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        g.follow(context_id);
        // SAFETY: the caller's launches, in the current context.
        let exec = unsafe { g.exec_for(stream as usize, chain, params) }?;
        // SAFETY: a live executable graph of the current context, on the caller's stream.
        Some(ok(unsafe { sys::cuGraphLaunch(exec, stream) }))
    }

    /// Destroys the graphs, if they were made in the current context (`context_id`); those of a
    /// context that was reset are gone with it.
    pub fn clear(&self, context_id: u64) {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        g.follow(context_id);
        g.destroy_all();
    }
}

impl HandleCache for LaunchGraphs {
    const SLOT: CacheSlot = CacheSlot::LaunchGraphs;

    fn release(&self, h: &Handle) {
        // SAFETY: the handle's context, current and retained while it drops.
        if let Ok(id) = unsafe { super::module::context_id(h.context()) } {
            self.clear(id);
        }
    }
}

impl Exec {
    /// A chain graph of `params` (those of `chain`), instantiated; None if the driver refuses any
    /// step. Node i depends on node i - 1 programmatically where `chain[i].overlaps`, fully
    /// otherwise.
    unsafe fn new(params: &[sys::CUDA_KERNEL_NODE_PARAMS], chain: &[&Launch]) -> Option<Exec> {
        let mut graph: sys::CUgraph = std::ptr::null_mut();
        ok(sys::cuGraphCreate(&mut graph, 0)).ok()?;
        let mut nodes: Vec<sys::CUgraphNode> = Vec::with_capacity(params.len());
        let mut exec: sys::CUgraphExec = std::ptr::null_mut();
        let mut built = Ok(());
        for (p, overlap) in params.iter().zip(chain.iter().map(|l| l.overlaps)) {
            let mut node: sys::CUgraphNode = std::ptr::null_mut();
            let prev = nodes.last().copied();
            built = match (prev, overlap) {
                (Some(prev), true) => ok(sys::cuGraphAddKernelNode_v2(&mut node, graph, std::ptr::null(), 0, p)).and_then(|()| {
                    // The edge fires when every block of `prev` has exited or let its dependents
                    // start (`griddepcontrol.launch_dependents`).
                    let edge = sys::CUgraphEdgeData {
                        from_port: sys::CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC as u8,
                        to_port: 0,
                        type_: sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC as u8,
                        reserved: [0; 5],
                    };
                    ok(sys::cuGraphAddDependencies_v2(graph, &prev, &node, &edge, 1))
                }),
                (Some(prev), false) => ok(sys::cuGraphAddKernelNode_v2(&mut node, graph, &prev, 1, p)),
                (None, _) => ok(sys::cuGraphAddKernelNode_v2(&mut node, graph, std::ptr::null(), 0, p)),
            };
            if built.is_err() {
                break;
            }
            nodes.push(node);
        }
        built = built.and_then(|()| ok(sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0)));
        if let Err(e) = built {
            declined(e);
            sys::cuGraphDestroy(graph);
            return None;
        }
        Some(Exec { graph, exec, nodes, set: chain.iter().map(|l| Some(NodeSet::of(l))).collect() })
    }
}

/// Logs why the graph path declined a launch (`OXSPARSE_LOG_LEVEL` >= 3), which then goes plainly.
fn declined(e: DriverError) {
    if super::log_enabled() {
        eprintln!("oxsparse: graph launch declined: {:?}", e.0);
    }
}

/// Whether `stream` is being captured (an error counts as captured: the plain launch decides).
unsafe fn capturing(stream: sys::CUstream) -> bool {
    let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
    sys::cuStreamIsCapturing(stream, &mut status) != sys::CUresult::CUDA_SUCCESS
        || status != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE
}

/// A launch recorded by [`batched`], with its own copy of the parameter block.
struct Recorded {
    function: sys::CUfunction,
    grid: (u32, u32, u32),
    block: u32,
    shared: u32,
    /// The parameter block, 8-byte aligned.
    params: ParamWords,
    /// The kernel's name, for errors (kept inline: no allocation per launch).
    name: KernelName,
    /// May start before the launch recorded before it has finished.
    overlaps: bool,
    /// A word of the block that must differ on every launch (a per-call epoch, [`fresh_word`]).
    fresh: Option<u16>,
}

/// 8-byte words a recorded parameter block keeps inline: the largest of ours (the tensor-core
/// SpMM's, 384 bytes) fits, so recording a launch allocates nothing.
const INLINE_WORDS: usize = 48;

/// A copy of a parameter block, inline or (a larger block) on the heap.
#[allow(clippy::large_enum_variant)] // inline on purpose: recording a launch must not allocate
pub(crate) enum ParamWords {
    Inline { words: [u64; INLINE_WORDS], len: usize },
    Heap(Vec<u64>),
}

impl ParamWords {
    pub(crate) fn copy_of<P: Copy>(params: &P) -> ParamWords {
        let bytes = std::mem::size_of::<P>();
        let mut words = match bytes.div_ceil(8) {
            n if n <= INLINE_WORDS => ParamWords::Inline { words: [0; INLINE_WORDS], len: n },
            n => ParamWords::Heap(vec![0; n]),
        };
        // SAFETY: the destination holds at least `bytes` bytes, aligned to 8 (P is a #[repr(C)]
        // block of at most 8-byte fields).
        unsafe { std::ptr::copy_nonoverlapping(params as *const P as *const u8, words.as_mut_slice().as_mut_ptr() as *mut u8, bytes) };
        words
    }

    /// The block's words (what a launch's argument points to).
    fn as_mut_slice(&mut self) -> &mut [u64] {
        match self {
            ParamWords::Inline { words, len } => &mut words[..*len],
            ParamWords::Heap(w) => w,
        }
    }

    pub(crate) fn as_slice(&self) -> &[u64] {
        match self {
            ParamWords::Inline { words, len } => &words[..*len],
            ParamWords::Heap(w) => w,
        }
    }

    /// A copy of words taken before.
    fn from_words(w: &[u64]) -> ParamWords {
        if w.len() <= INLINE_WORDS {
            let mut words = [0; INLINE_WORDS];
            words[..w.len()].copy_from_slice(w);
            ParamWords::Inline { words, len: w.len() }
        } else {
            ParamWords::Heap(w.to_vec())
        }
    }
}

/// This thread's open batch: the handle (as an address) and its recorded launches.
struct Batch {
    handle: usize,
    launches: Vec<Recorded>,
    /// The next launch recorded may overlap the one before it ([`overlap_next`]).
    overlap_next: bool,
    /// Something was sent before the batch's end ([`flush`]): what the batch sends at its end is
    /// not the whole call, so it cannot be replayed.
    flushed: bool,
}

thread_local! {
    static BATCH: RefCell<Option<Batch>> = const { RefCell::new(None) };
}

/// Closes this thread's batch when dropped, so that a panic inside one (caught at the C boundary)
/// leaves no batch open to swallow the next call's launches.
struct Open;

impl Drop for Open {
    fn drop(&mut self) {
        BATCH.with(|b| b.borrow_mut().take());
    }
}

/// Runs `f`, whose launches on `h` (made on this thread) go out at its end as one graph, in the
/// order they were made. When `f` fails, what it recorded is dropped: the call enqueues nothing.
/// A batch inside a batch joins it (launches on another handle go out at once).
pub fn batched<T>(h: &Handle, f: impl FnOnce() -> Result<T>) -> Result<T> {
    run_batch(h, false, f).map(|(out, _)| out)
}

/// [`batched`], also handing back what the batch sent when it was the whole call (launches only,
/// none sent before the end, not under capture), to be sent again by [`send_again`].
pub fn batched_for_replay<T>(h: &Handle, f: impl FnOnce() -> Result<T>) -> Result<(T, Option<Replay>)> {
    run_batch(h, true, f)
}

fn run_batch<T>(h: &Handle, keep: bool, f: impl FnOnce() -> Result<T>) -> Result<(T, Option<Replay>)> {
    // SAFETY: the handle's live stream.
    if !enabled() || unsafe { capturing(h.cu_stream()) } {
        return Ok((f()?, None));
    }
    let me = h as *const Handle as usize;
    let open = BATCH.with(|b| {
        let mut b = b.borrow_mut();
        match &*b {
            Some(_) => false,
            None => {
                *b = Some(Batch { handle: me, launches: Vec::new(), overlap_next: false, flushed: false });
                true
            }
        }
    });
    if !open {
        return Ok((f()?, None));
    }
    let closing = Open;
    let out = f();
    let batch = BATCH.with(|b| b.borrow_mut().take());
    drop(closing);
    let out = out?;
    let Some(mut batch) = batch else { return Ok((out, None)) };
    let context_id = submit(h, &mut batch.launches)?;
    let replay = match context_id {
        Some(context_id) if keep && !batch.flushed => Some(Replay { launches: batch.launches, context_id, stream: h.cu_stream() as usize }),
        _ => None,
    };
    Ok((out, replay))
}

/// A call's launches as its batch sent them, to be sent again as they are by a later call with
/// the same arguments (src/ops/spmm/replay.rs), which then skips its checks, plan and parameter
/// blocks: ~1.5 us of host work before the driver's launch (bench/notes/launch-path.md).
pub struct Replay {
    launches: Vec<Recorded>,
    /// The context the kernels were found in, and the stream they went to.
    context_id: u64,
    stream: usize,
}

// SAFETY: the kernels are driver handles of a context, usable from any thread where it is
// current (send_again makes it so, and checks it is the same context).
unsafe impl Send for Replay {}

/// Sends `replay`'s launches again on `h`'s stream, each fresh word ([`fresh_word`]) set to
/// `fresh()`. Ok(false): not sent (graphs off, the stream is capturing, another stream or
/// context); the caller makes its launches anew.
pub fn send_again(h: &Handle, replay: &mut Replay, mut fresh: impl FnMut() -> u64) -> Result<bool> {
    let stream = h.cu_stream();
    // SAFETY: the handle's live stream.
    if !enabled() || stream as usize != replay.stream || unsafe { capturing(stream) } {
        return Ok(false);
    }
    let _bound = h.bind()?;
    // SAFETY: the handle keeps its context alive and `_bound` made it current.
    let context_id = unsafe { super::module::context_id(h.context())? };
    if context_id != replay.context_id {
        return Ok(false);
    }
    for r in &mut replay.launches {
        if let Some(w) = r.fresh {
            r.params.as_mut_slice()[w as usize] = fresh();
        }
    }
    send(h, context_id, &mut replay.launches)?;
    Ok(true)
}

/// Records a launch on `h` if this thread has a batch open for it; false: launch it now.
pub fn record<P: Copy>(h: &Handle, l: &Launch, params: &P, name: &str) -> bool {
    record_for(h as *const Handle as usize, l, params, name)
}

/// [`record`] for the handle at address `me`.
fn record_for<P: Copy>(me: usize, l: &Launch, params: &P, name: &str) -> bool {
    BATCH.with(|b| {
        let mut b = b.borrow_mut();
        let Some(batch) = b.as_mut().filter(|b| b.handle == me) else { return false };
        let params = ParamWords::copy_of(params);
        let overlaps = std::mem::take(&mut batch.overlap_next) && !batch.launches.is_empty();
        batch.launches.push(Recorded {
            function: l.function,
            grid: l.grid,
            block: l.block,
            shared: l.shared,
            params,
            name: KernelName::copy_of(name),
            overlaps,
            fresh: None,
        });
        true
    })
}

/// Marks word `index` of the parameter block last recorded for `h` on this thread as one that
/// must differ on every launch (the tile kernel's epoch): [`send_again`] writes a new value there.
pub fn fresh_word(h: &Handle, index: usize) {
    mark_fresh(h as *const Handle as usize, index);
}

/// [`fresh_word`] for the handle at address `me`.
fn mark_fresh(me: usize, index: usize) {
    BATCH.with(|b| {
        if let Some(r) = b.borrow_mut().as_mut().filter(|b| b.handle == me).and_then(|b| b.launches.last_mut()) {
            assert!(index < r.params.as_slice().len(), "a fresh word inside the block");
            r.fresh = Some(index as u16);
        }
    });
}

/// Lets the next launch recorded for `h` on this thread start before the launch recorded before it
/// has finished: on sm_90 and newer, inside a batch, unless `OXSPARSE_PDL=0`. The next launch's
/// kernel must wait (`griddepcontrol.wait`) before it reads what the launch before it writes.
pub fn overlap_next(h: &Handle) {
    static ON: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| std::env::var("OXSPARSE_PDL").map_or(true, |v| v != "0"));
    if !*ON || h.arch.0 < 9 {
        return;
    }
    mark_overlap(h as *const Handle as usize);
}

/// [`overlap_next`] for the handle at address `me`, whatever the device.
fn mark_overlap(me: usize) {
    BATCH.with(|b| {
        if let Some(batch) = b.borrow_mut().as_mut().filter(|b| b.handle == me) {
            batch.overlap_next = true;
        }
    });
}

/// Sends what this thread recorded for `h` so far (before a stream operation that is not a
/// launch); the batch stays open.
pub fn flush(h: &Handle) -> Result<()> {
    let me = h as *const Handle as usize;
    let mut launches = BATCH.with(|b| {
        b.borrow_mut()
            .as_mut()
            .filter(|b| b.handle == me)
            .map(|b| {
                b.flushed = true;
                std::mem::take(&mut b.launches)
            })
            .unwrap_or_default()
    });
    submit(h, &mut launches).map(|_| ())
}

/// Launches `recorded` in order on the handle's stream: one graph, or plain launches where the
/// graph path does not take them. Only batches call it, on a stream that was not capturing.
/// Returns the context's ID, None when there was nothing to launch.
fn submit(h: &Handle, recorded: &mut [Recorded]) -> Result<Option<u64>> {
    if recorded.is_empty() {
        return Ok(None);
    }
    let _bound = h.bind()?;
    // SAFETY: the handle keeps its context alive and `_bound` made it current.
    let context_id = unsafe { super::module::context_id(h.context())? };
    send(h, context_id, recorded)?;
    Ok(Some(context_id))
}

/// [`submit`] in the current context, whose ID is `context_id`.
fn send(h: &Handle, context_id: u64, recorded: &mut [Recorded]) -> Result<()> {
    let stream = h.cu_stream();
    if let [r] = recorded {
        // One launch (most calls): no vectors to build.
        let mut arg = r.params.as_mut_slice().as_mut_ptr() as *mut c_void;
        let l = Launch {
            function: r.function,
            grid: r.grid,
            block: r.block,
            shared: r.shared,
            args: &mut arg,
            overlaps: false,
            words: r.params.as_slice(),
        };
        // SAFETY: a launch of our kernel with the block it was recorded with, alive until we return.
        let launched = unsafe { h.cache::<LaunchGraphs>().launch_uncaptured(context_id, stream, &[&l]).unwrap_or_else(|| l.plain(stream)) };
        return launched.map_err(|e| Error::from_driver(&format!("launching {}", r.name), e));
    }
    let mut args: Vec<*mut c_void> = recorded.iter_mut().map(|r| r.params.as_mut_slice().as_mut_ptr() as *mut c_void).collect();
    let arg_at = args.as_mut_ptr();
    // SAFETY: `args` and the blocks it points to live until the end of this function.
    let launches: Vec<Launch> = recorded
        .iter()
        .enumerate()
        .map(|(i, r)| Launch {
            function: r.function,
            grid: r.grid,
            block: r.block,
            shared: r.shared,
            args: unsafe { arg_at.add(i) },
            overlaps: r.overlaps,
            words: r.params.as_slice(),
        })
        .collect();
    let chain: Vec<&Launch> = launches.iter().collect();
    // SAFETY: launches of our kernels with the blocks they were recorded with.
    if let Some(launched) = unsafe { h.cache::<LaunchGraphs>().launch_uncaptured(context_id, stream, &chain) } {
        return launched.map_err(|e| Error::from_driver(&format!("launching {}", names(recorded)), e));
    }
    for (l, r) in launches.iter().zip(recorded.iter()) {
        // SAFETY: as above.
        unsafe { l.plain(stream) }.map_err(|e| Error::from_driver(&format!("launching {}", r.name), e))?;
    }
    Ok(())
}

fn names(recorded: &[Recorded]) -> String {
    recorded.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(function: usize) -> Launch<'static> {
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

    fn open(handle: usize) {
        BATCH.with(|b| *b.borrow_mut() = Some(Batch { handle, launches: Vec::new(), overlap_next: false, flushed: false }));
    }

    /// Launches are recorded only for the handle whose batch is open, each with its own copy of
    /// the parameter block (the caller's block may change or go after the launch returns).
    #[test]
    fn records_copies_for_the_open_handle_only() {
        assert!(!record_for(7, &launch(1), &[1u32, 2, 3], "k"), "no batch open");
        open(7);
        let closing = Open;
        let mut block = [0x1111_2222_3333_4444u64, 5, 6];
        assert!(record_for(7, &launch(1), &block, "first"));
        block[0] = 9;
        assert!(!record_for(8, &launch(2), &block, "other handle"));
        assert!(record_for(7, &launch(2), &[7u32, 8, 9], "second"));
        let batch = BATCH.with(|b| b.borrow_mut().take()).expect("still open");
        drop(closing);
        let got: Vec<(usize, &[u64], &str)> =
            batch.launches.iter().map(|r| (r.function as usize, r.params.as_slice(), r.name.as_str())).collect();
        let second = u64::from_ne_bytes([7u32.to_ne_bytes(), 8u32.to_ne_bytes()].concat().try_into().unwrap());
        assert_eq!(got, vec![(1, &[0x1111_2222_3333_4444u64, 5, 6][..], "first"), (2, &[second, 9][..], "second")]);
    }

    /// A marked overlap goes to the next launch recorded for that handle only, never to the first
    /// of a batch (it has no launch before it in the chain).
    #[test]
    fn an_overlap_marks_the_next_launch_only() {
        open(7);
        let closing = Open;
        mark_overlap(7);
        assert!(record_for(7, &launch(1), &[1u64], "first"));
        mark_overlap(8);
        assert!(record_for(7, &launch(2), &[2u64], "second"));
        mark_overlap(7);
        assert!(record_for(7, &launch(3), &[3u64], "third"));
        assert!(record_for(7, &launch(4), &[4u64], "fourth"));
        let batch = BATCH.with(|b| b.borrow_mut().take()).expect("still open");
        drop(closing);
        let got: Vec<bool> = batch.launches.iter().map(|r| r.overlaps).collect();
        assert_eq!(got, vec![false, false, true, false]);
    }

    /// A kept node is set again unless grid, block, shared memory and every parameter word match
    /// what it was last set to; a launch whose words are unknown is always set.
    #[test]
    fn a_node_is_set_again_unless_the_launch_matches_it() {
        let words = [1u64, 2, 3];
        let set = NodeSet::of(&Launch { words: &words, ..launch(1) });
        assert!(set.holds(&Launch { words: &[1, 2, 3], ..launch(1) }));
        assert!(!set.holds(&Launch { words: &[1, 2, 4], ..launch(1) }), "a parameter changed");
        assert!(!set.holds(&Launch { words: &[1, 2], ..launch(1) }), "a shorter block");
        assert!(!set.holds(&Launch { words: &words, grid: (4, 2, 1), ..launch(1) }), "another grid");
        assert!(!set.holds(&Launch { words: &words, block: 128, ..launch(1) }), "another block");
        assert!(!set.holds(&Launch { words: &words, shared: 64, ..launch(1) }), "other shared memory");
        assert!(!set.holds(&launch(1)), "words unknown");
        let big: Vec<u64> = (0..INLINE_WORDS as u64 + 5).collect();
        assert!(NodeSet::of(&Launch { words: &big, ..launch(1) }).holds(&Launch { words: &big, ..launch(1) }), "a block on the heap");
    }

    /// A chain's fingerprint changes with any kernel, grid, block, shared memory, overlap or
    /// parameter word, and is None where a launch's words are unknown; a kept graph holds a chain
    /// only where every node holds its launch (graph_pool.rs takes a graph by both).
    #[test]
    fn a_fingerprint_narrows_and_holds_decides() {
        // Kernels at aligned addresses, as functions are (the low bit marks an overlap).
        let words = [1u64, 2, 3];
        let base = Launch { words: &words, ..launch(8) };
        let print = |l: &Launch| fingerprint(&[l]).expect("words known");
        let p = print(&base);
        assert_eq!(p, print(&Launch { words: &[1, 2, 3], ..launch(8) }), "equal launches, equal prints");
        for other in [
            Launch { words: &[1, 2, 4], ..launch(8) },
            Launch { words: &words, ..launch(16) },
            Launch { words: &words, grid: (3, 2, 2), ..launch(8) },
            Launch { words: &words, block: 128, ..launch(8) },
            Launch { words: &words, shared: 16, ..launch(8) },
            Launch { words: &words, overlaps: true, ..launch(8) },
        ] {
            assert_ne!(print(&other), p);
        }
        assert_eq!(fingerprint(&[&launch(8)]), None, "words unknown");
        assert_ne!(fingerprint(&[&base, &base]), Some(p), "a chain of two is not its first launch");
        let kept =
            Exec { graph: std::ptr::null_mut(), exec: std::ptr::null_mut(), nodes: Vec::new(), set: vec![Some(NodeSet::of(&base)), None] };
        assert!(!kept.holds(&[&base, &base]), "a node set to nothing holds nothing");
        assert!(!kept.holds(&[&base]), "another length");
        let kept = Exec { set: vec![Some(NodeSet::of(&base))], ..kept };
        assert!(kept.holds(&[&base]));
        assert!(!kept.holds(&[&Launch { words: &[1, 2, 4], ..launch(8) }]));
    }

    /// A block larger than the inline words is kept whole on the heap.
    #[test]
    fn a_block_beyond_the_inline_words_is_copied_whole() {
        let big: [u64; INLINE_WORDS + 3] = std::array::from_fn(|i| i as u64 * 3 + 1);
        let copy = ParamWords::copy_of(&big);
        assert!(matches!(copy, ParamWords::Heap(_)));
        assert_eq!(copy.as_slice(), &big[..]);
        let small = [5u64, 6];
        assert_eq!(ParamWords::copy_of(&small).as_slice(), &small[..]);
    }

    /// A panic inside a batch (caught at the C boundary) closes it: the thread's next call must
    /// not find a batch open that nothing would send.
    #[test]
    fn a_panic_inside_a_batch_closes_it() {
        let unwound = std::panic::catch_unwind(|| {
            open(5);
            let _closing = Open;
            panic!("inside the batch");
        });
        assert!(unwound.is_err());
        assert!(BATCH.with(|b| b.borrow().is_none()));
        assert!(!record_for(5, &launch(1), &0u64, "after"));
    }

    /// A fresh word marks the launch last recorded for the open handle, and only it: a replay
    /// draws a new value there (the tile kernel's epoch) and sends the others' blocks unchanged.
    #[test]
    fn a_fresh_word_marks_the_last_launch_of_the_open_handle() {
        mark_fresh(3, 0);
        open(3);
        let closing = Open;
        assert!(record_for(3, &launch(1), &[1u64, 2], "first"));
        assert!(record_for(3, &launch(2), &[3u64, 4, 5], "second"));
        mark_fresh(4, 0);
        mark_fresh(3, 2);
        let batch = BATCH.with(|b| b.borrow_mut().take()).expect("still open");
        drop(closing);
        assert_eq!(batch.launches.iter().map(|r| r.fresh).collect::<Vec<_>>(), vec![None, Some(2)]);
        assert!(!batch.flushed);
    }
}
