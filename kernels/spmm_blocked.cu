// SpMM with a block-format A (opA = N): BSR and Blocked-ELL. C = alpha * A * op(B) + beta * C.
//
// One warp per row of A (an element row, inside some block row); lanes cover 32 columns of C at a
// time. The warp walks the row's blocks in stored order and, inside a block, its columns in
// order, so the summation order is fixed and results are reproducible. op(B) and C are read and
// written through strides (src/kernels/params/spmm.rs), so every layout and op(B) is one kernel.
#include "common/spmm.cuh"

using namespace spmm;

namespace {

// Visits the stored entries of row r of a BSR matrix in order: f(column, value).
template <typename V, typename C, typename I, typename F>
__device__ __forceinline__ void bsr_row(const SpmmBsrParams& p, int64_t r, F f) {
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const I* col_ind = reinterpret_cast<const I*>(p.col_ind);
    const V* values = reinterpret_cast<const V*>(p.values);
    const int64_t br = r / p.row_block, in_row = r % p.row_block;
    const int64_t area = p.row_block * p.col_block;
    for (int64_t blk = int64_t(offsets[br]) - p.base; blk < int64_t(offsets[br + 1]) - p.base; ++blk) {
        const int64_t col0 = (int64_t(col_ind[blk]) - p.base) * p.col_block;
        for (int64_t cc = 0; cc < p.col_block; ++cc) {
            const int64_t at = p.col_major_blocks ? cc * p.row_block + in_row : in_row * p.col_block + cc;
            f(col0 + cc, to_compute<C>(values[blk * area + at]));
        }
    }
}

// Visits the stored entries of row r of a Blocked-ELL matrix in order; empty slots are skipped.
template <typename V, typename C, typename I, typename F>
__device__ __forceinline__ void bell_row(const SpmmBellParams& p, int64_t r, F f) {
    const I* col_ind = reinterpret_cast<const I*>(p.col_ind);
    const V* values = reinterpret_cast<const V*>(p.values);
    const int64_t slots = p.ell_cols / p.block_size;
    const int64_t br = r / p.block_size;
    for (int64_t s = 0; s < slots; ++s) {
        const int64_t bc = int64_t(col_ind[br * slots + s]) - p.base;
        if (bc < 0) continue;  // -1: an empty slot
        for (int64_t cc = 0; cc < p.block_size; ++cc) {
            f(bc * p.block_size + cc, to_compute<C>(values[r * p.ell_cols + s * p.block_size + cc]));
        }
    }
}

// The warp-per-row driver shared by both formats: `visit(r, f)` enumerates row r's entries.
template <typename V, typename O, typename C, typename Visit>
__device__ __forceinline__ void blocked_rows(const SpmmShape& shape, const SpmmDense& bd, const SpmmDense& cd, Visit visit) {
    const Dense<const V> b(bd, blockIdx.y);
    const Dense<O> c(cd, blockIdx.y);
    const C alpha = load_scalar<C>(shape.alpha), beta = load_scalar<C>(shape.beta);
    const bool read_c = !is_zero(beta);
    const int lane = threadIdx.x % WARP;
    const int64_t warps = int64_t(gridDim.x) * (blockDim.x / WARP);
    for (int64_t r = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / WARP; r < shape.m; r += warps) {
        for (int64_t j0 = 0; j0 < shape.n; j0 += WARP) {
            const int64_t j = j0 + lane;
            if (j >= shape.n) continue;
            C acc = zero<C>();
            visit(r, [&](int64_t kk, C av) {
                if (kk >= 0 && kk < shape.k) acc = acc + av * b.template read<C>(kk, j);
            });
            write_out(c, r, j, acc, alpha, beta, read_c);
        }
    }
}

template <typename V, typename O, typename C, typename I>
__device__ void bsr(const SpmmBsrParams& p) {
    blocked_rows<V, O, C>(p.shape, p.b, p.c, [&](int64_t r, auto f) { bsr_row<V, C, I>(p, r, f); });
}

template <typename V, typename O, typename C, typename I>
__device__ void bell(const SpmmBellParams& p) {
    blocked_rows<V, O, C>(p.shape, p.b, p.c, [&](int64_t r, auto f) { bell_row<V, C, I>(p, r, f); });
}

}  // namespace

#define OXS_KERNEL(name, Params, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK) name(const Params p) { body; }

#define OXS_BLOCKED(sfx, V, O, C)                                                              \
    OXS_KERNEL(oxs_spmm_bsr_##sfx##_i32, SpmmBsrParams, (bsr<V, O, C, int32_t>(p)))          \
    OXS_KERNEL(oxs_spmm_bsr_##sfx##_i64, SpmmBsrParams, (bsr<V, O, C, int64_t>(p)))          \
    OXS_KERNEL(oxs_spmm_bell_##sfx##_i32, SpmmBellParams, (bell<V, O, C, int32_t>(p)))       \
    OXS_KERNEL(oxs_spmm_bell_##sfx##_i64, SpmmBellParams, (bell<V, O, C, int64_t>(p)))

OXS_SPMM_TYPES(OXS_BLOCKED)
