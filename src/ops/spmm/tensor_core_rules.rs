//! Whether a call runs on tensor cores (types, math mode, one batch, 32-bit positions), the bytes
//! of the tensor-core kernels' gathered values, and the reuse from which their build takes a
//! matrix.

use super::check::Dims;
use super::plan::ForcedKernel;
use super::Call;
use crate::kernels::spmm::Types;
use crate::types::DataType::*;
use crate::types::MathMode;

/// The tensor-core path: FP32, FP16 or BF16 A and B with the handle in a tensor-op math mode; one
/// batch, op(A) as rows with entries and columns that its 32-bit positions can number.
/// `OXSPARSE_SPMM_KERNEL=cuda_cores` turns it off (for comparisons).
pub(super) fn tensor_cores(call: &Call, d: &Dims, t: Types) -> bool {
    let off = call.settings.spmm.kernel == Some(ForcedKernel::CudaCores);
    tensor_core_types(t, call.math) && !off && d.batches == 1 && call.a.nnz > 0 && call.a.nnz <= i32::MAX as i64 && d.k < u32::MAX as i64
}

/// 16-bit products are exact on tensor cores, so precision would not hold them back; but the
/// engine needs the BitTCF build, which only preprocess makes worth its cost (0.3-0.6 ms on
/// 0.1-1.6M entries: a plain FP16 call on fb100_Cornell5 that built it took 0.67 ms against 0.05
/// ms after preprocess; plain calls now run the CUDA cores, mod.rs `plain_plan`). So
/// 16-bit operands take tensor cores under the same switch as FP32: a tensor-op math mode
/// (either; with 16-bit operands they compute alike).
fn tensor_core_types(t: Types, math: MathMode) -> bool {
    let types = matches!(
        (t.ab, t.c, t.compute),
        (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F)
            | (CUDA_R_16F, CUDA_R_16F | CUDA_R_32F, CUDA_R_32F)
            | (CUDA_R_16BF, CUDA_R_16BF | CUDA_R_32F, CUDA_R_32F)
    );
    types && math.tensor_ops()
}

/// Bytes of one gathered value slot of the tensor-core kernels: a TF32 word, a (head, tail) pair
/// in the FP32-accurate mode, or A's own 16-bit value.
pub(super) fn tc_value_bytes(t: Types, accurate: bool) -> u64 {
    match t.ab {
        CUDA_R_32F if accurate => 8,
        CUDA_R_32F => 4,
        _ => 2,
    }
}

/// Entries per (window, column) pair, in tenths, from which the tensor cores take a matrix;
/// `OXSPARSE_SPMM_KERNEL=tensor_cores` gives 0 (always, for tests and comparisons).
pub fn tensor_core_min_reuse(forced: Option<ForcedKernel>) -> u32 {
    if forced == Some(ForcedKernel::TensorCores) {
        0
    } else {
        crate::kernels::params::spmm_tc::TC_MIN_REUSE_TENTHS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_cores_take_fp32_and_16_bit_in_tensor_op_modes() {
        let t = |ab, c| Types { ab, c, compute: CUDA_R_32F };
        let default = MathMode::OXSPARSE_DEFAULT_MATH;
        assert!(!tensor_core_types(t(CUDA_R_32F, CUDA_R_32F), default));
        assert!(tensor_core_types(t(CUDA_R_32F, CUDA_R_32F), MathMode::OXSPARSE_TF32_TENSOR_OP_MATH));
        assert!(tensor_core_types(t(CUDA_R_32F, CUDA_R_32F), MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH));
        for (ab, c) in [(CUDA_R_16F, CUDA_R_16F), (CUDA_R_16F, CUDA_R_32F), (CUDA_R_16BF, CUDA_R_16BF), (CUDA_R_16BF, CUDA_R_32F)] {
            assert!(!tensor_core_types(t(ab, c), default), "{ab:?} -> {c:?}");
            assert!(tensor_core_types(t(ab, c), MathMode::OXSPARSE_TF32_TENSOR_OP_MATH), "{ab:?} -> {c:?}");
            assert!(tensor_core_types(t(ab, c), MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH), "{ab:?} -> {c:?}");
            assert_eq!(tc_value_bytes(t(ab, c), false), 2);
        }
        assert!(!tensor_core_types(Types { ab: CUDA_R_64F, c: CUDA_R_64F, compute: CUDA_R_64F }, MathMode::OXSPARSE_TF32_TENSOR_OP_MATH));
        assert!(!tensor_core_types(Types { ab: CUDA_R_8I, c: CUDA_R_32I, compute: CUDA_R_32I }, default));
        assert_eq!(tc_value_bytes(t(CUDA_R_32F, CUDA_R_32F), true), 8);
    }
}
