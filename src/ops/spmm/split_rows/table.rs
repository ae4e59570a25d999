//! The split-row table and its build on the host: the rows placed longest chain first into
//! blocks of groups, cut into pieces that fit the plan's room (`build_within`) and, where they
//! can, one wave of blocks (`build_one_wave`); or whole rows in a given order (`whole_rows`).
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

use super::{ceil_div, MIN_PIECE, PIECE, ROOM_PIECE};

const BEGIN_BITS: u32 = 48;

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

/// A table of whole rows in `order` (row_order/): one slot per row, `groups` a block, the last
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

#[cfg(test)]
mod tests {
    use super::super::{capacity, header, table_bytes, upload_parts};
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
}
