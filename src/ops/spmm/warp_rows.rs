//! The warp-row kernel's table (kernels/spmm_warp_rows.cu): preprocess cuts op(A)'s rows into
//! items of at most PIECE entries, a warp each; a row longer than PIECE becomes consecutive pieces
//! whose sums go to partial rows, which the add kernel sums in piece order.
//!
//! Measured in the library (session 22, H100, FP32, Nsight with warm L2, the kernel and its adds
//! against preprocess's choice before, us): at N = 256 (two vectors a lane) arxiv_like 221 + 15
//! against 252, github_musae 88 + 8 against 109, ca-CondMat 42 + 4 against 49, vsp_model1 68 + 10
//! against 84, crocodile (29 entries a row, on split rows) 44 + 5 against 48, twitch_FR (34)
//! 33 + 4 against 35. At N = 128 the adds eat the gain: arxiv_like 123 + 12 against 138,
//! github_musae 50 + 7 against 61, crocodile 28 + 5 against 28. The session's lab had shown the
//! kernel slower from ~80 entries a row (fb100_MIT8, fb100_Cornell5) and where op(B) is many times
//! L2 (youtube_like, 583 MB at N = 128: 888 against 758 us). Hence the rule (`takes`): n a multiple
//! of 256, rows of at most 16 entries on average.
//!
//! The table, after a 16-byte header whose first u64 is preprocess's token: `items` slots of 16
//! bytes, `begin | len << 48` and `row | (slot + 1) << 32` (slot 0: a whole row), then `adds`
//! slots, `row` and `first slot | count << 32`. Every row has at least one item (an empty row
//! writes C = beta * C), so the items outnumber the rows and the kernel's grid covers them when the
//! table is not trusted.

use super::plan::{forced_kernel, ForcedKernel};
use super::split_rows::ceil_div;
use crate::types::DataType;

/// Entries per item at most (session 22 lab, arxiv_like N = 128: pieces of 16 / 32 / 64 / 128
/// 186 / 152 / 141 / 143 us with a warp per split row's adds; 64 and 128 tied with a block's).
pub const PIECE: i64 = 64;
/// Rows of at most this many entries on average (7-15 gained 7-18% at N = 256; crocodile's 29 and
/// twitch_FR's 34, which split rows take, tied or lost).
pub const MEAN_MAX: i64 = 16;
/// Columns of C the rule asks for in multiples of (two vectors a lane; at N = 128 the adds ate
/// the kernel's gain).
pub const N_MULTIPLE: i64 = 2 * COLS;
/// Matrices of at least this many entries (the lab measured none smaller; small matrices keep the
/// short- and split-row kernels tuned for their latency).
pub const MIN_NNZ: i64 = 128 * 1024;
/// op(B) of at most this many bytes: arxiv_like N = 256 (173 MB) gained, youtube_like N = 128 (583
/// MB) lost, where the tile kernel's column slices taken in order keep a slice of B in L2.
pub const B_BYTES_MAX: u64 = 200 << 20;
/// Columns a warp covers with one vector a lane (kernels/spmm_warp_rows.cu `COLS`).
pub const COLS: i64 = crate::kernels::params::spmm::SPMM_WARP_ROWS_COLS as i64;
const BEGIN_BITS: u32 = 48;
pub const SLOT_BYTES: usize = 16;
const HEADER_BYTES: usize = 16;

/// `OXSPARSE_SPMM_KERNEL=warp_rows`: preprocess takes this kernel wherever the call fits it (for
/// tests and comparisons).
pub fn forced() -> bool {
    forced_kernel() == Some(ForcedKernel::WarpRows)
}

/// Whether a call of these types and layout can run the kernel: FP32 throughout, op(B) and C
/// row-major without staging, one batch, n a multiple of COLS.
pub fn fits(ab: DataType, c: DataType, compute: DataType, n: i64, batches: i64, staged: bool) -> bool {
    let f32 = DataType::CUDA_R_32F;
    ab == f32 && c == f32 && compute == f32 && n > 0 && n % COLS == 0 && batches == 1 && !staged
}

/// Whether the measured rule gives a matrix of `m` rows and `nnz` entries times a k x n op(B) of
/// FP32 to this kernel (see the module comment), or the kernel is forced.
pub fn takes(m: i64, nnz: i64, k: i64, n: i64) -> bool {
    let b_bytes = (k.max(0) as u64).saturating_mul(n.max(0) as u64).saturating_mul(4);
    forced() || (n % N_MULTIPLE == 0 && nnz >= MIN_NNZ && nnz <= MEAN_MAX * m && b_bytes <= B_BYTES_MAX && nnz <= MAX_NNZ)
}

/// Entries at most (slots hold 48-bit entry offsets and 32-bit rows and slots; the room below
/// grows with nnz).
pub const MAX_NNZ: i64 = 16_000_000;

/// What the workspace keeps for the table: item slots, add slots, partial rows. A row of len <= PIECE
/// is one item; a longer one ceil(len / PIECE) <= 2 len / PIECE items, each a partial row, and one
/// add. So items <= m + 2 nnz / PIECE, adds <= nnz / PIECE, partial rows <= 2 nnz / PIECE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub items: i64,
    pub adds: i64,
    pub partial_rows: i64,
}

pub fn room(m: i64, nnz: i64) -> Room {
    let per = ceil_div(2 * nnz.max(0), PIECE);
    Room { items: m.max(0) + per, adds: ceil_div(nnz.max(0), PIECE), partial_rows: per }
}

/// Bytes of the table for `room` (header and slots).
pub fn table_bytes(room: Room) -> usize {
    HEADER_BYTES + (room.items + room.adds) as usize * SLOT_BYTES
}

/// The items and adds for rows `begins[r] .. ends[r]` (entry offsets) in pieces of `piece`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub items: Vec<[u64; 2]>,
    pub adds: Vec<[u64; 2]>,
    pub partial_rows: i64,
}

pub fn build(begins: &[i64], ends: &[i64], piece: i64) -> Table {
    let mut t = Table::default();
    for (r, (&b, &e)) in begins.iter().zip(ends).enumerate() {
        let len = (e - b).max(0);
        let item = |begin: i64, len: i64, slot: i64| [begin as u64 | (len as u64) << BEGIN_BITS, r as u64 | ((slot + 1) as u64) << 32];
        if len <= piece {
            t.items.push(item(b, len, -1));
            continue;
        }
        let count = ceil_div(len, piece);
        t.adds.push([r as u64, t.partial_rows as u64 | (count as u64) << 32]);
        for i in 0..count {
            let begin = b + i * piece;
            t.items.push(item(begin, piece.min(e - begin), t.partial_rows + i));
        }
        t.partial_rows += count;
    }
    t
}

/// Whether a table fits its room.
pub fn fits_room(t: &Table, room: Room) -> bool {
    t.items.len() as i64 <= room.items && t.adds.len() as i64 <= room.adds && t.partial_rows <= room.partial_rows
}

/// The bytes to upload: the header (token, 0), the items, the adds.
pub fn to_bytes(token: u64, t: &Table) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + (t.items.len() + t.adds.len()) * SLOT_BYTES);
    out.extend_from_slice(&token.to_ne_bytes());
    out.extend_from_slice(&0u64.to_ne_bytes());
    for s in t.items.iter().chain(&t.adds) {
        out.extend_from_slice(&s[0].to_ne_bytes());
        out.extend_from_slice(&s[1].to_ne_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes an item as the kernel does: (row, begin, len, slot).
    fn item(s: &[u64; 2]) -> (i64, i64, i64, i64) {
        ((s[1] & 0xffff_ffff) as i64, (s[0] & ((1 << BEGIN_BITS) - 1)) as i64, (s[0] >> BEGIN_BITS) as i64, (s[1] >> 32) as i64 - 1)
    }

    fn rows(lens: &[i64]) -> (Vec<i64>, Vec<i64>) {
        let mut begins = Vec::new();
        let mut at = 0;
        for &l in lens {
            begins.push(at);
            at += l;
        }
        let ends = begins.iter().zip(lens).map(|(b, l)| b + l).collect();
        (begins, ends)
    }

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
        for piece in [4, 16, PIECE] {
            let t = build(&begins, &ends, piece);
            let nnz: i64 = lens.iter().sum();
            assert!(fits_room(&t, room(lens.len() as i64, nnz)) || piece < PIECE, "room for pieces of {piece}");
            let mut covered = vec![0u8; nnz as usize];
            let mut rows_seen = vec![0usize; lens.len()];
            for s in &t.items {
                let (r, b, l, _) = item(s);
                assert!(l <= piece && b >= begins[r as usize] && b + l <= ends[r as usize]);
                rows_seen[r as usize] += 1;
                covered[b as usize..(b + l) as usize].iter_mut().for_each(|c| *c += 1);
            }
            assert!(covered.iter().all(|&c| c == 1), "each entry once (pieces of {piece})");
            assert!(rows_seen.iter().all(|&n| n >= 1), "every row, empty ones too, has an item");
            // Each add's pieces are consecutive slots holding the row's pieces in entry order.
            for a in &t.adds {
                let (row, first, count) = (a[0] as i64, (a[1] & 0xffff_ffff) as i64, (a[1] >> 32) as i64);
                let mut pieces: Vec<(i64, i64)> = t.items.iter().map(item).filter(|i| i.0 == row).map(|i| (i.3, i.1)).collect();
                pieces.sort();
                assert_eq!(pieces.len() as i64, count);
                assert!(pieces.iter().enumerate().all(|(i, p)| p.0 == first + i as i64));
                assert!(pieces.windows(2).all(|w| w[0].1 < w[1].1), "slot order is entry order");
            }
            let whole = t.items.iter().map(item).filter(|i| i.3 < 0).count();
            assert_eq!(whole + t.adds.len(), lens.len());
        }
    }

    #[test]
    fn room_bounds_the_worst_rows() {
        // Rows of PIECE + 1 entries make the most pieces per entry.
        for (m, len) in [(1000, PIECE + 1), (10, 1_000_000), (7, 0), (3, PIECE)] {
            let (begins, ends) = rows(&vec![len; m]);
            assert!(fits_room(&build(&begins, &ends, PIECE), room(m as i64, len * m as i64)), "{m} rows of {len}");
        }
    }

    #[test]
    fn bytes_start_with_the_token() {
        let (begins, ends) = rows(&[3, 200]);
        let t = build(&begins, &ends, PIECE);
        let b = to_bytes(42, &t);
        assert_eq!(u64::from_ne_bytes(b[..8].try_into().unwrap()), 42);
        assert_eq!(b.len(), 16 + (t.items.len() + t.adds.len()) * 16);
        assert_eq!((t.items.len(), t.adds.len(), t.partial_rows), (5, 1, 4));
    }

    #[test]
    fn the_rule_follows_the_lab() {
        let f32 = DataType::CUDA_R_32F;
        assert!(fits(f32, f32, f32, 128, 1, false) && fits(f32, f32, f32, 512, 1, false));
        assert!(!fits(f32, f32, f32, 64, 1, false) && !fits(f32, f32, f32, 128, 2, false) && !fits(f32, f32, f32, 128, 1, true));
        assert!(!fits(DataType::CUDA_R_64F, DataType::CUDA_R_64F, DataType::CUDA_R_64F, 128, 1, false));
        if forced() {
            return;
        }
        assert!(takes(169_343, 1_128_870, 169_343, 256), "arxiv_like");
        assert!(takes(37_700, 578_006, 37_700, 256) && takes(23_133, 186_936, 23_133, 512), "github_musae, ca-CondMat");
        assert!(!takes(169_343, 1_128_870, 169_343, 128), "N = 128: the adds eat the gain");
        assert!(!takes(11_631, 341_691, 11_631, 256), "crocodile: 29 a row");
        assert!(!takes(18_660, 1_581_554, 18_660, 256), "fb100_Cornell5: 85 a row");
        assert!(!takes(1_138_499, 5_890_944, 1_138_499, 256), "youtube_like: B of 1.2 GB");
        assert!(!takes(2_708, 10_556, 2_708, 256), "cora: small");
    }
}
