//! Launchers for `kernels/csr2csc.cu`: the stages of the stable CSR-to-CSC transpose, in order.

use super::params::csr2csc::Csr2cscParams;
use super::{grid_for, launch, BLOCK, MAX_GRID};
use crate::context::Handle;
use crate::error::Result;
use crate::kernel_name;

const FAMILY: &str = "csr2csc";
/// Column offsets one scan block covers (`BLOCK * SCAN_ROUNDS` in the kernel).
pub const SCAN_CHUNK: i64 = 256 * 8;
/// Consecutive entries one scatter thread walks (`SCATTER_ITEMS`).
const SCATTER_ITEMS: u64 = 8;
/// Columns a sort block takes at a time (`CHUNK_COLUMNS`).
const CHUNK_COLUMNS: u64 = 32;

/// Scan chunks over the `n + 1` column offsets.
pub fn scan_chunks(n: i64) -> i64 {
    crate::ops::ceil_div(n + 1, SCAN_CHUNK)
}

/// `cscColPtr[0..=n] <- p.fill`.
pub fn fill_offsets(h: &Handle, p: &Csr2cscParams) -> Result<()> {
    launch(h, FAMILY, "oxs_c2c_fill_offsets", (grid_for(p.n as u64 + 1, BLOCK), 1, 1), BLOCK, 0, p)
}

/// Counts, scans and scatters: afterwards `cscColPtr` is final and every slot holds an entry
/// number (scratch) and its row (`cscRowInd`), in the order the slots were claimed.
pub fn place_entries(h: &Handle, p: &Csr2cscParams) -> Result<()> {
    let chunks = p.chunks as u32;
    launch(h, FAMILY, "oxs_c2c_count", (grid_for(p.nnz as u64, BLOCK), 1, 1), BLOCK, 0, p)?;
    launch(h, FAMILY, "oxs_c2c_scan_reduce", (chunks, 1, 1), BLOCK, 0, p)?;
    launch(h, FAMILY, "oxs_c2c_scan_sums", (1, 1, 1), BLOCK, 0, p)?;
    launch(h, FAMILY, "oxs_c2c_scan_apply", (chunks, 1, 1), BLOCK, 0, p)?;
    let scatter_threads = (p.nnz as u64).div_ceil(SCATTER_ITEMS);
    launch(h, FAMILY, "oxs_c2c_scatter", (grid_for(scatter_threads, BLOCK), 1, 1), BLOCK, 0, p)
}

/// Sorts every column's slots by entry number and writes rows (with the base) and, when
/// `p.numeric`, values moved as words of `value_bytes`.
pub fn sort_columns(h: &Handle, p: &Csr2cscParams, value_bytes: u64) -> Result<()> {
    let width = match value_bytes {
        1 => "w1",
        2 => "w2",
        4 => "w4",
        8 => "w8",
        _ => "w16",
    };
    let grid = (p.n as u64).div_ceil(CHUNK_COLUMNS).clamp(1, MAX_GRID) as u32;
    launch(h, FAMILY, kernel_name!("oxs_c2c_sort_{width}").as_str(), (grid, 1, 1), BLOCK, 0, p)
}
