// SR-BCRS int8 SDDMM (docs/design/srbcrs.md, "SDDMM"): out = alpha * (A B) at the object's stored
// slots + beta * out, A (m x k) and B (k x cols) int8 dense, on mma.m16n8k32 s8 with exact int32
// accumulation. The object's stored vectors are the mask; `out` is laid out as its values.
//
// A warp per stride block: 32 vectors of one vector row, i.e. V rows of A against 32 columns of
// B. The product is formed transposed, out^T = B^T A^T: the block's vectors are the mma's m side
// (two 16-vector tiles) and the vector row's V rows its n side (V of its 8 columns). Every k is
// read from a line (a row of A, a column of B), so for each step of 64 k's:
//   load_stage   the lane's 16 bytes of its A row (the mma's B operand) and of its four vectors'
//                B columns (the A operand): 16-byte loads when the lines are k-contiguous and
//                aligned, bytes otherwise (and for the last, partial step)
//   mma_s8       two per tile, one per 32 k's
// with the next step's loads issued before this step's mmas; then store: alpha * acc + beta * out
// at the slots of real vectors and rows < m; 0 at padding vectors and at the missing rows of a
// partial last vector row.
//
// Which physical k an mma k slot stands for is ours to choose, provided both operands agree: lane
// (group g, thread t) holds slots 4 t .. 4 t + 3 and 16 + 4 t .. + 3 of both fragments, and here
// they are k0 + 16 t + 8 s + 0 .. 3 and + 4 .. 7 for the step's mma s. So a lane's k's for the
// whole step are 16 contiguous bytes of each line.
#include "oxsparse_kernel_params.h"
#include "common/scalar.cuh"
#include <stdint.h>

namespace {

// Tiling, in one place (the launcher mirrors these in src/kernels/srbcrs_sddmm.rs).
constexpr int STRIDE = 32;            // vectors per stride block (the object's layout)
constexpr int WARP = 32;
constexpr int WARPS = 2;              // warps per block, one stride block each (small blocks spread
                                      // the few warps of a small mask over more SMs)
constexpr int TILES = STRIDE / 16;    // 16-vector mma tiles per stride block
constexpr int K_STEP = 64;            // k's per step: 16 bytes of each line per lane

struct Lane {
    int group;   // the mma's groupID: a vector (row of the A fragment), a row of A (column of B)
    int thread;  // its threadID_in_group: which 16 k's of the step
};

// A row of A or a column of B: element k at base[k * step]. A null base reads as zeros (rows past
// V or past m).
struct Line {
    const int8_t* base;
    int64_t step;
};

// What one step gives a lane: 16 bytes of its A row, and of the B columns of vectors
// 16 i + group + 8 h (cols[i][h]), bytes in k order from the low byte of x.
struct Stage {
    uint4 row;
    uint4 cols[TILES][2];
};

// The vector row holding stride block `block`: the last g with vec_ptr[g] <= 32 block (empty
// vector rows hold no blocks, so their offsets repeat).
__device__ int64_t vector_row_of(const SrBcrsSddmmParams& p, int64_t block) {
    const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
    const int64_t at = block * STRIDE;
    int64_t lo = 0, hi = p.vector_rows;  // vec_ptr[lo] <= at < vec_ptr[hi]
    while (hi - lo > 1) {
        const int64_t mid = (lo + hi) / 2;
        if (vec_ptr[mid] <= at) lo = mid;
        else hi = mid;
    }
    return lo;
}

// 16 elements of a line from k0 by bytes, zero at k or past. Out of line: it is the edge path,
// and inlined five times over its 16 loads would crowd the wide path's registers.
__device__ __noinline__ uint4 line_bytes(Line line, int64_t k0, int64_t k) {
    uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
    for (int i = 0; i < 16; ++i)
        if (k0 + i < k) w[i / 4] |= uint32_t(uint8_t(line.base[(k0 + i) * line.step])) << (8 * (i % 4));
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// 16 elements of a line from k0: one 16-byte load (WIDE: the line is k-contiguous, 16-byte
// aligned, and k0 + 16 <= k), else bytes.
template <bool WIDE>
__device__ __forceinline__ uint4 line16(Line line, int64_t k0, int64_t k) {
    if (line.base == nullptr) return make_uint4(0, 0, 0, 0);
    if (WIDE) return *reinterpret_cast<const uint4*>(line.base + k0);
    return line_bytes(line, k0, k);
}

template <bool WIDE>
__device__ __forceinline__ void load_stage(const SrBcrsSddmmParams& p, Line row, const Line cols[TILES][2], int64_t k0, Lane l, Stage& s) {
    const int64_t at = k0 + 16 * l.thread;
    s.row = line16<WIDE>(row, at, p.k);
#pragma unroll
    for (int i = 0; i < TILES; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) s.cols[i][h] = line16<WIDE>(cols[i][h], at, p.k);
}

__device__ __forceinline__ void mma_s8(int32_t d[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// The step's two mmas per tile: A fragment {vector g, vector g + 8 at the first four k's of the
// slot pair; the same at the next four}, B fragment the A row's same k's.
__device__ __forceinline__ void mma_stage(const Stage& s, int32_t acc[TILES][4]) {
#pragma unroll
    for (int i = 0; i < TILES; ++i) {
        const uint4 &v0 = s.cols[i][0], &v8 = s.cols[i][1];
        mma_s8(acc[i], v0.x, v8.x, v0.y, v8.y, s.row.x, s.row.y);
        mma_s8(acc[i], v0.z, v8.z, v0.w, v8.w, s.row.z, s.row.w);
    }
}

// The steps from k0 (a multiple of K_STEP) up to `stop`. WIDE: the next one's loads are issued
// before the current one's mmas (double buffering in registers); bytes: one step at a time (the
// edge, or lines the wide loads cannot read, where registers matter more than latency).
template <bool WIDE>
__device__ __forceinline__ void accumulate(const SrBcrsSddmmParams& p, Line row, const Line cols[TILES][2], int64_t k0, int64_t stop, Lane l, int32_t acc[TILES][4]) {
    Stage current, next;
    if (!WIDE) {
#pragma unroll 1
        for (; k0 < stop; k0 += K_STEP) {
            load_stage<false>(p, row, cols, k0, l, current);
            mma_stage(current, acc);
        }
        return;
    }
    if (k0 < stop) load_stage<true>(p, row, cols, k0, l, current);
    for (; k0 < stop; k0 += K_STEP) {
        const bool more = k0 + K_STEP < stop;
        if (more) load_stage<true>(p, row, cols, k0 + K_STEP, l, next);
        mma_stage(current, acc);
        if (more) current = next;
    }
}

// alpha * acc + beta * old: int32 wraps as two's complement (as the reference does), FP32 rounds
// once per operation. beta == 0 never reads the output.
template <typename T>
struct Epilogue;
template <>
struct Epilogue<int32_t> {
    int32_t alpha, beta;
    __device__ int32_t operator()(int32_t acc, const int32_t* old) const {
        uint32_t v = uint32_t(alpha) * uint32_t(acc);
        if (beta != 0) v += uint32_t(beta) * uint32_t(*old);
        return int32_t(v);
    }
};
template <>
struct Epilogue<float> {
    float alpha, beta;
    __device__ float operator()(int32_t acc, const float* old) const {
        // Rounded operations, never contracted into an fma: the reference rounds each one.
        const float v = __fmul_rn(alpha, float(acc));
        return beta != 0.0f ? __fadd_rn(v, __fmul_rn(beta, *old)) : v;
    }
};

// D's entries of tile i: d[0], d[1] at rows 2 thread, 2 thread + 1 of the vector row for vector
// 16 i + group; d[2], d[3] the same for vector 16 i + group + 8. Slot (vector, r) of the block is
// out[block * 32 V + r * 32 + vector % 32], the object's value order.
template <typename T>
__device__ __forceinline__ void store(const SrBcrsSddmmParams& p, const Epilogue<T>& e, int64_t block, int64_t g, Lane l, const bool real[TILES][2], const int32_t acc[TILES][4]) {
    T* out = reinterpret_cast<T*>(p.out) + block * STRIDE * p.vector_length;
#pragma unroll
    for (int i = 0; i < TILES; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int r = 2 * l.thread + (j & 1), h = j >> 1;
            if (r >= p.vector_length) continue;
            T* at = out + r * STRIDE + 16 * i + 8 * h + l.group;
            const bool live = real[i][h] && g * p.vector_length + r < p.m;
            *at = live ? e(acc[i][j], at) : T(0);
        }
}

template <typename T>
__device__ void sddmm(const SrBcrsSddmmParams& p) {
    const int64_t block = int64_t(blockIdx.x) * WARPS + threadIdx.x / WARP;
    if (block >= p.blocks) return;  // the whole warp: the mma needs all its lanes
    const int lane = threadIdx.x % WARP;
    const Lane l{lane / 4, lane % 4};
    const int64_t g = vector_row_of(p, block);
    const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
    const int32_t* vec_col = reinterpret_cast<const int32_t*>(p.vec_col);
    const int8_t* a = reinterpret_cast<const int8_t*>(p.a);
    const int8_t* b = reinterpret_cast<const int8_t*>(p.b);

    // The lane's A row (none past V or m) and its four vectors' B columns. Padding vectors repeat
    // the vector row's last column; a real vector's column is larger than the one before it.
    const int64_t row = g * p.vector_length + l.group;
    const bool has_row = l.group < p.vector_length && row < p.m;
    const Line a_row{has_row ? a + row * p.a_row_stride : nullptr, p.a_col_stride};
    Line cols[TILES][2];
    bool real[TILES][2];
#pragma unroll
    for (int i = 0; i < TILES; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int64_t v = block * STRIDE + 16 * i + 8 * h + l.group;
            const int32_t c = vec_col[v];
            real[i][h] = v == vec_ptr[g] || c != vec_col[v - 1];
            cols[i][h] = Line{b + c * p.b_col_stride, p.b_row_stride};
        }

    int32_t acc[TILES][4] = {};
    const int64_t wide = p.lines16 ? p.k / K_STEP * K_STEP : 0;
    accumulate<true>(p, a_row, cols, 0, wide, l, acc);
    accumulate<false>(p, a_row, cols, wide, p.k, l, acc);
    const Epilogue<T> e{load_scalar<T>(p.alpha), load_scalar<T>(p.beta)};
    store<T>(p, e, block, g, l, real, acc);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(WARPS * WARP) oxs_srbcrs_sddmm_i8_i32(const SrBcrsSddmmParams p) { sddmm<int32_t>(p); }
extern "C" __global__ void __launch_bounds__(WARPS * WARP) oxs_srbcrs_sddmm_i8_f32(const SrBcrsSddmmParams p) { sddmm<float>(p); }
