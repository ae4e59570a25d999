//! Which block-row kernel a BSR or Blocked-ELL SpMM runs: tensor cores (kernels/spmm_blocked_tc.cu)
//! where the types and the block shape map onto mma fragments, else CUDA cores
//! (kernels/spmm_blocked.cu) with a warp's slice of rows sized to the blocks
//! (docs/design/blocked-spmm.md).

use super::plan::ForcedKernel;
use crate::kernels::params::spmm::SPMM_BLOCKED_TC_MAX_ROWS;
use crate::kernels::spmm::Types;
use crate::kernels::spmm_bsr_small::{GROUP, LANE_COLUMNS};
use crate::types::DataType::*;
use crate::types::MathMode;

/// The tensor cores' operand precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcPrecision {
    /// FP16 or BF16 A and B (mma m16n8k16, exact products, FP32 sums).
    Half,
    /// FP32 A and B rounded to TF32 (the TF32 math mode).
    Tf32,
    /// FP32 A and B as TF32 heads and tails, three mmas (the FP32-accurate mode).
    Tf32x3,
}

/// The kernel of a block-format call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockedPath {
    /// CUDA cores: a warp takes a slice of `rows` (1, 4 or 8) rows of a block row.
    CudaCores {
        rows: u8,
    },
    /// CUDA cores, BSR of `size` x `size` blocks (2 to 4): a group of lanes per block row, several
    /// blocks' loads in flight a step (kernels/spmm_bsr_small.cu).
    SmallBlocks {
        size: u8,
    },
    TensorCores(TcPrecision),
}

/// Tensor cores for FP16 and BF16 A and B (with FP32 compute) in every math mode, their products
/// being exact; for FP32 only in the tensor-op modes (the default mode keeps FP32 exact);
/// `OXSPARSE_SPMM_KERNEL=cuda_cores` turns them off. The blocks must be whole fragments: 16, 32,
/// 64 or 128 rows (one to eight 16-row slices a thread block), and 16, 32 or a multiple of 64
/// columns, so that a k chunk of 32 or 64 columns holds whole blocks or lies in one.
pub fn path(t: Types, math: MathMode, forced: Option<ForcedKernel>, (rb, cb): (i64, i64)) -> BlockedPath {
    let precision = match (t.ab, t.c, t.compute) {
        (CUDA_R_16F, CUDA_R_16F | CUDA_R_32F, CUDA_R_32F) | (CUDA_R_16BF, CUDA_R_16BF | CUDA_R_32F, CUDA_R_32F) => Some(TcPrecision::Half),
        (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F) => match math {
            MathMode::OXSPARSE_TF32_TENSOR_OP_MATH => Some(TcPrecision::Tf32),
            MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH => Some(TcPrecision::Tf32x3),
            _ => None,
        },
        _ => None,
    };
    let rows_fit = matches!(rb, 16 | 32 | 64) || rb == SPMM_BLOCKED_TC_MAX_ROWS as i64;
    let cols_fit = matches!(cb, 16 | 32) || (cb > 0 && cb % 64 == 0);
    match precision {
        Some(p) if rows_fit && cols_fit && forced != Some(ForcedKernel::CudaCores) => BlockedPath::TensorCores(p),
        _ => BlockedPath::CudaCores { rows: slice_rows(rb, t.compute.size_bytes()) },
    }
}

/// The small-block kernel for a BSR call that `path` sends to CUDA cores: square blocks of 2 to 4
/// rows (finite-element meshes), FP32 or FP64 throughout, op(B) rows of whole vectors of 4 on
/// 16-byte boundaries (`b_vectors`), and N over half a group's 32 columns. The general kernel
/// waits on one round trip a block; this one issues a step of blocks' loads at once.
/// `OXSPARSE_SPMM_BLOCKED_SMALL=off` keeps the general kernel (comparisons).
pub fn small_blocks(path: BlockedPath, t: Types, (rb, cb): (i64, i64), b_vectors: bool, n: i64, enabled: bool) -> BlockedPath {
    let real = t.all(CUDA_R_32F) || t.all(CUDA_R_64F);
    let half_group = (GROUP * LANE_COLUMNS / 2) as i64;
    match path {
        BlockedPath::CudaCores { .. } if enabled && real && rb == cb && (2..=4).contains(&rb) && b_vectors && n > half_group => {
            BlockedPath::SmallBlocks { size: rb as u8 }
        }
        _ => path,
    }
}

/// A warp's rows on CUDA cores: one for blocks of one row, 4 for blocks of 2 to 4 (a 2-row block
/// leaves half of the tile idle, against one more kernel), 8 for taller blocks, cut into slices
/// of 8 (8 rows x 4 columns of FP32 is 32 accumulators a lane). Compute types of 8 bytes (FP64,
/// complex FP32) stop at slices of 4: their 8 x 4 accumulators spill.
pub fn slice_rows(rb: i64, compute_bytes: u64) -> u8 {
    match rb {
        ..=1 => 1,
        2..=4 => 4,
        _ if compute_bytes == 8 => 4,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType;

    fn types(ab: DataType, c: DataType, compute: DataType) -> Types {
        Types { ab, c, compute }
    }

    #[test]
    fn sixteen_bit_blocks_of_whole_fragments_take_tensor_cores_in_every_mode() {
        let default = MathMode::OXSPARSE_DEFAULT_MATH;
        for t in [
            types(CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
            types(CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
            types(CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
            types(CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
        ] {
            for block in [(16, 16), (32, 32), (64, 64), (128, 128), (16, 64), (32, 128), (64, 192)] {
                assert_eq!(path(t, default, None, block), BlockedPath::TensorCores(TcPrecision::Half), "{t:?} {block:?}");
            }
            for (block, rows) in [((8, 8), 8), ((3, 3), 4), ((1, 16), 1), ((24, 24), 8), ((48, 48), 8), ((256, 256), 8), ((16, 48), 8)] {
                assert_eq!(path(t, default, None, block), BlockedPath::CudaCores { rows }, "{t:?} {block:?}");
            }
            assert_eq!(path(t, default, Some(ForcedKernel::CudaCores), (16, 16)), BlockedPath::CudaCores { rows: 8 });
        }
    }

    #[test]
    fn fp32_takes_tensor_cores_only_in_the_tensor_op_modes() {
        let f32 = types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F);
        assert_eq!(path(f32, MathMode::OXSPARSE_DEFAULT_MATH, None, (32, 32)), BlockedPath::CudaCores { rows: 8 });
        assert_eq!(path(f32, MathMode::OXSPARSE_TF32_TENSOR_OP_MATH, None, (32, 32)), BlockedPath::TensorCores(TcPrecision::Tf32));
        assert_eq!(
            path(f32, MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH, None, (16, 16)),
            BlockedPath::TensorCores(TcPrecision::Tf32x3)
        );
        assert_eq!(path(f32, MathMode::OXSPARSE_TF32_TENSOR_OP_MATH, None, (4, 4)), BlockedPath::CudaCores { rows: 4 });
        for (t, rows) in [
            (types(CUDA_R_64F, CUDA_R_64F, CUDA_R_64F), 4),
            (types(CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), 4),
            (types(CUDA_R_8I, CUDA_R_32I, CUDA_R_32I), 8),
            (types(CUDA_C_16F, CUDA_C_16F, CUDA_C_32F), 4),
            (types(CUDA_C_64F, CUDA_C_64F, CUDA_C_64F), 8),
        ] {
            assert_eq!(path(t, MathMode::OXSPARSE_TF32_TENSOR_OP_MATH, None, (16, 16)), BlockedPath::CudaCores { rows }, "{t:?}");
        }
    }

    #[test]
    fn small_square_blocks_of_fp32_and_fp64_take_their_own_kernel() {
        let (f32, f64) = (types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F), types(CUDA_R_64F, CUDA_R_64F, CUDA_R_64F));
        let cuda = BlockedPath::CudaCores { rows: 4 };
        for (t, block, b_vectors, n, enabled, want) in [
            (f32, (3, 3), true, 32, true, BlockedPath::SmallBlocks { size: 3 }),
            (f32, (2, 2), true, 17, true, BlockedPath::SmallBlocks { size: 2 }),
            (f64, (4, 4), true, 17, true, BlockedPath::SmallBlocks { size: 4 }),
            (f32, (3, 3), true, 16, true, cuda),
            (f64, (4, 4), true, 16, true, cuda),
            (f32, (3, 3), false, 32, true, cuda),
            (f32, (3, 3), true, 32, false, cuda),
            (f32, (3, 2), true, 32, true, cuda),
            (f32, (1, 1), true, 32, true, cuda),
            (f32, (8, 8), true, 32, true, cuda),
            (types(CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), (3, 3), true, 32, true, cuda),
            (types(CUDA_R_16F, CUDA_R_32F, CUDA_R_32F), (3, 3), true, 32, true, cuda),
        ] {
            assert_eq!(small_blocks(cuda, t, block, b_vectors, n, enabled), want, "{t:?} {block:?} {b_vectors} {n} {enabled}");
        }
        let tc = BlockedPath::TensorCores(TcPrecision::Half);
        assert_eq!(small_blocks(tc, f32, (4, 4), true, 32, true), tc);
    }

    #[test]
    fn cuda_core_slices_follow_the_block_rows() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9, 64].map(|rb| slice_rows(rb, 4)), [1, 4, 4, 4, 8, 8, 8, 8]);
        assert_eq!([1, 2, 3, 4, 5, 8, 9, 64].map(|rb| slice_rows(rb, 8)), [1, 4, 4, 4, 4, 4, 4, 4]);
        assert_eq!([1, 4, 5, 64].map(|rb| slice_rows(rb, 16)), [1, 4, 8, 8]);
    }
}
