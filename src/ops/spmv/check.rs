//! Argument checks of SpMV, in the API's order: sizes, pointers, then the format, operation, type,
//! index and algorithm combinations. Nothing here touches the GPU.

use super::Call;
use crate::descr::FormatInfo;
use crate::error::{invalid, unsupported, Result};
use crate::kernels::spmv::Types;
use crate::types::DataType::{self, *};
use crate::types::{IndexType, Operation, SpMVAlg};

/// The (A, x, y, compute) value types SpMV accepts, as cuSPARSE documents them.
pub const TYPE_COMBINATIONS: [(DataType, DataType, DataType, DataType); 15] = [
    (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
    (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F, CUDA_C_32F),
    (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUDA_R_32I),
    (CUDA_R_8I, CUDA_R_8I, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
    (CUDA_C_16F, CUDA_C_16F, CUDA_C_16F, CUDA_C_32F),
    (CUDA_C_16BF, CUDA_C_16BF, CUDA_C_16BF, CUDA_C_32F),
    (CUDA_R_32F, CUDA_C_32F, CUDA_C_32F, CUDA_C_32F),
    (CUDA_R_64F, CUDA_C_64F, CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_32F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
];

/// The sizes of the problem once opA is applied: op(A) is m x k.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub m: i64,
    pub k: i64,
}

pub fn transposed(op: Operation) -> bool {
    op != Operation::OXSPARSE_OPERATION_NON_TRANSPOSE
}

/// Sizes: x must have k elements and y m.
pub fn dims(call: &Call) -> Result<Dims> {
    let a = call.a;
    let (m, k) = if transposed(call.op_a) { (a.cols, a.rows) } else { (a.rows, a.cols) };
    if call.x.size != k {
        invalid!("op(A) is {m} x {k} but vecX has {} elements", call.x.size);
    }
    if call.y.size != m {
        invalid!("op(A) is {m} x {k} but vecY has {} elements", call.y.size);
    }
    Ok(Dims { m, k })
}

/// Sizes whose workspace could not be represented (crate::ops::MAX_ELEMENTS).
pub fn extents(call: &Call, d: &Dims) -> Result<()> {
    let slots = match call.a.format {
        FormatInfo::SlicedEll { values_size, .. } => values_size,
        _ => call.a.nnz,
    };
    crate::ops::check_extents(&[("matA", crate::ops::product(&[slots])), ("op(A)'s rows", d.m as u128), ("op(A)'s columns", d.k as u128)])
}

/// Data pointers that the product will dereference must not be NULL.
pub fn pointers(call: &Call, d: &Dims) -> Result<()> {
    if d.m > 0 && call.y.values == 0 {
        invalid!("vecY values are NULL");
    }
    let a = call.a;
    if a.nnz == 0 || d.k == 0 || d.m == 0 {
        return Ok(());
    }
    if call.x.values == 0 {
        invalid!("vecX values are NULL");
    }
    // Blocked-ELL has no offsets; `support` refuses it with NOT_SUPPORTED.
    crate::ops::stored_arrays(a, "matA")
}

/// Format and operation combinations, value types, index types and the algorithm hint.
pub fn support(call: &Call) -> Result<Types> {
    let a = call.a;
    match a.format {
        FormatInfo::BlockedEll { .. } => unsupported!("SpMV does not support the Blocked-ELL format"),
        FormatInfo::Bsr { .. } | FormatInfo::SlicedEll { .. } if transposed(call.op_a) => {
            unsupported!("{:?} A supports only opA = NON_TRANSPOSE", a.format_enum())
        }
        _ => {}
    }
    if a.batch.count > 1 {
        unsupported!("SpMV does not support batched matrices ({} batches)", a.batch.count);
    }
    let types = Types { a: a.value_type, x: call.x.value_type, y: call.y.value_type, compute: call.compute };
    if !TYPE_COMBINATIONS.contains(&(types.a, types.x, types.y, types.compute)) {
        unsupported!(
            "A {:?}, X {:?}, Y {:?}, compute {:?} is not a supported SpMV type combination",
            types.a,
            types.x,
            types.y,
            types.compute
        );
    }
    if a.index_type == IndexType::OXSPARSE_INDEX_16U || a.offset_type == IndexType::OXSPARSE_INDEX_16U {
        unsupported!("only the index types OXSPARSE_INDEX_32I and OXSPARSE_INDEX_64I are supported");
    }
    if a.offset_type != a.index_type {
        unsupported!("offsets ({:?}) and indices ({:?}) of different types are not supported", a.offset_type, a.index_type);
    }
    use SpMVAlg::*;
    let family_ok = match call.alg {
        OXSPARSE_SPMV_ALG_DEFAULT => true,
        OXSPARSE_SPMV_CSR_ALG1 | OXSPARSE_SPMV_CSR_ALG2 => matches!(a.format, FormatInfo::Csr | FormatInfo::Csc),
        OXSPARSE_SPMV_COO_ALG1 | OXSPARSE_SPMV_COO_ALG2 => a.format == FormatInfo::Coo,
        OXSPARSE_SPMV_SELL_ALG1 => matches!(a.format, FormatInfo::SlicedEll { .. }),
        OXSPARSE_SPMV_BSR_ALG1 => matches!(a.format, FormatInfo::Bsr { .. }),
    };
    if !family_ok {
        unsupported!("algorithm {:?} does not apply to the {:?} format", call.alg, a.format_enum());
    }
    Ok(types)
}
