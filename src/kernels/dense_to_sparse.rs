//! Launchers for `kernels/dense_to_sparse.cu`: the analysis (count, scan, read nnz back), the
//! compaction, and the Blocked-ELL value fill.

use super::name::KernelName;
use super::params::dense_to_sparse::DenseToSparseParams;
use super::{grid_for, launch, BLOCK};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::settings::D2sConvert;
use crate::types::{DataType, IndexType};

const FAMILY: &str = "dense_to_sparse";
/// Offsets one scan block covers (`BLOCK * SCAN_ROUNDS` in the kernel).
pub const SCAN_CHUNK: i64 = 256 * 8;
/// Threads of a warp: the count kernel gives one to each segment of a line, compact to each line.
const WARP: u64 = 32;
/// Elements of a line one count warp reads (`SEGMENT` in the kernel).
const SEGMENT: i64 = 4096;

/// Scan chunks over the `lines + 1` offsets.
pub fn scan_chunks(lines: i64) -> i64 {
    crate::ops::ceil_div(lines + 1, SCAN_CHUNK)
}

fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

fn name(stage: &str, value: DataType, index: IndexType) -> KernelName {
    kernel_name!("oxs_d2s_{stage}_{}_{}", value.kernel_suffix(), index_suffix(index))
}

/// Segments of SEGMENT elements a line of `line_len` is cut into.
fn segments(line_len: i64) -> i64 {
    if line_len > SEGMENT {
        crate::ops::ceil_div(line_len, SEGMENT)
    } else {
        1
    }
}

/// offsets[0..=lines] <- base + the nonzeros of the lines before each, and the bitmap.
pub fn count_and_scan(h: &Handle, p: &DenseToSparseParams, value: DataType, index: IndexType) -> Result<()> {
    let segments = segments(p.line_len);
    let ix = index_suffix(index);
    if segments > 1 {
        launch(h, FAMILY, &kernel_name!("oxs_d2s_zero_{ix}"), (grid_for(p.lines as u64 + 1, BLOCK), 1, 1), BLOCK, 0, p)?;
    }
    let warps = grid_for((p.lines.max(1) * segments) as u64 * WARP, BLOCK);
    launch(h, FAMILY, &name("count", value, index), (warps, 1, 1), BLOCK, 0, p)?;
    let chunks = p.chunks as u32;
    launch(h, FAMILY, &kernel_name!("oxs_d2s_scan_reduce_{ix}"), (chunks, 1, 1), BLOCK, 0, p)?;
    launch(h, FAMILY, &kernel_name!("oxs_d2s_scan_sums_{ix}"), (1, 1, 1), BLOCK, 0, p)?;
    launch(h, FAMILY, &kernel_name!("oxs_d2s_scan_apply_{ix}"), (chunks, 1, 1), BLOCK, 0, p)
}

/// A's density from which convert reads contiguous lines 16 bytes a lane: 1 element in
/// VECTORS_FROM nonzero. Below it, most 16-byte vectors hold no nonzero and visiting each costs more
/// than taking the nonzero bitmap words one by one (docs/design/conversions.md has the times).
const VECTORS_FROM: i64 = 40;

/// The convert kernel for A with `nnz` nonzeros of `lines * line_len` (the vectors kernel takes
/// the words path for lines not contiguous in A): `forced` (`OXSPARSE_D2S_CONVERT`) or by density.
pub fn convert_kernel(nnz: i64, lines: i64, line_len: i64, forced: Option<D2sConvert>) -> D2sConvert {
    let dense = nnz as i128 * VECTORS_FROM as i128 >= lines as i128 * line_len as i128;
    forced.unwrap_or(if dense { D2sConvert::Vectors } else { D2sConvert::Words })
}

/// Writes every line's nonzeros (`nnz` in all) at its offset, a warp a line.
pub fn compact(h: &Handle, p: &DenseToSparseParams, nnz: i64, value: DataType, index: IndexType) -> Result<()> {
    let stage = match convert_kernel(nnz, p.lines, p.line_len, h.settings.convert.d2s_convert) {
        D2sConvert::Words => "compact",
        D2sConvert::Vectors => "compact_vectors",
    };
    launch(h, FAMILY, &name(stage, value, index), (grid_for(p.lines as u64 * WARP, BLOCK), 1, 1), BLOCK, 0, p)
}

/// Blocked-ELL: fills the `rows x ell_cols` values from A.
pub fn fill_blocked_ell(h: &Handle, p: &DenseToSparseParams, value: DataType, index: IndexType) -> Result<()> {
    let grid = grid_for((p.rows * p.ell_cols) as u64, BLOCK);
    launch(h, FAMILY, &name("bell", value, index), (grid, 1, 1), BLOCK, 0, p)
}

/// The index at device address `at` (of `index` type), read after the work on the handle's stream,
/// waiting for it: the analysis hands nnz to the host, as cuSPARSE's does.
pub fn read_index_and_wait(h: &Handle, at: u64, index: IndexType) -> Result<i64> {
    let mut bytes = [0u8; 8];
    let n = index.size_bytes() as usize;
    super::graph::flush(h)?;
    let _bound = h.bind()?;
    let stream = h.cu_stream();
    // SAFETY: `at` holds one index of `index` type (the last offset); the wait keeps `bytes`
    // borrowed until the copy is complete.
    unsafe {
        cudarc::driver::result::memcpy_dtoh_async(&mut bytes[..n], at, stream).map_err(|e| Error::from_driver("cuMemcpyDtoHAsync", e))?;
        cudarc::driver::result::stream::synchronize(stream).map_err(|e| Error::from_driver("cuStreamSynchronize", e))?;
    }
    Ok(if n == 8 { i64::from_le_bytes(bytes) } else { i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as i64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn convert_kernels_follow_the_density_unless_forced() {
        let n = 16_384;
        let by = |nnz| convert_kernel(nnz, n, n, None);
        assert_eq!(by(n * n / 100), D2sConvert::Words, "1%");
        assert_eq!(by((n * n + 39) / 40), D2sConvert::Vectors, "2.5%");
        assert_eq!(by(n * n / 10), D2sConvert::Vectors, "10%");
        assert_eq!(convert_kernel(n * n / 10, n, n, Some(D2sConvert::Words)), D2sConvert::Words);
        assert_eq!(segments(4096), 1);
        assert_eq!(segments(4097), 2);
    }
}
