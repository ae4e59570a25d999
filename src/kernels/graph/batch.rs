//! Batches: the launches a call makes on this thread, recorded with copies of their parameter
//! blocks (recorded.rs) and sent at its end as one chain graph, or before a stream operation that
//! is not a launch ([`flush`]).

use super::recorded::{send, Recorded};
use super::replay::Replay;
use super::words::ParamWords;
use super::{capturing, enabled, Launch};
use crate::context::Handle;
use crate::error::Result;
use crate::kernels::name::KernelName;
use std::cell::RefCell;

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
/// none sent before the end, not under capture), to be sent again by
/// [`send_again`](super::send_again).
pub fn batched_for_replay<T>(h: &Handle, f: impl FnOnce() -> Result<T>) -> Result<(T, Option<Replay>)> {
    run_batch(h, true, f)
}

fn run_batch<T>(h: &Handle, keep: bool, f: impl FnOnce() -> Result<T>) -> Result<(T, Option<Replay>)> {
    // SAFETY: the handle's live stream.
    if !enabled(h) || unsafe { capturing(h.cu_stream()) } {
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
/// must differ on every launch (the tile kernel's epoch): [`send_again`](super::send_again)
/// writes a new value there.
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
/// has finished: on sm_90 and newer, inside a batch, unless the handle's `OXSPARSE_PDL=0`. The next launch's
/// kernel must wait (`griddepcontrol.wait`) before it reads what the launch before it writes.
pub fn overlap_next(h: &Handle) {
    if !h.settings.launch.pdl || h.device_model.arch.0 < 9 {
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
    let context_id = unsafe { crate::kernels::module::context_id(h.context())? };
    send(h, context_id, recorded)?;
    Ok(Some(context_id))
}

#[cfg(test)]
mod tests {
    use super::super::tests::launch;
    use super::*;

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
