//! Test data: seeded random sparse patterns in every format (columns unsorted within rows, no
//! duplicates, rows r % 5 == 3 empty), dense operands with padding and batch gaps, and values that
//! every storage type holds exactly.

use super::harness::{Case, Fmt, Pattern};
use super::*;
use oxsparse::descr::{FormatInfo, SpBatch};
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::spmm::{BatchedDense, BatchedSparse};
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, Order};

/// Entries left between sparse batches, holding in-range garbage: an implementation that reads
/// them computes a wrong result (caught) rather than faulting.
const GAP: i64 = 2;
const GAP_VALUE: Value = (100.0, 0.0);

use crate::common::gen::{bsr, from_entries};
pub use crate::common::values::random;
use crate::common::values::shuffle;

/// Distinct (row, column) positions of a `rows x cols` grid, in random order.
pub fn positions(rng: &mut Rng, rows: i64, cols: i64, pattern: Pattern) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    if rows == 0 || cols == 0 {
        return out;
    }
    match pattern {
        Pattern::Empty => {}
        Pattern::OneColumn => out.extend((0..rows).map(|r| (r, cols / 2))),
        Pattern::Dense => out.extend((0..rows).flat_map(|r| (0..cols).map(move |c| (r, c)))),
        Pattern::ShuffledGroups => {
            // Groups of 8 rows (the last takes the rest), picked at random; group g holds columns
            // g * per .. (g + 1) * per in every row.
            let groups = (rows / 8).max(1);
            let per = (cols / groups).max(1);
            let mut stored: Vec<i64> = (0..rows).collect();
            shuffle(rng, &mut stored);
            for (i, &r) in stored.iter().enumerate() {
                let first = ((i as i64 / 8).min(groups - 1) * per) % cols;
                out.extend((first..(first + per).min(cols)).map(|c| (r, c)));
            }
        }
        Pattern::ShuffledBand(width) => {
            let mut stored: Vec<i64> = (0..rows).collect();
            shuffle(rng, &mut stored);
            for r in 0..rows {
                let centre = stored[r as usize] * cols / rows;
                let first = (centre - width / 2).clamp(0, (cols - width).max(0));
                out.extend((first..(first + width).min(cols)).map(|c| (r, c)));
            }
        }
        Pattern::ShuffledMesh(width) => {
            // The band renumbered by one permutation for rows and columns alike (square only).
            let mut stored: Vec<i64> = (0..rows).collect();
            shuffle(rng, &mut stored);
            let mut position = vec![0i64; rows as usize];
            stored.iter().enumerate().for_each(|(i, &band_row)| position[band_row as usize] = i as i64);
            for r in 0..rows {
                let centre = stored[r as usize];
                let first = (centre - width / 2).clamp(0, (rows - width).max(0));
                out.extend((first..(first + width).min(rows)).map(|c| (r, position[c as usize])));
            }
        }
        Pattern::Skewed(max) => {
            let mut rank: Vec<i64> = (0..rows).collect();
            shuffle(rng, &mut rank);
            for r in 0..rows {
                let count = (max / (rank[r as usize] + 1)).min(cols);
                out.extend(rng.distinct(cols as u64, count as usize).into_iter().map(|c| (r, c as i64)));
            }
        }
        Pattern::Random | Pattern::HeavyRow(_) => {
            // About a quarter full, ~12000 entries at most.
            let avg = (cols / 4 + 1).min((12_000 / rows).max(1));
            for r in 0..rows {
                let count = match pattern {
                    Pattern::HeavyRow(e) if r == rows / 2 => e,
                    Pattern::HeavyRow(_) => rng.below(4) as i64,
                    _ if r % 5 == 3 => 0,
                    _ => rng.below(2 * avg as u64 + 1) as i64,
                };
                out.extend(rng.distinct(cols as u64, count.min(cols) as usize).into_iter().map(|c| (r, c as i64)));
            }
        }
    }
    shuffle(rng, &mut out);
    out
}

/// The same number of entries elsewhere: columns permuted, and rows too unless `keep_rows`.
fn relabel(rng: &mut Rng, pos: &[(i64, i64)], rows: i64, cols: i64, keep_rows: bool) -> Vec<(i64, i64)> {
    let row_map: Vec<u64> = if keep_rows { (0..rows as u64).collect() } else { rng.distinct(rows as u64, rows as usize) };
    let col_map = rng.distinct(cols as u64, cols as usize);
    pos.iter().map(|&(r, c)| (row_map[r as usize] as i64, col_map[c as usize] as i64)).collect()
}

/// CSR, CSC or COO arrays of the given entries, each line in the order drawn.
fn element(fmt: Fmt, rows: i64, cols: i64, base: i64, e: Vec<(i64, i64, Value)>) -> HostSparse {
    let format = match fmt {
        Fmt::Csr => FormatInfo::Csr,
        Fmt::Csc => FormatInfo::Csc,
        _ => FormatInfo::Coo,
    };
    from_entries(format, (rows, cols), base, e, true)
}

/// Batches back to back, `GAP` garbage entries apart; CSR batches share their row offsets when
/// `shared`, COO uses one stride for all three arrays.
fn concat(mats: Vec<HostSparse>, shared: bool, nnz: i64) -> BatchedSparse {
    let count = mats.len() as i64;
    let coo = mats[0].format == FormatInfo::Coo;
    let n_offsets = mats[0].offsets.len() as i64;
    let offsets_stride = if count == 1 || (shared && !coo) {
        0
    } else if coo {
        nnz + GAP
    } else {
        n_offsets + GAP
    };
    let entries_stride = if count == 1 { 0 } else { nnz + GAP };
    let base = mats[0].base;
    let mut m = HostSparse { offsets: vec![], indices: vec![], values: vec![], ..mats[0].clone() };
    for (i, x) in mats.iter().enumerate() {
        let last = i as i64 == count - 1;
        if i == 0 || offsets_stride > 0 {
            m.offsets.extend(&x.offsets);
            m.offsets.extend(std::iter::repeat_n(base, if last || offsets_stride == 0 { 0 } else { GAP as usize }));
        }
        m.indices.extend(&x.indices);
        m.values.extend(&x.values);
        if !last {
            m.indices.extend([base; GAP as usize]);
            m.values.extend([GAP_VALUE; GAP as usize]);
        }
    }
    BatchedSparse {
        m,
        nnz,
        batch: SpBatch { count: count as i32, offsets_stride, indices_stride: entries_stride, values_stride: entries_stride },
    }
}

/// A for `case` (stored `a_shape()`, every batch).
pub fn sparse(rng: &mut Rng, case: &Case) -> BatchedSparse {
    let (rows, cols) = case.a_shape();
    let (t, base, count) = (case.types.0, case.base.offset(), case.batch.a as i64);
    let single = |m: HostSparse, nnz: i64| BatchedSparse {
        m,
        nnz,
        batch: SpBatch { count: 1, offsets_stride: 0, indices_stride: 0, values_stride: 0 },
    };
    match case.fmt {
        Fmt::Csr | Fmt::Csc | Fmt::Coo => {
            let first = positions(rng, rows, cols, case.pattern);
            let mut mats = Vec::new();
            for i in 0..count {
                let pos = if i == 0 { first.clone() } else { relabel(rng, &first, rows, cols, case.batch.shared) };
                let values = random(rng, t, pos.len());
                mats.push(element(case.fmt, rows, cols, base, pos.iter().zip(values).map(|(p, v)| (p.0, p.1, v)).collect()));
            }
            concat(mats, case.batch.shared, first.len() as i64)
        }
        Fmt::Bsr(block_order) => {
            assert_eq!(count, 1, "the generator makes no BSR batches");
            let (rb, cb) = case.blocks();
            let (brows, bcols) = (rows / rb, cols / cb);
            let pattern = match case.pattern {
                Pattern::HeavyRow(e) => Pattern::HeavyRow((e / (rb * cb)).max(1)),
                p => p,
            };
            let blocks = positions(rng, brows, bcols, pattern);
            let values = random(rng, t, blocks.len() * (rb * cb) as usize);
            single(bsr((rows, cols), (rb, cb), block_order, base, &blocks, values), blocks.len() as i64)
        }
        Fmt::Bell => {
            assert_eq!(count, 1, "Blocked-ELL has no batches");
            let bs = case.blocks().0;
            let (brows, bcols) = (rows / bs, cols / bs);
            let slots = match case.pattern {
                Pattern::Empty => 0,
                Pattern::OneColumn => bcols.min(1),
                _ => bcols.min(3),
            };
            let mut indices = Vec::new();
            for br in 0..brows {
                let chosen = match case.pattern {
                    Pattern::OneColumn if slots > 0 => vec![bcols as u64 / 2],
                    _ => rng.distinct(bcols as u64, slots as usize),
                };
                for bc in chosen {
                    // Empty slots (-1): whole block rows r % 5 == 3, and one slot in four elsewhere.
                    let empty = case.pattern == Pattern::Random && (br % 5 == 3 || rng.below(4) == 0);
                    indices.push(if empty { -1 } else { bc as i64 + base });
                }
            }
            // The values of empty slots are garbage that must not reach C.
            let values = random(rng, t, (rows * slots * bs) as usize);
            let format = FormatInfo::BlockedEll { block_size: bs, ell_cols: slots * bs };
            single(HostSparse { format, rows, cols, base, offsets: vec![], indices, values }, rows * slots * bs)
        }
    }
}

/// A dense operand of `count` matrices, `pad` elements of padding per line and 5 between batches
/// (`common::gen::dense`: padding and gaps hold 0xFF, the matrices random values of `t` or, when
/// not `fill`, the same poison).
pub fn dense(
    rng: &mut Rng,
    (rows, cols): (i64, i64),
    order: Order,
    pad: i64,
    count: i32,
    t: DataType,
    fill: bool,
) -> (BatchedDense, Vec<u8>) {
    let (len, lines) = if order == Order::OXSPARSE_ORDER_COL { (rows, cols) } else { (cols, rows) };
    let ld = len.max(1) + pad;
    crate::common::gen::dense(rng, (rows, cols), order, ld, count, ld * lines + 5, t, fill)
}
