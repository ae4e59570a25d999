//! SpMV: y = alpha * op(A) * x + beta * y, A sparse (CSR, CSC, COO, Sliced-ELL, BSR).
//!
//! * `check`: the arguments, in the API's order, and what cuSPARSE supports.
//! * `plan`: how A is read, which kernel runs, the workspace layout (host facts only).
//! * `schedule`: the vector kernel's schedule, from the row lengths preprocess measures.
//! * `columns`: whether preprocess keeps FastLoad's column order (busiest columns first).
//! * `band`: whether preprocess keeps the column indices as 16-bit offsets from their row.
//! * here: the three entry points and the launches in order: the row view (CSR with opA = T/H,
//!   CSC with N, COO), then the kernel: the tile kernel, or the vector kernel when
//!   preprocess chose it (or the Sliced-ELL / BSR kernel, or a scale of y when A stores nothing).
//!
//! `preprocess` (op(A) as rows) reads back a histogram of row lengths and either lists the long
//! rows for the vector kernel or builds the tile kernel's row table; either goes into the user's
//! buffer, stamped with a token, and the buffer is recorded as the matrix's active one. A later
//! call with the same arguments and that buffer runs what preprocess chose; the kernel trusts the
//! buffer's lists or table only if the stamp is still there (otherwise it does without, with the
//! same result up to rounding). Results are bitwise reproducible run to run; a preprocessed call
//! may differ from a plain one in rounding, as it may run another kernel. Row views are rebuilt
//! by every call: they hold indices the kernels follow, so a stale one must never be read.
//! Preprocess waits for its histogram (a stream synchronisation); under graph capture it cannot,
//! and keeps the tile kernel. Where the plan allows it, preprocess first counts the entries per
//! column (a second synchronisation) and may keep relabelled column indices in the buffer; its
//! calls then gather x into that order before the kernel, which reads both instead of A's indices
//! and x (the same sums in the same order). Otherwise, for a banded matrix on the lean vector
//! schedule, it may keep the band offsets (band.rs), which its calls read instead of A's indices
//! (two bytes per entry; in FP64 the same sums in the same order, in FP32 with half the lanes per
//! row, so in another fixed order).

pub mod band;
pub mod check;
pub mod columns;
pub mod plan;
pub mod schedule;

use crate::context::Handle;
use crate::descr::{DnVec, FormatInfo, SpMat};
use crate::error::Result;
use crate::kernels::params::spmm::SpmmRows;
use crate::kernels::params::spmv::*;
use crate::kernels::params::Scalar;
use crate::kernels::{self, row_view, spmv as k, spmv_columns};
use crate::settings::Settings;
use crate::types::{DataType, Operation, Order, SpMVAlg};
use plan::{ARead, Kernel, Plan};
use schedule::Schedule;
use std::ffi::c_void;

/// The arguments of one SpMV call, decoded.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    pub op_a: Operation,
    pub a: &'a SpMat,
    pub x: &'a DnVec,
    pub y: &'a DnVec,
    pub compute: DataType,
    pub alg: SpMVAlg,
    pub alpha: *const c_void,
    pub beta: *const c_void,
    /// The handle's tuning and forcing settings.
    pub settings: &'a Settings,
}

/// What `preprocess` left in the user's buffer, and for which arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveBuffer {
    pub buffer: u64,
    pub signature: Signature,
    /// The token stamped next to the row table or the row lists.
    pub token: u64,
    /// What runs after this preprocess.
    pub decision: Decision,
}

/// The decision record of a preprocessed SpMV: everything its calls run, as one value (a plain
/// call runs `plan` as it is). `OXSPARSE_PRINT_PLAN` prints it; tests read it through
/// `oxsparse::ffi::spmv::preprocessed_decision`.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// How op(A) is read, the tile size and count, and the workspace's rooms.
    pub plan: Plan,
    /// The vector kernel's schedule (None: the tile kernel with its row table).
    pub schedule: Option<Schedule>,
    /// Whether op(A) is read in the column order kept in the buffer (columns.rs).
    pub sorted_columns: bool,
    /// Whether the short rows read the band offsets kept in the buffer (band.rs).
    pub band: bool,
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.schedule {
            Some(s) => write!(f, "{}; vector kernel: {s}", self.plan)?,
            None => write!(f, "{}; tile kernel", self.plan)?,
        }
        write!(f, "; columns {}", if self.sorted_columns { "sorted" } else { "natural" })?;
        if self.band {
            write!(f, "; band offsets")?;
        }
        Ok(())
    }
}

/// Everything that must be equal for a preprocessed buffer to be reused: all arguments except
/// alpha, beta and the value arrays, plus the plan. Plain data, compared field by field.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    op_a: Operation,
    a: SpMat,
    x: (i64, DataType),
    y: (i64, DataType),
    compute: DataType,
    alg: SpMVAlg,
    plan: Plan,
}

fn signature(call: &Call, p: &Plan) -> Signature {
    let mut a = call.a.clone();
    a.arrays.values = 0;
    Signature {
        op_a: call.op_a,
        a,
        x: (call.x.size, call.x.value_type),
        y: (call.y.size, call.y.value_type),
        compute: call.compute,
        alg: call.alg,
        plan: p.clone(),
    }
}

/// Checks the call and plans it (asking the driver, once per kernel, how many tiles fit at once).
pub fn make_plan(h: &Handle, call: &Call) -> Result<Plan> {
    let d = check::dims(call)?;
    check::extents(call, &d)?;
    check::pointers(call, &d)?;
    let types = check::support(call)?;
    let slots = match plan::tiles_may_overflow(call, &d, h.device_model.sm_count) {
        true => k::tile_slots(h, types, call.a.index_type)?,
        false => 0,
    };
    Ok(plan::plan(call, d, types, slots))
}

/// `oxsparseSpMV_bufferSize`.
pub fn buffer_size(h: &Handle, call: &Call) -> Result<usize> {
    Ok(make_plan(h, call)?.workspace)
}

/// `oxsparseSpMV_preprocess`: measures the row lengths and keeps the vector kernel's row lists,
/// or the tile kernel's row table, in `buffer`.
/// `deactivate` runs once every argument has been checked, before anything is written: a refused
/// call leaves the matrix's earlier preprocessed state in force, an accepted one replaces it.
pub fn preprocess(h: &Handle, call: &Call, buffer: u64, deactivate: impl FnOnce()) -> Result<Option<ActiveBuffer>> {
    let p = make_plan(h, call)?;
    report(call, &p, "preprocess");
    let ws = workspace(&p, buffer)?;
    deactivate();
    let Kernel::Tiles { .. } = p.kernel else { return Ok(None) };
    build_view(h, &p, ws)?;
    let token = crate::ops::new_token();
    let forced = call.settings.spmv.kernel;
    let capturing = crate::kernels::capturing(h)?;
    let sorted_columns = !capturing && sort_columns(h, call, &p, ws, token)?;
    let mut vp = vector_params(call, &p, ws, Scalars::default(), None, token);
    let mut band = false;
    let chosen = if forced == Some(schedule::Forced::Tiles) || capturing {
        None
    } else {
        let hist = k::row_histogram(h, &vp, p.index)?;
        schedule::choose(&hist, forced)
    };
    if let Some(s) = chosen {
        if call.settings.print_plan {
            eprintln!("oxsparse: preprocess schedule: {s}");
        }
        vp.v = vector_schedule(&p, ws, &s, token);
        band = !sorted_columns && keep_band(h, call, &p, ws, &s, &vp)?;
        k::list_rows(h, &vp, p.index)?;
    } else if p.tiles.is_some() {
        k::build_tile_rows(h, &rows_params(call, &p, ws, Scalars::default(), Some(token)), p.index)?;
    } else if !sorted_columns {
        return Ok(None); // one tile: nothing worth keeping
    }
    let signature = signature(call, &p);
    let decision = Decision { plan: p, schedule: chosen, sorted_columns, band };
    if call.settings.print_plan {
        eprintln!("oxsparse: SpMV preprocess decision: {decision}");
    }
    Ok(Some(ActiveBuffer { buffer, signature, token, decision }))
}

/// Writes the band offsets where the plan has room for them and the schedule runs the lean kernel,
/// and returns whether they all fit (a stream synchronisation). The lists' stamp, launched after,
/// makes them trusted.
fn keep_band(h: &Handle, call: &Call, p: &Plan, ws: u64, s: &Schedule, vp: &SpmvVectorParams) -> Result<bool> {
    let Some(at) = p.band else { return Ok(false) };
    if s.huge_blocks > 0 {
        return Ok(false);
    }
    let encode = SpmvVectorParams { v: SpmvVector { band: ws + at as u64, ..vp.v }, ..*vp };
    let fits = k::band_encode(h, &encode, p.index)?;
    if call.settings.print_plan {
        eprintln!(
            "oxsparse: preprocess band: {}",
            if fits { "every column within 16 bits of its row: band offsets" } else { "too wide: A's indices" }
        );
    }
    Ok(fits)
}

/// Counts op(A)'s entries per column and, where the column order pays (columns.rs), builds it in
/// the workspace. Returns whether it did. Waits for the counts (a stream synchronisation).
fn sort_columns(h: &Handle, call: &Call, p: &Plan, ws: u64, token: u64) -> Result<bool> {
    let Some((layout, at)) = p.columns else { return Ok(false) };
    let rows = rows_params(call, p, ws, Scalars::default(), None).a;
    let stats = spmv_columns::measure(h, rows, p.index, &layout, ws + at as u64)?;
    let spread = columns::spread(&stats);
    let pays = columns::pays(&spread, call.settings.spmv.sorted_columns);
    if call.settings.print_plan {
        eprintln!("oxsparse: preprocess columns: {spread}: {}", if pays { "column order" } else { "natural order" });
    }
    if pays {
        spmv_columns::build(h, rows, p.index, &layout, ws + at as u64, token)?;
    }
    Ok(pays)
}

/// `oxsparseSpMV`.
pub fn spmv(h: &Handle, call: &Call, buffer: u64, active: Option<&ActiveBuffer>) -> Result<()> {
    let p = make_plan(h, call)?;
    report(call, &p, "call");
    if p.kernel == Kernel::Nothing {
        return Ok(());
    }
    let ws = workspace(&p, buffer)?;
    let active = active.filter(|a| a.buffer == buffer && a.signature == signature(call, &p));
    // SAFETY: the FFI layer checked alpha and beta are non-NULL; in host mode they point to a
    // value of the compute type (the API's contract).
    let scalars =
        unsafe { Scalars { alpha: kernels::scalar(h, call.alpha, call.compute)?, beta: kernels::scalar(h, call.beta, call.compute)? } };
    // The view, the gather of x and the kernels go out as one graph (kernels/graph.rs).
    kernels::graph::batched(h, || run(h, call, &p, ws, scalars, active))
}

/// The launches of one SpMV call, in order.
fn run(h: &Handle, call: &Call, p: &Plan, ws: u64, scalars: Scalars, active: Option<&ActiveBuffer>) -> Result<()> {
    build_view(h, p, ws)?;
    let sorted = match (active, p.columns) {
        (Some(a), Some((layout, at))) if a.decision.sorted_columns => {
            let at = ws + at as u64;
            let rows = rows_params(call, p, ws, scalars, None).a;
            spmv_columns::gather_x(h, rows, p.index, call.x.values, p.types.x.size_bytes(), &layout, at, a.token)?;
            Some(SortedColumns { cols: at + layout.cols, x: at + layout.x })
        }
        _ => None,
    };
    if let Some(ActiveBuffer { decision: Decision { schedule: Some(s), band, .. }, token, .. }) = active {
        let mut vp = vector_params(call, p, ws, scalars, Some(s), *token);
        SortedColumns::read(sorted, &mut vp.a, &mut vp.shape);
        if let (true, Some(at)) = (*band, p.band) {
            vp.v.band = ws + at as u64;
        }
        return k::vector(h, &vp, p.types, p.index, s.split_huge);
    }
    launch(h, call, p, ws, scalars, active.map(|a| a.token), sorted)
}

/// Where the column order's relabelled indices and gathered x lie.
#[derive(Clone, Copy, Debug)]
struct SortedColumns {
    cols: u64,
    x: u64,
}

impl SortedColumns {
    /// Points a kernel's A indices and x at the column order, if there is one. The workspace is
    /// aligned, so whole chunks may still be read with wide loads.
    fn read(sorted: Option<SortedColumns>, a: &mut SpmmRows, shape: &mut SpmvShape) {
        if let Some(c) = sorted {
            a.cols = c.cols;
            shape.x = c.x;
        }
    }
}

fn report(call: &Call, p: &Plan, what: &str) {
    crate::ops::workspace::report(call.settings.print_plan, "SpMV", what, p);
}

/// The aligned workspace address, or an error when a needed buffer is missing.
fn workspace(p: &Plan, buffer: u64) -> Result<u64> {
    crate::ops::workspace::start(buffer, p.workspace, "SpMV")
}

fn build_view(h: &Handle, p: &Plan, ws: u64) -> Result<()> {
    if let ARead::View { src, .. } = p.a {
        row_view::build(h, &src, ws)?;
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, Default)]
struct Scalars {
    alpha: Scalar,
    beta: Scalar,
}

fn shape(call: &Call, p: &Plan, s: Scalars) -> SpmvShape {
    SpmvShape { m: p.dims.m, k: p.dims.k, x: call.x.values, y: call.y.values, alpha: s.alpha, beta: s.beta }
}

/// The tile kernel's parameters; `token` is the active buffer's stamp (None: the row table is
/// not passed and every block searches).
fn rows_params(call: &Call, p: &Plan, ws: u64, s: Scalars, token: Option<u64>) -> SpmvRowsParams {
    let a = call.a;
    let conj = (call.op_a == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE && a.value_type.is_complex()) as i32;
    let rows = match p.a {
        ARead::View { src, .. } => {
            let v = row_view::layout(&src, ws);
            SpmmRows { offsets: v.offsets, cols: v.cols, values: a.arrays.values, perm: v.perm, conj, ..Default::default() }
        }
        _ => SpmmRows {
            offsets: a.arrays.offsets,
            cols: a.arrays.indices,
            values: a.arrays.values,
            base: a.index_base.offset(),
            conj,
            ..Default::default()
        },
    };
    let (count, size) = match p.kernel {
        Kernel::Tiles { count, size } => (count, size),
        _ => (0, 0),
    };
    let wide = rows.perm == 0
        && rows.cols % (SPMV_QUAD as u64 * p.index.size_bytes()) == 0
        && rows.values % (SPMV_QUAD as u64 * p.types.a.size_bytes()) == 0;
    let mut tiles = SpmvTiles { count, nnz: a.nnz, size, wide: wide as i32, ..Default::default() };
    if let Some(l) = p.tiles {
        let at = |off: usize| ws + off as u64;
        tiles.partials = at(l.partials_at);
        tiles.ready = at(l.ready_at);
        // A new epoch per call: flags left by earlier calls never match it.
        tiles.epoch = crate::ops::new_token();
        tiles.token_at = at(l.token_at);
        if let Some(t) = token {
            tiles.tile_rows = at(l.tile_rows_at);
            tiles.token = t;
        }
    }
    SpmvRowsParams { shape: shape(call, p, s), a: rows, tiles }
}

/// The vector kernel's schedule block: the schedule's numbers and the layout's addresses.
fn vector_schedule(p: &Plan, ws: u64, s: &Schedule, token: u64) -> SpmvVector {
    let l = p.vector.expect("a plan with the tile kernel has a vector layout");
    let at = |off: usize| ws + off as u64;
    SpmvVector {
        lanes: s.lanes,
        huge_blocks: s.huge_blocks,
        long_blocks: s.long_blocks,
        pad: 0,
        long_threshold: s.long_threshold,
        huge_threshold: s.huge_threshold,
        long_rows: at(l.long_rows_at),
        chunk_row: at(l.chunk_row_at),
        chunk_info: at(l.chunk_info_at),
        partials: at(l.partials_at),
        arrivals: at(l.arrivals_at),
        counts: at(l.counts_at),
        hist: at(l.hist_at),
        token_at: at(l.token_at),
        token,
        band: 0,
    }
}

/// The vector kernel's parameters (with `schedule` None: only what the histogram needs).
fn vector_params(call: &Call, p: &Plan, ws: u64, s: Scalars, schedule: Option<&Schedule>, token: u64) -> SpmvVectorParams {
    let rp = rows_params(call, p, ws, s, None);
    let blank = Schedule {
        lanes: 1,
        long_threshold: i64::MAX,
        huge_threshold: i64::MAX,
        long_rows: 0,
        huge_rows: 0,
        chunks: 0,
        long_blocks: 0,
        huge_blocks: 0,
        split_huge: false,
    };
    SpmvVectorParams { shape: rp.shape, a: rp.a, v: vector_schedule(p, ws, schedule.unwrap_or(&blank), token) }
}

/// Enqueues the chosen kernels.
fn launch(h: &Handle, call: &Call, p: &Plan, ws: u64, s: Scalars, token: Option<u64>, sorted: Option<SortedColumns>) -> Result<()> {
    let a = call.a;
    match p.kernel {
        Kernel::Nothing => Ok(()),
        Kernel::Scale => k::scale(h, &shape(call, p, s), p.types),
        Kernel::Tiles { .. } => {
            let mut rp = rows_params(call, p, ws, s, token);
            SortedColumns::read(sorted, &mut rp.a, &mut rp.shape);
            k::tiles(h, &rp, p.types, p.index)
        }
        Kernel::SlicedEll => {
            let FormatInfo::SlicedEll { slice_size, .. } = a.format else { unreachable!() };
            let sp = SpmvSellParams {
                shape: shape(call, p, s),
                offsets: a.arrays.offsets,
                cols: a.arrays.indices,
                values: a.arrays.values,
                base: a.index_base.offset(),
                slice_size,
            };
            k::sell(h, &sp, p.types, p.index)
        }
        Kernel::Bsr => {
            let FormatInfo::Bsr { row_block, col_block, block_order, .. } = a.format else { unreachable!() };
            let bp = SpmvBsrParams {
                shape: shape(call, p, s),
                offsets: a.arrays.offsets,
                col_ind: a.arrays.indices,
                values: a.arrays.values,
                base: a.index_base.offset(),
                row_block,
                col_block,
                col_major_blocks: (block_order == Order::OXSPARSE_ORDER_COL) as i32,
                pad: 0,
            };
            k::bsr(h, &bp, p.types, p.index)
        }
    }
}
