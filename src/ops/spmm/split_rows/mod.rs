//! Split rows: the short-row kernel (kernels/spmm_short_rows.cu) over a table of work that
//! preprocess builds for matrices with long rows, instead of the tile kernel.
//!
//! Every row of op(A) gets one group of lanes, as in the short-row kernel, except that a row longer
//! than `PIECE` entries is cut into pieces of at most about that many, one group each; the pieces
//! of a row lie in consecutive groups of one block, which adds them through shared memory, in
//! piece order, before the row's first group writes C (RoDe's row decomposition, with no partials
//! in global memory, no atomics and no second launch; results bitwise reproducible).
//!
//! Why: the tile kernel cuts every matrix evenly but pays about ten dependent memory trips per
//! block; the short-row kernel pays three or four per row but lasts as long as its longest row.
//! Cutting the long rows keeps the short-row kernel's chains short, up to the rows that need
//! more than a block (`takes` keeps the tiles for those, and for matrices of very short rows).
//! Pieces of at most 64 entries ran the social graphs the tiles lose on at 0.9-1.15x cuSPARSE's
//! best; longer pieces were slower (a group's chain grows with its piece). (measurements:
//! bench/notes/spmm-kernels.md, "Split rows")
//!
//! Pieces are shorter (down to the entries a lane has in flight, one round of B loads) when the
//! matrix would not fill the device (`piece`); preprocess then also gives a table to a short-row
//! matrix whose longest row makes two such pieces (pushpull, bcsstk13, bcsstk17, the airports
//! 1.3-1.7x faster at N = 32).
//!
//! Preprocess reads op(A)'s row offsets back to build the table (not under graph capture), so a
//! plain call runs the tiles or warp rows over a table it builds on the GPU (warp_rows/mod.rs
//! `takes_plain`) and may differ from a preprocessed one in rounding, as with the short-row
//! kernel.
//!
//! The rules are here; `table` lays the table out (`build_one_wave`, `build_within`,
//! `whole_rows`), `bytes` holds its bytes as uploaded and the row offsets as read back.

mod bytes;
mod table;

use crate::kernels::spmm as k;
pub use bytes::{header, offsets_from_bytes, slots_as_bytes, table_bytes, upload_parts};
pub use table::{build, build_one_wave, build_within, whole_rows, CHAIN_STEP};

/// Entries per piece, at most (unless a row needs more pieces than a block has groups)...
pub const PIECE: i64 = 64;
/// ...or fewer, down to the entries a lane of the shape has in flight and never below this, when
/// the matrix would not fill the device's resident groups (`piece`).
pub const MIN_PIECE: i64 = 4;
/// The plan's room for the table assumes pieces of at least this many entries; a table of shorter
/// pieces that does not fit is built again with longer ones (`build_within`).
pub const ROOM_PIECE: i64 = 16;
/// Pieces may grow past the device's share to keep a call within one wave only for matrices whose
/// longest row has at most this many entries (`build_one_wave`).
pub const GROW_LONGEST: i64 = 256;
/// The longest row may give each group of its block at most this many entries.
pub const LONGEST_PER_GROUP: i64 = 160;
/// Rows must hold this many entries on average...
pub const MEAN: i64 = 10;
/// ...unless the matrix has at most this many entries and rows.
pub const SMALL_NNZ: i64 = 32 * 1024;
/// Bytes per slot of the table.
pub const SLOT_BYTES: usize = 16;
/// Matrices with more entries keep the tile kernel (and the table's room is not reserved).
pub const MAX_NNZ: i64 = 8_000_000;

/// `OXSPARSE_SPMM_KERNEL=split_rows`: preprocess builds the table whenever the plan has room for
/// it, even when every row is short (for tests and comparisons; plain calls keep the tiles).
pub fn forced(s: &crate::settings::Spmm) -> bool {
    s.kernel == Some(super::plan::ForcedKernel::SplitRows)
}

/// The choice for a matrix (not all of whose rows are short) of `m` rows and `nnz` entries whose
/// longest row has `longest`, with `groups` groups per block. Split rows beat the tiles (1.1-1.6x)
/// on rows of 14-234 entries on average and on small matrices; the tiles win where one row's block
/// of pieces outlasts the rest (github_musae, vsp_model1) or where most rows hold a few entries,
/// which the tile kernel packs (measurements: bench/notes/spmm-kernels.md, "Split rows").
pub fn takes(longest: i64, m: i64, nnz: i64, groups: i64) -> bool {
    takes_longest(longest, groups) && eligible(m, nnz)
}

/// Whether blocks of `groups` groups take a longest row of `longest` entries (`takes`).
fn takes_longest(longest: i64, groups: i64) -> bool {
    longest <= LONGEST_PER_GROUP * groups
}

/// Whether a matrix of `m` rows and `nnz` entries may take split rows, whatever its longest row
/// (its plan then keeps room for the table, about 32 m + nnz bytes): rows of MEAN entries or more
/// on average, or a small matrix, and at most MAX_NNZ entries (slots hold 32-bit rows and 48-bit
/// entry offsets). A matrix of many empty rows never asks for room it would not use.
pub fn eligible(m: i64, nnz: i64) -> bool {
    m > 0 && nnz > 0 && nnz <= MAX_NNZ && (nnz >= MEAN * m || (nnz <= SMALL_NNZ && m <= SMALL_NNZ))
}

/// Slots the table may need for `m` rows and `nnz` entries with `groups` groups per block: a row
/// takes one slot, or at most 2 x len / piece when cut (len > piece >= ROOM_PIECE), so the used
/// slots S are at most m + 2 nnz / ROOM_PIECE; a block is closed early only for a row that does not
/// fit its free slots, so the idle slots are fewer than S; plus one partly filled last block.
pub fn capacity(m: i64, nnz: i64, groups: i64) -> i64 {
    2 * (m + 2 * ceil_div(nnz, ROOM_PIECE)) + groups
}

/// Entries per piece for a matrix of `nnz` entries whose calls take `slices` column slices, on a
/// device holding `resident` groups at once, for groups whose lanes have `in_flight` entries' B
/// rows in flight: PIECE, or fewer so that the pieces of all slices still fill the device, down to
/// `in_flight` (a piece then costs one round of B loads); a small matrix then runs more, shorter
/// chains (each a row's share of its load and B round trips).
/// A fixed floor of 16 entries for every shape (two rounds of B loads for narrow groups, four for
/// two-vector ones) was slower on matrices that fill a tenth of the device (the graphchallenge DNN
/// layers, 1024 rows of 32: 64-128 blocks).
/// `forced` (`OXSPARSE_SPMM_PIECE`, from MIN_PIECE to PIECE) replaces it (for comparisons).
pub fn piece(nnz: i64, slices: i64, resident: i64, in_flight: i64, forced: Option<i64>) -> i64 {
    forced_piece(forced).unwrap_or_else(|| (nnz.max(0) * slices.max(1) / resident.max(1)).clamp(in_flight.clamp(MIN_PIECE, PIECE), PIECE))
}

/// The default pieces for the call whose `piece` this is: floored at ROOM_PIECE entries, or the
/// forced piece as it is (`build_one_wave`'s fallback).
pub fn floor_piece(piece: i64, forced: Option<i64>) -> i64 {
    if forced_piece(forced).is_some() {
        piece
    } else {
        piece.clamp(ROOM_PIECE, PIECE)
    }
}

/// Whether a matrix whose longest row has `longest` entries may grow its pieces past the share to
/// keep a call within one wave (`build_one_wave`): rows of at most GROW_LONGEST entries, and no
/// forced piece.
pub fn may_grow(longest: i64, forced: Option<i64>) -> bool {
    forced_piece(forced).is_none() && longest <= GROW_LONGEST
}

/// The short-row kernel's shape over a split-row table for `types`, n columns and a longest row
/// of `longest` entries: the preferred one (src/kernels/spmm.rs `short_rows_shape`), except
///  * 16-bit `Packed` (four entries in flight) only for rows of at most GROW_LONGEST entries, else
///    `Narrow` (eight): FP16 N = 64 EX5 (rows of 48) 14.0 -> 9.9 us, but
///    twitch_FR, crocodile and vsp_befref (rows of 1500-3500) 12.0 / 17.8 / 12.1 -> 17.1 / 28.0 /
///    14.7 us;
///  * where n is one slice of a shape of 16 groups a block (FP32 `WideX2`, 16-bit `PackedWide`,
///    n = 128) and the longest row would give each group more than PIECE entries, the 32-group
///    shape of 64 columns (16-bit `Packed`, FP32 `NarrowX2`): the row's block, of pieces twice as
///    long, was the call's tail (twitch_FR, 2040 entries, FP32 26.6 -> 21.0 us, FP16 27.6 ->
///    18.8; vsp_befref, 1531, 21.6 -> 18.8 and 21.9 -> 17.4). Only for rows the 16 groups would
///    take (`takes`): longer ones go to preprocess's fallback, narrow groups, which beat the
///    64-column ones there (crocodile, 3546 entries, FP32 28.8 against 30.9 us). Not at n = 256,
///    where the second slice hides it (twitch_FR gained 5-12%, vsp_befref lost 5-7%), nor in FP64
///    (8 and 16 groups, unmeasured).
///
/// A shape forced by `OXSPARSE_SPMM_ROW_SHAPE` is taken as it is.
pub fn shape(types: k::Types, n: i64, longest: i64, forced: Option<k::RowShape>) -> k::RowShape {
    use k::RowShape::*;
    let preferred = super::short_rows::shape(types, n, true, forced);
    if forced.is_some() || types.ab.size_bytes() == 8 {
        return preferred;
    }
    let groups = preferred.groups_per_block(types.ab) as i64;
    match preferred {
        Packed if longest > GROW_LONGEST => Narrow,
        WideX2 | PackedWide if preferred.slices(n) == 1 && longest > PIECE * groups && takes_longest(longest, groups) => {
            [Packed, NarrowX2].into_iter().find(|s| s.fits(types, n) && s.groups_per_block(types.ab) as i64 > groups).unwrap_or(preferred)
        }
        _ => preferred,
    }
}

/// Whether a matrix the short-row kernel would take whole (every row short) is cut into pieces of
/// `piece` entries instead, its longest row having `longest`: when that row makes two pieces or
/// more. Where the matrix is too small to fill the device with whole rows (pieces
/// shorter than PIECE): bcsstk13, pushpull, bcsstk17, the airports 1.3-1.7x faster at N = 32;
/// EX5 and cage10, whose rows are at most 1.5x such a piece, 0.85x at N = 64. With
/// pieces of PIECE too, where the table's blocks of like chains spare whole-row blocks the wait
/// for their longest row (bcsstk17, rows of 39 on average and up to 150, N = 256: FP32 41.0 ->
/// 32.4 us, FP16 45.9 -> 32.2; EX5, cage10 and mdual, whose rows make one piece, stay whole).
/// A column-major C only for pieces under PIECE: whole rows write it through shared memory, split
/// rows an element at a time (power_grid N = 128 8.8 -> 10.4 us when cut).
pub fn cuts_short_rows(piece: i64, longest: i64, column_major_c: bool) -> bool {
    (piece < PIECE || !column_major_c) && 2 * piece <= longest
}

/// `OXSPARSE_SPMM_PIECE`, when it names a piece in MIN_PIECE..=PIECE.
fn forced_piece(forced: Option<i64>) -> Option<i64> {
    forced.filter(|&v| (MIN_PIECE..=PIECE).contains(&v))
}

pub use crate::ops::ceil_div;

#[cfg(test)]
mod tests {
    use super::*;

    /// The matrices the rule was measured on (longest row, rows, entries) fall on their measured
    /// side (FP32: 32 groups per block).
    #[test]
    fn measured_matrices_fall_on_their_measured_side() {
        let split = [
            (3156, 18_660, 1_581_554),
            (3992, 10_312, 667_966),
            (708, 6440, 502_504),
            (360, 16_706, 242_502),
            (893, 7115, 103_689),
            (4267, 4267, 998_905),
            (168, 2708, 10_556),
        ];
        for (longest, m, nnz) in split {
            assert!(takes(longest, m, nnz, 32), "{longest} of {nnz}/{m}");
        }
        let tiles =
            [(9458, 37_700, 578_006), (17_663, 45_101, 379_952), (171, 19_717, 88_651), (1303, 7600, 53_411), (20_000, 169_343, 1_128_870)];
        for (longest, m, nnz) in tiles {
            assert!(!takes(longest, m, nnz, 32), "{longest} of {nnz}/{m}");
        }
        assert!(!takes(4267, 4267, 998_905, 16), "FP64's blocks hold 16 groups");
    }

    #[test]
    fn pieces_shrink_to_fill_the_device() {
        let piece = |nnz, slices, resident, in_flight| piece(nnz, slices, resident, in_flight, None);
        let resident = 132 * 4 * 32;
        assert_eq!(piece(83_883, 1, resident, 8), 8, "bcsstk13 at N = 32: one round of B loads a piece");
        assert_eq!(piece(32_768, 1, resident / 2, 4), 4, "a DNN layer at N = 128, two vectors a lane");
        assert_eq!(piece(32_768, 1, resident / 2, 1), MIN_PIECE);
        assert_eq!(piece(83_883, 4, resident / 2, 4), 39);
        assert_eq!(piece(1_581_554, 1, resident, 8), PIECE, "Cornell5 fills the device anyway");
    }

    #[test]
    fn room_only_where_the_rule_may_take_the_matrix() {
        assert!(eligible(18_660, 1_581_554));
        assert!(eligible(2708, 10_556), "small");
        assert!(!eligible(100_000_000, 30_000), "hypersparse: no table of 10^8 slots");
        assert!(!eligible(169_343, 1_128_870), "under 10 entries a row");
        assert!(!eligible(1_000_000, 10_000_001), "over MAX_NNZ");
        assert!(!eligible(0, 0));
    }

    #[test]
    fn short_rows_are_cut_where_the_longest_makes_two_pieces() {
        // bcsstk17 at N = 256 (pieces of PIECE, longest 150), row-major C: cut; column-major: whole.
        assert!(cuts_short_rows(PIECE, 150, false) && !cuts_short_rows(PIECE, 150, true));
        // EX5 (rows of 48) whole; small matrices with short pieces cut, either layout.
        assert!(!cuts_short_rows(PIECE, 48, false) && !cuts_short_rows(32, 48, false));
        assert!(cuts_short_rows(16, 48, false) && cuts_short_rows(16, 48, true));
    }

    #[test]
    fn long_rows_take_shapes_of_more_groups() {
        use crate::types::DataType::*;
        use k::RowShape::*;
        let shape = |t, n, longest| shape(t, n, longest, None);
        let t = |v| k::Types { ab: v, c: v, compute: if v == CUDA_R_64F { CUDA_R_64F } else { CUDA_R_32F } };
        let (f32, f64, f16) = (t(CUDA_R_32F), t(CUDA_R_64F), t(CUDA_R_16F));
        // 16-bit at n = 64: packed for rows of up to GROW_LONGEST entries.
        assert_eq!([48, GROW_LONGEST, GROW_LONGEST + 1].map(|l| shape(f16, 64, l)), [Packed, Packed, Narrow]);
        // n = 128, one slice of 16 groups: a row of more than 16 pieces of PIECE takes 32 groups.
        assert_eq!([16 * PIECE, 2040].map(|l| shape(f16, 128, l)), [PackedWide, Packed]);
        assert_eq!([16 * PIECE, 2040].map(|l| shape(f32, 128, l)), [WideX2, NarrowX2]);
        // A row the 16 groups would not take keeps the preferred shape (preprocess falls back to
        // narrow groups).
        assert_eq!([shape(f32, 128, 3546), shape(f16, 128, 3546)], [WideX2, PackedWide]);
        // Two slices, or FP64: the preferred shape whatever the row.
        assert_eq!([shape(f32, 256, 2040), shape(f16, 256, 2040), shape(f64, 128, 2040)], [WideX2, PackedWide, WideX2]);
        assert_eq!(shape(f32, 64, 2040), Narrow);
    }
}
