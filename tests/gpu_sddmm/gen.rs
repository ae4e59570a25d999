//! Test data for SDDMM: C's pattern in CSR or BSR over `common::gen::random_csr`'s rows (distinct
//! columns in random order, so unsorted within rows), its batches with garbage between them, and
//! the dense operands (`common::gen::dense`), batches one 16-byte vector apart.

use super::harness::{Case, Fmt, Pattern, Share};
use super::*;
use crate::common::gen::random_csr;
use crate::common::hubs::hub;
use crate::common::values::random;
use oxsparse::descr::{FormatInfo, SpBatch};
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::spmm::{BatchedDense, BatchedSparse};
use oxsparse::types::{DataType, Order};

/// Elements between the batches of C's arrays. Offsets and indices gaps hold the base (in range:
/// an implementation that reads them computes wrong values, which the comparison catches rather
/// than a fault); values gaps hold 0xFF, which must survive.
const GAP: i64 = 3;

/// A dense operand of `count` matrices with `pad` elements of padding per line, batches one
/// 16-byte vector apart beyond the last line (so that they start on 16 bytes when the lines do).
pub fn operand(rng: &mut Rng, (rows, cols): (i64, i64), order: Order, pad: i64, count: i32, t: DataType) -> (BatchedDense, Vec<u8>) {
    let (len, lines) = if order == Order::OXSPARSE_ORDER_COL { (rows, cols) } else { (cols, rows) };
    let ld = len.max(1) + pad;
    let gap = (16 / t.size_bytes() as i64).max(1);
    crate::common::gen::dense(rng, (rows, cols), order, ld, count, ld * lines + gap, t, true)
}

/// The rows of a `rows x cols` grid (C's elements, or its blocks for BSR) under `pattern`: each
/// row's columns, distinct, in random order. Random rows stay short enough for about 40,000
/// entries in all.
pub fn rows_of(rng: &mut Rng, (rows, cols): (i64, i64), pattern: Pattern) -> Vec<Vec<i64>> {
    if let Some(sorted) = sorted_rows(rng, (rows, cols), pattern) {
        return sorted;
    }
    let (r64, c64) = (rows.max(1) as u64, cols as u64);
    let len = move |rng: &mut Rng, r: usize| -> u64 {
        match pattern {
            Pattern::Empty => 0,
            Pattern::Full => c64,
            Pattern::Hubs(long) if hub(r) => (long as u64).min(c64),
            Pattern::Hubs(_) => rng.below(5).min(c64),
            Pattern::Random if r % 5 == 3 => 0,
            Pattern::Random => rng.below((c64 / 3 + 2).min(40_000 / r64 + 2)).min(c64),
            Pattern::Window { .. } | Pattern::Blocks(_) => unreachable!("sorted_rows"),
        }
    };
    let csr = random_csr(rng, (rows as usize, cols as usize), len, false);
    let row = |r: usize| csr.indices[csr.offsets[r] as usize..csr.offsets[r + 1] as usize].iter().map(|&c| c as i64).collect();
    (0..rows as usize).map(row).collect()
}

/// The rows of the sorted patterns (`Window`, `Blocks`), None for the others.
fn sorted_rows(rng: &mut Rng, (rows, cols): (i64, i64), pattern: Pattern) -> Option<Vec<Vec<i64>>> {
    let row = |rng: &mut Rng, r: i64| -> Vec<i64> {
        match pattern {
            Pattern::Window { w, holes } => {
                let centre = r * cols / rows.max(1);
                let (lo, hi) = ((centre - w / 2).max(0), (centre + w / 2).min(cols - 1));
                (lo..=hi).filter(|_| !holes || rng.below(2) == 0).collect()
            }
            Pattern::Blocks(b) => {
                let (bi, nb) = (r / b, (cols + b - 1) / b);
                // The kept blocks depend on the block row only, so a block row's rows share them.
                let mut keep = Rng::new(0xB10C ^ bi as u64);
                (0..nb)
                    .filter(|&bj| bj == bi * nb / ((rows + b - 1) / b).max(1) || keep.below(3) == 0)
                    .flat_map(|bj| bj * b..((bj + 1) * b).min(cols))
                    .collect()
            }
            _ => unreachable!(),
        }
    };
    matches!(pattern, Pattern::Window { .. } | Pattern::Blocks(_)).then(|| (0..rows).map(|r| row(rng, r)).collect())
}

/// The same rows with the columns renumbered, and the rows themselves shuffled unless
/// `keep_rows` (so that row offsets stay the same).
fn relabel(rng: &mut Rng, first: &[Vec<i64>], cols: i64, keep_rows: bool) -> Vec<Vec<i64>> {
    let n = first.len() as u64;
    let rows: Vec<u64> = if keep_rows { (0..n).collect() } else { rng.distinct(n, n as usize) };
    let map = rng.distinct(cols as u64, cols as usize);
    rows.iter().map(|&r| first[r as usize].iter().map(|&c| map[c as usize] as i64).collect()).collect()
}

/// C for `case`: every batch's arrays at their strides (shared as `case.batch.share` says, `GAP`
/// elements of garbage between batches), random values of C's type, and which values are stored
/// entries (the others lie between batches).
pub fn sparse(rng: &mut Rng, case: &Case) -> (BatchedSparse, Vec<bool>) {
    let (rb, cb, block_order) = match case.fmt {
        Fmt::Csr => (1, 1, None),
        Fmt::Bsr { rb, cb, order } => (rb, cb, Some(order)),
    };
    assert!(case.m % rb == 0 && case.n % cb == 0, "C of {} x {} in blocks of {rb} x {cb}", case.m, case.n);
    let (rows, cols, area) = (case.m / rb, case.n / cb, rb * cb);
    let (base, count, share) = (case.base.offset(), case.batch.c as i64, case.batch.share);
    assert!(block_order.is_some() || share != Share::Structure || count == 1, "CSR's indices and values have one batch stride");
    let first = rows_of(rng, (rows, cols), case.pattern);
    let nnz: i64 = first.iter().map(|r| r.len() as i64).sum();
    let strides = if count == 1 {
        (0, 0, 0)
    } else {
        let own = |s: bool, len: i64| if s { len + GAP } else { 0 };
        (own(share == Share::Own, rows + 1), own(share != Share::Structure, nnz), nnz * area + GAP)
    };
    let format = match block_order {
        None => FormatInfo::Csr,
        Some(block_order) => FormatInfo::Bsr { brows: rows, bcols: cols, bnnz: nnz, row_block: rb, col_block: cb, block_order },
    };
    let mut m = HostSparse { format, rows: case.m, cols: case.n, base, offsets: vec![], indices: vec![], values: vec![] };
    let mut stored = Vec::new();
    let nan = (f64::NAN, f64::NAN);
    for b in 0..count {
        let pattern = if b == 0 || share == Share::Structure { first.clone() } else { relabel(rng, &first, cols, share == Share::Offsets) };
        if b == 0 || strides.0 > 0 {
            m.offsets.extend(std::iter::repeat_n(base, if b > 0 { GAP as usize } else { 0 }));
            let mut at = base;
            m.offsets.push(at);
            for row in &pattern {
                at += row.len() as i64;
                m.offsets.push(at);
            }
        }
        if b == 0 || strides.1 > 0 {
            m.indices.extend(std::iter::repeat_n(base, if b > 0 { GAP as usize } else { 0 }));
            m.indices.extend(pattern.iter().flatten().map(|&c| c + base));
        }
        if b > 0 {
            m.values.extend([nan; GAP as usize]);
            stored.extend([false; GAP as usize]);
        }
        m.values.extend(random(rng, case.types.1, (nnz * area) as usize));
        stored.extend(std::iter::repeat_n(true, (nnz * area) as usize));
    }
    let batch = SpBatch { count: count as i32, offsets_stride: strides.0, indices_stride: strides.1, values_stride: strides.2 };
    (BatchedSparse { m, nnz: nnz * area, batch }, stored)
}
