//! The warp-row table as preprocess lays it out (the long rows' items and the adds from the host,
//! the short rows' items from `oxsparse::kernels::spmm::warp_rows_short_items`) equals the table
//! the host builds whole (`warp_rows::build`, its reference), byte for byte: seeded random rows
//! (short, longer than a piece, longer than a warp takes whole, empty), 32- and 64-bit offsets,
//! base 0 and 1, from no rows to 70000. The table's room is poisoned first; the bytes past the
//! table must come back untouched.

mod common;
use common::*;

use oxsparse::context::Handle;
use oxsparse::kernels::params::spmm::{SpmmRows, SpmmWarpRowsShortParams};
use oxsparse::kernels::spmm::warp_rows_short_items;
use oxsparse::kernels::vector_ops::copy_parts_to_device_and_wait;
use oxsparse::ops::spmm::warp_rows::{build, header, item_offset, long_part, upload_parts, PIECE};
use oxsparse::types::IndexType::{self, OXSPARSE_INDEX_32I as I32, OXSPARSE_INDEX_64I as I64};

const POISON: u8 = 0xC3;

fn row_lengths(rng: &mut Rng, m: usize) -> Vec<i64> {
    (0..m)
        .map(|_| match rng.below(100) {
            0 => 64 * 9 + rng.below(3000) as i64, // split into pieces
            1..=3 => PIECE + 1 + rng.below(200) as i64, // long, whole or split by `whole`
            4..=10 => 0,
            _ => rng.below(PIECE as u64 + 1) as i64,
        })
        .collect()
}

/// The table laid out as preprocess does, read back (`bytes` of it and `extra` more).
fn laid_out(h: &Handle, index: IndexType, base: i64, lens: &[i64], whole: i64, bytes: usize, extra: usize) -> Vec<u8> {
    let (mut begins, mut ends, mut at) = (vec![], vec![], 0i64);
    for &l in lens {
        begins.push(at);
        at += l;
        ends.push(at);
    }
    let offsets: Vec<i64> = std::iter::once(0).chain(ends.iter().copied()).map(|o| o + base).collect();
    let offsets_buf = DevBuf::from_slice(&encode_indices(index, &offsets));
    let table = DevBuf::zeroed(bytes + extra);
    table.poison(POISON);
    sync();
    let part = long_part(&begins, &ends, PIECE, whole);
    let long_rows: Vec<u8> = part.long_rows.iter().flat_map(|r| r.to_ne_bytes()).collect();
    let long_buf = DevBuf::zeroed(long_rows.len());
    let h_bytes = header(0x5EED);
    let mut parts: Vec<(u64, &[u8])> = upload_parts(&h_bytes, &part.table, part.items()).iter().map(|&(o, b)| (table.ptr + o as u64, b)).collect();
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
            let (mut begins, mut ends, mut at) = (vec![], vec![], 0i64);
            for &l in &lens {
                begins.push(at);
                at += l;
                ends.push(at);
            }
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
