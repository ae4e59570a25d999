//! Launchers for `kernels/spmv_columns.cu`: the column order SpMV may read op(A) in (FastLoad's
//! column sort, see `params/spmv_columns.rs`), and where its arrays lie in the workspace.

use super::params::spmm::SpmmRows;
use super::params::spmv_columns::*;
use super::{grid_for, launch, vector_ops};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::types::IndexType;

const FAMILY: &str = "spmv_columns";
const SORT_TILE: u64 = SPMV_COL_BLOCK as u64 * SPMV_COL_ROUNDS as u64;
const ALIGN: u64 = 256;
const CLASSES: usize = SPMV_COL_CLASSES as usize;

fn align_up(x: u64) -> u64 {
    x.div_ceil(ALIGN) * ALIGN
}

/// Byte offsets, from the region's start, of the column order's arrays. `order`, `cols` and `x`
/// are kept from preprocess to the calls; the rest is the build's scratch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColumnLayout {
    pub k: i64,
    pub nnz: i64,
    token: u64,
    stats: u64,
    counts: u64,
    keys: [u64; 2],
    pos: [u64; 2],
    sort_counts: u64,
    scan_sums: u64,
    /// The column at each new position (u32).
    pub order: u64,
    /// op(A)'s relabelled column indices (A's index type).
    pub cols: u64,
    /// x in the new order.
    pub x: u64,
    pub bytes: u64,
}

/// The build's statistics per count class (see `SpmvColumnsParams`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnStats {
    pub columns: [u64; CLASSES],
    pub entries: [u64; CLASSES],
    pub lines: [u64; CLASSES],
}

fn sort_tiles(k: i64) -> u64 {
    (k.max(1) as u64).div_ceil(SORT_TILE)
}

fn scan_blocks(len: u64) -> u64 {
    len.max(1).div_ceil(SORT_TILE)
}

impl ColumnLayout {
    /// For op(A) with `k` columns and `nnz` entries of `index` type, x values of `x_bytes`.
    pub fn new(k: i64, nnz: i64, index: IndexType, x_bytes: u64) -> ColumnLayout {
        let ku = k.max(1) as u64;
        let mut at = 0u64;
        let mut take = |bytes: u64| {
            let here = at;
            at += align_up(bytes.max(1));
            here
        };
        let token = take(8);
        let stats = take(3 * CLASSES as u64 * 8);
        let counts = take(ku * 4);
        let keys = [take(ku * 4), take(ku * 4)];
        let pos = [take(ku * 4), take(ku * 4)];
        let sort_counts = take(sort_tiles(k) * SPMV_COL_BLOCK as u64 * 4);
        let scan_sums = take(scan_blocks(sort_tiles(k) * SPMV_COL_BLOCK as u64) * 4);
        let cols = take(nnz.max(1) as u64 * index.size_bytes());
        let x = take(ku * x_bytes);
        // One radix pass writes the sorted positions into pos[1]: that is the order.
        ColumnLayout { k, nnz, token, stats, counts, keys, pos, sort_counts, scan_sums, order: pos[1], cols, x, bytes: at }
    }

    /// Whether the build's 32-bit counts and positions hold this matrix.
    pub fn fits(k: i64, nnz: i64) -> bool {
        k > 0 && nnz > 0 && k < u32::MAX as i64 && nnz < u32::MAX as i64
    }
}

fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

fn base_params(a: SpmmRows, l: &ColumnLayout, at: u64, token: u64) -> SpmvColumnsParams {
    SpmvColumnsParams {
        token_at: at + l.token,
        token,
        a,
        k: l.k,
        nnz: l.nnz,
        counts: at + l.counts,
        stats: at + l.stats,
        keys_in: at + l.keys[0],
        pos_in: at + l.pos[0],
        keys_out: at + l.keys[1],
        pos_out: at + l.pos[1],
        sort_counts: at + l.sort_counts,
        sort_tiles: sort_tiles(l.k) as i64,
        scan_sums: at + l.scan_sums,
        order: at + l.order,
        cols_out: at + l.cols,
        x_out: at + l.x,
        ..Default::default()
    }
}

/// Stages 1-2: counts the entries per column and reads back the statistics (a stream
/// synchronisation; not to be called while capturing).
pub fn measure(h: &Handle, a: SpmmRows, index: IndexType, l: &ColumnLayout, at: u64) -> Result<ColumnStats> {
    if !ColumnLayout::fits(l.k, l.nnz) {
        return Err(Error::Internal(format!("column order for k={} nnz={}", l.k, l.nnz)));
    }
    let p = base_params(a, l, at, 0);
    vector_ops::zero_device(h, p.stats, 3 * CLASSES * 8)?;
    vector_ops::zero_device(h, p.counts, l.k as usize * 4)?;
    let b = SPMV_COL_BLOCK;
    launch(h, FAMILY, &kernel_name!("oxs_spmv_col_count_{}", index_suffix(index)), (grid_for(l.nnz as u64, b), 1, 1), b, 0, &p)?;
    launch(h, FAMILY, "oxs_spmv_col_classify", (grid_for(l.k as u64, b), 1, 1), b, 0, &p)?;
    let mut raw = vec![0u8; 3 * CLASSES * 8];
    vector_ops::copy_to_host_and_wait(h, p.stats, &mut raw)?;
    let word = |i: usize| u64::from_ne_bytes(raw[8 * i..8 * i + 8].try_into().unwrap());
    Ok(ColumnStats {
        columns: std::array::from_fn(word),
        entries: std::array::from_fn(|c| word(CLASSES + c)),
        lines: std::array::from_fn(|c| word(2 * CLASSES + c)),
    })
}

/// Stages 3-5, after `measure`: sorts the columns by class, writes the relabelled indices, then
/// stamps `token`.
pub fn build(h: &Handle, a: SpmmRows, index: IndexType, l: &ColumnLayout, at: u64, token: u64) -> Result<()> {
    let p = base_params(a, l, at, token);
    let b = SPMV_COL_BLOCK;
    let tiles = sort_tiles(l.k) as u32;
    launch(h, FAMILY, "oxs_spmv_col_sort_histogram", (tiles, 1, 1), b, 0, &p)?;
    let len = sort_tiles(l.k) * SPMV_COL_BLOCK as u64;
    let blocks = scan_blocks(len);
    let s = SpmvColumnsParams { scan_data: p.sort_counts, scan_n: len as i64, scan_blocks: blocks as i64, ..p };
    launch(h, FAMILY, "oxs_spmv_col_scan_reduce", (blocks as u32, 1, 1), b, 0, &s)?;
    launch(h, FAMILY, "oxs_spmv_col_scan_sums", (1, 1, 1), b, 0, &s)?;
    launch(h, FAMILY, "oxs_spmv_col_scan_apply", (blocks as u32, 1, 1), b, 0, &s)?;
    launch(h, FAMILY, "oxs_spmv_col_sort_scatter", (tiles, 1, 1), b, 0, &p)?;
    launch(h, FAMILY, "oxs_spmv_col_rank", (grid_for(l.k as u64, b), 1, 1), b, 0, &p)?;
    launch(h, FAMILY, &kernel_name!("oxs_spmv_col_relabel_{}", index_suffix(index)), (grid_for(l.nnz as u64, b), 1, 1), b, 0, &p)?;
    launch(h, FAMILY, "oxs_spmv_col_stamp", (1, 1, 1), 1, 0, &p)
}

/// Stage 6, every call: x (values of `x_bytes` bytes) into the new order; or, when the buffer no
/// longer holds `token`, x and A's indices (`a`) copied as they are.
#[allow(clippy::too_many_arguments)]
pub fn gather_x(h: &Handle, a: SpmmRows, index: IndexType, x: u64, x_bytes: u64, l: &ColumnLayout, at: u64, token: u64) -> Result<()> {
    if !matches!(x_bytes, 1 | 2 | 4 | 8 | 16) {
        return Err(Error::Internal(format!("gathering x of {x_bytes}-byte values")));
    }
    let name = kernel_name!("oxs_spmv_col_gather_b{x_bytes}_{}", index_suffix(index));
    let p = SpmvColumnsParams { x, x_bytes: x_bytes as i64, ..base_params(a, l, at, token) };
    launch(h, FAMILY, &name, (grid_for(l.k as u64, SPMV_COL_BLOCK), 1, 1), SPMV_COL_BLOCK, 0, &p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_aligned_disjoint_and_keeps_the_order_apart() {
        let l = ColumnLayout::new(100_000, 3_000_000, IndexType::OXSPARSE_INDEX_32I, 4);
        let mut at = [l.token, l.stats, l.counts, l.keys[0], l.keys[1], l.pos[0], l.pos[1], l.sort_counts, l.scan_sums, l.cols, l.x];
        assert!(at.iter().all(|x| x % ALIGN == 0));
        at.sort();
        assert!(at.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(l.order, l.pos[1]);
        assert!(l.x - l.cols >= 3_000_000 * 4 && l.bytes - l.x >= 100_000 * 4);
        assert!(l.sort_counts - l.pos[1] >= 100_000 * 4);
    }

    #[test]
    fn fits_only_32_bit_counts() {
        assert!(ColumnLayout::fits(1, 1));
        assert!(!ColumnLayout::fits(0, 5) && !ColumnLayout::fits(5, 0));
        assert!(!ColumnLayout::fits(u32::MAX as i64, 5) && !ColumnLayout::fits(5, u32::MAX as i64));
    }
}
