//! CPU twin of SparseToDense: write every logical entry of B as zero, then every stored entry of A.
//!
//! A arrives as plain host arrays: indices as i64 exactly as stored (base not yet subtracted),
//! values as (re, im) f64 pairs (im = 0 for real types). B is the whole `ld`-strided buffer, so a
//! caller can check that the gap between the logical matrix and `ld` keeps what it held.

use super::vector_ops::Value;
use crate::descr::FormatInfo;
use crate::types::Order;

/// A sparse matrix on the host, arrays laid out as in `descr::SpArrays`.
#[derive(Clone, Debug)]
pub struct HostSparse {
    pub format: FormatInfo,
    pub rows: i64,
    pub cols: i64,
    pub base: i64,
    /// CSR/CSC/BSR offsets; COO row indices; Sliced-ELL slice offsets (ceil(rows / slice_size) + 1
    /// of them, the base added like CSR offsets: slice s holds slots offsets[s] - base to
    /// offsets[s + 1] - base); unused for Blocked-ELL.
    pub offsets: Vec<i64>,
    /// CSR column / CSC row / COO column / BSR and Blocked-ELL block-column / Sliced-ELL column
    /// indices (Sliced-ELL: one per slot, -1 for a padding slot whatever the base).
    pub indices: Vec<i64>,
    pub values: Vec<(f64, f64)>,
}

/// Offset of (r, c) in a dense matrix of `order` with leading dimension `ld`.
pub fn dense_offset(order: Order, ld: i64, r: i64, c: i64) -> usize {
    match order {
        Order::OXSPARSE_ORDER_ROW => (r * ld + c) as usize,
        Order::OXSPARSE_ORDER_COL => (c * ld + r) as usize,
    }
}

/// B = dense(A) into `b` (at least `ld` times the number of lines). Entries outside the logical
/// `rows x cols` matrix are left as they are.
pub fn sparse_to_dense(a: &HostSparse, order: Order, ld: i64, b: &mut [(f64, f64)]) {
    for r in 0..a.rows {
        for c in 0..a.cols {
            b[dense_offset(order, ld, r, c)] = (0.0, 0.0);
        }
    }
    for (r, c, v) in entries(a) {
        b[dense_offset(order, ld, r, c)] = v;
    }
}

/// The stored entries of one matrix as (row, column, value), base removed, in storage order.
/// Empty Blocked-ELL slots (block column -1) and Sliced-ELL padding slots (column -1) give nothing.
///
/// Sliced-ELL (cuSPARSE's layout, CUDALibrarySamples `spmv_sell`): rows are cut into slices of
/// `slice_size`; slice s is a column-major `slice_size x width` block of slots, width =
/// (offsets[s + 1] - offsets[s]) / slice_size, so slot (ELL column j, row s * slice_size + i) is
/// at offsets[s] - base + j * slice_size + i. The last slice keeps the full `slice_size` stride
/// even when it has fewer rows: the slots of its missing rows must be padding.
pub fn entries(a: &HostSparse) -> Vec<(i64, i64, Value)> {
    let base = a.base;
    let mut out = Vec::new();
    match a.format {
        FormatInfo::Coo => {
            for i in 0..a.values.len() {
                out.push((a.offsets[i] - base, a.indices[i] - base, a.values[i]));
            }
        }
        FormatInfo::Csr | FormatInfo::Csc => {
            let lines = if a.format == FormatInfo::Csr { a.rows } else { a.cols };
            for line in 0..lines as usize {
                for i in (a.offsets[line] - base) as usize..(a.offsets[line + 1] - base) as usize {
                    let other = a.indices[i] - base;
                    let (r, c) = if a.format == FormatInfo::Csr { (line as i64, other) } else { (other, line as i64) };
                    out.push((r, c, a.values[i]));
                }
            }
        }
        FormatInfo::Bsr { brows, row_block, col_block, block_order, .. } => {
            for br in 0..brows {
                for blk in a.offsets[br as usize] - base..a.offsets[br as usize + 1] - base {
                    let bc = a.indices[blk as usize] - base;
                    for i in 0..row_block {
                        for j in 0..col_block {
                            let within = match block_order {
                                Order::OXSPARSE_ORDER_ROW => i * col_block + j,
                                Order::OXSPARSE_ORDER_COL => j * row_block + i,
                            };
                            let v = a.values[(blk * row_block * col_block + within) as usize];
                            out.push((br * row_block + i, bc * col_block + j, v));
                        }
                    }
                }
            }
        }
        FormatInfo::BlockedEll { block_size, ell_cols } => {
            let slots = if block_size == 0 { 0 } else { ell_cols / block_size };
            for r in 0..a.rows {
                for e in 0..ell_cols {
                    let raw = a.indices[((r / block_size) * slots + e / block_size) as usize];
                    if raw != -1 {
                        let c = (raw - base) * block_size + e % block_size;
                        out.push((r, c, a.values[(r * ell_cols + e) as usize]));
                    }
                }
            }
        }
        FormatInfo::SlicedEll { slice_size: size, .. } => {
            let slices = (a.rows + size - 1) / size;
            for s in 0..slices as usize {
                let (start, end) = (a.offsets[s] - base, a.offsets[s + 1] - base);
                assert!(start <= end && (end - start) % size == 0, "slice {s} spans slots {start}..{end}, not a multiple of {size}");
                for j in 0..(end - start) / size {
                    for i in 0..size {
                        let slot = (start + j * size + i) as usize;
                        if a.indices[slot] != -1 {
                            out.push((s as i64 * size + i, a.indices[slot] - base, a.values[slot]));
                        }
                    }
                }
            }
        }
    }
    for &(r, c, _) in &out {
        assert!((0..a.rows).contains(&r) && (0..a.cols).contains(&c), "entry ({r}, {c}) outside {} x {}", a.rows, a.cols);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Order::*;

    const PAD: (f64, f64) = (-7.0, -7.0);

    #[test]
    fn csr_row_major_with_padding_and_base_one() {
        // [[1 0 2] [0 0 0] [0 3 0]], unsorted row 0, ld 4 (one padding column).
        let a = HostSparse {
            format: FormatInfo::Csr,
            rows: 3,
            cols: 3,
            base: 1,
            offsets: vec![1, 3, 3, 4],
            indices: vec![3, 1, 2],
            values: vec![(2.0, 0.0), (1.0, 0.0), (3.0, 0.0)],
        };
        let mut b = vec![PAD; 12];
        sparse_to_dense(&a, OXSPARSE_ORDER_ROW, 4, &mut b);
        let re: Vec<f64> = b.iter().map(|v| v.0).collect();
        assert_eq!(re, [1.0, 0.0, 2.0, -7.0, 0.0, 0.0, 0.0, -7.0, 0.0, 3.0, 0.0, -7.0]);
    }

    #[test]
    fn bsr_column_major_blocks_into_column_major_b() {
        // One 2x2 block at block (0, 1) of a 2 x 4 matrix, values stored column by column.
        let a = HostSparse {
            format: FormatInfo::Bsr { brows: 1, bcols: 2, bnnz: 1, row_block: 2, col_block: 2, block_order: OXSPARSE_ORDER_COL },
            rows: 2,
            cols: 4,
            base: 0,
            offsets: vec![0, 1],
            indices: vec![1],
            values: vec![(1.0, 0.5), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)],
        };
        let mut b = vec![PAD; 8];
        sparse_to_dense(&a, OXSPARSE_ORDER_COL, 2, &mut b);
        // (0,2)=1+0.5i (1,2)=2 (0,3)=3 (1,3)=4.
        assert_eq!(b[4], (1.0, 0.5));
        assert_eq!(&b[5..8], &[(2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]);
        assert!(b[..4].iter().all(|v| *v == (0.0, 0.0)));
    }

    #[test]
    fn blocked_ell_skips_empty_slots() {
        // 2 x 4, block size 2, one slot per block row holding block column 1; a second matrix
        // with the slot empty (-1) must come out all zero although its values are not.
        let mut a = HostSparse {
            format: FormatInfo::BlockedEll { block_size: 2, ell_cols: 2 },
            rows: 2,
            cols: 4,
            base: 0,
            offsets: vec![],
            indices: vec![1],
            values: vec![(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)],
        };
        let mut b = vec![PAD; 8];
        sparse_to_dense(&a, OXSPARSE_ORDER_ROW, 4, &mut b);
        assert_eq!(b.iter().map(|v| v.0).collect::<Vec<_>>(), [0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 3.0, 4.0]);
        a.indices = vec![-1];
        sparse_to_dense(&a, OXSPARSE_ORDER_ROW, 4, &mut b);
        assert!(b.iter().all(|v| *v == (0.0, 0.0)));
    }

    #[test]
    fn sliced_ell_reads_slices_column_by_column_and_skips_padding() {
        // CUDALibrarySamples spmv_sell: [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], slices of 2 rows.
        let v = |x: &[f64]| x.iter().map(|&r| (r, 0.0)).collect::<Vec<_>>();
        let mut a = HostSparse {
            format: FormatInfo::SlicedEll { slice_size: 2, values_size: 12 },
            rows: 4,
            cols: 4,
            base: 0,
            offsets: vec![0, 6, 12],
            indices: vec![0, 1, 2, -1, 3, -1, 0, 1, 2, 3, 3, -1],
            values: v(&[1.0, 4.0, 2.0, 0.0, 3.0, 0.0, 5.0, 8.0, 6.0, 9.0, 7.0, 0.0]),
        };
        let mut b = vec![PAD; 16];
        sparse_to_dense(&a, OXSPARSE_ORDER_ROW, 4, &mut b);
        let want = [1.0, 0.0, 2.0, 3.0, 0.0, 4.0, 0.0, 0.0, 5.0, 0.0, 6.0, 7.0, 0.0, 8.0, 0.0, 9.0];
        assert_eq!(b.iter().map(|v| v.0).collect::<Vec<_>>(), want);
        // Base one: offsets and columns shifted, padding still -1.
        a.base = 1;
        a.offsets = vec![1, 7, 13];
        a.indices = a.indices.iter().map(|&c| if c == -1 { -1 } else { c + 1 }).collect();
        let mut b1 = vec![PAD; 16];
        sparse_to_dense(&a, OXSPARSE_ORDER_ROW, 4, &mut b1);
        assert_eq!(b1, b);
        // Three rows: the last slice still has two rows of slots, the missing row's padding.
        let c = HostSparse {
            format: FormatInfo::SlicedEll { slice_size: 2, values_size: 6 },
            rows: 3,
            cols: 2,
            base: 0,
            offsets: vec![0, 4, 6],
            indices: vec![1, 0, -1, 1, 0, -1],
            values: v(&[1.0, 2.0, 0.0, 3.0, 4.0, 0.0]),
        };
        assert_eq!(entries(&c), vec![(0, 1, (1.0, 0.0)), (1, 0, (2.0, 0.0)), (1, 1, (3.0, 0.0)), (2, 0, (4.0, 0.0))]);
    }

    #[test]
    fn coo_column_major() {
        let a = HostSparse {
            format: FormatInfo::Coo,
            rows: 2,
            cols: 2,
            base: 0,
            offsets: vec![1, 0],
            indices: vec![0, 1],
            values: vec![(5.0, 0.0), (6.0, 0.0)],
        };
        let mut b = vec![PAD; 6];
        sparse_to_dense(&a, OXSPARSE_ORDER_COL, 3, &mut b);
        assert_eq!(b.iter().map(|v| v.0).collect::<Vec<_>>(), [0.0, 5.0, -7.0, 6.0, 0.0, -7.0]);
    }
}
