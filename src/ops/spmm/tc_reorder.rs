//! Data-affinity reordering for the tensor-core path, done by preprocess when the handle's reorder
//! mode asks (`oxsparseSetReorderMode`):
//!
//! 1. `read`: op(A)'s rows (offsets and columns) come back to the host.
//! 2. `decide`: the rows are clustered (src/ops/reorder.rs) and the (8-row window, column) pairs
//!    counted before and after: each pair is a row of B the tiles read. The order is kept only if
//!    it saves at least `MIN_SAVING_PERCENT` of them (a banded FEM matrix is often best as stored:
//!    bcsstk17 and wave_squared_2hop lose 26-31% reuse to clustering).
//! 3. `upload`: a row-permuted copy of the rows (with the entry each copied entry came from) for
//!    the BitTCF build, and the row order, which the kernels follow when they write C.
//!
//! Everything the user passed stays as it is; C comes out in the user's row order.

use super::Call;
use crate::context::Handle;
use crate::error::Result;
use crate::kernels::params::spmm::SpmmRows;
use crate::kernels::spmm_tc::ReorderRoom;
use crate::kernels::vector_ops::{copy_to_device_and_wait, copy_to_host_and_wait};
use crate::ops::reorder;
use crate::types::IndexType;
use std::time::Instant;

/// Pairs the new order must save, in percent of those as stored.
pub const MIN_SAVING_PERCENT: u64 = 5;

/// op(A)'s rows on the host: offsets into `cols` (0-based, clamped into it), columns 0-based.
pub struct Structure {
    pub offsets: Vec<i64>,
    pub cols: Vec<i64>,
}

/// What the clustering found, and whether it is used.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `rows[i]`: the row of op(A) at position i (None: not kept, rows as stored).
    pub rows: Option<Vec<u32>>,
    pub pairs_stored: u64,
    pub pairs_clustered: u64,
    pub millis: f64,
}

fn read_indices(h: &Handle, at: u64, len: usize, index: IndexType) -> Result<Vec<i64>> {
    let size = index.size_bytes() as usize;
    let mut bytes = vec![0u8; len * size];
    if len > 0 {
        copy_to_host_and_wait(h, at, &mut bytes)?;
    }
    Ok(match index {
        IndexType::OXSPARSE_INDEX_64I => bytes.chunks_exact(8).map(|c| i64::from_ne_bytes(c.try_into().unwrap())).collect(),
        _ => bytes.chunks_exact(4).map(|c| i32::from_ne_bytes(c.try_into().unwrap()) as i64).collect(),
    })
}

/// Step 1: op(A)'s `m` rows and `nnz` entries (`rows`, as the kernels read them) to the host.
/// Offsets out of order or out of range are clamped: such a matrix gets some order, never a fault.
pub fn read(h: &Handle, rows: &SpmmRows, m: i64, nnz: i64, index: IndexType) -> Result<Structure> {
    let (m, nnz) = (m.max(0) as usize, nnz.max(0) as usize);
    let mut offsets = read_indices(h, rows.offsets, m + 1, index)?;
    let mut cols = read_indices(h, rows.cols, nnz, index)?;
    let mut last = 0i64;
    for o in offsets.iter_mut() {
        *o = (*o - rows.base).clamp(last, nnz as i64);
        last = *o;
    }
    for c in cols.iter_mut() {
        *c -= rows.base;
    }
    Ok(Structure { offsets, cols })
}

/// Step 2: cluster, count pairs, keep the order if it saves enough.
pub fn decide(s: &Structure, k: i64) -> Outcome {
    let start = Instant::now();
    let m = s.offsets.len().saturating_sub(1);
    let order = reorder::cluster(m, k.max(0) as usize, &s.offsets, &s.cols);
    let window = crate::kernels::params::spmm_tc::TC_WINDOW as usize;
    let pairs_stored = reorder::window_pairs(&s.offsets, &s.cols, None, window);
    let pairs_clustered = reorder::window_pairs(&s.offsets, &s.cols, Some(&order.rows), window);
    let keep = pairs_clustered * 100 <= pairs_stored * (100 - MIN_SAVING_PERCENT) && pairs_clustered < pairs_stored;
    Outcome { rows: keep.then_some(order.rows), pairs_stored, pairs_clustered, millis: start.elapsed().as_secs_f64() * 1e3 }
}

/// The permuted copy: offsets and columns in A's index type (0-based), and per copied entry the
/// entry of op(A)'s rows it came from. Sized for `nnz` entries (the tail, if any, lies in no row).
pub fn permuted_copy(s: &Structure, order: &[u32], nnz: usize, index: IndexType) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut offsets = Vec::with_capacity(order.len() + 1);
    let mut cols = Vec::with_capacity(nnz);
    let mut from = Vec::with_capacity(nnz);
    offsets.push(0i64);
    for &r in order {
        let (lo, hi) = (s.offsets[r as usize] as usize, s.offsets[r as usize + 1] as usize);
        cols.extend_from_slice(&s.cols[lo..hi]);
        from.extend((lo..hi).map(|q| q as u32));
        offsets.push(cols.len() as i64);
    }
    cols.resize(nnz.max(cols.len()), 0);
    from.resize(cols.len(), 0);
    let encode = |v: &[i64]| -> Vec<u8> {
        match index {
            IndexType::OXSPARSE_INDEX_64I => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            _ => v.iter().flat_map(|&x| (x as i32).to_ne_bytes()).collect(),
        }
    };
    (encode(&offsets), encode(&cols), from.iter().flat_map(|x| x.to_ne_bytes()).collect())
}

/// Steps 1-3 for one preprocess: None when the order is not kept; else the rows the build reads
/// (the permuted copy, in `room`), with the row order uploaded too.
pub fn apply(
    h: &Handle,
    call: &Call,
    rows: &SpmmRows,
    (m, k, index): (i64, i64, IndexType),
    room: &ReorderRoom,
    at: u64,
) -> Result<Option<SpmmRows>> {
    let nnz = call.a.nnz;
    let s = read(h, rows, m, nnz, index)?;
    let outcome = decide(&s, k);
    if call.settings.print_plan {
        eprintln!(
            "oxsparse: reorder: (window, column) pairs {} as stored, {} clustered ({:.1} ms): {}",
            outcome.pairs_stored,
            outcome.pairs_clustered,
            outcome.millis,
            if outcome.rows.is_some() { "reordered" } else { "kept as stored" }
        );
    }
    let Some(order) = outcome.rows else { return Ok(None) };
    let (offsets, cols, from) = permuted_copy(&s, &order, nnz as usize, index);
    let order_bytes: Vec<u8> = order.iter().flat_map(|x| x.to_ne_bytes()).collect();
    copy_to_device_and_wait(h, at + room.offsets, &offsets)?;
    copy_to_device_and_wait(h, at + room.cols, &cols)?;
    copy_to_device_and_wait(h, at + room.entry_map, &from)?;
    copy_to_device_and_wait(h, at + room.row_order, &order_bytes)?;
    Ok(Some(SpmmRows { offsets: at + room.offsets, cols: at + room.cols, base: 0, perm: 0, ..*rows }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn structure(rows: &[&[i64]]) -> Structure {
        let mut offsets = vec![0];
        let mut cols = Vec::new();
        for r in rows {
            cols.extend_from_slice(r);
            offsets.push(cols.len() as i64);
        }
        Structure { offsets, cols }
    }

    #[test]
    fn permuted_copy_follows_the_order() {
        let s = structure(&[&[0, 2], &[1], &[], &[3, 4, 5]]);
        let (offsets, cols, from) = permuted_copy(&s, &[3, 0, 2, 1], 6, IndexType::OXSPARSE_INDEX_32I);
        let ints = |b: &[u8]| b.chunks_exact(4).map(|c| i32::from_ne_bytes(c.try_into().unwrap())).collect::<Vec<_>>();
        assert_eq!(ints(&offsets), [0, 3, 5, 5, 6]);
        assert_eq!(ints(&cols), [3, 4, 5, 0, 2, 1]);
        assert_eq!(ints(&from), [3, 4, 5, 0, 1, 2]);
        // 64-bit indices; room for more entries than the rows hold: the tail lies in no row.
        let (offsets, cols, from) = permuted_copy(&s, &[1, 0, 2, 3], 8, IndexType::OXSPARSE_INDEX_64I);
        assert_eq!(offsets.len(), 5 * 8);
        assert_eq!(cols.len(), 8 * 8);
        assert_eq!(from.len(), 8 * 4);
        assert_eq!(i64::from_ne_bytes(offsets[8..16].try_into().unwrap()), 1);
    }

    #[test]
    fn keeps_only_an_order_that_saves_pairs() {
        // Already perfect windows (each window of 8 rows on the same 8 columns): nothing to gain.
        let block: Vec<i64> = (0..8).collect();
        let other: Vec<i64> = (8..16).collect();
        let rows: Vec<&[i64]> = (0..16).map(|r| if r < 8 { &block[..] } else { &other[..] }).collect();
        let d = decide(&structure(&rows), 16);
        assert!(d.rows.is_none(), "{d:?}");
        assert_eq!(d.pairs_stored, 16);
        // Interleaved: rows alternate between the two column sets; clustering halves the pairs.
        let rows: Vec<&[i64]> = (0..16).map(|r| if r % 2 == 0 { &block[..] } else { &other[..] }).collect();
        let d = decide(&structure(&rows), 16);
        assert_eq!(d.pairs_stored, 32);
        assert_eq!(d.pairs_clustered, 16, "{d:?}");
        assert!(d.rows.is_some());
    }
}
