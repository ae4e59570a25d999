// SpMM by warp rows: C = alpha * op(A) * op(B) + beta * C in FP32 or FP64 throughout, or with
// 16-bit op(A) and op(B) (FP16, BF16), FP32 sums and C 16-bit or FP32; op(A) given as rows, op(B)
// and C row-major (16-byte aligned rows), one batch, n a multiple of a warp's vectors (128 FP32
// columns, 64 FP64, 128 16-bit; FP32 also 64 in 8-byte vectors, `_narrow`): the cases of the tile
// kernel that preprocess gives to this kernel instead (src/ops/spmm/warp_rows/).
//
// The kernel (parameter block SpmmWarpRowsParams in src/kernels/params/spmm.rs),
// oxs_spmm_warp_rows_<types>_*, `_x2` for twice those columns (instantiations at the end): a
// whole warp per item of preprocess's table, each lane holding VECS vectors (`Lane`) of C's
// columns COLS apart, so that an entry's column, value and address are paid once for COLS x VECS
// columns (the tile and short-row kernels pay them for every 32 or 64). Stages, each a function
// below:
//   0. item: a whole row (up to a few hundred entries on large matrices), or a piece of PIECE
//      entries of a longer one;
//   1. load: the warp reads 32 of the item's entries at a time, coalesced, one a lane;
//   2. multiply: the entries are handed out by shuffles, UNROLL B rows in flight per lane;
//   3. store: a whole row writes C = alpha * acc + beta * C (C not read when beta is 0), a piece
//      its partial row;
//   4. finish (pieces): the last piece of a group of GROUP consecutive pieces to arrive adds the
//      group's partial rows in piece order; for a row of more than one group, the group's sum
//      replaces its first partial row and the last group to arrive adds the groups' sums in group
//      order; then it writes C. Arrival counters (one a group and one a split row, per column
//      slice) are reset by the last arrival, so a call leaves them all zero.
// Preprocess puts the split rows' pieces first, longest rows first, then the whole rows longer than
// a piece, so that the longest chains start in the first wave; a plain call's table, built on the
// GPU (spmm_warp_rows_table.cu), puts the rows longer than a piece first in three classes by
// length, each in row order. Adding inside the kernel rather than in a second one saves that
// kernel's launch and its pass over the split rows, which would eat the gain at N = 128.
//
// Why a kernel of its own: on graphs of a few entries a row (arxiv_like, github_musae, ca-CondMat,
// vsp_model1) the tile kernel executed 65 warp instructions per entry at N = 128 where cuSPARSE's
// CSR_ALG2 needs 36, the same bytes moving through L2 (Nsight, bench/notes/spmm-kernels.md).
// Summation order: an item's products in stored order from zero, per column; a split row's pieces
// as above, whichever warp arrives last (atomics only count arrivals): bitwise reproducible. The
// table starts with preprocess's token: a buffer overwritten since is not trusted, and the warps
// then take the rows as stored, a whole row each (right, slowly for long rows).
#include "common/flags.cuh"
#include "common/spmm.cuh"

using namespace spmm;

namespace {

// The types and shape of a lane's work: op(A) and op(B) values V, C values O, sums in C; a lane
// loads VEC values of V at once (16 bytes, or 8 for 16-bit values at 128 columns), so a warp
// covers COLS columns with one vector a lane.
template <typename V_, typename O_, typename C_, int VEC_>
struct Lane {
    using V = V_;
    using O = O_;
    using C = C_;
    static constexpr int VEC = VEC_;
    static constexpr int COLS = WARP * VEC;
    using Sum = Acc<C, VEC>;
    // A lane's sums as 16- or 8-byte words (its columns of a partial row, in the compute type).
    using Word = std::conditional_t<sizeof(Sum) % 16 == 0, uint4, uint2>;
    static constexpr int WORDS = int(sizeof(Sum) / sizeof(Word));
    static_assert(sizeof(V) * VEC == 16 || sizeof(V) * VEC == 8, "16- or 8-byte vectors");
    static_assert(sizeof(Sum) % sizeof(Word) == 0, "whole words of sums");
};
using F32 = Lane<float, float, float, 4>;
static_assert(F32::COLS == SPMM_WARP_ROWS_COLS, "the launcher's FP32 columns a vector");
constexpr int WARPS = BLOCK / WARP;             // items a block
constexpr int UNROLL = SPMM_WARP_ROWS_UNROLL;   // entries whose B rows are in flight a lane
constexpr int AHEAD = 2;                        // partial rows in flight a lane (stage 4; 4 spilled)
constexpr int GROUP = SPMM_WARP_ROWS_GROUP;    // pieces a group (stage 4)
constexpr unsigned FULL = 0xffffffffu;
constexpr uint64_t BEGIN_MASK = (1ull << 48) - 1;

// ---- stage 0: the warp's item -------------------------------------------------------------------

// A row's entries begin .. begin + len; slot -1: the whole row `at`, else a piece of the split
// row whose add slot is `at`, leaving its sums in partial row `slot`.
struct Item {
    int64_t at, begin;
    int len, slot;
};

__device__ __forceinline__ bool trusted(const SpmmWarpRowsParams& p) {
    return __ldg(reinterpret_cast<const unsigned long long*>(p.table)) == p.token;
}

// Item w of the table (16 bytes: begin | len << 48, then row | 0 << 32 for a whole row or
// add slot | (slot + 1) << 32 for a piece, after the 16-byte header; see warp_rows/table.rs), or row w
// as stored when the table is not trusted. False: no item. The header's second word, where not
// 0, counts the items of a table built on the GPU in a room of p.items slots.
template <typename V, typename I>
__device__ __forceinline__ bool find_item(const SpmmWarpRowsParams& p, const Rows<V, I>& a, int64_t w, Item& it) {
    const ulonglong2 header = __ldg(reinterpret_cast<const ulonglong2*>(p.table));
    if (header.x == p.token) {
        if (w >= (header.y != 0 ? int64_t(header.y) : p.items)) return false;
        const ulonglong2 s = __ldg(reinterpret_cast<const ulonglong2*>(p.table) + 1 + w);
        it = Item{int64_t(s.y & 0xffffffffull), int64_t(s.x & BEGIN_MASK), int(s.x >> 48), int(s.y >> 32) - 1};
        return true;
    }
    if (w >= p.shape.m) return false;
    const int64_t b = a.begin(w);
    it = Item{w, b, int(a.end(w) - b), -1};
    return true;
}

// The item's row (or add slot) and partial row again, read after the products. Held across them
// (with the item's number), they were spilled at 40 registers, and each warp's spill stores
// reached L2: arxiv_like FP32 N = 128 wrote 242 MB to L2 where C is 87 (Nsight).
// Volatile, so that the compiler can reuse neither find_item's load nor the special registers'
// first read and keep the values live after all; the table's slot is in L1 by then.
__device__ __forceinline__ void reread_tail(const SpmmWarpRowsParams& p, bool from_table, Item& it) {
    unsigned block, thread;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(block));
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(thread));
    const int64_t w = int64_t(block) * WARPS + thread / WARP;
    if (!from_table) {
        it.at = w;
        it.slot = -1;
        return;
    }
    // The second word of item w's slot (find_item's `s.y`): 16 bytes of header, 16 an item.
    const unsigned long long* second = reinterpret_cast<const unsigned long long*>(p.table) + 2 * (1 + w) + 1;
    unsigned long long y;
    asm volatile("ld.global.nc.u64 %0, [%1];" : "=l"(y) : "l"(second));
    it.at = int64_t(y & 0xffffffffull);
    it.slot = int(y >> 32) - 1;
}

// ---- stages 1 and 2: the products ---------------------------------------------------------------

// Whether a round's last entries load UNROLL B rows (`add_entries_up_to`).
template <typename L, int VECS>
constexpr bool PADDED = VECS > 1 && sizeof(typename L::V) == 4;

// acc[v] += entries u0 .. u0 + COUNT - 1 of the round (their column and value held by those lanes)
// times their B rows' columns j + COLS v .. + VEC - 1, COUNT B rows in flight a lane. Every load
// and product unconditional: the last entries of a round take a narrower COUNT (`add_entries_up_to`)
// rather than predicates, under which ptxas moved each loaded word again. PADDED
// kernels load COUNT rows and add the first `live` of them.
template <typename L, int VECS, int COUNT>
__device__ __forceinline__ void add_entries(const typename L::V* bj, uint32_t row_bytes, uint32_t col, typename L::C val, int u0, int live, typename L::Sum (&acc)[VECS]) {
    using V = typename L::V;
    using C = typename L::C;
    constexpr int VEC = L::VEC, COLS = L::COLS;
    Vec<V, VEC> bv[COUNT][VECS];
    C av[COUNT];
#pragma unroll
    for (int u = 0; u < COUNT; ++u) {
        const V* row = row_at(bj, __shfl_sync(FULL, col, u0 + u), row_bytes);
        av[u] = __shfl_sync(FULL, val, u0 + u);
#pragma unroll
        for (int v = 0; v < VECS; ++v) bv[u][v] = load_vec<V, VEC>(row + v * COLS);
    }
#pragma unroll
    for (int u = 0; u < COUNT; ++u) {
        if constexpr (PADDED<L, VECS>) {
            if (u >= live) break;
        }
#pragma unroll
        for (int v = 0; v < VECS; ++v)
#pragma unroll
            for (int i = 0; i < VEC; ++i) acc[v].v[i] = acc[v].v[i] + av[u] * to_compute<C>(bv[u][v].v[i]);
    }
}

// The next min(`left`, N) entries from u0. FP32 with two vectors a lane loads N B rows (row 0 past
// the round's entries) and adds only the entries: narrower copies spilled there, at 48 registers
// for 5 blocks a multiprocessor (arxiv_like N = 256 212 -> 218 us).
template <typename L, int VECS, int N>
__device__ __forceinline__ void add_entries_up_to(const typename L::V* bj, uint32_t row_bytes, uint32_t col, typename L::C val, int u0, int left, typename L::Sum (&acc)[VECS]) {
    if constexpr (N == 1 || PADDED<L, VECS>) {
        add_entries<L, VECS, N>(bj, row_bytes, col, val, u0, left, acc);
    } else if (left >= N) {
        add_entries<L, VECS, N>(bj, row_bytes, col, val, u0, N, acc);
    } else {
        add_entries_up_to<L, VECS, N - 1>(bj, row_bytes, col, val, u0, left, acc);
    }
}

// acc[v] += the item's entries times their B rows' columns j + COLS v .. + VEC - 1. A column
// outside [0, k) (undefined input) becomes column 0 with value 0, as in the other kernels, so B is
// never read out of bounds. The warp loads 32 entries at a time, one a lane, and hands them out by
// shuffles, UNROLL at a time (`add_entries_up_to`).
//
// B row c lies at bj + c * ldb, one 32 x 32 -> 64-bit multiply-add on bytes (`row_at`): the plan
// takes this kernel only where ldb * sizeof(V) and k fit 32 bits (warp_rows/mod.rs `b_offsets_fit`). Before
// (FP32 N = 128), 64-bit addresses, every load rebuilding B's pointer and ldb, and
// slots past a round's entries loading zeros under a predicate took 121 instructions for UNROLL =
// 4 entries; arxiv_like executed 57 warp instructions an entry in all, against 36 in cuSPARSE's
// csrmm_alg2_kernel.
template <typename L, int VECS, typename I>
__device__ __forceinline__ void multiply(const Rows<typename L::V, I>& a, int64_t k, const Item& it, const typename L::V* bj, int64_t ldb, typename L::Sum (&acc)[VECS]) {
    using V = typename L::V;
    using C = typename L::C;
    constexpr int VEC = L::VEC, COLS = L::COLS;
    const int lane = threadIdx.x % WARP;
    // Entry offsets fit 32 bits where the index type does (offsets and columns share it): one
    // register less across the loop, whose 64-bit offset was spilled every round.
    using Off = std::conditional_t<sizeof(I) == 4, int32_t, int64_t>;
    const Off first = Off(it.begin);
    const uint32_t row_bytes = uint32_t(ldb) * uint32_t(sizeof(V));
#pragma unroll 1
    for (int o = 0; o < it.len; o += WARP) {
        const int count = min(WARP, it.len - o);
        uint32_t col = 0;
        C val = C(0);
        if (lane < count) {
            const Off q = first + o + lane;
            const int64_t c = int64_t(__ldcs(a.cols + q)) - a.base;
            const C v = a.template value<C>(q);  // beside the column, not after it (so both loads go out at once)
            if (uint64_t(c) < uint64_t(k)) {
                col = uint32_t(c);
                val = v;
            }
        }
        // Only the round's entries load and add (arxiv_like N = 128: 139 -> 123 us
        // against slots past them loading B row 0), but in FP32's two-vector kernel (PADDED).
        // u0 + u < 32 throughout: u0 is a multiple of UNROLL below count <= 32.
#pragma unroll 1
        for (int u0 = 0; u0 < count; u0 += UNROLL) add_entries_up_to<L, VECS, UNROLL>(bj, row_bytes, col, val, u0, count - u0, acc);
    }
}

// ---- stage 3: the item's sums -------------------------------------------------------------------

template <typename L, int VECS>
__device__ __forceinline__ void write_row(const SpmmWarpRowsParams& p, int64_t row, int64_t j, const typename L::Sum (&acc)[VECS]) {
    using C = typename L::C;
    const Dense<typename L::O> c(p.c, 0);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
#pragma unroll
    for (int v = 0; v < VECS; ++v) write_c<typename L::O, C, L::VEC>(c, row, j + v * L::COLS, acc[v], alpha, beta, read_c);
}

// Partial row `slot`'s columns of this lane, kept in L2 for the warp that adds them.
template <typename L, int VECS>
__device__ __forceinline__ void store_partial(const SpmmWarpRowsParams& p, int64_t slot, int64_t j, const typename L::Sum (&acc)[VECS]) {
    typename L::C* part = reinterpret_cast<typename L::C*>(p.partials) + slot * p.shape.n + j;
#pragma unroll
    for (int v = 0; v < VECS; ++v)
#pragma unroll
        for (int w = 0; w < L::WORDS; ++w) __stcg(reinterpret_cast<typename L::Word*>(part + v * L::COLS) + w, reinterpret_cast<const typename L::Word*>(&acc[v])[w]);
}

// ---- stage 4: a split row's pieces added by the last to arrive ----------------------------------

// Counts this warp's arrival at `counter` after its partial row is published; true for the
// last of `total` arrivals, which resets the counter and may then read the others' rows.
__device__ __forceinline__ bool arrive(uint32_t* counter, int total) {
    flags::release_fence();
    __syncwarp();
    uint32_t before = 0;
    if (threadIdx.x % WARP == 0) before = atomicAdd(counter, 1u);
    before = __shfl_sync(FULL, before, 0);
    if (before + 1 != uint32_t(total)) return false;
    if (threadIdx.x % WARP == 0) *counter = 0;  // ready for the next call
    __threadfence();
    return true;
}

// acc = the sum of partial rows first, first + stride, ... (count of them) in that order, read
// from L2 (written by other warps of this launch).
template <typename L, int VECS>
__device__ __forceinline__ void add_partials(const SpmmWarpRowsParams& p, int64_t first, int64_t stride, int count, int64_t j, typename L::Sum (&acc)[VECS]) {
    using Sum = typename L::Sum;
    const typename L::C* parts = reinterpret_cast<const typename L::C*>(p.partials) + first * p.shape.n + j;
#pragma unroll
    for (int v = 0; v < VECS; ++v) acc[v].zero_all();
#pragma unroll 1
    for (int t0 = 0; t0 < count; t0 += AHEAD) {
        Sum q[AHEAD][VECS];
#pragma unroll
        for (int u = 0; u < AHEAD; ++u)
#pragma unroll
            for (int v = 0; v < VECS; ++v)
                if (t0 + u < count)
#pragma unroll
                    for (int w = 0; w < L::WORDS; ++w)
                        reinterpret_cast<typename L::Word*>(&q[u][v])[w] = __ldcg(reinterpret_cast<const typename L::Word*>(parts + (t0 + u) * stride * p.shape.n + v * L::COLS) + w);
#pragma unroll
        for (int u = 0; u < AHEAD; ++u) {
            if (t0 + u >= count) break;
#pragma unroll
            for (int v = 0; v < VECS; ++v)
#pragma unroll
                for (int i = 0; i < L::VEC; ++i) acc[v].v[i] = acc[v].v[i] + q[u][v].v[i];
        }
    }
}

// The piece `it` has left its partial row; the last of its group adds the group, and for a row of
// several groups the last group adds the groups' sums; whoever finishes the row writes C. The
// split row's add slot (16 bytes after the items: row, first slot | count << 32) says which.
// Counters (p.counters, one a column slice each): the split rows' first, then one per slot.
template <typename L, int VECS>
__device__ __forceinline__ void finish_piece(const SpmmWarpRowsParams& p, const Item& it, int64_t j) {
    if (it.at >= p.adds) return;  // not from preprocess's table
    const ulonglong2 s = __ldg(reinterpret_cast<const ulonglong2*>(p.table) + 1 + p.items + it.at);
    const int64_t row = int64_t(s.x);
    const int64_t first = int64_t(s.y & 0xffffffffull);
    const int count = int(s.y >> 32);
    const int group = (it.slot - int(first)) / GROUP;
    const int64_t group_first = first + int64_t(group) * GROUP;
    uint32_t* counters = reinterpret_cast<uint32_t*>(p.counters);
    typename L::Sum acc[VECS];
    const int64_t slices = gridDim.y;
    const int group_count = min(GROUP, count - group * GROUP);
    if (!arrive(counters + (p.adds + group_first) * slices + blockIdx.y, group_count)) return;
    add_partials<L, VECS>(p, group_first, 1, group_count, j, acc);
    if (count > GROUP) {
        store_partial<L, VECS>(p, group_first, j, acc);  // the group's sum, read by the last group
        if (!arrive(counters + it.at * slices + blockIdx.y, (count + GROUP - 1) / GROUP)) return;
        add_partials<L, VECS>(p, first, GROUP, (count + GROUP - 1) / GROUP, j, acc);
    }
    write_row<L, VECS>(p, row, j, acc);
}

// ---- the kernel ---------------------------------------------------------------------------------

template <typename L, int VECS, typename I>
__device__ void warp_rows(const SpmmWarpRowsParams& p) {
    wait_for_previous_kernel();  // op(B) may still be being staged (src/ops/spmm/mod.rs, pdl.cuh)
    if (!chosen(p.choice)) return;  // a plain call's chain chose the short rows
    using V = typename L::V;
    const Rows<V, I> a(p.a, 0);
    const int64_t w = int64_t(blockIdx.x) * WARPS + threadIdx.x / WARP;
    Item it;
    if (!find_item<V, I>(p, a, w, it)) return;  // whole warps
    const bool from_table = trusted(p);
    const Dense<const V> b(p.b, 0);
    const int64_t j = int64_t(blockIdx.y) * L::COLS * VECS + (threadIdx.x % WARP) * L::VEC;  // the lane's first column
    typename L::Sum acc[VECS];
#pragma unroll
    for (int v = 0; v < VECS; ++v) acc[v].zero_all();
    multiply<L, VECS, I>(a, p.shape.k, it, b.values + j, b.row_stride, acc);
    reread_tail(p, from_table, it);
    if (it.slot < 0) {
        write_row<L, VECS>(p, it.at, j, acc);
        return;
    }
    store_partial<L, VECS>(p, it.slot, j, acc);
    finish_piece<L, VECS>(p, it, j);
}

}  // namespace

// 6 blocks a multiprocessor (40 registers) for one vector a lane: faster than no bound (63
// registers) or 5 blocks (48 registers, no spill) on arxiv_like N = 128. At 40 the FP32 and 16-bit
// kernels of 32-bit indices spill nothing (reread_tail, add_entries_up_to). Two vectors: 4 blocks
// (64 registers), but FP32 5 (48 registers; its spills are two stores an item, and the fifth block
// paid: arxiv_like N = 256 233 -> 214 us, github_musae 101 -> 96).
// FP64 takes 6 and 4 blocks too (the same bytes a lane). `x2`
// names the kernel covering twice the launcher's columns a vector (src/kernels/spmm.rs
// `warp_rows_cols`): two 16-byte vectors a lane for FP32 and FP64, one of 16 bytes (8 values, 8
// sums) for 16-bit values, whose plain kernel loads 8 bytes (4 values); the 16-byte one spills at
// 5 or 6 blocks (60-116 bytes) and takes 4. `narrow`: FP32 in 8-byte vectors (64 columns a warp)
// for n a multiple of 64 but not of 128.
#define OXS_WARP_ROWS_KERNEL(name, L, VECS, BLOCKS)                                                                                            \
    extern "C" __global__ void __launch_bounds__(BLOCK, BLOCKS) name##_i32(const SpmmWarpRowsParams p) { warp_rows<L, VECS, int32_t>(p); } \
    extern "C" __global__ void __launch_bounds__(BLOCK, BLOCKS) name##_i64(const SpmmWarpRowsParams p) { warp_rows<L, VECS, int64_t>(p); }
namespace {
using F32Narrow = Lane<float, float, float, 2>;
using F64 = Lane<double, double, double, 2>;
using F16 = Lane<__half, __half, float, 4>;
using F16Wide = Lane<__half, __half, float, 8>;
using F16F32 = Lane<__half, float, float, 4>;
using F16F32Wide = Lane<__half, float, float, 8>;
using BF16 = Lane<__nv_bfloat16, __nv_bfloat16, float, 4>;
using BF16Wide = Lane<__nv_bfloat16, __nv_bfloat16, float, 8>;
using BF16F32 = Lane<__nv_bfloat16, float, float, 4>;
using BF16F32Wide = Lane<__nv_bfloat16, float, float, 8>;
}  // namespace
// The plain kernel (one vector a lane, 6 blocks) and the `_x2` one of each type combination.
#define OXS_WARP_ROWS(SFX, L, X2, X2_VECS, X2_BLOCKS)                  \
    OXS_WARP_ROWS_KERNEL(oxs_spmm_warp_rows_##SFX, L, 1, 6)            \
    OXS_WARP_ROWS_KERNEL(oxs_spmm_warp_rows_x2_##SFX, X2, X2_VECS, X2_BLOCKS)
OXS_WARP_ROWS(f32_f32_f32, F32, F32, 2, 5)
OXS_WARP_ROWS_KERNEL(oxs_spmm_warp_rows_narrow_f32_f32_f32, F32Narrow, 1, 6)
OXS_WARP_ROWS(f64_f64_f64, F64, F64, 2, 4)
OXS_WARP_ROWS(f16_f16_f32, F16, F16Wide, 1, 4)
OXS_WARP_ROWS(f16_f32_f32, F16F32, F16F32Wide, 1, 4)
OXS_WARP_ROWS(bf16_bf16_f32, BF16, BF16Wide, 1, 4)
OXS_WARP_ROWS(bf16_f32_f32, BF16F32, BF16F32Wide, 1, 4)
