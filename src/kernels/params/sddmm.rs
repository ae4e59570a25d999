//! Parameter blocks of the SDDMM kernels (`kernels/sddmm.cu`).

use super::spmm::SpmmRows;
use super::Scalar;

/// A dense operand read as lines of `k` contiguous elements (op(A)'s rows, op(B)'s columns):
/// line `i` of batch `b` starts at element `b * batch_stride + i * ld` of `values`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SddmmLines {
    pub values: u64,
    pub ld: i64,
    /// 0: one operand shared by every batch.
    pub batch_stride: i64,
}

/// `oxs_sddmm_{csr,bsr}_<ab>_<c>_<index>`: grid x over warps (`BLOCK / 32` per block), y over
/// batches. Warp `w` computes C's stored values `w * entries_per_warp ..` (at most
/// `entries_per_warp`, fewer at the end), `32 / group` at a time, `group` lanes per dot product.
/// `c` describes C's compressed rows (block rows for BSR; `perm` 0, `conj` 0); its values are
/// written in place. `n` bounds C's column indices: an entry outside [0, n) gets no product.
/// `vectors` is 1 when both operands' lines start on 16 bytes (they are then read 16 bytes at a time).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SddmmParams {
    pub c: SpmmRows,
    pub a: SddmmLines,
    pub b: SddmmLines,
    pub alpha: Scalar,
    pub beta: Scalar,
    /// C's compressed rows (block rows) and its stored values per batch.
    pub rows: i64,
    pub stored: i64,
    pub n: i64,
    pub k: i64,
    pub entries_per_warp: i64,
    /// BSR only: the block's rows and columns, and 1 when the values inside a block are column-major.
    pub row_block: i64,
    pub col_block: i64,
    pub col_major_blocks: i32,
    pub group: i32,
    pub vectors: i32,
    /// Which of the lean and tile kernels computes C (`TILES_*` in kernels/common/sddmm.cuh): 0
    /// the lean one, 1 as the survey at `survey` found, 2 the tiles.
    pub tiles: i32,
    /// The tiles' survey in the workspace (`SddmmSurveyParams`), where `tiles` is 1.
    pub survey: u64,
}

/// `oxs_sddmm_tiles_reset` (one block: zeroes the survey's counters) and
/// `oxs_sddmm_tiles_survey_<index>` (a block per 32 rows): C's CSR structure, and where the
/// counters lie (`src/ops/sddmm/tiles.rs`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SddmmSurveyParams {
    pub offsets: u64,
    pub cols: u64,
    pub base: i64,
    pub rows: i64,
    pub n: i64,
    pub survey: u64,
}

/// `oxs_sddmm_copy_lines_w<bytes>`: writes `lines` lines of `len` elements contiguously to `dst`
/// (line `i` of batch `b` at element `b * dst_batch_stride + i * dst_ld`) from a source whose
/// line `i` element `e` lies at `b * src_batch_stride + i * line_stride + e * elem_stride`. Grid x
/// over tiles of 32 lines, y over tiles of 32 elements (looping past 65,535 tiles), z over batches.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SddmmCopyParams {
    pub src: u64,
    pub dst: u64,
    pub lines: i64,
    pub len: i64,
    pub line_stride: i64,
    pub elem_stride: i64,
    pub src_batch_stride: i64,
    pub dst_ld: i64,
    pub dst_batch_stride: i64,
}
