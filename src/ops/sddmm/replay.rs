//! A preprocessed SDDMM call that repeats the last call's arguments sends that call's launches
//! again, as a preprocessed SpMM call does (src/ops/spmm/replay.rs says why): it skips the checks,
//! the plan, the parameter blocks and the batch, about a microsecond of host time, which a small
//! call's time on an idle stream counts in full.
//!
//! What the launches are made of, and so what must be equal (`Key`): the handle, the buffer, every
//! field of the three descriptors (their arrays included), the operations, the compute type,
//! algorithm and math mode, and alpha and beta as the kernels read them (the values in host pointer
//! mode, the addresses in device mode). The stream and context must be the same and the stream not
//! capturing (`send_again`). The launches read nothing of preprocess's in the buffer that its
//! address does not name (the survey's verdict, where the kernels read it on the GPU, lies at a
//! fixed place in it), so the allocation is not checked. Preprocess starts a new `ActiveBuffer`,
//! so nothing kept outlives the decision it was made for.

use super::Call;
use crate::context::Handle;
use crate::descr::{DnMat, SpMat};
use crate::error::Result;
use crate::kernels::{self, graph, params::Scalar};
use crate::types::{DataType, MathMode, Operation, SDDMMAlg};

/// What the last preprocessed call on an `ActiveBuffer` sent, with its arguments.
pub type Slot = graph::Slot<Key>;

/// Everything a call's launches are made of (see the module notes).
#[derive(PartialEq)]
pub struct Key {
    handle: usize,
    buffer: u64,
    ops: (Operation, Operation),
    a: DnMat,
    b: DnMat,
    c: SpMat,
    types: (DataType, SDDMMAlg, MathMode),
    scalars: (Scalar, Scalar),
}

impl Key {
    pub fn of(h: &Handle, call: &Call, buffer: u64) -> Result<Key> {
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
            types: (call.compute, call.alg, call.math),
            scalars,
        })
    }
}
