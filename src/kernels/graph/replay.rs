//! Replays: a call's launches as its batch sent them, sent again as they are by a later call with
//! the same arguments.

use super::recorded::{send, Recorded};
use super::{capturing, enabled};
use crate::context::Handle;
use crate::error::Result;
use std::sync::Mutex;

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

/// What the last call on a preprocessed state sent, with the arguments `K` its launches were made
/// of, for the next call with equal arguments (src/ops/spmm/replay.rs, src/ops/sddmm/replay.rs).
/// Cloning it leaves it behind, and it takes no part in comparing two states.
pub struct Slot<K>(Mutex<Option<Box<Kept<K>>>>);

struct Kept<K> {
    key: K,
    launches: Replay,
    /// Preprocess's state must still lie in the allocation it was made in.
    check_allocation: bool,
}

impl<K> Default for Slot<K> {
    fn default() -> Slot<K> {
        Slot(Mutex::new(None))
    }
}

impl<K> Clone for Slot<K> {
    fn clone(&self) -> Slot<K> {
        Slot::default()
    }
}

impl<K> PartialEq for Slot<K> {
    fn eq(&self, _: &Slot<K>) -> bool {
        true
    }
}

impl<K> std::fmt::Debug for Slot<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("replay::Slot")
    }
}

impl<K: PartialEq> Slot<K> {
    /// Sends again what was kept, when `key()` equals the kept key and, where the kept launches
    /// need it, `same_allocation()` holds. Ok(false): nothing kept, other arguments, or the
    /// launches cannot go as they are ([`send_again`]); the caller takes the whole path.
    pub fn again(
        &self,
        h: &Handle,
        key: impl FnOnce() -> Result<K>,
        same_allocation: impl FnOnce() -> bool,
        fresh: impl FnMut() -> u64,
    ) -> Result<bool> {
        let mut kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let Some(k) = kept.as_mut() else { return Ok(false) };
        if k.key != key()? || (k.check_allocation && !same_allocation()) {
            return Ok(false);
        }
        send_again(h, &mut k.launches, fresh)
    }

    /// Keeps what a call with `key` sent, for the next call.
    pub fn keep(&self, key: K, launches: Replay, check_allocation: bool) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(Box::new(Kept { key, launches, check_allocation }));
    }
}
