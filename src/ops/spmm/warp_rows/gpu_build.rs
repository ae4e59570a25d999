//! The warp-row table a plain call builds on the GPU (kernels/spmm_warp_rows_table.cu): the
//! build's bounds (chunks of rows, packed counts, items), the long rows' classes, and
//! `build_by_class`, its host twin.

use super::table::{short_item, Table, BEGIN_BITS};
use super::{MAX_NNZ, PIECE};
use crate::ops::spmm::split_rows::ceil_div;

/// Chunks of rows at most of the GPU's table build (`gpu_chunks`): each block of its second launch
/// adds the sums of all of them (16 KB at most).
pub const MAX_GPU_CHUNKS: i64 = 2048;

/// Rows a block of the GPU build takes for `m` rows: SPMM_WARP_ROWS_CHUNK (one a thread, one round
/// of the block's scan), or as many multiples of it as keep the chunks within MAX_GPU_CHUNKS
/// (matrices of more than 524288 rows; each further multiple is one more round).
pub fn gpu_chunk_rows(m: i64) -> i64 {
    let chunk = crate::kernels::params::spmm::SPMM_WARP_ROWS_CHUNK as i64;
    chunk * ceil_div(m.max(1), chunk * MAX_GPU_CHUNKS).max(1)
}

/// The GPU build's chunks of rows (`gpu_chunk_rows` each) for `m` rows.
pub fn gpu_chunks(m: i64) -> i64 {
    ceil_div(m.max(0), gpu_chunk_rows(m))
}

/// Whether the GPU build's packed counts (kernels/spmm_warp_rows_table.cu `counts`) hold a matrix
/// of `m` rows and `nnz` entries: rows longer than a piece (fewer than nnz / PIECE) within the
/// field below SPMM_WARP_ROWS_SPLIT_SHIFT, pieces (at most 2 nnz / PIECE) within the top field,
/// and rows numbered in the items' 32 bits.
pub fn gpu_counts_fit(m: i64, nnz: i64) -> bool {
    use crate::kernels::params::spmm::{SPMM_WARP_ROWS_PIECES_SHIFT, SPMM_WARP_ROWS_SPLIT_SHIFT};
    let long_max = 1i64 << SPMM_WARP_ROWS_SPLIT_SHIFT;
    let pieces_max = 1i64 << (64 - SPMM_WARP_ROWS_PIECES_SHIFT);
    m > 0 && nnz > 0 && nnz <= MAX_NNZ && nnz / PIECE < long_max && 2 * ceil_div(nnz, PIECE) < pieces_max && m <= u32::MAX as i64
}

/// Items a table built on the GPU may hold for `m` rows and `nnz` entries (the kernel's grid): a
/// row is one item, a split row (longer than a piece) ceil(len / PIECE) <= 1 + len / PIECE, so at
/// most m + nnz / PIECE.
pub fn gpu_items_bound(m: i64, nnz: i64) -> i64 {
    m.max(0) + nnz.max(0) / PIECE
}

/// The class of a row of `len` entries longer than a piece in the table a plain call builds on the
/// GPU (kernels/spmm_warp_rows_table.cu `long_class`), in table order: 0, a split row (longer than
/// `whole`); 1, a whole row longer than halfway from a piece to `whole`; 2, another whole row.
/// None for a short row. Why: the GPU cannot sort the long rows longest first as the host does
/// (`long_part`), and a whole row is a chain of len / UNROLL trips for one warp: in row order a
/// long one that starts late ends the kernel late (row order was 12-19% slower than the host's;
/// with classes fb100_Cornell5's kernel 127 -> 108 us). Split rows' pieces need no order (a piece
/// is short); a fourth class for the split rows of more than a group of pieces measured nothing
/// (bench/notes/spmm-plain-and-preprocess.md).
pub fn long_class(len: i64, piece: i64, whole: i64) -> Option<usize> {
    match len {
        _ if len <= piece => None,
        _ if len > whole => Some(0),
        _ => Some(if 2 * len > piece + whole { 1 } else { 2 }),
    }
}

/// The long rows' classes (`long_class`).
pub const LONG_CLASSES: usize = 3;

/// Bytes of the GPU build's chunk sums for `m` rows (in the partial rows' room until the kernel).
pub fn gpu_sums_bytes(m: i64) -> usize {
    gpu_chunks(m) as usize * crate::kernels::params::spmm::SPMM_WARP_ROWS_SUM_WORDS as usize * 8
}

/// The table a plain call builds on the GPU (kernels/spmm_warp_rows_table.cu), on the host (its
/// reference): the rows longer than a piece first, class by class (`long_class`) and in row order
/// within a class, each a whole item up to `whole` entries or pieces of `piece` with an add slot
/// (adds and partial rows numbered in row order); then one item per shorter row, in row order.
/// The items and adds are those of `build`, in another order (the same sums, bit for bit).
pub fn build_by_class(begins: &[i64], ends: &[i64], piece: i64, whole: i64) -> Table {
    let len = |r: usize| (ends[r] - begins[r]).max(0);
    let whole = whole.max(piece);
    let mut t = Table::default();
    let mut classes: [Vec<[u64; 2]>; LONG_CLASSES] = Default::default();
    for r in (0..begins.len()).filter(|&r| len(r) > piece) {
        let class = &mut classes[long_class(len(r), piece, whole).expect("a long row has a class")];
        if len(r) <= whole {
            class.push(short_item(begins[r], len(r), r as u64));
            continue;
        }
        let count = ceil_div(len(r), piece);
        let add = t.adds.len() as u64;
        t.adds.push([r as u64, t.partial_rows as u64 | (count as u64) << 32]);
        for i in 0..count {
            let begin = begins[r] + i * piece;
            class.push([begin as u64 | (piece.min(ends[r] - begin) as u64) << BEGIN_BITS, add | ((t.partial_rows + i + 1) as u64) << 32]);
        }
        t.partial_rows += count;
    }
    t.items = classes.concat();
    for r in (0..begins.len()).filter(|&r| len(r) <= piece) {
        t.items.push(short_item(begins[r], len(r), r as u64));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::super::tests::{item, rows};
    use super::super::{build, fits_room, room, MAX_NNZ};
    use super::*;

    /// The classes split the long rows by length, longest first: split rows, then whole rows
    /// beyond and within halfway between a piece and `whole`.
    #[test]
    fn long_rows_fall_in_their_classes() {
        let class = |len| long_class(len, PIECE, 3 * PIECE);
        assert_eq!([0, PIECE].map(class), [None, None]);
        assert_eq!([PIECE + 1, 2 * PIECE, 2 * PIECE + 1, 3 * PIECE].map(class), [Some(2), Some(2), Some(1), Some(1)]);
        assert_eq!([3 * PIECE + 1, 100 * PIECE, i64::MAX / 2].map(class), [Some(0), Some(0), Some(0)]);
        assert_eq!(long_class(PIECE + 1, PIECE, PIECE), Some(0), "no whole long rows where whole is a piece");
        assert_eq!(gpu_sums_bytes(1), 16);
    }

    /// The class-order table (the GPU's) holds the same rows and pieces as `build`'s: the same
    /// whole items, the same pieces of each split row in the same order, the same adds up to
    /// their slots; long rows first, class by class, in row order within a class; within the
    /// room and the GPU's grid bound.
    #[test]
    fn the_class_order_table_holds_the_built_tables_items() {
        for lens in [vec![3, 200, 0, 64, 65, 10_000, 129, 7, 7, 500], vec![], vec![0; 5], vec![1000; 40], vec![1, 2, 3], vec![65; 100]] {
            let (begins, ends) = rows(&lens);
            let nnz: i64 = lens.iter().sum();
            for whole in [PIECE, 3 * PIECE] {
                let (t, g) = (build(&begins, &ends, PIECE, whole), build_by_class(&begins, &ends, PIECE, whole));
                assert_eq!((g.items.len(), g.adds.len(), g.partial_rows), (t.items.len(), t.adds.len(), t.partial_rows), "{lens:?}");
                assert!(g.items.len() as i64 <= gpu_items_bound(lens.len() as i64, nnz), "{lens:?}: over the grid's bound");
                assert!(fits_room(g.items.len(), &g, room(lens.len() as i64, nnz, whole)), "{lens:?}: over the room");
                // Each item decoded to (row, begin, len, piece index within its row or -1).
                let decode = |t: &Table| {
                    let mut v: Vec<(i64, i64, i64, i64)> = t
                        .items
                        .iter()
                        .map(|s| {
                            let (r, b, l, slot) = item(t, s);
                            let first =
                                if slot < 0 { 0 } else { (t.adds.iter().find(|a| a[0] as i64 == r).unwrap()[1] & 0xffff_ffff) as i64 };
                            (r, b, l, if slot < 0 { -1 } else { slot - first })
                        })
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(decode(&g), decode(&t), "{lens:?}, whole {whole}");
                let long: Vec<bool> = g.items.iter().map(|s| item(&g, s).2 > PIECE || item(&g, s).3 >= 0).collect();
                assert!(long.windows(2).all(|w| w[0] || !w[1]), "{lens:?}: long rows first");
                // Long rows class by class, in row order within a class; then the short ones.
                let keyed: Vec<(usize, i64)> = g
                    .items
                    .iter()
                    .map(|s| (long_class(lens[item(&g, s).0 as usize], PIECE, whole).unwrap_or(LONG_CLASSES), item(&g, s).0))
                    .collect();
                assert!(keyed.windows(2).all(|w| w[0] <= w[1]), "{lens:?}, whole {whole}: classes, then row order");
                let short = keyed.iter().filter(|k| k.0 == LONG_CLASSES).count();
                assert_eq!(short, long.iter().filter(|&&x| !x).count(), "{lens:?}: the short rows have no class");
            }
        }
        assert!(gpu_counts_fit(1, MAX_NNZ) && !gpu_counts_fit(1, MAX_NNZ + 1) && !gpu_counts_fit(0, 10) && !gpu_counts_fit(10, 0));
        let chunk = crate::kernels::params::spmm::SPMM_WARP_ROWS_CHUNK as i64;
        assert_eq!((gpu_chunk_rows(1), gpu_chunks(1), gpu_chunks(257)), (chunk, 1, 2));
        assert_eq!((gpu_chunk_rows(MAX_GPU_CHUNKS * chunk), gpu_chunk_rows(MAX_GPU_CHUNKS * chunk + 1)), (chunk, 2 * chunk));
        for m in [1, 255, 256, 1_138_499, 5_000_000, u32::MAX as i64] {
            assert!(
                gpu_chunks(m) <= MAX_GPU_CHUNKS && gpu_chunks(m) * gpu_chunk_rows(m) >= m && gpu_chunk_rows(m) % chunk == 0,
                "{m} rows"
            );
        }
    }
}
