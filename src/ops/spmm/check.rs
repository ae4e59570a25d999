//! Argument checks of SpMM, in the API's order: sizes, batches, pointers, then the format,
//! operation, type, index and algorithm combinations. Nothing here touches the GPU.

use super::Call;
use crate::descr::FormatInfo;
use crate::error::{invalid, unsupported, Result};
use crate::kernels::spmm::Types;
use crate::types::DataType::{self, *};
use crate::types::{IndexType, Operation, SpMMAlg};

/// The (A and B, C, compute) value types SpMM accepts, as cuSPARSE documents them.
pub const TYPE_COMBINATIONS: [(DataType, DataType, DataType); 12] = [
    (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
    (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F),
    (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_8I, CUDA_R_32I, CUDA_R_32I),
    (CUDA_R_8I, CUDA_R_32F, CUDA_R_32F),
    (CUDA_C_16F, CUDA_C_16F, CUDA_C_32F),
    (CUDA_C_16BF, CUDA_C_16BF, CUDA_C_32F),
];

/// cuSPARSE's batch limit.
pub const MAX_BATCHES: i32 = 65_535;

/// The sizes of the problem once the operations are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub m: i64,
    pub k: i64,
    pub n: i64,
    pub batches: i32,
}

impl Dims {
    /// Nothing to compute and nothing to write.
    pub fn is_empty(&self) -> bool {
        self.m == 0 || self.n == 0
    }
}

fn transposed(op: Operation) -> bool {
    op != Operation::OXSPARSE_OPERATION_NON_TRANSPOSE
}

/// Sizes and batch counts.
pub fn dims(call: &Call) -> Result<Dims> {
    let (a, b, c) = (call.a, call.b, call.c);
    let (m, k) = if transposed(call.op_a) { (a.cols, a.rows) } else { (a.rows, a.cols) };
    let (kb, n) = if transposed(call.op_b) { (b.cols, b.rows) } else { (b.rows, b.cols) };
    if k != kb {
        invalid!("op(A) is {m} x {k} but op(B) is {kb} x {n}");
    }
    if c.rows != m || c.cols != n {
        invalid!("C is {} x {} but op(A) * op(B) is {m} x {n}", c.rows, c.cols);
    }
    let counts = [a.batch.count, b.batch_count, c.batch_count];
    let batches = *counts.iter().max().unwrap_or(&1);
    if c.batch_count != batches || counts.iter().any(|&x| x != 1 && x != batches) {
        invalid!("batch counts A {}, B {}, C {}: C must have the most, A and B 1 or the same", counts[0], counts[1], counts[2]);
    }
    if batches > MAX_BATCHES {
        invalid!("{batches} batches exceed the limit of {MAX_BATCHES}");
    }
    Ok(Dims { m, k, n, batches })
}

/// Sizes whose workspace could not be represented (crate::ops::MAX_ELEMENTS): A's entries over
/// its batches, op(B) and C over theirs, and the dimensions the row views and tables count.
pub fn extents(call: &Call, d: &Dims) -> Result<()> {
    use crate::ops::{check_extents, product};
    let batches = d.batches as i64;
    check_extents(&[
        ("matA", product(&[call.a.nnz, batches])),
        ("op(B)", product(&[d.k, d.n, batches])),
        ("matC", product(&[d.m, d.n, batches])),
        ("op(A)'s rows", d.m as u128),
        ("op(A)'s columns", d.k as u128),
    ])
}

/// Data pointers that the product will dereference must not be NULL.
pub fn pointers(call: &Call, d: &Dims) -> Result<()> {
    if call.c.values == 0 {
        invalid!("matC values are NULL");
    }
    let a = call.a;
    let stores = a.nnz > 0 && d.k > 0;
    if !stores {
        return Ok(());
    }
    if call.b.values == 0 {
        invalid!("matB values are NULL");
    }
    crate::ops::stored_arrays(a, "matA")
}

/// Format and operation combinations, value types, index types and the algorithm hint.
pub fn support(call: &Call, d: &Dims) -> Result<Types> {
    let a = call.a;
    let block_format = matches!(a.format, FormatInfo::Bsr { .. } | FormatInfo::BlockedEll { .. });
    match a.format {
        FormatInfo::SlicedEll { .. } => unsupported!("SpMM does not support the Sliced-ELL format"),
        _ if block_format && transposed(call.op_a) => unsupported!("{:?} A supports only opA = NON_TRANSPOSE", a.format_enum()),
        FormatInfo::BlockedEll { .. } if call.op_b == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE => {
            unsupported!("Blocked-ELL A does not support opB = CONJUGATE_TRANSPOSE")
        }
        _ if block_format && d.batches > 1 => unsupported!("batched {:?} matrices are not supported", a.format_enum()),
        _ => {}
    }

    if a.value_type != call.b.value_type {
        unsupported!("A ({:?}) and B ({:?}) must have the same value type", a.value_type, call.b.value_type);
    }
    let types = Types { ab: a.value_type, c: call.c.value_type, compute: call.compute };
    if !TYPE_COMBINATIONS.contains(&(types.ab, types.c, types.compute)) {
        unsupported!("A/B {:?}, C {:?}, compute {:?} is not a supported SpMM type combination", types.ab, types.c, types.compute);
    }

    if a.index_type == IndexType::OXSPARSE_INDEX_16U || a.offset_type == IndexType::OXSPARSE_INDEX_16U {
        unsupported!("only the index types OXSPARSE_INDEX_32I and OXSPARSE_INDEX_64I are supported");
    }
    if a.offset_type != a.index_type {
        unsupported!("offsets ({:?}) and indices ({:?}) of different types are not supported", a.offset_type, a.index_type);
    }

    use SpMMAlg::*;
    let family_ok = match call.alg {
        OXSPARSE_SPMM_ALG_DEFAULT => true,
        OXSPARSE_SPMM_CSR_ALG1 | OXSPARSE_SPMM_CSR_ALG2 | OXSPARSE_SPMM_CSR_ALG3 => matches!(a.format, FormatInfo::Csr | FormatInfo::Csc),
        OXSPARSE_SPMM_COO_ALG1 | OXSPARSE_SPMM_COO_ALG2 | OXSPARSE_SPMM_COO_ALG3 | OXSPARSE_SPMM_COO_ALG4 => a.format == FormatInfo::Coo,
        OXSPARSE_SPMM_BSR_ALG1 => matches!(a.format, FormatInfo::Bsr { .. }),
        OXSPARSE_SPMM_BLOCKED_ELL_ALG1 => matches!(a.format, FormatInfo::BlockedEll { .. }),
    };
    if !family_ok {
        unsupported!("algorithm {:?} does not apply to the {:?} format", call.alg, a.format_enum());
    }
    Ok(types)
}
