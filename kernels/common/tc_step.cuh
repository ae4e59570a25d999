// The precisions of the tensor-core SpMM (kernels/spmm_tc.cu): what one step of a warp's walk
// over a segment's tiles reads and multiplies. A step takes `TILES` 8x8 tiles of A and the B rows
// their columns name, and adds the product into the warp's accumulators. The operands are swapped
// (C^T = B^T A^T), so a tile is the mma's small operand; the accumulator fragment is the same for
// both shapes: lane (g, t) holds mma rows g and g + 8 (two columns of C), mma columns 2t and
// 2t + 1 (two rows of the window).
//
//   Tf32<ACCURATE>  one tile per step, mma.m16n8k8 with TF32 operands; lane t reads tile columns
//                   t and t + 4. The FP32-accurate mode splits both operands into TF32 heads and
//                   tails and takes three mmas.
//   Half16<T>       two tiles per step (their 16 columns are the mma's k), mma.m16n8k16 with
//                   __half or __nv_bfloat16 operands: exact products, FP32 sums; lane t reads
//                   tile columns 2t and 2t + 1 of each, so B rows pair up with a byte permute.
//
// Each policy gives:
//   Input, load_value, store_value   the gather's view: A's entries (Input) into slot order
//   Step, share                      one step's tile values and B row numbers, for lane (g, t)
//   Rows<J>, load_b                  the step's B rows, the lane's 2J consecutive columns of each
//   multiply<J>                      acc[j] += the step's product for the lane's columns 2j, 2j + 1
// Half16 and the FP32-accurate Tf32 accumulate each step's product apart and add it with a rounded
// FP32 add: the mma's own accumulation truncates, an error that would grow with a row's tiles
// (bench/notes/tensor-cores.md). Plain TF32 accumulates in the mma: its input rounding is larger.
#pragma once
#include "oxsparse_kernel_params.h"
#include "common/types.cuh"
#include <stdint.h>
#include <type_traits>

namespace tc {

constexpr uint32_t TILE = TC_TILE_COLS;

// The metadata of up to 32 consecutive tiles, lane j holding tile `base + j`'s: one coalesced
// load per array, so that inside the batch a tile costs shuffles, not dependent memory trips.
struct TileBatch {
    unsigned long long mask;
    uint32_t first;
    uint4 cols_lo, cols_hi;  // the tile's 8 columns
};

// One tile of the batch as every lane sees it. Every lane must call it with the same j.
struct TileView {
    unsigned long long mask;
    uint32_t first;
    uint4 lo, hi;
};

__device__ __forceinline__ TileView tile_of(const TileBatch& b, int j) {
    constexpr unsigned FULL = 0xffffffffu;
    TileView v;
    v.mask = __shfl_sync(FULL, b.mask, j);
    v.first = __shfl_sync(FULL, b.first, j);
    v.lo = make_uint4(__shfl_sync(FULL, b.cols_lo.x, j), __shfl_sync(FULL, b.cols_lo.y, j), __shfl_sync(FULL, b.cols_lo.z, j),
                      __shfl_sync(FULL, b.cols_lo.w, j));
    v.hi = make_uint4(__shfl_sync(FULL, b.cols_hi.x, j), __shfl_sync(FULL, b.cols_hi.y, j), __shfl_sync(FULL, b.cols_hi.z, j),
                      __shfl_sync(FULL, b.cols_hi.w, j));
    return v;
}

__device__ __forceinline__ bool has(const TileView& v, uint32_t bit) { return (v.mask >> bit) & 1; }

// The value slot of the entry at `bit` (slots follow mask-bit order inside a tile).
__device__ __forceinline__ uint32_t slot_of(const TileView& v, uint32_t bit, int64_t slots_max) {
    return min(v.first + __popcll(v.mask & ((1ull << bit) - 1)), uint32_t(slots_max - 1));
}

__device__ __forceinline__ uint32_t pick(const uint4& q, int i) { return i == 0 ? q.x : i == 1 ? q.y : i == 2 ? q.z : q.w; }

// ---- TF32 ----------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t to_tf32(float x) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

// A TF32 head and the TF32 of what it leaves out: head + tail carries ~21 of FP32's 24 bits.
__device__ __forceinline__ void split_tf32(float x, uint32_t& head, uint32_t& tail) {
    head = to_tf32(x);
    tail = to_tf32(x - __uint_as_float(head));
}

// d += a * b by one warp-wide mma: every shape used here takes four A registers, two B registers
// and four FP32 accumulators. TF32 operands have their low 13 bits ignored.
#define OXS_MMA(NAME, SHAPE_AND_TYPES)                                                                          \
    __device__ __forceinline__ void NAME(float(&d)[4], const uint32_t(&a)[4], const uint32_t(&b)[2]) {        \
        asm volatile("mma.sync.aligned." SHAPE_AND_TYPES " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                          \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));                      \
    }
OXS_MMA(mma_tf32, "m16n8k8.row.col.f32.tf32.tf32.f32")
OXS_MMA(mma_f16, "m16n8k16.row.col.f32.f16.f16.f32")
OXS_MMA(mma_bf16, "m16n8k16.row.col.f32.bf16.bf16.f32")
#undef OXS_MMA

// ---- fragments from shared memory ----------------------------------------------------------------
__device__ __forceinline__ uint32_t shared_at(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

// Four 8x8 matrices of 16-bit elements; lane l gives the address of row l % 8 of matrix l / 8 (as a
// shared-memory address, or a pointer).
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(row)
                 : "memory");
}
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* row) { ldmatrix_x4(r, shared_at(row)); }

// Two 8x8 matrices of 16-bit elements, transposed; lanes 0-15 give the addresses of their rows.
__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], uint32_t row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(row) : "memory");
}
__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], const void* row) { ldmatrix_x2_trans(r, shared_at(row)); }

template <bool ACCURATE>
struct Tf32 {
    static constexpr int TILES = 1;
    using Input = float;
    using B = float;

    __device__ static float load_value(const float* values, int64_t q) { return values[q]; }

    // Slot s holds the TF32 of v, or its (head, tail) pair in the accurate mode.
    __device__ static void store_value(uint64_t values, int64_t s, float v) {
        if (ACCURATE) {
            uint32_t head, tail;
            split_tf32(v, head, tail);
            reinterpret_cast<uint2*>(values)[s] = make_uint2(head, tail);
        } else {
            reinterpret_cast<uint32_t*>(values)[s] = to_tf32(v);
        }
    }

    // The lane's two values (window row g, tile columns t and t + 4) and their B rows.
    struct Step {
        uint32_t head[2], tail[2];
        uint32_t col[2];
    };

    __device__ static Step share(const SpmmTcParams& p, const TileBatch& b, int j, int /*count*/, int g, int t) {
        const TileView v = tile_of(b, j);
        Step s;
        s.col[0] = min(pick(v.lo, t), uint32_t(p.shape.k - 1));
        s.col[1] = min(pick(v.hi, t), uint32_t(p.shape.k - 1));
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const uint32_t bit = uint32_t(g) * TILE + uint32_t(t + 4 * h);
            s.head[h] = s.tail[h] = 0;
            if (has(v, bit)) {
                const uint32_t slot = slot_of(v, bit, p.fmt.slots_max);
                if (ACCURATE) {
                    const uint2 x = reinterpret_cast<const uint2*>(p.values)[slot];
                    s.head[h] = x.x;
                    s.tail[h] = x.y;
                } else {
                    s.head[h] = reinterpret_cast<const uint32_t*>(p.values)[slot];
                }
            }
        }
        return s;
    }

    template <int J>
    struct Rows {
        float lo[2 * J], hi[2 * J];
    };

    // The lane's 2J columns (from `col0`) of one B row; columns at or past n read as zero (n is a
    // multiple of 4, so a float4 is wholly in or out).
    template <int J>
    __device__ static void load_row(const float* b, int64_t ldb, uint32_t row, int64_t col0, int64_t n, float (&out)[2 * J]) {
        const float* r = b + int64_t(row) * ldb + col0;
#pragma unroll
        for (int v = 0; v < J / 2; ++v) {
            float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
            if (col0 + 4 * v < n) x = __ldg(reinterpret_cast<const float4*>(r) + v);
            out[4 * v] = x.x;
            out[4 * v + 1] = x.y;
            out[4 * v + 2] = x.z;
            out[4 * v + 3] = x.w;
        }
    }

    template <int J>
    __device__ static void load_b(const float* b, int64_t ldb, const Step& s, int64_t col0, int64_t n, Rows<J>& r) {
        load_row<J>(b, ldb, s.col[0], col0, n, r.lo);
        load_row<J>(b, ldb, s.col[1], col0, n, r.hi);
    }

    // mma j's row g is the lane's column 2j, row g + 8 column 2j + 1; k index t reads B row
    // col[0], t + 4 col[1].
    template <int J>
    __device__ static void multiply(float (&acc)[J][4], const Rows<J>& r, const Step& s) {
        const uint32_t b_head[2] = {s.head[0], s.head[1]};
#pragma unroll
        for (int j = 0; j < J; ++j) {
            const float x[4] = {r.lo[2 * j], r.lo[2 * j + 1], r.hi[2 * j], r.hi[2 * j + 1]};
            if (ACCURATE) {
                uint32_t head[4], tail[4];
#pragma unroll
                for (int e = 0; e < 4; ++e) split_tf32(x[e], head[e], tail[e]);
                const uint32_t b_tail[2] = {s.tail[0], s.tail[1]};
                float d[4] = {0.f, 0.f, 0.f, 0.f};
                mma_tf32(d, tail, b_head);  // small terms first
                mma_tf32(d, head, b_tail);
                mma_tf32(d, head, b_head);
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[j][e] += d[e];
            } else {
                // TF32 products carry ~2^-11 of error each; the truncating accumulation adds less.
                const uint32_t a[4] = {to_tf32(x[0]), to_tf32(x[1]), to_tf32(x[2]), to_tf32(x[3])};
                mma_tf32(acc[j], a, b_head);
            }
        }
    }
};

// ---- FP16 and BF16 -----------------------------------------------------------------------------------
template <typename T>
__device__ __forceinline__ void mma_16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    if constexpr (std::is_same<T, __half>::value)
        mma_f16(d, a, b);
    else
        mma_bf16(d, a, b);
}

template <typename T>
struct Half16 {
    static constexpr int TILES = 2;
    using Input = T;
    using B = T;

    __device__ static float load_value(const T* values, int64_t q) { return to_compute<float>(values[q]); }

    // Exact: the build keeps a 16-bit matrix that repeats a (row, column) on CUDA cores, so a
    // slot holds a single entry.
    __device__ static void store_value(uint64_t values, int64_t s, float v) { reinterpret_cast<T*>(values)[s] = from_compute<T>(v); }

    // pair[h]: tile h's values at (window row g, tile columns 2t, 2t + 1), the low half first;
    // col: B rows of tile 0's columns 2t, 2t + 1, then tile 1's. `second`: the step has a second
    // tile (not so at the end of an odd segment; the same for the whole warp).
    struct Step {
        uint32_t pair[2];
        uint32_t col[4];
        bool second;
    };

    __device__ static Step share(const SpmmTcParams& p, const TileBatch& b, int j, int count, int g, int t) {
        const uint16_t* values = reinterpret_cast<const uint16_t*>(p.values);
        Step s;
        s.second = j + 1 < count;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            s.pair[h] = 0;
            s.col[2 * h] = s.col[2 * h + 1] = 0;
            if (h == 1 && !s.second) break;
            const TileView v = tile_of(b, j + h);
            const uint4 q = t < 2 ? v.lo : v.hi;
            s.col[2 * h] = min((t & 1) ? q.z : q.x, uint32_t(p.shape.k - 1));
            s.col[2 * h + 1] = min((t & 1) ? q.w : q.y, uint32_t(p.shape.k - 1));
            const uint32_t bit = uint32_t(g) * TILE + 2 * uint32_t(t);
            const bool low = has(v, bit), high = has(v, bit + 1);
            if (low | high) {
                const uint32_t slot = slot_of(v, low ? bit : bit + 1, p.fmt.slots_max);
                const uint32_t lo = low ? values[slot] : 0u;
                const uint32_t hi = high ? values[min(slot + uint32_t(low), uint32_t(p.fmt.slots_max - 1))] : 0u;
                s.pair[h] = lo | (hi << 16);
            }
        }
        return s;
    }

    // w[i][j]: B row col[i], the lane's columns 2j and 2j + 1 (the low half first).
    template <int J>
    struct Rows {
        uint32_t w[4][J];
    };

    // n is a multiple of 8 and a lane's run of 2J (4 or 8) columns starts on a multiple of 2J, so
    // the run is wholly in or out; a missing second tile reads nothing (its values are zero, and
    // a zero B keeps an infinite B entry from making 0 * inf).
    template <int J>
    __device__ static void load_b(const T* b, int64_t ldb, const Step& s, int64_t col0, int64_t n, Rows<J>& r) {
        static_assert(J == 2 || J == 4, "a lane reads 4 or 8 columns");
#pragma unroll
        for (int i = 0; i < 4; ++i) {
#pragma unroll
            for (int j = 0; j < J; ++j) r.w[i][j] = 0;
            if (col0 >= n || (i >= 2 && !s.second)) continue;
            const T* row = b + int64_t(s.col[i]) * ldb + col0;
            if constexpr (J == 4) {
                const uint4 x = __ldg(reinterpret_cast<const uint4*>(row));
                r.w[i][0] = x.x;
                r.w[i][1] = x.y;
                r.w[i][2] = x.z;
                r.w[i][3] = x.w;
            } else {
                const uint2 x = __ldg(reinterpret_cast<const uint2*>(row));
                r.w[i][0] = x.x;
                r.w[i][1] = x.y;
            }
        }
    }

    // The mma's A fragment for columns (2j, 2j + 1): register 0 is (row g = column 2j; k 2t,
    // 2t + 1), so the low halves of rows col[0] and col[1]; register 1 (row g + 8 = column
    // 2j + 1) their high halves; registers 2 and 3 the same from tile 1's rows.
    template <int J>
    __device__ static void multiply(float (&acc)[J][4], const Rows<J>& r, const Step& s) {
#pragma unroll
        for (int j = 0; j < J; ++j) {
            const uint32_t a[4] = {__byte_perm(r.w[0][j], r.w[1][j], 0x5410), __byte_perm(r.w[0][j], r.w[1][j], 0x7632),
                                   __byte_perm(r.w[2][j], r.w[3][j], 0x5410), __byte_perm(r.w[2][j], r.w[3][j], 0x7632)};
            float d[4] = {0.f, 0.f, 0.f, 0.f};
            mma_16<T>(d, a, s.pair);
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[j][e] += d[e];
        }
    }
};

}  // namespace tc
