//! Parameter sweeps over a product's cases: the vocabulary the SpMM and SpMV cases share
//! (operations, dense orders, pointer modes, index types and bases, scalars and how a compute type
//! holds them), cycling parameters through a group, and running every case of a group.

use super::capi::CHandle;
use super::gpu;
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::{DataType, DataType::*, IndexBase, IndexType, Operation, Order, PointerMode};

pub const N: Operation = Operation::OXSPARSE_OPERATION_NON_TRANSPOSE;
pub const T: Operation = Operation::OXSPARSE_OPERATION_TRANSPOSE;
pub const H: Operation = Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
pub const COL: Order = Order::OXSPARSE_ORDER_COL;
pub const ROW: Order = Order::OXSPARSE_ORDER_ROW;
pub const HOST: PointerMode = PointerMode::OXSPARSE_POINTER_MODE_HOST;
pub const DEVICE: PointerMode = PointerMode::OXSPARSE_POINTER_MODE_DEVICE;
pub const I32: IndexType = IndexType::OXSPARSE_INDEX_32I;
pub const I64: IndexType = IndexType::OXSPARSE_INDEX_64I;
pub const BASE0: IndexBase = IndexBase::OXSPARSE_INDEX_BASE_ZERO;
pub const BASE1: IndexBase = IndexBase::OXSPARSE_INDEX_BASE_ONE;

/// (alpha, beta) pairs: general, beta == 0 (the output poisoned, never to be read), beta == 1.
pub const SCALARS: [(Value, Value); 3] = [((1.5, -0.5), (-0.75, 0.25)), ((-0.75, 0.25), ZERO), ((0.5, 1.0), (1.0, 0.0))];

/// A scalar as the compute type holds it: real part only for real types; for integer compute,
/// four times the real part rounded (1.5 -> 6, -0.75 -> -3).
pub fn fit(compute: DataType, v: Value) -> Value {
    match compute {
        CUDA_R_32I => ((v.0 * 4.0).round(), 0.0),
        t if t.is_complex() => v,
        _ => (v.0, 0.0),
    }
}

/// The stored shape of a dense operand X whose op(X) is `rows x cols`.
pub fn stored_shape(op: Operation, (rows, cols): (i64, i64)) -> (i64, i64) {
    if op == N {
        (rows, cols)
    } else {
        (cols, rows)
    }
}

/// `list[i % len]`: parameters cycled through the cases.
pub fn pick<X: Copy>(list: &[X], i: usize) -> X {
    list[i % list.len()]
}

/// Runs `check` on every case with one handle (a SKIP line without a GPU) and fails listing the
/// first failures, each after its case's `label`.
pub fn sweep<C>(test: &str, cases: &[C], label: impl Fn(&C) -> String, check: impl Fn(&CHandle, &C) -> Result<(), String>) {
    sweep_tuned(test, cases, label, &[], check)
}

/// `sweep` on a handle given the tuning settings `tuning` (name, value) first.
pub fn sweep_tuned<C>(
    test: &str,
    cases: &[C],
    label: impl Fn(&C) -> String,
    tuning: &[(&str, &str)],
    check: impl Fn(&CHandle, &C) -> Result<(), String>,
) {
    let Some(_gpu) = gpu(test) else { return };
    let h = CHandle::new();
    for (name, value) in tuning {
        h.set_tuning(name, Some(value));
    }
    let failures: Vec<String> = cases.iter().filter_map(|c| check(&h, c).err().map(|e| format!("{}: {e}", label(c)))).collect();
    assert!(
        failures.is_empty(),
        "{test}: {} of {} cases failed; first ones:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    println!("{test}: {} cases passed", cases.len());
}
