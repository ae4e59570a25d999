//! SDDMM by dense tiles (`kernels/sddmm_tiles.cu`): where C's rows share their columns in blocks
//! (sliding windows, block-sparse attention masks, meshes), a thread block computes a tile of 32
//! rows x 64 columns densely from A's rows and B's columns staged in shared memory, each B element
//! serving several values, where the lean kernel reads B's line once per value.
//!
//! Whether the tiles pay depends on C's structure, which the host does not see. So the plan only
//! says where they *may* run ([`may_run`], host facts), and keeps room in the workspace for a
//! survey: a kernel reads C's structure and leaves four counters there, and the lean and tile
//! kernels, both in the call's graph, read them and agree which of them runs ([`chosen`]: rows
//! sorted and in range, none too long, at least half the entries in row blocks that fill half
//! their tiles). A plain call surveys every time and never waits. Preprocess surveys once into the
//! user's buffer and reads the verdict back (a wait, as SpMM's preprocess), so the calls that keep
//! its decision launch only the kernel chosen (C's structure cannot change under a kept decision);
//! under stream capture it cannot wait, and its calls decide on the GPU as plain ones do. Both
//! run the same kernel on the same structure, so they give the same bits.

use super::check::Types;
use crate::types::DataType;

/// C's rows and columns per tile (`TILE_ROWS`, `TILE_COLS` in kernels/sddmm_tiles.cu), and the
/// tile kernel's threads (`TILE_BLOCK`).
pub const TILE_ROWS: i64 = 32;
pub const TILE_COLS: i64 = 64;
pub const TILE_BLOCK: u32 = 256;
/// A block walks its tiles one after another, each a chain of dependent steps (the next tile,
/// its entries, the staging, the products), so the tiles pay only with several blocks on every
/// multiprocessor: at least this many blocks of rows per multiprocessor.
pub const MIN_BLOCKS_PER_SM: i64 = 3;
/// The survey marks the tiles a block of rows touches in a bitmap of shared memory of this many
/// bits (`SURVEY_BITS`), so C may have at most this many tiles of columns.
pub const SURVEY_TILES: i64 = 1 << 16;
/// The survey's counters (`SURVEY_*` in kernels/common/sddmm.cuh), unsigned 64-bit each.
pub const SURVEY_BAD: usize = 0;
pub const SURVEY_DENSE: usize = 1;
pub const SURVEY_ENTRIES: usize = 2;
pub const SURVEY_LONGEST: usize = 3;
pub const SURVEY_COUNTERS: usize = 4;
pub const SURVEY_BYTES: usize = SURVEY_COUNTERS * 8;
/// The longest row the tiles take (`TILES_LONGEST_ROW`): a block's rows are its work.
pub const LONGEST_ROW: u64 = 8192;
/// Below these the survey and a second kernel cost more than the tiles can save: rows of 16
/// entries on average (a block of rows must fill a quarter of its tiles to count as dense), and
/// 64K entries in all.
pub const MIN_AVERAGE_ROW: i64 = 16;
pub const MIN_ENTRIES: i64 = 1 << 16;

/// Which kernel computes C where the plan surveys for the tiles (`SddmmParams::tiles`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// The lean kernel alone (no survey, or its verdict read back: not the tiles).
    Lean,
    /// Both launched; the survey's counters at this address decide on the GPU.
    Survey(u64),
    /// The tile kernel alone (the verdict read back).
    Tiles,
}

impl Run {
    /// `SddmmParams::tiles` and `survey` (`TILES_*` in kernels/common/sddmm.cuh).
    pub fn params(self) -> (i32, u64) {
        match self {
            Run::Lean => (0, 0),
            Run::Survey(at) => (1, at),
            Run::Tiles => (2, 0),
        }
    }
}

/// Where the survey's counters lie in the workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiles {
    pub survey_at: usize,
}

/// The host facts of a call the tiles may run.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// C in CSR, with a shape of the lean kernel (lines of whole 16-byte vectors).
    pub lean_csr: bool,
    pub types: Types,
    pub batches: i32,
    pub rows: i64,
    pub n: i64,
    pub k: i64,
    pub nnz: i64,
    /// The device's multiprocessors.
    pub multiprocessors: i64,
}

/// Whether the plan surveys C for the tiles: FP32, FP16 or BF16 A and B with FP32 compute, one
/// batch, a lean shape, and C's columns within the survey's bitmap; and, unless the handle's
/// `OXSPARSE_SDDMM_TILES` says `on` (`setting` Some(true); Some(false) `off`: never), a problem
/// large enough: rows long enough on average, and enough blocks of rows to fill the device.
pub fn may_run(f: &Facts, setting: Option<bool>) -> bool {
    use DataType::*;
    let types = matches!(f.types.ab, CUDA_R_32F | CUDA_R_16F | CUDA_R_16BF) && f.types.compute == CUDA_R_32F;
    let can = f.lean_csr && types && f.batches == 1 && f.k > 0 && f.rows > 0 && f.n <= SURVEY_TILES * TILE_COLS;
    let pays = f.nnz >= MIN_ENTRIES && f.nnz >= MIN_AVERAGE_ROW * f.rows && f.rows >= MIN_BLOCKS_PER_SM * TILE_ROWS * f.multiprocessors;
    match setting {
        Some(false) => false,
        Some(true) => can,
        None => can && pays,
    }
}

/// The kernels' verdict on a survey's counters (`tiles_chosen` in kernels/common/sddmm.cuh).
pub fn chosen(c: &[u64; SURVEY_COUNTERS]) -> bool {
    c[SURVEY_BAD] == 0 && c[SURVEY_ENTRIES] > 0 && c[SURVEY_DENSE] * 2 >= c[SURVEY_ENTRIES] && c[SURVEY_LONGEST] <= LONGEST_ROW
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType::*;

    fn facts() -> Facts {
        let types = Types { ab: CUDA_R_32F, c: CUDA_R_32F, compute: CUDA_R_32F };
        Facts { lean_csr: true, types, batches: 1, rows: 16384, n: 16384, k: 32, nnz: 16384 * 257, multiprocessors: 132 }
    }

    #[test]
    fn tiles_may_run_on_long_rows_of_one_batch_in_fp32_and_16_bit() {
        assert!(may_run(&facts(), None));
        let f16 = Types { ab: CUDA_R_16F, c: CUDA_R_16F, compute: CUDA_R_32F };
        assert!(may_run(&Facts { types: f16, ..facts() }, None));
        let f64 = Types { ab: CUDA_R_64F, c: CUDA_R_64F, compute: CUDA_R_64F };
        let table = [
            (Facts { types: f64, ..facts() }, "FP64"),
            (Facts { lean_csr: false, ..facts() }, "no lean shape (BSR, odd k)"),
            (Facts { batches: 2, ..facts() }, "batches"),
            (Facts { nnz: 16384 * 15, ..facts() }, "rows of 15 on average"),
            (Facts { rows: 1000, nnz: 60_000, multiprocessors: 8, ..facts() }, "under 64K entries"),
            (Facts { rows: 12_000, nnz: 12_000 * 257, ..facts() }, "under 3 blocks of rows a multiprocessor"),
            (Facts { n: SURVEY_TILES * TILE_COLS + 1, ..facts() }, "columns past the survey's bitmap"),
            (Facts { k: 0, ..facts() }, "k = 0"),
        ];
        for (f, why) in table {
            assert!(!may_run(&f, None), "{why}");
        }
        assert!(!may_run(&facts(), Some(false)), "the handle's setting");
        let small = Facts { rows: 100, nnz: 1000, ..facts() };
        assert!(may_run(&small, Some(true)), "on: whatever the size");
        assert!(!may_run(&Facts { batches: 2, ..small }, Some(true)), "on: only where the kernel can");
    }

    #[test]
    fn verdict_needs_sorted_rows_a_dense_half_and_no_hub() {
        let ok = [0, 600, 1000, 300];
        assert!(chosen(&ok));
        assert!(chosen(&[0, 500, 1000, LONGEST_ROW]), "exactly half, the longest row allowed");
        assert!(!chosen(&[1, 600, 1000, 300]), "an entry out of order");
        assert!(!chosen(&[0, 499, 1000, 300]), "under half dense");
        assert!(!chosen(&[0, 600, 1000, LONGEST_ROW + 1]), "a hub row");
        assert!(!chosen(&[0, 0, 0, 0]), "no entries");
    }
}
