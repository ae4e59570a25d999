//! Launcher for `kernels/spmm_blocked_tc_tma.cu`: BSR and Blocked-ELL SpMM on tensor cores with
//! 16-bit operands, copied by sm_90's tensor memory accelerator (docs/design/blocked-spmm.md). The
//! kernel reads A's values and op(B) through two tensor maps, which this file encodes on the host
//! for every call (`cuTensorMapEncodeTiled` only fills 128 bytes; no device work).

use super::params::spmm::{SpmmBlockedParams, SPMM_BLOCKED_TCA_COLS, SPMM_BLOCKED_TMA_STAGE};
use super::{launch, resident_blocks_sharing, MAX_GRID};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::types::{DataType, IndexType};
use cudarc::driver::sys;

/// Threads of a thread block: 8 warps multiply and one copies (`THREADS` in the kernel).
const THREADS: u32 = 288;
/// The widest piece (`Pieces` in the kernel): a stage's 32 k columns in pieces of the blocks'
/// columns up to this.
const PIECE_MAX: i64 = 32;
/// op(B)'s boxes are this many columns wide: 128 bytes, the widest swizzle's row.
const BOX_COLS: u32 = 64;
/// Thread blocks a multiprocessor holds (`MIN_BLOCKS` in the kernel: its registers allow 3).
const BLOCKS_PER_SM: u32 = 3;
/// The most stages the kernel keeps (`MAX_STAGES`).
const MAX_STAGES: u32 = 16;
/// Coordinates of a box are 32-bit signed, and the kernel places empty blocks' boxes at negative
/// rows: every row and column of a tensor must stay under this.
const COORD_LIMIT: i64 = i32::MAX as i64 - 256;

/// A `CUtensorMap` as the kernel takes it: 128 opaque bytes on 64-byte boundaries.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct TensorMap([u64; 16]);

/// The kernel's one parameter (`BlockedTmaParams` in the kernel): the maps first, so that the
/// block-row parameters start at byte 256 on either side.
#[repr(C)]
#[derive(Clone, Copy)]
struct BlockedTmaParams {
    a: TensorMap,
    b: TensorMap,
    p: SpmmBlockedParams,
}

/// Whether a call whose operands copy whole (`super::spmm::copies_whole`) can take the TMA
/// kernel: a device of sm_90 or newer, 16-bit operands, blocks of 16 or 32 rows, and every box
/// coordinate inside a 32-bit int. `bnnz`: BSR's stored blocks (A's values are `bnnz x rb` rows of
/// `cb`); Blocked-ELL's are `m` rows of `slots x cb`.
pub fn fits(h: &Handle, p: &SpmmBlockedParams, ell: bool, ab: DataType, bnnz: i64) -> bool {
    let value_rows = if ell { p.shape.m } else { bnnz.saturating_mul(p.row_block) };
    let value_cols = if ell { p.ell_slots.saturating_mul(p.col_block) } else { p.col_block };
    h.device_model.arch.0 >= 9
        && matches!(ab, DataType::CUDA_R_16F | DataType::CUDA_R_16BF)
        && matches!(p.row_block, 16 | 32)
        && [value_rows, value_cols, p.shape.k, p.shape.n].iter().all(|&d| (1..COORD_LIMIT).contains(&d))
}

/// Encodes the 2-D tiled map of the 16-bit `rows x cols` matrix at `base` whose rows lie
/// `row_bytes` apart, read in boxes of `box_rows x box_cols` swizzled by `swizzle`; boxes reaching
/// outside the matrix read zeros there.
fn encode(
    base: u64,
    rows: i64,
    cols: i64,
    row_bytes: i64,
    box_rows: u32,
    box_cols: u32,
    swizzle: sys::CUtensorMapSwizzle,
) -> Result<TensorMap> {
    let dims = [cols as u64, rows as u64];
    let strides = [row_bytes as u64];
    let boxes = [box_cols, box_rows];
    let element_strides = [1u32, 1];
    // SAFETY: zeroed bytes are a valid CUtensorMap (an opaque array), which the call overwrites.
    let mut map: sys::CUtensorMap = unsafe { std::mem::zeroed() };
    // SAFETY: every array holds the rank's entries (strides one fewer); the driver only reads them
    // and writes `map`; `base` is a device address it records, not dereferenced here.
    unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT16,
            2,
            base as *mut std::ffi::c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            boxes.as_ptr(),
            element_strides.as_ptr(),
            sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    }
    .result()
    .map_err(|e| Error::from_driver("cuTensorMapEncodeTiled", e))?;
    Ok(TensorMap(map.opaque))
}

/// Dynamic shared memory for the stages in flight: what leaves room for `BLOCKS_PER_SM` thread
/// blocks a multiprocessor (each also holds 1 KB the driver reserves and 1 KB of its own barriers
/// and alignment), at least two stages and at most `MAX_STAGES`, and 1 KB to place the first on a
/// 1 KB boundary.
fn stage_bytes(h: &Handle) -> u32 {
    const KB: u32 = 1024;
    let per_block = (h.device_model.shared_per_sm / BLOCKS_PER_SM).min(h.device_model.shared_per_block);
    (per_block.saturating_sub(3 * KB) / KB * KB).clamp(2 * SPMM_BLOCKED_TMA_STAGE, MAX_STAGES * SPMM_BLOCKED_TMA_STAGE) + KB
}

/// Launches the TMA kernel for a call that `fits`: a grid of one wave, each thread block walking a
/// range of consecutive block rows and `SPMM_BLOCKED_TCA_COLS` columns of C.
pub fn blocked(h: &Handle, p: &SpmmBlockedParams, ell: bool, ab: DataType, c: DataType, index: IndexType, bnnz: i64) -> Result<()> {
    use sys::CUtensorMapSwizzle::*;
    let (format, index) = (if ell { "bell" } else { "bsr" }, super::spmm::index_suffix(index));
    let (rows, cols, row_bytes) = if ell {
        let cols = p.ell_slots * p.col_block;
        (p.shape.m, cols, cols * 2)
    } else {
        (bnnz * p.row_block, p.col_block, p.col_block * 2)
    };
    // A piece: 16 k columns, or for N up to 64 the blocks' columns up to 32, copied as a box of a
    // block's rb rows x the piece's columns (rows of 32 or 64 bytes, swizzled as wide) and boxes of
    // op(B)'s piece rows x 64 columns. Pieces of 32 halve the copying warp's work a k column, which
    // bounds N up to 64; at N = 128, where L2's traffic bounds, they measured slower
    // (docs/design/blocked-spmm.md).
    let piece = if p.shape.n > 64 { 16 } else { p.col_block.min(PIECE_MAX) as u32 };
    let a_swizzle = if piece == 32 { CU_TENSOR_MAP_SWIZZLE_64B } else { CU_TENSOR_MAP_SWIZZLE_32B };
    let a = encode(p.values, rows, cols, row_bytes, p.row_block as u32, piece, a_swizzle)?;
    let b = encode(p.b.values, p.shape.k, p.shape.n, p.b.row_stride * 2, piece, BOX_COLS, CU_TENSOR_MAP_SWIZZLE_128B)?;
    let params = BlockedTmaParams { a, b, p: *p };
    let name = kernel_name!("oxs_spmm_{format}_tma_{}_{}_{index}_r{}_p{piece}", ab.kernel_suffix(), c.kernel_suffix(), p.row_block);
    let block_rows = (p.shape.m / p.row_block).max(1) as u64;
    let tiles = (p.shape.n.max(1) as u64).div_ceil(SPMM_BLOCKED_TCA_COLS as u64);
    let shared = stage_bytes(h);
    let wave =
        resident_blocks_sharing(h, "spmm_blocked_tc_tma", &name, THREADS, shared)?.max(1) as u64 * u64::from(h.device_model.sm_count);
    // Each thread block walks a range of consecutive block rows (their B rows shared in its slots).
    let grid = (block_rows.min(wave.div_ceil(tiles)).min(MAX_GRID) as u32, tiles.min(MAX_GRID) as u32, 1);
    launch(h, "spmm_blocked_tc_tma", &name, grid, THREADS, shared, &params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parameter_lays_out_as_the_kernel_reads_it() {
        assert_eq!(std::mem::offset_of!(BlockedTmaParams, b), 128);
        assert_eq!(std::mem::offset_of!(BlockedTmaParams, p), 256);
        assert_eq!(std::mem::align_of::<BlockedTmaParams>(), 64);
    }
}
