//! CPU twin of SpMM: C = alpha * op(A) * op(B) + beta * C, in float64 (complex as (re, im) pairs).
//!
//! A is given as host arrays exactly as uploaded (indices with the base still added, every batch's
//! arrays back to back at the descriptor's strides); B and C as whole host buffers of (re, im)
//! values, `ld`-strided, batches `stride` elements apart. The routine reads nothing outside the
//! logical matrices, so a caller can check that the padding of C keeps what it held.
//!
//! Semantics: op(A) is m x k, op(B) is k x n, C is m x n. H conjugates (for real data, im == 0, it
//! is the same as T). beta == 0 means C is only written, never read. Batches: C has the largest
//! count; A and B have count 1 (shared by every batch of C) or C's count.

use super::sparse_to_dense::{dense_offset, entries, HostSparse};
use super::vector_ops::{add, conj, mul, Value, ZERO};
use crate::descr::{FormatInfo, SpBatch};
use crate::types::{Operation, Order};

/// A sparse A as its descriptor describes it: `m` holds the arrays of every batch, batch `i`'s
/// arrays starting `i * stride` entries in (see `batch`); `nnz` entries per batch for CSR, CSC and
/// COO (BSR and Blocked-ELL sizes come from the format).
#[derive(Clone, Debug)]
pub struct BatchedSparse {
    pub m: HostSparse,
    pub nnz: i64,
    pub batch: SpBatch,
}

/// A dense matrix buffer: `count` matrices of `rows x cols`, `stride` elements apart.
#[derive(Clone, Debug)]
pub struct BatchedDense {
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
    pub order: Order,
    pub count: i64,
    pub stride: i64,
    pub values: Vec<Value>,
}

impl BatchedDense {
    /// Position in `values` of entry (r, c) of batch `b` (batch 0 for a matrix shared by all).
    pub fn index(&self, b: i64, r: i64, c: i64) -> usize {
        let b = if self.count == 1 { 0 } else { b };
        (b * self.stride) as usize + dense_offset(self.order, self.ld, r, c)
    }
}

impl BatchedSparse {
    /// Batch `b` on its own (batch 0 when A is shared by every batch).
    pub fn matrix(&self, b: i64) -> HostSparse {
        let b = if self.batch.count == 1 { 0 } else { b };
        let m = &self.m;
        let (n_offsets, n_indices, n_values) = match m.format {
            FormatInfo::Csr => (m.rows + 1, self.nnz, self.nnz),
            FormatInfo::Csc => (m.cols + 1, self.nnz, self.nnz),
            FormatInfo::Coo => (self.nnz, self.nnz, self.nnz),
            FormatInfo::Bsr { brows, bnnz, row_block, col_block, .. } => (brows + 1, bnnz, bnnz * row_block * col_block),
            FormatInfo::BlockedEll { block_size, ell_cols } => {
                let slots = if block_size == 0 { 0 } else { (m.rows / block_size) * (ell_cols / block_size) };
                (0, slots, m.rows * ell_cols)
            }
            FormatInfo::SlicedEll { .. } => panic!("SpMM has no Sliced-ELL reference: the routine refuses the format"),
        };
        let s = self.batch;
        let part = |v: &[i64], stride: i64, len: i64| v[(b * stride) as usize..(b * stride + len) as usize].to_vec();
        HostSparse {
            format: m.format,
            rows: m.rows,
            cols: m.cols,
            base: m.base,
            offsets: part(&m.offsets, s.offsets_stride, n_offsets),
            indices: part(&m.indices, s.indices_stride, n_indices),
            values: m.values[(b * s.values_stride) as usize..(b * s.values_stride + n_values) as usize].to_vec(),
        }
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

/// Entry (i, j) of op(B) for batch `batch`.
fn op_b_at(op: Operation, b: &BatchedDense, batch: i64, i: i64, j: i64) -> Value {
    match op {
        Operation::OXSPARSE_OPERATION_NON_TRANSPOSE => b.values[b.index(batch, i, j)],
        Operation::OXSPARSE_OPERATION_TRANSPOSE => b.values[b.index(batch, j, i)],
        Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE => conj(b.values[b.index(batch, j, i)]),
    }
}

/// C = alpha * op(A) * op(B) + beta * C for every batch of C. Panics on inconsistent shapes or
/// batch counts: the reference is only asked about problems the routine accepts.
pub fn spmm(op_a: Operation, op_b: Operation, alpha: Value, a: &BatchedSparse, b: &BatchedDense, beta: Value, c: &mut BatchedDense) {
    let (m, k) = op_shape(op_a, a.m.rows, a.m.cols);
    let (kb, n) = op_shape(op_b, b.rows, b.cols);
    assert!(k == kb && c.rows == m && c.cols == n, "shapes: op(A) {m} x {k}, op(B) {kb} x {n}, C {} x {}", c.rows, c.cols);
    let a_count = a.batch.count as i64;
    assert!((a_count == 1 || a_count == c.count) && (b.count == 1 || b.count == c.count), "batch counts");
    for batch in 0..c.count {
        // sum[i][j] = sum over the stored entries of op(A) in row i of op(A)[i][kk] * op(B)[kk][j].
        let mut sum = vec![ZERO; (m * n) as usize];
        for (r, col, v) in entries(&a.matrix(batch)) {
            let (i, kk, v) = match op_a {
                Operation::OXSPARSE_OPERATION_NON_TRANSPOSE => (r, col, v),
                Operation::OXSPARSE_OPERATION_TRANSPOSE => (col, r, v),
                Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE => (col, r, conj(v)),
            };
            for j in 0..n {
                let s = &mut sum[(i * n + j) as usize];
                *s = add(*s, mul(v, op_b_at(op_b, b, batch, kk, j)));
            }
        }
        for i in 0..m {
            for j in 0..n {
                let at = c.index(batch, i, j);
                let old = if beta == ZERO { ZERO } else { mul(beta, c.values[at]) };
                c.values[at] = add(mul(alpha, sum[(i * n + j) as usize]), old);
            }
        }
    }
}

/// |re| + |im|: bounds the modulus and each component.
pub fn abs1(v: Value) -> f64 {
    v.0.abs() + v.1.abs()
}

/// Per entry of C (same layout as `c.values`), the error bound scale
/// `sum_k |alpha| |op(A)_ik| |op(B)_kj| + |beta| |C_ij|` with |x| = |re| + |im|: the same product
/// on absolute values. Entries outside the logical matrices hold |C| as given.
pub fn error_scale(
    op_a: Operation,
    op_b: Operation,
    alpha: Value,
    a: &BatchedSparse,
    b: &BatchedDense,
    beta: Value,
    c: &BatchedDense,
) -> Vec<f64> {
    let abs = |v: &Value| (abs1(*v), 0.0);
    let plain =
        |op: Operation| if op == Operation::OXSPARSE_OPERATION_NON_TRANSPOSE { op } else { Operation::OXSPARSE_OPERATION_TRANSPOSE };
    let mut a_abs = a.clone();
    a_abs.m.values = a.m.values.iter().map(abs).collect();
    let mut b_abs = b.clone();
    b_abs.values = b.values.iter().map(abs).collect();
    let mut c_abs = c.clone();
    // beta == 0: C is not read, and may hold NaN.
    c_abs.values = c.values.iter().map(|v| if beta == ZERO { ZERO } else { abs(v) }).collect();
    spmm(plain(op_a), plain(op_b), abs(&alpha), &a_abs, &b_abs, abs(&beta), &mut c_abs);
    c_abs.values.iter().map(|v| v.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Operation::*;
    use crate::types::Order::*;

    const ONE_BATCH: SpBatch = SpBatch { count: 1, offsets_stride: 0, indices_stride: 0, values_stride: 0 };

    fn real(v: &[f64]) -> Vec<Value> {
        v.iter().map(|&x| (x, 0.0)).collect()
    }

    fn sparse(format: FormatInfo, (rows, cols): (i64, i64), base: i64, offsets: &[i64], indices: &[i64], values: &[f64]) -> BatchedSparse {
        let m = HostSparse { format, rows, cols, base, offsets: offsets.to_vec(), indices: indices.to_vec(), values: real(values) };
        BatchedSparse { m, nnz: values.len() as i64, batch: ONE_BATCH }
    }

    fn dense(rows: i64, cols: i64, ld: i64, order: Order, values: Vec<Value>) -> BatchedDense {
        BatchedDense { rows, cols, ld, order, count: 1, stride: 0, values }
    }

    // CUDALibrarySamples spmm_csr: A 4 x 4 with 9 nonzeros, B 4 x 3 column-major 1..12.
    //   A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]
    const SAMPLE_C: [f64; 12] = [19.0, 8.0, 51.0, 52.0, 43.0, 24.0, 123.0, 120.0, 67.0, 40.0, 195.0, 188.0];

    fn sample_b() -> BatchedDense {
        dense(4, 3, 4, OXSPARSE_ORDER_COL, real(&(1..=12).map(f64::from).collect::<Vec<_>>()))
    }

    /// The sample's A in every format the reference reads (all give the same matrix).
    fn sample_a_in_every_format() -> Vec<BatchedSparse> {
        let v: Vec<f64> = (1..=9).map(f64::from).collect();
        let bsr = |block_order| FormatInfo::Bsr { brows: 2, bcols: 2, bnnz: 4, row_block: 2, col_block: 2, block_order };
        vec![
            sparse(FormatInfo::Csr, (4, 4), 0, &[0, 3, 4, 7, 9], &[0, 2, 3, 1, 0, 2, 3, 1, 3], &v),
            // Base 1, columns unsorted within rows 0 and 2.
            sparse(
                FormatInfo::Csr,
                (4, 4),
                1,
                &[1, 4, 5, 8, 10],
                &[4, 1, 3, 2, 3, 4, 1, 2, 4],
                &[3.0, 1.0, 2.0, 4.0, 6.0, 7.0, 5.0, 8.0, 9.0],
            ),
            sparse(FormatInfo::Coo, (4, 4), 0, &[0, 0, 0, 1, 2, 2, 2, 3, 3], &[0, 2, 3, 1, 0, 2, 3, 1, 3], &v),
            sparse(
                FormatInfo::Csc,
                (4, 4),
                0,
                &[0, 2, 4, 6, 9],
                &[0, 2, 1, 3, 0, 2, 0, 2, 3],
                &[1.0, 5.0, 4.0, 8.0, 2.0, 6.0, 3.0, 7.0, 9.0],
            ),
            // Blocks (0,0) (0,1) (1,0) (1,1), row-major then column-major within a block.
            sparse(
                bsr(OXSPARSE_ORDER_ROW),
                (4, 4),
                0,
                &[0, 2, 4],
                &[0, 1, 0, 1],
                &[1.0, 0.0, 0.0, 4.0, 2.0, 3.0, 0.0, 0.0, 5.0, 0.0, 0.0, 8.0, 6.0, 7.0, 0.0, 9.0],
            ),
            sparse(
                bsr(OXSPARSE_ORDER_COL),
                (4, 4),
                1,
                &[1, 3, 5],
                &[2, 1, 1, 2],
                &[2.0, 0.0, 3.0, 0.0, 1.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0, 8.0, 6.0, 0.0, 7.0, 9.0],
            ),
            // Block size 2, three slots per block row: the middle one empty (-1) with garbage values.
            sparse(
                FormatInfo::BlockedEll { block_size: 2, ell_cols: 6 },
                (4, 4),
                0,
                &[],
                &[1, -1, 0, 0, -1, 1],
                &[
                    2.0, 3.0, 99.0, 99.0, 1.0, 0.0, //
                    0.0, 0.0, 99.0, 99.0, 0.0, 4.0, 5.0, 0.0, 99.0, 99.0, 6.0, 7.0, 0.0, 8.0, 99.0, 99.0, 0.0, 9.0,
                ],
            ),
        ]
    }

    #[test]
    fn cuda_library_samples_spmm_csr_in_every_format() {
        for a in sample_a_in_every_format() {
            let mut c = dense(4, 3, 4, OXSPARSE_ORDER_COL, vec![(f64::NAN, f64::NAN); 12]);
            spmm(OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE, (1.0, 0.0), &a, &sample_b(), ZERO, &mut c);
            assert_eq!(c.values, real(&SAMPLE_C), "{:?}", a.m.format);
        }
    }

    #[test]
    fn transposed_storage_with_op_t_and_row_major_outputs() {
        // A^T stored as COO (rows and columns swapped) with opA = T is A again; B given as its
        // transpose, row-major 3 x 4, with opB = T; C row-major with ld 5 keeps its padding.
        let at = sparse(
            FormatInfo::Coo,
            (4, 4),
            0,
            &[0, 2, 3, 1, 0, 2, 3, 1, 3],
            &[0, 0, 0, 1, 2, 2, 2, 3, 3],
            &(1..=9).map(f64::from).collect::<Vec<_>>(),
        );
        let bt = dense(3, 4, 4, OXSPARSE_ORDER_ROW, sample_b().values);
        let mut c = dense(4, 3, 5, OXSPARSE_ORDER_ROW, vec![(-7.0, 0.0); 20]);
        spmm(OXSPARSE_OPERATION_TRANSPOSE, OXSPARSE_OPERATION_TRANSPOSE, (2.0, 0.0), &at, &bt, ZERO, &mut c);
        for r in 0..4 {
            for j in 0..3 {
                assert_eq!(c.values[(r * 5 + j) as usize].0, 2.0 * SAMPLE_C[(j * 4 + r) as usize]);
            }
            assert_eq!(c.values[(r * 5 + 3) as usize], (-7.0, 0.0), "padding");
            assert_eq!(c.values[(r * 5 + 4) as usize], (-7.0, 0.0), "padding");
        }
    }

    #[test]
    fn conjugate_transpose_conjugates_complex_values_only() {
        let mut a = sparse(FormatInfo::Csr, (1, 1), 0, &[0, 1], &[0], &[0.0]);
        a.m.values = vec![(1.0, 2.0)];
        let b = dense(1, 1, 1, OXSPARSE_ORDER_COL, vec![(3.0, -1.0)]);
        let run = |op_a, op_b| {
            let mut c = dense(1, 1, 1, OXSPARSE_ORDER_COL, vec![(10.0, 0.0)]);
            spmm(op_a, op_b, (0.0, 1.0), &a, &b, (0.5, 0.0), &mut c);
            c.values[0]
        };
        // i * (1+2i)(3-i) + 5 = i * (5+5i) + 5 = (0, 5); i * (1-2i)(3+i) + 5 = i * (5-5i) + 5 = (10, 5).
        assert_eq!(run(OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_TRANSPOSE), (0.0, 5.0));
        assert_eq!(run(OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE, OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE), (10.0, 5.0));
        // Only A conjugated: i * (1-2i)(3-i) + 5 = i * (1-7i) + 5 = (12, 1).
        assert_eq!(run(OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE), (12.0, 1.0));
    }

    #[test]
    fn beta_scales_c_and_zero_beta_never_reads_it() {
        // A = [1 -2] (1 x 2), B = [3; 4]: A B = -5.
        let a = sparse(FormatInfo::Csr, (1, 2), 0, &[0, 2], &[1, 0], &[-2.0, 1.0]);
        let b = dense(2, 1, 2, OXSPARSE_ORDER_COL, real(&[3.0, 4.0]));
        let mut c = dense(1, 1, 1, OXSPARSE_ORDER_COL, real(&[10.0]));
        let (op, alpha, beta) = (OXSPARSE_OPERATION_NON_TRANSPOSE, (-1.0, 0.0), (0.5, 0.0));
        assert_eq!(error_scale(op, op, alpha, &a, &b, beta, &c), [16.0]);
        spmm(op, op, alpha, &a, &b, beta, &mut c);
        assert_eq!(c.values, real(&[10.0]));
        let mut c = dense(1, 1, 1, OXSPARSE_ORDER_COL, vec![(f64::NAN, f64::NAN)]);
        assert_eq!(error_scale(op, op, alpha, &a, &b, ZERO, &c), [11.0]);
        spmm(op, op, alpha, &a, &b, ZERO, &mut c);
        assert_eq!(c.values, real(&[5.0]));
        // k == 0: C = beta * C.
        let empty = sparse(FormatInfo::Coo, (1, 0), 0, &[], &[], &[]);
        let mut c = dense(1, 1, 1, OXSPARSE_ORDER_COL, real(&[10.0]));
        spmm(op, op, alpha, &empty, &dense(0, 1, 1, OXSPARSE_ORDER_COL, vec![]), beta, &mut c);
        assert_eq!(c.values, real(&[5.0]));
    }

    #[test]
    fn strided_batches_read_each_batch_at_its_stride() {
        // Two 2 x 2 CSR batches sharing row offsets (stride 0), columns and values 3 apart (one
        // garbage slot each); B shared; C two batches 5 apart (one padding slot), column-major.
        let m = HostSparse {
            format: FormatInfo::Csr,
            rows: 2,
            cols: 2,
            base: 0,
            offsets: vec![0, 1, 2],
            indices: vec![1, 0, 77, 0, 1, 77],
            values: real(&[2.0, 3.0, 99.0, 5.0, 7.0, 99.0]),
        };
        let a = BatchedSparse { m, nnz: 2, batch: SpBatch { count: 2, offsets_stride: 0, indices_stride: 3, values_stride: 3 } };
        let b = dense(2, 1, 2, OXSPARSE_ORDER_COL, real(&[10.0, 100.0]));
        let mut c = BatchedDense { count: 2, stride: 3, ..dense(2, 1, 2, OXSPARSE_ORDER_COL, vec![(-7.0, 0.0); 5]) };
        let op = OXSPARSE_OPERATION_NON_TRANSPOSE;
        spmm(op, op, (1.0, 0.0), &a, &b, ZERO, &mut c);
        // Batch 0: [0 2; 3 0] B = (200, 30); batch 1: [5 0; 0 7] B = (50, 700).
        assert_eq!(c.values, real(&[200.0, 30.0, -7.0, 50.0, 700.0]));
        // A shared, B batched.
        let shared = BatchedSparse { batch: ONE_BATCH, ..a.clone() };
        let b2 = BatchedDense { count: 2, stride: 2, ..dense(2, 1, 2, OXSPARSE_ORDER_COL, real(&[10.0, 100.0, 1.0, 2.0])) };
        spmm(op, op, (1.0, 0.0), &shared, &b2, ZERO, &mut c);
        assert_eq!(c.values, real(&[200.0, 30.0, -7.0, 4.0, 3.0]));
    }
}
