// DenseToSparse: the stored form of a dense matrix A's nonzeros (entries not equal to 0; -0.0 is
// 0, NaN is not), as cuSPARSE. A "line" is a row (CSR, COO) or a column (CSC) of A.
//
//   analysis: count   the one read of A: a bitmap of its nonzeros (bit j % 32 of word j / 32 of
//                     the line's words in the workspace), offsets[line] <- the line's nonzeros,
//                     offsets[lines] <- 0 (a warp a segment of SEGMENT elements of a line, added
//                     to offsets zeroed first when a line has several; 16-byte loads where the
//                     line is contiguous and aligned, a ballot per 32 elements otherwise)
//             scan    exclusive prefix sums of offsets[0, lines] plus the base (common/scan.cuh):
//                     offsets[line] is where the line starts, offsets[lines] is base + nnz
//   convert:  compact one warp a line again, guided by the bitmap: only A's loads holding a
//                     nonzero are issued (16 bytes a lane where the line is contiguous and A not
//                     sparse, else an element a lane for each nonzero word), each nonzero written
//                     at the line's cursor + the nonzeros before it, so entries come out in
//                     increasing minor index; no atomics, deterministic
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
constexpr int UNROLL = 4;  // rounds of 32 loads a warp has in flight at once
// The analysis's contiguous lines: rounds of 16-byte loads in flight, read once (streaming loads,
// so that A does not push the offsets and bitmap out of L2).
constexpr int COUNT_UNROLL = 8;
// Elements of a line one analysis warp reads (a multiple of 32 * 16, so segments start at whole
// bitmap words and whole 16-byte loads): long lines are cut so that the last wave of warps is
// short whatever the number of lines.
constexpr int64_t SEGMENT = 4096;

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
// Whether line `line` is contiguous in A (row of a row-major A, column of a column-major one).
__device__ __forceinline__ bool contiguous(const DenseToSparseParams& p) { return bool(p.row_major) != bool(p.csc); }

// Whether every line can be read 16 bytes a lane: contiguous, its start on 16 bytes, its length
// whole loads.
template <typename W>
__device__ __forceinline__ bool is_wide(const DenseToSparseParams& p) {
    constexpr int E = 16 / int(sizeof(W));
    return contiguous(p) && p.dense % 16 == 0 && p.ld % E == 0 && p.line_len % E == 0;
}

// Elements [j0, j1) of a contiguous line read 16 bytes a lane: E elements a load, G = 32 / E lanes
// a bitmap word. Needs the line's start 16-byte aligned and its length a multiple of E (the caller
// checks), and j0 a multiple of 32 * E. Returns the segment's nonzeros on every lane.
template <typename Z>
__device__ int64_t count_line_wide(const typename Z::W* line, int64_t j0, int64_t j1, uint32_t* bits, int lane) {
    using W = typename Z::W;
    constexpr int E = 16 / int(sizeof(W)), G = WARP / E;
    const int64_t loads = j1 / E;
    const uint4* from = reinterpret_cast<const uint4*>(line);
    int64_t n = 0;
    for (int64_t v0 = j0 / E; v0 < loads; v0 += WARP * COUNT_UNROLL) {
        uint4 x[COUNT_UNROLL];
#pragma unroll
        for (int u = 0; u < COUNT_UNROLL; ++u) {
            const int64_t v = v0 + u * WARP + lane;
            x[u] = v < loads ? __ldcs(from + v) : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int u = 0; u < COUNT_UNROLL; ++u) {
            const W* e = reinterpret_cast<const W*>(&x[u]);
            uint32_t mine = 0;
#pragma unroll
            for (int i = 0; i < E; ++i) mine |= uint32_t(!Z::zero(e[i])) << i;
            n += __popc(mine);
            // The G lanes of a word gather their E bits each.
            uint32_t word = mine << (E * (lane % G));
#pragma unroll
            for (int o = 1; o < G; o *= 2) word |= __shfl_xor_sync(FULL_MASK, word, o);
            const int64_t v = v0 + u * WARP + lane;
            if (lane % G == 0 && v < loads) bits[v / G] = word;
        }
    }
    // Each lane counted its own loads' elements: the line's count is the warp's sum.
#pragma unroll
    for (int o = WARP / 2; o > 0; o /= 2) n += __shfl_xor_sync(FULL_MASK, n, o);
    return n;
}

// Elements [j0, j1) of any line (j0 a multiple of 32): 32 elements a round, one ballot a bitmap
// word.
template <typename Z>
__device__ int64_t count_line_strided(const DenseToSparseParams& p, int64_t line, int64_t j0, int64_t j1, uint32_t* bits,
                                      int lane) {
    using W = typename Z::W;
    int64_t n = 0;
    for (int64_t r0 = j0; r0 < j1; r0 += WARP * UNROLL) {
        W v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int64_t j = r0 + u * WARP + lane;
            v[u] = j < j1 ? element<W>(p, line, j) : W{};
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int64_t j = r0 + u * WARP + lane;
            const uint32_t word = __ballot_sync(FULL_MASK, j < j1 && !Z::zero(v[u]));
            n += __popc(word);
            if (lane == 0 && j < j1) bits[j / WARP] = word;
        }
    }
    return n;
}

// A segment's count into its line's offset: stored when the line is one segment, else added
// (the offsets were zeroed first; integer sums, so the order of the adds does not show).
__device__ __forceinline__ void add_count(int32_t* at, int64_t n, bool whole) {
    if (whole) *at = int32_t(n);
    else atomicAdd(at, int32_t(n));
}
__device__ __forceinline__ void add_count(int64_t* at, int64_t n, bool whole) {
    if (whole) *at = n;
    else atomicAdd(reinterpret_cast<unsigned long long*>(at), static_cast<unsigned long long>(n));
}

// Before count when lines are cut into segments: offsets[0, lines] <- 0.
template <typename I>
__device__ void zero_offsets(const DenseToSparseParams& p) {
    I* offsets = reinterpret_cast<I*>(p.offsets);
    for (int64_t i = global_thread(); i <= p.lines; i += thread_count()) offsets[i] = 0;
}

template <typename Z, typename I>
__device__ void count(const DenseToSparseParams& p) {
    using W = typename Z::W;
    I* offsets = reinterpret_cast<I*>(p.offsets);
    uint32_t* bitmap = reinterpret_cast<uint32_t*>(p.bitmap);
    const int lane = threadIdx.x % WARP;
    const bool wide = is_wide<W>(p);
    const int64_t segments = p.line_len > SEGMENT ? (p.line_len + SEGMENT - 1) / SEGMENT : 1;
    if (global_thread() == 0) offsets[p.lines] = 0;
    // A warp a segment of a line, the segments of a line on consecutive warps.
    for (int64_t item = global_thread() / WARP; item < p.lines * segments; item += thread_count() / WARP) {
        const int64_t line = item / segments, j0 = (item % segments) * SEGMENT, j1 = min(j0 + SEGMENT, p.line_len);
        uint32_t* bits = bitmap + line * p.words;
        const int64_t n = wide ? count_line_wide<Z>(reinterpret_cast<const W*>(p.dense) + line * p.ld, j0, j1, bits, lane)
                               : count_line_strided<Z>(p, line, j0, j1, bits, lane);
        if (lane == 0) add_count(offsets + line, n, segments == 1);
    }
}

// ---- convert: compact ---------------------------------------------------------------------------
// One round of a vector path: each lane's 16-byte vector `x` holds elements j0.. of the line, the
// set bits of `mask` its nonzeros; they are written at the cursor plus the nonzeros of the lanes
// before (a warp scan), in increasing minor index, and the cursor moves past the round's.
template <typename Z, typename I>
__device__ __forceinline__ void place_vector(const DenseToSparseParams& p, int64_t line, int64_t j0, uint32_t mask, const uint4& x,
                                             int64_t& cursor, I* major, I* minor, typename Z::W* values, int lane) {
    using W = typename Z::W;
    const int n = __popc(mask);
    int upto = n;  // nonzeros of lanes 0..lane
#pragma unroll
    for (int o = 1; o < WARP; o *= 2) {
        const int y = __shfl_up_sync(FULL_MASK, upto, o);
        if (lane >= o) upto += y;
    }
    int64_t at = cursor + upto - n;
    const W* e = reinterpret_cast<const W*>(&x);
    // The set bits only: a warp steps as often as its fullest lane's vector has nonzeros.
    for (uint32_t todo = mask; todo != 0; todo &= todo - 1, ++at) {
        const int i = __ffs(todo) - 1;
        // Element i picked by compares: an index into the vector would put it in local memory.
        W v = e[0];
#pragma unroll
        for (int k = 1; k < 16 / int(sizeof(W)); ++k) v = i == k ? e[k] : v;
        minor[at] = I(j0 + i + p.base);
        values[at] = v;
        if (major) major[at] = I(line + p.base);
    }
    cursor += __shfl_sync(FULL_MASK, upto, WARP - 1);
}

// Where the analysis read the line 16 bytes a lane (contiguous, aligned) and A is not sparse:
// rounds of 32 loads, a lane's load issued only where its E bits in the bitmap hold a nonzero, its
// nonzeros written at the line's cursor plus those of the lanes before it (a warp scan). A's zero
// vectors are never read again, and the nonzero ones come 16 bytes a load.
template <typename Z, typename I>
__device__ void compact_line_wide(const DenseToSparseParams& p, int64_t line, int64_t cursor, const uint32_t* bits, I* major,
                                  I* minor, typename Z::W* values, int lane) {
    using W = typename Z::W;
    constexpr int E = 16 / int(sizeof(W)), G = WARP / E;
    constexpr uint32_t LOAD_BITS = E == 32 ? ~0u : (1u << E) - 1;
    const uint4* from = reinterpret_cast<const uint4*>(reinterpret_cast<const W*>(p.dense) + line * p.ld);
    const int64_t loads = p.line_len / E;
    // The rounds' bitmap masks; the next step's are loaded while this step's vectors are out, so
    // a step waits on one memory trip, not two.
    auto masks_at = [&](int64_t v0, uint32_t (&mask)[UNROLL]) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int64_t v = v0 + u * WARP + lane;
            mask[u] = v < loads ? (bits[v / G] >> (E * (v % G))) & LOAD_BITS : 0u;
        }
    };
    uint32_t mask[UNROLL];
    masks_at(0, mask);
    for (int64_t v0 = 0; v0 < loads; v0 += WARP * UNROLL) {
        uint4 x[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u)
            if (mask[u] != 0) x[u] = from[v0 + u * WARP + lane];
        uint32_t next[UNROLL];
        masks_at(v0 + WARP * UNROLL, next);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            place_vector<Z, I>(p, line, (v0 + u * WARP + lane) * E, mask[u], x[u], cursor, major, minor, values, lane);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) mask[u] = next[u];
    }
}

// Any other line, or a sparse one: a lane holds one of 32 bitmap words; the warp then takes the
// nonzero ones in order, lane l owning element l of each (zero words cost nothing).
template <typename Z, typename I>
__device__ void compact_line_words(const DenseToSparseParams& p, int64_t line, int64_t cursor, const uint32_t* bits, I* major,
                                   I* minor, typename Z::W* values, int lane) {
    using W = typename Z::W;
    const unsigned before = (1u << lane) - 1;
    for (int64_t w0 = 0; w0 < p.words; w0 += WARP) {
        const uint32_t mine = w0 + lane < p.words ? bits[w0 + lane] : 0u;
        for (unsigned todo = __ballot_sync(FULL_MASK, mine != 0); todo != 0; todo &= todo - 1) {
            const int k = __ffs(todo) - 1;
            const uint32_t word = __shfl_sync(FULL_MASK, mine, k);
            if ((word >> lane) & 1u) {
                const int64_t j = (w0 + k) * WARP + lane;
                const int64_t at = cursor + __popc(word & before);
                minor[at] = I(j + p.base);
                values[at] = element<W>(p, line, j);
                if (major) major[at] = I(line + p.base);
            }
            cursor += __popc(word);
        }
    }
}

// A warp a line; an empty line reads nothing, not even its bitmap. `vectors`: the launcher chose
// the vector kernel (A has at least 1 element in VECTORS_FROM nonzero, where vectors pay, else
// skipping zero words costs less than visiting every vector; or OXSPARSE_D2S_CONVERT); a kernel of
// its own, as the vector path's registers would cost the word path occupancy.
template <typename Z, typename I, bool vectors>
__device__ void compact(const DenseToSparseParams& p) {
    using W = typename Z::W;
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const uint32_t* bitmap = reinterpret_cast<const uint32_t*>(p.bitmap);
    I* major = reinterpret_cast<I*>(p.major);
    I* minor = reinterpret_cast<I*>(p.minor);
    W* values = reinterpret_cast<W*>(p.values);
    const int lane = threadIdx.x % WARP;
    const bool wide = vectors && is_wide<W>(p);
    for (int64_t line = global_thread() / WARP; line < p.lines; line += thread_count() / WARP) {
        const int64_t cursor = int64_t(offsets[line]) - p.base;
        if (int64_t(offsets[line + 1]) - p.base == cursor) continue;
        const uint32_t* bits = bitmap + line * p.words;
        if (wide) compact_line_wide<Z, I>(p, line, cursor, bits, major, minor, values, lane);
        else compact_line_words<Z, I>(p, line, cursor, bits, major, minor, values, lane);
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
        compact<Z, I, false>(p);                                                                                           \
    }                                                                                                                      \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_compact_vectors_##V##_##IS(const DenseToSparseParams p) {   \
        compact<Z, I, true>(p);                                                                                            \
    }                                                                                                                      \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_bell_##V##_##IS(const DenseToSparseParams p) { fill_bell<Z, I>(p); }

// The scan over offsets[0, lines]: chunk sums in the workspace, the base carried from the start.
#define OXS_D2S_SCAN(IS, I)                                                                                  \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_d2s_zero_##IS(const DenseToSparseParams p) {        \
        zero_offsets<I>(p);                                                                                  \
    }                                                                                                        \
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
