// Tensor-core SpMM over BitTCF (built by tc_build.cu): C = alpha * A * B + beta * C, FP32
// accumulation. FP32 operands take TF32 products (three per pair in the FP32-accurate mode); FP16
// and BF16 operands exact products, with C in their type or in FP32. The precisions are policies
// in common/tc_step.cuh; this file is the pipeline they plug into.
//
// The operands are swapped as in Acc-SpMM: a warp computes C^T's 16J x 8 block of one row window
// as B^T x A^T, so sparse 8x8 tiles are the small mma operand and a slice of B rows the large one.
// Stages of one step (one tile, or two for 16-bit operands):
//
//   load_batch   the metadata of 32 tiles, a tile per lane (mask, first value slot, 8 columns)
//   P::share     the step's tiles by shuffles: this lane's values (gathered into slot order by
//                `gather` before the launch; a masked popcount finds a value's slot; absent
//                entries are zero) and the B rows it reads
//   P::load_b    the lane's 2J consecutive columns of those B rows, in 8- or 16-byte vectors
//   P::multiply  J mma steps into the accumulators
//
// Columns of C are mapped onto the mma's 16 rows so that lane (g, t) owns columns
// [2J g, 2J g + 2J) of its strip: B is read, and C written, in vectors. Work items are
// (segment, strip) pairs dealt round-robin to a persistent grid of warps. A window with more tiles
// than a segment takes is split: its segments write partial sums, and the last of them to finish
// adds them in segment order (finish_split). The result is the same on every run. Both kernels
// return at once when the build chose the CUDA-core tile kernel for the matrix.
#include "oxsparse_kernel_params.h"
#include "common/scalar.cuh"
#include "common/flags.cuh"
#include "common/row_search.cuh"
#include "common/tc_step.cuh"
#include <stdint.h>

namespace {

constexpr int WARP = 32;
constexpr uint32_t WINDOW = TC_WINDOW;
constexpr int BLOCK = TC_BLOCK;
constexpr int TILE_BLOCKS = TC_TILE_BLOCKS_PER_SM;

// ---- gather: A's values in slot order ------------------------------------------------------------
// Every call: the user may change A's values between calls that share a preprocessed format. A
// pass of its own (measured: reading values through `src` inside the tile kernel made it slower,
// wave_squared_2hop 0.68 -> 1.19 ms at N = 128: a second dependent memory trip per tile).
template <class P, typename I>
__device__ void gather(const SpmmTcParams& p) {
    if (*reinterpret_cast<const uint32_t*>(p.fmt.use_tensor_cores) == 0) return;  // CUDA cores take it
    using In = typename P::Input;
    const I* cols = reinterpret_cast<const I*>(p.a.cols);
    const I* perm = reinterpret_cast<const I*>(p.a.perm);
    const In* values = reinterpret_cast<const In*>(p.a.values);
    const uint32_t* src = reinterpret_cast<const uint32_t*>(p.fmt.src);
    const uint32_t tiles = reinterpret_cast<const uint32_t*>(p.fmt.win_tiles)[p.fmt.windows];
    const int64_t used = min(int64_t(reinterpret_cast<const uint32_t*>(p.fmt.tile_vals)[min(int64_t(tiles), p.fmt.tiles_max)]), p.fmt.slots_max);
    auto value = [&](int64_t q) { return P::load_value(values, perm ? int64_t(perm[q]) : q); };
    for (int64_t s = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; s < used; s += int64_t(gridDim.x) * blockDim.x) {
        const uint32_t tagged = src[s];
        const int64_t q = min(int64_t(tagged & ~TC_SRC_DUPLICATE), p.fmt.slots_max - 1);
        float v = value(q);
        if (tagged & TC_SRC_DUPLICATE) {
            // Rare: later entries of the same row and column, wherever they lie in the row.
            const spmm::Rows<In, I> rows(p.a, 0);
            const int64_t end = rows.end(row_search::row_of(rows, p.shape.m, q));
            for (int64_t j = q + 1; j < end; ++j)
                if (cols[j] == cols[q]) v += value(j);
        }
        P::store_value(p.values, s, v);
    }
}

// ---- the tile kernel --------------------------------------------------------------------------------
__device__ __forceinline__ tc::TileBatch load_batch(const SpmmTcParams& p, uint32_t base, uint32_t end, int lane) {
    tc::TileBatch b{};
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

// Four consecutive elements of C (a float4, or 8 bytes of 16-bit values), read and written as
// float.
template <typename TC>
struct CVector;

template <>
struct CVector<float> {
    static constexpr int LEN = 4;
    __device__ static void load(const float* c, float (&v)[4]) {
        const float4 x = *reinterpret_cast<const float4*>(c);
        v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
    }
    __device__ static void store(float* c, const float (&v)[4]) { __stcs(reinterpret_cast<float4*>(c), make_float4(v[0], v[1], v[2], v[3])); }
};

template <typename T16>
struct CVector16 {
    static constexpr int LEN = 4;  // an 8-byte vector: a lane's run is 4 or 8 columns
    __device__ static uint32_t pack(float lo, float hi) {
        const T16 a = from_compute<T16>(lo), b = from_compute<T16>(hi);
        return uint32_t(*reinterpret_cast<const uint16_t*>(&a)) | uint32_t(*reinterpret_cast<const uint16_t*>(&b)) << 16;
    }
    __device__ static float half_of(uint32_t w, int h) {
        const uint16_t bits = uint16_t(w >> (16 * h));
        return to_compute<float>(*reinterpret_cast<const T16*>(&bits));
    }
    __device__ static void load(const T16* c, float (&v)[4]) {
        const uint2 x = *reinterpret_cast<const uint2*>(c);
        v[0] = half_of(x.x, 0), v[1] = half_of(x.x, 1), v[2] = half_of(x.y, 0), v[3] = half_of(x.y, 1);
    }
    __device__ static void store(T16* c, const float (&v)[4]) {
        __stcs(reinterpret_cast<uint2*>(c), make_uint2(pack(v[0], v[1]), pack(v[2], v[3])));
    }
};
template <>
struct CVector<__half> : CVector16<__half> {};
template <>
struct CVector<__nv_bfloat16> : CVector16<__nv_bfloat16> {};

// C(row, col0 ..) = alpha * v + beta * C (C not read when beta is 0), in vectors; the lane's run
// is wholly in or out of [0, n) (n is a multiple of the vector for every type taken here).
template <int J, typename TC>
__device__ __forceinline__ void store_c(const SpmmTcParams& p, int64_t row, int64_t col0, const float (&v)[2 * J], float alpha, float beta) {
    using V = CVector<TC>;
    if (row >= p.shape.m) return;
    if (p.fmt.row_order) row = reinterpret_cast<const uint32_t*>(p.fmt.row_order)[row];  // reordered: C's own row
    TC* c = reinterpret_cast<TC*>(p.c.values) + row * p.c.row_stride + col0;
#pragma unroll
    for (int x = 0; x < 2 * J / V::LEN; ++x) {
        if (col0 + V::LEN * x >= p.shape.n) break;
        float out[V::LEN];
#pragma unroll
        for (int e = 0; e < V::LEN; ++e) out[e] = alpha * v[V::LEN * x + e];
        if (beta != 0.f) {
            float old[V::LEN];
            V::load(c + V::LEN * x, old);
#pragma unroll
            for (int e = 0; e < V::LEN; ++e) out[e] += beta * old[e];
        }
        V::store(c + V::LEN * x, out);
    }
}

// A split window's partial sums (FP32 for every type): slot, window row, column.
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
template <int J, typename TC>
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
        store_c<J, TC>(p, int64_t(seg.x) * WINDOW + 2 * t + r, col0, sum, alpha, beta);
    }
}

// P: the precision (common/tc_step.cuh); J: mmas per step (a strip of 16J columns); TC: C's type.
template <class P, int J, typename TC>
__device__ void tiles(const SpmmTcParams& p) {
    if (*reinterpret_cast<const uint32_t*>(p.fmt.use_tensor_cores) == 0) return;  // CUDA cores take it
    using Step = typename P::Step;
    using Rows = typename P::template Rows<J>;
    const int lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
    const uint64_t* win_segs = reinterpret_cast<const uint64_t*>(p.fmt.win_segs);
    const uint4* segments = reinterpret_cast<const uint4*>(p.fmt.segments);
    const typename P::B* b = reinterpret_cast<const typename P::B*>(p.b.values);
    const int64_t items = min(int64_t(uint32_t(win_segs[p.fmt.windows])), p.fmt.segments_max) * p.strips;
    const int64_t warps = int64_t(gridDim.x) * blockDim.x / WARP;
    const float alpha = load_scalar<float>(p.shape.alpha), beta = load_scalar<float>(p.shape.beta);

    // Round-robin (measured: contiguous runs per block were slower, wave_squared_2hop 0.63 ->
    // 0.85 ms at N = 128).
    for (int64_t item = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / WARP; item < items; item += warps) {
        const uint4 seg = segments[item / p.strips];  // window, first tile, end tile, partial slot
        const int64_t col0 = (item % p.strips) * p.strip_cols + 2 * J * g;
        float acc[J][4] = {};
        // Tiles in batches of 32 (metadata in registers), one step ahead inside a batch: the next
        // step's values and B rows are in flight during this one's mmas. A batch holds a whole
        // number of two-tile steps except at the segment's end.
        const uint32_t end = min(seg.z, uint32_t(p.fmt.tiles_max));
        for (uint32_t base = seg.y; base < end; base += WARP) {
            const tc::TileBatch batch = load_batch(p, base, end, lane);
            const int count = int(min(uint32_t(WARP), end - base));
            Step s = P::share(p, batch, 0, count, g, t);
            Rows r;
            P::template load_b<J>(b, p.b.row_stride, s, col0, p.shape.n, r);
            for (int j = 0; j < count; j += P::TILES) {
                Step next;
                Rows next_r;
                const bool more = j + P::TILES < count;  // the same for the whole warp
                if (more) {
                    next = P::share(p, batch, j + P::TILES, count, g, t);
                    P::template load_b<J>(b, p.b.row_stride, next, col0, p.shape.n, next_r);
                }
                P::template multiply<J>(acc, r, s);
                if (more) {
                    s = next;
                    r = next_r;
                }
            }
        }
        float row0[2 * J], row1[2 * J];
        unpack<J>(acc, row0, row1);
        if (seg.w == 0xffffffffu) {  // store_c skips columns at or past n
            store_c<J, TC>(p, int64_t(seg.x) * WINDOW + 2 * t, col0, row0, alpha, beta);
            store_c<J, TC>(p, int64_t(seg.x) * WINDOW + 2 * t + 1, col0, row1, alpha, beta);
        } else if (seg.w < p.fmt.partial_slots) {
            finish_split<J, TC>(p, seg, item % p.strips, col0, row0, row1, alpha, beta);
        }
    }
}

}  // namespace

// ---- instantiations ---------------------------------------------------------------------------------------
// gather: oxs_spmm_tc_gather_<tf32|3xtf32|f16|bf16>_<index>.
#define OXS_TC_GATHER(MODE, POLICY, IS, I)                                                                     \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmm_tc_gather_##MODE##_##IS(const SpmmTcParams p) { \
        gather<POLICY, I>(p);                                                                                  \
    }
OXS_TC_GATHER(tf32, tc::Tf32<false>, i32, int32_t)
OXS_TC_GATHER(tf32, tc::Tf32<false>, i64, int64_t)
OXS_TC_GATHER(3xtf32, tc::Tf32<true>, i32, int32_t)
OXS_TC_GATHER(3xtf32, tc::Tf32<true>, i64, int64_t)
OXS_TC_GATHER(f16, tc::Half16<__half>, i32, int32_t)
OXS_TC_GATHER(f16, tc::Half16<__half>, i64, int64_t)
OXS_TC_GATHER(bf16, tc::Half16<__nv_bfloat16>, i32, int32_t)
OXS_TC_GATHER(bf16, tc::Half16<__nv_bfloat16>, i64, int64_t)

// tiles: oxs_spmm_tc_tiles_<tf32|3xtf32>_s<16J> (C in FP32), oxs_spmm_tc_tiles_<f16|bf16>_<C>_s<16J>.
#define OXS_TC_TILES(NAME, POLICY, TC, COLS, J)                                                                \
    extern "C" __global__ void __launch_bounds__(BLOCK, TILE_BLOCKS) oxs_spmm_tc_tiles_##NAME##_s##COLS(      \
        const SpmmTcParams p) {                                                                                \
        tiles<POLICY, J, TC>(p);                                                                               \
    }
#define OXS_TC_TILES_STRIPS(NAME, POLICY, TC)   \
    OXS_TC_TILES(NAME, POLICY, TC, 32, 2)       \
    OXS_TC_TILES(NAME, POLICY, TC, 64, 4)
OXS_TC_TILES_STRIPS(tf32, tc::Tf32<false>, float)
OXS_TC_TILES_STRIPS(3xtf32, tc::Tf32<true>, float)
OXS_TC_TILES_STRIPS(f16_f16, tc::Half16<__half>, __half)
OXS_TC_TILES_STRIPS(f16_f32, tc::Half16<__half>, float)
OXS_TC_TILES_STRIPS(bf16_bf16, tc::Half16<__nv_bfloat16>, __nv_bfloat16)
OXS_TC_TILES_STRIPS(bf16_f32, tc::Half16<__nv_bfloat16>, float)
