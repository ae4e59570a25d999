// Finding rows by entry: which row holds (or starts at) a given entry of op(A), by a search of the
// row offsets. Tile kernels (SpMV, SpMM) use it to learn which rows their consecutive entries belong
// to without a table built beforehand (block- or warp-wide), and preprocess to build that table
// (one thread per tile) or to place entries in the tensor-core format.
#pragma once
#include "common/spmm.cuh"  // Rows

namespace row_search {

using spmm::WARP;

// Smallest r in [0, m] with begin(r) >= target, for two targets at once (begin(m) is where the
// last row ends): each half of the block probes BLOCK / 2 evenly spaced rows per round, so a round
// costs one memory round trip and shrinks both ranges by BLOCK / 2. Every thread of the block calls it.
template <int BLOCK, typename V, typename I>
__device__ void block_lower_bounds(const spmm::Rows<V, I>& a, int64_t m, int64_t target0, int64_t target1, int64_t& lo0, int64_t& lo1) {
    __shared__ int below[2];
    constexpr int PROBES = BLOCK / 2;
    int64_t hi0 = m, hi1 = m;
    lo0 = lo1 = 0;
    const bool second = threadIdx.x >= PROBES;
    const int j = threadIdx.x % PROBES;
    while (lo0 < hi0 || lo1 < hi1) {
        if (threadIdx.x < 2) below[threadIdx.x] = 0;
        __syncthreads();
        const int64_t step0 = (hi0 - lo0 + PROBES - 1) / PROBES, step1 = (hi1 - lo1 + PROBES - 1) / PROBES;
        const int64_t probe = second ? lo1 + j * step1 : lo0 + j * step0;
        const bool is_below = probe < (second ? hi1 : hi0) && a.begin(probe) < (second ? target1 : target0);
        const unsigned votes = __ballot_sync(0xffffffffu, is_below);
        if (threadIdx.x % WARP == 0 && votes) atomicAdd(&below[second], __popc(votes));
        __syncthreads();
        // Probes 0 .. n-1 lie before the answer, probe n (if any) at or after it.
        const int n0 = below[0], n1 = below[1];
        const int64_t next0 = n0 == 0 ? lo0 : lo0 + (n0 - 1) * step0 + 1, next1 = n1 == 0 ? lo1 : lo1 + (n1 - 1) * step1 + 1;
        hi0 = min(hi0, lo0 + n0 * step0);
        hi1 = min(hi1, lo1 + n1 * step1);
        lo0 = next0;
        lo1 = next1;
        __syncthreads();  // everyone has read `below` before the next round clears it
    }
}

// Smallest r in [0, m] with begin(r) >= target, by one thread (a binary search of the offsets):
// preprocess's tables of each tile's first row.
template <typename V, typename I>
__device__ int64_t lower_bound(const spmm::Rows<V, I>& a, int64_t m, int64_t target) {
    int64_t lo = 0, hi = m;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (a.begin(mid) < target) lo = mid + 1; else hi = mid;
    }
    return lo;
}

// The row holding entry q, by one thread; q must lie in [begin(0), begin(m)). The first row
// starting past q, less one, is non-empty and holds q. The tensor-core build (each sorted entry's
// row) and its value gather (rows with duplicate entries).
template <typename V, typename I>
__device__ int64_t row_of(const spmm::Rows<V, I>& a, int64_t m, int64_t q) {
    return lower_bound(a, m, q + 1) - 1;
}

// Smallest r in [0, m] with begin(r) >= target, found by one warp: each round its lanes probe 32
// evenly spaced rows (one memory round trip) and the range shrinks 32-fold. Every lane of the
// warp calls it and gets the answer.
template <typename V, typename I>
__device__ int64_t warp_lower_bound(const spmm::Rows<V, I>& a, int64_t m, int64_t target) {
    const int lane = threadIdx.x % WARP;
    int64_t lo = 0, hi = m;
    while (lo < hi) {
        const int64_t step = (hi - lo + WARP - 1) / WARP;
        const int64_t probe = lo + lane * step;
        const int n = __popc(__ballot_sync(0xffffffffu, probe < hi && a.begin(probe) < target));
        // Probes 0 .. n-1 lie before the answer, probe n (if any) at or after it.
        const int64_t next = n == 0 ? lo : lo + (n - 1) * step + 1;
        hi = min(hi, lo + n * step);
        lo = next;
    }
    return lo;
}

}  // namespace row_search
