//! The SpMV planner: from the checked arguments, decide how op(A) is read (as stored rows, or
//! through a row view built in the workspace), which kernel runs, and where everything lies in
//! the user's workspace. Only host-known facts are used (shapes, nnz, types): a plain call runs
//! the tile kernel. `preprocess` may then replace it by the vector kernel, on a schedule chosen
//! from the rows' lengths (src/ops/spmv/schedule.rs), which its buffer keeps for later calls.
//! `OXSPARSE_PRINT_PLAN=1` prints every plan to stderr.

use super::check::{transposed, Dims};
use super::Call;
use super::{band, columns, schedule};
use crate::descr::FormatInfo;
use crate::kernels::row_view::{self, RowViewSource};
use crate::kernels::spmv::{tile_count, Types, CHUNK};
use crate::kernels::spmv_columns::ColumnLayout;
use crate::types::IndexType;
use std::fmt;

pub use crate::ops::workspace::{align_up, ALIGN};

/// How the kernels read op(A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ARead {
    /// op(A)'s rows are stored: CSR with opA = N, CSC with opA = T/H.
    Rows,
    /// A row view is built at the start of the workspace (CSR with T/H, CSC with N, COO).
    View {
        src: RowViewSource,
        bytes: usize,
    },
    /// Nothing stored (nnz == 0 or k == 0): y = beta * y.
    Empty,
    SlicedEll,
    Bsr,
}

/// Which kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// m == 0.
    Nothing,
    Scale,
    /// The tile kernel over `count` tiles of `size` entries.
    Tiles {
        count: i64,
        size: i64,
    },
    SlicedEll,
    Bsr,
}

/// Byte offsets (from the aligned workspace start) of the tile kernel's bookkeeping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileLayout {
    pub token_at: usize,
    pub tile_rows_at: usize,
    pub partials_at: usize,
    pub ready_at: usize,
}

/// Byte offsets (from the aligned workspace start) of the vector kernel's schedule data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VectorLayout {
    pub hist_at: usize,
    pub counts_at: usize,
    pub token_at: usize,
    pub long_rows_at: usize,
    pub arrivals_at: usize,
    pub chunk_row_at: usize,
    pub chunk_info_at: usize,
    pub partials_at: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub dims: Dims,
    pub types: Types,
    pub index: IndexType,
    pub a: ARead,
    pub kernel: Kernel,
    pub tiles: Option<TileLayout>,
    /// Where preprocess may keep a vector schedule (with the tile kernel only).
    pub vector: Option<VectorLayout>,
    /// Where preprocess may keep the column order (op(A) stored as rows, large x; see columns.rs),
    /// and at which byte offset.
    pub columns: Option<(ColumnLayout, usize)>,
    /// Byte offset where preprocess may keep the band offsets (band.rs): inside the column order's
    /// space when there is one (the two are never used together), else a space of their own.
    pub band: Option<usize>,
    /// Bytes to ask the user for (0: the buffer may be NULL).
    pub workspace: usize,
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.types;
        write!(
            f,
            "m={} k={} types={:?}/{:?}/{:?}/{:?} index={:?} A={} kernel={:?}{}{} workspace={}B",
            self.dims.m,
            self.dims.k,
            t.a,
            t.x,
            t.y,
            t.compute,
            self.index,
            match self.a {
                ARead::View { .. } => "row view",
                ARead::Rows => "rows",
                ARead::Empty => "empty",
                ARead::SlicedEll => "sliced-ell",
                ARead::Bsr => "bsr",
            },
            self.kernel,
            if self.columns.is_some() { " (column order possible)" } else { "" },
            if self.band.is_some() { " (band offsets possible)" } else { "" },
            self.workspace
        )
    }
}

/// How op(A) is read, from its format and opA.
fn a_read(call: &Call, d: &Dims) -> ARead {
    let a = call.a;
    if a.nnz == 0 || d.k == 0 {
        return ARead::Empty;
    }
    if let Some(src) = crate::ops::row_view_source(a, transposed(call.op_a), d.m, d.k) {
        return ARead::View { src, bytes: align_up(row_view::workspace_bytes(&src)) };
    }
    match a.format {
        FormatInfo::Csr | FormatInfo::Csc => ARead::Rows,
        FormatInfo::SlicedEll { .. } => ARead::SlicedEll,
        FormatInfo::Bsr { .. } => ARead::Bsr,
        FormatInfo::Coo => unreachable!("COO is always read through a row view"),
        FormatInfo::BlockedEll { .. } => unreachable!("refused by check::support"),
    }
}

/// Whether the tile kernel's tiles for this call could outnumber its resident warps on a device of
/// `sm_count` multiprocessors (it holds at least one block, 8 warps, on each), so that `tile_size`
/// needs to know them. Smaller calls, the many whose time is mostly the host's, skip asking.
pub fn tiles_may_overflow(call: &Call, d: &Dims, sm_count: u32) -> bool {
    d.m > 0
        && call.a.nnz < LARGE_TILES_NNZ
        && tile_count(call.a.nnz, tile_size(call.a.nnz, 0, call.settings.spmv.tile)) > 8 * sm_count as i64
        && matches!(a_read(call, d), ARead::Rows | ARead::View { .. })
}

/// The tile bookkeeping after `start` bytes: token, row table, partial sums, ready flags.
fn tile_layout(start: usize, count: i64, compute_bytes: usize) -> (TileLayout, usize) {
    let count = count as usize;
    let token_at = start;
    let tile_rows_at = token_at + ALIGN;
    let partials_at = tile_rows_at + align_up((count + 1) * 8);
    let ready_at = partials_at + align_up(count * compute_bytes);
    let end = ready_at + align_up(count * 8);
    (TileLayout { token_at, tile_rows_at, partials_at, ready_at }, end)
}

/// The vector schedule's data after `start` bytes: histogram, list counts, token, the long rows,
/// the huge rows' arrival counts, chunks and partial sums.
fn vector_layout(start: usize, m: i64, nnz: i64, compute_bytes: usize) -> (VectorLayout, usize) {
    let cap = schedule::list_capacity(m, nnz);
    let hist_at = start;
    let counts_at = hist_at + align_up(2 * crate::kernels::params::spmv::SPMV_HIST_BUCKETS as usize * 8);
    let token_at = counts_at + ALIGN;
    let long_rows_at = token_at + ALIGN;
    let arrivals_at = long_rows_at + align_up(cap.long * 8);
    let chunk_row_at = arrivals_at + align_up(cap.huge * 4);
    let chunk_info_at = chunk_row_at + align_up(cap.chunks * 8);
    let partials_at = chunk_info_at + align_up(cap.chunks * 8);
    let end = partials_at + align_up(cap.chunks * compute_bytes);
    (VectorLayout { hist_at, counts_at, token_at, long_rows_at, arrivals_at, chunk_row_at, chunk_info_at, partials_at }, end)
}

/// From this many entries on, tiles are 2048 entries whatever the resident warps (`tile_size`).
const LARGE_TILES_NNZ: i64 = 4_000_000;

/// The largest tile size `OXSPARSE_SPMV_TILE` may force.
pub const TILE_MAX: i64 = 65_536;

/// Entries per tile (one warp), from nnz and the tile kernel's resident warps (`slots`, 0:
/// unknown), which preprocess and plain calls share, so that they agree. Measured with every size
/// forced (bench/notes/spmv.md): matrices under 1M entries want many short
/// tiles (their time is the warps' latency); 1M-4M entries 512 (fb100_Cornell5 20.8 us against 24.6
/// with 256, arxiv_like 23.6 against 27.1); larger ones 2048, which spreads the search for a
/// tile's first row over more entries without a ragged last wave (youtube_like 69.8 against 73.1
/// with 512, reddit_like 565 against 577 with 4096; 8192 lost 5-20% everywhere). Below 4M entries
/// the tiles must also fit one wave of the resident warps: a second, mostly empty wave costs a
/// warp's whole latency, so the size doubles instead (ddi_like, 1M entries, FP64,
/// whose 80-register kernel holds 3168 warps on the H100 against 3903 tiles of 256).
/// `forced` (`OXSPARSE_SPMV_TILE`) overrides it where it is a multiple of CHUNK up to TILE_MAX.
pub fn tile_size(nnz: i64, slots: i64, forced: Option<i64>) -> i64 {
    if let Some(t) = forced.filter(|&t| (CHUNK..=TILE_MAX).contains(&t) && t % CHUNK == 0) {
        return t;
    }
    let mut size = match nnz {
        ..1_000_000 => 256,
        1_000_000..LARGE_TILES_NNZ => 512,
        _ => return 2048,
    };
    while slots > 0 && size < 2048 && tile_count(nnz, size) > slots {
        size *= 2;
    }
    size
}

/// The plan for a checked call. `types` come from `check::support`; `tile_slots` is the tile
/// kernel's resident warps (`kernels::spmv::tile_slots`, 0: unknown).
pub fn plan(call: &Call, d: Dims, types: Types, tile_slots: i64) -> Plan {
    let a = a_read(call, &d);
    let mut p = Plan {
        dims: d,
        types,
        index: call.a.index_type,
        a,
        kernel: Kernel::Nothing,
        tiles: None,
        vector: None,
        columns: None,
        band: None,
        workspace: 0,
    };
    if d.m == 0 {
        return p;
    }
    p.kernel = match a {
        ARead::Empty => Kernel::Scale,
        ARead::Rows | ARead::View { .. } => {
            let size = tile_size(call.a.nnz, tile_slots, call.settings.spmv.tile);
            Kernel::Tiles { count: tile_count(call.a.nnz, size), size }
        }
        ARead::SlicedEll => Kernel::SlicedEll,
        ARead::Bsr => Kernel::Bsr,
    };
    let views = match a {
        ARead::View { bytes, .. } => bytes,
        _ => 0,
    };
    let mut total = views;
    if let Kernel::Tiles { count, .. } = p.kernel {
        // One tile needs no bookkeeping: no row crosses it and its rows are all of op(A).
        if count > 1 {
            let (layout, end) = tile_layout(views, count, types.compute.size_bytes() as usize);
            p.tiles = Some(layout);
            total = end;
        }
        // Disjoint from the tiles' bookkeeping, which a plain call with this buffer overwrites.
        let (layout, end) = vector_layout(total, d.m, call.a.nnz, types.compute.size_bytes() as usize);
        p.vector = Some(layout);
        total = end;
        // Only for stored rows: a row view is rebuilt by every call, its order would be lost.
        if a == ARead::Rows && columns::eligible(d.k, call.a.nnz, types.x.size_bytes(), call.settings.spmv.sorted_columns) {
            let layout = ColumnLayout::new(d.k, call.a.nnz, call.a.index_type, types.x.size_bytes());
            p.columns = Some((layout, total));
            total += align_up(layout.bytes as usize);
        }
        if a == ARead::Rows && band::eligible(types, call.a.nnz, call.settings.spmv.band) {
            p.band = Some(match p.columns {
                Some((layout, at)) => at + layout.cols as usize,
                None => {
                    let at = total;
                    total += align_up(band::bytes(call.a.nnz));
                    at
                }
            });
        }
    }
    p.workspace = if total > 0 { ALIGN + total } else { 0 };
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_layout_is_aligned_and_disjoint() {
        let (l, end) = tile_layout(512, 3, 8);
        let at = [l.token_at, l.tile_rows_at, l.partials_at, l.ready_at, end];
        assert!(at.iter().all(|x| x % ALIGN == 0));
        assert!(at.windows(2).all(|w| w[0] < w[1]));
        assert!(l.partials_at - l.tile_rows_at >= 4 * 8 && end - l.ready_at >= 3 * 8);
    }

    #[test]
    fn vector_layout_is_aligned_and_disjoint() {
        let (l, end) = vector_layout(768, 1000, 100_000, 16);
        let at = [l.hist_at, l.counts_at, l.token_at, l.long_rows_at, l.arrivals_at, l.chunk_row_at, l.chunk_info_at, l.partials_at, end];
        assert!(at.iter().all(|x| x % ALIGN == 0));
        assert!(at.windows(2).all(|w| w[0] < w[1]));
        assert!(l.counts_at - l.hist_at >= 1024 && l.arrivals_at - l.long_rows_at >= 1000 * 8);
        assert!(end - l.partials_at >= (100_000 / 4096 + 100_000 / 256) * 16);
    }

    #[test]
    fn tiles_cover_the_entries() {
        assert_eq!(tile_count(0, 256), 0);
        assert_eq!(tile_count(1, 256), 1);
        assert_eq!(tile_count(2048, 2048), 1);
        assert_eq!(tile_count(2049, 2048), 2);
    }

    #[test]
    fn tiles_fit_one_wave_below_4m_entries() {
        let tile_size = |nnz, slots| tile_size(nnz, slots, None);
        // ddi_like: 998905 entries, 3903 tiles of 256; FP64's kernel holds 3168 warps, FP32's 4224.
        assert_eq!(tile_size(998_905, 3168), 512);
        assert_eq!(tile_size(998_905, 4224), 256);
        assert_eq!(tile_size(1_581_554, 3168), 512, "3089 tiles fit");
        assert_eq!(tile_size(3_900_000, 1000), 2048, "no further than 2048");
        assert_eq!(tile_size(13_481_272, 100), 2048, "large matrices keep 2048");
    }

    #[test]
    fn tile_size_grows_with_nnz_in_whole_chunks() {
        let tile_size = |nnz, slots| tile_size(nnz, slots, None);
        assert_eq!(super::tile_size(10_000, 0, Some(1024)), 1024, "forced");
        assert_eq!(super::tile_size(10_000, 0, Some(1000)), 256, "not a multiple of a chunk: ignored");
        assert_eq!(tile_size(10_000, 0), 256);
        assert_eq!(tile_size(1_581_554, 0), 512);
        assert_eq!(tile_size(13_481_272, 0), 2048);
        for nnz in [1, 1000, 999_999, 1_000_000, 5_000_000, 60_000_000] {
            let t = tile_size(nnz, 3168);
            assert!(t % CHUNK == 0 && t <= TILE_MAX && (t as u64).is_power_of_two());
        }
    }
}
