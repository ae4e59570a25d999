// SR-BCRS integer SDDMM (docs/design/srbcrs.md, "SDDMM"): out = alpha * (A B) at the object's
// stored slots + beta * out, A (m x k) of LA bits and B (k x cols) of LB bits (int4, int8 or
// int16, LA >= LB), on mma.m16n8k32 s8/u8 with exact int32 accumulation. The object's stored
// vectors are the mask; `out` is laid out as its values (its stride: 32, or 64 for int4 objects).
//
// A warp per 32 vectors of one vector row (a stride block of int8 and int16 objects, half of
// one of int4's), i.e. V rows of A against 32 columns of B. The product is formed transposed,
// out^T = B^T A^T: the warp's vectors are the mma's m side (two 16-vector tiles) and the vector
// row's V rows its n side (V of its 8 columns). Every k is read from a line (a row of A, a column
// of B), so for each step of 4 ELEMS k's:
//   load_stage   the lane's ELEMS elements of its A row (the mma's B operand) and of its four
//                vectors' B columns (the A operand), as stored: 16-byte loads when the lines are
//                k-contiguous and aligned (a lane's piece that straddles k is read in one more
//                step, element by element), elements one by one otherwise
//   to_parts     int4 widened to bytes, int16 split into signed high and unsigned low bytes
//   mma_stage    ELEMS / 8 mmas per tile and pair of parts into the accumulator of the pair's
//                weight (1, 256 or 65536)
// with the next step's loads issued before this step's mmas; then store: alpha * acc + beta * out
// (the parts' sums combined by shifts, modulo 2^32) at the slots of real vectors and rows < m;
// 0 at padding vectors and at the missing rows of a partial last vector row.
//
// Which physical k an mma k slot stands for is ours to choose, provided both operands agree: lane
// (group g, thread t) holds slots 4 t .. 4 t + 3 and 16 + 4 t .. + 3 of both fragments, and here
// they stand for the lane's ELEMS contiguous k's of the step, k0 + ELEMS t + ..., in the order
// the pair's parts hold them (k order, or even / odd k's for the int4 pairs that can take it
// cheaply). So a lane reads whole 16-byte pieces of each line and every type becomes byte words.
#include "oxsparse_kernel_params.h"
#include "common/int_mma.cuh"
#include "common/scalar.cuh"
#include <stdint.h>

namespace {

// Tiling, in one place (the launcher mirrors these in src/kernels/srbcrs_sddmm.rs).
constexpr int WARP_VECTORS = 32;         // vectors per warp (object strides are multiples of it)
constexpr int WARP = 32;
constexpr int WARPS = 2;                 // warps per block (small blocks spread the few warps of
                                         // a small mask over more SMs)
constexpr int TILES = WARP_VECTORS / 16; // 16-vector mma tiles per warp

// Elements of each line a lane takes per step (the kernels' N): 16 (int8: one 16-byte load), 32 for
// the pairs with an int4 operand (its 16 bytes, so that int4 halves the steps and their loads, not
// their bytes); the int4 pairs' half-step kernels take 16 (an 8-byte piece of int4) where K leaves
// a 128-k step half empty, or its registers cost more than its fewer steps save (the launcher's
// `half_steps`).
template <int LA, int LB>
constexpr int ELEMS = LA == 4 || LB == 4 ? 32 : 16;
// Parts in even / odd k order (int4's cheapest widening; int8's side takes two byte permutes) or
// in k order (int16's split keeps it; its int4 partner then interleaves).
template <int LA, int LB>
constexpr bool EVEN_ODD = LA <= 8 && LB == 4;

struct Lane {
    int group;   // the mma's groupID: a vector (row of the A fragment), a row of A (column of B)
    int thread;  // its threadID_in_group: which ELEMS k's of the step
};

// A row of A or a column of B: element k at element index first + k * step of `array` (int4 two
// to a byte, the lower index in the low nibble; int16 little-endian). A null array reads as zeros
// (rows past V or past m).
struct Line {
    const uint8_t* array;
    int64_t first;
    int64_t step;
};

// N consecutive elements of a line as stored (int4 nibbles, int8 bytes, int16 halves); element
// i at bits BITS i .. BITS (i + 1) - 1 of the words taken as one little-endian number.
template <int BITS, int N>
struct Raw {
    uint32_t w[N * BITS / 32];
};

// The same N elements as the int8 mma takes them: N / 4 byte words per part, one part (int4
// widened to bytes, int8) or two (int16: the signed high bytes, the unsigned low).
template <int BITS, int N>
struct Parts {
    static constexpr int COUNT = BITS == 16 ? 2 : 1;
    uint32_t w[COUNT][N / 4];
};

// Element e's stored bits (zero-extended).
template <int BITS>
__device__ __forceinline__ uint32_t element_bits(const uint8_t* array, int64_t e) {
    if constexpr (BITS == 4) return (array[e >> 1] >> (4 * (e & 1))) & 0xFu;
    else if constexpr (BITS == 8) return array[e];
    else return array[2 * e] | uint32_t(array[2 * e + 1]) << 8;
}

// N elements of a line from k0 one at a time, zero at k or past. Out of line: it is the edge
// path, and inlined five times over its loads would crowd the wide path's registers.
template <int BITS, int N>
__device__ __noinline__ Raw<BITS, N> line_elements(Line line, int64_t k0, int64_t k) {
    Raw<BITS, N> r = {};
#pragma unroll
    for (int i = 0; i < N; ++i)
        if (k0 + i < k) r.w[i * BITS / 32] |= element_bits<BITS>(line.array, line.first + (k0 + i) * line.step) << (i * BITS % 32);
    return r;
}

// How a step reads its lines: WIDE, 16-byte loads (the line is k-contiguous and 16-byte aligned),
// each lane's piece wholly before k, zeros for a piece that is not (the one that straddles k is
// then read by a step of ELEMENTS, lane 0's); ELEMENTS, one by one, zeros at k or past.
enum class Read { WIDE, ELEMENTS };

// N elements of a line from k0, read as R says.
template <int BITS, int N, Read R>
__device__ __forceinline__ Raw<BITS, N> line_load(Line line, int64_t k0, int64_t k) {
    if (line.array == nullptr) return Raw<BITS, N>{};
    if constexpr (R == Read::ELEMENTS) {
        return line_elements<BITS, N>(line, k0, k);
    } else {
        if (k0 + N > k) return Raw<BITS, N>{};
        Raw<BITS, N> r;
        if constexpr (N * BITS == 64) {  // int4 at 16 elements a lane: one 8-byte load
            const uint2 x = *reinterpret_cast<const uint2*>(line.array + (line.first + k0) * BITS / 8);
            r.w[0] = x.x;
            r.w[1] = x.y;
            return r;
        }
        const uint4* at = reinterpret_cast<const uint4*>(line.array + (line.first + k0) * BITS / 8);
#pragma unroll
        for (int j = 0; j < N * BITS / 128; ++j) {
            const uint4 x = at[j];
            r.w[4 * j] = x.x;
            r.w[4 * j + 1] = x.y;
            r.w[4 * j + 2] = x.z;
            r.w[4 * j + 3] = x.w;
        }
        return r;
    }
}

// int4 nibble word -> two byte words: even / odd k's (SCALED: 16 times the value, three
// operations; else sign-extended), or in k order (the shared widening, with its interleave).
template <bool ORDER_EVEN_ODD, bool SCALED>
__device__ __forceinline__ uint2 widen_word(uint32_t w) {
    if constexpr (!ORDER_EVEN_ODD) return widen<SCALED>(w);
    if constexpr (SCALED) return make_uint2((w << 4) & 0xF0F0F0F0u, w & 0xF0F0F0F0u);
    const auto sign = [](uint32_t x) { return ((x ^ 0x08080808u) + 0x78787878u) ^ 0x80808080u; };
    return make_uint2(sign(w & 0x0F0F0F0Fu), sign((w >> 4) & 0x0F0F0F0Fu));
}

template <int BITS, int N, bool ORDER_EVEN_ODD, bool SCALED>
__device__ __forceinline__ Parts<BITS, N> to_parts(const Raw<BITS, N>& r) {
    Parts<BITS, N> p;
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {  // eight elements a time: k 8 j .. 8 j + 7
        if constexpr (BITS == 4) {
            const uint2 b = widen_word<ORDER_EVEN_ODD, SCALED>(r.w[j]);
            p.w[0][2 * j] = b.x;
            p.w[0][2 * j + 1] = b.y;
        } else if constexpr (BITS == 8 && ORDER_EVEN_ODD) {
            p.w[0][2 * j] = low_bytes(r.w[2 * j], r.w[2 * j + 1]);  // bytes 0, 2 of each: even k's
            p.w[0][2 * j + 1] = high_bytes(r.w[2 * j], r.w[2 * j + 1]);
        } else if constexpr (BITS == 8) {
            p.w[0][2 * j] = r.w[2 * j];
            p.w[0][2 * j + 1] = r.w[2 * j + 1];
        } else {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                p.w[0][2 * j + h] = high_bytes(r.w[4 * j + 2 * h], r.w[4 * j + 2 * h + 1]);
                p.w[1][2 * j + h] = low_bytes(r.w[4 * j + 2 * h], r.w[4 * j + 2 * h + 1]);
            }
        }
    }
    return p;
}

// What one step gives a lane, as loaded: its A row's elements, and those of the B columns of
// vectors 16 i + group + 8 h (cols[i][h]).
template <int LA, int LB, int N>
struct Stage {
    Raw<LA, N> row;
    Raw<LB, N> cols[TILES][2];
};

// Accumulators, one per weight: set s sums the products of parts whose weights multiply to 256^s
// (an int16 operand's high bytes weigh 256, every other part 1).
template <int LA, int LB>
constexpr int SETS = 1 + (LA == 16) + (LB == 16);
template <int LA, int LB, int PA, int PB>
constexpr int SET_OF = (LA == 16 && PA == 0) + (LB == 16 && PB == 0);

template <int LA, int LB, int N, Read R>
__device__ __forceinline__ void load_stage(const SrBcrsSddmmParams& p, Line row, const Line cols[TILES][2], int64_t k0, Lane l,
                                           Stage<LA, LB, N>& s) {
    const int64_t at = k0 + N * l.thread;
    s.row = line_load<LA, N, R>(row, at, p.k);
#pragma unroll
    for (int i = 0; i < TILES; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) s.cols[i][h] = line_load<LB, N, R>(cols[i][h], at, p.k);
}

// The mmas of part PB of tile i's vectors (the A fragment: vector g, vector g + 8 at a word's
// four k's, the same at the next word's) by part PA of the A row (the B fragment), a pair of
// words each.
template <int LA, int LB, int N, int PA, int PB>
__device__ __forceinline__ void mma_parts(const Parts<LA, N>& row, const Parts<LB, N>& v0, const Parts<LB, N>& v8, int32_t d[4]) {
#pragma unroll
    for (int s = 0; s < N / 8; ++s) {
        const uint32_t a[4] = {v0.w[PB][2 * s], v8.w[PB][2 * s], v0.w[PB][2 * s + 1], v8.w[PB][2 * s + 1]};
        const uint32_t b[2] = {row.w[PA][2 * s], row.w[PA][2 * s + 1]};
        mma_k32<PB == 0, PA == 0>(d, a, b);
    }
}

template <int LA, int LB, int N, bool SCALED>
__device__ __forceinline__ void mma_stage(const Stage<LA, LB, N>& s, int32_t acc[SETS<LA, LB>][TILES][4]) {
    constexpr bool EO = EVEN_ODD<LA, LB>;
    const Parts<LA, N> row = to_parts<LA, N, EO, SCALED>(s.row);
#pragma unroll
    for (int i = 0; i < TILES; ++i) {
        const Parts<LB, N> v0 = to_parts<LB, N, EO, SCALED>(s.cols[i][0]), v8 = to_parts<LB, N, EO, SCALED>(s.cols[i][1]);
        mma_parts<LA, LB, N, 0, 0>(row, v0, v8, acc[SET_OF<LA, LB, 0, 0>][i]);
        if constexpr (LA == 16) mma_parts<LA, LB, N, 1, 0>(row, v0, v8, acc[SET_OF<LA, LB, 1, 0>][i]);
        if constexpr (LB == 16) mma_parts<LA, LB, N, 0, 1>(row, v0, v8, acc[SET_OF<LA, LB, 0, 1>][i]);
        if constexpr (LA == 16 && LB == 16) mma_parts<LA, LB, N, 1, 1>(row, v0, v8, acc[SET_OF<LA, LB, 1, 1>][i]);
    }
}

// The steps from k0 (a multiple of the step) up to `stop`. WIDE: the next one's loads are issued
// before the current one's mmas (double buffering in registers); else one by one: a step at a
// time (lines the wide loads cannot read, where registers matter more than latency).
template <int LA, int LB, int N, bool SCALED, bool WIDE>
__device__ __forceinline__ void accumulate(const SrBcrsSddmmParams& p, Line row, const Line cols[TILES][2], int64_t k0, int64_t stop, Lane l,
                                           int32_t acc[SETS<LA, LB>][TILES][4]) {
    constexpr int K_STEP = 4 * N;
    Stage<LA, LB, N> current, next;
    if (!WIDE) {
#pragma unroll 1
        for (; k0 < stop; k0 += K_STEP) {
            load_stage<LA, LB, N, Read::ELEMENTS>(p, row, cols, k0, l, current);
            mma_stage<LA, LB, N, SCALED>(current, acc);
        }
        return;
    }
    if (k0 < stop) load_stage<LA, LB, N, Read::WIDE>(p, row, cols, k0, l, current);
    for (; k0 < stop; k0 += K_STEP) {
        const bool more = k0 + K_STEP < stop;
        if (more) load_stage<LA, LB, N, Read::WIDE>(p, row, cols, k0 + K_STEP, l, next);
        mma_stage<LA, LB, N, SCALED>(current, acc);
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

// The product's int32 value modulo 2^32: each set shifted back by the scaling of its int4
// operands (exact: the scaled sums are multiples of it and stayed in int32), then weighted by
// 256^s (shifts wrap, as the sums do).
template <int LA, int LB, bool SCALED>
__device__ __forceinline__ int32_t combined(const int32_t acc[SETS<LA, LB>][TILES][4], int i, int j) {
    constexpr int DESCALE = SCALED ? 4 * ((LA == 4) + (LB == 4)) : 0;
    uint32_t v = 0;
#pragma unroll
    for (int s = 0; s < SETS<LA, LB>; ++s) v += uint32_t(acc[s][i][j] >> DESCALE) << (8 * s);
    return int32_t(v);
}

// D's entries of tile i: d[0], d[1] at rows 2 thread, 2 thread + 1 of the vector row for vector
// 16 i + group; d[2], d[3] the same for vector 16 i + group + 8. Slot (vector q, row r) is at
// (q / S) S V + r S + q % S in the object's value order (S its stride, a power of two).
template <int LA, int LB, bool SCALED, typename T>
__device__ __forceinline__ void store(const SrBcrsSddmmParams& p, const Epilogue<T>& e, int64_t first, int64_t g, Lane l, const bool real[TILES][2],
                                      const int32_t acc[SETS<LA, LB>][TILES][4]) {
    const int64_t stride = p.stride, in_block = first & (stride - 1);
    T* out = reinterpret_cast<T*>(p.out) + (first - in_block) * p.vector_length + in_block;
#pragma unroll
    for (int i = 0; i < TILES; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int r = 2 * l.thread + (j & 1), h = j >> 1;
            if (r >= p.vector_length) continue;
            T* at = out + r * stride + 16 * i + 8 * h + l.group;
            const bool live = real[i][h] && g * p.vector_length + r < p.m;
            *at = live ? e(combined<LA, LB, SCALED>(acc, i, j), at) : T(0);
        }
}

template <int LA, int LB, bool SCALED, typename T, int N>
__device__ void sddmm(const SrBcrsSddmmParams& p) {
    const int64_t warp = int64_t(blockIdx.x) * WARPS + threadIdx.x / WARP;
    if (warp >= p.warps) return;  // the whole warp: the mma needs all its lanes
    const int lane = threadIdx.x % WARP;
    const Lane l{lane / 4, lane % 4};
    const int64_t first = warp * WARP_VECTORS;
    // The object records each 32 vectors' vector row (a table lookup, not a search).
    const int64_t g = reinterpret_cast<const int32_t*>(p.warp_row)[warp];
    const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
    const int32_t* vec_col = reinterpret_cast<const int32_t*>(p.vec_col);
    const uint8_t* a = reinterpret_cast<const uint8_t*>(p.a);
    const uint8_t* b = reinterpret_cast<const uint8_t*>(p.b);

    // The lane's A row (none past V or m) and its four vectors' B columns. Padding vectors repeat
    // the vector row's last column; a real vector's column is larger than the one before it.
    const int64_t row = g * p.vector_length + l.group;
    const bool has_row = l.group < p.vector_length && row < p.m;
    const Line a_row{has_row ? a : nullptr, row * p.a_row_stride, p.a_col_stride};
    Line cols[TILES][2];
    bool real[TILES][2];
#pragma unroll
    for (int i = 0; i < TILES; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int64_t v = first + 16 * i + 8 * h + l.group;
            const int32_t c = vec_col[v];
            real[i][h] = v == vec_ptr[g] || c != vec_col[v - 1];
            cols[i][h] = Line{b, c * p.b_col_stride, p.b_row_stride};
        }

    int32_t acc[SETS<LA, LB>][TILES][4] = {};
    if (p.wide_lines) {
        // Every step in vector loads, the last one's pieces past k as zeros; then the piece that
        // straddles k, if any, one element at a time.
        accumulate<LA, LB, N, SCALED, true>(p, a_row, cols, 0, p.k, l, acc);
        const int64_t straddled = p.k / N * N;
        accumulate<LA, LB, N, SCALED, false>(p, a_row, cols, straddled, p.k, l, acc);
    } else {
        accumulate<LA, LB, N, SCALED, false>(p, a_row, cols, 0, p.k, l, acc);
    }
    const Epilogue<T> e{load_scalar<T>(p.alpha), load_scalar<T>(p.beta)};
    store<LA, LB, SCALED, T>(p, e, first, g, l, real, acc);
}

}  // namespace

// One kernel per pair (A's bits, B's bits), widening (`s`: int4 scaled by 16, for K up to 65,536)
// and output type, with its launch bounds: 10 blocks a multiprocessor at the least (at most 96
// registers) for 4-4, 8-4 and 16-8, which the waits on loads bound and occupancy speeds up; the
// compiler's choice for the others (16-4 and 16-16 would spill).
#define OXS_SRBCRS_SDDMM_N(LA, LB, SCALED, N, NAME, ...)                                                               \
    extern "C" __global__ void __launch_bounds__(__VA_ARGS__) oxs_srbcrs_sddmm_##NAME##_i32(const SrBcrsSddmmParams p) { \
        sddmm<LA, LB, SCALED, int32_t, N>(p);                                                                            \
    }                                                                                                                    \
    extern "C" __global__ void __launch_bounds__(__VA_ARGS__) oxs_srbcrs_sddmm_##NAME##_f32(const SrBcrsSddmmParams p) { \
        sddmm<LA, LB, SCALED, float, N>(p);                                                                              \
    }
#define OXS_SRBCRS_SDDMM(LA, LB, SCALED, NAME, ...) OXS_SRBCRS_SDDMM_N(LA, LB, SCALED, (ELEMS<LA, LB>), NAME, __VA_ARGS__)
OXS_SRBCRS_SDDMM(4, 4, true, l4r4s, WARPS * WARP, 10)
OXS_SRBCRS_SDDMM(4, 4, false, l4r4, WARPS * WARP, 10)
OXS_SRBCRS_SDDMM(8, 4, true, l8r4s, WARPS * WARP, 10)
OXS_SRBCRS_SDDMM(8, 4, false, l8r4, WARPS * WARP, 10)
OXS_SRBCRS_SDDMM(16, 4, true, l16r4s, WARPS * WARP)
OXS_SRBCRS_SDDMM(16, 4, false, l16r4, WARPS * WARP)
OXS_SRBCRS_SDDMM(8, 8, false, l8r8, WARPS * WARP)
OXS_SRBCRS_SDDMM(16, 8, false, l16r8, WARPS * WARP, 10)
OXS_SRBCRS_SDDMM(16, 16, false, l16r16, WARPS * WARP)
// Half steps (`h`): the scaled int4 pairs at 16 elements a lane (64 k's a step, int4's pieces 8
// bytes), for small K; 92 registers or fewer, so all take the bounds of 10 blocks.
OXS_SRBCRS_SDDMM_N(4, 4, true, 16, l4r4sh, WARPS * WARP, 10)
OXS_SRBCRS_SDDMM_N(8, 4, true, 16, l8r4sh, WARPS * WARP, 10)
OXS_SRBCRS_SDDMM_N(16, 4, true, 16, l16r4sh, WARPS * WARP, 10)
