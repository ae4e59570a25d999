//! The launches of an SpMM call, in order (src/ops/spmm/mod.rs builds what they read): for the
//! vectorised kernels (the row-vector kernel, the tiles, the short-row, split-row and warp-row
//! kernels, the tensor cores) op(B)'s staging copy when it is not row-major, the chosen kernel
//! (or a plain call's chain that chooses on the GPU, plain_choice.rs), and C's staging copy when
//! the kernel cannot write C's layout itself; the strided-batch, BSR and Blocked-ELL kernels
//! directly. Also the rules for how C is written: which kernels write a column-major C
//! themselves (`direct_c`) and in which row shape.

use super::plan::{self, Kernel, Plan};
use super::{row_order, short_rows, warp_rows};
use super::{rows, schedule_params, tiles_params, Call, PlainLong, RowKernel, TcState};
use crate::context::Handle;
use crate::descr::FormatInfo;
use crate::device::DeviceModel;
use crate::error::Result;
use crate::kernels::params::spmm::*;
use crate::kernels::params::spmm_tc::SpmmTcParams;
use crate::kernels::params::Scalar;
use crate::kernels::{self, spmm as k, spmm_tc};
use crate::settings::Spmm as Settings;
use crate::types::{DataType, IndexType, Order};

/// The value types the vectorised kernels run with: C's is the compute type when C is staged (the
/// kernel writes a row-major scratch in the compute type, `launch_vectorised`).
pub(super) fn kernel_types(p: &Plan) -> k::Types {
    match p.kernel {
        Kernel::RowVec { stage_c: true, .. } | Kernel::Tiles { stage_c: true, .. } | Kernel::TensorCore { stage_c: true, .. } => {
            k::Types { c: p.types.compute, ..p.types }
        }
        _ => p.types,
    }
}

/// A host scalar of the compute type (f32 or f64: the vectorised kernel's compute types).
fn host_scalar(compute: DataType, v: f64) -> Scalar {
    let mut host = [0u64; 2];
    host[0] = if compute == DataType::CUDA_R_64F { v.to_bits() } else { (v as f32).to_bits() as u64 };
    Scalar { host, device: 0 }
}

/// Whether the plan's C is column-major (rows one element apart).
pub(super) fn column_major_c(p: &Plan) -> bool {
    p.c.row_stride == 1 && p.c.col_stride > 1
}

/// Whether a plan that stages C has the kernel write it instead: short rows into a column-major C of
/// FP32 or FP64. Whole rows (a block's groups hold consecutive rows) write it through shared memory;
/// split rows (a block's rows scattered by the chain sort) an element at a time, where
/// `split_rows_write_c` says so. Saves the scratch's round trip and the staging launch. The tiles,
/// other types and a misaligned row-major C keep the staging copy.
/// `OXSPARSE_SPMM_DIRECT_C=0` stages C always (for comparisons).
pub(super) fn direct_c(s: &Settings, p: &Plan, nnz: i64, row_kernel: RowKernel) -> bool {
    let kernel = match (p.kernel, row_kernel) {
        (Kernel::Tiles { .. } | Kernel::TensorCore { .. }, RowKernel::ShortRows) => {
            Some((short_rows::shape(p.types, p.dims.n, false, s.row_shape.map(Into::into)), false))
        }
        (Kernel::Tiles { .. } | Kernel::TensorCore { .. }, RowKernel::SplitRows { shape, .. })
            if split_rows_write_c(c_bytes(p), p.dims.m, nnz, s.split_c_bytes) =>
        {
            Some((shape, true))
        }
        _ => None,
    };
    !s.stage_c_always && column_major_c(p) && kernel.is_some_and(|(shape, split)| k::short_rows_column_c(p.types, shape, split))
}

/// The shape whole short rows take (no split-row table) with these kernel `types`: the preferred
/// one (src/kernels/spmm.rs `short_rows_shape`), except 64-column groups (`NarrowX2`, 32 rows a
/// block) where the kernel writes a column-major FP32 C larger than the L2 model (`column_c`): a
/// block then writes runs of 128 bytes down C's columns instead of 64: mdual (C of 132 MB) and wave
/// (80 MB) gained 3-10%, the matrices whose C fits L2 did not move (bench/notes/spmm-column-major.md).
/// Whole rows write a column-major C through
/// shared memory in either shape (`short_rows_column_c`), so `direct_c` need not know. A forced
/// shape is taken as it is.
pub(super) fn whole_rows_shape(s: &Settings, device: &DeviceModel, p: &Plan, types: k::Types, column_c: bool) -> k::RowShape {
    let forced = s.row_shape;
    let preferred = short_rows::shape(types, p.dims.n, false, forced.map(Into::into));
    let x2 = k::RowShape::NarrowX2;
    if column_c
        && types.all(DataType::CUDA_R_32F)
        && preferred == k::RowShape::WideX2
        && forced.is_none()
        && c_bytes(p) > row_order::l2_model_bytes(device)
        && x2.fits(types, p.dims.n)
    {
        x2
    } else {
        preferred
    }
}

/// Bytes of one batch of the user's C (m x n values of C's type).
pub(super) fn c_bytes(p: &Plan) -> u64 {
    (p.dims.m.max(0) as u64).saturating_mul(p.dims.n.max(0) as u64).saturating_mul(p.types.c.size_bytes())
}

/// Whether split rows write a column-major C of `c_bytes` (m rows, nnz entries) themselves, an
/// element at a time: the sectors such scattered stores half-fill must be completed in L2 before
/// they go to memory. So C of at most SPLIT_C_BYTES, or of at most SPLIT_C_LONG_BYTES where rows
/// hold SPLIT_C_MEAN entries or more on average (fewer rows written per unit of work, so fewer
/// half-filled sectors at a time): up to 4 MiB writing C gained 15-20% over staging it; above it
/// rows of 29+ entries gained and rows of 15 lost 25-35% (bench/notes/spmm-column-major.md).
/// `forced` (`OXSPARSE_SPMM_SPLIT_C_BYTES`) replaces both bounds (for comparisons).
pub(super) fn split_rows_write_c(c_bytes: u64, m: i64, nnz: i64, forced: Option<u64>) -> bool {
    match forced {
        Some(bytes) => c_bytes <= bytes,
        None => c_bytes <= SPLIT_C_BYTES || (c_bytes <= SPLIT_C_LONG_BYTES && nnz >= SPLIT_C_MEAN * m),
    }
}

const SPLIT_C_BYTES: u64 = 4 << 20;
const SPLIT_C_LONG_BYTES: u64 = 16 << 20;
const SPLIT_C_MEAN: i64 = 24;

/// A vectorised kernel (rows or tiles), with its staging copies around it when op(B) or C is not
/// row-major.
fn launch_vectorised(
    h: &Handle,
    call: &Call,
    p: &Plan,
    (ws, token): (u64, u64),
    (tc, row_kernel): (TcState, RowKernel),
    shape: SpmmShape,
    (stage_b, stage_c): (bool, bool),
) -> Result<()> {
    let d = p.dims;
    let batches = d.batches as u32;
    let (mut b, mut c, mut types, mut kshape) = (p.b, p.c, p.types, shape);
    let row_major = |values: u64, rows: i64, batched: bool| SpmmDense {
        values,
        row_stride: d.n,
        col_stride: 1,
        batch_stride: if batched { rows * d.n } else { 0 },
        conj: 0,
        pad: 0,
    };
    if stage_b {
        b = row_major(ws + p.stage_b_at as u64, d.k, p.b.batch_stride != 0);
        let sp = SpmmStageParams {
            src: p.b,
            dst: b,
            rows: d.k,
            cols: d.n,
            alpha: Scalar::default(),
            beta: Scalar::default(),
            choice: SpmmChoice::default(),
        };
        k::stage_b(h, &sp, p.types.ab, if p.b.batch_stride != 0 { batches } else { 1 })?;
    }
    // Short rows write a column-major C themselves (kernels/spmm_short_rows.cu stages 4b and 4c).
    let column_c = stage_c && direct_c(&call.settings.spmm, p, call.a.nnz, row_kernel);
    let stage_c = stage_c && !column_c;
    if stage_c {
        // The kernel writes op(A) * op(B) exactly (alpha 1, beta 0) in the compute type; the
        // staging copy applies alpha and beta once, as the direct kernel does.
        c = row_major(ws + p.stage_c_at as u64, d.m, true);
        types = kernel_types(p);
        kshape.alpha = host_scalar(p.types.compute, 1.0);
        kshape.beta = host_scalar(p.types.compute, 0.0);
    }
    // Where a plain call's chain has short rows write a column-major C themselves, the copy of
    // the tiles' scratch runs only where the tiles do.
    let mut stage_c_choice = SpmmChoice::default();
    // The CUDA-core kernels wait for the staged op(B) themselves (griddepcontrol.wait), so their
    // launch may overlap the staging copy's (kernels/graph.rs `overlap_next`).
    let overlap_stage_b = || {
        if stage_b {
            kernels::graph::overlap_next(h)
        }
    };
    // The tile kernel, skipped on the GPU when the u32 at `skip_if_set` (if not 0) is set.
    let cuda_core_tiles = |size: u32, per_block: u32, skip_if_set: u64| {
        let tiles = SpmmTiles { skip_if_set, ..tiles_params(call, p, ws, size, per_block, token) };
        k::tiles(h, &SpmmTilesParams { shape: kshape, a: rows(call, p, ws), b, c, tiles }, types, p.index, batches)
    };
    match p.kernel {
        Kernel::RowVec { width, .. } => {
            let row_blocks = k::rowvec_row_blocks(types.ab, width, d.m)?;
            let (sched, chunk_blocks) = match p.schedule {
                Some(s) => {
                    let (lanes, _) = k::rowvec_geometry(types.ab, width);
                    let needed = (s.max_chunks as u64 * lanes as u64).div_ceil(k::BLOCK as u64);
                    (schedule_params(p, ws, s, token), needed.clamp(1, h.device_model.sm_count as u64 * 16) as u32)
                }
                None => (SpmmSchedule::default(), 0),
            };
            let rp = SpmmRowsParams {
                shape: kshape,
                a: rows(call, p, ws),
                b,
                c,
                sched,
                split: 0,
                split_token: 0,
                row_blocks,
                slices_per_block: 0,
                choice: SpmmChoice::default(),
            };
            overlap_stage_b();
            k::rowvec(h, &rp, types, p.index, width, chunk_blocks, batches)?;
        }
        // A plain call's choice on the GPU (plain_choice.rs): the verdict (after op(B)'s staging
        // copy and the row views, whole; the first launch of warp rows' build, where they are the
        // long branch), then whole short rows (as preprocess would run them: into a column-major C
        // themselves where they can), then the tiles or the rest of warp rows (the build's second
        // launch and the kernel) and, for them, C's staging copy; each returns at once unless the
        // verdict is its own.
        Kernel::Tiles { size, per_block, .. } if matches!(row_kernel, RowKernel::ShortRowsOr { .. }) => {
            let (RowKernel::ShortRowsOr { long, limit, epoch, host_at }, Some(plan::TileLayout { longest_at: Some(room), .. })) =
                (row_kernel, p.tiles)
            else {
                return Err(crate::error::Error::Internal("a plain call's choice without its room in the plan".into()));
            };
            let (at, a) = (ws + p.schedule_at as u64 + room as u64, rows(call, p, ws));
            let choice = |runs_if_long: u32, host_at: u64| SpmmChoice { at, epoch, host_at, runs_if_long, pad: 0 };
            // Warp rows' first launch reads every row's length anyway: it gives the verdict.
            let warp = match long {
                PlainLong::GpuWarpRows => Some(GpuWarpRows::new(call, p, (ws, token), (kshape, b, c, types), choice(1, 0))?),
                PlainLong::Tiles => None,
            };
            match &warp {
                Some(w) => k::warp_rows_count(h, &SpmmWarpRowsBuildParams { verdict_limit: limit, ..w.build }, p.index)?,
                None => k::rows_longer_than(h, &SpmmRowsLongerParams { a, m: d.m, limit, at, epoch }, p.index)?,
            }
            let direct = stage_c && direct_c(&call.settings.spmm, p, call.a.nnz, RowKernel::ShortRows);
            let (short_c, short_types, short_shape) = if direct { (p.c, p.types, shape) } else { (c, types, kshape) };
            let rp = SpmmRowsParams {
                shape: short_shape,
                a,
                b,
                c: short_c,
                sched: SpmmSchedule::default(),
                split: 0,
                split_token: token,
                row_blocks: 0,
                slices_per_block: 0,
                choice: choice(0, host_at),
            };
            kernels::graph::overlap_next(h);
            k::short_rows(
                h,
                &rp,
                (short_types, p.index),
                batches,
                (whole_rows_shape(&call.settings.spmm, call.device, p, short_types, direct), None, direct),
                |blocks, slices| short_rows::slices_per_block(call.device, &call.settings.spmm, blocks, slices),
            )?;
            kernels::graph::overlap_next(h);
            match &warp {
                Some(w) => w.write_and_run(h, types, p.index)?,
                None => {
                    let tiles = SpmmTiles { choice: choice(1, 0), ..tiles_params(call, p, ws, size, per_block, token) };
                    k::tiles(h, &SpmmTilesParams { shape: kshape, a, b, c, tiles }, types, p.index, batches)?;
                }
            }
            if direct {
                stage_c_choice = choice(1, 0);
            }
        }
        // A row kernel preprocess chose (for a tensor-core plan: where the build chose CUDA cores).
        Kernel::Tiles { .. } | Kernel::TensorCore { .. } if matches!(row_kernel, RowKernel::WarpRows { .. }) => {
            let (RowKernel::WarpRows { items, adds }, Some(layout)) = (row_kernel, p.warp_rows) else {
                return Err(crate::error::Error::Internal("warp rows without their region in the plan".into()));
            };
            let at = ws + p.warp_rows_at as u64;
            let wp = SpmmWarpRowsParams {
                shape: kshape,
                a: rows(call, p, ws),
                b,
                c,
                table: at,
                token,
                items: items as i64,
                adds: adds as i64,
                partials: at + layout.partials_at as u64,
                counters: at + layout.counters_at as u64,
                choice: SpmmChoice::default(),
            };
            overlap_stage_b();
            k::warp_rows(h, &wp, types, p.index, items as i64)?;
        }
        // A plain call's warp rows: the table built on the GPU, then the kernel.
        Kernel::Tiles { .. } if row_kernel == RowKernel::GpuWarpRows => {
            overlap_stage_b();
            GpuWarpRows::new(call, p, (ws, token), (kshape, b, c, types), SpmmChoice::default())?.run(h, types, p.index)?;
        }
        // Preprocess built that table: the kernel alone.
        Kernel::Tiles { .. } | Kernel::TensorCore { .. } if row_kernel == RowKernel::WarpRowsGpuTable => {
            let w = GpuWarpRows::new(call, p, (ws, token), (kshape, b, c, types), SpmmChoice::default())?;
            overlap_stage_b();
            k::warp_rows(h, &w.kernel, types, p.index, w.warps)?;
        }
        Kernel::Tiles { .. } | Kernel::TensorCore { .. } if row_kernel != RowKernel::Tiles => {
            let (split, blocks, shape) = match (row_kernel, p.tiles.and_then(|t| t.split_at)) {
                (RowKernel::SplitRows { blocks, shape }, Some((at, _))) => (ws + p.schedule_at as u64 + at as u64, Some(blocks), shape),
                _ => (0, None, whole_rows_shape(&call.settings.spmm, call.device, p, types, column_c)),
            };
            let rp = SpmmRowsParams {
                shape: kshape,
                a: rows(call, p, ws),
                b,
                c,
                sched: SpmmSchedule::default(),
                split,
                split_token: token,
                row_blocks: 0,
                slices_per_block: 0,
                choice: SpmmChoice::default(),
            };
            overlap_stage_b();
            let per_block = |blocks, slices| short_rows::slices_per_block(call.device, &call.settings.spmm, blocks, slices);
            k::short_rows(h, &rp, (types, p.index), batches, (shape, blocks, column_c), per_block)?;
        }
        Kernel::Tiles { size, per_block, .. } => {
            overlap_stage_b();
            cuda_core_tiles(size, per_block, 0)?
        }
        Kernel::TensorCore { strip, accurate, size, per_block, .. } => {
            let layout = p.tc.expect("a tensor-core plan has a format layout");
            let at = ws + p.tc_at as u64;
            let strip = strip as i64;
            let tp = SpmmTcParams {
                shape: kshape,
                a: rows(call, p, ws),
                b,
                c,
                fmt: layout.format(at, tc.reordered),
                values: layout.values(at),
                partials: layout.partials(at),
                strips: (d.n + strip - 1) / strip,
                strip_cols: strip,
            };
            if tc.choice != Some(false) {
                spmm_tc::spmm(h, &tp, types, p.index, accurate, call.a.nnz)?;
            }
            // The CUDA-core tile kernel, which returns at once when the build chose tensor cores
            // (a flag its blocks need not read when preprocess read the choice back).
            match tc.choice {
                Some(true) => {}
                Some(false) => cuda_core_tiles(size, per_block, 0)?,
                None => cuda_core_tiles(size, per_block, tp.fmt.use_tensor_cores)?,
            }
        }
        _ => unreachable!("launch_vectorised takes the vectorised kernels only"),
    }
    if stage_c {
        let sp = SpmmStageParams { src: c, dst: p.c, rows: d.m, cols: d.n, alpha: shape.alpha, beta: shape.beta, choice: stage_c_choice };
        // The copy waits for the kernel's scratch itself (kernels/spmm_stage.cu).
        kernels::graph::overlap_next(h);
        k::stage_c(h, &sp, p.types, batches)?;
    }
    Ok(())
}

/// A plain call's warp rows (`RowKernel::GpuWarpRows`; preprocess's too where it builds the same
/// table, `RowKernel::WarpRowsGpuTable`): the parameters of the table's build on the GPU in the
/// plan's room (its two launches' sums in the partial rows' room, which the kernel
/// writes only later; adds after all the room's item slots; `token` stamps it) and of the kernel
/// over it, whose grid covers the items the matrix may make. Each launch returns at once unless
/// `choice` is its own.
pub(super) struct GpuWarpRows {
    build: SpmmWarpRowsBuildParams,
    kernel: SpmmWarpRowsParams,
    warps: i64,
}

impl GpuWarpRows {
    fn new(
        call: &Call,
        p: &Plan,
        (ws, token): (u64, u64),
        (shape, b, c, types): (SpmmShape, SpmmDense, SpmmDense, k::Types),
        choice: SpmmChoice,
    ) -> Result<GpuWarpRows> {
        let build = GpuWarpRows::build_params(call, p, (ws, token), types.ab, choice)?;
        let SpmmWarpRowsBuildParams { a, table, items_room, adds_room, counters, sums: partials, .. } = build;
        let kernel = SpmmWarpRowsParams { shape, a, b, c, table, token, items: items_room, adds: adds_room, partials, counters, choice };
        Ok(GpuWarpRows { build, kernel, warps: warp_rows::gpu_items_bound(p.dims.m, call.a.nnz) })
    }

    /// The build's parameters alone (preprocess's, which launches the kernel in later calls).
    pub(super) fn build_params(
        call: &Call,
        p: &Plan,
        (ws, token): (u64, u64),
        ab: DataType,
        choice: SpmmChoice,
    ) -> Result<SpmmWarpRowsBuildParams> {
        let Some(layout) = p.warp_rows else {
            return Err(crate::error::Error::Internal("warp rows built on the GPU without their region in the plan".into()));
        };
        let (d, nnz) = (p.dims, call.a.nnz);
        let at = ws + p.warp_rows_at as u64;
        Ok(SpmmWarpRowsBuildParams {
            a: rows(call, p, ws),
            m: d.m,
            piece: warp_rows::PIECE,
            whole: warp_rows::whole_max(nnz, call.settings.spmm.warp_rows_whole),
            table: at,
            token,
            items_room: layout.room.items,
            adds_room: layout.room.adds,
            counters: at + layout.counters_at as u64,
            slices: k::warp_rows_slices(d.n, ab),
            // The partial rows' room, which the kernel writes only later.
            sums: at + layout.partials_at as u64,
            chunks: warp_rows::gpu_chunks(d.m),
            chunk_rows: warp_rows::gpu_chunk_rows(d.m),
            verdict_limit: 0,
            choice,
        })
    }

    /// The build's second launch and the kernel, after its first (`k::warp_rows_count`).
    fn write_and_run(&self, h: &Handle, types: k::Types, index: IndexType) -> Result<()> {
        k::warp_rows_write(h, &self.build, index)?;
        kernels::graph::overlap_next(h);
        k::warp_rows(h, &self.kernel, types, index, self.warps)
    }

    /// The whole of it.
    fn run(&self, h: &Handle, types: k::Types, index: IndexType) -> Result<()> {
        k::warp_rows_build(h, &self.build, index)?;
        kernels::graph::overlap_next(h);
        k::warp_rows(h, &self.kernel, types, index, self.warps)
    }
}

/// Enqueues the chosen kernel (`row_kernel`: which CUDA-core kernel a tile-kernel plan runs).
pub(super) fn launch(h: &Handle, call: &Call, p: &Plan, (ws, token): (u64, u64), tc: TcState, row_kernel: RowKernel) -> Result<()> {
    // SAFETY: the FFI layer checked alpha and beta are non-NULL; in host mode they point to a
    // value of the compute type (the API's contract).
    let (alpha, beta): (Scalar, Scalar) =
        unsafe { (kernels::scalar(h, call.alpha, call.compute)?, kernels::scalar(h, call.beta, call.compute)?) };
    let d = p.dims;
    let shape = SpmmShape { m: d.m, k: d.k, n: d.n, alpha, beta };
    let batches = d.batches as u32;
    let a = call.a;
    match p.kernel {
        Kernel::Nothing => Ok(()),
        Kernel::RowsStrided => {
            let rp = SpmmRowsParams {
                shape,
                a: rows(call, p, ws),
                b: p.b,
                c: p.c,
                sched: SpmmSchedule::default(),
                split: 0,
                split_token: 0,
                row_blocks: 0,
                slices_per_block: 0,
                choice: SpmmChoice::default(),
            };
            k::rows_strided(h, &rp, p.types, p.index, batches)
        }
        Kernel::RowVec { stage_b, stage_c, .. } | Kernel::Tiles { stage_b, stage_c, .. } | Kernel::TensorCore { stage_b, stage_c, .. } => {
            launch_vectorised(h, call, p, (ws, token), (tc, row_kernel), shape, (stage_b, stage_c))
        }
        Kernel::Bsr(path) | Kernel::BlockedEll(path) => {
            let (row_block, col_block, ell_slots, col_major, bnnz) = match a.format {
                FormatInfo::Bsr { row_block, col_block, block_order, bnnz, .. } => {
                    (row_block, col_block, 0, block_order == Order::OXSPARSE_ORDER_COL, bnnz)
                }
                FormatInfo::BlockedEll { block_size, ell_cols } => (block_size, block_size, ell_cols / block_size, false, 0),
                _ => unreachable!("a block format"),
            };
            let bp = SpmmBlockedParams {
                shape,
                b: p.b,
                c: p.c,
                offsets: a.arrays.offsets,
                col_ind: a.arrays.indices,
                values: a.arrays.values,
                base: a.index_base.offset(),
                row_block,
                col_block,
                ell_slots,
                col_major_blocks: col_major as i32,
                pad: 0,
            };
            let ell = matches!(a.format, FormatInfo::BlockedEll { .. });
            k::blocked(h, &bp, ell, path, p.types, p.index, bnnz)
        }
    }
}
