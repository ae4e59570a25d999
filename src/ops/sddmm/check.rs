//! Argument checks of SDDMM, in the API's order: sizes, batches, pointers, then the format,
//! operation, type and index combinations. Nothing here touches the GPU.

use super::Call;
use crate::descr::FormatInfo;
use crate::error::{invalid, unsupported, Result};
use crate::types::DataType::{self, *};
use crate::types::{IndexType, Operation};

/// The (A and B, C, compute) value types SDDMM accepts. cuSPARSE documents BF16 inputs for BSR
/// C only; the kernels are the same for CSR, so oxsparse takes them for both.
pub const TYPE_COMBINATIONS: [(DataType, DataType, DataType); 8] = [
    (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
    (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F),
    (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F),
    (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
];

/// cuSPARSE's batch limit.
pub const MAX_BATCHES: i32 = 65_535;

/// The value types of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types {
    /// A's and B's.
    pub ab: DataType,
    pub c: DataType,
    pub compute: DataType,
}

/// The sizes of the problem once the operations are applied: op(A) is m x k, op(B) k x n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub m: i64,
    pub k: i64,
    pub n: i64,
    pub batches: i32,
}

pub fn transposed(op: Operation) -> bool {
    op != Operation::OXSPARSE_OPERATION_NON_TRANSPOSE
}

/// Sizes and batch counts. C's batch count is the call's; A and B have 1 (shared by every batch
/// of C) or the same. Batches of C must not overlap.
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
    let counts = [a.batch_count, b.batch_count, c.batch.count];
    let batches = *counts.iter().max().unwrap_or(&1);
    if c.batch.count != batches || counts.iter().any(|&x| x != 1 && x != batches) {
        invalid!("batch counts A {}, B {}, C {}: C must have the most, A and B 1 or the same", counts[0], counts[1], counts[2]);
    }
    if batches > MAX_BATCHES {
        invalid!("{batches} batches exceed the limit of {MAX_BATCHES}");
    }
    if batches > 1 && c.batch.values_stride < c.nnz {
        invalid!("C's batches overlap: values batch stride {} < nnz {}", c.batch.values_stride, c.nnz);
    }
    Ok(Dims { m, k, n, batches })
}

/// Sizes whose workspace could not be represented (crate::ops::MAX_ELEMENTS).
pub fn extents(call: &Call, d: &Dims) -> Result<()> {
    use crate::ops::{check_extents, product};
    let batches = d.batches as i64;
    check_extents(&[
        ("matC", product(&[call.c.nnz, batches])),
        ("op(A)", product(&[d.m, d.k, batches])),
        ("op(B)", product(&[d.k, d.n, batches])),
    ])
}

/// Data pointers that the call will dereference must not be NULL: C's arrays when it stores
/// entries, A's and B's values when the entries have products to form (k > 0).
pub fn pointers(call: &Call, d: &Dims) -> Result<()> {
    let c = call.c;
    if c.nnz == 0 || d.m == 0 || d.n == 0 {
        return Ok(());
    }
    crate::ops::stored_arrays(c, "matC")?;
    if d.k > 0 && call.a.values == 0 {
        invalid!("matA values are NULL");
    }
    if d.k > 0 && call.b.values == 0 {
        invalid!("matB values are NULL");
    }
    Ok(())
}

/// Format, operations, value types and index types.
pub fn support(call: &Call) -> Result<Types> {
    let c = call.c;
    if !matches!(c.format, FormatInfo::Csr | FormatInfo::Bsr { .. }) {
        unsupported!("SDDMM supports only CSR and BSR C, not {:?}", c.format_enum());
    }
    for (name, op) in [("opA", call.op_a), ("opB", call.op_b)] {
        if op == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE {
            unsupported!("{name} = CONJUGATE_TRANSPOSE is not supported by SDDMM");
        }
    }
    if call.a.value_type != call.b.value_type {
        unsupported!("A ({:?}) and B ({:?}) must have the same value type", call.a.value_type, call.b.value_type);
    }
    let types = Types { ab: call.a.value_type, c: c.value_type, compute: call.compute };
    if !TYPE_COMBINATIONS.contains(&(types.ab, types.c, types.compute)) {
        unsupported!("A/B {:?}, C {:?}, compute {:?} is not a supported SDDMM type combination", types.ab, types.c, types.compute);
    }
    if c.index_type == IndexType::OXSPARSE_INDEX_16U || c.offset_type == IndexType::OXSPARSE_INDEX_16U {
        unsupported!("SDDMM does not support 16-bit indices");
    }
    if c.offset_type != c.index_type {
        unsupported!("offsets ({:?}) and indices ({:?}) of different types are not supported", c.offset_type, c.index_type);
    }
    Ok(types)
}
