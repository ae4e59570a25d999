// Index sorts of cuSPARSE's legacy API: csrsort / cscsort (sort the minor indices within every
// segment, a CSR row or a CSC column) and coosort (sort all entries by (major, minor)). Every sort
// is stable and carries the permutation P along: P[j] ends where its entry ends.
//
// Segmented sort (csrsort, cscsort), by segment length: a classify kernel lists the segments of
// each tier (warp-aggregated atomics: a list's order varies from run to run, but each segment is
// sorted on its own, so the result does not), then a kernel per tier sorts its list:
//   thread tier   length <= INDEX_SORT_THREAD_MAX (16): one thread per segment, a stable sorting network
//                 in registers (32 segments a warp, so their loads' latencies overlap)
//   warp tier     length <= INDEX_SORT_WARP_MAX (128): one warp per segment, up to four entries per
//                 lane, each entry's rank counted against all others with shuffles (ties broken
//                 by position)
//   small, large  up to SMALL and LARGE capacity: one block per segment, cub::BlockRadixSort on
//                 the key bits [0, end_bit) in registers and shared memory, entries loaded in
//                 order (blocked) so the block sort's stability is the segment's
//   long          longer: gathered into one array (a scan of the listed lengths gives each its
//                 start; its place in the list is its rank), sorted stably by the minor index with
//                 the global radix passes, then stably by the rank, and written back in place
// COO sort: the minor indices and P are copied, then global radix passes by the minor index and by
// the major index (LSD, so the major index decides and ties keep the minor order, then position).
//
// The global radix passes are common/radix_sort.cuh's, with counts scanned by common/scan.cuh; no
// atomics decide a place, so every result is the same bit for bit on every run. Indices outside
// [base, dim + base) are undefined behaviour, as in cuSPARSE.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/radix_sort.cuh"
#include "common/scan.cuh"
#include <cub/block/block_radix_sort.cuh>
#include <stdint.h>

namespace {

// Tiling constants come from src/kernels/params/sort.rs, shared with the host's arithmetic.
constexpr int BLOCK = INDEX_SORT_BLOCK;
constexpr int RADIX_BITS = INDEX_SORT_RADIX_BITS;
constexpr int ROUNDS = INDEX_SORT_ROUNDS;
constexpr int SCAN_ROUNDS = INDEX_SORT_SCAN_ROUNDS;
constexpr int WARP = 32;
constexpr int THREAD_MAX = INDEX_SORT_THREAD_MAX;
constexpr int WARP_MAX = INDEX_SORT_WARP_MAX;
constexpr int SMALL_THREADS = INDEX_SORT_SMALL_THREADS, SMALL_ITEMS = INDEX_SORT_SMALL_ITEMS;
constexpr int LARGE_THREADS = INDEX_SORT_LARGE_THREADS, LARGE_ITEMS = INDEX_SORT_LARGE_ITEMS;
constexpr int SMALL_MAX = SMALL_THREADS * SMALL_ITEMS;
constexpr int LARGE_MAX = LARGE_THREADS * LARGE_ITEMS;
constexpr unsigned FULL_MASK = 0xffffffffu;
static_assert(INDEX_SORT_RADIX == 1u << INDEX_SORT_RADIX_BITS, "RADIX is 2^RADIX_BITS");
static_assert(INDEX_SORT_BLOCK == INDEX_SORT_RADIX, "the radix scatter gives thread d of a block digit d");
static_assert(WARP_MAX == 4 * WARP, "the warp tier holds up to four entries per lane");
static_assert(THREAD_MAX == 16, "the thread tier's networks are of 4, 8 and 16 entries");

using grid::global_thread;
using grid::thread_count;

__device__ __forceinline__ int64_t segment_begin(const SortSegmentsParams& p, int64_t s) {
    return int64_t(reinterpret_cast<const int*>(p.offsets)[s]) - p.base;
}

// Items of a radix sort: given, or (long segments) counted on the GPU.
__device__ __forceinline__ int64_t item_count(int64_t n, uint64_t count_at) {
    return count_at ? int64_t(*reinterpret_cast<const uint64_t*>(count_at) & 0xffffffffu) : n;
}

// Radix tiles: the host's, or those of the count found on the GPU (so that a matrix without long
// segments scans no counts).
constexpr int64_t TILE = int64_t(BLOCK) * ROUNDS;
__device__ __forceinline__ int64_t tile_count(int64_t tiles, uint64_t count_at) {
    return count_at ? (item_count(0, count_at) + TILE - 1) / TILE : tiles;
}

// ---- warp tier --------------------------------------------------------------------------------
// A segment of up to ITEMS * 32 entries, entry q = i * 32 + lane in lane's item i (coalesced
// loads). Each entry's rank is the number of entries q' with key' < key, or key' == key and
// q' < q: a stable sort in one broadcast (shuffle) of every entry. All loads precede the barrier
// and all stores follow it, so the segment is rewritten in place.
template <int ITEMS>
__device__ void warp_rank_sort(int* idx, int* perm, int64_t begin, int len, int lane) {
    unsigned key[ITEMS];
    int value[ITEMS], rank[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int q = i * WARP + lane;
        key[i] = q < len ? unsigned(idx[begin + q]) : 0u;
        value[i] = q < len ? perm[begin + q] : 0;
        rank[i] = 0;
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int count = min(WARP, len - j * WARP);  // the same for the whole warp
        for (int src = 0; src < count; ++src) {
            const unsigned other = __shfl_sync(FULL_MASK, key[j], src);
            const int q_other = j * WARP + src;
#pragma unroll
            for (int i = 0; i < ITEMS; ++i) rank[i] += (other < key[i]) || (other == key[i] && q_other < i * WARP + lane);
        }
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        if (i * WARP + lane < len) {
            idx[begin + rank[i]] = int(key[i]);
            perm[begin + rank[i]] = value[i];
        }
    }
}

// ---- thread tier -------------------------------------------------------------------------------
// A segment of up to N entries in one thread's registers, sorted by odd-even transposition (N
// rounds of neighbour compare-swaps, swapping only a strictly greater key forward: stable, as
// bubble sort is). Padding keys (all bits set) sit last and never move. A warp sorts 32 segments at
// once, so the loads' latency is shared, as it is not when a warp takes a short segment alone.
template <int N>
__device__ void thread_sort(int* idx, int* perm, int64_t begin, int len) {
    unsigned key[N];
    int value[N];
#pragma unroll
    for (int i = 0; i < N; ++i) {
        key[i] = i < len ? unsigned(idx[begin + i]) : FULL_MASK;
        value[i] = i < len ? perm[begin + i] : 0;
    }
#pragma unroll
    for (int round = 0; round < N; ++round) {
#pragma unroll
        for (int i = round & 1; i + 1 < N; i += 2) {
            if (key[i] > key[i + 1]) {
                const unsigned k = key[i];
                key[i] = key[i + 1];
                key[i + 1] = k;
                const int v = value[i];
                value[i] = value[i + 1];
                value[i + 1] = v;
            }
        }
    }
#pragma unroll
    for (int i = 0; i < N; ++i) {
        if (i < len) {
            idx[begin + i] = int(key[i]);
            perm[begin + i] = value[i];
        }
    }
}

// ---- classify ----------------------------------------------------------------------------------
enum Tier { TIER_WARP = 0, TIER_SMALL = 1, TIER_LARGE = 2, TIER_LONG = 3, TIER_THREAD = 4, TIERS = 5, TIER_NONE = 5 };

__device__ __forceinline__ int tier_of(int64_t len) {
    if (len <= 1) return TIER_NONE;  // nothing to do
    if (len > LARGE_MAX) return TIER_LONG;
    if (len <= THREAD_MAX) return TIER_THREAD;
    if (len <= WARP_MAX) return TIER_WARP;
    return len <= SMALL_MAX ? TIER_SMALL : TIER_LARGE;
}

__device__ void clear_tiers(const SortSegmentsParams& p) {
    if (threadIdx.x < TIERS) reinterpret_cast<int*>(p.tier_counts)[threadIdx.x] = 0;
}

// Each segment of 2 or more entries gets a slot in its tier's list: the lanes of a warp that share
// a tier take consecutive slots with one atomic.
__device__ void classify_segments(const SortSegmentsParams& p) {
    int* counts = reinterpret_cast<int*>(p.tier_counts);
    int* lists[TIERS] = {reinterpret_cast<int*>(p.warp_list), reinterpret_cast<int*>(p.small_list),
                         reinterpret_cast<int*>(p.large_list), reinterpret_cast<int*>(p.long_list),
                         reinterpret_cast<int*>(p.thread_list)};
    const int lane = threadIdx.x % WARP;
    for (int64_t s = global_thread(); s < p.lines; s += thread_count()) {
        const int tier = tier_of(segment_begin(p, s + 1) - segment_begin(p, s));
        const unsigned active = __activemask();
        for (int t = 0; t < TIERS; ++t) {
            const unsigned peers = __ballot_sync(active, tier == t);
            if (peers == 0) continue;  // the same for every active lane
            const int leader = __ffs(peers) - 1;
            int slot = 0;
            if (lane == leader) slot = atomicAdd(&counts[t], __popc(peers));
            slot = __shfl_sync(active, slot, leader) + __popc(peers & ((1u << lane) - 1));
            if (tier == t) lists[t][slot] = int(s);
        }
    }
}

// One thread per listed segment of 2 .. THREAD_MAX entries, with the smallest network that holds it.
__device__ void sort_thread_segments(const SortSegmentsParams& p) {
    int* idx = reinterpret_cast<int*>(p.indices);
    int* perm = reinterpret_cast<int*>(p.perm);
    const int* list = reinterpret_cast<const int*>(p.thread_list);
    const int64_t listed = reinterpret_cast<const int*>(p.tier_counts)[TIER_THREAD];
    for (int64_t k = global_thread(); k < listed; k += thread_count()) {
        const int64_t s = list[k];
        const int64_t begin = segment_begin(p, s);
        const int len = int(segment_begin(p, s + 1) - begin);
        if (len <= 1 || len > THREAD_MAX) continue;
        if (len <= 4) thread_sort<4>(idx, perm, begin, len);
        else if (len <= 8) thread_sort<8>(idx, perm, begin, len);
        else thread_sort<16>(idx, perm, begin, len);
    }
}

// One warp per listed segment of THREAD_MAX + 1 .. WARP_MAX entries, with as many items per lane
// as it needs.
__device__ void sort_warp_segments(const SortSegmentsParams& p) {
    int* idx = reinterpret_cast<int*>(p.indices);
    int* perm = reinterpret_cast<int*>(p.perm);
    const int* list = reinterpret_cast<const int*>(p.warp_list);
    const int64_t listed = reinterpret_cast<const int*>(p.tier_counts)[TIER_WARP];
    const int lane = threadIdx.x % WARP;
    for (int64_t k = global_thread() / WARP; k < listed; k += thread_count() / WARP) {
        const int64_t s = list[k];
        const int64_t begin = segment_begin(p, s);
        const int len = int(segment_begin(p, s + 1) - begin);
        // The same for the whole warp.
        if (len <= 1 || len > WARP_MAX) continue;
        if (len <= WARP) warp_rank_sort<1>(idx, perm, begin, len, lane);
        else if (len <= 2 * WARP) warp_rank_sort<2>(idx, perm, begin, len, lane);
        else warp_rank_sort<4>(idx, perm, begin, len, lane);
    }
}

// ---- block tiers -------------------------------------------------------------------------------
// One block per segment of (MIN, THREADS * ITEMS] entries. Thread t holds entries t * ITEMS ...
// (blocked order), so BlockRadixSort's stability keeps equal indices in position order; the
// padding sorts last (all key bits set, behind any real key of equal bits, by position).
template <int THREADS, int ITEMS>
__device__ void sort_block_segments(const SortSegmentsParams& p, int tier, uint64_t list_at, int min_len) {
    using Sort = cub::BlockRadixSort<unsigned, THREADS, ITEMS, int>;
    __shared__ typename Sort::TempStorage temp;
    int* idx = reinterpret_cast<int*>(p.indices);
    int* perm = reinterpret_cast<int*>(p.perm);
    const int* list = reinterpret_cast<const int*>(list_at);
    const int64_t listed = reinterpret_cast<const int*>(p.tier_counts)[tier];
    for (int64_t k = blockIdx.x; k < listed; k += gridDim.x) {
        const int64_t s = list[k];
        const int64_t begin = segment_begin(p, s);
        const int len = int(segment_begin(p, s + 1) - begin);
        if (len <= min_len || len > THREADS * ITEMS) continue;  // the same for the whole block
        unsigned keys[ITEMS];
        int values[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
            const int q = threadIdx.x * ITEMS + i;
            keys[i] = q < len ? unsigned(idx[begin + q]) : FULL_MASK;
            values[i] = q < len ? perm[begin + q] : 0;
        }
        // Every load is done before the sort's first barrier; striped output: item i of thread t
        // is the segment's (i * THREADS + t)-th, so the stores are coalesced.
        Sort(temp).SortBlockedToStriped(keys, values, 0, int(p.end_bit));
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
            const int q = i * THREADS + threadIdx.x;
            if (q < len) {
                idx[begin + q] = int(keys[i]);
                perm[begin + q] = values[i];
            }
        }
        __syncthreads();  // temp is reused by the next segment
    }
}

// ---- long tier ---------------------------------------------------------------------------------
// The classify kernel listed the long segments (at most long_capacity). long_info[k] <- the length
// of the k-th listed one (0 beyond the list); the scan then makes it its start in the gathered
// arrays, and long_info[long_capacity] the total. A segment's rank is its place in the list.
__device__ void mark_long_segments(const SortSegmentsParams& p) {
    int64_t* info = reinterpret_cast<int64_t*>(p.long_info);
    const int* list = reinterpret_cast<const int*>(p.long_list);
    const int64_t listed = reinterpret_cast<const int*>(p.tier_counts)[TIER_LONG];
    for (int64_t k = global_thread(); k <= p.long_capacity; k += thread_count()) {
        int64_t len = 0;
        if (k < listed) len = segment_begin(p, list[k] + 1) - segment_begin(p, list[k]);
        info[k] = len;
    }
}

// One block per listed long segment: its entries are copied to its start in the gathered arrays,
// with their gathered positions.
__device__ void gather_long_segments(const SortSegmentsParams& p) {
    const int64_t* info = reinterpret_cast<const int64_t*>(p.long_info);
    const int* list = reinterpret_cast<const int*>(p.long_list);
    const int64_t listed = reinterpret_cast<const int*>(p.tier_counts)[TIER_LONG];
    const int* idx = reinterpret_cast<const int*>(p.indices);
    const int* perm = reinterpret_cast<const int*>(p.perm);
    int* idx_copy = reinterpret_cast<int*>(p.index_copy);
    int* perm_copy = reinterpret_cast<int*>(p.perm_copy);
    int* pos = reinterpret_cast<int*>(p.pos);
    for (int64_t r = blockIdx.x; r < listed; r += gridDim.x) {
        const int64_t begin = segment_begin(p, list[r]);
        const int64_t len = segment_begin(p, list[r] + 1) - begin;
        const int64_t start = info[r];
        for (int64_t k = threadIdx.x; k < len; k += blockDim.x) {
            idx_copy[start + k] = idx[begin + k];
            perm_copy[start + k] = perm[begin + k];
            pos[start + k] = int(start + k);
        }
    }
}

// The rank of the long segment holding gathered position c < total: the last r whose start is
// <= c (the entries beyond the list start at the total, after every c).
__device__ int64_t long_rank_of(const int64_t* starts, int64_t capacity, int64_t c) {
    int64_t lo = 0, hi = capacity + 1;  // first r with starts[r] > c
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (starts[mid] <= c) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

// ---- global sort: copies, major keys, write-back -----------------------------------------------
__device__ void copy_inputs(const SortCopyParams& p) {
    const int* idx = reinterpret_cast<const int*>(p.indices);
    const int* perm = reinterpret_cast<const int*>(p.perm);
    int* idx_copy = reinterpret_cast<int*>(p.index_copy);
    int* perm_copy = reinterpret_cast<int*>(p.perm_copy);
    int* pos = reinterpret_cast<int*>(p.pos);
    for (int64_t k = global_thread(); k < p.n; k += thread_count()) {
        idx_copy[k] = idx[k];
        perm_copy[k] = perm[k];
        pos[k] = int(k);
    }
}

__device__ void major_keys(const SortMajorKeyParams& p) {
    int* keys = reinterpret_cast<int*>(p.keys);
    const int* pos = reinterpret_cast<const int*>(p.pos);
    const int64_t n = item_count(p.n, p.count_at);
    const int64_t* starts = reinterpret_cast<const int64_t*>(p.long_info);
    for (int64_t j = global_thread(); j < n; j += thread_count()) {
        const int64_t c = pos[j];
        keys[j] = p.major ? reinterpret_cast<const int*>(p.major)[c] : int(long_rank_of(starts, p.long_capacity, c));
    }
}

__device__ void finish(const SortFinishParams& p) {
    const int* keys = reinterpret_cast<const int*>(p.keys);
    const int* pos = reinterpret_cast<const int*>(p.pos);
    const int* idx_copy = reinterpret_cast<const int*>(p.index_copy);
    const int* perm_copy = reinterpret_cast<const int*>(p.perm_copy);
    int* idx = reinterpret_cast<int*>(p.indices_out);
    int* perm = reinterpret_cast<int*>(p.perm_out);
    const int64_t* starts = reinterpret_cast<const int64_t*>(p.long_info);
    const int* list = reinterpret_cast<const int*>(p.long_list);
    const int* offsets = reinterpret_cast<const int*>(p.offsets);
    const int64_t n = item_count(p.n, p.count_at);
    for (int64_t j = global_thread(); j < n; j += thread_count()) {
        const int64_t from = pos[j];
        int64_t to = j;
        if (p.major_out) {
            reinterpret_cast<int*>(p.major_out)[j] = keys[j];
        } else {
            // The segments come back in rank order, each to the gathered range it came from.
            const int64_t r = long_rank_of(starts, p.long_capacity, j);
            to = int64_t(offsets[list[r]]) - p.base + (j - starts[r]);
        }
        idx[to] = idx_copy[from];
        perm[to] = perm_copy[from];
    }
}

}  // namespace

// ---- entry points: oxs_sort_<stage> ------------------------------------------------------------
// classify, thread_segments, warp_segments, mark_long, copy, major_keys, finish: grid-stride, BLOCK threads;
// clear_tiers: one block of 32. small_segments, large_segments, gather_long: a block per segment
// (grid-stride over their lists, or over all segments), of SMALL_THREADS, LARGE_THREADS and BLOCK
// threads. histogram, scatter: one block of BLOCK threads per radix tile;
// scan_reduce, scan_apply: one block per scan chunk; scan_sums: one block.
extern "C" __global__ void oxs_sort_clear_tiers(const SortSegmentsParams p) { clear_tiers(p); }
extern "C" __global__ void oxs_sort_classify(const SortSegmentsParams p) { classify_segments(p); }
extern "C" __global__ void oxs_sort_thread_segments(const SortSegmentsParams p) { sort_thread_segments(p); }
extern "C" __global__ void oxs_sort_warp_segments(const SortSegmentsParams p) { sort_warp_segments(p); }
extern "C" __global__ void __launch_bounds__(SMALL_THREADS) oxs_sort_small_segments(const SortSegmentsParams p) {
    sort_block_segments<SMALL_THREADS, SMALL_ITEMS>(p, TIER_SMALL, p.small_list, WARP_MAX);
}
extern "C" __global__ void __launch_bounds__(LARGE_THREADS) oxs_sort_large_segments(const SortSegmentsParams p) {
    sort_block_segments<LARGE_THREADS, LARGE_ITEMS>(p, TIER_LARGE, p.large_list, SMALL_MAX);
}
extern "C" __global__ void oxs_sort_mark_long(const SortSegmentsParams p) { mark_long_segments(p); }
extern "C" __global__ void oxs_sort_gather_long(const SortSegmentsParams p) { gather_long_segments(p); }
extern "C" __global__ void oxs_sort_copy(const SortCopyParams p) { copy_inputs(p); }
extern "C" __global__ void oxs_sort_major_keys(const SortMajorKeyParams p) { major_keys(p); }
extern "C" __global__ void oxs_sort_finish(const SortFinishParams p) { finish(p); }

extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sort_histogram(const SortPassParams p) {
    const int64_t tiles = tile_count(p.tiles, p.count_at);
    if (blockIdx.x >= tiles) return;  // beyond the items counted on the GPU
    radix::tile_histogram<RADIX_BITS, ROUNDS>(reinterpret_cast<const int*>(p.keys_in), item_count(p.n, p.count_at), tiles,
                                              p.shift, reinterpret_cast<int*>(p.counts));
}
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sort_scatter(const SortPassParams p) {
    const int64_t tiles = tile_count(p.tiles, p.count_at);
    if (blockIdx.x >= tiles) return;
    radix::tile_scatter<RADIX_BITS, ROUNDS>(reinterpret_cast<const int*>(p.keys_in), reinterpret_cast<const int*>(p.pos_in),
                                            reinterpret_cast<int*>(p.keys_out), reinterpret_cast<int*>(p.pos_out),
                                            reinterpret_cast<const int*>(p.counts), item_count(p.n, p.count_at), tiles,
                                            p.shift);
}

// Scans of the digit counts (int) and of the long segments' words (int64). The chunks beyond
// `scanned` (the counts of the tiles found on the GPU) sum to 0 and are left alone.
__device__ __forceinline__ int64_t scanned(const SortScanParams& p) {
    return p.count_at ? int64_t(INDEX_SORT_RADIX) * tile_count(0, p.count_at) : p.n;
}
#define OXS_SORT_SCAN(IS, T)                                                                                            \
    extern "C" __global__ void oxs_sort_scan_reduce_##IS(const SortScanParams p) {                                     \
        scan::chunk_reduce<BLOCK, SCAN_ROUNDS>(reinterpret_cast<const T*>(p.data), scanned(p), reinterpret_cast<T*>(p.block_sums)); \
    }                                                                                                                   \
    extern "C" __global__ void oxs_sort_scan_sums_##IS(const SortScanParams p) {                                       \
        scan::sums_in_place<BLOCK>(reinterpret_cast<T*>(p.block_sums), p.blocks);                                      \
    }                                                                                                                   \
    extern "C" __global__ void oxs_sort_scan_apply_##IS(const SortScanParams p) {                                      \
        scan::chunk_apply<BLOCK, SCAN_ROUNDS>(reinterpret_cast<T*>(p.data), scanned(p), reinterpret_cast<const T*>(p.block_sums)); \
    }

OXS_SORT_SCAN(i32, int32_t)
OXS_SORT_SCAN(u64, uint64_t)
