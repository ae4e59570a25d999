//! A row-compressed view of op(A), built on the GPU for SpMM (`kernels/row_view.cu`).
//!
//! SpMM walks op(A) by rows. For CSR with opA = T, CSC with opA = N and COO those rows are not
//! stored contiguously, so `build` makes, inside a caller-provided device workspace, a CSR-like
//! view: row offsets, column indices, and `perm`, the source position of every view entry. Values
//! are not copied: the caller may change A's values and reuse the view (see `layout`).
//!
//! The conversion is a stable sort of the entries by view row, so entries of one row keep their
//! source order and the view is the same, bit for bit, on every run. Stages, all enqueued on the
//! handle's stream with no host synchronisation and no allocation (so it can be graph-captured):
//!
//! 1. `expand`: per entry its key (view row; `out_rows` for a dropped entry), its view column, and
//!    its position;
//! 2. per radix pass (8 key bits each, as many as `out_rows` needs): tile histograms, a three-kernel
//!    exclusive scan of them, and a stable scatter, ping-ponging between two (key, position) buffer
//!    pairs so that the last pass writes the positions into `perm` and the keys into `cols`;
//! 3. `offsets`: `offsets[r]` = first sorted key >= r, by binary search;
//! 4. `columns`: `cols[q]` = view column of source entry `perm[q]` (overwriting the sorted keys).
//!
//! Workspace, each array aligned to [`ALIGN`] bytes, all of the index type, in this order:
//! `offsets` (out_rows + 1), `cols`, `perm`, keys and positions of the other ping-pong pair,
//! `col_of` (the view column of every source position) (nnz each), the sort's digit counts
//! (`ROW_VIEW_RADIX` per tile of `ROW_VIEW_BLOCK * ROW_VIEW_SORT_ROUNDS` entries), and the scan's
//! chunk sums (one per `ROW_VIEW_BLOCK * ROW_VIEW_SCAN_ROUNDS` counts); plus `ALIGN` bytes of slack
//! for aligning the start.

use super::params::row_view::*;
use super::{grid_for, launch};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::types::IndexType;

const FAMILY: &str = "row_view";
/// Alignment of every array in the workspace, in bytes: whole cache lines for coalesced access.
pub const ALIGN: u64 = 256;
/// Entries per sort tile (one block, one digit histogram).
const SORT_TILE: u64 = (ROW_VIEW_BLOCK * ROW_VIEW_SORT_ROUNDS) as u64;
/// Counts per scan chunk (one block).
const SCAN_CHUNK: u64 = (ROW_VIEW_BLOCK * ROW_VIEW_SCAN_ROUNDS) as u64;

/// Where each entry's "major" coordinate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// Compressed storage: `lines + 1` offsets (CSR row offsets or CSC column offsets); the major
    /// coordinate of entry p is the line whose range [offsets[l], offsets[l+1]) holds p.
    Offsets { ptr: u64, lines: i64 },
    /// COO: one index per entry (nnz entries).
    Indices { ptr: u64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowViewSource {
    pub major: Major,
    /// The other coordinate of every entry (nnz entries).
    pub minor: u64,
    pub nnz: i64,
    /// Index base (0 or 1) subtracted from every stored index and offset.
    pub base: i64,
    /// Type of every input and output index array: OXSPARSE_INDEX_32I or OXSPARSE_INDEX_64I.
    pub index_type: IndexType,
    /// true: output row = minor coordinate, output column = major coordinate (transpose);
    /// false: output row = major, output column = minor.
    pub key_is_minor: bool,
    /// Rows of the output view; valid output rows are [0, out_rows).
    pub out_rows: i64,
    /// Columns of the output view; valid output columns are [0, out_cols).
    pub out_cols: i64,
}

/// Device addresses of the view, all inside the workspace, all of `index_type`, base 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowView {
    pub offsets: u64,
    pub cols: u64,
    pub perm: u64,
}

/// Every array of the workspace: the view and the scratch behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Workspace {
    view: RowView,
    keys_tmp: u64,
    pos_tmp: u64,
    col_of: u64,
    counts: u64,
    scan_sums: u64,
}

/// Radix passes that sort keys in [0, out_rows] (the largest key is the dropped entries' `out_rows`).
fn passes(out_rows: i64) -> u32 {
    let bits = u64::BITS - (out_rows.max(0) as u64).leading_zeros();
    bits.div_ceil(ROW_VIEW_RADIX_BITS)
}

fn sort_tiles(nnz: i64) -> u64 {
    (nnz.max(0) as u64).div_ceil(SORT_TILE)
}

/// Digit counts of one pass: `ROW_VIEW_RADIX` per sort tile.
fn count_len(nnz: i64) -> u64 {
    sort_tiles(nnz) * ROW_VIEW_RADIX as u64
}

fn scan_blocks(nnz: i64) -> u64 {
    count_len(nnz).div_ceil(SCAN_CHUNK)
}

fn align_up(x: u64, a: u64) -> u64 {
    x.saturating_add(a - 1) / a * a
}

/// Bytes of each workspace array, in layout order (see the module comment).
fn array_bytes(src: &RowViewSource) -> [u64; 8] {
    let elem = src.index_type.size_bytes();
    let nnz = src.nnz.max(0) as u64;
    let rows = src.out_rows.max(0) as u64;
    let bytes = |n: u64| n.saturating_mul(elem);
    [
        bytes(rows.saturating_add(1)),
        bytes(nnz),
        bytes(nnz),
        bytes(nnz),
        bytes(nnz),
        bytes(nnz),
        bytes(count_len(src.nnz)),
        bytes(scan_blocks(src.nnz)),
    ]
}

fn place(src: &RowViewSource, workspace: u64) -> Workspace {
    let mut at = align_up(workspace, ALIGN);
    let mut addr = [0u64; 8];
    for (a, bytes) in addr.iter_mut().zip(array_bytes(src)) {
        *a = at;
        at = at.saturating_add(align_up(bytes, ALIGN));
    }
    Workspace {
        view: RowView { offsets: addr[0], cols: addr[1], perm: addr[2] },
        keys_tmp: addr[3],
        pos_tmp: addr[4],
        col_of: addr[5],
        counts: addr[6],
        scan_sums: addr[7],
    }
}

/// Exact workspace size in bytes `build` needs for `src` (host arithmetic only, no GPU).
pub fn workspace_bytes(src: &RowViewSource) -> usize {
    let arrays = array_bytes(src).iter().fold(0u64, |sum, &b| sum.saturating_add(align_up(b, ALIGN)));
    usize::try_from(arrays.saturating_add(ALIGN)).unwrap_or(usize::MAX)
}

/// Where the view will lie inside a workspace at `workspace` (host arithmetic only), so a caller
/// can reuse a view built earlier (by a preprocess call) without rebuilding it.
pub fn layout(src: &RowViewSource, workspace: u64) -> RowView {
    place(src, workspace).view
}

fn index_suffix(t: IndexType) -> Result<&'static str> {
    match t {
        IndexType::OXSPARSE_INDEX_32I => Ok("i32"),
        IndexType::OXSPARSE_INDEX_64I => Ok("i64"),
        IndexType::OXSPARSE_INDEX_16U => Err(Error::NotSupported("row view: 16-bit indices".into())),
    }
}

fn check(src: &RowViewSource, workspace: u64) -> Result<()> {
    let bad = |m: &str| Err(Error::InvalidValue(format!("row view: {m}")));
    let lines = match src.major {
        Major::Offsets { lines, .. } => lines,
        Major::Indices { .. } => 0,
    };
    if src.nnz < 0 || src.out_rows < 0 || src.out_cols < 0 || lines < 0 {
        return bad("negative size");
    }
    if src.base != 0 && src.base != 1 {
        return bad("index base must be 0 or 1");
    }
    let max = src.index_type.max_value();
    if src.nnz > max || src.out_rows > max || src.out_cols > max {
        return bad("size does not fit the index type");
    }
    let major_ptr = match src.major {
        Major::Offsets { ptr, .. } | Major::Indices { ptr } => ptr,
    };
    if src.nnz > 0 && (major_ptr == 0 || src.minor == 0) {
        return bad("index array is NULL");
    }
    if workspace == 0 {
        return bad("workspace is NULL");
    }
    if sort_tiles(src.nnz) > i32::MAX as u64 {
        return Err(Error::NotSupported("row view: too many entries for one grid".into()));
    }
    Ok(())
}

/// Enqueues the conversion on the handle's stream and returns where the view lies.
pub fn build(h: &Handle, src: &RowViewSource, workspace: u64) -> Result<RowView> {
    let suffix = index_suffix(src.index_type)?;
    check(src, workspace)?;
    let ws = place(src, workspace);
    let name = |stage: &str| kernel_name!("oxs_row_view_{stage}_{suffix}");
    let block = ROW_VIEW_BLOCK;
    let nnz = src.nnz as u64;

    if nnz > 0 {
        // The sorted (keys, positions) must end in (cols, perm): start there after an even
        // number of passes, in the scratch pair after an odd one.
        let passes = passes(src.out_rows);
        let sorted = (ws.view.cols, ws.view.perm);
        let scratch = (ws.keys_tmp, ws.pos_tmp);
        let (mut cur, mut other) = if passes % 2 == 0 { (sorted, scratch) } else { (scratch, sorted) };

        let (major, lines, major_is_offsets) = match src.major {
            Major::Offsets { ptr, lines } => (ptr, lines, 1),
            Major::Indices { ptr } => (ptr, 0, 0),
        };
        let p = RowViewExpandParams {
            major,
            minor: src.minor,
            lines,
            nnz: src.nnz,
            base: src.base,
            out_rows: src.out_rows,
            out_cols: src.out_cols,
            keys: cur.0,
            cols: ws.col_of,
            pos: cur.1,
            major_is_offsets,
            key_is_minor: src.key_is_minor as i32,
        };
        launch(h, FAMILY, &name("expand"), (grid_for(nnz, block), 1, 1), block, 0, &p)?;

        let tiles = sort_tiles(src.nnz);
        let blocks = scan_blocks(src.nnz);
        let scan = RowViewScanParams { data: ws.counts, block_sums: ws.scan_sums, n: count_len(src.nnz) as i64, blocks: blocks as i64 };
        for pass in 0..passes {
            let p = RowViewPassParams {
                keys_in: cur.0,
                pos_in: cur.1,
                keys_out: other.0,
                pos_out: other.1,
                counts: ws.counts,
                nnz: src.nnz,
                tiles: tiles as i64,
                shift: pass * ROW_VIEW_RADIX_BITS,
                pad: 0,
            };
            launch(h, FAMILY, &name("histogram"), (tiles as u32, 1, 1), block, 0, &p)?;
            launch(h, FAMILY, &name("scan_reduce"), (blocks as u32, 1, 1), block, 0, &scan)?;
            launch(h, FAMILY, &name("scan_sums"), (1, 1, 1), block, 0, &scan)?;
            launch(h, FAMILY, &name("scan_apply"), (blocks as u32, 1, 1), block, 0, &scan)?;
            launch(h, FAMILY, &name("scatter"), (tiles as u32, 1, 1), block, 0, &p)?;
            std::mem::swap(&mut cur, &mut other);
        }
        debug_assert_eq!(cur, sorted);
    }

    let p = RowViewFinishParams {
        keys: ws.view.cols,
        perm: ws.view.perm,
        col_of: ws.col_of,
        offsets: ws.view.offsets,
        cols: ws.view.cols,
        nnz: src.nnz,
        out_rows: src.out_rows,
    };
    let rows = src.out_rows as u64 + 1;
    launch(h, FAMILY, &name("offsets"), (grid_for(rows, block), 1, 1), block, 0, &p)?;
    if nnz > 0 {
        launch(h, FAMILY, &name("columns"), (grid_for(nnz, block), 1, 1), block, 0, &p)?;
    }
    Ok(ws.view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use IndexType::*;

    fn src(nnz: i64, out_rows: i64, index_type: IndexType) -> RowViewSource {
        RowViewSource {
            major: Major::Indices { ptr: 0x1000 },
            minor: 0x2000,
            nnz,
            base: 0,
            index_type,
            key_is_minor: true,
            out_rows,
            out_cols: 10,
        }
    }

    #[test]
    fn passes_cover_the_sentinel_key() {
        let cases = [(0, 0), (1, 1), (255, 1), (256, 2), (300, 2), (65_535, 2), (70_000, 3), (1 << 20, 3), (1 << 24, 4)];
        for (rows, want) in cases {
            assert_eq!(passes(rows), want, "out_rows {rows}");
        }
        assert_eq!(passes(i64::MAX), 8);
    }

    #[test]
    fn workspace_formula_small_case() {
        // i32, nnz 100, 7 rows: offsets 32 B, five nnz arrays of 400 B, one tile of 256 counts
        // (1024 B), one scan chunk sum (4 B); each rounded up to 256, plus 256 of slack.
        let s = src(100, 7, OXSPARSE_INDEX_32I);
        assert_eq!(workspace_bytes(&s), 256 + 256 + 5 * 512 + 1024 + 256);
        let s = src(100, 7, OXSPARSE_INDEX_64I);
        assert_eq!(workspace_bytes(&s), 256 + 256 + 5 * 1024 + 2048 + 256);
    }

    #[test]
    fn empty_source_still_has_offsets() {
        let s = src(0, 0, OXSPARSE_INDEX_32I);
        assert_eq!(array_bytes(&s), [4, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(workspace_bytes(&s), 2 * ALIGN as usize);
    }

    #[test]
    fn tiles_and_scan_chunks() {
        assert_eq!(sort_tiles(SORT_TILE as i64), 1);
        assert_eq!(sort_tiles(SORT_TILE as i64 + 1), 2);
        assert_eq!(count_len(2_000_000), 489 * 256);
        assert_eq!(scan_blocks(2_000_000), (489u64 * 256).div_ceil(SCAN_CHUNK));
        // 2^31 entries on the 64-bit path: no overflow anywhere.
        let big = src(1 << 31, 1 << 30, OXSPARSE_INDEX_64I);
        let want = 256 + align_up(((1u64 << 30) + 1) * 8, 256) + 5 * (8u64 << 31) + (1 << 19) * 256 * 8 + align_up((1 << 15) * 8, 256);
        assert_eq!(workspace_bytes(&big) as u64, want);
    }

    /// Every array is aligned, disjoint from the others, and inside [workspace, workspace + bytes),
    /// whatever the workspace's alignment.
    #[test]
    fn layout_is_aligned_and_inside_the_workspace() {
        for s in [
            src(0, 0, OXSPARSE_INDEX_32I),
            src(1, 1, OXSPARSE_INDEX_64I),
            src(100_000, 70_000, OXSPARSE_INDEX_32I),
            src(2_000_000, 1 << 20, OXSPARSE_INDEX_64I),
        ] {
            let bytes = array_bytes(&s);
            for shift in (0..ALIGN).step_by(16).chain([1, 7]) {
                let ws = 0x7f00_0000_0000 + shift;
                let w = place(&s, ws);
                let addr = [w.view.offsets, w.view.cols, w.view.perm, w.keys_tmp, w.pos_tmp, w.col_of, w.counts, w.scan_sums];
                assert_eq!(layout(&s, ws), w.view);
                for i in 0..8 {
                    assert_eq!(addr[i] % ALIGN, 0);
                    assert!(addr[i] >= ws);
                    assert!(addr[i] + bytes[i] <= ws + workspace_bytes(&s) as u64);
                    if i + 1 < 8 {
                        assert!(addr[i] + bytes[i] <= addr[i + 1]);
                    }
                }
            }
        }
    }

    #[test]
    fn bad_sources_are_refused_before_any_launch() {
        let ok = src(10, 5, OXSPARSE_INDEX_32I);
        assert!(check(&ok, 0x100).is_ok());
        assert!(check(&ok, 0).is_err());
        assert!(check(&RowViewSource { base: 2, ..ok }, 0x100).is_err());
        assert!(check(&RowViewSource { nnz: -1, ..ok }, 0x100).is_err());
        assert!(check(&RowViewSource { out_rows: 1 << 31, ..ok }, 0x100).is_err());
        assert!(check(&RowViewSource { out_rows: 1 << 31, index_type: OXSPARSE_INDEX_64I, ..ok }, 0x100).is_ok());
        assert!(check(&RowViewSource { minor: 0, ..ok }, 0x100).is_err());
        assert!(check(&RowViewSource { minor: 0, nnz: 0, ..ok }, 0x100).is_ok());
        assert!(index_suffix(OXSPARSE_INDEX_16U).is_err());
    }
}
