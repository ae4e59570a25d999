//! Launchers for `kernels/sddmm.cu`: the copy of an operand into contiguous lines, and the SDDMM
//! kernel over C's stored values.

use super::name::KernelName;
use super::params::sddmm::*;
use super::params::spmm::SpmmRows;
use super::params::Scalar;
use super::{launch, MAX_GRID};
use crate::context::Handle;
use crate::error::Result;
use crate::kernel_name;
use crate::ops::ceil_div;
use crate::ops::sddmm::plan::{Entries, Lines, Plan, BLOCK, VECTOR_BYTES};
use crate::ops::sddmm::tiles::{self, Run};
use crate::ops::sddmm::Call;
use crate::types::IndexType;

const FAMILY: &str = "sddmm";
const LEAN_FAMILY: &str = "sddmm_lean";
const TILES_FAMILY: &str = "sddmm_tiles";
/// The copy kernel's tile: 32 x 32 elements, 32 x 8 threads.
const TILE: i64 = 32;
const COPY_THREADS: u32 = 256;

fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

/// Copies the lines of `lines` (read from `src`) to `dst`, `ld` elements apart, `count` batches.
pub fn copy_lines(h: &Handle, src: u64, lines: &Lines, dst: u64, ld: i64, elem_bytes: u32) -> Result<()> {
    let p = SddmmCopyParams {
        src,
        dst,
        lines: lines.lines,
        len: lines.len,
        line_stride: lines.line_stride,
        elem_stride: lines.elem_stride,
        src_batch_stride: lines.batch_stride,
        dst_ld: ld,
        dst_batch_stride: lines.lines * ld,
    };
    let grid_x = (ceil_div(lines.lines, TILE) as u64).min(i32::MAX as u64) as u32;
    let grid_y = (ceil_div(lines.len, TILE) as u64).min(MAX_GRID) as u32;
    let kernel = kernel_name!("oxs_sddmm_copy_lines_w{elem_bytes}");
    launch(h, FAMILY, &kernel, (grid_x, grid_y, lines.count as u32), COPY_THREADS, 0, &p)
}

/// Where the kernel reads `x`'s lines: the copy in the workspace, or the user's array.
fn lines_params(values: u64, lines: &Lines, ws: u64) -> SddmmLines {
    match lines.copy {
        Some(c) => SddmmLines { values: ws + c.at as u64, ld: c.ld, batch_stride: if lines.count > 1 { lines.lines * c.ld } else { 0 } },
        None => SddmmLines { values, ld: lines.line_stride, batch_stride: lines.batch_stride },
    }
}

/// Whether every line of `x` starts on a 16-byte boundary (it is then read 16 bytes at a time).
fn lines_aligned(x: &SddmmLines, elem_bytes: i64) -> bool {
    let v = VECTOR_BYTES as u64;
    x.values % v == 0 && (x.ld * elem_bytes) as u64 % v == 0 && (x.batch_stride * elem_bytes) as u64 % v == 0
}

/// The name of the SDDMM kernel that runs `p`: the lean one (`lean` and the plan has its shape), or
/// the general one for C's format.
fn kernel(p: &Plan, lean: bool) -> KernelName {
    let (ab, c, index) = (p.types.ab.kernel_suffix(), p.types.c.kernel_suffix(), index_suffix(p.index));
    match p.lean {
        Some(s) if lean => kernel_name!("oxs_sddmm_lean_{ab}_{c}_{index}_g{}v{}", s.lanes, s.vectors),
        _ => {
            let format = if matches!(p.entries, Entries::Bsr { .. }) { "bsr" } else { "csr" };
            kernel_name!("oxs_sddmm_{format}_{ab}_{c}_{index}_{}", p.unroll.suffix())
        }
    }
}

fn family(p: &Plan, lean: bool) -> &'static str {
    if lean && p.lean.is_some() {
        LEAN_FAMILY
    } else {
        FAMILY
    }
}

/// Warps of the kernel the plan prefers (the lean one where it has a shape) that the device holds at once.
pub fn resident_warps(h: &Handle, p: &Plan) -> Result<i64> {
    let blocks = super::resident_blocks(h, family(p, true), &kernel(p, true), BLOCK)?;
    Ok(blocks * (BLOCK / 32) as i64 * h.device_model.sm_count as i64)
}

/// Whether op(A)'s and op(B)'s lines, where the kernel will read them, all start on 16 bytes (the
/// user's arrays or the workspace's copies `ws`).
pub fn lines_start_on_vectors(call: &Call, p: &Plan, ws: u64) -> bool {
    let elem = p.types.ab.size_bytes() as i64;
    lines_aligned(&lines_params(call.a.values, &p.a, ws), elem) && lines_aligned(&lines_params(call.b.values, &p.b, ws), elem)
}

/// C's rows for the kernels (`perm` 0, `conj` 0).
fn c_rows(call: &Call) -> SpmmRows {
    let c = call.c;
    SpmmRows {
        offsets: c.arrays.offsets,
        cols: c.arrays.indices,
        values: c.arrays.values,
        perm: 0,
        base: c.index_base.offset(),
        offsets_batch_stride: c.batch.offsets_stride,
        cols_batch_stride: c.batch.indices_stride,
        values_batch_stride: c.batch.values_stride,
        conj: 0,
        pad: 0,
    }
}

/// The SDDMM kernel over every stored value of every batch of C: the lean one when `lean` (the
/// plan has its shape and the lines start on 16 bytes), else the general one, which reads 16 bytes
/// at a time when `aligned` ([`lines_start_on_vectors`]). `run`: whether the lean kernel leaves C
/// to the tiles (`tiles::Run`).
#[allow(clippy::too_many_arguments)]
pub fn sddmm(h: &Handle, call: &Call, p: &Plan, ws: u64, scalars: (Scalar, Scalar), aligned: bool, lean: bool, run: Run) -> Result<()> {
    let params = params(call, p, ws, scalars, aligned, run);
    let warps_per_block = BLOCK as i64 / 32;
    let grid = (ceil_div(p.warps, warps_per_block) as u64).min(i32::MAX as u64) as u32;
    launch(h, family(p, lean), &kernel(p, lean), (grid, p.dims.batches as u32, 1), BLOCK, 0, &params)
}

/// The survey of C's structure for the tiles (`src/ops/sddmm/tiles.rs`): its counters at `at`
/// zeroed, then a block per `TILE_ROWS` rows.
pub fn tiles_survey(h: &Handle, call: &Call, p: &Plan, at: u64) -> Result<()> {
    let c = call.c;
    let params = SddmmSurveyParams {
        offsets: c.arrays.offsets,
        cols: c.arrays.indices,
        base: c.index_base.offset(),
        rows: p.rows,
        n: p.dims.n,
        survey: at,
    };
    launch(h, TILES_FAMILY, "oxs_sddmm_tiles_reset", (1, 1, 1), 32, 0, &params)?;
    let kernel = kernel_name!("oxs_sddmm_tiles_survey_{}", index_suffix(p.index));
    let grid = ceil_div(p.rows, tiles::TILE_ROWS) as u32;
    launch(h, TILES_FAMILY, &kernel, (grid, 1, 1), BLOCK, 0, &params)
}

/// The tile kernel, a block per `TILE_ROWS` rows of C; it computes C only where `run` says so
/// (`Run::Survey`: where the survey chose it; the lean kernel does otherwise). A and B are read in
/// place or from the workspace as the lean kernel reads them.
pub fn sddmm_tiles(h: &Handle, call: &Call, p: &Plan, ws: u64, scalars: (Scalar, Scalar), run: Run) -> Result<()> {
    let params = params(call, p, ws, scalars, true, run);
    let (ab, c, index) = (p.types.ab.kernel_suffix(), p.types.c.kernel_suffix(), index_suffix(p.index));
    let kernel = kernel_name!("oxs_sddmm_tiles_{ab}_{c}_{index}");
    let grid = ceil_div(p.rows, tiles::TILE_ROWS) as u32;
    launch(h, TILES_FAMILY, &kernel, (grid, 1, 1), tiles::TILE_BLOCK, 0, &params)
}

fn params(call: &Call, p: &Plan, ws: u64, (alpha, beta): (Scalar, Scalar), aligned: bool, run: Run) -> SddmmParams {
    let (tiles, survey) = run.params();
    let a = lines_params(call.a.values, &p.a, ws);
    let b = lines_params(call.b.values, &p.b, ws);
    let (row_block, col_block, col_major_blocks) = match p.entries {
        Entries::Csr => (1, 1, 0),
        Entries::Bsr { row_block, col_block, col_major_blocks } => (row_block, col_block, col_major_blocks as i32),
    };
    SddmmParams {
        c: c_rows(call),
        a,
        b,
        alpha,
        beta,
        rows: p.rows,
        stored: p.stored,
        n: p.dims.n,
        k: p.dims.k,
        entries_per_warp: p.entries_per_warp,
        row_block,
        col_block,
        col_major_blocks,
        group: p.group as i32,
        vectors: aligned as i32,
        tiles,
        survey,
    }
}
