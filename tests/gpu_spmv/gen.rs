//! Test data: seeded random patterns of op(A) (columns unsorted within rows, no duplicates) stored
//! as CSR, CSC, COO (rows sorted or not), BSR or Sliced-ELL; dense vectors between guard bytes;
//! values that every storage type holds exactly.

use super::harness::{Case, Fmt, Pattern, N};
use super::*;
use oxsparse::descr::FormatInfo;
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::DataType;
use std::collections::HashSet;

/// Bytes of 0xFF on each side of X and Y (a multiple of every element size).
pub const GUARD: usize = 64;

use crate::common::gen::{bsr, from_entries};
use crate::common::values::shuffle;
pub use crate::common::values::{encode_indices, random};

/// `k` distinct values of [0, n) in random order, in O(k) when k is small against n (rows of a
/// wide matrix) and O(n) otherwise.
pub fn distinct(rng: &mut Rng, n: i64, k: i64) -> Vec<i64> {
    let k = k.min(n).max(0);
    if k * 3 >= n {
        let mut all: Vec<i64> = (0..n).collect();
        for i in 0..k as usize {
            let j = i + rng.below((n as usize - i) as u64) as usize;
            all.swap(i, j);
        }
        all.truncate(k as usize);
        return all;
    }
    let (mut seen, mut out) = (HashSet::new(), Vec::with_capacity(k as usize));
    while out.len() < k as usize {
        let c = rng.below(n as u64) as i64;
        if seen.insert(c) {
            out.push(c);
        }
    }
    out
}

/// Distinct (i, j) positions of an `m x k` op(A), in random order.
pub fn positions(rng: &mut Rng, m: i64, k: i64, pattern: Pattern) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    if m == 0 || k == 0 {
        return out;
    }
    let mid = k / 2;
    match pattern {
        Pattern::Empty => {}
        Pattern::OneColumn => out.extend((0..m).map(|i| (i, mid))),
        Pattern::HeavyCol(e) => {
            out.extend(distinct(rng, m, e).into_iter().map(|i| (i, mid)));
            // 0 to 3 more per row, in the other columns.
            for i in 0..m {
                let n = rng.below(4) as i64;
                out.extend(distinct(rng, k - 1, n).into_iter().map(|j| (i, if j >= mid { j + 1 } else { j })));
            }
        }
        Pattern::HotColumns(per_row) => {
            let ranking = distinct(rng, k, k);
            let ln_k = (k as f64).ln();
            for i in 0..m {
                let mut seen = HashSet::new();
                while (seen.len() as i64) < per_row.min(k) {
                    let u = rng.below(1 << 53) as f64 / (1u64 << 53) as f64;
                    let rank = ((u * ln_k).exp() as i64 - 1).clamp(0, k - 1);
                    if seen.insert(ranking[rank as usize]) {
                        out.push((i, ranking[rank as usize]));
                    }
                }
            }
        }
        Pattern::Band { below, above, per_row } => {
            for i in 0..m {
                let lo = (i - below).max(0);
                let hi = (i + above + 1).min(k);
                if lo < hi {
                    out.extend(distinct(rng, hi - lo, per_row).into_iter().map(|j| (i, lo + j)));
                }
            }
        }
        _ => {
            let avg = (k / 4 + 1).min((50_000 / m).max(1));
            let ranks = match pattern {
                Pattern::PowerLaw(_) => distinct(rng, m, m),
                _ => vec![],
            };
            for i in 0..m {
                let count = match pattern {
                    Pattern::HeavyRow(e) if i == m / 2 => e,
                    Pattern::HeavyRow(_) => rng.below(4) as i64,
                    Pattern::Cycle(lens) => lens[i as usize % lens.len()],
                    Pattern::Hubs { every } if i % every == 5 => 300 + rng.below(1701) as i64,
                    Pattern::Hubs { .. } => 2 + rng.below(14) as i64,
                    Pattern::PowerLaw(max) => max / (ranks[i as usize] + 1),
                    _ if i % 5 == 3 => 0,
                    _ => rng.below(2 * avg as u64 + 1) as i64,
                };
                out.extend(distinct(rng, k, count).into_iter().map(|j| (i, j)));
            }
        }
    }
    shuffle(rng, &mut out);
    out
}

/// CSR, CSC or COO arrays of `e` (stored coordinates), each line in the order drawn; COO is left
/// entirely unsorted unless `coo_sorted`.
fn element(fmt: Fmt, shape: (i64, i64), base: i64, e: Vec<(i64, i64, Value)>, coo_sorted: bool) -> HostSparse {
    let format = match fmt {
        Fmt::Csr => FormatInfo::Csr,
        Fmt::Csc => FormatInfo::Csc,
        _ => FormatInfo::Coo,
    };
    from_entries(format, shape, base, e, coo_sorted)
}

/// Sliced-ELL of `e`: slice s is as wide as its longest row, plus one all-padding column when
/// s % 3 == 1; a row's entries take its first slots in their random order; padding (and the
/// missing rows of a short last slice) is column -1, value 0.
fn sliced_ell((rows, cols): (i64, i64), base: i64, size: i64, e: Vec<(i64, i64, Value)>) -> HostSparse {
    let mut by_row: Vec<Vec<(i64, Value)>> = vec![vec![]; rows as usize];
    for (r, c, v) in e {
        by_row[r as usize].push((c, v));
    }
    let (mut offsets, mut indices, mut values) = (vec![base], vec![], vec![]);
    for s in 0..(rows + size - 1) / size {
        let lines: Vec<&[(i64, Value)]> = (s * size..(s + 1) * size).map(|r| by_row.get(r as usize).map_or(&[][..], |v| &v[..])).collect();
        let width = lines.iter().map(|l| l.len() as i64).max().unwrap_or(0) + i64::from(s % 3 == 1);
        for j in 0..width as usize {
            for line in &lines {
                let (c, v) = line.get(j).map_or((-1, (0.0, 0.0)), |&(c, v)| (c + base, v));
                indices.push(c);
                values.push(v);
            }
        }
        offsets.push(base + indices.len() as i64);
    }
    let format = FormatInfo::SlicedEll { slice_size: size, values_size: indices.len() as i64 };
    HostSparse { format, rows, cols, base, offsets, indices, values }
}

/// A for `case` and the nnz its descriptor gets.
pub fn sparse(rng: &mut Rng, case: &Case) -> (HostSparse, i64) {
    let (rows, cols) = case.a_shape();
    let (t, base) = (case.types.0, case.base.offset());
    // Entries of op(A), moved to A's storage coordinates.
    let stored = |rng: &mut Rng, m: i64, k: i64, pattern: Pattern| -> Vec<(i64, i64)> {
        let pos = positions(rng, m, k, pattern);
        if case.op == N {
            pos
        } else {
            pos.into_iter().map(|(i, j)| (j, i)).collect()
        }
    };
    match case.fmt {
        Fmt::Csr | Fmt::Csc | Fmt::Coo => {
            let pos = stored(rng, case.m, case.k, case.pattern);
            let values = random(rng, t, pos.len());
            let e = pos.iter().zip(values).map(|(p, v)| (p.0, p.1, v)).collect();
            let nnz = pos.len() as i64;
            (element(case.fmt, (rows, cols), base, e, case.coo_sorted), nnz)
        }
        Fmt::Bsr(block_order) => {
            assert_eq!(case.op, N, "BSR takes opA = N only");
            let (rb, cb) = case.blocks();
            let (brows, bcols) = (rows / rb, cols / cb);
            // The pattern counts blocks, so long rows shrink by the block width.
            let pattern = match case.pattern {
                Pattern::HeavyRow(e) => Pattern::HeavyRow((e / cb).max(1)),
                Pattern::HeavyCol(e) => Pattern::HeavyCol((e / rb).max(1)),
                Pattern::PowerLaw(e) => Pattern::PowerLaw((e / cb).max(1)),
                p => p,
            };
            let blocks = stored(rng, brows, bcols, pattern);
            let values = random(rng, t, blocks.len() * (rb * cb) as usize);
            (bsr((rows, cols), (rb, cb), block_order, base, &blocks, values), blocks.len() as i64)
        }
        Fmt::Sell(size) => {
            assert_eq!(case.op, N, "Sliced-ELL takes opA = N only");
            let pos = stored(rng, case.m, case.k, case.pattern);
            let values = random(rng, t, pos.len());
            let e = pos.iter().zip(values).map(|(p, v)| (p.0, p.1, v)).collect();
            (sliced_ell((rows, cols), base, size, e), pos.len() as i64)
        }
    }
}

/// A dense vector of `n` values of `t` and its device buffer bytes: the encoded values between
/// two `GUARD`-byte runs of 0xFF; when not `fill`, the values too are 0xFF (NaN on the host): a Y
/// that beta == 0 must never read.
pub fn vector(rng: &mut Rng, t: DataType, n: i64, fill: bool) -> (Vec<Value>, Vec<u8>) {
    let w = t.size_bytes() as usize;
    let mut bytes = vec![0xFFu8; 2 * GUARD + n as usize * w];
    if !fill {
        return (vec![(f64::NAN, f64::NAN); n as usize], bytes);
    }
    let values = random(rng, t, n as usize);
    bytes[GUARD..GUARD + n as usize * w].copy_from_slice(&encode(t, &values));
    (values, bytes)
}
