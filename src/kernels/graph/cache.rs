//! A handle's launch graphs: executable chain graphs kept per (stream, kernels of the chain), a
//! pool per key (pool.rs); a launch takes the graph that holds its parameters, or makes one, or
//! sets the nodes of a kept one that differ, then launches it.

use super::pool::{Pick, Pool};
use super::words::ParamWords;
use super::{capturing, declined, ok, Launch};
use crate::context::{CacheSlot, Handle, HandleCache};
use crate::fast_hash::FastHash;
use crate::settings::Launch as LaunchSettings;
use cudarc::driver::{sys, DriverError};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;

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
    /// pool (pool.rs) that holds them, one made now, or one re-parameterised. None: the
    /// driver refused a step.
    ///
    /// # Safety
    /// As [`LaunchGraphs::launch`]; `params` are `chain`'s node parameters.
    unsafe fn exec_for(
        &mut self,
        s: usize,
        chain: &[&Launch],
        params: &[sys::CUDA_KERNEL_NODE_PARAMS],
        size: usize,
    ) -> Option<sys::CUgraphExec> {
        self.clock += 1;
        let now = self.clock;
        let print = fingerprint(chain);
        let key = Key::of(s, chain);
        if let Some(pool) = self.pool(&key) {
            let i = match pool.pick(now, print, |e| e.holds(chain), size) {
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

/// The most graphs the pools of a handle hold beyond each key's first (pool.rs); at it a new
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
    pub unsafe fn launch(
        &self,
        settings: &LaunchSettings,
        context_id: u64,
        stream: sys::CUstream,
        chain: &[&Launch],
    ) -> Option<std::result::Result<(), DriverError>> {
        if capturing(stream) {
            return None;
        }
        // SAFETY: the caller's contract; the stream is not capturing.
        unsafe { self.launch_uncaptured(settings, context_id, stream, chain) }
    }

    /// [`LaunchGraphs::launch`] on a stream known not to be capturing (a batch is opened only on
    /// such a stream, so its launches skip asking the driver again).
    ///
    /// # Safety
    /// As [`LaunchGraphs::launch`], and `stream` must not be capturing.
    pub(super) unsafe fn launch_uncaptured(
        &self,
        settings: &LaunchSettings,
        context_id: u64,
        stream: sys::CUstream,
        chain: &[&Launch],
    ) -> Option<std::result::Result<(), DriverError>> {
        if chain.is_empty() || !settings.graphs {
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
        let exec = unsafe { g.exec_for(stream as usize, chain, params, super::pool::pool_size(settings.pool)) }?;
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
        if let Ok(id) = unsafe { crate::kernels::module::context_id(h.context()) } {
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

#[cfg(test)]
mod tests {
    use super::super::tests::launch;
    use super::super::words::INLINE_WORDS;
    use super::*;

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
    /// only where every node holds its launch (pool.rs takes a graph by both).
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
}
