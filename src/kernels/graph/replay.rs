//! Replays: a call's launches as its batch sent them, sent again as they are by a later call with
//! the same arguments.

use super::recorded::{send, Recorded};
use super::{capturing, enabled};
use crate::context::Handle;
use crate::error::Result;

/// A call's launches as its batch sent them, to be sent again as they are by a later call with
/// the same arguments (src/ops/spmm/replay.rs), which then skips its checks, plan and parameter
/// blocks: ~1.5 us of host work before the driver's launch (bench/notes/launch-path.md).
pub struct Replay {
    pub(super) launches: Vec<Recorded>,
    /// The context the kernels were found in, and the stream they went to.
    pub(super) context_id: u64,
    pub(super) stream: usize,
}

// SAFETY: the kernels are driver handles of a context, usable from any thread where it is
// current (send_again makes it so, and checks it is the same context).
unsafe impl Send for Replay {}

/// Sends `replay`'s launches again on `h`'s stream, each fresh word
/// ([`fresh_word`](super::fresh_word)) set to `fresh()`. Ok(false): not sent (graphs off, the
/// stream is capturing, another stream or context); the caller makes its launches anew.
pub fn send_again(h: &Handle, replay: &mut Replay, mut fresh: impl FnMut() -> u64) -> Result<bool> {
    let stream = h.cu_stream();
    // SAFETY: the handle's live stream.
    if !enabled(h) || stream as usize != replay.stream || unsafe { capturing(stream) } {
        return Ok(false);
    }
    let _bound = h.bind()?;
    // SAFETY: the handle keeps its context alive and `_bound` made it current.
    let context_id = unsafe { crate::kernels::module::context_id(h.context())? };
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
