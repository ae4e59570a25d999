//! The warp-row table's layout, its room in the workspace and its build on the host: preprocess's
//! `build`, or the long rows alone (`long_part`, `long_part_of`), the short rows' items then left to
//! the GPU.
//!
//! The table, after a 16-byte header whose first u64 is preprocess's token: `items` slots of 16
//! bytes, `begin | len << 48`, then `row` for a whole row or `add slot | (slot + 1) << 32` for a
//! piece of a split row; then `adds` slots, `row` and `first slot | count << 32`. The split rows'
//! pieces come first, longest rows first, then whole rows longer than a piece, then the others in
//! row order. Every row has at least one item (an empty row writes C = beta * C), so the items
//! outnumber the rows and the kernel's grid covers them when the table is not trusted. Arrival
//! counters follow the table (`counter_bytes`), zero when uploaded and after every call. The
//! header's second u64 is 0 in preprocess's table; the GPU's writes its item count there, its
//! adds after all `room.items` slots, and zeroes the counters its split rows use.

use super::PIECE;
use crate::ops::spmm::split_rows::ceil_div;
use crate::types::DataType;

pub(super) const BEGIN_BITS: u32 = 48;
pub const SLOT_BYTES: usize = 16;
const HEADER_BYTES: usize = 16;

/// What the workspace keeps for the table: item slots, add slots, partial rows. A row of up to
/// `whole` entries is one item; a longer one (a split row, of at least whole + 1 entries, so at
/// most nnz / (whole + 1) of them) ceil(len / PIECE) < len / PIECE + 1 items, each a partial row,
/// and one add. So adds <= S = ceil(nnz / (whole + 1)), partial rows <= ceil(nnz / PIECE) + S,
/// items <= m + that. (Bounding by `whole` rather than 2 nnz / PIECE partial rows nearly halves the
/// room: fb100_Cornell5 at N = 256 in FP32 50 -> 29 MB.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub items: i64,
    pub adds: i64,
    pub partial_rows: i64,
}

pub fn room(m: i64, nnz: i64, whole: i64) -> Room {
    let nnz = nnz.max(0);
    let splits = ceil_div(nnz, whole.max(PIECE) + 1);
    let pieces = ceil_div(nnz, PIECE) + splits;
    Room { items: m.max(0) + pieces, adds: splits, partial_rows: pieces }
}

/// Bytes of the table for `room` (header and slots).
pub fn table_bytes(room: Room) -> usize {
    HEADER_BYTES + (room.items + room.adds) as usize * SLOT_BYTES
}

/// Bytes of the arrival counters for `adds` split rows of `partial_rows` pieces at n columns: a
/// u32 per split row and per partial row (its group's counter when it starts a group), per column
/// slice of the grid.
pub fn counter_bytes(adds: i64, partial_rows: i64, n: i64, value: DataType) -> usize {
    (adds.max(0) + partial_rows.max(0)) as usize * crate::kernels::spmm::warp_rows_slices(n, value) as usize * 4
}

/// The items and adds for rows `begins[r] .. ends[r]` (entry offsets) in pieces of `piece`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub items: Vec<[u64; 2]>,
    pub adds: Vec<[u64; 2]>,
    pub partial_rows: i64,
}

/// The whole table on the host: the long part, then an item per short row in row order (what
/// `kernels::spmm::warp_rows_short_items` writes on the GPU; this is its reference).
pub fn build(begins: &[i64], ends: &[i64], piece: i64, whole: i64) -> Table {
    let LongPart { mut table, short_rows, .. } = long_part(begins, ends, piece, whole);
    table.items.reserve_exact(short_rows);
    for r in (0..begins.len()).filter(|&r| (ends[r] - begins[r]).max(0) <= piece) {
        table.items.push(short_item(begins[r], (ends[r] - begins[r]).max(0), r as u64));
    }
    table
}

/// The item of a row of at most a piece, taken whole: `begin | len << 48`, `row`.
pub(super) fn short_item(begin: i64, len: i64, row: u64) -> [u64; 2] {
    [begin as u64 | (len as u64) << BEGIN_BITS, row]
}

/// The rows longer than a piece, as the table lays them out: `table` holds their items (split
/// rows first, then whole rows longer than a piece, each longest first, ties in row order, so
/// that the longest chains start in the first wave and share blocks) and the adds. The short
/// rows' items follow theirs, one per row in row order: `short_rows` of them, the item of row r
/// at `table.items.len() + r - (long rows before r)`; `long_rows` lists the long rows in row order
/// for that rank.
pub struct LongPart {
    pub table: Table,
    pub long_rows: Vec<u32>,
    pub short_rows: usize,
}

impl LongPart {
    /// Items of the whole table.
    pub fn items(&self) -> usize {
        self.table.items.len() + self.short_rows
    }
}

pub fn long_part(begins: &[i64], ends: &[i64], piece: i64, whole: i64) -> LongPart {
    let long = (0..begins.len())
        .filter_map(|r| {
            let len = (ends[r] - begins[r]).max(0);
            (len > piece).then_some(LongRow { begin: begins[r], len, row: r as u32 })
        })
        .collect();
    long_part_of(long, begins.len(), piece, whole)
}

/// A row longer than a piece: its first entry, its length and its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongRow {
    pub begin: i64,
    pub len: i64,
    pub row: u32,
}

/// Bytes of a listed long row (`kernels::spmm::warp_rows_list_long`: first entry, length, row).
pub const LISTED_ROW_BYTES: usize = crate::kernels::params::spmm::SPMM_WARP_ROWS_LISTED_WORDS as usize * 8;

/// The long rows the GPU listed (`LISTED_ROW_BYTES` each: first entry, length, row).
pub fn listed_rows(bytes: &[u8]) -> Vec<LongRow> {
    let word = |c: &[u8], i: usize| u64::from_ne_bytes(c[8 * i..8 * i + 8].try_into().unwrap());
    bytes
        .chunks_exact(LISTED_ROW_BYTES)
        .map(|c| LongRow { begin: word(c, 0) as i64, len: word(c, 1) as i64, row: word(c, 2) as u32 })
        .collect()
}

/// `long_part` from the long rows alone, in any order, of a matrix of `m` rows: preprocess lists
/// them on the GPU (`kernels::spmm::warp_rows_list_long`, in the order their slots were claimed)
/// rather than reading every row back. The same table: longest first, ties in row order.
pub fn long_part_of(mut long: Vec<LongRow>, m: usize, piece: i64, whole: i64) -> LongPart {
    let item = |begin: i64, len: i64, at: u64, slot: i64| [begin as u64 | (len as u64) << BEGIN_BITS, at | ((slot + 1) as u64) << 32];
    let whole = whole.max(piece);
    long.sort_unstable_by_key(|r| (std::cmp::Reverse(r.len), r.row));
    let mut long_rows: Vec<u32> = long.iter().map(|r| r.row).collect();
    long_rows.sort_unstable();
    // The slots counted first, so that each vector is allocated once at its size.
    let split = |r: &&LongRow| r.len > whole;
    let adds = long.iter().filter(split).count();
    let pieces: i64 = long.iter().filter(split).map(|r| ceil_div(r.len, piece)).sum();
    let mut t = Table { items: Vec::with_capacity(long.len() - adds + pieces as usize), adds: Vec::with_capacity(adds), partial_rows: 0 };
    for r in &long {
        if r.len <= whole {
            t.items.push(item(r.begin, r.len, r.row as u64, -1));
            continue;
        }
        let count = ceil_div(r.len, piece);
        let add = t.adds.len() as u64;
        t.adds.push([r.row as u64, t.partial_rows as u64 | (count as u64) << 32]);
        for i in 0..count {
            let begin = r.begin + i * piece;
            t.items.push(item(begin, piece.min(r.begin + r.len - begin), add, t.partial_rows + i));
        }
        t.partial_rows += count;
    }
    let short_rows = m - long_rows.len();
    LongPart { table: t, long_rows, short_rows }
}

/// Whether a table of `items` items (`LongPart::items`) and `t`'s adds and partial rows fits its
/// room, and the kernel's 32-bit counts.
pub fn fits_room(items: usize, t: &Table, room: Room) -> bool {
    items as i64 <= room.items.min(i32::MAX as i64)
        && t.adds.len() as i64 <= room.adds.min(i32::MAX as i64)
        && t.partial_rows <= room.partial_rows
}

/// The table's header (the token, then 0) is the split-row table's.
pub use crate::ops::spmm::split_rows::header;

/// The table as uploaded, in parts at their offsets from its start: the header, the items, the
/// adds. The counters after them (`counter_bytes` at the layout's `counters_at`) are zeroed on
/// the device, not sent: the parts are the table's own bytes, not copied into one buffer (for
/// youtube_like, 18 MB more of fresh pages). With `items` past the table's own (a long part's
/// whole count), the adds go after that many, and the items between are the GPU's to write.
pub fn upload_parts<'a>(header: &'a [u8; HEADER_BYTES], t: &'a Table, items: usize) -> [(usize, &'a [u8]); 3] {
    debug_assert!(items >= t.items.len());
    let bytes = crate::ops::spmm::split_rows::slots_as_bytes;
    [(0, header), (HEADER_BYTES, bytes(&t.items)), (HEADER_BYTES + items * SLOT_BYTES, bytes(&t.adds))]
}

/// Where the short rows' items go: the byte offset of item `first` from the table's start.
pub fn item_offset(first: usize) -> usize {
    HEADER_BYTES + first * SLOT_BYTES
}

#[cfg(test)]
mod tests {
    use super::super::tests::{item, rows};
    use super::super::{build_by_class, whole_max};
    use super::*;

    #[test]
    fn every_entry_lies_in_one_item_and_pieces_are_added_in_order() {
        // Seeded lengths of many shapes: empty rows, rows of exactly PIECE, one hub row.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut lens: Vec<i64> = (0..500)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                [0, 1, 5, 63, 64, 65, 130, 7][(state >> 60) as usize % 8]
            })
            .collect();
        lens.push(10_000);
        let (begins, ends) = rows(&lens);
        for (piece, whole) in [(4, 4), (16, 16), (PIECE, PIECE), (16, 100), (PIECE, 5 * PIECE)] {
            let t = build(&begins, &ends, piece, whole);
            let nnz: i64 = lens.iter().sum();
            assert!(
                fits_room(t.items.len(), &t, room(lens.len() as i64, nnz, whole)) || piece < PIECE,
                "room for pieces of {piece}, whole rows to {whole}"
            );
            let mut covered = vec![0u8; nnz as usize];
            let mut rows_seen = vec![0usize; lens.len()];
            for s in &t.items {
                let (r, b, l, slot) = item(&t, s);
                assert!(l <= if slot < 0 { whole } else { piece } && b >= begins[r as usize] && b + l <= ends[r as usize]);
                assert!(slot >= 0 || l == lens[r as usize], "a whole row is one item");
                assert!(slot < 0 || lens[r as usize] > whole, "only rows longer than `whole` are cut");
                rows_seen[r as usize] += 1;
                covered[b as usize..(b + l) as usize].iter_mut().for_each(|c| *c += 1);
            }
            assert!(covered.iter().all(|&c| c == 1), "each entry once (pieces of {piece})");
            assert!(rows_seen.iter().all(|&n| n >= 1), "every row, empty ones too, has an item");
            // Each add's pieces are consecutive slots holding the row's pieces in entry order.
            for a in &t.adds {
                let (row, first, count) = (a[0] as i64, (a[1] & 0xffff_ffff) as i64, (a[1] >> 32) as i64);
                let mut pieces: Vec<(i64, i64)> =
                    t.items.iter().map(|s| item(&t, s)).filter(|i| i.0 == row && i.3 >= 0).map(|i| (i.3, i.1)).collect();
                pieces.sort();
                assert_eq!(pieces.len() as i64, count);
                assert!(pieces.iter().enumerate().all(|(i, p)| p.0 == first + i as i64));
                assert!(pieces.windows(2).all(|w| w[0].1 < w[1].1), "slot order is entry order");
            }
            let whole = t.items.iter().map(|s| item(&t, s)).filter(|i| i.3 < 0).count();
            assert_eq!(whole + t.adds.len(), lens.len());
            // Pieces come first, the longest split rows first; whole rows after, in row order.
            let kinds: Vec<bool> = t.items.iter().map(|s| item(&t, s).3 >= 0).collect();
            assert!(kinds.windows(2).all(|w| w[0] || !w[1]), "pieces before whole rows");
            let counts: Vec<u64> = t.adds.iter().map(|a| a[1] >> 32).collect();
            assert!(counts.windows(2).all(|w| w[0] >= w[1]), "longest split rows first");
            // Then whole rows longer than a piece, longest first; then the rest in row order.
            let whole_rows: Vec<(i64, i64)> = t.items.iter().map(|s| item(&t, s)).filter(|i| i.3 < 0).map(|i| (i.0, i.2)).collect();
            let long = whole_rows.iter().take_while(|w| w.1 > piece).count();
            assert!(whole_rows[..long].windows(2).all(|w| w[0].1 >= w[1].1), "long whole rows longest first");
            assert!(whole_rows[long..].iter().all(|w| w.1 <= piece), "long whole rows before the others");
            assert!(whole_rows[long..].windows(2).all(|w| w[0].0 < w[1].0), "short rows in row order");
        }
    }

    #[test]
    fn room_bounds_the_worst_rows() {
        // Rows of whole + 1 entries make the most split rows, and rows of a piece more than a
        // multiple of PIECE the most pieces per entry.
        for whole in [PIECE, 2 * PIECE, 5 * PIECE, 8 * PIECE] {
            for (m, len) in [(1000, whole + 1), (1000, PIECE + 1), (100, 3 * whole + 1), (10, 1_000_000), (7, 0), (3, PIECE), (500, whole)]
            {
                let (begins, ends) = rows(&vec![len; m]);
                let t = build(&begins, &ends, PIECE, whole);
                assert!(fits_room(t.items.len(), &t, room(m as i64, len * m as i64, whole)), "{m} rows of {len}, whole {whole}");
            }
            // Mixed lengths, seeded.
            let mut state = 0x5EED_0000u64 + whole as u64;
            let lens: Vec<i64> = (0..3000)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    [0, 3, whole, whole + 1, whole + PIECE + 1, 2 * whole + 1, 10 * whole][(state >> 59) as usize % 7]
                })
                .collect();
            let (begins, ends) = rows(&lens);
            let nnz: i64 = lens.iter().sum();
            for t in [build(&begins, &ends, PIECE, whole), build_by_class(&begins, &ends, PIECE, whole)] {
                assert!(fits_room(t.items.len(), &t, room(lens.len() as i64, nnz, whole)), "mixed rows, whole {whole}");
            }
        }
        // Fewer partial rows than the older bound (2 nnz / PIECE) at the larger wholes.
        assert!(room(18_660, 1_581_554, whole_max(1_581_554, None)).partial_rows < 2 * 1_581_554 / PIECE * 6 / 10);
    }

    #[test]
    fn parts_lay_out_the_table() {
        let (begins, ends) = rows(&[3, 200]);
        let t = build(&begins, &ends, PIECE, PIECE);
        assert_eq!((t.items.len(), t.adds.len(), t.partial_rows), (5, 1, 4));
        let h = header(42);
        let parts = upload_parts(&h, &t, t.items.len());
        let mut image = vec![0u8; table_bytes(Room { items: 5, adds: 1, partial_rows: 4 })];
        for (at, bytes) in parts {
            image[at..at + bytes.len()].copy_from_slice(bytes);
        }
        assert_eq!(u64::from_ne_bytes(image[..8].try_into().unwrap()), 42);
        let slot = |i: usize| [0, 8].map(|o| u64::from_ne_bytes(image[HEADER_BYTES + 16 * i + o..][..8].try_into().unwrap()));
        assert!((0..5).all(|i| slot(i) == t.items[i]) && slot(5) == t.adds[0], "items, then adds, in native order");
        // Two slices of 256 columns: (1 split row + 4 partial rows) x 2 counters, zeroed on the device.
        assert_eq!(counter_bytes(t.adds.len() as i64, t.partial_rows, 512, DataType::CUDA_R_32F), 5 * 2 * 4);
    }

    /// The long part, then a short item per short row at its rank past the long rows, is the
    /// table.
    #[test]
    fn the_long_part_and_the_ranks_make_the_table() {
        for lens in [vec![3, 200, 0, 64, 65, 10_000, 129, 7, 7, 500], vec![], vec![0; 5], vec![1000; 40], vec![1, 2, 3]] {
            let (begins, ends) = rows(&lens);
            for whole in [PIECE, 3 * PIECE] {
                let t = build(&begins, &ends, PIECE, whole);
                let part = long_part(&begins, &ends, PIECE, whole);
                assert_eq!(part.items(), t.items.len());
                assert!(part.long_rows.windows(2).all(|w| w[0] < w[1]), "long rows in row order");
                let mut items = part.table.items.clone();
                items.resize(part.items(), [0, 0]);
                for r in (0..lens.len()).filter(|&r| lens[r] <= PIECE) {
                    let rank = r - part.long_rows.partition_point(|&l| (l as usize) < r);
                    items[part.table.items.len() + rank] = short_item(begins[r], lens[r], r as u64);
                }
                assert_eq!(
                    (items, &part.table.adds, part.table.partial_rows),
                    (t.items.clone(), &t.adds, t.partial_rows),
                    "{lens:?}, whole {whole}"
                );
            }
        }
    }

    /// The long rows listed in any order (as the GPU's slots are claimed) lay out the long part
    /// of the walk over every row: ties in length in row order, the long rows' list ascending.
    #[test]
    fn long_rows_in_any_order_lay_out_the_same_long_part() {
        for lens in [vec![3, 200, 0, 65, 65, 10_000, 129, 7, 200, 500, 65], vec![], vec![1000; 40], vec![1, 2, 3]] {
            let (begins, ends) = rows(&lens);
            for whole in [PIECE, 3 * PIECE] {
                let want = long_part(&begins, &ends, PIECE, whole);
                let mut long: Vec<LongRow> = (0..lens.len())
                    .filter(|&r| lens[r] > PIECE)
                    .map(|r| LongRow { begin: begins[r], len: lens[r], row: r as u32 })
                    .collect();
                long.reverse();
                let third = long.len() / 3;
                long.rotate_left(third);
                let bytes: Vec<u8> =
                    long.iter().flat_map(|r| [r.begin as u64, r.len as u64, r.row as u64]).flat_map(|w| w.to_ne_bytes()).collect();
                let got = long_part_of(listed_rows(&bytes), lens.len(), PIECE, whole);
                // The long rows' first items in table order: lengths descending, ties in row order.
                let firsts: Vec<(i64, usize)> = got
                    .table
                    .items
                    .iter()
                    .filter_map(|it| {
                        let (begin, slot) = (it[0] & ((1u64 << BEGIN_BITS) - 1), it[1] >> 32);
                        let row = if slot == 0 { it[1] as usize } else { got.table.adds[(it[1] & 0xffff_ffff) as usize][0] as usize };
                        (begin as i64 == begins[row]).then_some((-lens[row], row))
                    })
                    .collect();
                assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{lens:?}, whole {whole}: long rows not longest first, ties in row order");
                assert_eq!(
                    (&got.table.items, &got.table.adds, got.table.partial_rows),
                    (&want.table.items, &want.table.adds, want.table.partial_rows),
                    "{lens:?}, whole {whole}"
                );
                assert_eq!((&got.long_rows, got.short_rows), (&want.long_rows, want.short_rows), "{lens:?}, whole {whole}");
            }
        }
    }

    /// The vectors are allocated once at their size.
    #[test]
    fn tables_are_allocated_at_their_size() {
        for lens in [vec![3, 200, 0, 64, 65, 10_000, 129], vec![], vec![0; 5], vec![1000; 40]] {
            let (begins, ends) = rows(&lens);
            for whole in [PIECE, 3 * PIECE, 8 * PIECE] {
                let t = build(&begins, &ends, PIECE, whole);
                assert_eq!((t.items.len(), t.adds.len()), (t.items.capacity(), t.adds.capacity()), "{lens:?}, whole {whole}");
            }
        }
    }
}
