// Column order for SpMV (FastLoad's column sort): op(A)'s columns grouped by entry count, busiest
// first. src/kernels/spmv_columns.rs drives the stages on one stream; the parameter block and the
// reasoning are in src/kernels/params/spmv_columns.rs and src/ops/spmv/columns.rs.
//
// Preprocess:
//   1. count      counts[c] += 1 for every entry of column c (integer atomics: order-free)
//   2. classify   per column: its class into the statistics, key = 64 - class, pos = c; per line
//                 of 32 columns the class of its busiest column (the host reads the statistics
//                 back and decides whether the new order pays)
//   3. one radix pass (common/radix_sort.cuh) stable by key: order[j] = the column at position j
//   4. rank       counts[order[j]] = j (the counts are no longer needed)
//   5. relabel    cols_out[q] = rank of entry q's column (+ base); out-of-range columns stay out
//   (stamp)      the token that makes the order trusted
// Every call:
//   6. gather     x_out[j] = x[order[j]]; without the token (the buffer was overwritten after
//                 preprocess) x_out = x and cols_out = A's own indices instead: the natural order
//
// Nothing depends on timing: the atomics only count, and the sort is stable.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/radix_sort.cuh"
#include "common/scan.cuh"
#include <stdint.h>

namespace {

constexpr int BLOCK = SPMV_COL_BLOCK;
constexpr int BITS = SPMV_COL_RADIX_BITS;
constexpr int ROUNDS = SPMV_COL_ROUNDS;
constexpr int CLASSES = SPMV_COL_CLASSES;
constexpr int LINE = SPMV_COL_LINE;
static_assert(BLOCK == 1 << BITS, "the sort gives thread d of a block digit d");
static_assert(LINE == 32, "a line is a warp's columns");

using grid::global_thread;
using grid::thread_count;

// Two classes per octave of the count (see SPMV_COL_CLASSES).
__device__ __forceinline__ unsigned count_class(uint32_t c) {
    if (c == 0) return 0;
    const unsigned b = 31 - __clz(c);
    const unsigned half = b >= 1 ? (c >> (b - 1)) & 1u : 0u;
    return 1 + 2 * b + half;
}

// 1.
template <typename I>
__device__ void count(const SpmvColumnsParams& p) {
    const I* cols = reinterpret_cast<const I*>(p.a.cols);
    uint32_t* counts = reinterpret_cast<uint32_t*>(p.counts);
    for (int64_t q = global_thread(); q < p.nnz; q += thread_count()) {
        const int64_t c = int64_t(cols[q]) - p.a.base;
        if (c >= 0 && c < p.k) atomicAdd(counts + c, 1u);
    }
}

// 2. Per block: shared histograms, added to the global statistics once per class.
__device__ void classify(const SpmvColumnsParams& p) {
    __shared__ unsigned long long columns[CLASSES], entries[CLASSES], lines[CLASSES];
    for (int i = threadIdx.x; i < CLASSES; i += BLOCK) columns[i] = entries[i] = lines[i] = 0;
    __syncthreads();
    const uint32_t* counts = reinterpret_cast<const uint32_t*>(p.counts);
    uint32_t* keys = reinterpret_cast<uint32_t*>(p.keys_in);
    uint32_t* pos = reinterpret_cast<uint32_t*>(p.pos_in);
    const int64_t lines_total = (p.k + LINE - 1) / LINE;
    const int lane = threadIdx.x % LINE;
    // Whole warps walk whole lines, so the warp-wide maximum below is warp-uniform.
    for (int64_t first = (global_thread() / LINE) * LINE; first / LINE < lines_total; first += thread_count()) {
        const int64_t c = first + lane;
        const bool in = c < p.k;
        const uint32_t n = in ? counts[c] : 0;
        const unsigned cls = count_class(n);
        if (in) {
            atomicAdd(&columns[cls], 1ull);
            atomicAdd(&entries[cls], (unsigned long long)n);
            keys[c] = uint32_t(CLASSES - 1 - cls);
            pos[c] = uint32_t(c);
        }
        const unsigned busiest = __reduce_max_sync(0xffffffffu, in ? cls : 0u);
        if (lane == 0) atomicAdd(&lines[busiest], 1ull);
    }
    __syncthreads();
    unsigned long long* stats = reinterpret_cast<unsigned long long*>(p.stats);
    for (int i = threadIdx.x; i < CLASSES; i += BLOCK) {
        if (columns[i]) atomicAdd(stats + i, columns[i]);
        if (entries[i]) atomicAdd(stats + CLASSES + i, entries[i]);
        if (lines[i]) atomicAdd(stats + 2 * CLASSES + i, lines[i]);
    }
}

// 4.
__device__ void rank(const SpmvColumnsParams& p) {
    const uint32_t* order = reinterpret_cast<const uint32_t*>(p.order);
    uint32_t* ranks = reinterpret_cast<uint32_t*>(p.counts);
    for (int64_t j = global_thread(); j < p.k; j += thread_count()) ranks[order[j]] = uint32_t(j);
}

// 5.
template <typename I>
__device__ void relabel(const SpmvColumnsParams& p) {
    const I* cols = reinterpret_cast<const I*>(p.a.cols);
    const uint32_t* ranks = reinterpret_cast<const uint32_t*>(p.counts);
    I* out = reinterpret_cast<I*>(p.cols_out);
    for (int64_t q = global_thread(); q < p.nnz; q += thread_count()) {
        const int64_t c = int64_t(cols[q]) - p.a.base;
        out[q] = (c >= 0 && c < p.k) ? I(int64_t(ranks[c]) + p.a.base) : I(p.a.base - 1);
    }
}

// 6. Values and indices moved as raw bytes of their size. A position read from a buffer
// overwritten in spite of the token is clamped: wrong numbers, never a fault.
template <typename T, typename I>
__device__ void gather(const SpmvColumnsParams& p) {
    const T* x = reinterpret_cast<const T*>(p.x);
    T* out = reinterpret_cast<T*>(p.x_out);
    if (*reinterpret_cast<const volatile uint64_t*>(p.token_at) == p.token) {
        const uint32_t* order = reinterpret_cast<const uint32_t*>(p.order);
        for (int64_t j = global_thread(); j < p.k; j += thread_count()) out[j] = __ldg(x + min(int64_t(order[j]), p.k - 1));
        return;
    }
    for (int64_t j = global_thread(); j < p.k; j += thread_count()) out[j] = x[j];
    const I* cols = reinterpret_cast<const I*>(p.a.cols);
    I* cols_out = reinterpret_cast<I*>(p.cols_out);
    for (int64_t q = global_thread(); q < p.nnz; q += thread_count()) cols_out[q] = cols[q];
}

}  // namespace

extern "C" __global__ void oxs_spmv_col_count_i32(const SpmvColumnsParams p) { count<int32_t>(p); }
extern "C" __global__ void oxs_spmv_col_count_i64(const SpmvColumnsParams p) { count<int64_t>(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_col_classify(const SpmvColumnsParams p) { classify(p); }
extern "C" __global__ void oxs_spmv_col_rank(const SpmvColumnsParams p) { rank(p); }
extern "C" __global__ void oxs_spmv_col_relabel_i32(const SpmvColumnsParams p) { relabel<int32_t>(p); }
extern "C" __global__ void oxs_spmv_col_relabel_i64(const SpmvColumnsParams p) { relabel<int64_t>(p); }

extern "C" __global__ void oxs_spmv_col_stamp(const SpmvColumnsParams p) { *reinterpret_cast<uint64_t*>(p.token_at) = p.token; }

#define OXS_SPMV_COL_GATHER(IS, I)                                                                                  \
    extern "C" __global__ void oxs_spmv_col_gather_b1_##IS(const SpmvColumnsParams p) { gather<uint8_t, I>(p); }  \
    extern "C" __global__ void oxs_spmv_col_gather_b2_##IS(const SpmvColumnsParams p) { gather<uint16_t, I>(p); } \
    extern "C" __global__ void oxs_spmv_col_gather_b4_##IS(const SpmvColumnsParams p) { gather<uint32_t, I>(p); } \
    extern "C" __global__ void oxs_spmv_col_gather_b8_##IS(const SpmvColumnsParams p) { gather<uint2, I>(p); }    \
    extern "C" __global__ void oxs_spmv_col_gather_b16_##IS(const SpmvColumnsParams p) { gather<uint4, I>(p); }
OXS_SPMV_COL_GATHER(i32, int32_t)
OXS_SPMV_COL_GATHER(i64, int64_t)

// 3. The radix pass and the scan of its digit counts.
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_col_sort_histogram(const SpmvColumnsParams p) {
    radix::tile_histogram<BITS, ROUNDS>(reinterpret_cast<const uint32_t*>(p.keys_in), p.k, p.sort_tiles, 0,
                                        reinterpret_cast<uint32_t*>(p.sort_counts));
}
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_col_sort_scatter(const SpmvColumnsParams p) {
    radix::tile_scatter<BITS, ROUNDS>(reinterpret_cast<const uint32_t*>(p.keys_in), reinterpret_cast<const uint32_t*>(p.pos_in),
                                      reinterpret_cast<uint32_t*>(p.keys_out), reinterpret_cast<uint32_t*>(p.pos_out),
                                      reinterpret_cast<const uint32_t*>(p.sort_counts), p.k, p.sort_tiles, 0);
}
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_col_scan_reduce(const SpmvColumnsParams p) {
    scan::chunk_reduce<BLOCK, ROUNDS>(reinterpret_cast<const uint32_t*>(p.scan_data), p.scan_n, reinterpret_cast<uint32_t*>(p.scan_sums));
}
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_col_scan_sums(const SpmvColumnsParams p) {
    scan::sums_in_place<BLOCK>(reinterpret_cast<uint32_t*>(p.scan_sums), p.scan_blocks);
}
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_col_scan_apply(const SpmvColumnsParams p) {
    scan::chunk_apply<BLOCK, ROUNDS>(reinterpret_cast<uint32_t*>(p.scan_data), p.scan_n, reinterpret_cast<const uint32_t*>(p.scan_sums));
}
