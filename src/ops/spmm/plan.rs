//! The SpMM planner: from the checked arguments, decide how op(A) is read (directly, or through a
//! row view built in the workspace), which kernel runs, whether long rows get a schedule, and
//! where everything lies in the user's workspace. Only host-known facts are used (shapes, nnz,
//! layouts, types, addresses), so `preprocess` and a plain call make the same plan. One choice
//! needs the rows' lengths, which only preprocess measures: whether a tile-kernel plan runs the
//! short-row kernel, on whole rows (short_rows.rs) or on a table of row pieces (split_rows/); and
//! whether a call that keeps room for a band runs BRCV's kernels (banded.rs).
//! `OXSPARSE_PRINT_PLAN=1` prints every plan to stderr.

use super::blocked::BlockedPath;
use super::check::Dims;
pub use super::tensor_core_rules::tensor_core_min_reuse;
use super::tensor_core_rules::{tc_value_bytes, tensor_cores};
pub use super::tile_rules::{slices_per_block, tile_size};
use super::Call;
use super::{split_rows, warp_rows};
use crate::descr::FormatInfo;
use crate::kernels::params::spmm::SpmmDense;
use crate::kernels::row_view::{self, RowViewSource};
use crate::kernels::spmm::Types;
use crate::kernels::spmm_tc::{self, TcLayout};
use crate::types::DataType::*;
use crate::types::{DataType, IndexType, MathMode, Operation, Order, ReorderMode};
use std::fmt;

pub use crate::ops::workspace::{align_up, ALIGN};

/// How the kernels read op(A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ARead {
    /// op(A)'s rows are stored: CSR with opA = N, CSC with opA = T/H.
    Rows {
        csc: bool,
    },
    /// A row view is built in the workspace (CSR with T/H, CSC with N, COO): `copies` views of
    /// `region` bytes each (one per batch when the batches' structures differ).
    View {
        src: RowViewSource,
        copies: i32,
        region: usize,
    },
    /// Nothing stored (nnz == 0 or k == 0): C = beta * C.
    Empty,
    Bsr,
    BlockedEll,
}

/// Which kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// m == 0 or n == 0.
    Nothing,
    RowsStrided,
    /// Vectorised rows, `width` columns per pass. `stage_b`: op(B) is first copied to a row-major
    /// scratch; `stage_c`: the kernel writes a row-major scratch that is then written into C.
    /// Taken only when `OXSPARSE_SPMM_KERNEL=rowvec` asks for it (the tile kernel replaced it).
    RowVec {
        width: u32,
        stage_b: bool,
        stage_c: bool,
    },
    /// Tiles of `size` consecutive entries, a block each per run of `per_block` column slices,
    /// with the same staging as `RowVec`; the default for the vectorised cases.
    Tiles {
        size: u32,
        per_block: u32,
        stage_b: bool,
        stage_c: bool,
    },
    /// Tensor cores over BitTCF (src/kernels/spmm_tc.rs): FP32, FP16 or BF16 with the handle in a
    /// tensor-op math mode (`accurate`: 3xTF32 for FP32). `strip` columns of C per warp and work
    /// item. The build decides on the GPU whether the matrix's windows share enough columns; if
    /// not, the CUDA-core tile kernel (`size`, `per_block` as in `Tiles`) takes the call instead.
    /// `reorder`: the handle's reorder mode lets preprocess reorder rows (room for the order).
    TensorCore {
        strip: u32,
        accurate: bool,
        size: u32,
        per_block: u32,
        stage_b: bool,
        stage_c: bool,
        reorder: bool,
    },
    /// BSR and Blocked-ELL: the block-row kernel on tensor cores or CUDA cores (blocked.rs).
    Bsr(BlockedPath),
    BlockedEll(BlockedPath),
}

/// Rows longer than `long_row` entries are cut into chunks of `chunk` (see SpmmSchedule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub long_row: i64,
    pub chunk: i64,
    pub max_long_rows: i64,
    pub max_chunks: i64,
    /// Byte offsets inside the schedule's region.
    pub long_rows_at: usize,
    pub owner_at: usize,
    pub arrivals_at: usize,
    pub partials_at: usize,
    pub bytes: usize,
}

/// Where the tile kernel's partial sums lie inside their region (see SpmmTiles); `bytes` is 0 when
/// there is a single tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileLayout {
    pub count: i64,
    pub head_at: usize,
    pub tail_at: usize,
    pub ready_at: usize,
    /// The row table that preprocess builds (`count + 1` i64) and its token (8 bytes), when
    /// all batches share A's structure.
    pub rows_at: Option<usize>,
    pub token_at: usize,
    /// Beside the token, the u64 where preprocess measures the longest row (short_rows.rs).
    pub longest_at: Option<usize>,
    /// Room for preprocess's split-row table (split_rows/): where, and how many slots.
    pub split_at: Option<(usize, i64)>,
    pub bytes: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub dims: Dims,
    pub types: Types,
    pub index: IndexType,
    pub a: ARead,
    pub kernel: Kernel,
    /// op(B) and C as the kernels read them (batch addresses still to be added by the launch).
    pub b: SpmmDense,
    pub c: SpmmDense,
    pub schedule: Option<Schedule>,
    pub tiles: Option<TileLayout>,
    /// The tensor-core format's layout, at `tc_at`.
    pub tc: Option<TcLayout>,
    /// Byte offsets of the schedule (or the tile partials) and of the staged op(B) and C in the
    /// (aligned) workspace.
    pub schedule_at: usize,
    pub tc_at: usize,
    pub stage_b_at: usize,
    pub stage_c_at: usize,
    /// Room for the warp-row kernel's table and partial rows (warp_rows/table.rs), at `warp_rows_at`.
    pub warp_rows: Option<WarpRowsLayout>,
    pub warp_rows_at: usize,
    /// Room for a banded copy of op(A) where preprocess may take BRCV's kernels (banded.rs), at
    /// `brcv_at`.
    pub brcv: Option<super::banded::Room>,
    pub brcv_at: usize,
    /// Bytes to ask the user for (0: the buffer may be NULL).
    pub workspace: usize,
}

/// The warp-row kernel's region: the table (header, item and add slots), the arrival counters at
/// `counters_at` (zero between calls), then `room.partial_rows` partial rows of n compute values at
/// `partials_at` (all relative to the region).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpRowsLayout {
    pub room: warp_rows::Room,
    pub counters_at: usize,
    pub partials_at: usize,
    pub bytes: usize,
}

impl WarpRowsLayout {
    /// For n columns of `value` summed in `compute` (the partial rows' type).
    fn new(m: i64, nnz: i64, n: i64, value: DataType, compute: DataType, whole: i64) -> WarpRowsLayout {
        let room = warp_rows::room(m, nnz, whole);
        let counters_at = align_up(warp_rows::table_bytes(room));
        let partials_at = counters_at + align_up(warp_rows::counter_bytes(room.adds, room.partial_rows, n, value));
        WarpRowsLayout {
            room,
            counters_at,
            partials_at,
            bytes: partials_at + align_up(room.partial_rows as usize * n as usize * compute.size_bytes() as usize),
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.dims;
        write!(
            f,
            "m={} k={} n={} batches={} types={:?}/{:?}/{:?} A={:?} kernel={:?}",
            d.m, d.k, d.n, d.batches, self.types.ab, self.types.c, self.types.compute, self.a, self.kernel
        )?;
        if let Some(s) = &self.schedule {
            write!(f, " long_row={} chunk={} (<= {} long rows)", s.long_row, s.chunk, s.max_long_rows)?;
        }
        if let Some(t) = &self.tiles {
            write!(f, " tiles={}", t.count)?;
        }
        if let Some(t) = &self.tc {
            write!(f, " windows={} tc_tiles<={}", t.relative.windows, t.relative.tiles_max)?;
        }
        if let Some(w) = &self.warp_rows {
            write!(f, " warp_rows<={} items", w.room.items)?;
        }
        if let Some(r) = &self.brcv {
            write!(f, " brcv<={} values,{} far", r.values, r.far)?;
        }
        write!(f, " workspace={}B", self.workspace)
    }
}

fn transposed(op: Operation) -> bool {
    op != Operation::OXSPARSE_OPERATION_NON_TRANSPOSE
}

/// op(X) of a dense descriptor as strides: element (r, c) of op(X) at r * row_stride + c * col_stride.
pub(crate) fn dense(x: &crate::descr::DnMat, op: Operation, batched: bool) -> SpmmDense {
    let row_major = x.order == Order::OXSPARSE_ORDER_ROW;
    let (stored_row, stored_col) = if row_major { (x.ld, 1) } else { (1, x.ld) };
    let (row_stride, col_stride) = if transposed(op) { (stored_col, stored_row) } else { (stored_row, stored_col) };
    let conj = op == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE && x.value_type.is_complex();
    SpmmDense {
        values: x.values,
        row_stride,
        col_stride,
        batch_stride: if batched { x.batch_stride } else { 0 },
        conj: conj as i32,
        pad: 0,
    }
}

/// How op(A) is read, from its format and opA.
fn a_read(call: &Call, d: &Dims) -> ARead {
    let a = call.a;
    if a.nnz == 0 || d.k == 0 {
        return ARead::Empty;
    }
    if let Some(src) = crate::ops::row_view_source(a, transposed(call.op_a), d.m, d.k) {
        // One view serves every batch when the batches share A's structure.
        let shared = a.batch.count == 1 || (a.batch.offsets_stride == 0 && a.batch.indices_stride == 0);
        let copies = if shared { 1 } else { a.batch.count };
        return ARead::View { src, copies, region: align_up(row_view::workspace_bytes(&src)) };
    }
    match a.format {
        FormatInfo::Csr => ARead::Rows { csc: false },
        FormatInfo::Csc => ARead::Rows { csc: true },
        FormatInfo::Bsr { .. } => ARead::Bsr,
        FormatInfo::BlockedEll { .. } => ARead::BlockedEll,
        FormatInfo::Coo => unreachable!("COO is always read through a row view"),
        FormatInfo::SlicedEll { .. } => unreachable!("refused by check::support"),
    }
}

/// The type combinations with a vectorised kernel.
fn vectorised_types(t: Types) -> bool {
    matches!(
        (t.ab, t.c, t.compute),
        (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F)
            | (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F)
            | (CUDA_R_16F, CUDA_R_16F | CUDA_R_32F, CUDA_R_32F)
            | (CUDA_R_16BF, CUDA_R_16BF | CUDA_R_32F, CUDA_R_32F)
    )
}

/// Whether a dense operand can be read or written by the vectorised kernel in place: rows
/// contiguous and every row start on a vector boundary. `addresses` also checks the base address
/// (the workspace size must not depend on it, so bufferSize checks only the layout).
fn rows_are_vectors(x: &SpmmDense, vec: i64, vec_bytes: u64, addresses: bool) -> bool {
    x.col_stride == 1 && x.row_stride % vec == 0 && x.batch_stride % vec == 0 && (!addresses || x.values % vec_bytes == 0)
}

/// Columns per pass of the vectorised kernel.
fn pass_width(n: i64) -> u32 {
    match n {
        ..=32 => 32,
        33..=64 => 64,
        65..=128 => 128,
        _ => 256,
    }
}

fn tile_layout(
    nnz: i64,
    n: i64,
    size: u32,
    batches: i64,
    compute: crate::types::DataType,
    shared_structure: bool,
    split_slots: Option<i64>,
) -> TileLayout {
    let mut t = tile_bookkeeping(nnz, n, size, batches, compute, shared_structure);
    if let Some(slots) = split_slots {
        t.split_at = Some((t.bytes, slots));
        t.bytes += align_up(split_rows::table_bytes(slots));
    }
    t
}

fn tile_bookkeeping(nnz: i64, n: i64, size: u32, batches: i64, compute: crate::types::DataType, shared_structure: bool) -> TileLayout {
    let count = (nnz + size as i64 - 1) / size as i64;
    if count <= 1 {
        // No partials and no row table; only the room where preprocess measures the longest row.
        let (longest_at, bytes) = if shared_structure { (Some(0), ALIGN) } else { (None, 0) };
        return TileLayout { count, head_at: 0, tail_at: 0, ready_at: 0, rows_at: None, token_at: 0, longest_at, split_at: None, bytes };
    }
    let partials = align_up((batches * count * n) as usize * compute.size_bytes() as usize);
    let head_at = 0;
    let tail_at = partials;
    let ready_at = 2 * partials;
    let flags = (batches * count) as usize * crate::kernels::spmm::tile_slices(n) as usize;
    let token_at = ready_at + align_up(flags * 8);
    if !shared_structure {
        return TileLayout {
            count,
            head_at,
            tail_at,
            ready_at,
            rows_at: None,
            token_at: 0,
            longest_at: None,
            split_at: None,
            bytes: token_at,
        };
    }
    let rows_at = token_at + ALIGN;
    TileLayout {
        count,
        head_at,
        tail_at,
        ready_at,
        rows_at: Some(rows_at),
        token_at,
        longest_at: Some(token_at + 8),
        split_at: None,
        bytes: rows_at + align_up((count + 1) as usize * 8),
    }
}

/// The tile kernel keeps a column of op(A), and op(B)'s row stride in bytes (after staging), in
/// 32 bits.
fn tiles_fit(d: &Dims, t: Types, b: &SpmmDense, stage_b: bool) -> bool {
    let ldb = if stage_b { d.n } else { b.row_stride };
    d.k < i32::MAX as i64 && (0..=i32::MAX as i64).contains(&(ldb * t.ab.size_bytes() as i64))
}

pub use crate::settings::ForcedKernel;

/// Row length beyond which a row is cut into chunks of the same length. One group of lanes walks a
/// chunk as a chain of memory round trips (about eight B rows in flight per trip), so the chunk
/// bounds the longest chain in the grid: 64 entries keep it near the cost of a small kernel;
/// large matrices, whose kernels run for milliseconds, take 128 to halve the partial sums.
pub fn long_row_threshold(_m: i64, nnz: i64) -> i64 {
    if nnz <= 16_000_000 {
        64
    } else {
        128
    }
}

fn schedule(d: &Dims, t: Types, nnz: i64, batches: i64) -> Schedule {
    let long_row = long_row_threshold(d.m, nnz);
    let chunk = long_row;
    let max_long_rows = nnz / (long_row + 1) + 1;
    let max_chunks = (nnz + chunk - 1) / chunk + max_long_rows;
    let long_rows_at = ALIGN; // after the two counters
    let owner_at = long_rows_at + align_up(max_long_rows as usize * 24);
    let arrivals_at = owner_at + align_up(max_chunks as usize * 4);
    let partials_at = arrivals_at + align_up((batches * max_long_rows) as usize * 4);
    let bytes = partials_at + align_up((batches * max_chunks * d.n) as usize * t.compute.size_bytes() as usize);
    Schedule { long_row, chunk, max_long_rows, max_chunks, long_rows_at, owner_at, arrivals_at, partials_at, bytes }
}

/// The plan for a checked call. `types` come from `check::support`.
pub fn plan(call: &Call, d: Dims, types: Types) -> Plan {
    let b = dense(call.b, call.op_b, call.b.batch_count > 1);
    let c = dense(call.c, Operation::OXSPARSE_OPERATION_NON_TRANSPOSE, call.c.batch_count > 1);
    let a = a_read(call, &d);
    let mut p = Plan {
        dims: d,
        types,
        index: call.a.index_type,
        a,
        kernel: Kernel::Nothing,
        b,
        c,
        schedule: None,
        tiles: None,
        tc: None,
        schedule_at: 0,
        tc_at: 0,
        stage_b_at: 0,
        stage_c_at: 0,
        warp_rows: None,
        warp_rows_at: 0,
        brcv: None,
        brcv_at: 0,
        workspace: 0,
    };
    if d.is_empty() {
        return p;
    }
    // The vectorised kernel: real floating types, whole vectors per row, op(A) as rows. An operand
    // whose rows are not contiguous (column-major, or op(B) transposed) is staged through the
    // workspace; one that is contiguous but misaligned sends the call to the strided kernel.
    let vec = 16 / types.ab.size_bytes() as i64;
    let rows_like = matches!(a, ARead::Rows { .. } | ARead::View { .. });
    let vectorised = rows_like && vectorised_types(types) && d.n % vec == 0;
    let stage_b = !rows_are_vectors(&b, vec, 16, false);
    let stage_c = !rows_are_vectors(&c, vec, vec as u64 * types.c.size_bytes(), false);
    let aligned =
        (stage_b || rows_are_vectors(&b, vec, 16, true)) && (stage_c || rows_are_vectors(&c, vec, vec as u64 * types.c.size_bytes(), true));
    p.kernel = match a {
        ARead::Bsr | ARead::BlockedEll => {
            let block = match call.a.format {
                FormatInfo::Bsr { row_block, col_block, .. } => (row_block, col_block),
                FormatInfo::BlockedEll { block_size, .. } => (block_size, block_size),
                _ => unreachable!("a block format"),
            };
            let path = super::blocked::path(types, call.math, call.settings.spmm.kernel, block);
            if a == ARead::Bsr {
                let b_vectors = rows_are_vectors(&b, crate::kernels::spmm_bsr_small::LANE_COLUMNS as i64, 16, true);
                Kernel::Bsr(super::blocked::small_blocks(path, types, block, b_vectors, d.n, !call.settings.spmm.small_blocks_off))
            } else {
                Kernel::BlockedEll(path)
            }
        }
        _ if vectorised && aligned && tensor_cores(call, &d, types) && tiles_fit(&d, types, &b, stage_b) => {
            let size = tile_size(call.a.nnz, d.n, call.device, call.settings.spmm.tile);
            Kernel::TensorCore {
                strip: spmm_tc::strip_cols(d.n) as u32,
                accurate: types.ab == CUDA_R_32F && call.math == MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH,
                size,
                per_block: slices_per_block(call.a.nnz, d.n, d.k, types.ab.size_bytes(), size, call.device, call.settings.spmm.tile_slices),
                stage_b,
                stage_c,
                // Preprocess may reorder the rows: the workspace keeps room for the order.
                reorder: call.reorder == ReorderMode::OXSPARSE_REORDER_DATA_AFFINITY,
            }
        }
        // `OXSPARSE_SPMM_KERNEL=rowvec` sends the vectorised cases to the row kernel (for comparisons).
        _ if vectorised && aligned && call.settings.spmm.kernel == Some(ForcedKernel::RowVec) => {
            Kernel::RowVec { width: pass_width(d.n), stage_b, stage_c }
        }
        _ if vectorised && aligned && tiles_fit(&d, types, &b, stage_b) => {
            let size = tile_size(call.a.nnz, d.n, call.device, call.settings.spmm.tile);
            let per_block =
                slices_per_block(call.a.nnz, d.n, d.k, types.ab.size_bytes(), size, call.device, call.settings.spmm.tile_slices);
            Kernel::Tiles { size, per_block, stage_b, stage_c }
        }
        _ if vectorised && aligned => Kernel::RowVec { width: pass_width(d.n), stage_b, stage_c },
        _ => Kernel::RowsStrided,
    };
    let views = match a {
        ARead::View { copies, region, .. } => copies as usize * region,
        _ => 0,
    };
    // The schedule and the tile row table need one structure for all batches.
    let shared_structure = match a {
        ARead::Rows { .. } => call.a.batch.count == 1 || (call.a.batch.offsets_stride == 0 && call.a.batch.indices_stride == 0),
        ARead::View { copies, .. } => copies == 1,
        _ => false,
    };
    if matches!(p.kernel, Kernel::RowVec { .. }) && shared_structure && call.a.nnz > long_row_threshold(d.m, call.a.nnz) {
        p.schedule = Some(schedule(&d, types, call.a.nnz, d.batches as i64));
    }
    if let Kernel::Tiles { size, .. } | Kernel::TensorCore { size, .. } = p.kernel {
        // Room for a split-row table: the tile kernel's CUDA-core plans of one batch (sized for
        // the shape whose blocks hold the most groups), for pieces of long rows (split_rows/) or
        // whole rows in another order (row_order/).
        let groups = crate::kernels::spmm::RowShape::most_groups_per_block(types.ab) as i64;
        let pieces = split_rows::eligible(d.m, call.a.nnz).then(|| split_rows::capacity(d.m, call.a.nnz, groups));
        let ordered =
            super::row_order::may_order(d.m, d.k, d.n, types.ab.size_bytes(), call.device).then(|| super::row_order::capacity(d.m, groups));
        // A tensor-core plan keeps the same rooms: where the build chooses CUDA cores, its
        // preprocessed calls run the kernels a default-mode call would.
        let split = (shared_structure && d.batches == 1).then(|| pieces.max(ordered)).flatten();
        p.tiles = Some(tile_layout(call.a.nnz, d.n, size, d.batches as i64, types.compute, shared_structure, split));
    }
    if let Kernel::TensorCore { accurate, reorder, .. } = p.kernel {
        p.tc = Some(TcLayout::new(d.m, call.a.nnz, d.n, tc_value_bytes(types, accurate), reorder, call.device.sm_count));
    }
    p.schedule_at = views;
    p.tc_at = views + p.schedule.map_or(0, |s| s.bytes) + p.tiles.map_or(0, |t| t.bytes);
    p.stage_b_at = p.tc_at + p.tc.map_or(0, |t| align_up(t.bytes as usize));
    let b_batches = if b.batch_stride != 0 { d.batches as usize } else { 1 };
    let stage_b_bytes = if vectorised && stage_b { align_up(b_batches * (d.k * d.n) as usize * types.ab.size_bytes() as usize) } else { 0 };
    p.stage_c_at = p.stage_b_at + stage_b_bytes;
    let stage_c_bytes =
        if vectorised && stage_c { align_up(d.batches as usize * (d.m * d.n) as usize * types.compute.size_bytes() as usize) } else { 0 };
    // Room for the warp-row kernel's table and partials where preprocess may choose it, or a plain
    // call builds the table on the GPU (a tensor-core plan's plain calls run as a tile plan's).
    p.warp_rows_at = p.stage_c_at + stage_c_bytes;
    let (m, nnz) = (d.m, call.a.nnz);
    let warp = matches!(p.kernel, Kernel::Tiles { .. } | Kernel::TensorCore { .. })
        && shared_structure
        && warp_rows::fits(types.ab, types.c, types.compute, d.n, d.batches as i64)
        && warp_rows::b_offsets_fit(d.k, if stage_b { d.n } else { b.row_stride }, types.ab)
        && (warp_rows::takes(m, nnz, d.k, d.n, types.ab, call.device, &call.settings.spmm)
            || warp_rows::takes_plain(m, nnz, d.k, d.n, types.ab, call.device, &call.settings.spmm));
    let whole = warp_rows::whole_max(call.a.nnz, call.settings.spmm.warp_rows_whole);
    p.warp_rows = warp.then(|| WarpRowsLayout::new(d.m, call.a.nnz, d.n, types.ab, types.compute, whole));
    // Last, the band's room: preprocess measures into it, and its calls read only it (banded.rs).
    p.brcv_at = p.warp_rows_at + p.warp_rows.map_or(0, |w| w.bytes);
    p.brcv = super::banded::room(call, &d, types, a, p.kernel);
    let total = p.brcv_at + p.brcv.map_or(0, |r| r.bytes);
    p.workspace = if total > 0 { ALIGN + total } else { 0 };
    p
}

/// With `OXSPARSE_PRINT_PLAN=1`, preprocess also prints the host time of each of its phases (the
/// time since the thread's previous mark; an empty label only sets the mark). The phases that wait
/// for the GPU include the work queued before them.
pub fn phase(print: bool, label: &str) {
    use std::cell::Cell;
    use std::time::Instant;
    thread_local!(static LAST: Cell<Option<Instant>> = const { Cell::new(None) });
    if !print {
        return;
    }
    let now = Instant::now();
    if let (false, Some(last)) = (label.is_empty(), LAST.with(Cell::get)) {
        eprintln!("oxsparse: SpMM preprocess phase: {label}: {:.1} us", (now - last).as_secs_f64() * 1e6);
    }
    // The mark is taken after the print, so that the next phase does not count it.
    LAST.with(|l| l.set(Some(Instant::now())));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::spmm::rowvec_geometry;

    #[test]
    fn pass_width_covers_n() {
        assert_eq!(pass_width(1), 32);
        assert_eq!(pass_width(32), 32);
        assert_eq!(pass_width(33), 64);
        assert_eq!(pass_width(128), 128);
        assert_eq!(pass_width(129), 256);
        assert_eq!(pass_width(1000), 256);
    }

    #[test]
    fn tile_layout_has_no_partials_for_one_tile() {
        let one = tile_layout(1000, 64, 1024, 1, CUDA_R_32F, true, None);
        assert_eq!((one.count, one.rows_at, one.longest_at, one.bytes), (1, None, Some(0), ALIGN));
        let apart = tile_layout(1000, 64, 1024, 2, CUDA_R_32F, false, None);
        assert_eq!((apart.count, apart.longest_at, apart.bytes), (1, None, 0));
        let many = tile_layout(5000, 64, 1024, 2, CUDA_R_32F, false, None);
        assert_eq!(many.count, 5);
        assert_eq!(many.tail_at, align_up(2 * 5 * 64 * 4));
        assert_eq!(many.bytes, 2 * align_up(2 * 5 * 64 * 4) + align_up(2 * 5 * 2 * 8));
        assert_eq!(many.rows_at, None);
        let table = tile_layout(5000, 64, 1024, 2, CUDA_R_32F, true, None);
        assert_eq!(table.rows_at, Some(many.bytes + ALIGN));
        assert_eq!(table.longest_at, Some(table.token_at + 8));
        assert_eq!(table.bytes, many.bytes + ALIGN + align_up(6 * 8));
        let split = tile_layout(5000, 64, 1024, 1, CUDA_R_32F, true, Some(100));
        let plain = tile_layout(5000, 64, 1024, 1, CUDA_R_32F, true, None);
        assert_eq!(split.split_at, Some((plain.bytes, 100)), "the table after the tile bookkeeping");
        assert_eq!(split.bytes, plain.bytes + align_up(101 * split_rows::SLOT_BYTES), "the token, then the slots");
        let one = tile_layout(1000, 64, 1024, 1, CUDA_R_32F, true, Some(7));
        assert_eq!((one.split_at, one.bytes), (Some((ALIGN, 7)), ALIGN + align_up(8 * 16)), "one tile keeps room too");
    }

    #[test]
    fn long_row_threshold_grows_with_size() {
        assert_eq!(long_row_threshold(15_606, 91_756), 64);
        assert_eq!(long_row_threshold(232_965, 78_600_000), 128);
        assert_eq!(long_row_threshold(0, 0), 64);
    }

    #[test]
    fn rowvec_geometry_is_consistent_with_pass_width() {
        for t in [CUDA_R_32F, CUDA_R_64F, CUDA_R_16F] {
            for w in [32, 64, 128, 256] {
                let (g, r) = rowvec_geometry(t, w);
                assert_eq!(g * r * (16 / t.size_bytes() as u32), w);
            }
        }
    }
}
