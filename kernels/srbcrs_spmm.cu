// SR-BCRS (docs/design/srbcrs.md): the build from CSR and the int8 SpMM on integer tensor cores.
//
// Build, one thread per vector row (V consecutive rows), merging the V rows' sorted columns:
//   1. count   the distinct columns of each vector row (and a flag for unsorted or bad columns)
//   (the host scans the counts, each rounded up to the stride, into vec_ptr)
//   2. fill    every distinct column becomes a vector: its column in vec_col, its V values in the
//              stride block's row-major V x STRIDE tile; the tail up to the stride repeats the last
//              column with zero values (vec_val is zeroed before)
//
// SpMM, C = alpha * A * B + beta * C, one warp per (vector row, TILE_N columns of B and C). The
// vector row is the mma's n side (V of its 8 columns) and B's columns its m side, so the product
// is formed transposed, C^T = B^T A^T, on mma.m16n8k32 s8 with exact int32 accumulation. For each
// stride block of the vector row:
//   sparse_fragment   the mma's B operand: two 32-bit loads straight from the block's tile
//   block_columns     the block's 32 columns, two 16-byte loads per thread
//   dense_fragment    the mma's A operand, B^T: B's rows of those columns gathered and packed
//                     four k's to a register (the online transpose of the dense operand)
//   mma_s8            one mma per 16 columns of B
// then store: alpha * acc + beta * C, rows past m and columns past n skipped.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/scalar.cuh"
#include <stdint.h>

namespace {

// Tiling, in one place (the launcher mirrors these in src/kernels/srbcrs.rs).
constexpr int STRIDE = 32;               // k depth of the int8 mma: vectors per stride block
constexpr int MAX_V = 8;                 // the mma's n: the longest vector
constexpr int WARP = 32;
constexpr int WARPS = 4;                 // warps per SpMM block, one vector row each
constexpr int M_TILES = 4;               // 16-column slices of B and C per warp
constexpr int TILE_N = 16 * M_TILES;     // columns of B and C per warp
constexpr int BUILD_BLOCK = 256;         // threads of a build block

// ---- build: merging a vector row's CSR rows ----------------------------------------------------

__device__ __forceinline__ int64_t load_index(uint64_t array, int64_t i, int wide) {
    return wide ? reinterpret_cast<const int64_t*>(array)[i] : int64_t(reinterpret_cast<const int32_t*>(array)[i]);
}

// Visits vector row g's distinct columns in increasing order: emit(s, c, -1, 0) once per column
// (s counts them from 0), then emit(s, c, r, v) for each of its rows r holding an entry there.
// Returns the number of columns, or -1 when a row's columns are not strictly increasing or one lies
// outside [0, cols).
template <typename Emit>
__device__ int64_t merge_vector_row(const SrBcrsBuildParams& p, int64_t g, Emit emit) {
    int64_t at[MAX_V], end[MAX_V];
    for (int r = 0; r < MAX_V; ++r) {
        const int64_t row = g * p.vector_length + r;
        const bool real = r < p.vector_length && row < p.rows;
        at[r] = real ? load_index(p.row_ptr, row, p.offsets_64) - p.base : 0;
        end[r] = real ? load_index(p.row_ptr, row + 1, p.offsets_64) - p.base : 0;
    }
    const int8_t* val = reinterpret_cast<const int8_t*>(p.values);
    int64_t s = 0;
    for (;;) {
        int64_t c = INT64_MAX;
        for (int r = 0; r < MAX_V; ++r)
            if (at[r] < end[r]) c = min(c, load_index(p.col_ind, at[r], p.indices_64) - p.base);
        if (c == INT64_MAX) return s;
        if (c < 0 || c >= p.cols) return -1;
        emit(s, c, -1, int8_t(0));
        for (int r = 0; r < MAX_V; ++r) {
            if (at[r] >= end[r] || load_index(p.col_ind, at[r], p.indices_64) - p.base != c) continue;
            emit(s, c, r, val[at[r]]);
            ++at[r];
            if (at[r] < end[r] && load_index(p.col_ind, at[r], p.indices_64) - p.base <= c) return -1;
        }
        ++s;
    }
}

// ---- 1. count -----------------------------------------------------------------------------------
__device__ void count(const SrBcrsBuildParams& p) {
    int32_t* counts = reinterpret_cast<int32_t*>(p.counts);
    for (int64_t g = grid::global_thread(); g < p.vector_rows; g += grid::thread_count()) {
        const int64_t n = merge_vector_row(p, g, [](int64_t, int64_t, int, int8_t) {});
        counts[g] = n < 0 ? 0 : int32_t(n);
        if (n < 0) atomicExch(&counts[p.vector_rows], 1);
    }
}

// ---- 2. fill ------------------------------------------------------------------------------------
__device__ void fill(const SrBcrsBuildParams& p) {
    const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
    int32_t* vec_col = reinterpret_cast<int32_t*>(p.vec_col);
    int8_t* vec_val = reinterpret_cast<int8_t*>(p.vec_val);
    const int V = p.vector_length;
    for (int64_t g = grid::global_thread(); g < p.vector_rows; g += grid::thread_count()) {
        const int64_t first = vec_ptr[g], stop = vec_ptr[g + 1];
        int32_t last = 0;
        const int64_t n = merge_vector_row(p, g, [&](int64_t s, int64_t c, int r, int8_t v) {
            const int64_t at = first + s;
            if (r < 0) {
                vec_col[at] = int32_t(c);
                last = int32_t(c);
            } else {
                vec_val[(at / STRIDE) * STRIDE * V + r * STRIDE + at % STRIDE] = v;
            }
        });
        // Padding vectors: a column already read (B's row is in cache), values left zero.
        for (int64_t at = first + (n < 0 ? 0 : n); at < stop; ++at) vec_col[at] = last;
    }
}

// ---- SpMM stages --------------------------------------------------------------------------------

struct Lane {
    int group;   // the mma's groupID: a row of the A fragment, a column (vector row entry) of B
    int thread;  // its threadID_in_group: which four k's
};

// The mma's B operand (A^T, 32 k x 8 n) for stride block `block`: entry r = group of the vector
// takes k = 4 thread .. + 3 and 16 + 4 thread .. + 3, contiguous in the tile. Groups past V: zero.
__device__ __forceinline__ void sparse_fragment(const SrBcrsSpmmParams& p, int64_t block, Lane l, uint32_t b[2]) {
    if (l.group >= p.vector_length) {
        b[0] = b[1] = 0;
        return;
    }
    const int8_t* tile = reinterpret_cast<const int8_t*>(p.vec_val) + block * STRIDE * p.vector_length + l.group * STRIDE;
    b[0] = *reinterpret_cast<const uint32_t*>(tile + 4 * l.thread);
    b[1] = *reinterpret_cast<const uint32_t*>(tile + 16 + 4 * l.thread);
}

// The columns of this lane's k's: cols[0..3] for k = 4 thread + i, cols[4..7] for 16 + 4 thread + i.
__device__ __forceinline__ void block_columns(const SrBcrsSpmmParams& p, int64_t block, Lane l, int4 cols[2]) {
    const int4* c = reinterpret_cast<const int4*>(reinterpret_cast<const int32_t*>(p.vec_col) + block * STRIDE);
    cols[0] = c[l.thread];
    cols[1] = c[4 + l.thread];
}

__device__ __forceinline__ uint32_t dense_byte(const SrBcrsSpmmParams& p, int32_t k, int64_t n) {
    if (n >= p.n) return 0;
    return uint8_t(reinterpret_cast<const int8_t*>(p.b)[k * p.b_row_stride + n * p.b_col_stride]);
}

// Four k's of B's column n packed into a register, k ascending from the low byte.
__device__ __forceinline__ uint32_t pack_column(const SrBcrsSpmmParams& p, int4 k, int64_t n) {
    return dense_byte(p, k.x, n) | dense_byte(p, k.y, n) << 8 | dense_byte(p, k.z, n) << 16 | dense_byte(p, k.w, n) << 24;
}

// The mma's A operand (B^T, 16 columns of B x 32 k) for B's columns n0 .. n0 + 15: rows group and
// group + 8, k's as in block_columns.
__device__ __forceinline__ void dense_fragment(const SrBcrsSpmmParams& p, const int4 cols[2], int64_t n0, Lane l, uint32_t a[4]) {
    const int64_t lo = n0 + l.group, hi = lo + 8;
    a[0] = pack_column(p, cols[0], lo);
    a[1] = pack_column(p, cols[0], hi);
    a[2] = pack_column(p, cols[1], lo);
    a[3] = pack_column(p, cols[1], hi);
}

__device__ __forceinline__ void mma_s8(int32_t d[4], const uint32_t a[4], const uint32_t b[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// alpha * acc + beta * old: int32 wraps as two's complement (as the reference does), FP32 rounds
// once per operation. beta == 0 never reads C.
template <typename T>
struct Epilogue;
template <>
struct Epilogue<int32_t> {
    int32_t alpha, beta;
    __device__ int32_t operator()(int32_t acc, const int32_t* c) const {
        uint32_t v = uint32_t(alpha) * uint32_t(acc);
        if (beta != 0) v += uint32_t(beta) * uint32_t(*c);
        return int32_t(v);
    }
};
template <>
struct Epilogue<float> {
    float alpha, beta;
    __device__ float operator()(int32_t acc, const float* c) const {
        // Rounded operations, never contracted into an fma: the reference rounds each one.
        const float v = __fmul_rn(alpha, float(acc));
        return beta != 0.0f ? __fadd_rn(v, __fmul_rn(beta, *c)) : v;
    }
};

// D's entries: d[0], d[1] at B column group, vector entries 2 thread, 2 thread + 1; d[2], d[3] at
// column group + 8.
template <typename T>
__device__ __forceinline__ void store(const SrBcrsSpmmParams& p, const Epilogue<T>& e, int64_t g, int64_t n0, Lane l, const int32_t d[4]) {
    T* c = reinterpret_cast<T*>(p.c);
    for (int i = 0; i < 4; ++i) {
        const int r = 2 * l.thread + (i & 1);
        const int64_t row = g * p.vector_length + r;
        const int64_t col = n0 + l.group + (i >= 2 ? 8 : 0);
        if (r >= p.vector_length || row >= p.m || col >= p.n) continue;
        T* at = c + row * p.c_row_stride + col * p.c_col_stride;
        *at = e(d[i], at);
    }
}

template <typename T>
__device__ void spmm(const SrBcrsSpmmParams& p) {
    const int64_t g = int64_t(blockIdx.x) * WARPS + threadIdx.x / WARP;
    if (g >= p.vector_rows) return;  // the whole warp: the mma needs all its lanes
    const int lane = threadIdx.x % WARP;
    const Lane l{lane / 4, lane % 4};
    const int64_t n_first = int64_t(blockIdx.y) * TILE_N;
    const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
    const int64_t first = vec_ptr[g] / STRIDE, stop = vec_ptr[g + 1] / STRIDE;

    int32_t acc[M_TILES][4] = {};
    for (int64_t block = first; block < stop; ++block) {
        uint32_t b[2];
        int4 cols[2];
        sparse_fragment(p, block, l, b);
        block_columns(p, block, l, cols);
#pragma unroll
        for (int t = 0; t < M_TILES; ++t) {
            uint32_t a[4];
            dense_fragment(p, cols, n_first + 16 * t, l, a);
            mma_s8(acc[t], a, b);
        }
    }
    const Epilogue<T> e{load_scalar<T>(p.alpha), load_scalar<T>(p.beta)};
#pragma unroll
    for (int t = 0; t < M_TILES; ++t) store<T>(p, e, g, n_first + 16 * t, l, acc[t]);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_count(const SrBcrsBuildParams p) { count(p); }
extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_fill(const SrBcrsBuildParams p) { fill(p); }
extern "C" __global__ void __launch_bounds__(WARPS * WARP) oxs_srbcrs_spmm_i8_i32(const SrBcrsSpmmParams p) { spmm<int32_t>(p); }
extern "C" __global__ void __launch_bounds__(WARPS * WARP) oxs_srbcrs_spmm_i8_f32(const SrBcrsSpmmParams p) { spmm<float>(p); }
