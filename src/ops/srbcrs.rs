//! The native SR-BCRS object (`oxsparseCreateSrBcrs`, issue 60): an int4, int8 or int16 sparse
//! matrix as vectors of V consecutive rows sharing a column, each vector row's vectors padded to
//! the k depth of the mma its values feed, in device memory the object owns (layout:
//! docs/design/srbcrs.md). `create` builds it on the GPU from CSR; `spmm` multiplies it by an
//! int4, int8 or int16 dense matrix (at most as wide as A's values) on integer tensor cores with
//! exact int32 accumulation, int16 emulated from int8 mmas; an optional per-row FP32 scale
//! (`set_row_scale`) dequantises FP32 output in the same call. Unlike a BitTCF, the object holds
//! A's values: A's arrays may go after it is made.

use crate::context::{DeviceMemory, Handle};
use crate::descr::{DnMat, FormatInfo, SpMat};
use crate::device::DeviceModel;
use crate::error::{invalid, unsupported, Error, Result};
use crate::kernels::params::srbcrs::{SrBcrsBuildParams, SrBcrsSpmmParams};
use crate::kernels::srbcrs::{self as launch, MAX_GRID_Y, TILE_N};
use crate::kernels::vector_ops::{copy_to_device_and_wait, copy_to_host_and_wait, zero_device};
use crate::types::{DataType, IndexType, Order};
use std::ffi::c_void;

/// Where the object's arrays start: every array 256-byte aligned (the SpMM loads 16-byte groups).
fn align(x: u64) -> u64 {
    x.div_ceil(256) * 256
}

/// Bits of an integer value type the object and its SpMM accept (int4, int8, int16).
pub fn value_bits(t: DataType) -> Option<i32> {
    match t {
        DataType::CUDA_R_4I => Some(4),
        DataType::CUDA_R_8I => Some(8),
        DataType::CUDA_R_16I => Some(16),
        _ => None,
    }
}

/// Vectors per stride block for values of `bits` bits: the k depth of the mma they feed (64 for
/// int4; 32 for int8 and int16, which is split into bytes).
pub fn stride_of(bits: i32) -> i64 {
    if bits == 4 {
        64
    } else {
        32
    }
}

/// The build's column chunks per vector row and their width: enough (vector row, chunk) items
/// for every thread the device holds, so that a few long vector rows do not each run as one
/// thread's long chain of dependent loads; chunks of at least 64 columns (each costs its rows a
/// search).
fn build_chunks(model: &DeviceModel, vector_rows: i64, cols: i64) -> (i64, i64) {
    const MIN_WIDTH: i64 = 64;
    let threads = (model.sm_count as i64 * model.threads_per_sm as i64).max(1);
    let wanted = crate::ops::ceil_div(threads, vector_rows.max(1)).max(1);
    let width = crate::ops::ceil_div(cols, wanted).max(MIN_WIDTH);
    (crate::ops::ceil_div(cols, width).max(1), width)
}

/// Warps per vector row of the SpMM: doubled (up to a block's 8) while the doubled grid stays
/// within a quarter of the device's warp slots and each warp would still get two stride blocks on
/// average, so that a few long vector rows do not run as a few long chains of dependent loads;
/// past that, the stash and the barrier cost more than the shorter chains save
/// (docs/design/srbcrs.md).
fn splits_for(model: &DeviceModel, vector_rows: i64, blocks: i64, column_tiles: i64) -> i32 {
    let slots = (model.sm_count as i64 * model.threads_per_sm as i64 / 32 / 4).max(1);
    let per_row = blocks / vector_rows.max(1);
    let mut splits = 1i64;
    while splits < launch::WARPS as i64 && vector_rows * column_tiles * 2 * splits <= slots && per_row >= 4 * splits {
        splits *= 2;
    }
    splits as i32
}

/// `splits` (the rule's or a forced value), halved while the grid's x extent (vector rows over
/// `WARPS / splits`) would pass 2^31 - 1.
fn fitting_splits(vector_rows: i64, mut splits: i32) -> i32 {
    while splits > 1 && crate::ops::ceil_div(vector_rows, launch::WARPS as i64 / splits as i64) > i32::MAX as i64 {
        splits /= 2;
    }
    splits
}

/// Warps per block of the SpMM: a block's most (8), halved down to `splits` while the grid would
/// give fewer than two blocks a multiprocessor, so that a small problem spreads over the device
/// instead of filling a few multiprocessors.
fn block_warps_for(model: &DeviceModel, vector_rows: i64, column_tiles: i64, splits: i32) -> i32 {
    let mut warps = launch::WARPS as i64;
    let blocks = |warps: i64| crate::ops::ceil_div(vector_rows, warps / splits as i64) * column_tiles;
    while warps > splits as i64 && blocks(warps) < 2 * model.sm_count as i64 {
        warps /= 2;
    }
    warps as i32
}

pub struct SrBcrs {
    pub rows: i64,
    pub cols: i64,
    /// Entries of the matrix it was made from (CSR: nnz; Blocked-ELL: rows x ellCols).
    pub nnz: i64,
    pub vector_length: i32,
    /// A's value type (`CUDA_R_4I`, `CUDA_R_8I` or `CUDA_R_16I`) and its bits.
    pub value_type: DataType,
    pub value_bits: i32,
    /// Vectors per stride block: 64 for int4 (`mma` m16n8k64 s4), 32 for int8 and int16.
    pub stride: i64,
    /// i32 per vector row plus one; i32 per vector; `vector_length` values per vector.
    pub vector_rows: i64,
    /// Stored vectors, padding included: a multiple of the stride per vector row.
    pub vectors: i64,
    /// The most stored vectors of one vector row.
    pub longest_row: i64,
    pub vec_ptr: u64,
    /// i32 per 32 stored vectors: the vector row they belong to (the SDDMM's warps look it up).
    pub warp_row: u64,
    pub vec_col: u64,
    pub vec_val: u64,
    pub device: i32,
    _memory: DeviceMemory,
    /// The FP32 row scale (`rows` floats), set by `set_row_scale`.
    row_scale: Option<DeviceMemory>,
}

impl SrBcrs {
    /// Builds the object from a CSR matrix of int4, int8 or int16 values with sorted, unique
    /// columns per row, or from a Blocked-ELL one with increasing block columns per block row
    /// (every element of a stored block an entry).
    pub fn create(h: &Handle, a: &SpMat, vector_length: i32) -> Result<SrBcrs> {
        let (ell_block, ell_cols) = match a.format {
            FormatInfo::Csr => (0, 0),
            FormatInfo::BlockedEll { block_size, ell_cols } => (block_size, ell_cols),
            _ => unsupported!("an SR-BCRS object is made from CSR or Blocked-ELL, not {:?}", a.format_enum()),
        };
        let Some(bits) = value_bits(a.value_type) else {
            unsupported!("an SR-BCRS object holds int4, int8 or int16 values (CUDA_R_4I, CUDA_R_8I, CUDA_R_16I), not {:?}", a.value_type)
        };
        if a.batch.count != 1 {
            unsupported!("an SR-BCRS object holds one matrix, not a batch of {}", a.batch.count);
        }
        if a.value_type == DataType::CUDA_R_16I && a.arrays.values % 2 != 0 {
            invalid!("matA's int16 values ({:#x}) must be 2-byte aligned", a.arrays.values);
        }
        if a.offset_type == IndexType::OXSPARSE_INDEX_16U || a.index_type == IndexType::OXSPARSE_INDEX_16U {
            unsupported!("CSR offsets and indices must be 32- or 64-bit");
        }
        if a.cols > i32::MAX as i64 {
            unsupported!("an SR-BCRS object stores 32-bit columns: A has {} columns", a.cols);
        }
        if ![2, 4, 8].contains(&vector_length) {
            invalid!("vectorLength ({vector_length}) must be 2, 4 or 8");
        }
        if crate::kernels::capturing(h)? {
            unsupported!("an SR-BCRS object is built outside stream capture (its size is read back)");
        }
        let v = vector_length as i64;
        let vector_rows = crate::ops::ceil_div(a.rows, v);
        let mut p = SrBcrsBuildParams {
            row_ptr: a.arrays.offsets,
            col_ind: a.arrays.indices,
            values: a.arrays.values,
            rows: a.rows,
            cols: a.cols,
            vector_rows,
            base: a.index_base.offset(),
            ell_block,
            ell_cols,
            vector_length,
            offsets_64: (a.offset_type == IndexType::OXSPARSE_INDEX_64I) as i32,
            indices_64: (a.index_type == IndexType::OXSPARSE_INDEX_64I) as i32,
            value_bits: bits,
            ..Default::default()
        };
        let stride = stride_of(bits);
        (p.chunks, p.chunk_width) = build_chunks(&h.device_model, vector_rows, a.cols);
        let counts = Self::count(h, &mut p, a.nnz)?;
        // Each vector row's vectors start where the previous one's padded count ends; its chunks'
        // vectors follow one another.
        let mut vec_ptr = Vec::with_capacity(vector_rows as usize + 1);
        let mut chunk_start = Vec::with_capacity(counts.len());
        let mut total = 0i64;
        vec_ptr.push(0i32);
        for row in counts.chunks(p.chunks as usize) {
            let mut at = total;
            for &n in row {
                chunk_start.push(at as i32);
                at += n as i64;
            }
            total += crate::ops::ceil_div(at - total, stride) * stride;
            if total > i32::MAX as i64 {
                return Err(Error::InsufficientResources(format!("more than {} vectors after padding", i32::MAX)));
            }
            vec_ptr.push(total as i32);
        }
        let object = Self::allocate(h, (a.rows, a.cols, a.nnz), vector_length, a.value_type, &vec_ptr)?;
        if total > 0 {
            let starts = DeviceMemory::alloc(h, 4 * chunk_start.len())?;
            let bytes: Vec<u8> = chunk_start.iter().flat_map(|x| x.to_le_bytes()).collect();
            copy_to_device_and_wait(h, starts.ptr, &bytes)?;
            zero_device(h, object.vec_col, 4 * total as usize)?;
            zero_device(h, object.vec_val, object.value_bytes())?;
            let (vec_ptr, vec_col, vec_val) = (object.vec_ptr, object.vec_col, object.vec_val);
            p = SrBcrsBuildParams { counts: 0, chunk_start: starts.ptr, vec_ptr, vec_col, vec_val, ..p };
            launch::fill(h, &p)?;
            launch::pad(h, &p)?;
            // The object is complete once it is handed back (usable from any stream), and the
            // chunks' starts may go.
            copy_to_host_and_wait(h, vec_ptr, &mut [0u8; 4])?;
        }
        Ok(object)
    }

    /// An object of `vec_ptr`'s vector rows and vectors, its device memory laid out (offsets, each 32 vectors' vector row, columns, values, every
    /// array 256-byte aligned) and the offsets and rows copied in; the columns and values are the
    /// caller's to write.
    pub(super) fn allocate(
        h: &Handle,
        (rows, cols, nnz): (i64, i64, i64),
        vector_length: i32,
        value_type: DataType,
        vec_ptr: &[i32],
    ) -> Result<SrBcrs> {
        let bits = value_bits(value_type).unwrap_or(8);
        let total = *vec_ptr.last().unwrap_or(&0) as i64;
        let longest_row = vec_ptr.windows(2).map(|w| (w[1] - w[0]) as i64).max().unwrap_or(0);
        // Each 32 vectors' vector row (every row's count is a multiple of 32).
        let warp_row: Vec<i32> =
            vec_ptr.windows(2).enumerate().flat_map(|(g, w)| std::iter::repeat_n(g as i32, ((w[1] - w[0]) / 32) as usize)).collect();
        let row_at = align(4 * vec_ptr.len() as u64);
        let col_at = align(row_at + 4 * warp_row.len() as u64);
        let val_at = align(col_at + 4 * total as u64);
        // Whole bytes: int4 vector rows hold multiples of 64 vectors.
        let value_bytes = (total * vector_length as i64 * bits as i64 / 8) as usize;
        let memory = DeviceMemory::alloc(h, val_at as usize + value_bytes)?;
        // The offsets and the warps' rows in one copy.
        let mut bytes: Vec<u8> = vec_ptr.iter().flat_map(|x| x.to_le_bytes()).collect();
        bytes.resize(row_at as usize, 0);
        bytes.extend(warp_row.iter().flat_map(|x| x.to_le_bytes()));
        copy_to_device_and_wait(h, memory.ptr, &bytes)?;
        Ok(SrBcrs {
            rows,
            cols,
            nnz,
            vector_length,
            value_type,
            value_bits: bits,
            stride: stride_of(bits),
            vector_rows: vec_ptr.len() as i64 - 1,
            vectors: total,
            longest_row,
            vec_ptr: memory.ptr,
            warp_row: memory.ptr + row_at,
            vec_col: memory.ptr + col_at,
            vec_val: memory.ptr + val_at,
            device: h.device,
            _memory: memory,
            row_scale: None,
        })
    }

    /// Bytes of the values array: `vector_length` values per vector, int4 two to a byte.
    pub fn value_bytes(&self) -> usize {
        (self.vectors * self.vector_length as i64 * self.value_bits as i64 / 8) as usize
    }

    /// Gives the object a copy of `rows` FP32 scales at device address `scale` (0: none), applied
    /// to each row of an FP32 SpMM output. Waits for the copy; a refused call changes nothing. A
    /// scale it replaces is freed as the object's memory is on destruction (after work using it).
    pub fn set_row_scale(&mut self, h: &Handle, scale: u64) -> Result<()> {
        if h.device != self.device {
            invalid!("the object lives on device {}, the handle on device {}", self.device, h.device);
        }
        if scale % 4 != 0 {
            invalid!("rowScale ({scale:#x}) must be 4-byte aligned (FP32)");
        }
        if scale == 0 || self.rows == 0 {
            self.row_scale = None;
            return Ok(());
        }
        let bytes = 4 * self.rows as usize;
        let mut host = vec![0u8; bytes];
        copy_to_host_and_wait(h, scale, &mut host)?;
        let memory = DeviceMemory::alloc(h, bytes)?;
        copy_to_device_and_wait(h, memory.ptr, &host)?;
        self.row_scale = Some(memory);
        Ok(())
    }

    /// Whether a row scale is set.
    pub fn has_row_scale(&self) -> bool {
        self.row_scale.is_some()
    }

    /// Distinct columns per (vector row, chunk), counted on the GPU after the source is checked
    /// sorted and in range (all zero without entries).
    fn count(h: &Handle, p: &mut SrBcrsBuildParams, nnz: i64) -> Result<Vec<i32>> {
        let g = (p.vector_rows * p.chunks) as usize;
        if nnz == 0 || g == 0 {
            return Ok(vec![0; g]);
        }
        let scratch = DeviceMemory::alloc(h, 4 * (g + 1))?;
        zero_device(h, scratch.ptr, 4 * (g + 1))?;
        p.counts = scratch.ptr;
        launch::validate(h, p)?;
        launch::count(h, p)?;
        let mut bytes = vec![0u8; 4 * (g + 1)];
        copy_to_host_and_wait(h, scratch.ptr, &mut bytes)?;
        let counts: Vec<i32> = bytes.chunks_exact(4).map(|w| i32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
        if counts[g] != 0 && p.ell_block > 0 {
            invalid!(
                "matA's block rows must hold strictly increasing block columns below {} (unsorted, repeated or out of range)",
                crate::ops::ceil_div(p.cols, p.ell_block)
            );
        }
        if counts[g] != 0 {
            invalid!("matA's rows must hold strictly increasing columns in [0, {}) (unsorted, repeated or out of range)", p.cols);
        }
        Ok(counts[..g].to_vec())
    }

    /// Checks B, C and the compute type for an SpMM over the object; fills everything but the
    /// scalars.
    fn plan(&self, h: &Handle, b: &DnMat, c: &DnMat, compute: DataType) -> Result<SrBcrsSpmmParams> {
        if h.device != self.device {
            invalid!("the object lives on device {}, the handle on device {}", self.device, h.device);
        }
        if b.rows != self.cols || c.rows != self.rows || c.cols != b.cols {
            invalid!(
                "shapes do not match: A {}x{}, B {}x{}, C {}x{} (need B {}xN and C {}xN)",
                self.rows,
                self.cols,
                b.rows,
                b.cols,
                c.rows,
                c.cols,
                self.cols,
                self.rows
            );
        }
        let b_bits = match value_bits(b.value_type) {
            Some(r) if r <= self.value_bits => r,
            _ => unsupported!(
                "an int{} object multiplies B of int4{}{} (CUDA_R_4I{}{}), not {:?} (pairs: sparse bits >= dense bits)",
                self.value_bits,
                if self.value_bits >= 8 { ", int8" } else { "" },
                if self.value_bits >= 16 { ", int16" } else { "" },
                if self.value_bits >= 8 { ", CUDA_R_8I" } else { "" },
                if self.value_bits >= 16 { ", CUDA_R_16I" } else { "" },
                b.value_type
            ),
        };
        if !matches!(compute, DataType::CUDA_R_32I | DataType::CUDA_R_32F) || c.value_type != compute {
            unsupported!("C and the compute type must both be CUDA_R_32I or both CUDA_R_32F (C {:?}, compute {:?})", c.value_type, compute);
        }
        if self.row_scale.is_some() && compute != DataType::CUDA_R_32F {
            unsupported!("the object has a row scale: C and the compute type must be CUDA_R_32F, not {:?}", compute);
        }
        let elem = b.value_type.size_bytes();
        if b.values % elem != 0 {
            invalid!("matB's values ({:#x}) must be {elem}-byte aligned for {:?}", b.values, b.value_type);
        }
        if b.batch_count != 1 || c.batch_count != 1 {
            unsupported!("B and C must be single matrices (batches {} and {})", b.batch_count, c.batch_count);
        }
        if self.vector_rows > launch::WARPS as i64 * i32::MAX as i64 {
            unsupported!("A has more than {} vector rows", launch::WARPS as i64 * i32::MAX as i64);
        }
        if b.cols > TILE_N * MAX_GRID_Y {
            unsupported!("N ({}) is larger than {}", b.cols, TILE_N * MAX_GRID_Y);
        }
        let column_tiles = crate::ops::ceil_div(b.cols, TILE_N);
        let splits = h.settings.srbcrs.splits.map_or_else(
            || splits_for(&h.device_model, self.vector_rows, self.vectors / self.stride, column_tiles),
            |forced| forced as i32,
        );
        let splits = fitting_splits(self.vector_rows, splits);
        let strides = |d: &DnMat| match d.order {
            Order::OXSPARSE_ORDER_ROW => (d.ld, 1),
            Order::OXSPARSE_ORDER_COL => (1, d.ld),
        };
        let ((b_row_stride, b_col_stride), (c_row_stride, c_col_stride)) = (strides(b), strides(c));
        Ok(SrBcrsSpmmParams {
            vec_ptr: self.vec_ptr,
            vec_col: self.vec_col,
            vec_val: self.vec_val,
            b: b.values,
            c: c.values,
            row_scale: self.row_scale.as_ref().map_or(0, |s| s.ptr),
            m: self.rows,
            n: b.cols,
            vector_rows: self.vector_rows,
            b_row_stride,
            b_col_stride,
            c_row_stride,
            c_col_stride,
            vector_length: self.vector_length,
            // Eight elements of `b_bits` bits are `b_bits` bytes.
            b_aligned: (b.order == Order::OXSPARSE_ORDER_ROW
                && b.values % b_bits as u64 == 0
                && b.ld % 8 == 0
                && b.ld * b_bits as i64 / 8 <= i32::MAX as i64) as i32,
            c_rows_aligned: (c.order == Order::OXSPARSE_ORDER_ROW && c.values % 16 == 0 && c.ld % 4 == 0) as i32,
            splits,
            block_warps: block_warps_for(&h.device_model, self.vector_rows, column_tiles, splits),
            ..Default::default()
        })
    }

    /// The workspace an SpMM needs: none (after the same checks as the call).
    pub fn spmm_buffer_size(&self, h: &Handle, b: &DnMat, c: &DnMat, compute: DataType) -> Result<usize> {
        self.plan(h, b, c, compute).map(|_| 0)
    }

    /// Checks the operands as the call will; there is nothing to precompute.
    pub fn spmm_preprocess(&self, h: &Handle, b: &DnMat, c: &DnMat, compute: DataType) -> Result<()> {
        self.plan(h, b, c, compute).map(|_| ())
    }

    /// C = alpha rowScale A B + beta C on the handle's stream; alpha and beta of `compute` type in the
    /// handle's pointer mode.
    ///
    /// # Safety
    /// In host pointer mode, `alpha` and `beta` point to values of the compute type.
    pub unsafe fn spmm(
        &self,
        h: &Handle,
        alpha: *const c_void,
        b: &DnMat,
        beta: *const c_void,
        c: &DnMat,
        compute: DataType,
    ) -> Result<()> {
        let p = self.plan(h, b, c, compute)?;
        if p.m == 0 || p.n == 0 {
            return Ok(());
        }
        let (alpha, beta) = (crate::kernels::scalar(h, alpha, compute)?, crate::kernels::scalar(h, beta, compute)?);
        let scaled = self.longest_row <= launch::MAX_SCALED_VECTORS;
        launch::spmm(h, &SrBcrsSpmmParams { alpha, beta, ..p }, self.value_bits, b.value_type, compute, scaled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_vector_rows_are_shared_among_warps_until_the_grid_fills() {
        let h200 = DeviceModel::sized(132, 60, 4800);
        // 64 vector rows of 43 blocks, 4 column tiles: 256 warps alone, 2048 at 8 splits (a
        // quarter of the H200's 8448 warp slots is 2112).
        assert_eq!(splits_for(&h200, 64, 64 * 43, 4), 8);
        // 128 rows of 39 blocks: 512 warps, 2048 at 4 splits; 8 would pass the quarter.
        assert_eq!(splits_for(&h200, 128, 128 * 39, 4), 4);
        // 15 blocks a row: an eighth warp would get fewer than two.
        assert_eq!(splits_for(&h200, 64, 64 * 15, 4), 4);
        // A block a row, or a grid past the quarter already: one warp a row.
        assert_eq!(splits_for(&h200, 512, 512, 4), 1);
        assert_eq!(splits_for(&h200, 512, 512 * 10, 4), 1);
        assert_eq!(splits_for(&h200, 0, 0, 1), 1);
        // The grid's x extent stays within 2^31 - 1 blocks, whatever chose the splits.
        let huge = 4 * i32::MAX as i64;
        assert_eq!(splits_for(&DeviceModel::sized(u32::MAX, 60, 4800), huge, huge * 64, 1), 8);
        assert_eq!(fitting_splits(huge, 8), 2);
        assert_eq!(fitting_splits(1000, 8), 8);
    }

    #[test]
    fn small_grids_take_smaller_blocks() {
        let h200 = DeviceModel::sized(132, 60, 4800);
        // 128 vector rows, 4 column tiles, one warp a row: 64 blocks of 8 warps would leave half
        // the device idle; 512 blocks of one warp do not.
        assert_eq!(block_warps_for(&h200, 128, 4, 1), 1);
        assert_eq!(block_warps_for(&h200, 128, 4, 2), 2);
        // Enough rows: full blocks; never fewer warps than the splits.
        assert_eq!(block_warps_for(&h200, 4096, 4, 1), 8);
        assert_eq!(block_warps_for(&h200, 16, 1, 8), 8);
        assert_eq!(block_warps_for(&h200, 0, 1, 1), 1);
    }
}
