//! CSR SpMM's banded path (issue 59): preprocess detects a band, or a band of blocks, in op(A)
//! on the GPU and, where it pays, its calls run BRCV's kernels (kernels/brcv.cu) instead of the
//! CSR kernels. docs/design/brcv.md describes the format and this path.
//!
//! * Room: bufferSize must hold everything before anything is measured, so the plan keeps room
//!   (`Room`) only where a call could take the band: opA = N over a stored CSR of one batch, a
//!   CUDA-core plan (no kernel forced), `MIN_ENTRIES` entries and `MIN_N` columns of C or more,
//!   any SpMM type but 8-bit integers. The room holds the
//!   bands' structure (per row block its band, per row its far entries' offset) and at most
//!   `VALUES_PER_ENTRY` x nnz band values and nnz / `FAR_SHARE` far entries.
//! * Detection (`detect`, preprocess only, not under stream capture): a one-pass screen bounds the
//!   far entries from below (a wait) and declines the matrices that surely have too many (those
//!   that are not banded); then BRCV's `extent` stage and scans into the room, and a wait for their
//!   totals. The band is taken where it fits the room
//!   (which is the rule: few far entries, a band dense enough to pay); otherwise the plan runs as
//!   it would have, and the record says what was measured.
//! * Every call after it (`launch`): `refresh` rebuilds the band values and far entries from A's
//!   values as they are now (the preprocess contract lets them change, not the structure), then the
//!   BRCV SpMM. Plain calls (no preprocess) never look for a band.

use super::check::{Dims, MAX_BATCHES, TYPE_COMBINATIONS};
use super::plan::{align_up, ARead, Kernel, Plan};
use super::Call;
use crate::context::Handle;
use crate::error::Result;
use crate::kernels::brcv::{self as k, DataLayout, StructureLayout, Totals};
use crate::kernels::params::brcv::{BrcvFormat, SpmmBrcvParams};
use crate::kernels::params::spmm::SpmmShape;
use crate::kernels::spmm::Types;
use crate::settings::BrcvMode;
use crate::types::{DataType, IndexType, Operation};

/// Band values the room holds per entry of A. A full band stores about one value an entry (its
/// row blocks' corners add a little); band-of-blocks matrices 1.3-2 (a block's rows span more
/// offsets than each row holds). At two values an entry the band is read at the bytes of CSR's
/// values and columns, and every B row it reaches is reused from shared memory.
pub const VALUES_PER_ENTRY: u64 = 2;
/// At most one entry in `FAR_SHARE` far (outside its row block's band): the far entries run as a
/// CSR walk per thread, without the band's reuse.
pub const FAR_SHARE: u64 = 10;
/// Entries of A the rule asks for: below, the detection's wait and the refresh's launch outweigh
/// what the band saves.
pub const MIN_ENTRIES: i64 = 1 << 20;
/// Columns of C the rule asks for: the BRCV kernel's narrowest tile holds 32 FP32 columns, and
/// below 16 most of its FMAs would fall on columns past N.
pub const MIN_N: i64 = 16;

/// The grid's limit in y and z (column tiles, batches).
const GRID_YZ: i64 = 65_535;

/// The banded copy's region in the workspace: the structure (`StructureLayout`), then room for
/// `values` band values and `far` far entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub structure: StructureLayout,
    pub values: u64,
    pub far: u64,
    pub bytes: usize,
}

impl Room {
    fn new(m: i64, values: u64, far: u64, value_bytes: u64) -> Room {
        let structure = StructureLayout::new(m);
        let bytes = align_up(structure.bytes as usize) + DataLayout::new(values, far, value_bytes).bytes as usize;
        Room { structure, values, far, bytes }
    }

    /// The format over the region at `at`, for totals that fit the room (the data's arrays shrink
    /// to the totals: `DataLayout` grows with both counts, so they lie within the room).
    fn format(&self, d: &Dims, at: u64, totals: &Totals, value_bytes: u64) -> BrcvFormat {
        let data = at + align_up(self.structure.bytes as usize) as u64;
        self.structure.format(d.m, d.k, at, data, totals.values, totals.far, value_bytes)
    }

    /// Whether preprocess takes a band it measured: it fits the room (the rule's bounds), and, unless
    /// forced, holds some band.
    pub fn takes(&self, totals: &Totals, forced: bool) -> bool {
        totals.values <= self.values && totals.far <= self.far && (forced || totals.values > 0)
    }
}

/// What preprocess measured and chose (the decision record's `banded`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Banded {
    /// What `extent` measured; None where the screen found too many far entries for sure.
    pub totals: Option<Totals>,
    /// The screen's lower bound on the far entries.
    pub far_floor: u64,
    /// A's entries.
    pub entries: i64,
    pub taken: bool,
}

/// The room a call's plan keeps, where the call could take the band (`OXSPARSE_SPMM_BRCV`: `off`
/// none; `on` wherever the kernels can take the call, with room for every entry far).
pub fn room(call: &Call, d: &Dims, types: Types, a: ARead, kernel: Kernel) -> Option<Room> {
    let forced = call.settings.spmm.brcv;
    let nnz = call.a.nnz;
    let sized = match forced {
        BrcvMode::Off => return None,
        BrcvMode::On => true,
        // A forced CSR kernel (`OXSPARSE_SPMM_KERNEL`) is what the caller wants to measure.
        BrcvMode::Rule => nnz >= MIN_ENTRIES && d.n >= MIN_N && call.settings.spmm.kernel.is_none(),
    };
    let index = call.a.index_type;
    let csr_rows = a == ARead::Rows { csc: false }
        && call.op_a == Operation::OXSPARSE_OPERATION_NON_TRANSPOSE
        && call.a.batch.count == 1
        && index != IndexType::OXSPARSE_INDEX_16U
        && call.a.offset_type == index;
    // Tensor-core plans keep their own path (the handle asked for tensor cores).
    let cuda_cores = matches!(kernel, Kernel::Tiles { .. } | Kernel::RowVec { .. } | Kernel::RowsStrided);
    let tiles = (d.n as u64).div_ceil(k::tiling(d.n, types.compute.size_bytes()).1 as u64) as i64;
    let grid = k::row_blocks(d.m) <= i32::MAX as i64 && tiles <= GRID_YZ && d.batches as i64 <= GRID_YZ.min(MAX_BATCHES as i64);
    // The band sums a repeated (row, column) in A's value type: in 8-bit integers that could wrap,
    // where the CSR kernels sum the products exactly.
    let typed = TYPE_COMBINATIONS.contains(&(types.ab, types.c, types.compute)) && types.ab != DataType::CUDA_R_8I;
    if !(sized && csr_rows && cuda_cores && grid && typed && nnz > 0 && !d.is_empty()) {
        return None;
    }
    let far = if forced == BrcvMode::On { nnz as u64 } else { nnz as u64 / FAR_SHARE };
    Some(Room::new(d.m, VALUES_PER_ENTRY * nnz as u64, far, types.ab.size_bytes()))
}

/// Preprocess's detection into the plan's room at `ws` (a wait for the totals); None where the
/// plan keeps no room or the stream is capturing (nothing may wait there).
pub fn detect(h: &Handle, call: &Call, p: &Plan, ws: u64) -> Result<Option<Banded>> {
    let Some(room) = p.brcv else { return Ok(None) };
    if crate::kernels::capturing(h)? {
        return Ok(None);
    }
    let (d, at, print) = (p.dims, ws + p.brcv_at as u64, call.settings.print_plan);
    let rows = super::rows(call, p, ws);
    let far_floor = k::screen(h, rows, (d.m, d.k), p.index, &room.structure, at)?;
    super::plan::phase(print, "BRCV screen: far entries bounded (a wait)");
    let declined = Banded { totals: None, far_floor, entries: call.a.nnz, taken: false };
    if far_floor > room.far {
        return Ok(Some(declined));
    }
    let totals = k::measure(h, rows, (d.m, d.k), p.index, &room.structure, at)?;
    super::plan::phase(print, "BRCV detection: bands measured, totals read back (a wait)");
    Ok(Some(Banded { totals: Some(totals), taken: room.takes(&totals, call.settings.spmm.brcv == BrcvMode::On), ..declined }))
}

/// A call over preprocess's band: the refresh from A's values now, then the BRCV SpMM.
pub fn launch(h: &Handle, call: &Call, p: &Plan, ws: u64, totals: Totals) -> Result<()> {
    let room = p.brcv.ok_or_else(|| crate::error::Error::Internal("a banded decision without room".into()))?;
    let d = p.dims;
    let fmt = room.format(&d, ws + p.brcv_at as u64, &totals, p.types.ab.size_bytes());
    k::refresh(h, super::rows(call, p, ws), &fmt, p.types.ab, p.index)?;
    // SAFETY: the FFI layer checked alpha and beta are non-NULL; in host mode they point to a
    // value of the compute type (the API's contract).
    let (alpha, beta) =
        unsafe { (crate::kernels::scalar(h, call.alpha, call.compute)?, crate::kernels::scalar(h, call.beta, call.compute)?) };
    let params = SpmmBrcvParams { shape: SpmmShape { m: d.m, k: d.k, n: d.n, alpha, beta }, b: p.b, c: p.c, fmt };
    k::spmm(h, &params, p.types, d.batches as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_holds_the_largest_band_it_takes() {
        let room = Room::new(10_000, 2 * 300_000, 30_000, 4);
        for (values, far) in [(600_000, 30_000), (1, 0), (0, 30_000), (600_000, 0)] {
            let t = Totals { values, far, widest: 1 };
            let f = room.format(&Dims { m: 10_000, k: 10_000, n: 64, batches: 1 }, 1 << 30, &t, 4);
            let data = DataLayout::new(values, far, 4);
            assert!(f.values >= (1 << 30) + room.structure.bytes, "the data after the structure");
            assert!(f.values - (1 << 30) + data.bytes <= room.bytes as u64, "{values} values, {far} far: within the room");
        }
        assert!(room.takes(&Totals { values: 600_000, far: 30_000, widest: 33 }, false));
        assert!(!room.takes(&Totals { values: 600_001, far: 0, widest: 33 }, false), "too many holes");
        assert!(!room.takes(&Totals { values: 10, far: 30_001, widest: 33 }, true), "too many far entries");
        assert!(!room.takes(&Totals { values: 0, far: 100, widest: 0 }, false), "no band");
        assert!(room.takes(&Totals { values: 0, far: 100, widest: 0 }, true), "forced: all far");
    }
}
