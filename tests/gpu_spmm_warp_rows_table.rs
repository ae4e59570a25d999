//! The warp-row table as preprocess lays it out (the long rows' items and the adds from the host,
//! the short rows' items from `oxsparse::kernels::spmm::warp_rows_short_items`) equals the table
//! the host builds whole (`warp_rows::build`, its reference), byte for byte: seeded random rows
//! (short, longer than a piece, longer than a warp takes whole, empty), 32- and 64-bit offsets,
//! base 0 and 1, from no rows to 70000. The table's room is poisoned first; the bytes past the
//! table must come back untouched. Preprocess's long rows listed on the GPU
//! (`warp_rows_list_long`) lay out the same long part as the host's walk of every row.

mod common;
use common::values::encode_indices;
use common::*;

use oxsparse::context::Handle;
use oxsparse::kernels::params::spmm::{
    SpmmChoice, SpmmRows, SpmmWarpRowsBuildParams, SpmmWarpRowsListParams, SpmmWarpRowsShortParams, SPMM_WARP_ROWS_GROUP,
    SPMM_WARP_ROWS_SUM_WORDS,
};
use oxsparse::kernels::spmm::{warp_rows_build, warp_rows_count, warp_rows_list_long, warp_rows_short_items, warp_rows_write};
use oxsparse::kernels::vector_ops::copy_parts_to_device_and_wait;
use oxsparse::ops::spmm::warp_rows::{
    build, build_by_class, gpu_chunk_rows, header, item_offset, listed_rows, long_part, long_part_of, room, upload_parts, LISTED_ROW_BYTES,
    PIECE,
};
use oxsparse::types::IndexType::{self, OXSPARSE_INDEX_32I as I32, OXSPARSE_INDEX_64I as I64};

const POISON: u8 = 0xC3;

fn row_lengths(rng: &mut Rng, m: usize) -> Vec<i64> {
    (0..m)
        .map(|_| match rng.below(100) {
            0 => 64 * 9 + rng.below(3000) as i64,       // split into pieces
            1..=3 => PIECE + 1 + rng.below(200) as i64, // long, whole or split by `whole`
            4..=10 => 0,
            _ => rng.below(PIECE as u64 + 1) as i64,
        })
        .collect()
}

/// Rows of `lens` entries one after another: their first entries and their ends.
fn bounds(lens: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let ends: Vec<i64> = lens
        .iter()
        .scan(0i64, |at, &l| {
            *at += l;
            Some(*at)
        })
        .collect();
    let begins = ends.iter().zip(lens).map(|(e, l)| e - l).collect();
    (begins, ends)
}

/// The table laid out as preprocess does, read back (`bytes` of it and `extra` more).
fn laid_out(h: &Handle, index: IndexType, base: i64, lens: &[i64], whole: i64, bytes: usize, extra: usize) -> Vec<u8> {
    let (begins, ends) = bounds(lens);
    let offsets: Vec<i64> = std::iter::once(0).chain(ends.iter().copied()).map(|o| o + base).collect();
    let offsets_buf = DevBuf::from_slice(&encode_indices(index, &offsets));
    let table = DevBuf::zeroed(bytes + extra);
    table.poison(POISON);
    sync();
    let part = long_part(&begins, &ends, PIECE, whole);
    let long_rows: Vec<u8> = part.long_rows.iter().flat_map(|r| r.to_ne_bytes()).collect();
    let long_buf = DevBuf::zeroed(long_rows.len());
    let h_bytes = header(0x5EED);
    let mut parts: Vec<(u64, &[u8])> =
        upload_parts(&h_bytes, &part.table, part.items()).iter().map(|&(o, b)| (table.ptr + o as u64, b)).collect();
    parts.push((long_buf.ptr, &long_rows));
    copy_parts_to_device_and_wait(h, &parts).expect("upload");
    let p = SpmmWarpRowsShortParams {
        a: SpmmRows { offsets: offsets_buf.ptr, base, ..Default::default() },
        m: lens.len() as i64,
        piece: PIECE,
        long_rows: long_buf.ptr,
        long_count: part.long_rows.len() as i64,
        items: table.ptr + item_offset(0) as u64,
        first_item: part.table.items.len() as i64,
    };
    warp_rows_short_items(h, &p, index).expect("launch");
    table.to_vec()
}

#[test]
fn the_laid_out_table_is_the_built_table() {
    let Some(h) = gpu("the_laid_out_table_is_the_built_table") else { return };
    let mut rng = Rng::new(0x7AB1E);
    let mut cases = 0;
    for (i, &m) in [0usize, 1, 7, 33, 1000, 70_000].iter().enumerate() {
        for whole in [PIECE, 5 * PIECE] {
            let (index, base) = ([I32, I64][(i + cases) % 2], (cases % 3 == 0) as i64);
            let lens = row_lengths(&mut rng, m);
            let (begins, ends) = bounds(&lens);
            let t = build(&begins, &ends, PIECE, whole);
            let mut want = header(0x5EED).to_vec();
            want.extend(t.items.iter().chain(&t.adds).flat_map(|s| s.iter().flat_map(|w| w.to_ne_bytes())));
            let extra = 256;
            let got = laid_out(&h, index, base, &lens, whole, want.len(), extra);
            let what = format!("m {m}, whole {whole}, {index:?}, base {base}: {} items, {} adds", t.items.len(), t.adds.len());
            if let Some(at) = (0..want.len()).find(|&b| got[b] != want[b]) {
                panic!("{what}: first difference at byte {at} (slot {})", at / 16);
            }
            assert!(got[want.len()..].iter().all(|&b| b == POISON), "{what}: bytes past the table written");
            cases += 1;
        }
    }
    println!("warp-row table: {cases} tables laid out on the GPU equal the host's");
}

/// A plain call's table, built wholly on the GPU (`warp_rows_build`) in a poisoned room of the
/// plan's size, equals `build_by_class` byte for byte: the header (token, item count), the
/// items, the adds after the room's item slots; the item slots past the count stay poisoned, and
/// so do the arrival counters but those of each split row and of each group of its pieces, which
/// come back zero. Rows from none long to a hub, 32- and 64-bit offsets, base 0 and 1, one
/// chunk of rows to several, of one round of a block's scan or three, one column slice and two;
/// and the count's verdict for a plain call's chain.
#[test]
fn the_gpu_built_table_is_its_host_twin() {
    let Some(h) = gpu("the_gpu_built_table_is_its_host_twin") else { return };
    let mut rng = Rng::new(0x9B17D);
    let mut cases = 0;
    for (i, &m) in [1usize, 7, 256, 257, 2049, 70_000].iter().enumerate() {
        for (whole, slices) in [(PIECE, 1i64), (5 * PIECE, 2)] {
            let (index, base) = ([I32, I64][(i + cases) % 2], (cases % 3 == 1) as i64);
            let lens = row_lengths(&mut rng, m);
            let (begins, ends) = bounds(&lens);
            let nnz = ends.last().copied().unwrap_or(0);
            let t = build_by_class(&begins, &ends, PIECE, whole);
            let r = room(m as i64, nnz, whole);
            let offsets: Vec<i64> = std::iter::once(0).chain(ends.iter().copied()).map(|o| o + base).collect();
            let offsets_buf = DevBuf::from_slice(&encode_indices(index, &offsets));
            let table_bytes = 16 + (r.items + r.adds) as usize * 16;
            let counters = (r.adds + r.partial_rows) as usize * slices as usize;
            // Chunks of one round (256 rows) or, in one case of two, of three.
            let chunk_rows = if cases % 2 == 1 { 768 } else { gpu_chunk_rows(m as i64) };
            let chunks = (m as i64 + chunk_rows - 1) / chunk_rows;
            let (table, counter_buf, sums) = (
                DevBuf::zeroed(table_bytes),
                DevBuf::zeroed(counters * 4),
                DevBuf::zeroed(chunks as usize * SPMM_WARP_ROWS_SUM_WORDS as usize * 8),
            );
            table.poison(POISON);
            counter_buf.poison(POISON);
            sync();
            let p = SpmmWarpRowsBuildParams {
                a: SpmmRows { offsets: offsets_buf.ptr, base, ..Default::default() },
                m: m as i64,
                piece: PIECE,
                whole,
                table: table.ptr,
                token: 0x5EED,
                items_room: r.items,
                adds_room: r.adds,
                counters: counter_buf.ptr,
                slices,
                sums: sums.ptr,
                chunks,
                chunk_rows,
                verdict_limit: 0,
                choice: Default::default(),
            };
            // In one case of two the count gives a plain call's verdict too: whether a row is
            // longer than `limit` (the verdict word is poisoned first: a stale value never equals
            // the epoch).
            let limit = [0, 100, 3000][cases % 3];
            let verdict = DevBuf::zeroed(8);
            verdict.poison(POISON);
            sync();
            if limit == 0 {
                warp_rows_build(&h, &p, index).expect("launch");
            } else {
                let choice = SpmmChoice { at: verdict.ptr, epoch: 0xE90C, ..Default::default() };
                warp_rows_count(&h, &SpmmWarpRowsBuildParams { verdict_limit: limit, choice, ..p }, index).expect("launch");
                warp_rows_write(&h, &p, index).expect("launch");
                let word = u64::from_ne_bytes(verdict.to_vec()[..8].try_into().unwrap());
                let long = lens.iter().any(|&l| l > limit);
                assert_eq!(word == 0xE90C, long, "m {m}: the verdict for rows longer than {limit}");
            }
            let got: Vec<u8> = table.to_vec();
            let what = format!("m {m}, whole {whole}, {index:?}, base {base}: {} items, {} adds", t.items.len(), t.adds.len());
            let slots = |s: &[[u64; 2]]| s.iter().flat_map(|x| x.iter().flat_map(|w| w.to_ne_bytes())).collect::<Vec<u8>>();
            let mut header = 0x5EEDu64.to_ne_bytes().to_vec();
            header.extend((t.items.len() as u64).to_ne_bytes());
            assert_eq!(got[..16], header[..], "{what}: header");
            let items = slots(&t.items);
            if let Some(at) = (0..items.len()).find(|&b| got[16 + b] != items[b]) {
                panic!("{what}: items differ first at slot {}", at / 16);
            }
            let adds_at = 16 + r.items as usize * 16;
            assert_eq!(got[adds_at..adds_at + t.adds.len() * 16], slots(&t.adds)[..], "{what}: adds");
            assert!(got[16 + items.len()..adds_at].iter().all(|&b| b == POISON), "{what}: item slots past the count written");
            assert!(got[adds_at + t.adds.len() * 16..].iter().all(|&b| b == POISON), "{what}: add slots past the split rows written");
            // The counters: zero where the kernel counts arrivals, poisoned elsewhere.
            let mut zero = vec![false; counters];
            for (add, a) in t.adds.iter().enumerate() {
                let (first, count) = ((a[1] & 0xffff_ffff) as usize, (a[1] >> 32) as usize);
                for s in 0..slices as usize {
                    zero[add * slices as usize + s] = true;
                    for g in (0..count).step_by(SPMM_WARP_ROWS_GROUP as usize) {
                        zero[(r.adds as usize + first + g) * slices as usize + s] = true;
                    }
                }
            }
            let got_counters: Vec<u8> = counter_buf.to_vec();
            for (c, &z) in zero.iter().enumerate() {
                let word = u32::from_ne_bytes(got_counters[4 * c..4 * c + 4].try_into().unwrap());
                assert_eq!(word, if z { 0 } else { u32::from_ne_bytes([POISON; 4]) }, "{what}: counter {c}");
            }
            cases += 1;
        }
    }
    println!("warp-row table: {cases} tables built on the GPU equal the host's twin");
}

/// The long rows as `warp_rows_list_long` lists them (`room` list slots, poisoned; the count and
/// the flag, zeroed): the two counters and the list's bytes as far as the count and the room go,
/// and whether the slots past them stayed poisoned.
fn listed(h: &Handle, index: IndexType, base: i64, offsets: &[i64], m: usize, nnz: i64, room: usize) -> (u64, u64, Vec<u8>, bool) {
    let offsets_buf = DevBuf::from_slice(&encode_indices(index, offsets));
    let (counters, list) = (DevBuf::zeroed(16), DevBuf::zeroed(room.max(1) * LISTED_ROW_BYTES));
    list.poison(POISON);
    sync();
    let p = SpmmWarpRowsListParams {
        a: SpmmRows { offsets: offsets_buf.ptr, base, ..Default::default() },
        m: m as i64,
        nnz,
        piece: PIECE,
        counters: counters.ptr,
        list: list.ptr,
        room: room as i64,
    };
    warp_rows_list_long(h, &p, index).expect("launch");
    let words = counters.to_vec();
    let word = |i: usize| u64::from_ne_bytes(words[8 * i..8 * i + 8].try_into().unwrap());
    let bytes = list.to_vec();
    let used = (word(0) as usize).min(room) * LISTED_ROW_BYTES;
    (word(0), word(1), bytes[..used].to_vec(), bytes[used..].iter().all(|&b| b == POISON))
}

/// Preprocess's long rows listed on the GPU (slots claimed in any order) and laid out on the host
/// (`long_part_of`) equal `long_part` over every row (the same items, adds, partial rows and long
/// rows in row order): seeded random rows from none to 70000, 32- and 64-bit offsets, base 0
/// and 1, both wholes. A list past its room counts every long row and writes none past the room;
/// offsets that do not describe rows within the entries (decreasing, past nnz, negative) set the
/// flag.
#[test]
fn listed_long_rows_lay_out_the_walked_long_part() {
    let Some(h) = gpu("listed_long_rows_lay_out_the_walked_long_part") else { return };
    let mut rng = Rng::new(0x11575);
    let mut cases = 0;
    for (i, &m) in [0usize, 1, 7, 33, 1000, 70_000].iter().enumerate() {
        for whole in [PIECE, 5 * PIECE] {
            let (index, base) = ([I32, I64][(i + cases) % 2], (cases % 3 == 2) as i64);
            let lens = row_lengths(&mut rng, m);
            let (begins, ends) = bounds(&lens);
            let nnz = ends.last().copied().unwrap_or(0);
            let offsets: Vec<i64> = std::iter::once(0).chain(ends.iter().copied()).map(|o| o + base).collect();
            let want = long_part(&begins, &ends, PIECE, whole);
            let long = want.long_rows.len();
            let (count, flag, bytes, rest) = listed(&h, index, base, &offsets, m, nnz, long + 5);
            let what = format!("m {m}, whole {whole}, {index:?}, base {base}: {long} long rows");
            assert_eq!((count, flag), (long as u64, 0), "{what}: count and flag");
            assert!(rest, "{what}: list slots past the count written");
            let got = long_part_of(listed_rows(&bytes), m, PIECE, whole);
            assert_eq!(got.long_rows, want.long_rows, "{what}: long rows");
            assert_eq!(got.short_rows, want.short_rows, "{what}: short rows");
            assert_eq!(
                (got.table.items, got.table.adds, got.table.partial_rows),
                (want.table.items, want.table.adds, want.table.partial_rows),
                "{what}: table"
            );
            if long >= 2 {
                let (count, flag, bytes, rest) = listed(&h, index, base, &offsets, m, nnz, long / 2);
                assert_eq!((count, flag, bytes.len()), (long as u64, 0, long / 2 * LISTED_ROW_BYTES), "{what}: a list past its room");
                assert!(rest, "{what}: a list past its room wrote past it");
            }
            cases += 1;
        }
    }
    // Offsets outside the entries: a decreasing pair, an end past nnz, a negative first offset.
    let mut bad = 0;
    for (index, base) in [(I32, 0i64), (I64, 1)] {
        let good: Vec<i64> = vec![0, 3, 70, 140, 150];
        let cases: [(Vec<i64>, i64); 3] = [(vec![0, 3, 70, 60, 150], 150), (good.clone(), 149), (vec![-1, 3, 70, 140, 150], 150)];
        for (offsets, nnz) in cases {
            let shifted: Vec<i64> = offsets.iter().map(|o| o + base).collect();
            let (_, flag, _, _) = listed(&h, index, base, &shifted, 4, nnz, 8);
            assert_eq!(flag, 1, "{index:?} base {base}: offsets {offsets:?} of {nnz} entries not flagged");
            bad += 1;
        }
        let (count, flag, _, _) = listed(&h, index, base, &good.iter().map(|o| o + base).collect::<Vec<_>>(), 4, 150, 8);
        assert_eq!((count, flag), (2, 0), "{index:?} base {base}: valid offsets");
    }
    println!("warp-row table: {cases} long parts from the GPU's list equal the host's walk; {bad} invalid offsets flagged");
}
