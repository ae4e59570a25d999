//! Host tests of SDDMM's checks and plans: refusals in the API's order, and how A and B are read.

use super::*;
use crate::descr::SpArrays;
use crate::device::models::hbm3e_132;
use crate::error::Error;
use crate::types::DataType::*;
use crate::types::IndexBase::*;
use crate::types::IndexType::*;
use crate::types::Operation::*;
use crate::types::Order::{self, *};

const ONE: f32 = 1.0;

fn arrays() -> SpArrays {
    SpArrays { offsets: 0x1000, indices: 0x2000, values: 0x3000 }
}
fn csr(rows: i64, cols: i64, nnz: i64, t: DataType) -> SpMat {
    SpMat::compressed(false, rows, cols, nnz, arrays(), OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, t).unwrap()
}
fn dense(rows: i64, cols: i64, t: DataType, order: Order) -> DnMat {
    let ld = if order == OXSPARSE_ORDER_ROW { cols } else { rows };
    DnMat::new(rows, cols, ld.max(1), 0x8000, t, order).unwrap()
}

/// Plans C = A B (op N, N) for these operands, with FP32-style scalars.
fn plan_of(op: (Operation, Operation), a: &DnMat, b: &DnMat, c: &SpMat, compute: DataType) -> Result<Plan> {
    let device = hbm3e_132();
    let settings = Settings::default();
    let call = Call {
        op_a: op.0,
        op_b: op.1,
        a,
        b,
        c,
        compute,
        alg: SDDMMAlg::OXSPARSE_SDDMM_ALG_DEFAULT,
        alpha: &ONE as *const f32 as *const c_void,
        beta: &ONE as *const f32 as *const c_void,
        math: MathMode::OXSPARSE_DEFAULT_MATH,
        device: &device,
        settings: &settings,
    };
    let (dims, types) = checked(&call)?;
    let mut p = plan::plan(&call, dims, types);
    plan::deal(&mut p, 132 * 24);
    Ok(p)
}

const NN: (Operation, Operation) = (OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE);

fn invalid(r: Result<Plan>) -> bool {
    matches!(r, Err(Error::InvalidValue(_)))
}
fn unsupported(r: Result<Plan>) -> bool {
    matches!(r, Err(Error::NotSupported(_)))
}

#[test]
fn contiguous_lines_are_read_in_place_others_copied() {
    let c = csr(6, 5, 9, CUDA_R_32F);
    // (opA, A's order, opB, B's order) -> (A copied, B copied).
    let table = [
        (OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_ORDER_ROW, OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_ORDER_COL, (false, false)),
        (OXSPARSE_OPERATION_TRANSPOSE, OXSPARSE_ORDER_COL, OXSPARSE_OPERATION_TRANSPOSE, OXSPARSE_ORDER_ROW, (false, false)),
        (OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_ORDER_COL, OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_ORDER_ROW, (true, true)),
        (OXSPARSE_OPERATION_TRANSPOSE, OXSPARSE_ORDER_ROW, OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_ORDER_COL, (true, false)),
    ];
    for (op_a, order_a, op_b, order_b, copied) in table {
        let a = if op_a == OXSPARSE_OPERATION_NON_TRANSPOSE { dense(6, 7, CUDA_R_32F, order_a) } else { dense(7, 6, CUDA_R_32F, order_a) };
        let b = if op_b == OXSPARSE_OPERATION_NON_TRANSPOSE { dense(7, 5, CUDA_R_32F, order_b) } else { dense(5, 7, CUDA_R_32F, order_b) };
        let p = plan_of((op_a, op_b), &a, &b, &c, CUDA_R_32F).unwrap();
        assert_eq!((p.a.copy.is_some(), p.b.copy.is_some()), copied, "{op_a:?} {order_a:?} {op_b:?} {order_b:?}");
        assert_eq!((p.dims.m, p.dims.k, p.dims.n), (6, 7, 5));
        // Copies hold k = 7 floats padded to 8 (32 bytes), in their own 256-byte rooms.
        let want_ws = [copied.0, copied.1].iter().filter(|&&x| x).count() * 256;
        assert_eq!(p.workspace, want_ws);
        if let Some(copy) = p.a.copy {
            assert_eq!(copy.ld, 8);
        }
    }
}

#[test]
fn nothing_is_copied_when_nothing_is_computed() {
    let (a, b) = (dense(6, 0, CUDA_R_64F, OXSPARSE_ORDER_COL), dense(0, 5, CUDA_R_64F, OXSPARSE_ORDER_ROW));
    let p = plan_of(NN, &a, &b, &csr(6, 5, 9, CUDA_R_64F), CUDA_R_64F).unwrap();
    assert_eq!((p.workspace, p.dims.k, p.is_empty()), (0, 0, false), "k = 0 still scales C by beta");
    let (a, b) = (dense(6, 3, CUDA_R_64F, OXSPARSE_ORDER_COL), dense(3, 5, CUDA_R_64F, OXSPARSE_ORDER_ROW));
    let empty = SpMat::compressed(
        false,
        6,
        5,
        0,
        SpArrays { offsets: 0x1000, ..Default::default() },
        OXSPARSE_INDEX_64I,
        OXSPARSE_INDEX_64I,
        OXSPARSE_INDEX_BASE_ONE,
        CUDA_R_64F,
    )
    .unwrap();
    let p = plan_of(NN, &a, &b, &empty, CUDA_R_64F).unwrap();
    assert!(p.is_empty());
    assert_eq!(p.workspace, 0);
}

#[test]
fn sizes_are_checked_before_types() {
    let a = dense(6, 7, CUDA_R_32F, OXSPARSE_ORDER_ROW);
    assert!(invalid(plan_of(NN, &a, &dense(8, 5, CUDA_R_32F, OXSPARSE_ORDER_COL), &csr(6, 5, 9, CUDA_R_32F), CUDA_R_32F)));
    assert!(invalid(plan_of(NN, &a, &dense(7, 5, CUDA_R_32F, OXSPARSE_ORDER_COL), &csr(6, 6, 9, CUDA_R_32F), CUDA_R_32F)));
    // A size mismatch is reported before a type mismatch.
    assert!(invalid(plan_of(NN, &a, &dense(8, 5, CUDA_R_64F, OXSPARSE_ORDER_COL), &csr(6, 5, 9, CUDA_R_32F), CUDA_R_32F)));
}

#[test]
fn type_combinations_follow_the_table() {
    let shapes = |t: DataType| (dense(6, 7, t, OXSPARSE_ORDER_ROW), dense(7, 5, t, OXSPARSE_ORDER_COL));
    for (ab, c, compute) in check::TYPE_COMBINATIONS {
        let (a, b) = shapes(ab);
        assert!(plan_of(NN, &a, &b, &csr(6, 5, 9, c), compute).is_ok(), "{ab:?} {c:?} {compute:?}");
    }
    let refused = [
        (CUDA_R_32F, CUDA_R_64F, CUDA_R_32F),
        (CUDA_R_16F, CUDA_R_16F, CUDA_R_16F),
        (CUDA_R_8I, CUDA_R_32I, CUDA_R_32I),
        (CUDA_R_32F, CUDA_R_32F, CUDA_R_64F),
        (CUDA_C_16F, CUDA_C_16F, CUDA_C_32F),
    ];
    for (ab, c, compute) in refused {
        let (a, b) = shapes(ab);
        assert!(unsupported(plan_of(NN, &a, &b, &csr(6, 5, 9, c), compute)), "{ab:?} {c:?} {compute:?}");
    }
    let (a, _) = shapes(CUDA_R_32F);
    assert!(unsupported(plan_of(NN, &a, &dense(7, 5, CUDA_R_64F, OXSPARSE_ORDER_COL), &csr(6, 5, 9, CUDA_R_32F), CUDA_R_32F)));
}

#[test]
fn formats_operations_and_indices_cusparse_refuses() {
    let (a, b) = (dense(6, 7, CUDA_C_32F, OXSPARSE_ORDER_ROW), dense(7, 5, CUDA_C_32F, OXSPARSE_ORDER_COL));
    let coo = SpMat::coo(6, 5, 9, arrays(), OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_C_32F).unwrap();
    assert!(unsupported(plan_of(NN, &a, &b, &coo, CUDA_C_32F)));
    let a_t = dense(7, 6, CUDA_C_32F, OXSPARSE_ORDER_COL);
    let c = csr(6, 5, 9, CUDA_C_32F);
    assert!(unsupported(plan_of((OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE), &a_t, &b, &c, CUDA_C_32F)));
    let b_t = dense(5, 7, CUDA_C_32F, OXSPARSE_ORDER_ROW);
    assert!(unsupported(plan_of((OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE), &a, &b_t, &c, CUDA_C_32F)));
    let mixed =
        SpMat::compressed(false, 6, 5, 9, arrays(), OXSPARSE_INDEX_64I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_C_32F).unwrap();
    assert!(unsupported(plan_of(NN, &a, &b, &mixed, CUDA_C_32F)));
    let bsr = SpMat::bsr(
        (3, 5, 4),
        (2, 1),
        arrays(),
        OXSPARSE_INDEX_64I,
        OXSPARSE_INDEX_64I,
        OXSPARSE_INDEX_BASE_ONE,
        CUDA_C_32F,
        OXSPARSE_ORDER_COL,
    )
    .unwrap();
    let p = plan_of(NN, &a, &b, &bsr, CUDA_C_32F).unwrap();
    assert_eq!(p.entries, plan::Entries::Bsr { row_block: 2, col_block: 1, col_major_blocks: true });
    assert_eq!((p.rows, p.stored), (3, 8));
}

#[test]
fn batches_follow_c_and_must_not_overlap() {
    let (a, mut b) = (dense(6, 7, CUDA_R_32F, OXSPARSE_ORDER_ROW), dense(7, 5, CUDA_R_32F, OXSPARSE_ORDER_COL));
    let mut c = csr(6, 5, 9, CUDA_R_32F);
    c.set_strided_batch(3, 0, 0, 9).unwrap();
    b.set_strided_batch(3, 35).unwrap();
    let p = plan_of(NN, &a, &b, &c, CUDA_R_32F).unwrap();
    assert_eq!((p.dims.batches, p.a.batch_stride, p.b.batch_stride), (3, 0, 35));
    // B batched but C not: C must have the most batches.
    assert!(invalid(plan_of(NN, &a, &b, &csr(6, 5, 9, CUDA_R_32F), CUDA_R_32F)));
    // C's batches writing over each other.
    let mut overlapping = csr(6, 5, 9, CUDA_R_32F);
    overlapping.set_strided_batch(3, 0, 0, 8).unwrap();
    assert!(invalid(plan_of(NN, &a, &b, &overlapping, CUDA_R_32F)));
    let mut too_many = csr(6, 5, 9, CUDA_R_32F);
    too_many.set_strided_batch(65_536, 0, 0, 9).unwrap();
    assert!(invalid(plan_of(NN, &a, &dense(7, 5, CUDA_R_32F, OXSPARSE_ORDER_COL), &too_many, CUDA_R_32F)));
}

#[test]
fn null_arrays_are_refused_only_where_read() {
    let (a, b) = (dense(6, 7, CUDA_R_32F, OXSPARSE_ORDER_ROW), dense(7, 5, CUDA_R_32F, OXSPARSE_ORDER_COL));
    let mut c = csr(6, 5, 9, CUDA_R_32F);
    c.arrays.values = 0;
    assert!(invalid(plan_of(NN, &a, &b, &c, CUDA_R_32F)));
    let mut a_null = a.clone();
    a_null.values = 0;
    assert!(invalid(plan_of(NN, &a_null, &b, &csr(6, 5, 9, CUDA_R_32F), CUDA_R_32F)));
    // k = 0: A and B are never read.
    let (a0, b0) =
        (DnMat::new(6, 0, 1, 0, CUDA_R_32F, OXSPARSE_ORDER_ROW).unwrap(), DnMat::new(0, 5, 1, 0, CUDA_R_32F, OXSPARSE_ORDER_COL).unwrap());
    assert!(plan_of(NN, &a0, &b0, &csr(6, 5, 9, CUDA_R_32F), CUDA_R_32F).is_ok());
}

#[test]
fn line_offsets_in_32_bits_only_where_every_line_starts_below_2_to_31_vectors() {
    // A row-major m x 32 FP32 (8 vectors a line), B column-major 32 x 4: A's last line starts at
    // (m - 1) * 8 vectors.
    let b = dense(32, 4, CUDA_R_32F, OXSPARSE_ORDER_COL);
    for (m, within) in [(1i64, true), (1 << 28, true), ((1 << 28) + 1, false), (1 << 29, false)] {
        let a = dense(m, 32, CUDA_R_32F, OXSPARSE_ORDER_ROW);
        let p = plan_of(NN, &a, &b, &csr(m, 4, 4, CUDA_R_32F), CUDA_R_32F).unwrap();
        assert_eq!(plan::lines_within_u32_vectors(&p), within, "m = {m}");
    }
}
