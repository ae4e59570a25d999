//! A preprocessed call that repeats the last call's arguments sends that call's launches again.
//!
//! Why: a call's own host work before the driver's launch (argument checks, the plan, the
//! preprocessed buffer's checks, the parameter blocks, the batch) took ~1.5 us
//! (bench/notes/launch-path.md), and a small call's time on an idle stream counts all of it. A
//! training loop calls SpMM with the same descriptors every step, and the bench rotates
//! a few copies of the operands, each with its own descriptors and buffer: every copy repeats its
//! arguments. Such a call sends what the last one sent (kernels/graph.rs `Replay`), which the
//! launch graphs' pools already hold, so it costs the driver's launch and a compare.
//!
//! What the launches are made of, and so what must be equal (`Key`): the handle, the buffer,
//! every field of the three descriptors (their arrays included), the operations, types,
//! algorithm, math and reorder modes, and alpha and beta as the kernels read them (the values in
//! host pointer mode, the addresses in device mode). Besides, the handle's stream and context are
//! the same (checked by `send_again`), the stream is not capturing, and where preprocess's state
//! must lie in the same allocation (tensor cores, short, split and warp rows, a band), it still does.
//! Anything else takes the whole path, which keeps what it sent for the next call. Preprocess
//! starts a new `ActiveBuffer`, so nothing kept outlives the state it was made for. The tile
//! kernel's epoch (a word each call must change) is drawn anew for every call sent again.

use super::{ActiveBuffer, Call};
use crate::context::Handle;
use crate::descr::{DnMat, SpMat};
use crate::error::Result;
use crate::kernels::{self, graph, params::Scalar};
use crate::types::{DataType, MathMode, Operation, ReorderMode, SpMMAlg};

/// What the last preprocessed call on an `ActiveBuffer` sent, with its arguments.
pub type Slot = graph::Slot<Key>;

/// Everything a call's launches are made of (see the module notes).
#[derive(PartialEq)]
pub struct Key {
    handle: usize,
    buffer: u64,
    ops: (Operation, Operation),
    a: SpMat,
    b: DnMat,
    c: DnMat,
    types: (DataType, SpMMAlg, MathMode, ReorderMode),
    a_serial: u64,
    scalars: (Scalar, Scalar),
}

impl Key {
    pub(super) fn of(h: &Handle, call: &Call, buffer: u64) -> Result<Key> {
        // SAFETY: the FFI layer checked alpha and beta are non-NULL; in host mode they point to a
        // value of the compute type (the API's contract), read as the launch reads them.
        let scalars = unsafe { (kernels::scalar(h, call.alpha, call.compute)?, kernels::scalar(h, call.beta, call.compute)?) };
        Ok(Key {
            handle: h as *const Handle as usize,
            buffer,
            ops: (call.op_a, call.op_b),
            a: call.a.clone(),
            b: call.b.clone(),
            c: call.c.clone(),
            types: (call.compute, call.alg, call.math, call.reorder),
            a_serial: call.a_serial,
            scalars,
        })
    }
}

/// Sends again what the last call on `active` sent, when this call's arguments are its own.
/// Ok(false): nothing kept, other arguments, or the launches cannot go as they are; the caller
/// takes the whole path.
pub(super) fn again(h: &Handle, call: &Call, buffer: u64, active: &ActiveBuffer) -> Result<bool> {
    if call.settings.print_plan {
        return Ok(false);
    }
    let same_allocation = || crate::ops::allocation_id(h, buffer) == active.allocation;
    active.replay.again(h, || Key::of(h, call, buffer), same_allocation, crate::ops::new_token)
}

/// Keeps what a preprocessed call with `key` sent, for the next call on `active`.
pub(super) fn keep(active: &ActiveBuffer, key: Key, launches: graph::Replay, check_allocation: bool) {
    active.replay.keep(key, launches, check_allocation);
}
