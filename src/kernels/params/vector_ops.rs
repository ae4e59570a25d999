//! Parameter blocks of `kernels/vector_ops.cu`: Axpby, Gather, Scatter, Rot and SpVV.
//!
//! A sparse vector X is passed as its `nnz` stored (index, value) pairs, indices shifted by `base`
//! (0 or 1); the dense vector Y as the address of its first element. Indices are assumed distinct
//! and in range, as cuSPARSE assumes.

use super::Scalar;

/// Axpby's first pass: `Y[j] = beta * Y[j]` for every `j < size`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VecScaleParams {
    pub beta: Scalar,
    pub size: i64,
    pub y_values: u64,
}

/// Axpby's second pass: `Y[X.indices[i] - base] += alpha * X.values[i]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VecAxpyParams {
    pub alpha: Scalar,
    pub nnz: i64,
    pub base: i64,
    pub x_indices: u64,
    pub x_values: u64,
    pub y_values: u64,
}

/// Gather (`X.values[i] = Y[X.indices[i] - base]`) and Scatter (the other direction).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VecMoveParams {
    pub nnz: i64,
    pub base: i64,
    pub x_indices: u64,
    pub x_values: u64,
    pub y_values: u64,
}

/// Rot: the Givens rotation (c, s) applied to each pair (X.values[i], Y[X.indices[i] - base]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VecRotParams {
    pub c: Scalar,
    pub s: Scalar,
    pub nnz: i64,
    pub base: i64,
    pub x_indices: u64,
    pub x_values: u64,
    pub y_values: u64,
}

/// SpVV's first pass: block `b` writes the sum of its share of `op(X.values[i]) * Y[...]` to
/// `partials[b]` (compute type). One block per partial; the grid size is the partial count.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SpvvPartialParams {
    pub nnz: i64,
    pub base: i64,
    pub x_indices: u64,
    pub x_values: u64,
    pub y_values: u64,
    pub partials: u64,
    /// 1: conjugate X (CONJUGATE_TRANSPOSE on complex data).
    pub conj_x: i32,
}

/// SpVV's second pass: one block sums `count` partials in a fixed order and writes the result to `out`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SpvvFinishParams {
    pub count: i64,
    pub partials: u64,
    pub out: u64,
}
