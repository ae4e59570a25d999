//! Launchers for `kernels/coo_csr.cu`: COO row indices to CSR offsets and back (streaming
//! kernels: a thread per 8 entries plus a warp per whole chunk of offsets inside one run for
//! coo2csr, a warp per range of tiles for csr2coo), and the identity permutation.

use super::params::coo_csr::*;
use super::{grid_for, launch, BLOCK};
use crate::context::Handle;
use crate::error::Result;

const FAMILY: &str = "coo_csr";
/// Threads a block of the conversion kernels (BLOCK in the .cu; 8 warps).
const CONVERSION_BLOCK: u32 = 256;
const WARPS: u64 = CONVERSION_BLOCK as u64 / 32;
/// Offsets a chunk of coo2csr (CHUNK in the .cu).
const CHUNK: u64 = 256;
/// Entries a tile of csr2coo (TILE in the .cu).
const TILE: u64 = 256;
/// Most warps csr2coo starts: a few per SM slot on any current GPU, each then walking several
/// tiles so that its one search is paid once.
const CSR2COO_WARPS: u64 = 6144;

/// Blocks of coo2csr: first a warp per whole chunk of offsets, then a thread per 8 entries (and
/// the up to 4 scalar boundaries at either end, hence the floor of 4 threads).
fn coo2csr_blocks(nnz: u64, m: u64) -> u32 {
    let chunk_blocks = ((m + 1) / CHUNK).div_ceil(WARPS);
    let entry_threads = nnz.div_ceil(8).max(4);
    (chunk_blocks + entry_threads.div_ceil(CONVERSION_BLOCK as u64)) as u32
}

/// Blocks of csr2coo: a warp per tile up to CSR2COO_WARPS (the kernel shares the tiles out over
/// the warps it is given; 3 more entries allow for the alignment of the first tile).
fn csr2coo_blocks(nnz: u64) -> u32 {
    let tiles = (nnz + 3).div_ceil(TILE);
    tiles.min(CSR2COO_WARPS).div_ceil(WARPS).max(1) as u32
}

/// `m + 1` offsets from `nnz` sorted row indices (m > 0).
pub fn coo2csr(h: &Handle, coo_rows: u64, nnz: i64, m: i64, csr_offsets: u64, base: i64) -> Result<()> {
    let p = Coo2CsrParams { coo_rows, csr_offsets, nnz, m, base };
    launch(h, FAMILY, "oxs_coo2csr_i32", (coo2csr_blocks(nnz as u64, m as u64), 1, 1), CONVERSION_BLOCK, 0, &p)
}

/// `nnz` row indices from `m + 1` offsets (m, nnz > 0).
pub fn csr2coo(h: &Handle, csr_offsets: u64, nnz: i64, m: i64, coo_rows: u64, base: i64) -> Result<()> {
    let p = Csr2CooParams { csr_offsets, coo_rows, nnz, m, base };
    launch(h, FAMILY, "oxs_csr2coo_i32", (csr2coo_blocks(nnz as u64), 1, 1), CONVERSION_BLOCK, 0, &p)
}

/// `p[i] = i` for `i < n` (n > 0): four values a thread's store.
pub fn identity(h: &Handle, p: u64, n: i64) -> Result<()> {
    let params = IdentityParams { p, n };
    launch(h, FAMILY, "oxs_identity_permutation_i32", (grid_for((n as u64).div_ceil(4), BLOCK), 1, 1), BLOCK, 0, &params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_cover_the_work() {
        // No entries: one thread for boundary -1, no chunk below 256 offsets.
        assert_eq!(coo2csr_blocks(0, 7), 1);
        // 3_000_002 offsets: 11_718 chunks in 1_465 blocks, and one entry block.
        assert_eq!(coo2csr_blocks(10, 3_000_001), 1_465 + 1);
        assert_eq!(coo2csr_blocks(8 * 256 + 1, 10), 2);
        assert_eq!(csr2coo_blocks(1), 1);
        assert_eq!(csr2coo_blocks(11_000_000), (CSR2COO_WARPS / WARPS) as u32);
    }
}
