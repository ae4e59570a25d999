//! How an SDDMM call runs, from host facts only: how op(A)'s rows and op(B)'s columns are read
//! (in place, or from a copy in the workspace that lays each one out contiguously), how many lanes
//! share one dot product, and how C's entries are dealt to warps.
//!
//! Each stored entry (i, j) of C is the dot product of op(A)'s row i and op(B)'s column j, k
//! elements each. The kernel reads both as "lines" of k contiguous elements: a line of A starts
//! `ld` elements after the previous one. A is read in place when it is row-major with opA = N or
//! column-major with opA = T; B when it is column-major with opB = N or row-major with opB = T
//! (cuSPARSE's own advice for fast CSR SDDMM). Otherwise the call first transposes the operand into
//! the workspace: k elements per line, padded to 16 bytes, once per call (its values may change
//! between calls), which costs one pass over the operand against the many reads of its lines.
//!
//! Entries are dealt to warps in equal runs of C's stored order (rows never matter: a hub row of
//! 100,000 entries is spread over many warps, and short rows share one), so every warp does the
//! same work. A warp finds the row of its first entry by a search of the row offsets and follows
//! the rows from there.

use super::check::{transposed, Dims, Types};
use super::tiles::{self, Tiles};
use crate::descr::{DnMat, FormatInfo, SpMat};
use crate::ops::ceil_div;
use crate::ops::workspace::align_up;
use crate::types::{IndexType, Operation, Order};

/// Threads per block of the SDDMM kernel; must match `BLOCK` in kernels/sddmm.cu.
pub const BLOCK: u32 = 256;
const WARP: i64 = 32;
/// Bytes one lane loads at a time from a line (a 16-byte vector).
pub const VECTOR_BYTES: i64 = 16;

/// How one dense operand is read: its lines (op(A)'s rows or op(B)'s columns) of `len` elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lines {
    pub lines: i64,
    pub len: i64,
    /// Element distance between consecutive lines and between consecutive elements of a line, in
    /// the user's array.
    pub line_stride: i64,
    pub elem_stride: i64,
    /// Element distance between batches (0: one operand shared by every batch).
    pub batch_stride: i64,
    pub count: i32,
    /// Where the contiguous copy lies in the workspace, and its line length padded to 16 bytes
    /// (None: the lines are read in place).
    pub copy: Option<LineCopy>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCopy {
    pub at: usize,
    pub ld: i64,
}

/// The layout of C's entries: CSR, or BSR blocks of `row_block x col_block` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entries {
    Csr,
    Bsr { row_block: i64, col_block: i64, col_major_blocks: bool },
}

/// Values a group of lanes takes a step, and the vectors of A's line a lane keeps in registers:
/// the kernel's shape (`oxs_sddmm_*_x4`, `_x2`, `_x1` in kernels/sddmm.cu).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unroll {
    /// 4 values, 1 vector kept.
    X4,
    /// 2 values, 2 vectors kept.
    X2,
    /// 1 value, 4 vectors kept.
    X1,
}

impl Unroll {
    pub fn values(self) -> i64 {
        match self {
            Unroll::X4 => 4,
            Unroll::X2 => 2,
            Unroll::X1 => 1,
        }
    }
    pub fn suffix(self) -> &'static str {
        match self {
            Unroll::X4 => "x4",
            Unroll::X2 => "x2",
            Unroll::X1 => "x1",
        }
    }
}

/// The shape for lanes that each read `per_lane` 16-byte vectors of a line: a gather in flight per
/// value is one trip to L2, so a lane with few vectors of its own takes more values at once (as
/// many as keep its loads near four); the handle's `OXSPARSE_SDDMM_UNROLL` overrides.
pub fn unroll_for(per_lane: i64, forced: Option<u32>) -> Unroll {
    match forced {
        Some(4) => return Unroll::X4,
        Some(2) => return Unroll::X2,
        Some(1) => return Unroll::X1,
        _ => {}
    }
    match per_lane {
        0 | 1 => Unroll::X4,
        2 => Unroll::X2,
        _ => Unroll::X1,
    }
}

/// The lean kernel (kernels/sddmm_lean.cu): `lanes` per value, each reading `vectors` 16-byte
/// vectors of a line (`oxs_sddmm_lean_*_g<lanes>v<vectors>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeanShape {
    pub lanes: u32,
    pub vectors: u32,
}

impl LeanShape {
    /// Whether the kernel takes its values 32 at a time (a lane of at most 2 vectors) rather than
    /// a value per group a step; the rule of `sddmm_lean` in kernels/sddmm_lean.cu.
    pub fn chunked(self) -> bool {
        self.vectors <= 2
    }
}

/// The lean kernel's shape for C in CSR (`csr`) with lines of `k` elements of `elem` bytes read by
/// `group` lanes: where the lines hold whole 16-byte vectors and the shape is one the kernel file
/// instantiates (1 lane of 1 vector; 2 or 4 lanes of up to 4; 8 lanes of up to 8; 16 lanes of 4).
pub fn lean_shape(csr: bool, k: i64, elem: i64, group: u32, allowed: bool) -> Option<LeanShape> {
    let bytes = k * elem;
    if !allowed || !csr || k == 0 || bytes % VECTOR_BYTES != 0 {
        return None;
    }
    let vectors = (ceil_div(bytes / VECTOR_BYTES, group as i64) as u64).next_power_of_two() as u32;
    let instantiated = match group {
        1 => vectors == 1,
        2 | 4 => vectors <= 4,
        8 => vectors <= 8,
        16 => vectors == 4,
        _ => false,
    };
    instantiated.then_some(LeanShape { lanes: group, vectors })
}

/// What a call enqueues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub dims: Dims,
    pub types: Types,
    pub index: IndexType,
    pub entries: Entries,
    /// C's compressed rows (block rows for BSR), and its stored values per batch.
    pub rows: i64,
    pub stored: i64,
    pub a: Lines,
    pub b: Lines,
    /// Lanes that share one dot product (a power of two, at most 32).
    pub group: u32,
    /// Values a group takes a step in the general kernel (their loads in flight together).
    pub unroll: Unroll,
    /// The lean kernel's shape, where it applies (CSR, whole 16-byte vectors; the lines must also
    /// start on 16 bytes at the call, else the general kernel runs).
    pub lean: Option<LeanShape>,
    /// Consecutive stored values each warp computes, and the warps per batch.
    pub entries_per_warp: i64,
    pub warps: i64,
    /// Where the tiles' survey lies in the workspace, where the tiles may run (`tiles.rs`).
    pub tiles: Option<Tiles>,
    /// Workspace bytes (the copies, the survey), 0 when A and B are read in place and the tiles
    /// may not run.
    pub workspace: usize,
}

impl Plan {
    /// Nothing to compute: C stores nothing (or has no rows or columns).
    pub fn is_empty(&self) -> bool {
        self.stored == 0 || self.dims.m == 0 || self.dims.n == 0
    }
}

impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let read = |l: &Lines| if l.copy.is_some() { "copied" } else { "in place" };
        write!(
            f,
            "{:?} m {} k {} n {} batches {}; A {}, B {}; {} lanes per entry, {}, {} entries per warp, {} warps; workspace {} bytes",
            self.entries,
            self.dims.m,
            self.dims.k,
            self.dims.n,
            self.dims.batches,
            read(&self.a),
            read(&self.b),
            self.group,
            match (self.lean, self.tiles) {
                (Some(l), Some(_)) => format!("lean kernel, {} vectors a lane, or the tiles as the survey finds", l.vectors),
                (Some(l), None) => format!("lean kernel, {} vectors a lane", l.vectors),
                (None, _) => format!("general kernel, {} values a step", self.unroll.values()),
            },
            self.entries_per_warp,
            self.warps,
            self.workspace
        )
    }
}

/// The lines of `x` in the role of op(A) (`rows == true`: lines are op(A)'s rows) or op(B)
/// (lines are op(B)'s columns), with `lines` lines of `len` elements.
fn lines_of(x: &DnMat, op: Operation, rows: bool, lines: i64, len: i64) -> Lines {
    // In X's own storage, is a line of op(X) one of X's stored rows (row-major) or columns?
    let line_is_row = rows != transposed(op);
    let contiguous = line_is_row == (x.order == Order::OXSPARSE_ORDER_ROW);
    let (line_stride, elem_stride) = if contiguous { (x.ld, 1) } else { (1, x.ld) };
    let batch_stride = if x.batch_count > 1 { x.batch_stride } else { 0 };
    Lines { lines, len, line_stride, elem_stride, batch_stride, count: x.batch_count, copy: None }
}

/// Most lanes per dot product: 8 lanes of 16-byte loads read a 128-byte cache line of a line,
/// so a warp's load touches 4 lines, one wavefront each, as 32 lanes would; fewer lanes per
/// product mean fewer shuffles and row steps per value, and more of A's line held per lane.
pub const MAX_GROUP: i64 = 8;

/// Lanes per dot product for lines longer than [`MAX_GROUP`] lanes of [`WIDE_AT`] vectors
/// (FP32 k > 128): 8 lanes would read 8 vectors or more each, whose registers leave a kernel of
/// one value a step (the per-value form) few warps, each a chain of dependent loads a value; 16
/// lanes of 4 keep the stepped form, which finds 32 values' rows and columns at once.
pub const WIDE_GROUP: i64 = 16;
pub const WIDE_AT: i64 = 4;

/// Lanes per dot product for lines of `k` elements of `elem_bytes`: enough 16-byte loads to cover
/// a line in one step, at most [`MAX_GROUP`], or [`WIDE_GROUP`] for long lines (or the handle's
/// `OXSPARSE_SDDMM_LANES`).
pub fn group_for(k: i64, elem_bytes: i64, forced: Option<u32>) -> u32 {
    if let Some(lanes) = forced {
        return lanes;
    }
    let vectors = ceil_div(k * elem_bytes, VECTOR_BYTES).max(1);
    if vectors > MAX_GROUP * WIDE_AT {
        return WIDE_GROUP as u32;
    }
    (vectors.min(MAX_GROUP) as u64).next_power_of_two() as u32
}

/// Entries per warp: equal runs of whole steps (`values_per_step` values) such that the warps fit
/// the device at once (`resident_warps`, from the kernel's occupancy): one wave, every warp the
/// same work, and each block of warps on one multiprocessor a long run of C's rows, whose
/// neighbouring rows share B's lines in that multiprocessor's L1.
pub fn entries_per_warp(stored: i64, values_per_step: i64, resident_warps: i64) -> i64 {
    values_per_step * ceil_div(stored, values_per_step * resident_warps.max(1)).max(1)
}

/// The 16-byte vectors of a line of `k` elements of `elem_bytes` each of `group` lanes reads.
pub fn vectors_per_lane(k: i64, elem_bytes: i64, group: u32) -> i64 {
    ceil_div(k * elem_bytes / VECTOR_BYTES, group as i64)
}

/// Plans a checked call; its runs are dealt by [`deal`] once the kernel's occupancy is known.
pub fn plan(call: &super::Call, dims: Dims, types: Types) -> Plan {
    let c: &SpMat = call.c;
    let (entries, rows) = match c.format {
        FormatInfo::Bsr { brows, row_block, col_block, block_order, .. } => {
            (Entries::Bsr { row_block, col_block, col_major_blocks: block_order == Order::OXSPARSE_ORDER_COL }, brows)
        }
        _ => (Entries::Csr, c.rows),
    };
    let elem = types.ab.size_bytes() as i64;
    let mut a = lines_of(call.a, call.op_a, true, dims.m, dims.k);
    let mut b = lines_of(call.b, call.op_b, false, dims.n, dims.k);
    let mut workspace = 0usize;
    let products = dims.k > 0 && c.nnz > 0 && dims.m > 0 && dims.n > 0;
    for x in [&mut a, &mut b] {
        if products && x.elem_stride != 1 && x.len > 1 {
            let ld = ceil_div(x.len * elem, VECTOR_BYTES) * VECTOR_BYTES / elem;
            x.copy = Some(LineCopy { at: workspace, ld });
            workspace = align_up(workspace + (x.count as usize) * (x.lines * ld * elem) as usize);
        }
    }
    let (group, unroll) = shape(call, dims.k, elem);
    let lean = lean_shape(entries == Entries::Csr, dims.k, elem, group, call.settings.sddmm.lean != Some(false));
    let stored = c.nnz;
    let multiprocessors = call.device.sm_count as i64;
    let facts =
        tiles::Facts { lean_csr: lean.is_some(), types, batches: dims.batches, rows, n: dims.n, k: dims.k, nnz: stored, multiprocessors };
    let tiles = tiles::may_run(&facts, call.settings.sddmm.tiles).then(|| {
        let t = Tiles { survey_at: workspace };
        workspace = align_up(workspace + tiles::SURVEY_BYTES);
        t
    });
    Plan {
        dims,
        types,
        index: c.index_type,
        entries,
        rows,
        stored,
        a,
        b,
        group,
        unroll,
        lean,
        entries_per_warp: 0,
        warps: 0,
        tiles,
        workspace,
    }
}

/// Whether every line of A and B starts within 2^31 16-byte vectors of its operand's start (in a
/// batch), so the lean kernel may count line offsets in 32 bits (operands under 32 GiB).
pub fn lines_within_u32_vectors(p: &Plan) -> bool {
    let elem = p.types.ab.size_bytes() as i64;
    [&p.a, &p.b].iter().all(|l| {
        let ld = l.copy.map_or(l.line_stride, |c| c.ld);
        (l.lines.max(1) - 1).saturating_mul(ld).saturating_mul(elem) / VECTOR_BYTES < 1 << 31
    })
}

/// The values a warp takes a step in the kernel a plan runs: 32 in the chunked lean kernel, one a
/// group in the per-value one, `unroll` a group in the general one. The lean kernel's run is also
/// a whole number of the general kernel's steps (powers of two), which runs where the lines turn
/// out misaligned.
pub fn values_per_step(lean: Option<LeanShape>, group: u32, unroll: Unroll) -> i64 {
    let general = WARP / group as i64 * unroll.values();
    match lean {
        Some(l) if l.chunked() => general.max(WARP),
        Some(_) => WARP / group as i64,
        None => general,
    }
}

/// Deals the stored values to warps: equal runs such that the warps of the kernel that runs fit
/// the device at once (`resident_warps`).
pub fn deal(p: &mut Plan, resident_warps: i64) {
    let per_step = values_per_step(p.lean, p.group, p.unroll);
    p.entries_per_warp = entries_per_warp(p.stored, per_step, resident_warps);
    p.warps = ceil_div(p.stored, p.entries_per_warp);
}

/// The lanes per dot product and the kernel's shape for lines of `k` elements of `elem` bytes.
pub fn shape(call: &super::Call, k: i64, elem: i64) -> (u32, Unroll) {
    let s = &call.settings.sddmm;
    let group = group_for(k, elem, s.lanes);
    (group, unroll_for(vectors_per_lane(k, elem, group), s.unroll))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_cover_a_line_in_one_step_up_to_eight_then_sixteen() {
        // (k, element bytes) -> lanes: 16-byte loads, a power of two, 1 ..= 8, then 16.
        let table = [((0, 4), 1), ((1, 4), 1), ((4, 4), 1), ((5, 4), 2), ((32, 4), 8), ((64, 4), 8), ((128, 4), 8)];
        // Past 8 lanes of 4 vectors, 16 lanes.
        let more = [((1000, 4), 16), ((256, 4), 16), ((132, 4), 16), ((256, 2), 8), ((16, 2), 2), ((32, 2), 4), ((32, 8), 8)];
        let more = more.into_iter().chain([((3, 16), 4), ((8, 4), 2), ((128, 8), 16)]);
        for ((k, bytes), lanes) in table.into_iter().chain(more) {
            assert_eq!(group_for(k, bytes, None), lanes, "k {k}, {bytes}-byte elements");
        }
        assert_eq!(group_for(128, 4, Some(32)), 32, "the handle's setting wins");
    }

    #[test]
    fn warps_take_equal_runs_in_one_wave() {
        // Small problems: one step per warp, as many warps as steps.
        assert_eq!(entries_per_warp(100, 16, 3168), 16);
        // Large ones: runs grow so that the warps fit at once.
        assert_eq!(entries_per_warp(16 * 3168 * 5, 16, 3168), 16 * 5);
        assert_eq!(entries_per_warp(16 * 3168 * 5 + 1, 16, 3168), 16 * 6);
        assert_eq!(entries_per_warp(7, 4, 0), 8, "no occupancy known: one warp, whole steps");
    }

    #[test]
    fn lanes_with_few_vectors_take_more_values_a_step() {
        // (k, element bytes) -> lanes, vectors a lane reads, shape.
        let table = [
            ((32, 4), (8, 1, Unroll::X4)),
            ((16, 2), (2, 1, Unroll::X4)),
            ((64, 4), (8, 2, Unroll::X2)),
            ((128, 4), (8, 4, Unroll::X1)),
            ((1000, 4), (16, 16, Unroll::X1)),
            ((256, 4), (16, 4, Unroll::X1)),
            ((3, 4), (1, 0, Unroll::X4)),
            ((32, 16), (8, 4, Unroll::X1)),
        ];
        for ((k, bytes), (lanes, vectors, unroll)) in table {
            let group = group_for(k, bytes, None);
            let got = (group, vectors_per_lane(k, bytes, group), unroll_for(vectors_per_lane(k, bytes, group), None));
            assert_eq!(got, (lanes, vectors, unroll), "k {k}, {bytes}-byte elements");
        }
        assert_eq!(unroll_for(1, Some(1)), Unroll::X1, "the handle's setting wins");
    }

    #[test]
    fn steps_of_the_kernel_that_runs() {
        let lean = |lanes, vectors| Some(LeanShape { lanes, vectors });
        assert_eq!(values_per_step(lean(8, 1), 8, Unroll::X4), 32, "chunked: a value a lane");
        assert_eq!(values_per_step(lean(1, 1), 1, Unroll::X4), 128, "and whole general steps");
        assert_eq!(values_per_step(lean(8, 4), 8, Unroll::X1), 4, "per value: one a group");
        assert_eq!(values_per_step(None, 4, Unroll::X2), 16);
    }

    #[test]
    fn lean_kernel_where_lines_hold_whole_vectors_in_a_shape_it_has() {
        let shape = |lanes, vectors| Some(LeanShape { lanes, vectors });
        // (csr, k, element bytes, lanes) -> shape.
        let table = [
            ((true, 32, 4, 8), shape(8, 1)),
            ((true, 128, 4, 8), shape(8, 4)),
            ((true, 256, 4, 8), shape(8, 8)),
            ((true, 256, 4, 16), shape(16, 4)),
            ((true, 512, 4, 16), None),
            ((true, 128, 4, 16), None),
            ((true, 200, 4, 16), shape(16, 4)),
            ((true, 96, 4, 8), shape(8, 4)),
            ((true, 512, 4, 8), None),
            ((true, 33, 4, 8), None),
            ((true, 4, 4, 1), shape(1, 1)),
            ((true, 32, 4, 2), shape(2, 4)),
            ((true, 64, 4, 2), None),
            ((true, 32, 4, 32), None),
            ((false, 32, 4, 8), None),
            ((true, 0, 4, 1), None),
            ((true, 64, 2, 8), shape(8, 1)),
            ((true, 16, 16, 8), shape(8, 2)),
        ];
        for ((csr, k, bytes, lanes), want) in table {
            assert_eq!(lean_shape(csr, k, bytes, lanes, true), want, "csr {csr} k {k} {bytes}-byte lanes {lanes}");
        }
        assert_eq!(lean_shape(true, 32, 4, 8, false), None, "the handle's setting keeps the general kernel");
    }
}
