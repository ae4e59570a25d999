//! The operations measured, each in its own file. To add one: write a `Case` (see
//! `sparse_to_dense.rs`, the template, `spmm/` for one with several algorithms and `sddmm/` for
//! one that reuses SpMM's operands and checks), add its C functions to `cusparse.rs` and `api.rs`,
//! and list it here. `prepare.rs` holds what the preprocessed operations share.

mod coo_csr;
mod csr2csc;
mod dense_to_sparse;
mod prepare;
mod sddmm;
mod sddmm_int;
mod sort;
mod sparse_to_dense;
mod spmm;
mod spmm_blocked;
mod spmm_int;
mod spmv;
mod vector;

pub use sddmm::{SddmmLayout, SDDMM};
pub use sddmm_int::NAME as SDDMM_INT;
pub use spmm::brcv::NAME as SPMM_BRCV;
pub use spmm_blocked::NAME as SPMM_BLOCKED;
pub use spmm_int::NAME as SPMM_INT;
pub use spmv::bandwidth::measure as measure_copy_bandwidth;
pub use spmv::{set_scalars as set_spmv_scalars, Scalars as SpmvScalars, DEFAULT_SCALARS as SPMV_DEFAULT_SCALARS, SPMV};

use crate::case::Case;
use crate::matrix::Matrix;
use oxsparse::types::MathMode;

/// Settings of the matrix operations from the command line.
pub struct OpConfig {
    /// The most bytes of dense operands (one copy) an SpMM case may take.
    pub dense_cap_bytes: u64,
    /// The math mode oxsparse's handle is in (`--math-mode`); SpMM's check follows it.
    pub math_mode: MathMode,
    /// SpMM's precisions to measure (`--spmm-precisions`, names as `FP16`); empty for all.
    pub spmm_precisions: Vec<&'static str>,
    /// SDDMM's K's (`--sddmm-k`); empty for the default ones.
    pub sddmm_k: Vec<usize>,
    /// SDDMM's layouts of A and B (`--sddmm-layouts`); empty for the default (fast) one.
    pub sddmm_layouts: Vec<SddmmLayout>,
}

impl OpConfig {
    /// The defaults of the command line, with this cap: for tests.
    #[cfg(test)]
    pub const fn with_cap(dense_cap_bytes: u64) -> OpConfig {
        OpConfig {
            dense_cap_bytes,
            math_mode: MathMode::OXSPARSE_DEFAULT_MATH,
            spmm_precisions: Vec::new(),
            sddmm_k: Vec::new(),
            sddmm_layouts: Vec::new(),
        }
    }
}

/// An operation measured on every matrix of the set.
pub struct MatrixOp {
    pub name: &'static str,
    /// Why a matrix of this shape is not measured, or None when it is. `max_nnz` is an upper
    /// bound (symmetric files are expanded). Decided before the matrix is read.
    pub skip: fn(rows: u64, cols: u64, max_nnz: u64, cfg: &OpConfig) -> Option<String>,
    /// The configurations to measure on one matrix; nothing is allocated until `Case::alloc`.
    pub cases: for<'m> fn(&'m Matrix, &OpConfig) -> Vec<Box<dyn Case + 'm>>,
}

/// An operation on generated inputs (vectors; DenseToSparse's dense matrices), independent of the matrix set.
pub struct VectorOp {
    pub name: &'static str,
    pub cases: fn(quick: bool) -> Vec<Box<dyn Case>>,
}

pub const MATRIX_OPS: &[MatrixOp] = &[
    sparse_to_dense::OP,
    csr2csc::OP,
    spmm::OP,
    spmm::brcv::OP,
    spmv::OP,
    sddmm::OP,
    coo_csr::COO2CSR,
    coo_csr::CSR2COO,
    sort::CSRSORT,
    sort::COOSORT,
];
pub const VECTOR_OPS: &[VectorOp] = &[vector::GATHER, vector::SPVV, dense_to_sparse::OP, spmm_int::OP, sddmm_int::OP, spmm_blocked::OP];

/// Every operation's name, for `--ops`.
pub fn names() -> Vec<&'static str> {
    MATRIX_OPS.iter().map(|o| o.name).chain(VECTOR_OPS.iter().map(|o| o.name)).collect()
}
