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
//   load_stage        sparse_fragment (the mma's B operand: two 32-bit loads straight from the
//                     block's tile), block_columns (the lane's 8 k's columns, two 16-byte loads),
//                     dense_chunk (B's row at each k over the lane's 8 columns: one 8-byte load)
//   dense_fragments   the online transpose of the dense operand in registers (byte permutes):
//                     the mma's A operand, B^T, four k's to a register, no shuffles
//   mma_s8            one mma per 16 columns
// with the next block's loads issued before this block's mmas; then store: alpha * acc + beta *
// C, rows past m and columns past n skipped.
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
    int64_t at[MAX_V], end[MAX_V];  // unrolled loops keep the cursors in registers
#pragma unroll
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
#pragma unroll
        for (int r = 0; r < MAX_V; ++r)
            if (at[r] < end[r]) c = min(c, load_index(p.col_ind, at[r], p.indices_64) - p.base);
        if (c == INT64_MAX) return s;
        if (c < 0 || c >= p.cols) return -1;
        emit(s, c, -1, int8_t(0));
#pragma unroll
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
//
// Which of the warp's TILE_N columns of B and C an mma row stands for is ours to choose: lane
// (group g, thread t) holds mma rows g and g + 8 of each of the M_TILES tiles, and row g of tile
// i is column 8 g + i, row g + 8 column 8 g + 4 + i. So a lane's eight columns are contiguous
// and, for each of its k's, one 8-byte load of a B row gives all of them.

struct Lane {
    int group;   // the mma's groupID: a row of the A fragment, a column (vector row entry) of B
    int thread;  // its threadID_in_group: which four k's
};

// What one stride block gives a lane: the sparse fragment, and B's rows at its eight k's
// (4 thread + j, then 16 + 4 thread + j), each over the lane's eight columns.
struct Stage {
    uint32_t sparse[2];
    uint2 dense[8];
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

// The columns of this lane's k's: cols[0] for k = 4 thread + i, cols[1] for 16 + 4 thread + i.
__device__ __forceinline__ void block_columns(const SrBcrsSpmmParams& p, int64_t block, Lane l, int4 cols[2]) {
    const int4* c = reinterpret_cast<const int4*>(reinterpret_cast<const int32_t*>(p.vec_col) + block * STRIDE);
    cols[0] = c[l.thread];
    cols[1] = c[4 + l.thread];
}

// B's row k at columns n .. n + 7, bytes in column order; columns past N read as zero. WHOLE:
// the warp's columns all lie inside B and its rows are 8-byte aligned (one 8-byte load).
template <bool WHOLE>
__device__ __forceinline__ uint2 dense_chunk(const SrBcrsSpmmParams& p, int32_t k, int64_t n) {
    const int8_t* b = reinterpret_cast<const int8_t*>(p.b);
    if (WHOLE) return *reinterpret_cast<const uint2*>(b + k * p.b_row_stride + n);
    uint32_t w[2] = {0, 0};
    for (int i = 0; i < 8; ++i)
        if (n + i < p.n) w[i / 4] |= uint32_t(uint8_t(b[k * p.b_row_stride + (n + i) * p.b_col_stride])) << (8 * (i % 4));
    return make_uint2(w[0], w[1]);
}

template <bool WHOLE>
__device__ __forceinline__ void load_stage(const SrBcrsSpmmParams& p, int64_t block, int64_t n_lane, Lane l, Stage& s) {
    int4 cols[2];
    sparse_fragment(p, block, l, s.sparse);
    block_columns(p, block, l, cols);
    const int32_t k[8] = {cols[0].x, cols[0].y, cols[0].z, cols[0].w, cols[1].x, cols[1].y, cols[1].z, cols[1].w};
#pragma unroll
    for (int j = 0; j < 8; ++j) s.dense[j] = dense_chunk<WHOLE>(p, k[j], n_lane);
}

// The online transpose: four words (one per k, four columns each) become four words (one per
// column, four k's each, k ascending from the low byte).
__device__ __forceinline__ void transpose4(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, uint32_t out[4]) {
    const uint32_t lo01 = __byte_perm(w0, w1, 0x5140), lo23 = __byte_perm(w2, w3, 0x5140);
    const uint32_t hi01 = __byte_perm(w0, w1, 0x7362), hi23 = __byte_perm(w2, w3, 0x7362);
    out[0] = __byte_perm(lo01, lo23, 0x5410);
    out[1] = __byte_perm(lo01, lo23, 0x7632);
    out[2] = __byte_perm(hi01, hi23, 0x5410);
    out[3] = __byte_perm(hi01, hi23, 0x7632);
}

// The mma's A operand (B^T, 16 rows x 32 k) of every tile: a[i] = {row g, row g + 8 at the first
// 16 k's; the same at the last 16}, i.e. columns 8 g + i and 8 g + 4 + i.
__device__ __forceinline__ void dense_fragments(const Stage& s, uint32_t a[M_TILES][4]) {
    static_assert(M_TILES == 4, "a lane's 8 columns are 2 words of 4 tiles");
    uint32_t t[4][4];
    transpose4(s.dense[0].x, s.dense[1].x, s.dense[2].x, s.dense[3].x, t[0]);  // first k's, row g
    transpose4(s.dense[0].y, s.dense[1].y, s.dense[2].y, s.dense[3].y, t[1]);  // first k's, row g + 8
    transpose4(s.dense[4].x, s.dense[5].x, s.dense[6].x, s.dense[7].x, t[2]);  // last k's, row g
    transpose4(s.dense[4].y, s.dense[5].y, s.dense[6].y, s.dense[7].y, t[3]);  // last k's, row g + 8
#pragma unroll
    for (int i = 0; i < M_TILES; ++i) {
        a[i][0] = t[0][i];
        a[i][1] = t[1][i];
        a[i][2] = t[2][i];
        a[i][3] = t[3][i];
    }
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

// D's entries of tile i: d[0], d[1] at vector entries 2 thread, 2 thread + 1 of mma row g (B
// column 8 g + i); d[2], d[3] the same at row g + 8 (column 8 g + 4 + i).
template <typename T>
__device__ __forceinline__ void store(const SrBcrsSpmmParams& p, const Epilogue<T>& e, int64_t g, int64_t n_lane, int tile, Lane l, const int32_t d[4]) {
    T* c = reinterpret_cast<T*>(p.c);
    for (int i = 0; i < 4; ++i) {
        const int r = 2 * l.thread + (i & 1);
        const int64_t row = g * p.vector_length + r;
        const int64_t col = n_lane + (i >= 2 ? 4 : 0) + tile;
        if (r >= p.vector_length || row >= p.m || col >= p.n) continue;
        T* at = c + row * p.c_row_stride + col * p.c_col_stride;
        *at = e(d[i], at);
    }
}

// The stride blocks first .. stop - 1 in order, the next one's loads issued before the current
// one's mmas (double buffering in registers).
template <bool WHOLE>
__device__ __forceinline__ void accumulate(const SrBcrsSpmmParams& p, int64_t first, int64_t stop, int64_t n_lane, Lane l, int32_t acc[M_TILES][4]) {
    Stage current, next;
    if (first < stop) load_stage<WHOLE>(p, first, n_lane, l, current);
    for (int64_t block = first; block < stop; ++block) {
        const bool more = block + 1 < stop;
        if (more) load_stage<WHOLE>(p, block + 1, n_lane, l, next);
        uint32_t a[M_TILES][4];
        dense_fragments(current, a);
#pragma unroll
        for (int t = 0; t < M_TILES; ++t) mma_s8(acc[t], a[t], current.sparse);
        if (more) current = next;
    }
}

// A warp per (vector row, TILE_N columns).
template <typename T>
__device__ void spmm(const SrBcrsSpmmParams& p) {
    const int64_t g = int64_t(blockIdx.x) * WARPS + threadIdx.x / WARP;
    if (g >= p.vector_rows) return;  // the whole warp: the mma needs all its lanes
    const int lane = threadIdx.x % WARP;
    const Lane l{lane / 4, lane % 4};
    const int64_t n_first = int64_t(blockIdx.y) * TILE_N, n_lane = n_first + 8 * l.group;
    const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
    const int64_t first = vec_ptr[g] / STRIDE, stop = vec_ptr[g + 1] / STRIDE;

    int32_t acc[M_TILES][4] = {};
    if (p.b_aligned8 && n_first + TILE_N <= p.n) accumulate<true>(p, first, stop, n_lane, l, acc);
    else accumulate<false>(p, first, stop, n_lane, l, acc);
    const Epilogue<T> e{load_scalar<T>(p.alpha), load_scalar<T>(p.beta)};
#pragma unroll
    for (int t = 0; t < M_TILES; ++t) store<T>(p, e, g, n_lane, t, l, acc[t]);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_count(const SrBcrsBuildParams p) { count(p); }
extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_fill(const SrBcrsBuildParams p) { fill(p); }
extern "C" __global__ void __launch_bounds__(WARPS * WARP) oxs_srbcrs_spmm_i8_i32(const SrBcrsSpmmParams p) { spmm<int32_t>(p); }
extern "C" __global__ void __launch_bounds__(WARPS * WARP) oxs_srbcrs_spmm_i8_f32(const SrBcrsSpmmParams p) { spmm<float>(p); }
