//! CPU twin of SpMV: y = alpha * op(A) * x + beta * y, in float64 (complex as (re, im) pairs).
//!
//! A is given as host arrays exactly as uploaded (indices with the base still added; any format
//! `sparse_to_dense::entries` reads: CSR, CSC, COO, BSR, Blocked-ELL, Sliced-ELL); x and y as
//! slices of (re, im) values. Mixed real/complex problems (real A, complex x and y) need nothing
//! special: a real value is (re, 0).
//!
//! Semantics: op(A) is m x k, x has k elements and y m. H conjugates A (for real A the same as T).
//! beta == 0 means y is only written, never read (it may hold NaN); alpha == 0 leaves beta * y.
//! Each y[i] sums the products of row i of op(A) in the order `entries` lists them.

use super::sparse_to_dense::{entries, HostSparse};
use super::vector_ops::{add, conj, mul, Value, ZERO};
use crate::types::Operation;

/// (m, k): the shape of op(A).
pub fn op_shape(op: Operation, a: &HostSparse) -> (i64, i64) {
    if op == Operation::OXSPARSE_OPERATION_NON_TRANSPOSE {
        (a.rows, a.cols)
    } else {
        (a.cols, a.rows)
    }
}

/// y = alpha * op(A) * x + beta * y. Panics on inconsistent lengths: the reference is only asked
/// about problems the routine accepts.
pub fn spmv(op: Operation, alpha: Value, a: &HostSparse, x: &[Value], beta: Value, y: &mut [Value]) {
    let (m, k) = op_shape(op, a);
    assert!(x.len() as i64 == k && y.len() as i64 == m, "op(A) is {m} x {k}, x has {}, y {}", x.len(), y.len());
    let mut sum = vec![ZERO; m as usize];
    for (r, c, v) in entries(a) {
        let (i, j, v) = match op {
            Operation::OXSPARSE_OPERATION_NON_TRANSPOSE => (r, c, v),
            Operation::OXSPARSE_OPERATION_TRANSPOSE => (c, r, v),
            Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE => (c, r, conj(v)),
        };
        sum[i as usize] = add(sum[i as usize], mul(v, x[j as usize]));
    }
    for (yi, s) in y.iter_mut().zip(sum) {
        let old = if beta == ZERO { ZERO } else { mul(beta, *yi) };
        *yi = add(mul(alpha, s), old);
    }
}

/// |re| + |im|: bounds the modulus and each component.
pub fn abs1(v: Value) -> f64 {
    v.0.abs() + v.1.abs()
}

/// Per element of y, the error bound scale `sum_j |alpha| |op(A)_ij| |x_j| + |beta| |y_i|` with
/// |v| = |re| + |im| (the same product on absolute values; y is not read when beta == 0). A GPU
/// result within a few unit roundoffs of the compute type times this scale is as right as the
/// arithmetic allows, whatever the summation order.
pub fn error_scale(op: Operation, alpha: Value, a: &HostSparse, x: &[Value], beta: Value, y: &[Value]) -> Vec<f64> {
    let abs = |v: &Value| (abs1(*v), 0.0);
    let mut a_abs = a.clone();
    a_abs.values = a.values.iter().map(abs).collect();
    let x_abs: Vec<Value> = x.iter().map(abs).collect();
    let mut y_abs: Vec<Value> = y.iter().map(|v| if beta == ZERO { ZERO } else { abs(v) }).collect();
    let op = if op == Operation::OXSPARSE_OPERATION_NON_TRANSPOSE { op } else { Operation::OXSPARSE_OPERATION_TRANSPOSE };
    spmv(op, abs(&alpha), &a_abs, &x_abs, abs(&beta), &mut y_abs);
    y_abs.iter().map(|v| v.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descr::FormatInfo;
    use crate::types::Operation::*;
    use crate::types::Order::*;

    fn real(v: &[f64]) -> Vec<Value> {
        v.iter().map(|&x| (x, 0.0)).collect()
    }

    fn sparse(format: FormatInfo, (rows, cols): (i64, i64), base: i64, offsets: &[i64], indices: &[i64], values: &[f64]) -> HostSparse {
        HostSparse { format, rows, cols, base, offsets: offsets.to_vec(), indices: indices.to_vec(), values: real(values) }
    }

    // CUDALibrarySamples spmv_csr / spmv_coo / spmv_sell: A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9],
    // x = (1, 2, 3, 4), y = A x = (19, 8, 51, 52).
    const SAMPLE_Y: [f64; 4] = [19.0, 8.0, 51.0, 52.0];

    /// The sample's A in every format, each giving the same matrix.
    fn sample_a_in_every_format() -> Vec<HostSparse> {
        let v: Vec<f64> = (1..=9).map(f64::from).collect();
        let sell = |slice_size, values_size| FormatInfo::SlicedEll { slice_size, values_size };
        let bsr = FormatInfo::Bsr { brows: 2, bcols: 2, bnnz: 4, row_block: 2, col_block: 2, block_order: OXSPARSE_ORDER_ROW };
        vec![
            sparse(FormatInfo::Csr, (4, 4), 0, &[0, 3, 4, 7, 9], &[0, 2, 3, 1, 0, 2, 3, 1, 3], &v),
            sparse(FormatInfo::Coo, (4, 4), 0, &[0, 0, 0, 1, 2, 2, 2, 3, 3], &[0, 2, 3, 1, 0, 2, 3, 1, 3], &v),
            // COO with unsorted rows and base 1.
            sparse(
                FormatInfo::Coo,
                (4, 4),
                1,
                &[4, 1, 3, 2, 1, 3, 4, 3, 1],
                &[4, 1, 4, 2, 3, 1, 2, 3, 4],
                &[9.0, 1.0, 7.0, 4.0, 2.0, 5.0, 8.0, 6.0, 3.0],
            ),
            sparse(
                FormatInfo::Csc,
                (4, 4),
                0,
                &[0, 2, 4, 6, 9],
                &[0, 2, 1, 3, 0, 2, 0, 2, 3],
                &[1.0, 5.0, 4.0, 8.0, 2.0, 6.0, 3.0, 7.0, 9.0],
            ),
            sparse(
                bsr,
                (4, 4),
                0,
                &[0, 2, 4],
                &[0, 1, 0, 1],
                &[1.0, 0.0, 0.0, 4.0, 2.0, 3.0, 0.0, 0.0, 5.0, 0.0, 0.0, 8.0, 6.0, 7.0, 0.0, 9.0],
            ),
            // The sample's own arrays.
            sparse(
                sell(2, 12),
                (4, 4),
                0,
                &[0, 6, 12],
                &[0, 1, 2, -1, 3, -1, 0, 1, 2, 3, 3, -1],
                &[1.0, 4.0, 2.0, 0.0, 3.0, 0.0, 5.0, 8.0, 6.0, 9.0, 7.0, 0.0],
            ),
            // Slices of 3 rows, base 1: the last slice (row 3 only) keeps 3 slots per column.
            sparse(
                sell(3, 15),
                (4, 4),
                1,
                &[1, 10, 16],
                &[1, 2, 1, 3, -1, 3, 4, -1, 4, 2, -1, -1, 4, -1, -1],
                &[1.0, 4.0, 5.0, 2.0, 0.0, 6.0, 3.0, 0.0, 7.0, 8.0, 0.0, 0.0, 9.0, 0.0, 0.0],
            ),
        ]
    }

    #[test]
    fn cuda_library_samples_spmv_in_every_format() {
        let x = real(&[1.0, 2.0, 3.0, 4.0]);
        for a in sample_a_in_every_format() {
            let mut y = vec![(f64::NAN, f64::NAN); 4];
            spmv(OXSPARSE_OPERATION_NON_TRANSPOSE, (1.0, 0.0), &a, &x, ZERO, &mut y);
            assert_eq!(y, real(&SAMPLE_Y), "{:?} base {}", a.format, a.base);
        }
    }

    #[test]
    fn transpose_reads_columns_and_h_conjugates() {
        // A = [1+2i 0 3; 0 -1 0] (2 x 3): A^T x for x = (1, i) is (1+2i, -i, 3).
        let mut a = sparse(FormatInfo::Csr, (2, 3), 0, &[0, 2, 3], &[2, 0, 1], &[3.0, 1.0, -1.0]);
        a.values[1] = (1.0, 2.0);
        let x = [(1.0, 0.0), (0.0, 1.0)];
        let mut y = vec![ZERO; 3];
        spmv(OXSPARSE_OPERATION_TRANSPOSE, (1.0, 0.0), &a, &x, ZERO, &mut y);
        assert_eq!(y, [(1.0, 2.0), (0.0, -1.0), (3.0, 0.0)]);
        spmv(OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE, (1.0, 0.0), &a, &x, ZERO, &mut y);
        assert_eq!(y, [(1.0, -2.0), (0.0, -1.0), (3.0, 0.0)]);
    }

    #[test]
    fn scalars_beta_zero_never_reads_y_and_alpha_zero_scales_y() {
        // A = [1 -2], x = (3, 4): A x = -5.
        let a = sparse(FormatInfo::Csr, (1, 2), 0, &[0, 2], &[1, 0], &[-2.0, 1.0]);
        let x = real(&[3.0, 4.0]);
        let mut y = real(&[10.0]);
        assert_eq!(error_scale(OXSPARSE_OPERATION_NON_TRANSPOSE, (-1.0, 0.0), &a, &x, (0.5, 0.0), &y), [16.0]);
        spmv(OXSPARSE_OPERATION_NON_TRANSPOSE, (-1.0, 0.0), &a, &x, (0.5, 0.0), &mut y);
        assert_eq!(y, real(&[10.0]));
        let mut y = vec![(f64::NAN, f64::NAN)];
        assert_eq!(error_scale(OXSPARSE_OPERATION_NON_TRANSPOSE, (2.0, 0.0), &a, &x, ZERO, &y), [22.0]);
        spmv(OXSPARSE_OPERATION_NON_TRANSPOSE, (2.0, 0.0), &a, &x, ZERO, &mut y);
        assert_eq!(y, real(&[-10.0]));
        let mut y = real(&[10.0]);
        spmv(OXSPARSE_OPERATION_NON_TRANSPOSE, ZERO, &a, &x, (0.0, 1.0), &mut y);
        assert_eq!(y, [(0.0, 10.0)]);
    }

    #[test]
    fn empty_shapes() {
        // k == 0: y = beta y; m == 0: nothing.
        let a = sparse(FormatInfo::Csr, (2, 0), 0, &[0, 0, 0], &[], &[]);
        let mut y = real(&[1.0, -2.0]);
        spmv(OXSPARSE_OPERATION_NON_TRANSPOSE, (1.0, 0.0), &a, &[], (3.0, 0.0), &mut y);
        assert_eq!(y, real(&[3.0, -6.0]));
        let mut none: Vec<Value> = vec![];
        spmv(OXSPARSE_OPERATION_TRANSPOSE, (1.0, 0.0), &a, &real(&[1.0, 1.0]), ZERO, &mut none);
        let sell = sparse(FormatInfo::SlicedEll { slice_size: 4, values_size: 0 }, (0, 3), 0, &[0], &[], &[]);
        spmv(OXSPARSE_OPERATION_NON_TRANSPOSE, (1.0, 0.0), &sell, &real(&[1.0, 2.0, 3.0]), ZERO, &mut none);
    }
}
