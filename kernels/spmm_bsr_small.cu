// SpMM with a BSR A of small square blocks (2 x 2 to 4 x 4, as finite-element meshes give), FP32
// or FP64, on CUDA cores: C = alpha * A * op(B) + beta * C. The general block-row kernel
// (kernels/spmm_blocked.cu) waits on one round trip a block; here a block row's loads are issued
// several blocks at a time, and A's values arrive once a group in coalesced loads.
//
// A group of GROUP lanes takes one block row and GROUP * T columns of C (lane l holds T
// consecutive columns, one or two 16-byte loads of a B row). The group walks its block row P
// blocks a step (a stage of about 48 registers of B a lane):
//   load_step  the next step's column indices (a lane a block) and A values (the step's P x BS x BS
//              values, contiguous in BSR, dealt to the lanes in order), issued before this step's
//              products so that they arrive during them
//   load_b     this step's BS B rows of each block: P x BS loads in flight together
//   fma        each block's values shuffled from the lane that loaded them, into the BS x T tile
// Each C element sums its products in the general kernel's order (blocks in stored order, a
// block's columns in order), so both kernels give the same bits. Consecutive groups take the
// column tiles of a block row, then the next block row: a warp's groups share A's loads (N >
// GROUP * T) or neighbouring block rows, whose B rows meet in L1.
#include "common/spmm.cuh"

using namespace spmm;

namespace {

// ---- tiling ------------------------------------------------------------------------------------
// Lanes that share a block row (mirrored by `GROUP` in src/kernels/spmm_bsr_small.rs).
constexpr int GROUP = 8;

// Consecutive columns of C a lane holds (mirrored by `LANE_COLUMNS` in
// src/kernels/spmm_bsr_small.rs): one 16-byte load of a B row in FP32, two in FP64, so that each
// A value shuffled in serves 4 multiply-adds (at 2 columns FP64 spent as many shuffles as
// multiply-adds).
constexpr int LANE_COLUMNS = 4;

// Blocks a step loads together: their B rows take about 48 registers a lane (BS rows of 4 values
// a block), at least one, at most one a lane of the group for the column indices.
template <typename V, int BS>
__host__ __device__ constexpr int step_blocks() {
    constexpr int words = BS * LANE_COLUMNS * int(sizeof(V)) / 4;
    return 48 / words > GROUP ? GROUP : 48 / words < 1 ? 1 : 48 / words;
}

// ---- the walk ----------------------------------------------------------------------------------
template <typename V, typename I, int BS, bool COL_MAJOR>
struct Walk {
    static constexpr int T = LANE_COLUMNS, P = step_blocks<V, BS>();
    static constexpr int STEP_VALUES = P * BS * BS;
    // A values a lane holds for a step: value v of the step at lane v % GROUP, register v / GROUP.
    static constexpr int A_REGS = (STEP_VALUES + GROUP - 1) / GROUP;

    const I* col_ind;
    const V* values;
    int64_t base, k;
    int sub;
    unsigned mask;

    // One step's loads: the stored column index of block q + sub, and the step's A values from
    // q's first one (zero past the block row).
    struct Step {
        I col;
        V a[A_REGS];
    };

    __device__ __forceinline__ Step load_step(int64_t q, int64_t end) const {
        Step s;
        s.col = 0;
        if (sub < P && q + sub < end) s.col = col_ind[q + sub];
        const V* from = values + q * (BS * BS) + sub;
        const int64_t left = (end - q) * (BS * BS) - sub;
#pragma unroll
        for (int i = 0; i < A_REGS; ++i) s.a[i] = i * GROUP < left ? from[i * GROUP] : zero<V>();
        return s;
    }

    // Block e's first column of op(B), or -1 past the block row or outside [0, k) (never read).
    __device__ __forceinline__ int64_t column(const Step& s, int e, int64_t left) const {
        const int64_t c = (int64_t(shfl(mask, s.col, e, GROUP)) - base) * BS;
        return e < left && c >= 0 && c < k ? c : -1;
    }

    // Value (r, c) of block e of the step, from the lane that loaded it (indices known at compile
    // time where the loops over them unroll).
    __device__ __forceinline__ V a_value(const Step& s, int e, int r, int c) const {
        const int v = e * BS * BS + (COL_MAJOR ? c * BS + r : r * BS + c);
        return shfl(mask, s.a[v / GROUP], v % GROUP, GROUP);
    }
};

// A group's block row `q .. end` times its columns `j ..` of op(B) into acc. VEC: the lane's T
// columns are one aligned vector of every B row; else element loads of its `live` columns.
template <bool VEC, typename V, typename I, int BS, bool COL_MAJOR>
__device__ __forceinline__ void walk_row(const Walk<V, I, BS, COL_MAJOR>& w, const Dense<const V>& b, int64_t q, int64_t end,
                                         int64_t j, int live, V (&acc)[BS][Walk<V, I, BS, COL_MAJOR>::T]) {
    using W = Walk<V, I, BS, COL_MAJOR>;
    constexpr int T = W::T, P = W::P;
    typename W::Step s = w.load_step(q, end);
    for (; q < end; q += P) {
        // load_b: the step's B rows (blocks past the row or outside k load nothing).
        V bv[P][BS][T];
        bool used[P];
#pragma unroll
        for (int e = 0; e < P; ++e) {
            const int64_t col = w.column(s, e, end - q);
            used[e] = col >= 0;
            if (!used[e]) continue;
            const V* row = b.values + col * b.row_stride + j * b.col_stride;
#pragma unroll
            for (int cc = 0; cc < BS; ++cc, row += b.row_stride) {
                if constexpr (VEC) {
                    const Vec<V, T> x = load_vec<V, T>(row);
#pragma unroll
                    for (int t = 0; t < T; ++t) bv[e][cc][t] = x.v[t];
                } else {
#pragma unroll
                    for (int t = 0; t < T; ++t) bv[e][cc][t] = t < live ? row[t * b.col_stride] : zero<V>();
                }
            }
        }
        // load_step: the next step's indices and values, in flight during the products.
        const typename W::Step next = w.load_step(q + P, end);
        // fma: blocks in order, a block's columns in order (the general kernel's order).
#pragma unroll
        for (int e = 0; e < P; ++e) {
            if (!used[e]) continue;
#pragma unroll
            for (int cc = 0; cc < BS; ++cc)
#pragma unroll
                for (int r = 0; r < BS; ++r) {
                    const V x = w.a_value(s, e, r, cc);
#pragma unroll
                    for (int t = 0; t < T; ++t) acc[r][t] = acc[r][t] + x * bv[e][cc][t];
                }
        }
        s = next;
    }
}

template <typename V, typename I, int BS, bool COL_MAJOR>
__device__ void small_blocks(const SpmmBlockedParams& p) {
    using W = Walk<V, I, BS, COL_MAJOR>;
    constexpr int T = W::T;
    const int lane = threadIdx.x % WARP;
    const int sub = lane % GROUP;
    const W w{reinterpret_cast<const I*>(p.col_ind), reinterpret_cast<const V*>(p.values), p.base, p.shape.k, sub, 0xFFu << (lane - sub)};
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const Dense<const V> b(p.b, 0);
    const Dense<V> c(p.c, 0);
    const V alpha = load_scalar<V>(p.shape.alpha), beta = load_scalar<V>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const int64_t n = p.shape.n, width = int64_t(GROUP) * T;
    const int64_t tiles = (n + width - 1) / width, items = p.shape.m / BS * tiles;
    const int64_t groups = int64_t(gridDim.x) * (blockDim.x / GROUP);
    const bool vec_b = b.col_stride == 1 && b.row_stride % T == 0 && reinterpret_cast<uintptr_t>(b.values) % 16 == 0;
    const bool vec_c = c.col_stride == 1 && c.row_stride % T == 0 && reinterpret_cast<uintptr_t>(c.values) % 16 == 0;
    for (int64_t gi = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / GROUP; gi < items; gi += groups) {
        const int64_t br = gi / tiles, j = gi % tiles * width + int64_t(sub) * T;
        const int live = int(max(int64_t(0), min(int64_t(T), n - j)));
        V acc[BS][T];
#pragma unroll
        for (int r = 0; r < BS; ++r)
#pragma unroll
            for (int t = 0; t < T; ++t) acc[r][t] = zero<V>();
        const int64_t q = int64_t(offsets[br]) - p.base, end = int64_t(offsets[br + 1]) - p.base;
        // The group's lanes agree on the walk (their shuffles); a lane short of columns loads fewer.
        if (vec_b && __all_sync(w.mask, live == T))
            walk_row<true>(w, b, q, end, j, live, acc);
        else
            walk_row<false>(w, b, q, end, j, live, acc);
        const int64_t row0 = br * BS;
#pragma unroll
        for (int r = 0; r < BS; ++r) {
            if (vec_c && live == T) {
                Acc<V, T> out;
#pragma unroll
                for (int t = 0; t < T; ++t) out.v[t] = acc[r][t];
                write_c<V, V, T>(c, row0 + r, j, out, alpha, beta, read_c);
            } else {
#pragma unroll
                for (int t = 0; t < T; ++t)
                    if (t < live) write_out(c, row0 + r, j + t, acc[r][t], alpha, beta, read_c);
            }
        }
    }
}

}  // namespace

#define OXS_KERNEL(name, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK, 2) name(const SpmmBlockedParams p) { body; }

#define OXS_BSR_SMALL_ORDER(sfx, V, I, isfx, BS)                                                   \
    OXS_KERNEL(oxs_spmm_bsr_small_##sfx##_##isfx##_b##BS##_row, (small_blocks<V, I, BS, false>(p))) \
    OXS_KERNEL(oxs_spmm_bsr_small_##sfx##_##isfx##_b##BS##_col, (small_blocks<V, I, BS, true>(p)))

#define OXS_BSR_SMALL_SIZES(sfx, V, I, isfx) \
    OXS_BSR_SMALL_ORDER(sfx, V, I, isfx, 2) OXS_BSR_SMALL_ORDER(sfx, V, I, isfx, 3) OXS_BSR_SMALL_ORDER(sfx, V, I, isfx, 4)

#define OXS_BSR_SMALL(sfx, V) OXS_BSR_SMALL_SIZES(sfx, V, int32_t, i32) OXS_BSR_SMALL_SIZES(sfx, V, int64_t, i64)

OXS_BSR_SMALL(f32_f32_f32, float)
OXS_BSR_SMALL(f64_f64_f64, double)
