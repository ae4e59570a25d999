// Tensor-core SpMM over BitTCF (built by tc_build.cu): C = alpha * A * B + beta * C, FP32 in and
// out, TF32 products (or three of them per pair in the FP32-accurate mode), FP32 accumulation.
//
// The operands are swapped as in Acc-SpMM: a warp computes C^T's 16J x 8 block of one row window
// as B^T x A^T, so the sparse 8x8 tile is the small operand (B of mma.m16n8k8) and a slice of 8
// rows of B the large one (A of the mma). Stages of one tile:
//
//   load_batch   the metadata of 32 tiles, a tile per lane (mask, first value slot, 8 columns)
//   share_of     one tile's mask and columns by shuffles, and this lane's two values (gathered into
//                slot order by `gather` before the launch; a masked popcount finds a value's slot;
//                absent entries are zero)
//   load_b       the lane's 2J consecutive columns of its two B rows, as float4s
//   multiply     J mmas (3J in the accurate mode)
//
// Columns of C are mapped onto the mma's 16 rows so that lane (g, t) owns columns
// [2J g, 2J g + 2J) of its strip: B is read, and C written, in 16-byte vectors. Work items are
// (segment, strip) pairs dealt round-robin to a persistent grid of warps. A window with more tiles
// than a segment takes is split: its segments write partial sums, and the last of them to finish
// adds them in segment order (finish_split). The result is the same on every run. Both kernels
// return at once when the build chose the CUDA-core tile kernel for the matrix.
#include "oxsparse_kernel_params.h"
#include "common/scalar.cuh"
#include "common/flags.cuh"
#include "common/row_search.cuh"
#include <stdint.h>

namespace {

constexpr int WARP = 32;
constexpr uint32_t TILE = TC_TILE_COLS;
constexpr uint32_t WINDOW = TC_WINDOW;
constexpr int BLOCK = TC_BLOCK;
constexpr int TILE_BLOCKS = TC_TILE_BLOCKS_PER_SM;

__device__ __forceinline__ uint32_t to_tf32(float x) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

// d += a * b, m16n8k8, TF32 operands (their low 13 bits are ignored), FP32 accumulators.
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// A TF32 head and the TF32 of what it leaves out: head + tail carries ~21 of FP32's 24 bits.
__device__ __forceinline__ void split_tf32(float x, uint32_t& head, uint32_t& tail) {
    head = to_tf32(x);
    tail = to_tf32(x - __uint_as_float(head));
}

// ---- gather: A's values in slot order ------------------------------------------------------------
// Every call: the user may change A's values between calls that share a preprocessed format. A
// pass of its own (measured: reading values through `src` inside the tile kernel made it slower,
// wave_squared_2hop 0.68 -> 1.19 ms at N = 128: a second dependent memory trip per tile).
template <bool ACCURATE, typename I>
__device__ void gather(const SpmmTcParams& p) {
    if (*reinterpret_cast<const uint32_t*>(p.fmt.use_tensor_cores) == 0) return;  // CUDA cores take it
    const I* cols = reinterpret_cast<const I*>(p.a.cols);
    const I* perm = reinterpret_cast<const I*>(p.a.perm);
    const float* values = reinterpret_cast<const float*>(p.a.values);
    const uint32_t* src = reinterpret_cast<const uint32_t*>(p.fmt.src);
    const uint32_t tiles = reinterpret_cast<const uint32_t*>(p.fmt.win_tiles)[p.fmt.windows];
    const int64_t used = min(int64_t(reinterpret_cast<const uint32_t*>(p.fmt.tile_vals)[min(int64_t(tiles), p.fmt.tiles_max)]), p.fmt.slots_max);
    auto value = [&](int64_t q) { return values[perm ? int64_t(perm[q]) : q]; };
    for (int64_t s = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; s < used; s += int64_t(gridDim.x) * blockDim.x) {
        const uint32_t tagged = src[s];
        const int64_t q = min(int64_t(tagged & ~TC_SRC_DUPLICATE), p.fmt.slots_max - 1);
        float v = value(q);
        if (tagged & TC_SRC_DUPLICATE) {
            // Rare: later entries of the same row and column, wherever they lie in the row.
            const spmm::Rows<float, I> rows(p.a, 0);
            const int64_t end = rows.end(row_search::row_of(rows, p.shape.m, q));
            for (int64_t j = q + 1; j < end; ++j)
                if (cols[j] == cols[q]) v += value(j);
        }
        if (ACCURATE) {
            uint32_t head, tail;
            split_tf32(v, head, tail);
            reinterpret_cast<uint2*>(p.values)[s] = make_uint2(head, tail);
        } else {
            reinterpret_cast<uint32_t*>(p.values)[s] = to_tf32(v);
        }
    }
}

// ---- the tile kernel --------------------------------------------------------------------------------
// One lane's share of a tile: its two values (rows g of the window, tile columns t and t + 4).
template <bool ACCURATE>
struct TileShare {
    uint32_t head[2], tail[2];
    uint32_t col[2];
};

// The metadata of up to 32 consecutive tiles, lane j holding tile `base + j`'s: one coalesced
// load per array, so that inside the batch a tile costs shuffles, not dependent memory trips.
struct TileBatch {
    unsigned long long mask;
    uint32_t first;
    uint4 cols_lo, cols_hi;  // the tile's 8 columns
};

__device__ __forceinline__ TileBatch load_batch(const SpmmTcParams& p, uint32_t base, uint32_t end, int lane) {
    TileBatch b{};
    const uint32_t tile = base + uint32_t(lane);
    if (tile < end) {
        b.mask = reinterpret_cast<const unsigned long long*>(p.fmt.masks)[tile];
        b.first = reinterpret_cast<const uint32_t*>(p.fmt.tile_vals)[tile];
        const uint4* cols = reinterpret_cast<const uint4*>(p.fmt.colmap) + uint64_t(tile) * 2;
        b.cols_lo = cols[0];
        b.cols_hi = cols[1];
    }
    return b;
}

// Tile j of the batch, as lane (g, t) needs it. Every lane must call it with the same j.
template <bool ACCURATE>
__device__ __forceinline__ TileShare<ACCURATE> share_of(const SpmmTcParams& p, const TileBatch& b, int j, int g, int t) {
    constexpr unsigned FULL = 0xffffffffu;
    const unsigned long long mask = __shfl_sync(FULL, b.mask, j);
    const uint32_t first = __shfl_sync(FULL, b.first, j);
    const uint32_t lo[4] = {__shfl_sync(FULL, b.cols_lo.x, j), __shfl_sync(FULL, b.cols_lo.y, j),
                            __shfl_sync(FULL, b.cols_lo.z, j), __shfl_sync(FULL, b.cols_lo.w, j)};
    const uint32_t hi[4] = {__shfl_sync(FULL, b.cols_hi.x, j), __shfl_sync(FULL, b.cols_hi.y, j),
                            __shfl_sync(FULL, b.cols_hi.z, j), __shfl_sync(FULL, b.cols_hi.w, j)};
    TileShare<ACCURATE> s;
    s.col[0] = min(t == 0 ? lo[0] : t == 1 ? lo[1] : t == 2 ? lo[2] : lo[3], uint32_t(p.shape.k - 1));
    s.col[1] = min(t == 0 ? hi[0] : t == 1 ? hi[1] : t == 2 ? hi[2] : hi[3], uint32_t(p.shape.k - 1));
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const uint32_t bit = uint32_t(g) * TILE + uint32_t(t + 4 * h);
        s.head[h] = s.tail[h] = 0;
        if ((mask >> bit) & 1) {
            const uint32_t slot = min(first + __popcll(mask & ((1ull << bit) - 1)), uint32_t(p.fmt.slots_max - 1));
            if (ACCURATE) {
                const uint2 v = reinterpret_cast<const uint2*>(p.values)[slot];
                s.head[h] = v.x;
                s.tail[h] = v.y;
            } else {
                s.head[h] = reinterpret_cast<const uint32_t*>(p.values)[slot];
            }
        }
    }
    return s;
}

// The lane's 2J columns (from `col0`) of B row `row`; columns at or past n read as zero (n is a
// multiple of 4, so a float4 is wholly in or out).
template <int J>
__device__ __forceinline__ void load_b(const float* b, int64_t ldb, uint32_t row, int64_t col0, int64_t n, float (&out)[2 * J]) {
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

// acc[j] += (B rows of the tile, columns 2j, 2j + 1 of each lane's run) x tile. mma j's row g is
// column 2J g + 2j, row g + 8 column 2J g + 2j + 1; k index t reads B row col[0], t + 4 col[1].
template <int J, bool ACCURATE>
__device__ __forceinline__ void multiply(float (&acc)[J][4], const float (&lo)[2 * J], const float (&hi)[2 * J], const TileShare<ACCURATE>& s) {
    const uint32_t b_head[2] = {s.head[0], s.head[1]};
#pragma unroll
    for (int j = 0; j < J; ++j) {
        const float x[4] = {lo[2 * j], lo[2 * j + 1], hi[2 * j], hi[2 * j + 1]};
        if (ACCURATE) {
            uint32_t head[4], tail[4];
#pragma unroll
            for (int e = 0; e < 4; ++e) split_tf32(x[e], head[e], tail[e]);
            const uint32_t b_tail[2] = {s.tail[0], s.tail[1]};
            // The tile's sum on its own, then added with a rounded FP32 add: the mma's own
            // accumulation truncates, an error that would grow with the row's tiles.
            float d[4] = {0.f, 0.f, 0.f, 0.f};
            mma_tf32(d, tail, b_head);  // small terms first
            mma_tf32(d, head, b_tail);
            mma_tf32(d, head, b_head);
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[j][e] += d[e];
        } else {
            const uint32_t a[4] = {to_tf32(x[0]), to_tf32(x[1]), to_tf32(x[2]), to_tf32(x[3])};
            mma_tf32(acc[j], a, b_head);
        }
    }
}

// The lane's results: rows 2t and 2t + 1 of the window, 2J consecutive columns each.
template <int J>
__device__ __forceinline__ void unpack(const float (&acc)[J][4], float (&row0)[2 * J], float (&row1)[2 * J]) {
#pragma unroll
    for (int j = 0; j < J; ++j) {
        row0[2 * j] = acc[j][0];
        row0[2 * j + 1] = acc[j][2];
        row1[2 * j] = acc[j][1];
        row1[2 * j + 1] = acc[j][3];
    }
}

// C(row, col0 ..) = alpha * v + beta * C (C not read when beta is 0), in float4s.
template <int J>
__device__ __forceinline__ void store_c(const SpmmTcParams& p, int64_t row, int64_t col0, const float (&v)[2 * J], float alpha, float beta) {
    if (row >= p.shape.m) return;
    float* c = reinterpret_cast<float*>(p.c.values) + row * p.c.row_stride + col0;
#pragma unroll
    for (int x = 0; x < J / 2; ++x) {
        if (col0 + 4 * x >= p.shape.n) break;
        float4 out = make_float4(alpha * v[4 * x], alpha * v[4 * x + 1], alpha * v[4 * x + 2], alpha * v[4 * x + 3]);
        if (beta != 0.f) {
            const float4 old = reinterpret_cast<const float4*>(c)[x];
            out.x += beta * old.x;
            out.y += beta * old.y;
            out.z += beta * old.z;
            out.w += beta * old.w;
        }
        __stcs(reinterpret_cast<float4*>(c) + x, out);
    }
}

// A split window's partial sums: slot, window row, column.
__device__ __forceinline__ float* partial_at(const SpmmTcParams& p, uint32_t slot, int64_t row_in_window, int64_t col) {
    const int64_t width = p.strips * p.strip_cols;
    return reinterpret_cast<float*>(p.partials) + (int64_t(slot) * WINDOW + row_in_window) * width + col;
}

template <int J>
__device__ __forceinline__ void store_partial(const SpmmTcParams& p, uint32_t slot, int64_t row_in_window, int64_t col0, const float (&v)[2 * J]) {
#pragma unroll
    for (int x = 0; x < J / 2; ++x)
        reinterpret_cast<float4*>(partial_at(p, slot, row_in_window, col0))[x] = make_float4(v[4 * x], v[4 * x + 1], v[4 * x + 2], v[4 * x + 3]);
}

// A segment of a split window: writes its partial sums, then counts itself in. The last of the
// window's segments to arrive (for this strip) adds every segment's partials in segment order,
// so the sum does not depend on who arrives last, writes C and resets the count for the next
// call. Partials are read from L2 (ld.cg), where the release fences put them (common/flags.cuh).
template <int J>
__device__ __forceinline__ void finish_split(const SpmmTcParams& p, const uint4& seg, int64_t strip, int64_t col0, const float (&row0)[2 * J],
                                             const float (&row1)[2 * J], float alpha, float beta) {
    const int lane = threadIdx.x % WARP, t = lane % 4;
    const uint64_t* win_segs = reinterpret_cast<const uint64_t*>(p.fmt.win_segs);
    const uint32_t slot0 = uint32_t(win_segs[seg.x] >> 32), slots = uint32_t(win_segs[seg.x + 1] >> 32) - slot0;
    if (int64_t(slot0) + slots > p.fmt.partial_slots) return;
    const bool writes = col0 < p.shape.n;
    if (writes) {
        store_partial<J>(p, seg.w, 2 * t, col0, row0);
        store_partial<J>(p, seg.w, 2 * t + 1, col0, row1);
    }
    flags::release_fence();
    __syncwarp();
    uint32_t* count = reinterpret_cast<uint32_t*>(p.fmt.arrivals) + int64_t(slot0) * p.strips + strip;
    uint32_t before = 0;
    if (lane == 0) before = atomicAdd(count, 1u);
    before = __shfl_sync(0xffffffffu, before, 0);
    if (before + 1 != slots) return;
    if (lane == 0) *count = 0;
    if (!writes) return;
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        float sum[2 * J] = {};
        for (uint32_t s = 0; s < slots; ++s) {
            const float4* part = reinterpret_cast<const float4*>(partial_at(p, slot0 + s, 2 * t + r, col0));
#pragma unroll
            for (int x = 0; x < J / 2; ++x) {
                const float4 v = __ldcg(part + x);
                sum[4 * x] += v.x;
                sum[4 * x + 1] += v.y;
                sum[4 * x + 2] += v.z;
                sum[4 * x + 3] += v.w;
            }
        }
        store_c<J>(p, int64_t(seg.x) * WINDOW + 2 * t + r, col0, sum, alpha, beta);
    }
}

template <int J, bool ACCURATE>
__device__ void tiles(const SpmmTcParams& p) {
    if (*reinterpret_cast<const uint32_t*>(p.fmt.use_tensor_cores) == 0) return;  // CUDA cores take it
    const int lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
    const uint64_t* win_segs = reinterpret_cast<const uint64_t*>(p.fmt.win_segs);
    const uint4* segments = reinterpret_cast<const uint4*>(p.fmt.segments);
    const float* b = reinterpret_cast<const float*>(p.b.values);
    const int64_t items = min(int64_t(uint32_t(win_segs[p.fmt.windows])), p.fmt.segments_max) * p.strips;
    const int64_t warps = int64_t(gridDim.x) * blockDim.x / WARP;
    const float alpha = load_scalar<float>(p.shape.alpha), beta = load_scalar<float>(p.shape.beta);

    // Round-robin (measured: contiguous runs per block were slower, wave_squared_2hop 0.63 ->
    // 0.85 ms at N = 128).
    for (int64_t item = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / WARP; item < items; item += warps) {
        const uint4 seg = segments[item / p.strips];  // window, first tile, end tile, partial slot
        const int64_t col0 = (item % p.strips) * p.strip_cols + 2 * J * g;
        float acc[J][4] = {};
        // Tiles in batches of 32 (metadata in registers), one tile ahead inside a batch: the next
        // tile's values and B rows are in flight during this one's mmas.
        const uint32_t end = min(seg.z, uint32_t(p.fmt.tiles_max));
        for (uint32_t base = seg.y; base < end; base += WARP) {
            const TileBatch batch = load_batch(p, base, end, lane);
            const int count = int(min(uint32_t(WARP), end - base));
            TileShare<ACCURATE> s = share_of<ACCURATE>(p, batch, 0, g, t);
            float lo[2 * J], hi[2 * J];
            load_b<J>(b, p.b.row_stride, s.col[0], col0, p.shape.n, lo);
            load_b<J>(b, p.b.row_stride, s.col[1], col0, p.shape.n, hi);
            for (int j = 0; j < count; ++j) {
                TileShare<ACCURATE> next;
                float next_lo[2 * J], next_hi[2 * J];
                const bool more = j + 1 < count;  // the same for the whole warp
                if (more) {
                    next = share_of<ACCURATE>(p, batch, j + 1, g, t);
                    load_b<J>(b, p.b.row_stride, next.col[0], col0, p.shape.n, next_lo);
                    load_b<J>(b, p.b.row_stride, next.col[1], col0, p.shape.n, next_hi);
                }
                multiply<J, ACCURATE>(acc, lo, hi, s);
                if (more) {
                    s = next;
#pragma unroll
                    for (int i = 0; i < 2 * J; ++i) {
                        lo[i] = next_lo[i];
                        hi[i] = next_hi[i];
                    }
                }
            }
        }
        float row0[2 * J], row1[2 * J];
        unpack<J>(acc, row0, row1);
        if (seg.w == 0xffffffffu) {  // store_c skips columns at or past n
            store_c<J>(p, int64_t(seg.x) * WINDOW + 2 * t, col0, row0, alpha, beta);
            store_c<J>(p, int64_t(seg.x) * WINDOW + 2 * t + 1, col0, row1, alpha, beta);
        } else if (seg.w < p.fmt.partial_slots) {
            finish_split<J>(p, seg, item % p.strips, col0, row0, row1, alpha, beta);
        }
    }
}

}  // namespace

// ---- instantiations ---------------------------------------------------------------------------------------
// gather: oxs_spmm_tc_gather_<tf32|3xtf32>_<index>; tiles: oxs_spmm_tc_tiles_<tf32|3xtf32>_s<16J>.
#define OXS_TC_GATHER(MODE, ACC, IS, I)                                                                        \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmm_tc_gather_##MODE##_##IS(const SpmmTcParams p) { \
        gather<ACC, I>(p);                                                                                     \
    }
OXS_TC_GATHER(tf32, false, i32, int32_t)
OXS_TC_GATHER(tf32, false, i64, int64_t)
OXS_TC_GATHER(3xtf32, true, i32, int32_t)
OXS_TC_GATHER(3xtf32, true, i64, int64_t)

#define OXS_TC_TILES(MODE, ACC, COLS, J)                                                                       \
    extern "C" __global__ void __launch_bounds__(BLOCK, TILE_BLOCKS) oxs_spmm_tc_tiles_##MODE##_s##COLS(      \
        const SpmmTcParams p) {                                                                                \
        tiles<J, ACC>(p);                                                                                      \
    }
OXS_TC_TILES(tf32, false, 32, 2)
OXS_TC_TILES(tf32, false, 64, 4)
OXS_TC_TILES(3xtf32, true, 32, 2)
OXS_TC_TILES(3xtf32, true, 64, 4)
