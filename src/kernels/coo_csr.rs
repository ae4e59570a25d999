//! Launchers for `kernels/coo_csr.cu`: COO row indices to CSR offsets and back (coo2csr: blocks
//! over tiles of 2048 entries, each offset found by a search of its tile's rows, on large matrices
//! of short rows, else a thread per 8 entries; each with a warp per whole chunk of offsets inside
//! one run; csr2coo: a block per 1024 entries on small matrices, else a warp per range of tiles),
//! and the identity permutation.

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
/// csr2coo's probe form (PROBE_TILE, ROWS and COARSE in the .cu): entries a block, rows a block
/// of rows, and the most blocks of rows it can read the starts of at once.
const PROBE_TILE: u64 = 1024;
const PROBE_ROWS: i64 = 256;
const PROBE_COARSE: i64 = 2048;
/// Where the probe form is taken by default: up to PROBE_ANY_NNZ entries, and up to
/// PROBE_SHORT_NNZ where rows average fewer than PROBE_SHORT_ROW entries. Its blocks hold their
/// two reads' latency for 1024 entries each, so from a few hundred thousand entries on it falls
/// behind the streaming kernel, except on short rows, where the streaming warps reload their
/// window of 32 rows several times a tile.
const PROBE_ANY_NNZ: i64 = 1 << 17;
const PROBE_SHORT_NNZ: i64 = 1 << 19;
const PROBE_SHORT_ROW: i64 = 16;
/// Most warps csr2coo starts: a few per SM slot on any current GPU, each then walking several
/// tiles so that its one search is paid once.
const CSR2COO_WARPS: u64 = 6144;

/// Offsets a chunk of coo2csr's tile form, and entries a tile of it (WIDE_CHUNK and
/// TILE_ENTRIES in the .cu).
const WIDE_CHUNK: u64 = 2048;
const TILE_ENTRIES: u64 = 2048;
/// Where the tile form is taken: from TILE_MIN_NNZ entries, where rows hold fewer than
/// TILE_MAX_ROW entries on average, and where rows are at most TILE_ROWS_PER_ENTRY times the
/// entries. Below that size a call is its latency, and a tile's chain (load, stage, a search of
/// 11 steps a few times) is longer than a thread's few runs; on long rows most of the thread
/// form's boundaries have no run to write; with many more rows than entries, a tile's offsets are
/// many, each a search.
const TILE_MIN_NNZ: i64 = 1 << 19;
const TILE_MAX_ROW: i64 = 32;
const TILE_ROWS_PER_ENTRY: i64 = 4;
/// Blocks of the tile form a multiprocessor holds (43 registers a thread, 8 KiB of shared
/// memory: at least 4 fit on any current GPU); each loads its next tile while it writes one.
const TILE_BLOCKS_AN_SM: u64 = 4;

/// Blocks of coo2csr's thread form: first a warp per whole chunk of offsets, then a thread per 8
/// entries (and the up to 4 scalar boundaries at either end, hence the floor of 4 threads).
fn coo2csr_blocks(nnz: u64, m: u64) -> u32 {
    let chunk_blocks = ((m + 1) / CHUNK).div_ceil(WARPS);
    let entry_threads = nnz.div_ceil(8).max(4);
    (chunk_blocks + entry_threads.div_ceil(CONVERSION_BLOCK as u64)) as u32
}

/// Blocks of coo2csr's tile form: a warp per whole wide chunk, then up to TILE_BLOCKS_AN_SM
/// blocks a multiprocessor striding over the tiles (nnz / TILE_ENTRIES + 1: the last holds the
/// offsets after the last entry's row).
fn coo2csr_tile_blocks(nnz: u64, m: u64, sm_count: u32) -> u32 {
    let chunk_blocks = ((m + 1) / WIDE_CHUNK).div_ceil(WARPS);
    let tiles = nnz / TILE_ENTRIES + 1;
    (chunk_blocks + tiles.min(TILE_BLOCKS_AN_SM * u64::from(sm_count.max(1)))) as u32
}

/// The two kernels of coo2csr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coo2CsrForm {
    /// Blocks over tiles of TILE_ENTRIES entries, each offset found by a search of its tile's rows.
    Tile,
    /// A thread per 8 entries writing the runs of rows between them.
    Thread,
}

/// coo2csr's kernel for `m` rows and `nnz` entries: the tile form where the sizes above favour
/// it, else the thread form; `forced` (`OXSPARSE_COO2CSR_KERNEL`: Some(true) tile, Some(false)
/// thread) overrides.
pub fn coo2csr_form(m: i64, nnz: i64, forced: Option<bool>) -> Coo2CsrForm {
    let favoured = nnz >= TILE_MIN_NNZ && nnz < TILE_MAX_ROW * m && m <= TILE_ROWS_PER_ENTRY * nnz;
    match forced.unwrap_or(favoured) {
        true => Coo2CsrForm::Tile,
        false => Coo2CsrForm::Thread,
    }
}

/// Blocks of csr2coo: a warp per tile up to CSR2COO_WARPS (the kernel shares the tiles out over
/// the warps it is given; 3 more entries allow for the alignment of the first tile).
fn csr2coo_blocks(nnz: u64) -> u32 {
    let tiles = (nnz + 3).div_ceil(TILE);
    tiles.min(CSR2COO_WARPS).div_ceil(WARPS).max(1) as u32
}

/// The two kernels of csr2coo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Csr2CooForm {
    /// A block per PROBE_TILE entries, their rows found in two reads of the offsets.
    Probe,
    /// A warp per range of tiles of entries, found by searching the offsets.
    Stream,
}

/// csr2coo's kernel for `m` rows and `nnz` entries: the probe form where its coarse offsets fit
/// (m up to 2048 x 256 rows) and the sizes above favour it, else streaming; `forced`
/// (`OXSPARSE_CSR2COO_KERNEL`: Some(true) probe wherever it fits, Some(false) stream) overrides.
pub fn csr2coo_form(m: i64, nnz: i64, forced: Option<bool>) -> Csr2CooForm {
    let fits = m <= PROBE_COARSE * PROBE_ROWS;
    let favoured = nnz <= PROBE_ANY_NNZ || (nnz <= PROBE_SHORT_NNZ && nnz < PROBE_SHORT_ROW * m);
    match forced.unwrap_or(favoured) && fits {
        true => Csr2CooForm::Probe,
        false => Csr2CooForm::Stream,
    }
}

/// `m + 1` offsets from `nnz` sorted row indices (m > 0).
pub fn coo2csr(h: &Handle, form: Coo2CsrForm, coo_rows: u64, nnz: i64, m: i64, csr_offsets: u64, base: i64) -> Result<()> {
    let p = Coo2CsrParams { coo_rows, csr_offsets, nnz, m, base };
    let (kernel, blocks) = match form {
        Coo2CsrForm::Tile => ("oxs_coo2csr_tile_i32", coo2csr_tile_blocks(nnz as u64, m as u64, h.device_model.sm_count)),
        Coo2CsrForm::Thread => ("oxs_coo2csr_i32", coo2csr_blocks(nnz as u64, m as u64)),
    };
    launch(h, FAMILY, kernel, (blocks, 1, 1), CONVERSION_BLOCK, 0, &p)
}

/// `nnz` row indices from `m + 1` offsets (m, nnz > 0).
pub fn csr2coo(h: &Handle, form: Csr2CooForm, csr_offsets: u64, nnz: i64, m: i64, coo_rows: u64, base: i64) -> Result<()> {
    let p = Csr2CooParams { csr_offsets, coo_rows, nnz, m, base };
    let (kernel, blocks) = match form {
        Csr2CooForm::Probe => ("oxs_csr2coo_probe_i32", (nnz as u64 + 3).div_ceil(PROBE_TILE) as u32),
        Csr2CooForm::Stream => ("oxs_csr2coo_i32", csr2coo_blocks(nnz as u64)),
    };
    launch(h, FAMILY, kernel, (blocks, 1, 1), CONVERSION_BLOCK, 0, &p)
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
        // The tile form: tiles of 2048 entries (one more past the last), and the wide chunks.
        assert_eq!(coo2csr_tile_blocks(0, 7, 132), 1);
        assert_eq!(coo2csr_tile_blocks(2047, 10, 132), 1);
        assert_eq!(coo2csr_tile_blocks(2048, 10, 132), 2, "boundary 2047 opens a second tile");
        // 3_000_002 offsets: 1_464 wide chunks in 183 blocks, and one tile.
        assert_eq!(coo2csr_tile_blocks(10, 3_000_001, 132), 183 + 1);
        assert_eq!(coo2csr_tile_blocks(6_000_000, 1_000_000, 132), 488u32.div_ceil(8) + 4 * 132, "blocks stride the tiles");
        assert_eq!(csr2coo_blocks(1), 1);
        assert_eq!(csr2coo_blocks(11_000_000), (CSR2COO_WARPS / WARPS) as u32);
    }

    #[test]
    fn coo2csr_takes_the_tile_form_on_large_matrices_of_short_rows_unless_forced() {
        let (big, m) = (TILE_MIN_NNZ, TILE_MIN_NNZ / 4);
        assert_eq!(coo2csr_form(m, big, None), Coo2CsrForm::Tile);
        assert_eq!(coo2csr_form(m, big - 1, None), Coo2CsrForm::Thread, "small: latency");
        assert_eq!(coo2csr_form(big / TILE_MAX_ROW, big, None), Coo2CsrForm::Thread, "long rows");
        assert_eq!(coo2csr_form(4 * big + 1, big, None), Coo2CsrForm::Thread, "many empty rows");
        assert_eq!(coo2csr_form(7, 0, None), Coo2CsrForm::Thread, "no entries: one run");
        assert_eq!(coo2csr_form(3_000_001, 10, Some(true)), Coo2CsrForm::Tile);
        assert_eq!(coo2csr_form(10, 1_000, Some(false)), Coo2CsrForm::Thread);
    }

    #[test]
    fn csr2coo_takes_the_probe_form_where_it_fits_unless_forced() {
        let most_rows = PROBE_COARSE * PROBE_ROWS;
        assert_eq!(csr2coo_form(10, 1, None), Csr2CooForm::Probe);
        assert_eq!(csr2coo_form(10, PROBE_ANY_NNZ, None), Csr2CooForm::Probe);
        assert_eq!(csr2coo_form(5_000, PROBE_ANY_NNZ + 1, None), Csr2CooForm::Stream, "long rows");
        assert_eq!(csr2coo_form(100_000, PROBE_SHORT_NNZ, None), Csr2CooForm::Probe, "short rows");
        assert_eq!(csr2coo_form(100_000, PROBE_SHORT_NNZ + 1, None), Csr2CooForm::Stream);
        assert_eq!(csr2coo_form(most_rows + 1, 1, None), Csr2CooForm::Stream, "too many rows for the coarse offsets");
        assert_eq!(csr2coo_form(10, 1, Some(false)), Csr2CooForm::Stream);
        assert_eq!(csr2coo_form(10, 1 << 30, Some(true)), Csr2CooForm::Probe);
        assert_eq!(csr2coo_form(most_rows + 1, 1, Some(true)), Csr2CooForm::Stream, "forced only where it fits");
    }
}
