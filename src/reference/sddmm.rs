//! CPU twin of SDDMM: C = alpha * (op(A) * op(B)) o spy(C) + beta * C, in float64 (complex as
//! (re, im) pairs). A and B are dense, C sparse (CSR or BSR, the formats cuSPARSE's SDDMM takes);
//! only C's stored entries are computed, in place, its structure unchanged.
//!
//! Semantics: op(A) is m x k, op(B) is k x n, C is m x n. beta == 0 means C is only written, never
//! read; k == 0 makes every stored entry beta * C. Batches: C has the largest count; A and B have
//! count 1 (shared by every batch of C) or C's count, which gives the four strided modes
//! (A B) o C_i, (A_i B) o C_i, (A B_i) o C_i and (A_i B_i) o C_i.

use super::spmm::{BatchedDense, BatchedSparse};
use super::vector_ops::{add, conj, mul, Value, ZERO};
use crate::descr::FormatInfo;
use crate::types::{Operation, Order};

/// Entry (i, j) of op(X) for batch `batch`.
fn op_at(op: Operation, x: &BatchedDense, batch: i64, i: i64, j: i64) -> Value {
    match op {
        Operation::OXSPARSE_OPERATION_NON_TRANSPOSE => x.values[x.index(batch, i, j)],
        Operation::OXSPARSE_OPERATION_TRANSPOSE => x.values[x.index(batch, j, i)],
        Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE => conj(x.values[x.index(batch, j, i)]),
    }
}

/// (rows, cols) of op(X) for an X of `rows x cols`.
fn op_shape(op: Operation, rows: i64, cols: i64) -> (i64, i64) {
    if op == Operation::OXSPARSE_OPERATION_NON_TRANSPOSE {
        (rows, cols)
    } else {
        (cols, rows)
    }
}

/// The stored entries of batch `batch` of C: (row, column, index into `c.m.values`).
fn stored(c: &BatchedSparse, batch: i64) -> Vec<(i64, i64, usize)> {
    let m = &c.m;
    let s = c.batch;
    let (offsets, indices, values) = (batch * s.offsets_stride, batch * s.indices_stride, batch * s.values_stride);
    let base = m.base;
    let at = |v: &[i64], start: i64, i: i64| v[(start + i) as usize] - base;
    let mut out = Vec::new();
    match m.format {
        FormatInfo::Csr => {
            for r in 0..m.rows {
                for i in at(&m.offsets, offsets, r)..at(&m.offsets, offsets, r + 1) {
                    out.push((r, at(&m.indices, indices, i), (values + i) as usize));
                }
            }
        }
        FormatInfo::Bsr { brows, row_block, col_block, block_order, .. } => {
            for br in 0..brows {
                for blk in at(&m.offsets, offsets, br)..at(&m.offsets, offsets, br + 1) {
                    let bc = at(&m.indices, indices, blk);
                    for i in 0..row_block {
                        for j in 0..col_block {
                            let within = match block_order {
                                Order::OXSPARSE_ORDER_ROW => i * col_block + j,
                                Order::OXSPARSE_ORDER_COL => j * row_block + i,
                            };
                            out.push((br * row_block + i, bc * col_block + j, (values + blk * row_block * col_block + within) as usize));
                        }
                    }
                }
            }
        }
        other => panic!("SDDMM has no {other:?} reference: the routine takes CSR and BSR"),
    }
    out
}

/// C = alpha * (op(A) * op(B)) o spy(C) + beta * C on every batch of C. Panics on inconsistent
/// shapes or batch counts: the reference is only asked about problems the routine accepts.
pub fn sddmm(op_a: Operation, op_b: Operation, alpha: Value, a: &BatchedDense, b: &BatchedDense, beta: Value, c: &mut BatchedSparse) {
    let (m, k) = op_shape(op_a, a.rows, a.cols);
    let (kb, n) = op_shape(op_b, b.rows, b.cols);
    assert!(k == kb && c.m.rows == m && c.m.cols == n, "shapes: op(A) {m} x {k}, op(B) {kb} x {n}, C {} x {}", c.m.rows, c.m.cols);
    let count = c.batch.count as i64;
    assert!((a.count == 1 || a.count == count) && (b.count == 1 || b.count == count), "batch counts");
    for batch in 0..count {
        for (i, j, at) in stored(c, batch) {
            let dot = (0..k).fold(ZERO, |s, kk| add(s, mul(op_at(op_a, a, batch, i, kk), op_at(op_b, b, batch, kk, j))));
            let old = if beta == ZERO { ZERO } else { mul(beta, c.m.values[at]) };
            c.m.values[at] = add(mul(alpha, dot), old);
        }
    }
}

/// Per value of C (same layout as `c.m.values`), the error bound scale
/// `sum_k |alpha| |op(A)_ik| |op(B)_kj| + |beta| |C_ij|` with |x| = |re| + |im|; values outside the
/// stored entries hold |C| as given.
pub fn error_scale(
    op_a: Operation,
    op_b: Operation,
    alpha: Value,
    a: &BatchedDense,
    b: &BatchedDense,
    beta: Value,
    c: &BatchedSparse,
) -> Vec<f64> {
    let abs = |v: &Value| (super::spmm::abs1(*v), 0.0);
    let plain =
        |op: Operation| if op == Operation::OXSPARSE_OPERATION_NON_TRANSPOSE { op } else { Operation::OXSPARSE_OPERATION_TRANSPOSE };
    let (mut a_abs, mut b_abs, mut c_abs) = (a.clone(), b.clone(), c.clone());
    a_abs.values = a.values.iter().map(abs).collect();
    b_abs.values = b.values.iter().map(abs).collect();
    // beta == 0: C is not read, and may hold NaN.
    c_abs.m.values = c.m.values.iter().map(|v| if beta == ZERO { ZERO } else { abs(v) }).collect();
    sddmm(plain(op_a), plain(op_b), abs(&alpha), &a_abs, &b_abs, abs(&beta), &mut c_abs);
    c_abs.m.values.iter().map(|v| v.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descr::SpBatch;
    use crate::reference::sparse_to_dense::HostSparse;
    use crate::types::Operation::*;
    use crate::types::Order::*;

    fn real(v: &[f64]) -> Vec<Value> {
        v.iter().map(|&x| (x, 0.0)).collect()
    }

    fn dense(rows: i64, cols: i64, order: Order, values: &[f64]) -> BatchedDense {
        let ld = if order == OXSPARSE_ORDER_ROW { cols } else { rows };
        BatchedDense { rows, cols, ld, order, count: 1, stride: 0, values: real(values) }
    }

    fn one_batch() -> SpBatch {
        SpBatch { count: 1, offsets_stride: 0, indices_stride: 0, values_stride: 0 }
    }

    /// C = 3 x 3 with entries (0,0), (0,2), (1,1), (2,0), (2,2), values 1..5, in CSR of `base`.
    fn c_csr(base: i64) -> BatchedSparse {
        let m = HostSparse {
            format: FormatInfo::Csr,
            rows: 3,
            cols: 3,
            base,
            offsets: [0, 2, 3, 5].map(|o| o + base).to_vec(),
            indices: [0, 2, 1, 0, 2].map(|i| i + base).to_vec(),
            values: real(&[1.0, 2.0, 3.0, 4.0, 5.0]),
        };
        BatchedSparse { m, nnz: 5, batch: one_batch() }
    }

    // A = [1 2; 3 4; 5 6] (3 x 2), B = [1 0 2; 0 1 3] (2 x 3): A B = [1 2 8; 3 4 18; 5 6 28].
    const A: [f64; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    const B: [f64; 6] = [1.0, 0.0, 2.0, 0.0, 1.0, 3.0];

    #[test]
    fn stored_entries_only_in_both_bases_and_layouts() {
        // alpha 2, beta -1: 2 (A B)_ij - C_ij at (0,0) (0,2) (1,1) (2,0) (2,2).
        let want = real(&[2.0 - 1.0, 16.0 - 2.0, 8.0 - 3.0, 10.0 - 4.0, 56.0 - 5.0]);
        for base in [0, 1] {
            let mut c = c_csr(base);
            sddmm(
                OXSPARSE_OPERATION_NON_TRANSPOSE,
                OXSPARSE_OPERATION_NON_TRANSPOSE,
                (2.0, 0.0),
                &dense(3, 2, OXSPARSE_ORDER_ROW, &A),
                &dense(2, 3, OXSPARSE_ORDER_ROW, &B),
                (-1.0, 0.0),
                &mut c,
            );
            assert_eq!(c.m.values, want, "base {base}");
        }
        // The same A and B given transposed, column-major: op(A) = A, op(B) = B again.
        let a_t = dense(2, 3, OXSPARSE_ORDER_COL, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]); // A^T stored column-major is A row-major
        let b_t = dense(3, 2, OXSPARSE_ORDER_COL, &[1.0, 0.0, 2.0, 0.0, 1.0, 3.0]);
        let mut c = c_csr(0);
        sddmm(OXSPARSE_OPERATION_TRANSPOSE, OXSPARSE_OPERATION_TRANSPOSE, (2.0, 0.0), &a_t, &b_t, (-1.0, 0.0), &mut c);
        assert_eq!(c.m.values, want, "op = T");
    }

    #[test]
    fn beta_zero_never_reads_c_and_k_zero_scales_it() {
        let mut c = c_csr(0);
        c.m.values = vec![(f64::NAN, f64::NAN); 5];
        sddmm(
            OXSPARSE_OPERATION_NON_TRANSPOSE,
            OXSPARSE_OPERATION_NON_TRANSPOSE,
            (1.0, 0.0),
            &dense(3, 2, OXSPARSE_ORDER_ROW, &A),
            &dense(2, 3, OXSPARSE_ORDER_ROW, &B),
            ZERO,
            &mut c,
        );
        assert_eq!(c.m.values, real(&[1.0, 8.0, 4.0, 5.0, 28.0]));
        let mut c = c_csr(0);
        let (a0, b0) = (dense(3, 0, OXSPARSE_ORDER_ROW, &[]), dense(0, 3, OXSPARSE_ORDER_ROW, &[]));
        sddmm(OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE, (7.0, 0.0), &a0, &b0, (0.5, 0.0), &mut c);
        assert_eq!(c.m.values, real(&[0.5, 1.0, 1.5, 2.0, 2.5]));
    }

    #[test]
    fn bsr_blocks_match_the_csr_of_their_entries() {
        // C 2 x 4 as one block row of two 2 x 2 blocks (block columns 0 and 1), column-major blocks.
        let m = HostSparse {
            format: FormatInfo::Bsr { brows: 1, bcols: 2, bnnz: 2, row_block: 2, col_block: 2, block_order: OXSPARSE_ORDER_COL },
            rows: 2,
            cols: 4,
            base: 0,
            offsets: vec![0, 2],
            indices: vec![0, 1],
            values: vec![ZERO; 8],
        };
        let mut c = BatchedSparse { m, nnz: 8, batch: one_batch() };
        let a = dense(2, 1, OXSPARSE_ORDER_ROW, &[1.0, 2.0]);
        let b = dense(1, 4, OXSPARSE_ORDER_ROW, &[1.0, 10.0, 100.0, 1000.0]);
        sddmm(OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE, (1.0, 0.0), &a, &b, ZERO, &mut c);
        // Block 0 column-major: (0,0) (1,0) (0,1) (1,1); block 1 the same over columns 2 and 3.
        assert_eq!(c.m.values, real(&[1.0, 2.0, 10.0, 20.0, 100.0, 200.0, 1000.0, 2000.0]));
    }

    #[test]
    fn batches_share_or_stride_each_operand() {
        // Two batches of C (same structure, values strided by 5), A shared, B strided.
        let mut c = c_csr(0);
        c.batch = SpBatch { count: 2, offsets_stride: 0, indices_stride: 0, values_stride: 5 };
        c.m.values = real(&[0.0; 10]);
        let a = dense(3, 2, OXSPARSE_ORDER_ROW, &A);
        let mut b = dense(2, 3, OXSPARSE_ORDER_ROW, &[B.as_slice(), B.map(|x| 2.0 * x).as_slice()].concat());
        b.count = 2;
        b.stride = 6;
        sddmm(OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE, (1.0, 0.0), &a, &b, ZERO, &mut c);
        assert_eq!(c.m.values, real(&[1.0, 8.0, 4.0, 5.0, 28.0, 2.0, 16.0, 8.0, 10.0, 56.0]));
        let scale = error_scale(OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE, (1.0, 0.0), &a, &b, ZERO, &c);
        assert_eq!(scale, vec![1.0, 8.0, 4.0, 5.0, 28.0, 2.0, 16.0, 8.0, 10.0, 56.0], "all terms positive: the scale is the product");
    }
}
