//! The legacy matrix descriptor (`oxsparseMatDescr_t`): the four properties the legacy routines
//! read of a matrix (structure, stored triangle, diagonal, index base). It holds no data.

use crate::types::{DiagType, FillMode, IndexBase, MatrixType};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatDescr {
    pub matrix_type: MatrixType,
    pub fill_mode: FillMode,
    pub diag_type: DiagType,
    pub index_base: IndexBase,
}

impl Default for MatDescr {
    /// cuSPARSE's defaults: a general matrix, lower triangle, non-unit diagonal, zero-based.
    fn default() -> MatDescr {
        MatDescr {
            matrix_type: MatrixType::OXSPARSE_MATRIX_TYPE_GENERAL,
            fill_mode: FillMode::OXSPARSE_FILL_MODE_LOWER,
            diag_type: DiagType::OXSPARSE_DIAG_TYPE_NON_UNIT,
            index_base: IndexBase::OXSPARSE_INDEX_BASE_ZERO,
        }
    }
}
