//! Split rows: the short-row kernel (kernels/spmm_short_rows.cu) over a table of work that
//! preprocess builds for matrices with long rows, instead of the tile kernel.
//!
//! Every row of op(A) gets one group of lanes, as in the short-row kernel, except that a row longer
//! than `PIECE` entries is cut into pieces of at most about that many, one group each; the pieces
//! of a row lie in consecutive groups of one block, which adds them through shared memory, in
//! piece order, before the row's first group writes C (RoDe's row decomposition, with no partials
//! in global memory, no atomics and no second launch; results bitwise reproducible).
//!
//! The table: preprocess's token (16 bytes: a buffer overwritten since is not trusted, and the
//! kernel takes the rows one group each, right but slowly), then one 16-byte slot per group, block
//! after block (`SLOT_BYTES`):
//!   word 0: the piece's first entry (bits 0-47) | pieces << 48, where pieces is 1 for a whole
//!           row, k >= 2 for the first of the k pieces of one row (the next k - 1 slots of the
//!           block), 0 for another piece or an idle slot;
//!   word 1: the row (bits 0-31) | the piece's entries << 32.
//! A row of more than `PIECE` x (groups per block) entries is cut into one piece per group of a
//! whole block; such blocks come first, so their longer chains are not the kernel's tail.
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

use crate::kernels::spmm as k;

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

const BEGIN_BITS: u32 = 48;

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
    let preferred = k::short_rows_shape(types, n, true, forced);
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

/// Entries of a group's chain that cost about one B round trip (the kernel's UNROLL): work is
/// sorted by its chain in steps of this many entries.
pub const CHAIN_STEP: i64 = 8;

/// The table for rows `begin[r] .. end[r]` (entry offsets), `groups` groups per block, pieces of
/// at most `piece` entries (MIN_PIECE..=PIECE), and the number of blocks it fills.
///
/// A block lasts as long as its longest chain (its resources are held until every group is done,
/// and a block with split rows waits for all of them at each join), so the work is placed longest
/// chain first, in steps of CHAIN_STEP entries, and stored order within a step: blocks get groups
/// of about equal chains, and the longest blocks start first: 1.10x at N = 128-256 on the split-row
/// matrices, where sorting only within windows of rows gained about half as much
/// (bench/notes/spmm-kernels.md, "Longest chain first"). The order of the work changes no row's sums.
pub fn build(begins: &[i64], ends: &[i64], groups: usize, piece: i64) -> (Vec<[u64; 2]>, u32) {
    build_with(&mut Scratch::default(), begins, ends, groups, piece)
}

/// What a walk over the rows needs besides its table, kept between the walks of one piece search.
#[derive(Default)]
struct Scratch {
    order: Vec<u32>,
    start: Vec<u32>,
    /// Each row's chain step (`longest_chains_first`).
    steps: Vec<u32>,
    /// `Cutting::cut` by row length (`Cuts`).
    cuts: Vec<(u32, u32)>,
}

/// Row lengths below which `Cuts` remembers their cut.
const CUTS_MEMO: usize = 4096;

/// `Cutting::cut`, remembered per row length below CUTS_MEMO: a walk cut every row two or three
/// times, each a few 64-bit divisions, which were most of its time (520-575 us a walk over
/// fb100_Cornell5's 18660 rows).
struct Cuts<'a> {
    cutting: Cutting,
    memo: &'a mut Vec<(u32, u32)>,
}

impl<'a> Cuts<'a> {
    fn new(cutting: Cutting, memo: &'a mut Vec<(u32, u32)>) -> Cuts<'a> {
        memo.clear();
        memo.resize(CUTS_MEMO, (0, 0));
        Cuts { cutting, memo }
    }

    /// (per, pieces) of a row of `len` entries (`Cutting::cut`; `per` is at least 1, so 0 marks a
    /// length not yet cut).
    fn cut(&mut self, len: i64) -> (i64, usize) {
        let Some(slot) = self.memo.get_mut(len as usize) else { return self.cutting.cut(len) };
        if slot.0 == 0 {
            let (per, pieces) = self.cutting.cut(len);
            *slot = (per as u32, pieces as u32);
        }
        (slot.0 as i64, slot.1 as usize)
    }
}

/// How many rows have each length, lengths from `cap` on counted together: a row of `cap` =
/// PIECE x groups entries or more is cut into one piece per group whatever the piece.
struct Lengths {
    rows: Vec<(i64, u64)>,
}

impl Lengths {
    fn of(begins: &[i64], ends: &[i64], groups: usize) -> Lengths {
        let cap = PIECE * groups as i64;
        let mut count = vec![0u64; cap as usize + 1];
        for (&b, &e) in begins.iter().zip(ends) {
            count[(e - b).clamp(0, cap) as usize] += 1;
        }
        Lengths { rows: count.into_iter().enumerate().filter(|&(_, c)| c > 0).map(|(len, c)| (len as i64, c)).collect() }
    }

    /// The fewest and the most blocks of a table of pieces of `piece` entries. Its P pieces (used
    /// slots, as `Table::place` cuts the rows) fill at least P / groups blocks; a block is closed
    /// early only for a row of more pieces than it has slots left, so every block but the last
    /// holds at least groups - (the most pieces of a row) + 1 of them.
    fn blocks(&self, groups: usize, piece: i64) -> (u64, u64) {
        let cutting = Cutting { piece, groups };
        let (mut pieces, mut most) = (0u64, 1u64);
        for &(len, rows) in &self.rows {
            let cut = cutting.cut(len).1 as u64;
            pieces += cut * rows;
            most = most.max(cut);
        }
        let g = groups as u64;
        (pieces.div_ceil(g), pieces.div_ceil(g + 1 - most.min(g)))
    }
}

fn build_with(scratch: &mut Scratch, begins: &[i64], ends: &[i64], groups: usize, piece: i64) -> (Vec<[u64; 2]>, u32) {
    let t = lay_out(scratch, begins, ends, groups, piece, true);
    let blocks = (t.len / groups) as u32;
    (t.slots, blocks)
}

/// The slots and blocks `build` would make, without making them (the piece searches below try
/// several pieces; the tables built for each try, and their uploads' byte-wise copy,
/// were most of a split-row preprocess, e.g. 1.5 + 0.5 ms of EX5's 2.1 ms at N = 32).
fn count(scratch: &mut Scratch, begins: &[i64], ends: &[i64], groups: usize, piece: i64) -> (usize, u32) {
    let t = lay_out(scratch, begins, ends, groups, piece, false);
    (t.len, (t.len / groups) as u32)
}

/// `build`'s walk: places the rows longest chain first, keeping the slots where `keep`.
fn lay_out(scratch: &mut Scratch, begins: &[i64], ends: &[i64], groups: usize, piece: i64, keep: bool) -> Table {
    assert_eq!(begins.len(), ends.len());
    assert!((MIN_PIECE..=PIECE).contains(&piece));
    let cutting = Cutting { piece, groups };
    let mut t = Table { slots: Vec::new(), len: 0, keep, cutting, used: 0 };
    if keep {
        t.slots.reserve(begins.len() + groups);
    }
    let len = |r: usize| (ends[r] - begins[r]).max(0);
    let Scratch { order, start, steps, cuts } = scratch;
    let mut cuts = Cuts::new(cutting, cuts);
    // A row's chain is its longest piece: `per`, or nothing for an empty row.
    steps.clear();
    steps.extend((0..begins.len()).map(|r| {
        let n = len(r);
        let chain = if n == 0 { 0 } else { cuts.cut(n).0 };
        ((chain + CHAIN_STEP - 1) / CHAIN_STEP) as u32
    }));
    longest_chains_first(steps, order, start);
    for &r in order.iter() {
        let r = r as usize;
        let n = len(r);
        t.place(r as u64, begins[r], n, cuts.cut(n));
    }
    t.close_block();
    t
}

/// The piece `build_within` takes: `piece`, or where that table does not fit `slots` slots, pieces
/// twice as long up to ROOM_PIECE (for which the plan's room is sized, `capacity`); with the
/// table's blocks. None if even that does not fit.
fn piece_within(scratch: &mut Scratch, begins: &[i64], ends: &[i64], groups: usize, piece: i64, slots: i64) -> Option<(i64, u32)> {
    let mut piece = piece;
    loop {
        let (len, blocks) = count(scratch, begins, ends, groups, piece);
        if len as i64 <= slots {
            return Some((piece, blocks));
        }
        if piece >= ROOM_PIECE {
            return None;
        }
        piece = (2 * piece).min(ROOM_PIECE);
    }
}

/// `build` within a room of `slots` slots: pieces of `piece` entries, or where that table does not
/// fit, pieces twice as long up to ROOM_PIECE (for which the plan's room is sized, `capacity`).
/// The table, its blocks and the piece it took; None if even that does not fit.
pub fn build_within(begins: &[i64], ends: &[i64], groups: usize, piece: i64, slots: i64) -> Option<(Vec<[u64; 2]>, u32, i64)> {
    within(&mut Scratch::default(), begins, ends, groups, piece, slots)
}

fn within(scratch: &mut Scratch, begins: &[i64], ends: &[i64], groups: usize, piece: i64, slots: i64) -> Option<(Vec<[u64; 2]>, u32, i64)> {
    // No count where even the most blocks the rows' lengths allow fit the room (one walk of
    // fb100_Cornell5's two).
    let (_, most) = Lengths::of(begins, ends, groups).blocks(groups, piece);
    let piece = if (most * groups as u64) as i64 <= slots { piece } else { piece_within(scratch, begins, ends, groups, piece, slots)?.0 };
    let (table, blocks) = build_with(scratch, begins, ends, groups, piece);
    Some((table, blocks, piece))
}

/// The table of the shortest pieces, from `shortest` entries up to `fallback` (up to PIECE where
/// `grow`), whose blocks times `runs` (the column-slice runs of a call) stay within `wave` resident
/// blocks: one wave, so that no block waits for another to finish. Where none does, pieces of
/// `fallback` entries. Each within a room of `slots` slots (`build_within`). The table, its blocks
/// and the piece it took.
/// Measured (Nsight kernel times, against pieces of max(16, the share of the device's groups)):
/// - pieces of one round of B loads took the DNN layers' kernels from 6.2-8.0 to 5.0-6.8 us at N
///   = 32-256, citeseer's from 6.4-8.0 to 5.3-7.0, where the call stayed within a wave; they cost
///   1.3-2.5 us wherever the shorter pieces' blocks spilled into a second wave (COX2_MD, BZR_MD and
///   pushpull at N = 32, bcsstk13 at N = 64-128), hence the wave;
/// - pieces longer than the share, so that a call of 1.1-1.5 waves fits one (`grow`): EX5 N = 32
///   10.8 -> 8.6 us, BZR_MD N = 64 10.4 -> 8.1, pushpull N = 128 17.4 -> 14.2, bcsstk13 N = 256
///   13.8 -> 11.0; but 0.4-0.9 us slower on squirrel, twitch_FR and crocodile at N = 32-64, whose
///   rows of thousands of entries make long chains of every piece (and whose chain-sorted last
///   blocks are short): only matrices whose rows are at most GROW_LONGEST entries grow them.
pub fn build_one_wave(
    begins: &[i64],
    ends: &[i64],
    groups: usize,
    (shortest, fallback, grow): (i64, i64, bool),
    (runs, wave): (u64, u64),
    slots: i64,
) -> Option<(Vec<[u64; 2]>, u32, i64)> {
    let fallback = fallback.clamp(MIN_PIECE, PIECE);
    let shortest = shortest.clamp(MIN_PIECE, fallback);
    let longest = if grow { PIECE } else { fallback };
    let scratch = &mut Scratch::default();
    if shortest >= longest {
        return within(scratch, begins, ends, groups, fallback, slots);
    }
    // The pieces are chosen by counting the tables' blocks (only the chosen table is built), and
    // most counts are settled by bounds from the rows' lengths without a walk: a piece whose
    // pieces alone fill more blocks than a wave holds fails (from ROOM_PIECE on, where
    // piece_within would not try longer pieces in its place); one whose table fits the room and
    // the wave even with the most idle slots a walk could leave passes.
    let lengths = Lengths::of(begins, ends, groups);
    let most_blocks = wave / runs.max(1);
    let mut one_wave = |piece: i64| {
        let (fewest, most) = lengths.blocks(groups, piece);
        if piece >= ROOM_PIECE && fewest > most_blocks {
            return None;
        }
        if most <= most_blocks && (most * groups as u64) as i64 <= slots {
            return Some(piece);
        }
        piece_within(scratch, begins, ends, groups, piece, slots)
            .filter(|&(_, blocks)| blocks as u64 <= most_blocks)
            .map(|(piece, _)| piece)
    };
    let chosen = match one_wave(shortest) {
        Some(fits) => Some(fits),
        None => {
            // Longer pieces make fewer blocks: the shortest that fits, by bisection.
            let (mut lo, mut hi, mut best) = (shortest + 1, longest, None);
            while lo <= hi {
                let mid = (lo + hi) / 2;
                match one_wave(mid) {
                    Some(fits) => {
                        best = Some(fits);
                        hi = mid - 1;
                    }
                    None => lo = mid + 1,
                }
            }
            best
        }
    };
    match chosen {
        Some(piece) => {
            let (table, blocks) = build_with(scratch, begins, ends, groups, piece);
            Some((table, blocks, piece))
        }
        None => within(scratch, begins, ends, groups, fallback, slots),
    }
}

/// Rows 0 .. steps.len() into `order` by their chain's step (`chain / CHAIN_STEP` rounded up),
/// longest first, stably (a counting sort; `start` is its scratch).
fn longest_chains_first(steps: &[u32], order: &mut Vec<u32>, start: &mut Vec<u32>) {
    let top = steps.iter().copied().max().unwrap_or(0) as usize;
    start.clear();
    start.resize(top + 2, 0);
    for &s in steps {
        start[top - s as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    order.clear();
    order.resize(steps.len(), 0);
    for (r, &s) in steps.iter().enumerate() {
        let s = &mut start[top - s as usize];
        order[*s as usize] = r as u32;
        *s += 1;
    }
}

struct Table {
    slots: Vec<[u64; 2]>,
    /// Slots laid out (those in `slots` where `keep`).
    len: usize,
    keep: bool,
    cutting: Cutting,
    /// Slots used in the open block.
    used: usize,
}

/// How rows are cut for groups of a block: into pieces of at most `piece` entries, no more than
/// `groups` of them.
#[derive(Clone, Copy)]
struct Cutting {
    piece: i64,
    groups: usize,
}

impl Cutting {
    /// Pieces of a row of `len` entries.
    fn pieces(self, len: i64) -> usize {
        if len <= self.piece {
            1
        } else {
            (ceil_div(len, self.piece) as usize).min(self.groups)
        }
    }

    /// A row of `len` entries in pieces of `per` entries: (per, pieces); `per` is the longest
    /// piece, its group's chain. A row cut into one piece
    /// per group of a block may need fewer than that to cover it (33 entries over 8 groups: 7
    /// pieces of 5), and takes no empty one.
    fn cut(self, len: i64) -> (i64, usize) {
        let per = ceil_div(len, self.pieces(len) as i64).max(1);
        (per, (ceil_div(len, per) as usize).max(1))
    }
}

impl Table {
    /// Places a row of `len` entries from `begin`, cut as `Cutting::cut` cuts it.
    fn place(&mut self, row: u64, begin: i64, len: i64, (per, pieces): (i64, usize)) {
        if self.used + pieces > self.cutting.groups {
            self.close_block();
        }
        if self.keep {
            for i in 0..pieces {
                let b = begin + i as i64 * per;
                let n = (len - i as i64 * per).clamp(0, per);
                let lead = if i == 0 { pieces as u64 } else { 0 };
                self.slots.push([b as u64 | lead << BEGIN_BITS, row | (n as u64) << 32]);
            }
        }
        self.len += pieces;
        self.used += pieces;
    }

    /// Fills the open block with idle slots.
    fn close_block(&mut self) {
        if self.used > 0 {
            self.len += self.cutting.groups - self.used;
            if self.keep {
                self.slots.resize(self.len, [0, 0]);
            }
            self.used = 0;
        }
    }
}

/// A table of whole rows in `order` (row_order.rs): one slot per row, `groups` a block, the last
/// block filled with idle slots; and the number of blocks.
pub fn whole_rows(order: &[u32], begins: &[i64], ends: &[i64], groups: usize) -> (Vec<[u64; 2]>, u32) {
    let mut slots: Vec<[u64; 2]> = order
        .iter()
        .map(|&r| {
            let (b, e) = (begins[r as usize], ends[r as usize]);
            [b as u64 | 1 << BEGIN_BITS, r as u64 | ((e - b).max(0) as u64) << 32]
        })
        .collect();
    slots.resize(slots.len().div_ceil(groups.max(1)) * groups.max(1), [0, 0]);
    let blocks = (slots.len() / groups.max(1)) as u32;
    (slots, blocks)
}

/// a / b rounded up, for a >= 0, b > 0.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// Decodes row offsets of `index_bytes` (4 or 8) bytes each, less `base`: row r is entries
/// offsets[r] .. offsets[r + 1].
pub fn offsets_from_bytes(bytes: &[u8], index_bytes: usize, base: i64) -> Vec<i64> {
    match index_bytes {
        4 => bytes.chunks_exact(4).map(|c| i32::from_ne_bytes(c.try_into().unwrap()) as i64 - base).collect(),
        _ => bytes.chunks_exact(8).map(|c| i64::from_ne_bytes(c.try_into().unwrap()) - base).collect(),
    }
}

/// Bytes of a table of `slots` slots: the token's 16, then the slots.
pub fn table_bytes(slots: i64) -> usize {
    SLOT_BYTES * (1 + slots.max(0) as usize)
}

/// The table's header: `token`, then 0 (one slot's bytes).
pub fn header(token: u64) -> [u8; SLOT_BYTES] {
    let mut h = [0u8; SLOT_BYTES];
    h[..8].copy_from_slice(&token.to_ne_bytes());
    h
}

/// The table as uploaded, in parts at their offsets from its start: the header, then the slots
/// as they lie in memory (not copied into one buffer of the table's bytes: fresh pages, 4 MB for
/// mdual's row-order table; and a byte-wise copy took 0.5 ms of EX5's 2.1 ms preprocess at N =
/// 32).
pub fn upload_parts<'a>(header: &'a [u8; SLOT_BYTES], slots: &'a [[u64; 2]]) -> [(usize, &'a [u8]); 2] {
    [(0, header), (SLOT_BYTES, slots_as_bytes(slots))]
}

/// Table slots as their bytes, in native order (as `to_ne_bytes` gives).
pub fn slots_as_bytes(slots: &[[u64; 2]]) -> &[u8] {
    // SAFETY: `[u64; 2]` has no padding and every byte of it is initialised, so the slots may be
    // read as bytes, for as long as they are borrowed.
    unsafe { std::slice::from_raw_parts(slots.as_ptr().cast::<u8>(), std::mem::size_of_val(slots)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (row, begin, len, pieces) of a slot.
    fn decode(s: [u64; 2]) -> (u64, i64, i64, u64) {
        (s[1] & 0xffff_ffff, (s[0] & ((1 << BEGIN_BITS) - 1)) as i64, (s[1] >> 32) as i64, s[0] >> BEGIN_BITS)
    }

    /// Begins and ends of rows of `lens` entries, stored one after another.
    fn offsets(lens: &[i64]) -> (Vec<i64>, Vec<i64>) {
        let mut begins = vec![0i64];
        for l in lens {
            begins.push(begins.last().unwrap() + l);
        }
        let ends = begins[1..].to_vec();
        begins.pop();
        (begins, ends)
    }

    /// Counting a table (the piece searches) gives the slots and blocks that building it does,
    /// within the bounds the rows' lengths give, and the upload's parts lay out the token, a zero
    /// word, then each slot's two words.
    #[test]
    fn counting_agrees_with_building() {
        let mut seed = 7u64;
        let mut next = |n: i64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % n as u64) as i64
        };
        for trial in 0..200 {
            let rows = 1 + next(2000);
            let lens: Vec<i64> = (0..rows).map(|_| if next(50) == 0 { next(4000) } else { next(1 + trial % 70) }).collect();
            let (begins, ends) = offsets(&lens);
            for (groups, piece) in [(8, 4), (16, 16), (32, 23), (32, PIECE)] {
                let (slots, blocks) = build(&begins, &ends, groups, piece);
                assert_eq!(
                    count(&mut Scratch::default(), &begins, &ends, groups, piece),
                    (slots.len(), blocks),
                    "trial {trial}, {groups} groups, piece {piece}"
                );
                let (fewest, most) = Lengths::of(&begins, &ends, groups).blocks(groups, piece);
                assert!((fewest..=most).contains(&(blocks as u64)), "trial {trial}: {blocks} blocks outside the bounds {fewest}..={most}");
                let header = header(0x0123_4567_89ab_cdef);
                let mut bytes = vec![0u8; table_bytes(slots.len() as i64)];
                for (at, part) in upload_parts(&header, &slots) {
                    bytes[at..at + part.len()].copy_from_slice(part);
                }
                let words: Vec<u64> = bytes.chunks_exact(8).map(|c| u64::from_ne_bytes(c.try_into().unwrap())).collect();
                assert_eq!(words.len(), 2 * (1 + slots.len()));
                assert_eq!(&words[..2], &[0x0123_4567_89ab_cdef, 0]);
                assert!(slots.iter().flatten().eq(words[2..].iter()), "trial {trial}: the slots' words in order");
            }
        }
    }

    /// Every entry of every row lies in exactly one piece, the pieces of a row are consecutive in
    /// one block and in entry order, led by a slot that counts them; the table fits `capacity`.
    fn check(lens: &[i64], groups: usize, piece: i64) {
        let (begins, ends) = offsets(lens);
        let (slots, blocks) = build(&begins, &ends, groups, piece);
        assert_eq!(slots.len(), blocks as usize * groups);
        let nnz: i64 = lens.iter().sum();
        if piece >= ROOM_PIECE {
            assert!(slots.len() as i64 <= capacity(lens.len() as i64, nnz, groups as i64), "{} slots over capacity", slots.len());
        }
        let mut covered = vec![0i64; lens.len()];
        let mut i = 0;
        while i < slots.len() {
            let (row, begin, len, pieces) = decode(slots[i]);
            if pieces == 0 {
                assert_eq!((row, len), (0, 0), "an idle slot outside a row's pieces");
                i += 1;
                continue;
            }
            let r = row as usize;
            assert_eq!(begin, begins[r], "a row starts with its first piece");
            assert!(i % groups + pieces as usize <= groups, "a row's pieces stay in one block");
            let mut next = begin;
            for s in 0..pieces as usize {
                let (pr, pb, pl, pp) = decode(slots[i + s]);
                assert_eq!((pr, pb), (row, next), "pieces in entry order");
                assert_eq!(pp, if s == 0 { pieces } else { 0 });
                assert!(pl <= piece.max(ceil_div(lens[r], groups as i64)));
                next += pl;
                covered[r] += pl;
            }
            if pieces == 1 {
                assert_eq!(len, lens[r]);
            }
            i += pieces as usize;
        }
        assert_eq!(covered, lens, "every entry once");
    }

    #[test]
    fn tables_cover_every_entry_once_within_capacity() {
        check(&[], 32, PIECE);
        check(&[0, 0, 3], 32, PIECE);
        check(&[64, 65, 128, 129, 0, 1], 32, PIECE);
        check(&[PIECE * 32 + 1, 5, PIECE * 40], 32, PIECE);
        check(&[PIECE * 16 + 7; 3], 16, PIECE);
        check(&[16, 17, 33, 50, 0, 1, 600], 32, MIN_PIECE);
        // Seeded random skewed rows (a few long ones among many short), several block sizes.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for groups in [8usize, 16, 32] {
            let lens: Vec<i64> = (0..3000)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    match x % 100 {
                        0 => (x >> 8) as i64 % 5000,
                        1..=10 => (x >> 8) as i64 % 400,
                        _ => (x >> 8) as i64 % 40,
                    }
                })
                .collect();
            for piece in [MIN_PIECE, 8, ROOM_PIECE, 40, PIECE] {
                check(&lens, groups, piece);
            }
        }
    }

    /// Pieces grow from the shortest until the call fits one wave of blocks, else take the fallback.
    #[test]
    fn pieces_grow_until_one_wave() {
        let (begins, ends) = offsets(&[48i64; 64]);
        let room = 2000;
        // Pieces of 4: 12 a row, 2 rows a block: 32 blocks; of 5: 10, 3: 22; of 6 or 7: 8 or 7, 4:
        // 16; of 8: 6, 5: 13; of 16: 3, 10: 7.
        let blocks = |wave: u64, grow: bool| build_one_wave(&begins, &ends, 32, (4, 16, grow), (2, wave), room).map(|(_, b, p)| (b, p));
        assert_eq!(blocks(64, false), Some((32, 4)), "two runs of 32 blocks fill a wave of 64");
        assert_eq!(blocks(63, false), Some((22, 5)));
        assert_eq!(blocks(30, false), Some((13, 8)));
        assert_eq!(blocks(2, false), Some((7, 16)), "nothing fits: the fallback");
        assert_eq!(blocks(13, false), Some((7, 16)), "pieces of 16 are the fallback's, not searched past");
        assert_eq!(blocks(13, true), Some((4, 24)), "grown: 2 pieces a row, 16 rows a block");
        let within_room = build_one_wave(&begins, &ends, 32, (4, 16, false), (2, 64), capacity(64, 48 * 64, 32)).map(|(_, b, p)| (b, p));
        assert_eq!(within_room, Some((13, 8)), "pieces of 4 overflow the plan's room of 928 slots");
        let (_, _, piece) = build_one_wave(&begins, &ends, 32, (PIECE, PIECE, true), (1, 1), room).unwrap();
        assert_eq!(piece, PIECE, "a large matrix's pieces as they were");
    }

    /// Short pieces that overflow the room give way to longer ones, up to the room's ROOM_PIECE.
    #[test]
    fn short_pieces_fall_back_to_the_room() {
        let lens = [64i64; 100];
        let (begins, ends) = offsets(&lens);
        let room = capacity(100, 6400, 32);
        let (table, blocks, piece) = build_within(&begins, &ends, 32, MIN_PIECE, room).unwrap();
        assert_eq!((piece, table.len(), blocks), (MIN_PIECE, 1600, 50), "16 pieces of 4 a row fit");
        let (_, _, piece) = build_within(&begins, &ends, 32, MIN_PIECE, 900).unwrap();
        assert_eq!(piece, 8, "800 slots of pieces of 8");
        let (_, _, piece) = build_within(&begins, &ends, 32, MIN_PIECE, 416).unwrap();
        assert_eq!(piece, ROOM_PIECE, "13 blocks of 8 rows in 4 pieces");
        assert!(build_within(&begins, &ends, 32, MIN_PIECE, 415).is_none());
    }

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

    #[test]
    fn whole_block_rows_come_first() {
        let (slots, _) = build(&[0, 10, 10 + PIECE * 40], &[10, 10 + PIECE * 40, 20 + PIECE * 40], 32, PIECE);
        assert_eq!(decode(slots[0]).0, 1, "the row of 40 pieces' worth leads");
        assert_eq!(decode(slots[0]).3, 32);
    }

    /// Rows are placed longest chain first (in CHAIN_STEP steps), stably.
    #[test]
    fn blocks_get_rows_of_like_chains() {
        // Chains in steps: 1, 8, 2, 8, 1, 3, 8, 2, 5, 1.
        let (begins, ends) = offsets(&[3, 64, 9, 60, 8, 20, 57, 16, 40, 1]);
        let rows: Vec<u64> = build(&begins, &ends, 4, PIECE).0.iter().map(|s| decode(*s).0).collect();
        assert_eq!(rows, vec![1, 3, 6, 8, 5, 2, 7, 0, 4, 9, 0, 0]);
        // A row of two pieces (chain 33) leads rows of 20-32 entries.
        let (begins, ends) = offsets(&[20, 66, 32]);
        let first = decode(build(&begins, &ends, 4, PIECE).0[0]);
        assert_eq!((first.0, first.3), (1, 2));
    }

    #[test]
    fn whole_rows_take_one_slot_each_in_order() {
        let (begins, ends) = offsets(&[3, 0, 200, 7]);
        let (slots, blocks) = whole_rows(&[2, 0, 3, 1], &begins, &ends, 3);
        assert_eq!(blocks, 2);
        let got: Vec<_> = slots.iter().map(|&s| decode(s)).collect();
        assert_eq!(got, vec![(2, 3, 200, 1), (0, 0, 3, 1), (3, 203, 7, 1), (1, 3, 0, 1), (0, 0, 0, 0), (0, 0, 0, 0)]);
    }

    #[test]
    fn offsets_decode_with_base() {
        let bytes: Vec<u8> = [1i32, 3, 3, 7].iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(offsets_from_bytes(&bytes, 4, 1), vec![0, 2, 2, 6]);
        let bytes: Vec<u8> = [0i64, 5].iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(offsets_from_bytes(&bytes, 8, 0), vec![0, 5]);
    }
}
