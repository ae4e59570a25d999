//! SpMM: C = alpha * op(A) * op(B) + beta * C, A sparse (CSR, CSC, COO, BSR, Blocked-ELL).
//!
//! * `check`: the arguments, in the API's order, and what cuSPARSE supports.
//! * `plan`: how A is read, which kernel runs, the workspace layout (host facts only);
//!   `tile_rules`: its tile kernel's sizes; `tensor_core_rules`: whether it takes tensor cores.
//! * `short_rows`: whether preprocess, having measured the longest row, sends a tile-kernel plan
//!   to the short-row kernel (so a preprocessed call may differ from a plain one in rounding);
//!   `split_rows`: otherwise, the table of row pieces that preprocess builds for that kernel;
//!   `row_order`: when op(B) outgrows L2, whole short rows in a breadth-first order over the same
//!   kind of table, so that rows sharing B rows run together; `warp_rows`: the warp-row table;
//!   `row_kernel`: preprocess's choice among them (it reads op(A)'s structure back) and the
//!   building of the chosen table; `plain_choice`: a plain call's choice between whole short rows
//!   and the tiles (or warp rows over a table the call builds on the GPU, `PlainLong`), made on
//!   the GPU without a wait, and remembered for the descriptor; `replay`: a preprocessed call
//!   that repeats the last call's arguments sends that call's launches again, without its checks,
//!   plan and parameter blocks (kernels/graph.rs `Replay`).
//! * here: the three entry points and what a call builds before its kernel: row views (CSR with
//!   opA = T/H, CSC with N, COO), the long-row schedule (row kernel only), the tile kernel's row
//!   table, the tensor-core format; `launch`: then the kernel, with op(B)'s and C's staging
//!   copies where their layouts need them (and the rules for how C is written). `preprocess`
//!   builds the schedule, or the tile kernel's row table, into the user's buffer and records it
//!   as the matrix's active buffer; a later call with the same arguments and that buffer uses
//!   it (a plain call builds the schedule itself; the tile blocks search their rows instead of
//!   reading a table). Both carry a token, so a buffer freed and reallocated at the same address,
//!   or overwritten, is detected on the GPU and not trusted (the kernels then do without, with
//!   the same arithmetic). Row views are rebuilt by every call: they hold indices the kernels
//!   follow, so a stale one must never be read.
//! * On tensor cores (`Kernel::TensorCore`: FP32, FP16 and BF16 in a tensor-op math mode; FP16 /
//!   BF16 matrices that repeat a (row, column) stay on CUDA cores) preprocess also builds BitTCF
//!   (src/kernels/spmm_tc.rs), trusted later only in the same allocation, and waits to read back
//!   the build's choice between tensor cores and the CUDA-core kernels (not under graph
//!   capture), so that its calls launch only the chosen one: where it chose CUDA cores, the row
//!   kernel a default-mode preprocess would choose (short, split or warp rows, or the tiles). A
//!   plain call runs the CUDA-core kernels as in the default mode (`plain_plan`; with tensor cores
//!   forced it builds the format and launches it and the tile kernel, the other returning at
//!   once). In the handle's data-affinity reorder mode, preprocess may first reorder the rows the
//!   build reads (`tc_reorder`); `bittcf` is the same preprocessed state in device memory of its
//!   own (`oxsparseCreateBitTcf`).
//! * `blocked`: BSR and Blocked-ELL's block-row kernel, on tensor cores or CUDA cores.
//! * `brcv`: the native banded format (`oxsparseCreateBrcv`), its own object and kernels;
//!   `banded`: the same kernels taken transparently: preprocess detects a band in a CSR op(A) on
//!   the GPU (a wait) where the plan keeps room for it, and its calls then refresh the band from
//!   A's values and run BRCV's SpMM instead of everything above.

pub mod banded;
pub mod bittcf;
pub mod blocked;
pub mod brcv;
pub mod check;
mod decision;
mod launch;
pub mod plain_choice;
pub mod plan;
mod replay;
pub mod row_choice;
pub mod row_kernel;
pub mod row_order;
pub mod short_rows;
pub mod split_rows;
pub mod tc_reorder;
mod tensor_core_rules;
mod tile_rules;
pub mod warp_rows;

use crate::context::Handle;
use crate::descr::{DnMat, SpMat};
use crate::device::DeviceModel;
use crate::error::{invalid, Result};
use crate::kernels::params::spmm::*;
use crate::kernels::{self, row_view, spmm as k, spmm_tc};
use crate::settings::Settings;
use crate::types::{DataType, MathMode, Operation, ReorderMode, SpMMAlg};
pub use decision::Decision;
use launch::{c_bytes, column_major_c, direct_c, kernel_types, launch, split_rows_write_c, whole_rows_shape, GpuWarpRows};
use plan::{ARead, Kernel, Plan};
use std::ffi::c_void;

/// The arguments of one SpMM call, decoded.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    pub op_a: Operation,
    pub op_b: Operation,
    pub a: &'a SpMat,
    pub b: &'a DnMat,
    pub c: &'a DnMat,
    pub compute: DataType,
    pub alg: SpMMAlg,
    pub alpha: *const c_void,
    pub beta: *const c_void,
    /// The handle's math mode: whether FP32 products may run on tensor cores.
    pub math: MathMode,
    /// The handle's reorder mode: whether preprocess may reorder rows for the tensor cores.
    pub reorder: ReorderMode,
    /// A's descriptor's number (0: none, nothing is learned): see plain_choice.rs.
    pub a_serial: u64,
    /// The handle's device, whose facts the planner's rules read.
    pub device: &'a DeviceModel,
    /// The handle's tuning and forcing settings.
    pub settings: &'a Settings,
}

/// What `preprocess` left in the user's buffer, and for which arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveBuffer {
    pub buffer: u64,
    pub signature: Signature,
    /// The token the schedule was built with.
    pub token: u64,
    /// The driver's ID of the buffer's allocation, for the tensor-core format, which has no
    /// token the kernels could check, and for the short-row choice (see `allocation_id`).
    pub allocation: Option<u64>,
    /// What runs after this preprocess: the plan, the tensor-core format's state, the CUDA-core
    /// kernel a tile-kernel plan runs.
    pub decision: Decision,
    /// What the last call with this state sent, for a call that repeats its arguments.
    pub replay: replay::Slot,
}

/// Which CUDA-core kernel a tile-kernel plan runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowKernel {
    /// The tile kernel (a plain call's, and preprocess's choice for large skewed matrices).
    #[default]
    Tiles,
    /// The short-row kernel: every row short (short_rows.rs).
    ShortRows,
    /// The short-row kernel over the split-row table preprocess left in the buffer, `blocks`
    /// blocks long, built for groups of `shape` (split_rows/).
    SplitRows { blocks: u32, shape: k::RowShape },
    /// The warp-row kernel over the table preprocess left in the buffer: `items` warps, `adds`
    /// split rows (warp_rows/).
    WarpRows { items: u32, adds: u32 },
    /// The same over a table preprocess built on the GPU (`GpuWarpRows`), which
    /// says its item count itself.
    WarpRowsGpuTable,
    /// A plain call's warp rows, over a table the call builds on the GPU (warp_rows/mod.rs
    /// `takes_plain`).
    GpuWarpRows,
    /// A plain call's: whole short rows where no row is longer than `limit` entries, else `long`,
    /// chosen on the GPU by the verdict of `epoch`, left at `host_at` too when not 0
    /// (plain_choice.rs).
    ShortRowsOr { long: PlainLong, limit: i64, epoch: u64, host_at: u64 },
}

/// Whether the GPU can build the warp-row table in this plan's room: the plan keeps it, the
/// build's counts hold the matrix, and the partial rows' room holds the build's chunk sums.
fn gpu_table_fits(p: &Plan, nnz: i64) -> bool {
    let m = p.dims.m;
    p.warp_rows.is_some_and(|w| w.bytes - w.partials_at >= warp_rows::gpu_sums_bytes(m)) && warp_rows::gpu_counts_fit(m, nnz)
}

/// What a plain call of a tile plan runs where its rows are not all short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainLong {
    Tiles,
    /// `RowKernel::GpuWarpRows`.
    GpuWarpRows,
}

impl PlainLong {
    /// For a plain call of this plan: warp rows where `warp_rows::takes_plain` and the plan's room
    /// holds the GPU build's sums (in the partial rows' room, free until the kernel), else the tiles.
    fn of(p: &Plan, nnz: i64, device: &DeviceModel, s: &Settings) -> PlainLong {
        let d = p.dims;
        let takes = matches!(p.kernel, Kernel::Tiles { .. })
            && gpu_table_fits(p, nnz)
            && warp_rows::takes_plain(d.m, nnz, d.k, d.n, p.types.ab, device, &s.spmm);
        if takes {
            PlainLong::GpuWarpRows
        } else {
            PlainLong::Tiles
        }
    }

    fn row_kernel(self) -> RowKernel {
        match self {
            PlainLong::Tiles => RowKernel::Tiles,
            PlainLong::GpuWarpRows => RowKernel::GpuWarpRows,
        }
    }
}

/// What a call knows of the tensor-core format it runs over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcState {
    /// The build's choice for this matrix, read back by preprocess (None: not read, as under
    /// graph capture, or a plain call). With it a call launches only the chosen kernel; without,
    /// both, and the other returns at once. The result is the same.
    pub choice: Option<bool>,
    /// Built from reordered rows (preprocess only; the kernels then follow the row order).
    pub reordered: bool,
}

/// Checks the call and plans it.
pub fn make_plan(call: &Call) -> Result<Plan> {
    let d = check::dims(call)?;
    check::extents(call, &d)?;
    if !d.is_empty() {
        check::pointers(call, &d)?;
    }
    let types = check::support(call, &d)?;
    Ok(plan::plan(call, d, types))
}

/// `oxsparseSpMM_bufferSize`.
pub fn buffer_size(_h: &Handle, call: &Call) -> Result<usize> {
    Ok(make_plan(call)?.workspace)
}

/// `oxsparseSpMM_preprocess`: builds the views and the schedule or tile row table into `buffer`.
/// `deactivate` runs once every argument has been checked, before anything is written: a refused
/// call leaves the matrix's earlier preprocessed state in force, an accepted one replaces it.
pub fn preprocess(h: &Handle, call: &Call, buffer: u64, deactivate: impl FnOnce()) -> Result<Option<ActiveBuffer>> {
    plan::phase(call.settings.print_plan, "");
    let p = make_plan(call)?;
    report(call, &p, "preprocess");
    let ws = if p.kernel == Kernel::Nothing { 0 } else { workspace(&p, buffer)? };
    deactivate();
    if p.kernel == Kernel::Nothing {
        return Ok(None);
    }
    let token = crate::ops::new_token();
    plan::phase(call.settings.print_plan, "plan");
    let banded = banded::detect(h, call, &p, ws)?;
    if banded.is_some_and(|b| b.taken) {
        // The band replaces every other kernel: nothing else is built. Its structure lies in the
        // buffer, which the calls trust only in the same allocation.
        let decision = Decision { banded, ..Decision::new(call, p, TcState::default(), RowKernel::Tiles, false) };
        if call.settings.print_plan {
            eprintln!("oxsparse: SpMM preprocess decision: {decision}");
        }
        let allocation = crate::ops::allocation_id(h, buffer);
        return Ok(Some(ActiveBuffer {
            buffer,
            signature: signature(call, &decision.plan),
            token,
            allocation,
            decision,
            replay: Default::default(),
        }));
    }
    build_views(h, call, &p, ws)?;
    build_schedule(h, call, &p, ws, token)?;
    build_tile_rows(h, call, &p, ws, token)?;
    plan::phase(call.settings.print_plan, "views, schedule and tile rows launched");
    let (reordered, choice) = if tiles_ruled_out(h, call, &p, ws)? {
        plan::phase(call.settings.print_plan, "tensor-core tiles ruled out by the windows' longest rows (a wait)");
        (false, Some(false))
    } else {
        let reordered = build_tensor_core_format(h, call, &p, ws, true)?;
        let choice = match p.tc {
            Some(layout) => spmm_tc::read_choice(h, &layout, ws + p.tc_at as u64)?,
            None => None,
        };
        if p.tc.is_some() {
            plan::phase(call.settings.print_plan, "tensor-core format built and its choice read back");
        }
        (reordered, choice)
    };
    // The CUDA-core kernels: a tile-kernel plan's, or a tensor-core plan's whose build chose CUDA
    // cores (so that a tensor-op math mode is never slower than the default there).
    let cuda_cores = match p.kernel {
        Kernel::Tiles { .. } => true,
        Kernel::TensorCore { .. } => choice == Some(false),
        _ => false,
    };
    let (rows, breadth_first) = if cuda_cores { row_kernel::choose_row_kernel(h, call, &p, ws, token)? } else { (RowKernel::Tiles, false) };
    let allocation = if p.tc.is_some() || rows != RowKernel::Tiles { crate::ops::allocation_id(h, buffer) } else { None };
    plan::phase(call.settings.print_plan, "the rest");
    let decision = Decision { banded, ..Decision::new(call, p, TcState { choice, reordered }, rows, breadth_first) };
    if call.settings.print_plan {
        eprintln!("oxsparse: SpMM preprocess decision: {decision}");
    }
    Ok(Some(ActiveBuffer { buffer, signature: signature(call, &decision.plan), token, allocation, decision, replay: Default::default() }))
}

/// `oxsparseSpMM`.
pub fn spmm(h: &Handle, call: &Call, buffer: u64, active: Option<&ActiveBuffer>) -> Result<()> {
    run(h, call, buffer, active, false)
}

/// An SpMM over a buffer that must hold preprocess's state for these arguments (the BitTCF
/// object's): a call whose arguments differ is refused before anything is written.
pub fn spmm_preprocessed(h: &Handle, call: &Call, buffer: u64, active: &ActiveBuffer) -> Result<()> {
    run(h, call, buffer, Some(active), true)
}

fn run(h: &Handle, call: &Call, buffer: u64, active: Option<&ActiveBuffer>, must_reuse: bool) -> Result<()> {
    if let Some(a) = active {
        if replay::again(h, call, buffer, a)? {
            return Ok(());
        }
    }
    let p = make_plan(call)?;
    let reused = active.filter(|a| reusable(h, a, call, &p, buffer));
    if must_reuse && reused.is_none() {
        invalid!("matB or matC differ in shape, type or layout from those the preprocessed state was made for");
    }
    let p = if reused.is_none() { plain_plan(p, call.settings) } else { p };
    report(call, &p, "call");
    if p.kernel == Kernel::Nothing {
        return Ok(());
    }
    let ws = workspace(&p, buffer)?;
    // The views, the staging copies and the kernel go out as one graph (kernels/graph.rs); a
    // preprocessed call keeps it for the next call with the same arguments (replay.rs).
    let key = match reused {
        Some(_) if !call.settings.print_plan => Some(replay::Key::of(h, call, buffer)?),
        _ => None,
    };
    let ((), sent) = kernels::graph::batched_for_replay(h, || {
        if let Some(banded::Banded { totals: Some(totals), taken: true, .. }) = reused.and_then(|a| a.decision.banded) {
            return banded::launch(h, call, &p, ws, totals);
        }
        build_views(h, call, &p, ws)?;
        let (token, tc, rows) = match reused {
            Some(a) => (a.token, a.decision.tc, a.decision.rows),
            None => {
                let token = crate::ops::new_token();
                build_schedule(h, call, &p, ws, token)?;
                build_tensor_core_format(h, call, &p, ws, false)?;
                // Forced short rows replace the tile kernel only: a tensor-core plan's plain call
                // leaves the choice to the build on the GPU, as its preprocess does.
                let forced = matches!(p.kernel, Kernel::Tiles { .. }) && short_rows::forced(&call.settings.spmm) == Some(true);
                let long = PlainLong::of(&p, call.a.nnz, call.device, call.settings);
                let rows = match plain_choice::limit(&p, call.a.nnz, whole_rows_fill(call, &p), &call.settings.spmm) {
                    _ if forced => RowKernel::ShortRows,
                    Some(limit) => {
                        let epoch = crate::ops::new_token();
                        match h.cache::<plain_choice::Verdicts>().lookup(h, plain_key(call, limit), epoch)? {
                            plain_choice::Verdict::Known { long: false } => RowKernel::ShortRows,
                            plain_choice::Verdict::Known { long: true } => long.row_kernel(),
                            plain_choice::Verdict::Chain { host_at } => RowKernel::ShortRowsOr { long, limit, epoch, host_at },
                        }
                    }
                    None => long.row_kernel(),
                };
                if call.settings.print_plan {
                    eprintln!("oxsparse: SpMM plain call decision: {}", Decision::new(call, p.clone(), TcState::default(), rows, false));
                }
                (token, TcState::default(), rows)
            }
        };
        launch(h, call, &p, (ws, token), tc, rows)
    })?;
    if let (Some(a), Some(key), Some(sent)) = (reused, key, sent) {
        let check_allocation = !(p.tc.is_none() && a.decision.rows == RowKernel::Tiles && !a.decision.banded_taken());
        replay::keep(a, key, sent, check_allocation);
    }
    Ok(())
}

/// What a plain call of `p` runs: a tensor-core plan's plain call runs the tile plan it holds (the
/// same workspace layout), as a default-mode call does, unless tensor cores are forced
/// (`OXSPARSE_SPMM_KERNEL=tensor_cores`). Why: the BitTCF build that decides between tensor cores
/// and CUDA cores costs 0.2-0.7 ms, and a plain call, which keeps nothing, paid it on every call
/// to run the CUDA cores anyway on every matrix of our set (none reaches the tiles' threshold):
/// plain calls in TF32 mode took 10.7x the default mode's time. Tensor cores take a matrix after
/// `preprocess`, which builds the format once.
fn plain_plan(p: Plan, s: &Settings) -> Plan {
    match p.kernel {
        Kernel::TensorCore { size, per_block, stage_b, stage_c, .. } if plan::tensor_core_min_reuse(s.spmm.kernel) > 0 => {
            Plan { kernel: Kernel::Tiles { size, per_block, stage_b, stage_c }, ..p }
        }
        _ => p,
    }
}

/// Whether whole short rows of this plan give at least half a wave of the short-row kernel's
/// groups (rows x column slices): where they do not, preprocess cuts the rows into pieces, which a
/// plain call cannot (the 1024 rows of graphchallenge_sparse_images, FP32 N = 256: 29 us on the
/// tiles, 37 on whole rows).
fn whole_rows_fill(call: &Call, p: &Plan) -> bool {
    let shape = whole_rows_shape(&call.settings.spmm, call.device, p, p.types, false);
    let groups = (p.dims.m.max(0) as u64).saturating_mul(shape.slices(p.dims.n));
    2 * groups >= short_rows::wave(call.device) * shape.groups_per_block(p.types.ab)
}

/// The descriptor, arrays, reading and shape a plain call's verdict belongs to (plain_choice.rs).
fn plain_key(call: &Call, limit: i64) -> plain_choice::Key {
    let a = call.a;
    let view = (a.format_enum() as u32 & 0xff) << 16 | (a.index_type as u32 & 0xff) << 8 | call.op_a as u32 & 0xff;
    plain_choice::Key { serial: call.a_serial, offsets: a.arrays.offsets, indices: a.arrays.indices, view, m: a.rows, nnz: a.nnz, limit }
}

/// Whether `buffer` is the active buffer that preprocess filled for these arguments. The tensor-core
/// format must also still lie in the same allocation (the kernels follow its indices), and so must
/// the short-row choice: a buffer freed and allocated again at the same address is a plain call's,
/// which keeps the tiles and their sums; and so must a band (its calls scatter by its offsets).
fn reusable(h: &Handle, a: &ActiveBuffer, call: &Call, p: &Plan, buffer: u64) -> bool {
    a.buffer == buffer
        && a.signature == signature(call, p)
        && ((p.tc.is_none() && a.decision.rows == RowKernel::Tiles && !a.decision.banded_taken())
            || (a.allocation.is_some() && crate::ops::allocation_id(h, buffer) == a.allocation))
}

/// The row order a reordered preprocess left in `buffer` (`rows[i]`: the row of op(A) at position
/// i), read back; None when the format was built in the stored order.
pub fn row_order(h: &Handle, call: &Call, buffer: u64, active: &ActiveBuffer) -> Result<Option<Vec<u32>>> {
    let p = make_plan(call)?;
    let (Some(layout), true) = (p.tc, active.decision.tc.reordered) else { return Ok(None) };
    let Some(room) = layout.reorder else { return Ok(None) };
    let at = workspace(&p, buffer)? + p.tc_at as u64 + room.row_order;
    let mut bytes = vec![0u8; p.dims.m.max(0) as usize * 4];
    if !bytes.is_empty() {
        kernels::vector_ops::copy_to_host_and_wait(h, at, &mut bytes)?;
    }
    Ok(Some(bytes.chunks_exact(4).map(|c| u32::from_ne_bytes(c.try_into().unwrap())).collect()))
}

fn report(call: &Call, p: &Plan, what: &str) {
    crate::ops::workspace::report(call.settings.print_plan, "SpMM", what, p);
}

/// The aligned workspace address, or an error when a needed buffer is missing.
fn workspace(p: &Plan, buffer: u64) -> Result<u64> {
    crate::ops::workspace::start(buffer, p.workspace, "SpMM")
}

/// Everything that must be equal for a preprocessed buffer to be reused: all arguments except
/// alpha, beta and the value arrays, plus the plan made from them. Compared field by field on
/// every call, so it is plain data (no formatting, no hashing).
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    ops: (Operation, Operation),
    a: SpMat,
    b: DnMat,
    c: DnMat,
    compute: DataType,
    alg: SpMMAlg,
    plan: (ARead, Kernel, Option<plan::Schedule>, Option<banded::Room>),
}

fn signature(call: &Call, p: &Plan) -> Signature {
    let mut a = call.a.clone();
    a.arrays.values = 0;
    let (mut b, mut c) = (call.b.clone(), call.c.clone());
    b.values = 0;
    c.values = 0;
    Signature { ops: (call.op_a, call.op_b), a, b, c, compute: call.compute, alg: call.alg, plan: (p.a, p.kernel, p.schedule, p.brcv) }
}

/// Builds the row views into the workspace.
fn build_views(h: &Handle, call: &Call, p: &Plan, ws: u64) -> Result<()> {
    if let ARead::View { src, copies, region } = p.a {
        let isize = call.a.index_type.size_bytes();
        for b in 0..copies as u64 {
            let mut s = src;
            s.major = match src.major {
                row_view::Major::Offsets { ptr, lines } => {
                    row_view::Major::Offsets { ptr: ptr + b * call.a.batch.offsets_stride as u64 * isize, lines }
                }
                row_view::Major::Indices { ptr } => row_view::Major::Indices { ptr: ptr + b * call.a.batch.offsets_stride as u64 * isize },
            };
            s.minor = src.minor + b * call.a.batch.indices_stride as u64 * isize;
            row_view::build(h, &s, ws + b * region as u64)?;
        }
    }
    Ok(())
}

/// Builds the long-row schedule into the workspace (after the views it may read).
fn build_schedule(h: &Handle, call: &Call, p: &Plan, ws: u64, token: u64) -> Result<()> {
    if let Some(s) = p.schedule {
        let fp = SpmmFindLongParams { a: rows(call, p, ws), m: p.dims.m, sched: schedule_params(p, ws, s, token) };
        k::find_long_rows(h, &fp, p.index, p.dims.batches as u32)?;
    }
    Ok(())
}

/// Builds the tile kernel's row table (preprocess only: a plain call lets the blocks search).
fn build_tile_rows(h: &Handle, call: &Call, p: &Plan, ws: u64, token: u64) -> Result<()> {
    if let (Kernel::Tiles { size, per_block, .. } | Kernel::TensorCore { size, per_block, .. }, Some(layout)) = (p.kernel, p.tiles) {
        if layout.rows_at.is_some() {
            let tp = SpmmTilesParams {
                shape: SpmmShape { m: p.dims.m, ..Default::default() },
                a: rows(call, p, ws),
                tiles: tiles_params(call, p, ws, size, per_block, token),
                ..Default::default()
            };
            k::tile_rows(h, &tp, p.index)?;
        }
    }
    Ok(())
}

/// Preprocess's first look at a tensor-core plan (`spmm_tc::tiles_may_pay`, a wait): true where
/// the windows' longest rows show that no tile can pay, so that the CUDA cores take the matrix
/// without the build. Not where the rows may be reordered first (clustering raises the pairs'
/// entries), under graph capture (no wait) or with tensor cores forced.
fn tiles_ruled_out(h: &Handle, call: &Call, p: &Plan, ws: u64) -> Result<bool> {
    let (Kernel::TensorCore { .. }, Some(layout)) = (p.kernel, p.tc) else { return Ok(false) };
    if layout.reorder.is_some() || plan::tensor_core_min_reuse(call.settings.spmm.kernel) == 0 || kernels::capturing(h)? {
        return Ok(false);
    }
    let d = p.dims;
    let may_pay = spmm_tc::tiles_may_pay(
        h,
        rows(call, p, ws),
        (d.m, d.k, call.a.nnz),
        p.index,
        &layout,
        ws + p.tc_at as u64,
        plan::tensor_core_min_reuse(call.settings.spmm.kernel),
    )?;
    Ok(!may_pay)
}

/// Builds BitTCF for the tensor-core kernel (preprocess, or a call without an active buffer). Kept
/// on the word of the preprocess contract (the buffer is not modified in between); a plain call
/// builds its own only with tensor cores forced (`plain_plan`). Preprocess (`may_reorder`) reorders the rows first when the plan has room
/// for it and the clustering pays (tc_reorder.rs; never under graph capture, where nothing may
/// wait for the structure's read-back). Returns whether it did.
fn build_tensor_core_format(h: &Handle, call: &Call, p: &Plan, ws: u64, may_reorder: bool) -> Result<bool> {
    let (Kernel::TensorCore { .. }, Some(layout)) = (p.kernel, p.tc) else { return Ok(false) };
    let d = p.dims;
    let at = ws + p.tc_at as u64;
    let stored = rows(call, p, ws);
    let permuted = match layout.reorder {
        Some(room) if may_reorder && !kernels::capturing(h)? => tc_reorder::apply(h, call, &stored, (d.m, d.k, p.index), &room, at)?,
        _ => None,
    };
    let refuse_duplicates = p.types.ab != DataType::CUDA_R_32F;
    let policy = (plan::tensor_core_min_reuse(call.settings.spmm.kernel), refuse_duplicates);
    spmm_tc::build(h, permuted.unwrap_or(stored), (d.m, d.k, call.a.nnz), p.index, &layout, at, policy, permuted.is_some())?;
    Ok(permuted.is_some())
}

/// Where the tile kernel's partial sums, flags and row table lie, for a call with `token`.
fn tiles_params(call: &Call, p: &Plan, ws: u64, size: u32, per_block: u32, token: u64) -> SpmmTiles {
    let layout = p.tiles.expect("a tile plan has a tile layout");
    let at = ws + p.schedule_at as u64;
    let with_partials = layout.count > 1;
    let place = |offset: usize| if with_partials { at + offset as u64 } else { 0 };
    SpmmTiles {
        count: layout.count,
        size: size as i64,
        slices_per_block: per_block as i64,
        nnz: call.a.nnz,
        head: place(layout.head_at),
        tail: place(layout.tail_at),
        ready: place(layout.ready_at),
        // A new epoch per call: flags left by earlier calls never match it.
        epoch: crate::ops::new_token(),
        rows: layout.rows_at.map_or(0, |r| at + r as u64),
        token_at: layout.rows_at.map_or(0, |_| at + layout.token_at as u64),
        token,
        skip_if_set: 0,
        choice: SpmmChoice::default(),
    }
}

/// op(A) as the row kernels read it.
fn rows(call: &Call, p: &Plan, ws: u64) -> SpmmRows {
    let a = call.a;
    let batched = a.batch.count > 1;
    let stride = |s: i64| if batched { s } else { 0 };
    let conj = (call.op_a == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE && a.value_type.is_complex()) as i32;
    let values_batch_stride = stride(a.batch.values_stride);
    match p.a {
        ARead::Rows { .. } => SpmmRows {
            offsets: a.arrays.offsets,
            cols: a.arrays.indices,
            values: a.arrays.values,
            perm: 0,
            base: a.index_base.offset(),
            offsets_batch_stride: stride(a.batch.offsets_stride),
            cols_batch_stride: stride(a.batch.indices_stride),
            values_batch_stride,
            conj,
            pad: 0,
        },
        ARead::View { src, copies, region } => {
            let v = row_view::layout(&src, ws);
            let view_stride = if copies > 1 { (region as u64 / a.index_type.size_bytes()) as i64 } else { 0 };
            SpmmRows {
                offsets: v.offsets,
                cols: v.cols,
                values: a.arrays.values,
                perm: v.perm,
                base: 0,
                offsets_batch_stride: view_stride,
                cols_batch_stride: view_stride,
                values_batch_stride,
                conj,
                pad: 0,
            }
        }
        _ => SpmmRows::default(),
    }
}

fn schedule_params(p: &Plan, ws: u64, s: plan::Schedule, token: u64) -> SpmmSchedule {
    let at = ws + p.schedule_at as u64;
    SpmmSchedule {
        counters: at,
        token,
        long_rows: at + s.long_rows_at as u64,
        chunk_owner: at + s.owner_at as u64,
        arrivals: at + s.arrivals_at as u64,
        partials: at + s.partials_at as u64,
        long_row: s.long_row,
        chunk: s.chunk,
        max_long_rows: s.max_long_rows,
        max_chunks: s.max_chunks,
    }
}

#[cfg(test)]
mod tests;
