// DenseToSparse: the stored form of a dense matrix A's nonzeros (entries not equal to 0; -0.0 is
// 0, NaN is not), as cuSPARSE. A "line" is a row (CSR, COO) or a column (CSC) of A.
//
//   analysis: count   offsets[line] <- nonzeros of the line, offsets[lines] <- 0 (one warp a line)
//             scan    exclusive prefix sums of offsets[0, lines] plus the base (common/scan.cuh):
//                     offsets[line] is where the line starts, offsets[lines] is base + nnz
//   convert:  compact one warp a line again: each round of 32 elements a ballot of the nonzeros,
//                     each nonzero at the line's cursor + the nonzeros of the lanes before it, so
//                     entries come out in increasing minor index; no atomics, deterministic
//   Blocked-ELL: only values are written, from A at the block columns the user gave (padding
//                     slots, block column -1, get zeros).
//
// Values are moved as words of their size; `Z` below knows the word and what zero is for the type.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/scan.cuh"
#include <stdint.h>

namespace {

using grid::global_thread;
using grid::thread_count;

constexpr int WARP = 32;
constexpr unsigned FULL_MASK = 0xffffffffu;
// Tiling, in one place (the launcher mirrors these in src/kernels/dense_to_sparse.rs).
constexpr int BLOCK = 256;
constexpr int SCAN_ROUNDS = 8;
constexpr int UNROLL = 4;  // rounds of 32 elements whose loads a warp has in flight at once

// ---- zero tests: all bits but the sign bits clear (integers: all bits clear) ---------------------
struct I8 {
    using W = uint8_t;
    __device__ static bool zero(W v) { return v == 0; }
};
struct Half {  // f16 and bf16
    using W = uint16_t;
    __device__ static bool zero(W v) { return (v & 0x7fffu) == 0; }
};
struct Float {
    using W = uint32_t;
    __device__ static bool zero(W v) { return (v & 0x7fffffffu) == 0; }
};
struct Double {
    using W = uint64_t;
    __device__ static bool zero(W v) { return (v & 0x7fffffffffffffffull) == 0; }
};
struct ComplexHalf {  // c16 and cbf16
    using W = uint32_t;
    __device__ static bool zero(W v) { return (v & 0x7fff7fffu) == 0; }
};
struct ComplexFloat {
    using W = uint2;
    __device__ static bool zero(W v) { return ((v.x | v.y) & 0x7fffffffu) == 0; }
};
struct ComplexDouble {
    using W = uint4;
    __device__ static bool zero(W v) { return v.x == 0 && (v.y & 0x7fffffffu) == 0 && v.z == 0 && (v.w & 0x7fffffffu) == 0; }
};

// Element j of line `line` of A.
template <typename W>
__device__ __forceinline__ W element(const DenseToSparseParams& p, int64_t line, int64_t j) {
    const int64_t r = p.csc ? j : line, c = p.csc ? line : j;
    return reinterpret_cast<const W*>(p.dense)[p.row_major ? r * p.ld + c : c * p.ld + r];
}

// ---- analysis: count ----------------------------------------------------------------------------
template <typename Z, typename I>
__device__ void count(const DenseToSparseParams& p) {
    using W = typename Z::W;
    I* offsets = reinterpret_cast<I*>(p.offsets);
    const int lane = threadIdx.x % WARP;
    if (global_thread() == 0) offsets[p.lines] = 0;
    for (int64_t line = global_thread() / WARP; line < p.lines; line += thread_count() / WARP) {
        int64_t n = 0;
        for (int64_t j0 = 0; j0 < p.line_len; j0 += WARP * UNROLL) {
            W v[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const int64_t j = j0 + u * WARP + lane;
                v[u] = j < p.line_len ? element<W>(p, line, j) : W{};
            }
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) n += j0 + u * WARP + lane < p.line_len && !Z::zero(v[u]);
        }
        for (int o = WARP / 2; o > 0; o /= 2) n += __shfl_down_sync(FULL_MASK, n, o);
        if (lane == 0) offsets[line] = I(n);
    }
}

// ---- convert: compact ---------------------------------------------------------------------------
template <typename Z, typename I>
__device__ void compact(const DenseToSparseParams& p) {
    using W = typename Z::W;
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    I* major = reinterpret_cast<I*>(p.major);
    I* minor = reinterpret_cast<I*>(p.minor);
    W* values = reinterpret_cast<W*>(p.values);
    const int lane = threadIdx.x % WARP;
    const unsigned before = (1u << lane) - 1;
    for (int64_t line = global_thread() / WARP; line < p.lines; line += thread_count() / WARP) {
        int64_t cursor = int64_t(offsets[line]) - p.base;
        // Every lane runs the same rounds (the ballot needs them all); UNROLL rounds' loads go out
        // before their ballots, in element order.
        for (int64_t j0 = 0; j0 < p.line_len; j0 += WARP * UNROLL) {
            W v[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const int64_t j = j0 + u * WARP + lane;
                v[u] = j < p.line_len ? element<W>(p, line, j) : W{};
            }
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const int64_t j = j0 + u * WARP + lane;
                const bool keep = j < p.line_len && !Z::zero(v[u]);
                const unsigned mask = __ballot_sync(FULL_MASK, keep);
                if (keep) {
                    const int64_t at = cursor + __popc(mask & before);
                    minor[at] = I(j + p.base);
                    values[at] = v[u];
                    if (major) major[at] = I(line + p.base);
                }
                cursor += __popc(mask);
            }
        }
    }
}

// ---- Blocked-ELL: values only -------------------------------------------------------------------
template <typename Z, typename I>
__device__ void fill_bell(const DenseToSparseParams& p) {
    using W = typename Z::W;
    const I* bcols = reinterpret_cast<const I*>(p.minor);
    W* values = reinterpret_cast<W*>(p.values);
    const int64_t bs = p.block_size, slots = p.ell_cols / bs;
    const int64_t total = p.rows * p.ell_cols;
    for (int64_t k = global_thread(); k < total; k += thread_count()) {
        const int64_t r = k / p.ell_cols, e = k - r * p.ell_cols;
        const int64_t bc = int64_t(bcols[(r / bs) * slots + e / bs]);
        const int64_t c = (bc - p.base) * bs + e % bs;
        // Padding (-1) and any column outside A read as zero.
        W v{};
        if (bc != -1 && c >= 0 && c < p.cols) v = reinterpret_cast<const W*>(p.dense)[p.row_major ? r * p.ld + c : c * p.ld + r];
        values[k] = v;
    }
}

}  // namespace

// ---- instantiations: oxs_d2s_<stage>_<value>_<index>, oxs_d2s_scan_<stage>_<index> ---------------
#define OXS_D2S_VALUES(X, IS, I) \
    X(i8, I8, IS, I)             \
    X(f16, Half, IS, I)          \
    X(bf16, Half, IS, I)         \
    X(f32, Float, IS, I)         \
    X(f64, Double, IS, I)        \
    X(c16, ComplexHalf, IS, I)   \
    X(cbf16, ComplexHalf, IS, I) \
    X(c32, ComplexFloat, IS, I)  \
    X(c64, ComplexDouble, IS, I)

#define OXS_D2S_STAGES(V, Z, IS, I)                                                                                       \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_count_##V##_##IS(const DenseToSparseParams p) { count<Z, I>(p); } \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_compact_##V##_##IS(const DenseToSparseParams p) {           \
        compact<Z, I>(p);                                                                                                  \
    }                                                                                                                      \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_bell_##V##_##IS(const DenseToSparseParams p) { fill_bell<Z, I>(p); }

// The scan over offsets[0, lines]: chunk sums in the workspace, the base carried from the start.
#define OXS_D2S_SCAN(IS, I)                                                                                  \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_scan_reduce_##IS(const DenseToSparseParams p) { \
        scan::chunk_reduce<BLOCK, SCAN_ROUNDS>(reinterpret_cast<I*>(p.offsets), p.lines + 1, reinterpret_cast<I*>(p.chunk_sums)); \
    }                                                                                                        \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_scan_sums_##IS(const DenseToSparseParams p) {   \
        scan::exclusive_in_place<BLOCK>(reinterpret_cast<I*>(p.chunk_sums), 0, p.chunks, I(p.base));          \
    }                                                                                                        \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_scan_apply_##IS(const DenseToSparseParams p) {  \
        scan::chunk_apply<BLOCK, SCAN_ROUNDS>(reinterpret_cast<I*>(p.offsets), p.lines + 1, reinterpret_cast<I*>(p.chunk_sums)); \
    }

OXS_D2S_VALUES(OXS_D2S_STAGES, i32, int32_t)
OXS_D2S_VALUES(OXS_D2S_STAGES, i64, int64_t)
OXS_D2S_SCAN(i32, int32_t)
OXS_D2S_SCAN(i64, int64_t)
