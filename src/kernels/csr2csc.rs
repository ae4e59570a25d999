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
/// Entries a chunk of the long stages aims at (a warp walks a chunk in order, 32 a round).
const LONG_ENTRIES: i64 = 2048;
/// Threads of a warp.
const WARP: u64 = 32;
/// Sort blocks the grid aims to give each multiprocessor, and the fewest columns a block takes.
const SORT_BLOCKS_AN_SM: i64 = 4;
const MIN_SORT_CHUNK: i64 = 8;

/// Chunks of the long stages for `nnz` entries: a power of two from the longest column a warp
/// sorts (256) to the longest a block sorts (4096); a column longer than this is long, and holds
/// its chunk cursors in its own slots of the scratch.
pub fn long_chunks(nnz: i64) -> i64 {
    ((nnz / LONG_ENTRIES).max(1) as u64).next_power_of_two().clamp(256, 4096) as i64
}

/// Columns a sort block takes at a time (a thread each): all its threads where the average column
/// is short enough for a thread to sort, fewer as columns grow, so that the columns its warps sort
/// (a warp a column, one after another) spread over more blocks; and few enough that the grid
/// gives each of the device's `sm_count` multiprocessors several blocks (a few thousand columns
/// in blocks of 64 left most of the device idle while each warp sorted eight in turn).
pub fn sort_chunk(nnz: i64, n: i64, sm_count: u32) -> i64 {
    let by_length = match nnz / n.max(1) {
        0..=8 => 256,
        9..=32 => 128,
        33..=128 => 64,
        _ => 32,
    };
    let by_grid = (n / (i64::from(sm_count.max(1)) * SORT_BLOCKS_AN_SM)).max(1);
    let by_grid = 1i64 << (63 - by_grid.leading_zeros()); // a power of two, at most n / blocks
    by_length.min(by_grid.max(MIN_SORT_CHUNK))
}

/// Scan chunks over the `n + 1` column offsets.
pub fn scan_chunks(n: i64) -> i64 {
    crate::ops::ceil_div(n + 1, SCAN_CHUNK)
}

/// `cscColPtr[0..=n] <- p.fill`.
pub fn fill_offsets(h: &Handle, p: &Csr2cscParams) -> Result<()> {
    launch(h, FAMILY, "oxs_c2c_fill_offsets", (grid_for(p.n as u64 + 1, BLOCK), 1, 1), BLOCK, 0, p)
}

/// Counts, scans and scatters: afterwards `cscColPtr` is final, the entries of long columns are in
/// place (rows and values), and every slot of a short column holds an entry number (scratch) and
/// its row (`cscRowInd`), in the order the slots were claimed; long columns are still marked in
/// `cscColPtr` (the sort unmarks them). The scatter also counts the long columns' chunks; the long
/// stages run when a column can hold more than `p.long_chunks` entries, and return at once when
/// the scan marked none. One scan chunk needs no chunk sums (`fill_offsets` writes its prefix).
pub fn place_entries(h: &Handle, p: &Csr2cscParams, value_bytes: u64) -> Result<()> {
    let chunks = p.chunks as u32;
    let columns = grid_for(p.n as u64, BLOCK);
    let long_columns = p.nnz > p.long_chunks;
    launch(h, FAMILY, "oxs_c2c_count", (grid_for(p.nnz as u64, BLOCK), 1, 1), BLOCK, 0, p)?;
    if chunks > 1 {
        launch(h, FAMILY, "oxs_c2c_scan_reduce", (chunks, 1, 1), BLOCK, 0, p)?;
        launch(h, FAMILY, "oxs_c2c_scan_sums", (1, 1, 1), BLOCK, 0, p)?;
    }
    launch(h, FAMILY, "oxs_c2c_scan_apply", (chunks, 1, 1), BLOCK, 0, p)?;
    let scatter_threads = (p.nnz as u64).div_ceil(SCATTER_ITEMS);
    launch(h, FAMILY, "oxs_c2c_scatter", (grid_for(scatter_threads, BLOCK), 1, 1), BLOCK, 0, p)?;
    if long_columns {
        let warps = grid_for(p.long_chunks as u64 * WARP, BLOCK);
        launch(h, FAMILY, "oxs_c2c_long_scan", (columns, 1, 1), BLOCK, 0, p)?;
        launch(h, FAMILY, kernel_name!("oxs_c2c_long_scatter_{}", width(value_bytes)).as_str(), (warps, 1, 1), BLOCK, 0, p)?;
    }
    Ok(())
}

/// The kernel suffix for values moved as words of `value_bytes`.
pub(crate) fn width(value_bytes: u64) -> &'static str {
    match value_bytes {
        1 => "w1",
        2 => "w2",
        4 => "w4",
        8 => "w8",
        _ => "w16",
    }
}

/// Sorts every short column's slots by entry number and writes rows (with the base) and, when
/// `p.numeric`, values moved as words of `value_bytes`; writes the long columns' ends.
pub fn sort_columns(h: &Handle, p: &Csr2cscParams, value_bytes: u64) -> Result<()> {
    let width = width(value_bytes);
    let grid = (p.n as u64).div_ceil(p.sort_chunk as u64).clamp(1, MAX_GRID) as u32;
    launch(h, FAMILY, kernel_name!("oxs_c2c_sort_{width}").as_str(), (grid, 1, 1), BLOCK, 0, p)
}
