//! Launches as a batch records them, each with its own copy of its parameter block, and how a run
//! of them is sent: as one graph through the handle's [`LaunchGraphs`], or plainly.

use super::cache::LaunchGraphs;
use super::words::ParamWords;
use super::Launch;
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernels::name::KernelName;
use cudarc::driver::sys;
use std::ffi::c_void;

/// A launch recorded by [`batched`](super::batched), with its own copy of the parameter block.
pub(super) struct Recorded {
    pub(super) function: sys::CUfunction,
    pub(super) grid: (u32, u32, u32),
    pub(super) block: u32,
    pub(super) shared: u32,
    /// The parameter block, 8-byte aligned.
    pub(super) params: ParamWords,
    /// The kernel's name, for errors (kept inline: no allocation per launch).
    pub(super) name: KernelName,
    /// May start before the launch recorded before it has finished.
    pub(super) overlaps: bool,
    /// A word of the block that must differ on every launch (a per-call epoch,
    /// [`fresh_word`](super::fresh_word)).
    pub(super) fresh: Option<u16>,
}

/// Launches `recorded` in order on the handle's stream, in the current context (whose ID is
/// `context_id`): one graph, or plain launches where the graph path does not take them. The
/// stream is not capturing (batches and replays see to it).
pub(super) fn send(h: &Handle, context_id: u64, recorded: &mut [Recorded]) -> Result<()> {
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
        let launched = unsafe {
            h.cache::<LaunchGraphs>().launch_uncaptured(&h.settings.launch, context_id, stream, &[&l]).unwrap_or_else(|| l.plain(stream))
        };
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
    if let Some(launched) = unsafe { h.cache::<LaunchGraphs>().launch_uncaptured(&h.settings.launch, context_id, stream, &chain) } {
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
