//! Parameter blocks of `kernels/row_view.cu`: the conversion that gives SpMM a row-compressed view
//! of op(A) (see `src/kernels/row_view.rs` for the stages and the workspace layout).
//!
//! Every index array is of the type named by the kernel (`_i32` / `_i64`), and so are the sort's
//! keys, positions and counts: 64-bit on the `_i64` path, so nnz beyond 2^31 cannot overflow.
//!
//! The tiling constants below are exported to the generated header too, so the kernels' tile
//! shapes and the host's workspace arithmetic come from this one place.

/// Bits of the key sorted per radix pass.
pub const ROW_VIEW_RADIX_BITS: u32 = 8;
/// Digit values per pass (`1 << ROW_VIEW_RADIX_BITS`).
pub const ROW_VIEW_RADIX: u32 = 256;
/// Threads of every row_view kernel block. The sort's scatter gives thread `d` digit `d`, so this
/// must equal `ROW_VIEW_RADIX`.
pub const ROW_VIEW_BLOCK: u32 = 256;
/// Rounds of `ROW_VIEW_BLOCK` items one sort block walks through: a sort tile is
/// `ROW_VIEW_BLOCK * ROW_VIEW_SORT_ROUNDS` consecutive items, with one digit histogram each.
pub const ROW_VIEW_SORT_ROUNDS: u32 = 16;
/// Rounds of `ROW_VIEW_BLOCK` counts one scan block walks through.
pub const ROW_VIEW_SCAN_ROUNDS: u32 = 16;

/// Stage 1 (expand): for every source entry p, its sort key (output row, or `out_rows` when the
/// entry is dropped), its output column, and p itself.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RowViewExpandParams {
    /// `lines + 1` offsets when `major_is_offsets`, else one major index per entry.
    pub major: u64,
    /// The minor index of every entry.
    pub minor: u64,
    pub lines: i64,
    pub nnz: i64,
    pub base: i64,
    pub out_rows: i64,
    pub out_cols: i64,
    /// Outputs, `nnz` each: key, output column, source position.
    pub keys: u64,
    pub cols: u64,
    pub pos: u64,
    pub major_is_offsets: i32,
    /// 1: output row = minor coordinate, output column = major coordinate.
    pub key_is_minor: i32,
}

/// One radix pass: its histogram kernel and its scatter kernel read the same block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RowViewPassParams {
    pub keys_in: u64,
    pub pos_in: u64,
    pub keys_out: u64,
    pub pos_out: u64,
    /// `ROW_VIEW_RADIX * tiles` counts, digit-major (`counts[digit * tiles + tile]`): written by
    /// the histogram, turned into output starts by the scan, read by the scatter.
    pub counts: u64,
    pub nnz: i64,
    pub tiles: i64,
    /// The pass sorts the digit `(key >> shift) & (ROW_VIEW_RADIX - 1)`.
    pub shift: u32,
    pub pad: u32,
}

/// The in-place exclusive scan of `n` values at `data`, cut in blocks of
/// `ROW_VIEW_BLOCK * ROW_VIEW_SCAN_ROUNDS` values; `block_sums` holds one value per block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RowViewScanParams {
    pub data: u64,
    pub block_sums: u64,
    pub n: i64,
    pub blocks: i64,
}

/// Final stage: row offsets from the sorted keys, then the output columns of the sorted entries.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RowViewFinishParams {
    /// The sorted keys (they lie in `cols` until the column gather overwrites them).
    pub keys: u64,
    /// The sorted source positions (the view's `perm`).
    pub perm: u64,
    /// Output column of every source position, from stage 1.
    pub col_of: u64,
    pub offsets: u64,
    pub cols: u64,
    pub nnz: i64,
    pub out_rows: i64,
}
