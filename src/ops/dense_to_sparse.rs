//! DenseToSparse: B = the nonzeros of the dense matrix A (entries equal to 0 are dropped, as in
//! cuSPARSE), into CSR, CSC, COO or Blocked-ELL.
//!
//! `_analysis` is the one read of all of A: it writes a bitmap of A's nonzeros into the user's
//! buffer, counts the nonzeros of every line (row for CSR and COO, column for CSC), scans the
//! counts into offsets with the base (into B's offsets array for CSR and CSC, into the buffer for
//! COO, which has none), then reads the last offset back and sets B's nnz: like cuSPARSE's, it
//! waits for the stream, so `SpMatGetSize` after it needs no synchronisation of its own, and it
//! cannot run while the stream is captured (NOT_SUPPORTED). `_convert`, given the buffer the
//! analysis wrote, reads the bitmap and only the nonzero elements of A, and writes every line's
//! nonzeros at its offset in increasing minor index (one warp a line; no atomics, so
//! deterministic). For Blocked-ELL the structure is the user's (ellCols and the block-column
//! indices, as cuSPARSE documents): `_analysis` does nothing and `_convert` fills the values,
//! zeros in padding slots. The workspace holds the bitmap (one bit an element of A), the scan's
//! chunk sums, plus the offsets for COO.

use crate::context::Handle;
use crate::descr::{DnMat, FormatInfo, SpMat};
use crate::error::{invalid, unsupported, Result};
use crate::kernels::dense_to_sparse as k;
use crate::kernels::params::dense_to_sparse::DenseToSparseParams;
use crate::ops::workspace::{align_up, ALIGN};
use crate::types::{DataType, DenseToSparseAlg, IndexType, Order};

/// What B's format asks of the conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// CSR (`csc: false`, lines are rows), CSC (`csc: true`, lines are columns) or COO (`coo`:
    /// lines are rows, offsets in the workspace, row indices written too).
    Lines {
        csc: bool,
        coo: bool,
    },
    BlockedEll {
        block_size: i64,
        ell_cols: i64,
    },
}

/// The checked call: its target and workspace layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub target: Target,
    /// Lines of A and elements per line (0, 0 for Blocked-ELL).
    pub lines: i64,
    pub line_len: i64,
    /// COO's offsets in the workspace (from its aligned start); None: B's own offsets.
    pub offsets_at: Option<usize>,
    pub chunk_sums_at: usize,
    pub chunks: i64,
    /// The nonzero bitmap: where it starts, and its 32-bit words a line.
    pub bitmap_at: usize,
    pub words: i64,
    /// Bytes to ask for, with room to align the buffer's start (0: none needed).
    pub bytes: usize,
}

/// Which call a plan is for: the pointers each needs differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    BufferSize,
    Analysis,
    Convert,
}

/// The value types cuSPARSE's DenseToSparse accepts; R_32I is not among them.
fn supported_value(t: DataType) -> bool {
    !matches!(t, DataType::CUDA_R_32I)
}

/// Validates the operands for `stage` in the API's order (sizes, pointers, types and formats)
/// and lays out the workspace; touches no GPU memory.
pub fn plan(a: &DnMat, b: &SpMat, _alg: DenseToSparseAlg, stage: Stage) -> Result<Plan> {
    if a.rows != b.rows || a.cols != b.cols {
        invalid!("matA is {} x {} but matB is {} x {}", a.rows, a.cols, b.rows, b.cols);
    }
    let target = match b.format {
        FormatInfo::Csr => Target::Lines { csc: false, coo: false },
        FormatInfo::Csc => Target::Lines { csc: true, coo: false },
        FormatInfo::Coo => Target::Lines { csc: false, coo: true },
        FormatInfo::BlockedEll { block_size, ell_cols } => Target::BlockedEll { block_size, ell_cols },
        _ => Target::Lines { csc: false, coo: false }, // refused below, after the pointer checks
    };
    let (lines, line_len) = match target {
        Target::Lines { csc: true, .. } => (a.cols, a.rows),
        Target::Lines { .. } => (a.rows, a.cols),
        Target::BlockedEll { .. } => (0, 0),
    };
    let empty = a.rows == 0 || a.cols == 0;
    if stage != Stage::BufferSize {
        if !empty && a.values == 0 {
            invalid!("matA values are NULL");
        }
        match target {
            Target::Lines { coo: false, .. } if b.arrays.offsets == 0 && lines > 0 => {
                invalid!("matB's offsets are NULL: DenseToSparse writes them in the analysis")
            }
            Target::Lines { coo, .. }
                if stage == Stage::Convert
                    && b.nnz > 0
                    && (b.arrays.indices == 0 || b.arrays.values == 0 || (coo && b.arrays.offsets == 0)) =>
            {
                invalid!("matB has {} entries but a NULL index or value array (set them after the analysis)", b.nnz)
            }
            Target::BlockedEll { ell_cols, .. }
                if stage == Stage::Convert && a.rows * ell_cols > 0 && (b.arrays.indices == 0 || b.arrays.values == 0) =>
            {
                invalid!("matB's Blocked-ELL column indices or values are NULL")
            }
            _ => {}
        }
    }

    if a.value_type != b.value_type {
        unsupported!("matA ({:?}) and matB ({:?}) must have the same value type", a.value_type, b.value_type);
    }
    if !supported_value(a.value_type) {
        unsupported!("value type {:?} is not supported by DenseToSparse", a.value_type);
    }
    if b.index_type == IndexType::OXSPARSE_INDEX_16U || b.offset_type == IndexType::OXSPARSE_INDEX_16U {
        unsupported!("only the index types OXSPARSE_INDEX_32I and OXSPARSE_INDEX_64I are supported");
    }
    if matches!(b.format, FormatInfo::Csr | FormatInfo::Csc) && b.offset_type != b.index_type {
        unsupported!("offsets ({:?}) and indices ({:?}) of different types are not supported", b.offset_type, b.index_type);
    }
    if a.batch_count > 1 || b.batch.count > 1 {
        unsupported!("batched matrices are not supported by DenseToSparse");
    }
    if matches!(b.format, FormatInfo::Bsr { .. } | FormatInfo::SlicedEll { .. }) {
        unsupported!("DenseToSparse converts to CSR, CSC, COO and Blocked-ELL, not {:?}", b.format_enum());
    }

    let index = b.index_type.size_bytes() as usize;
    Ok(match target {
        Target::BlockedEll { .. } => {
            Plan { target, lines, line_len, offsets_at: None, chunk_sums_at: 0, chunks: 0, bitmap_at: 0, words: 0, bytes: 0 }
        }
        Target::Lines { coo, .. } => {
            let chunks = k::scan_chunks(lines);
            let offsets_bytes = if coo { align_up((lines as usize + 1) * index) } else { 0 };
            let bitmap_at = offsets_bytes + align_up(chunks as usize * index);
            let words = crate::ops::ceil_div(line_len, 32);
            let bytes = ALIGN + bitmap_at + align_up(lines as usize * words as usize * 4);
            let offsets_at = coo.then_some(0);
            Plan { target, lines, line_len, offsets_at, chunk_sums_at: offsets_bytes, chunks, bitmap_at, words, bytes }
        }
    })
}

/// `oxsparseDenseToSparse_bufferSize`.
pub fn buffer_size(a: &DnMat, b: &SpMat, alg: DenseToSparseAlg) -> Result<usize> {
    Ok(plan(a, b, alg, Stage::BufferSize)?.bytes)
}

fn params(a: &DnMat, b: &SpMat, p: &Plan, ws: u64) -> DenseToSparseParams {
    let coo = matches!(p.target, Target::Lines { coo: true, .. });
    let (block_size, ell_cols) = match p.target {
        Target::BlockedEll { block_size, ell_cols } => (block_size, ell_cols),
        _ => (0, 0),
    };
    DenseToSparseParams {
        dense: a.values,
        offsets: p.offsets_at.map_or(b.arrays.offsets, |at| ws + at as u64),
        major: if coo { b.arrays.offsets } else { 0 },
        minor: b.arrays.indices,
        values: b.arrays.values,
        chunk_sums: ws + p.chunk_sums_at as u64,
        bitmap: ws + p.bitmap_at as u64,
        rows: a.rows,
        cols: a.cols,
        ld: a.ld,
        lines: p.lines,
        line_len: p.line_len,
        base: b.index_base.offset(),
        chunks: p.chunks,
        words: p.words,
        block_size,
        ell_cols,
        row_major: (a.order == Order::OXSPARSE_ORDER_ROW) as i32,
        csc: matches!(p.target, Target::Lines { csc: true, .. }) as i32,
    }
}

/// `oxsparseDenseToSparse_analysis`: writes the offsets and sets `b.nnz` (waits for the stream).
pub fn analysis(h: &Handle, a: &DnMat, b: &mut SpMat, alg: DenseToSparseAlg, buffer: u64) -> Result<()> {
    let p = plan(a, b, alg, Stage::Analysis)?;
    if matches!(p.target, Target::BlockedEll { .. }) {
        return Ok(()); // the structure, and so nnz, is the user's
    }
    if matches!(p.target, Target::Lines { coo: false, .. }) && b.arrays.offsets == 0 {
        b.nnz = 0; // no lines and no offsets array: nothing to write
        return Ok(());
    }
    if crate::kernels::capturing(h)? {
        unsupported!("DenseToSparse_analysis hands nnz to the host and cannot run while the stream is captured");
    }
    let ws = crate::ops::workspace::start(buffer, p.bytes, "DenseToSparse_bufferSize")?;
    crate::ops::workspace::report(h.settings.print_plan, "DenseToSparse", "analysis", &format_args!("{p:?}"));
    let kp = params(a, b, &p, ws);
    crate::kernels::graph::batched(h, || k::count_and_scan(h, &kp, a.value_type, b.index_type))?;
    let last = k::read_index_and_wait(h, kp.offsets + p.lines as u64 * b.index_type.size_bytes(), b.index_type)?;
    b.nnz = last - kp.base;
    Ok(())
}

/// `oxsparseDenseToSparse_convert`: writes B's indices and values (and COO's row indices) at the
/// offsets the analysis wrote, from the bitmap it left in `buffer`.
pub fn convert(h: &Handle, a: &DnMat, b: &SpMat, alg: DenseToSparseAlg, buffer: u64) -> Result<()> {
    let p = plan(a, b, alg, Stage::Convert)?;
    let ws = crate::ops::workspace::start(buffer, p.bytes, "DenseToSparse_bufferSize")?;
    crate::ops::workspace::report(h.settings.print_plan, "DenseToSparse", "convert", &format_args!("{p:?}"));
    let kp = params(a, b, &p, ws);
    match p.target {
        Target::BlockedEll { ell_cols, .. } if a.rows * ell_cols > 0 => k::fill_blocked_ell(h, &kp, a.value_type, b.index_type),
        Target::Lines { .. } if b.nnz > 0 && p.lines > 0 => k::compact(h, &kp, b.nnz, a.value_type, b.index_type),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descr::SpArrays;
    use crate::error::Error;
    use crate::types::DataType::*;
    use crate::types::IndexBase::*;
    use crate::types::IndexType::*;
    use crate::types::Order::*;
    use crate::types::Status::{self, *};

    const ALG: DenseToSparseAlg = DenseToSparseAlg::OXSPARSE_DENSETOSPARSE_ALG_DEFAULT;

    fn dense(rows: i64, cols: i64, t: DataType) -> DnMat {
        DnMat::new(rows, cols, cols.max(1), 0x8000, t, OXSPARSE_ORDER_ROW).unwrap()
    }
    /// A CSR target as the samples make it: offsets given, no entries yet.
    fn csr_target(rows: i64, cols: i64, it: IndexType, t: DataType) -> SpMat {
        let arrays = SpArrays { offsets: 0x1000, indices: 0, values: 0 };
        SpMat::compressed(false, rows, cols, 0, arrays, it, it, OXSPARSE_INDEX_BASE_ZERO, t).unwrap()
    }
    fn status(r: Result<Plan>) -> Option<Status> {
        r.err().map(|e: Error| e.status())
    }

    #[test]
    fn csr_scratch_is_the_chunk_sums_coo_adds_the_offsets() {
        let p = plan(&dense(5000, 300, CUDA_R_32F), &csr_target(5000, 300, OXSPARSE_INDEX_64I, CUDA_R_32F), ALG, Stage::Analysis).unwrap();
        assert_eq!((p.lines, p.line_len, p.chunks, p.offsets_at, p.words), (5000, 300, 3, None, 10));
        assert_eq!((p.bitmap_at, p.bytes), (ALIGN, ALIGN + ALIGN + align_up(5000 * 10 * 4)));
        let coo = SpMat::coo(5000, 300, 0, SpArrays::default(), OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ONE, CUDA_R_32F).unwrap();
        let p = plan(&dense(5000, 300, CUDA_R_32F), &coo, ALG, Stage::Analysis).unwrap();
        assert_eq!(p.offsets_at, Some(0));
        assert_eq!(p.chunk_sums_at, align_up(5001 * 4));
        assert_eq!(p.bitmap_at, align_up(5001 * 4) + ALIGN);
        assert_eq!(p.bytes, ALIGN + align_up(5001 * 4) + ALIGN + align_up(5000 * 10 * 4));
        let csc = SpMat::compressed(
            true,
            7,
            9,
            0,
            SpArrays { offsets: 0x1000, ..SpArrays::default() },
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_BASE_ZERO,
            CUDA_C_64F,
        )
        .unwrap();
        let p = plan(&dense(7, 9, CUDA_C_64F), &csc, ALG, Stage::Analysis).unwrap();
        assert_eq!((p.target, p.lines, p.line_len, p.words), (Target::Lines { csc: true, coo: false }, 9, 7, 1));
    }

    #[test]
    fn blocked_ell_needs_no_workspace() {
        let bell = SpMat::blocked_ell(4, 6, 2, 4, 0x2000, 0x3000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_16F).unwrap();
        let p = plan(&dense(4, 6, CUDA_R_16F), &bell, ALG, Stage::Convert).unwrap();
        assert_eq!((p.target, p.bytes), (Target::BlockedEll { block_size: 2, ell_cols: 4 }, 0));
    }

    #[test]
    fn checks_come_in_order() {
        let b = csr_target(4, 5, OXSPARSE_INDEX_32I, CUDA_R_32F);
        assert_eq!(status(plan(&dense(5, 4, CUDA_R_64F), &b, ALG, Stage::Analysis)), Some(OXSPARSE_STATUS_INVALID_VALUE), "shape first");
        let null_a = DnMat::new(4, 5, 5, 0, CUDA_R_64F, OXSPARSE_ORDER_ROW).unwrap();
        assert_eq!(status(plan(&null_a, &b, ALG, Stage::Analysis)), Some(OXSPARSE_STATUS_INVALID_VALUE), "pointers before types");
        assert!(plan(&null_a, &b, ALG, Stage::BufferSize).is_err(), "types still checked by bufferSize");
        assert_eq!(status(plan(&dense(4, 5, CUDA_R_64F), &b, ALG, Stage::Analysis)), Some(OXSPARSE_STATUS_NOT_SUPPORTED));
        assert_eq!(
            status(plan(&dense(4, 5, CUDA_R_32I), &csr_target(4, 5, OXSPARSE_INDEX_32I, CUDA_R_32I), ALG, Stage::Analysis)),
            Some(OXSPARSE_STATUS_NOT_SUPPORTED)
        );
        let mut no_offsets = b.clone();
        no_offsets.arrays.offsets = 0;
        assert_eq!(status(plan(&dense(4, 5, CUDA_R_32F), &no_offsets, ALG, Stage::Analysis)), Some(OXSPARSE_STATUS_INVALID_VALUE));
        assert!(plan(&dense(4, 5, CUDA_R_32F), &no_offsets, ALG, Stage::BufferSize).is_ok(), "bufferSize reads no array");
    }

    #[test]
    fn convert_needs_the_arrays_set_after_the_analysis() {
        let mut b = csr_target(4, 5, OXSPARSE_INDEX_32I, CUDA_R_32F);
        assert!(plan(&dense(4, 5, CUDA_R_32F), &b, ALG, Stage::Convert).is_ok(), "nnz 0: nothing to write");
        b.nnz = 3;
        assert_eq!(status(plan(&dense(4, 5, CUDA_R_32F), &b, ALG, Stage::Convert)), Some(OXSPARSE_STATUS_INVALID_VALUE));
        b.arrays = SpArrays { offsets: 0x1000, indices: 0x2000, values: 0x3000 };
        assert!(plan(&dense(4, 5, CUDA_R_32F), &b, ALG, Stage::Convert).is_ok());
    }

    #[test]
    fn other_formats_and_batches_are_refused() {
        let a = dense(4, 6, CUDA_R_32F);
        let arrays = SpArrays { offsets: 0x1000, indices: 0x2000, values: 0x3000 };
        let bsr = SpMat::bsr(
            (2, 2, 3),
            (2, 3),
            arrays,
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_BASE_ZERO,
            CUDA_R_32F,
            OXSPARSE_ORDER_ROW,
        )
        .unwrap();
        assert_eq!(status(plan(&a, &bsr, ALG, Stage::Analysis)), Some(OXSPARSE_STATUS_NOT_SUPPORTED));
        let mut b = csr_target(4, 6, OXSPARSE_INDEX_32I, CUDA_R_32F);
        b.set_strided_batch(2, 5, 7, 7).unwrap();
        assert_eq!(status(plan(&a, &b, ALG, Stage::Analysis)), Some(OXSPARSE_STATUS_NOT_SUPPORTED));
        let mixed = SpMat::compressed(false, 4, 6, 0, arrays, OXSPARSE_INDEX_64I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)
            .unwrap();
        assert_eq!(status(plan(&a, &mixed, ALG, Stage::Analysis)), Some(OXSPARSE_STATUS_NOT_SUPPORTED));
        for t in [CUDA_R_8I, CUDA_R_16F, CUDA_R_16BF, CUDA_R_64F, CUDA_C_16F, CUDA_C_16BF, CUDA_C_32F, CUDA_C_64F] {
            assert!(plan(&dense(4, 6, t), &csr_target(4, 6, OXSPARSE_INDEX_64I, t), ALG, Stage::Analysis).is_ok(), "{t:?}");
        }
    }
}
