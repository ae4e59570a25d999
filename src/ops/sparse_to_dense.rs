//! SparseToDense: B = dense(A), every entry of B that A does not store becomes zero.
//!
//! cuSPARSE documents CSR, CSC and COO for this routine; oxsparse also converts BSR (row- or
//! column-major blocks) and Blocked-ELL, and refuses Sliced-ELL with NOT_SUPPORTED, as cuSPARSE
//! does. The work is two kernels on the handle's stream, zero-fill then scatter; no workspace is
//! needed (`bufferSize` is 0 and the buffer may be NULL) and nothing waits for the GPU.

use crate::context::Handle;
use crate::descr::{DnMat, FormatInfo, SpMat};
use crate::error::{invalid, unsupported, Result};
use crate::kernels::sparse_to_dense as k;
use crate::types::{DataType, IndexType, Order, SparseToDenseAlg};

/// The scatter kernel for A's format, with what it needs beyond the descriptors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scatter {
    Coo,
    Compressed { csc: bool },
    Bsr { brows: i64, row_block: i64, col_block: i64, block_order: Order },
    BlockedEll { block_size: i64, ell_cols: i64 },
}

/// What a call enqueues: nothing for an empty B, a zero-fill alone when A stores nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub zero_fill: bool,
    pub scatter: Option<Scatter>,
}

/// The value types cuSPARSE's SparseToDense accepts (A and B alike); R_32I is not among them.
fn supported_value(t: DataType) -> bool {
    !matches!(t, DataType::CUDA_R_32I)
}

/// Validates the operands and decides the launches; touches no GPU memory.
/// Checks in the API's order: sizes, pointers, then type and format combinations.
pub fn plan(a: &SpMat, b: &DnMat, _alg: SparseToDenseAlg) -> Result<Plan> {
    if a.rows != b.rows || a.cols != b.cols {
        invalid!("matA is {} x {} but matB is {} x {}", a.rows, a.cols, b.rows, b.cols);
    }
    let empty_b = a.rows == 0 || a.cols == 0;
    let scatter = !empty_b && a.nnz > 0;
    if !empty_b && b.values == 0 {
        invalid!("matB values are NULL");
    }
    if scatter {
        let needs_offsets = !matches!(a.format, FormatInfo::BlockedEll { .. });
        if (needs_offsets && a.arrays.offsets == 0) || a.arrays.indices == 0 || a.arrays.values == 0 {
            invalid!("matA has {} stored entries but a NULL index or value array", a.nnz);
        }
    }

    if a.value_type != b.value_type {
        unsupported!("matA ({:?}) and matB ({:?}) must have the same value type", a.value_type, b.value_type);
    }
    if !supported_value(a.value_type) {
        unsupported!("value type {:?} is not supported by SparseToDense", a.value_type);
    }
    if a.index_type == IndexType::OXSPARSE_INDEX_16U || a.offset_type == IndexType::OXSPARSE_INDEX_16U {
        unsupported!("only the index types OXSPARSE_INDEX_32I and OXSPARSE_INDEX_64I are supported");
    }
    if a.offset_type != a.index_type {
        unsupported!("offsets ({:?}) and indices ({:?}) of different types are not supported", a.offset_type, a.index_type);
    }
    if a.batch.count > 1 || b.batch_count > 1 {
        unsupported!("batched matrices are not supported by SparseToDense");
    }
    let kind = match a.format {
        FormatInfo::Coo => Scatter::Coo,
        FormatInfo::Csr => Scatter::Compressed { csc: false },
        FormatInfo::Csc => Scatter::Compressed { csc: true },
        FormatInfo::Bsr { brows, row_block, col_block, block_order, .. } => Scatter::Bsr { brows, row_block, col_block, block_order },
        FormatInfo::BlockedEll { block_size, ell_cols } => Scatter::BlockedEll { block_size, ell_cols },
        FormatInfo::SlicedEll { .. } => unsupported!("SparseToDense does not support the Sliced-ELL format"),
    };
    Ok(Plan { zero_fill: !empty_b, scatter: scatter.then_some(kind) })
}

/// `oxsparseSparseToDense_bufferSize`: the conversion needs no workspace.
pub fn buffer_size(a: &SpMat, b: &DnMat, alg: SparseToDenseAlg) -> Result<usize> {
    plan(a, b, alg)?;
    Ok(0)
}

/// `oxsparseSparseToDense`: enqueues the zero-fill and the scatter on the handle's stream.
/// `_external_buffer` is unused (the size asked for is 0), so it may be NULL.
pub fn sparse_to_dense(h: &Handle, a: &SpMat, b: &DnMat, alg: SparseToDenseAlg, _external_buffer: u64) -> Result<()> {
    let p = plan(a, b, alg)?;
    crate::ops::workspace::report(h.settings.print_plan, "SparseToDense", "call", &format_args!("{p:?}"));
    // The zero fill and the scatter go out as one graph (kernels/graph/).
    crate::kernels::graph::batched(h, || {
        if p.zero_fill {
            k::zero_fill(h, b)?;
        }
        match p.scatter {
            None => Ok(()),
            Some(Scatter::Coo) => k::scatter_coo(h, a, b),
            Some(Scatter::Compressed { csc }) => k::scatter_compressed(h, a, b, csc),
            Some(Scatter::Bsr { brows, row_block, col_block, block_order }) => {
                k::scatter_bsr(h, a, b, brows, row_block, col_block, block_order)
            }
            Some(Scatter::BlockedEll { block_size, ell_cols }) => k::scatter_bell(h, a, b, block_size, ell_cols),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descr::SpArrays;
    use crate::error::Error;
    use crate::types::DataType::*;
    use crate::types::IndexBase::*;
    use crate::types::IndexType::*;
    use crate::types::Order::*;

    const ALG: SparseToDenseAlg = SparseToDenseAlg::OXSPARSE_SPARSETODENSE_ALG_DEFAULT;

    fn arrays() -> SpArrays {
        SpArrays { offsets: 0x1000, indices: 0x2000, values: 0x3000 }
    }
    fn csr(rows: i64, cols: i64, nnz: i64, t: DataType) -> SpMat {
        SpMat::compressed(false, rows, cols, nnz, arrays(), OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, t).unwrap()
    }
    fn dense(rows: i64, cols: i64, t: DataType) -> DnMat {
        DnMat::new(rows, cols, cols.max(1), 0x8000, t, OXSPARSE_ORDER_ROW).unwrap()
    }
    fn is_invalid(r: Result<Plan>) -> bool {
        matches!(r, Err(Error::InvalidValue(_)))
    }
    fn is_unsupported(r: Result<Plan>) -> bool {
        matches!(r, Err(Error::NotSupported(_)))
    }

    #[test]
    fn csr_plans_zero_fill_then_row_scatter() {
        let p = plan(&csr(4, 5, 7, CUDA_R_32F), &dense(4, 5, CUDA_R_32F), ALG).unwrap();
        assert_eq!(p, Plan { zero_fill: true, scatter: Some(Scatter::Compressed { csc: false }) });
        assert_eq!(buffer_size(&csr(4, 5, 7, CUDA_R_32F), &dense(4, 5, CUDA_R_32F), ALG), Ok(0));
    }

    #[test]
    fn every_format_but_sliced_ell_is_planned() {
        let b = dense(4, 6, CUDA_C_64F);
        let csc = SpMat::compressed(true, 4, 6, 3, arrays(), OXSPARSE_INDEX_64I, OXSPARSE_INDEX_64I, OXSPARSE_INDEX_BASE_ONE, CUDA_C_64F)
            .unwrap();
        assert_eq!(plan(&csc, &b, ALG).unwrap().scatter, Some(Scatter::Compressed { csc: true }));
        let coo = SpMat::coo(4, 6, 3, arrays(), OXSPARSE_INDEX_64I, OXSPARSE_INDEX_BASE_ZERO, CUDA_C_64F).unwrap();
        assert_eq!(plan(&coo, &b, ALG).unwrap().scatter, Some(Scatter::Coo));
        let bsr = SpMat::bsr(
            (2, 2, 3),
            (2, 3),
            arrays(),
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_BASE_ZERO,
            CUDA_C_64F,
            OXSPARSE_ORDER_COL,
        )
        .unwrap();
        assert_eq!(
            plan(&bsr, &b, ALG).unwrap().scatter,
            Some(Scatter::Bsr { brows: 2, row_block: 2, col_block: 3, block_order: OXSPARSE_ORDER_COL })
        );
        let bell = SpMat::blocked_ell(4, 6, 2, 4, 0x2000, 0x3000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_C_64F).unwrap();
        assert_eq!(plan(&bell, &b, ALG).unwrap().scatter, Some(Scatter::BlockedEll { block_size: 2, ell_cols: 4 }));
        let sell = SpMat::sliced_ell(4, 6, 3, 8, 2, arrays(), OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_C_64F)
            .unwrap();
        assert!(is_unsupported(plan(&sell, &b, ALG)));
    }

    #[test]
    fn shapes_must_match() {
        assert!(is_invalid(plan(&csr(4, 5, 7, CUDA_R_32F), &dense(5, 4, CUDA_R_32F), ALG)));
        assert!(is_invalid(plan(&csr(4, 5, 7, CUDA_R_32F), &dense(4, 6, CUDA_R_32F), ALG)));
        // A size mismatch is reported before a type mismatch, as the argument order says.
        assert!(is_invalid(plan(&csr(4, 5, 7, CUDA_R_32F), &dense(4, 6, CUDA_R_64F), ALG)));
    }

    #[test]
    fn value_types_must_agree_and_be_supported() {
        assert!(is_unsupported(plan(&csr(4, 5, 7, CUDA_R_32F), &dense(4, 5, CUDA_R_64F), ALG)));
        assert!(is_unsupported(plan(&csr(4, 5, 7, CUDA_R_32I), &dense(4, 5, CUDA_R_32I), ALG)));
        for t in [CUDA_R_8I, CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F, CUDA_R_64F, CUDA_C_16F, CUDA_C_16BF, CUDA_C_32F, CUDA_C_64F] {
            assert!(plan(&csr(4, 5, 7, t), &dense(4, 5, t), ALG).is_ok(), "{t:?}");
        }
    }

    #[test]
    fn index_types_sixteen_bit_and_mixed_are_refused() {
        let b = dense(4, 5, CUDA_R_32F);
        let coo16 = SpMat::coo(4, 5, 3, arrays(), OXSPARSE_INDEX_16U, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).unwrap();
        assert!(is_unsupported(plan(&coo16, &b, ALG)));
        let mixed =
            SpMat::compressed(false, 4, 5, 3, arrays(), OXSPARSE_INDEX_64I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)
                .unwrap();
        assert!(is_unsupported(plan(&mixed, &b, ALG)));
    }

    #[test]
    fn empty_b_enqueues_nothing_even_with_null_pointers() {
        let a = SpMat::compressed(
            false,
            0,
            5,
            0,
            SpArrays::default(),
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_BASE_ZERO,
            CUDA_R_32F,
        )
        .unwrap();
        let b = DnMat::new(0, 5, 5, 0, CUDA_R_32F, OXSPARSE_ORDER_ROW).unwrap();
        assert_eq!(plan(&a, &b, ALG).unwrap(), Plan { zero_fill: false, scatter: None });
        let a = SpMat::coo(3, 0, 0, SpArrays::default(), OXSPARSE_INDEX_64I, OXSPARSE_INDEX_BASE_ONE, CUDA_R_16F).unwrap();
        let b = DnMat::new(3, 0, 3, 0, CUDA_R_16F, OXSPARSE_ORDER_COL).unwrap();
        assert_eq!(plan(&a, &b, ALG).unwrap(), Plan { zero_fill: false, scatter: None });
    }

    #[test]
    fn no_stored_entries_means_zero_fill_only() {
        let a = SpMat::coo(3, 4, 0, SpArrays::default(), OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_64F).unwrap();
        assert_eq!(plan(&a, &dense(3, 4, CUDA_R_64F), ALG).unwrap(), Plan { zero_fill: true, scatter: None });
        // Blocked-ELL with ellCols == 0 stores nothing either.
        let bell = SpMat::blocked_ell(4, 4, 0, 0, 0, 0, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_64F).unwrap();
        assert_eq!(plan(&bell, &dense(4, 4, CUDA_R_64F), ALG).unwrap(), Plan { zero_fill: true, scatter: None });
    }

    #[test]
    fn null_data_is_invalid_when_it_would_be_read_or_written() {
        let b_null = DnMat::new(4, 5, 5, 0, CUDA_R_32F, OXSPARSE_ORDER_ROW).unwrap();
        assert!(is_invalid(plan(&csr(4, 5, 7, CUDA_R_32F), &b_null, ALG)));
        let a = SpMat::coo(
            4,
            5,
            2,
            SpArrays { offsets: 0x1000, indices: 0, values: 0x3000 },
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_BASE_ZERO,
            CUDA_R_32F,
        )
        .unwrap();
        assert!(is_invalid(plan(&a, &dense(4, 5, CUDA_R_32F), ALG)));
        let bell = SpMat::blocked_ell(4, 4, 2, 2, 0x2000, 0, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).unwrap();
        assert!(is_invalid(plan(&bell, &dense(4, 4, CUDA_R_32F), ALG)));
    }

    #[test]
    fn batches_are_refused() {
        let mut a = csr(4, 5, 7, CUDA_R_32F);
        a.set_strided_batch(2, 5, 7, 7).unwrap();
        assert!(is_unsupported(plan(&a, &dense(4, 5, CUDA_R_32F), ALG)));
        let mut b = dense(4, 5, CUDA_R_32F);
        b.set_strided_batch(2, 20).unwrap();
        assert!(is_unsupported(plan(&csr(4, 5, 7, CUDA_R_32F), &b, ALG)));
    }
}
