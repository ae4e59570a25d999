//! The row-order model's sample found on the GPU (`oxsparse::kernels::spmm::row_sample`) equals
//! the host's (`row_order::Sample::of`) on seeded random structures: 32- and 64-bit indices, base 0
//! and 1, rows from none to 70000, row lengths uniform, one long row, mostly empty rows, ~2% of
//! columns outside [0, k); scratch roomy (one pass), small (many passes of a few rows) and too
//! small for one row or for the offsets (None). The scratch is poisoned first, and the bytes
//! around it must come back untouched.

mod common;
use common::values::encode_indices;
use common::*;

use oxsparse::context::Handle;
use oxsparse::kernels::params::spmm::{SpmmRowSampleParams, SpmmRows};
use oxsparse::kernels::spmm::row_sample;
use oxsparse::ops::spmm::row_order::{Sample, Structure, SAMPLE_HASH};
use oxsparse::types::IndexType::{self, OXSPARSE_INDEX_32I as I32, OXSPARSE_INDEX_64I as I64};

/// Bytes checked before and after the scratch.
const GUARD: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Rows {
    Uniform,
    OneLong,
    MostlyEmpty,
}

/// Row offsets and columns (base 0, u32::MAX outside [0, k)) of a seeded random structure, and
/// the columns as stored (with `base`, out-of-range ones as the user might hold them).
fn generate(rng: &mut Rng, m: usize, k: usize, rows: Rows, base: i64) -> (Structure, Vec<i64>, Vec<i64>) {
    let (mut begins, mut ends, mut cols, mut stored) = (vec![], vec![], vec![], vec![]);
    for r in 0..m {
        let len = match rows {
            Rows::Uniform => rng.below(40) as usize,
            Rows::OneLong if r == m / 2 => 20_000,
            Rows::OneLong => rng.below(4) as usize,
            Rows::MostlyEmpty => {
                if rng.below(20) == 0 {
                    rng.below(100) as usize
                } else {
                    0
                }
            }
        };
        begins.push(cols.len() as i64);
        for _ in 0..len {
            let c = if rng.below(50) == 0 {
                [-1 - base, k as i64, k as i64 + 12345][rng.below(3) as usize]
            } else {
                rng.below(k as u64) as i64
            };
            cols.push(if (0..k as i64).contains(&c) { c as u32 } else { u32::MAX });
            stored.push(c + base);
        }
        ends.push(cols.len() as i64);
    }
    let offsets: Vec<i64> = begins.iter().copied().chain([cols.len() as i64]).map(|o| o + base).collect();
    (Structure { begins, ends, cols, k }, offsets, stored)
}

/// Runs `row_sample` with `scratch_bytes` of poisoned scratch between guards; None where it
/// declined.
fn sample_on_gpu(
    h: &Handle,
    index: IndexType,
    base: i64,
    s: &Structure,
    offsets: &[i64],
    stored: &[i64],
    scratch_bytes: usize,
) -> Option<Sample> {
    let offsets_buf = DevBuf::from_slice(&encode_indices(index, offsets));
    let cols_buf = DevBuf::from_slice(&encode_indices(index, stored));
    let buf = DevBuf::zeroed(GUARD + scratch_bytes + GUARD);
    buf.poison(0xA5);
    sync();
    let a = SpmmRows { offsets: offsets_buf.ptr, cols: cols_buf.ptr, base, ..Default::default() };
    let p = SpmmRowSampleParams { a, k: s.k as i64, hash_multiplier: SAMPLE_HASH.0, hash_mask: SAMPLE_HASH.1, ..Default::default() };
    let found = row_sample(h, &p, s.begins.len() as i64, index, buf.ptr + GUARD as u64, scratch_bytes).expect("row_sample");
    let bytes: Vec<u8> = buf.to_vec();
    assert!(bytes[..GUARD].iter().chain(&bytes[GUARD + scratch_bytes..]).all(|&b| b == 0xA5), "bytes around the scratch changed");
    found.map(|(offsets, cols)| Sample::of_followed(s.k, &offsets, &cols))
}

#[test]
fn the_gpu_sample_is_the_host_sample() {
    let Some(h) = gpu("the_gpu_sample_is_the_host_sample") else { return };
    let mut rng = Rng::new(0x5A3F_11E0);
    let mut cases = 0;
    for (i, &m) in [0usize, 1, 7, 33, 1000, 70_000].iter().enumerate() {
        for rows in [Rows::Uniform, Rows::OneLong, Rows::MostlyEmpty] {
            let (index, base) = ([I32, I64][i % 2], ((i / 2) % 2) as i64);
            let k = [1usize, 50, 3000, 200_000][(cases as usize) % 4];
            let (s, offsets, stored) = generate(&mut rng, m, k, rows, base);
            let want = Sample::of(&s);
            let what = format!("m {m}, k {k}, {rows:?}, {index:?}, base {base}");
            let offsets_room = (m + 1) * 4;
            let ids_at = offsets_room.next_multiple_of(16);
            let followed = |r: usize| {
                s.cols[s.begins[r] as usize..s.ends[r] as usize]
                    .iter()
                    .filter(|&&c| c != u32::MAX && (c as u64).wrapping_mul(SAMPLE_HASH.0) >> 40 & SAMPLE_HASH.1 == 0)
                    .count()
            };
            let most = (0..m).map(followed).max().unwrap_or(0);
            // Roomy: one pass. Small: room for the row with the most followed columns (many passes).
            for scratch in [ids_at + 4 * s.cols.len() + 64, ids_at + 4 * most.max(1)] {
                let got = sample_on_gpu(&h, index, base, &s, &offsets, &stored, scratch);
                assert_eq!(got.as_ref(), Some(&want), "{what}, scratch {scratch}");
            }
            // Too small for the offsets: declined.
            assert_eq!(
                sample_on_gpu(&h, index, base, &s, &offsets, &stored, offsets_room.saturating_sub(4)),
                None,
                "{what}: no room for the offsets"
            );
            cases += 1;
        }
    }
    // A row whose followed columns outgrow the room: declined, not cut.
    let (s, offsets, stored) = generate(&mut rng, 100, 200_000, Rows::OneLong, 0);
    let ids_at = (101 * 4usize).next_multiple_of(16);
    assert_eq!(sample_on_gpu(&h, I32, 0, &s, &offsets, &stored, ids_at + 16), None, "a row over the room");
    println!("row sample: {cases} structures, GPU sample equal to the host's");
}
