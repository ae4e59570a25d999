//! SDDMM: C = alpha * (op(A) * op(B)) o spy(C) + beta * C, A and B dense, C sparse (CSR or BSR).
//!
//! * `check`: the arguments, in the API's order, and what cuSPARSE supports.
//! * `plan`: how A and B are read, how entries are dealt to warps, the workspace (host facts only).
//! * `tiles`: where the dense-tile kernel may run, and the survey of C that decides on the GPU.
//! * `replay`: a preprocessed call with the last call's arguments sends its launches again.
//! * here: the three entry points and the launches in order: the copies of A and B that are not
//!   laid out for the kernel (plan.rs), then the kernel, one dot product per stored value.
//!
//! No call waits for the GPU or allocates. Preprocess checks the call and keeps its decision with
//! the buffer, as SpMM's does: a later call with the same arguments (values, alpha and beta may
//! change) and that buffer runs the kept decision; the copies are redone by every call, since A's
//! and B's values may change. Each stored value is one dot product whose summation order depends
//! only on k, the types and whether the lines are 16-byte aligned, so a preprocessed call and a
//! plain one give the same bits, run to run.

pub mod check;
pub mod plan;
pub mod replay;
pub mod tiles;

use crate::context::Handle;
use crate::descr::{DnMat, SpMat};
use crate::device::DeviceModel;
use crate::error::Result;
use crate::kernels::{self, sddmm as k};
use crate::settings::Settings;
use crate::types::{DataType, MathMode, Operation, SDDMMAlg};
use check::{Dims, Types};
use plan::Plan;
use std::ffi::c_void;
use tiles::Run;

/// The arguments of one SDDMM call, decoded.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    pub op_a: Operation,
    pub op_b: Operation,
    pub a: &'a DnMat,
    pub b: &'a DnMat,
    pub c: &'a SpMat,
    pub compute: DataType,
    pub alg: SDDMMAlg,
    pub alpha: *const c_void,
    pub beta: *const c_void,
    /// The handle's math mode (the exact FP32 kernel runs in every mode).
    pub math: MathMode,
    /// The handle's device, whose facts the planner's rules read.
    pub device: &'a DeviceModel,
    /// The handle's tuning and forcing settings.
    pub settings: &'a Settings,
}

/// The decision record of an SDDMM call: everything it runs, as one value. `OXSPARSE_PRINT_PLAN`
/// prints it; tests read a preprocessed one through `oxsparse::ffi::sddmm::preprocessed_decision`.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub plan: Plan,
    /// Whether the tiles run, as preprocess read the survey's verdict back (None: no survey, or
    /// under capture, where the calls decide on the GPU).
    pub tiles: Option<bool>,
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.plan)?;
        match self.tiles {
            Some(true) => write!(f, "; the survey chose the tiles"),
            Some(false) => write!(f, "; the survey kept the lean kernel"),
            None => Ok(()),
        }
    }
}

/// What `preprocess` kept for the user's buffer, and for which arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveBuffer {
    pub buffer: u64,
    pub signature: Signature,
    pub decision: Decision,
    /// What the last call with this buffer sent (replay.rs).
    pub replay: replay::Slot,
}

/// Everything that must be equal for a preprocessed decision to be reused: all arguments except
/// alpha, beta and the value arrays.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    op: (Operation, Operation),
    a: DnMat,
    b: DnMat,
    c: SpMat,
    compute: DataType,
    alg: SDDMMAlg,
}

fn signature(call: &Call) -> Signature {
    let (mut a, mut b, mut c) = (call.a.clone(), call.b.clone(), call.c.clone());
    a.values = 0;
    b.values = 0;
    c.arrays.values = 0;
    Signature { op: (call.op_a, call.op_b), a, b, c, compute: call.compute, alg: call.alg }
}

/// Checks the call in the API's order: sizes, batches, pointers, then what is supported.
pub fn checked(call: &Call) -> Result<(Dims, Types)> {
    let dims = check::dims(call)?;
    check::extents(call, &dims)?;
    check::pointers(call, &dims)?;
    let types = check::support(call)?;
    Ok((dims, types))
}

/// Checks the call and plans it (asking the driver, once per kernel, how many warps fit at once).
pub fn make_plan(h: &Handle, call: &Call) -> Result<Plan> {
    let (dims, types) = checked(call)?;
    let mut p = plan::plan(call, dims, types);
    if !p.is_empty() {
        let resident_warps = k::resident_warps(h, &p)?;
        plan::deal(&mut p, resident_warps);
    }
    Ok(p)
}

/// `oxsparseSDDMM_bufferSize`.
pub fn buffer_size(h: &Handle, call: &Call) -> Result<usize> {
    let p = make_plan(h, call)?;
    Ok(if p.is_empty() || p.workspace == 0 { 0 } else { p.workspace + crate::ops::workspace::ALIGN })
}

/// `oxsparseSDDMM_preprocess`: checks and plans, and surveys C for the tiles into the buffer where
/// they may run; the decision is kept for `buffer`.
pub fn preprocess(h: &Handle, call: &Call, buffer: u64, deactivate: impl FnOnce()) -> Result<Option<ActiveBuffer>> {
    let p = make_plan(h, call)?;
    let ws = crate::ops::workspace::start(buffer, p.workspace, "SDDMM")?;
    let mut tiles = None;
    if let Some(t) = p.tiles {
        let at = ws + t.survey_at as u64;
        kernels::graph::batched(h, || k::tiles_survey(h, call, &p, at))?;
        if !kernels::capturing(h)? {
            let mut bytes = [0u8; tiles::SURVEY_BYTES];
            kernels::vector_ops::copy_to_host_and_wait(h, at, &mut bytes)?;
            let counters = std::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()));
            tiles = Some(tiles::chosen(&counters));
        }
    }
    deactivate();
    let decision = Decision { plan: p, tiles };
    crate::ops::workspace::report(call.settings.print_plan, "SDDMM", "preprocess", &decision);
    Ok(Some(ActiveBuffer { buffer, signature: signature(call), decision, replay: Default::default() }))
}

/// `oxsparseSDDMM`.
pub fn sddmm(h: &Handle, call: &Call, buffer: u64, active: Option<&ActiveBuffer>) -> Result<()> {
    if let Some(a) = active.filter(|_| !call.settings.print_plan) {
        // The kept launches were made from this buffer's decision, and their key holds the buffer.
        if a.replay.again(h, || replay::Key::of(h, call, buffer), || true, crate::ops::new_token)? {
            return Ok(());
        }
    }
    let kept = active.filter(|a| a.buffer == buffer && a.signature == signature(call));
    let p = match kept {
        Some(a) => {
            // The descriptors agree with preprocess's; the checks that read pointers run again.
            check::pointers(call, &a.decision.plan.dims)?;
            a.decision.plan
        }
        None => make_plan(h, call)?,
    };
    crate::ops::workspace::report(call.settings.print_plan, "SDDMM", "call", &p);
    if p.is_empty() {
        return Ok(());
    }
    let ws = crate::ops::workspace::start(buffer, p.workspace, "SDDMM")?;
    // SAFETY: the FFI layer checked alpha and beta are non-NULL; in host mode they point to a
    // value of the compute type (the API's contract).
    let (alpha, beta) = unsafe { (kernels::scalar(h, call.alpha, call.compute)?, kernels::scalar(h, call.beta, call.compute)?) };
    // The copies and the kernel go out as one graph (kernels/graph/); a preprocessed call keeps
    // it for the next call with the same arguments (replay.rs).
    let key = match kept {
        Some(_) if !call.settings.print_plan => Some(replay::Key::of(h, call, buffer)?),
        _ => None,
    };
    let ((), sent) = kernels::graph::batched_for_replay(h, || {
        for (x, lines) in [(call.a, &p.a), (call.b, &p.b)] {
            if let Some(copy) = lines.copy {
                k::copy_lines(h, x.values, lines, ws + copy.at as u64, copy.ld, p.types.ab.size_bytes() as u32)?;
            }
        }
        // The lean kernel where the plan has its shape and every line starts on 16 bytes, within
        // 2^31 vectors of its operand (it counts line offsets in 32 bits).
        let aligned = k::lines_start_on_vectors(call, &p, ws);
        let lean = p.lean.is_some() && plan::lines_within_u32_vectors(&p) && aligned;
        // Where the lean kernel runs and the tiles may, the survey chooses between them: as
        // preprocess read it back, else on the GPU (a plain call surveys first).
        let run = match (p.tiles.filter(|_| lean), kept.map(|a| a.decision.tiles)) {
            (None, _) => Run::Lean,
            (Some(_), Some(Some(true))) => Run::Tiles,
            (Some(_), Some(Some(false))) => Run::Lean,
            (Some(t), kept_survey) => {
                let at = ws + t.survey_at as u64;
                if kept_survey.is_none() {
                    k::tiles_survey(h, call, &p, at)?;
                }
                Run::Survey(at)
            }
        };
        if run != Run::Tiles {
            k::sddmm(h, call, &p, ws, (alpha, beta), aligned, lean, run)?;
        }
        if run != Run::Lean {
            k::sddmm_tiles(h, call, &p, ws, (alpha, beta), run)?;
        }
        Ok(())
    })?;
    if let (Some(a), Some(key), Some(sent)) = (kept, key, sent) {
        a.replay.keep(key, sent, false);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
