// Exclusive prefix sums of integers in device memory, in three stream-ordered kernels: no atomics
// and no host round trip, so the result is deterministic and the scan can be captured in a graph.
//
//   1. scan::chunk_reduce   block b sums its chunk of BLOCK * ROUNDS values into sums[b]
//   2. scan::sums_in_place  one block turns sums[] into exclusive prefix sums
//   3. scan::chunk_apply    block b scans its chunk in place, starting from sums[b]
//
// A block walks its chunk in rounds of BLOCK consecutive values (one per thread), so every load
// and store is coalesced; all BLOCK threads of a block must take part in every call.
#pragma once
#include <stdint.h>

namespace scan {

constexpr int WARP = 32;
constexpr unsigned FULL_MASK = 0xffffffffu;

// Exclusive prefix of `v` over the block's threads in thread order; `total` receives the block's sum.
template <int BLOCK, typename T>
__device__ __forceinline__ T block_exclusive(T v, T& total) {
    static_assert(BLOCK % WARP == 0 && BLOCK / WARP <= WARP, "BLOCK must be whole warps, at most 32");
    constexpr int WARPS = BLOCK / WARP;
    __shared__ T warp_sums[WARPS];
    const int lane = threadIdx.x % WARP;
    const int warp = threadIdx.x / WARP;
    T inclusive = v;
    for (int o = 1; o < WARP; o <<= 1) {
        const T up = __shfl_up_sync(FULL_MASK, inclusive, o);
        if (lane >= o) inclusive += up;
    }
    if (lane == WARP - 1) warp_sums[warp] = inclusive;
    __syncthreads();
    T before = 0, sum = 0;
    for (int w = 0; w < WARPS; ++w) {
        const T s = warp_sums[w];
        if (w < warp) before += s;
        sum += s;
    }
    __syncthreads();  // the next call overwrites warp_sums
    total = sum;
    return before + inclusive - v;
}

// The exclusive prefix of each of the WORDS words `v` over the block's threads in thread order (in
// place), and the block's sums in `total`: block_exclusive for several u64 at once, under one pair
// of barriers (the GPU's warp-row table build scans two counts a row, spmm_warp_rows_table.cu).
template <int BLOCK, int WORDS>
__device__ __forceinline__ void block_exclusive_words(uint64_t (&v)[WORDS], uint64_t (&total)[WORDS]) {
    static_assert(BLOCK % WARP == 0 && BLOCK / WARP <= WARP, "BLOCK must be whole warps, at most 32");
    constexpr int WARPS = BLOCK / WARP;
    __shared__ uint64_t warp_sums[WARPS][WORDS];
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    uint64_t inclusive[WORDS];
#pragma unroll
    for (int i = 0; i < WORDS; ++i) inclusive[i] = v[i];
#pragma unroll
    for (int o = 1; o < WARP; o <<= 1) {
#pragma unroll
        for (int i = 0; i < WORDS; ++i) {
            const uint64_t up = __shfl_up_sync(FULL_MASK, inclusive[i], o);
            if (lane >= o) inclusive[i] += up;
        }
    }
    if (lane == WARP - 1) {
#pragma unroll
        for (int i = 0; i < WORDS; ++i) warp_sums[warp][i] = inclusive[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < WORDS; ++i) {
        uint64_t before = 0, sum = 0;
        for (int x = 0; x < WARPS; ++x) {
            const uint64_t s = warp_sums[x][i];
            before += x < warp ? s : 0;
            sum += s;
        }
        total[i] = sum;
        v[i] = before + inclusive[i] - v[i];
    }
    __syncthreads();  // the next call overwrites warp_sums
}

// data[begin, end) <- carry + exclusive prefix sums of data[begin, end), by one block.
template <int BLOCK, typename T>
__device__ void exclusive_in_place(T* data, int64_t begin, int64_t end, T carry) {
    for (int64_t start = begin; start < end; start += BLOCK) {
        const int64_t i = start + threadIdx.x;
        const T v = i < end ? data[i] : T(0);
        T total;
        const T before = block_exclusive<BLOCK>(v, total);
        if (i < end) data[i] = carry + before;
        carry += total;
    }
}

// Stage 1: sums[blockIdx.x] <- sum of the block's chunk.
template <int BLOCK, int ROUNDS, typename T>
__device__ void chunk_reduce(const T* data, int64_t n, T* sums) {
    const int64_t begin = int64_t(blockIdx.x) * BLOCK * ROUNDS;
    const int64_t end = min(begin + int64_t(BLOCK) * ROUNDS, n);
    T partial = 0;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const int64_t i = begin + threadIdx.x + int64_t(r) * BLOCK;
        partial += i < end ? data[i] : T(0);
    }
    T total;
    block_exclusive<BLOCK>(partial, total);
    if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// Stage 2: the chunk sums become the chunks' starting values (launched with a single block).
template <int BLOCK, typename T>
__device__ void sums_in_place(T* sums, int64_t blocks) {
    exclusive_in_place<BLOCK>(sums, 0, blocks, T(0));
}

// A chunk's values for scan_loaded: v[r] <- data[begin + threadIdx.x + r * BLOCK] (0 from n on).
// Every round's value is loaded before the first is scanned, so a chunk costs one memory trip, not
// one a round.
template <int BLOCK, int ROUNDS, typename T>
__device__ __forceinline__ void load_chunk(T (&v)[ROUNDS], const T* data, int64_t begin, int64_t n) {
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const int64_t i = begin + threadIdx.x + int64_t(r) * BLOCK;
        v[r] = i < n ? data[i] : T(0);
    }
}

// data[begin, begin + BLOCK * ROUNDS) (within n) <- carry + the exclusive prefix sums of v (from
// load_chunk), by one block; returns carry plus their sum. Rounds from n on are skipped (the same
// for the whole block).
template <int BLOCK, int ROUNDS, typename T>
__device__ T scan_loaded(const T (&v)[ROUNDS], T* data, int64_t begin, int64_t n, T carry) {
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        if (begin + int64_t(r) * BLOCK >= n) break;
        const int64_t i = begin + threadIdx.x + int64_t(r) * BLOCK;
        T total;
        const T before = block_exclusive<BLOCK>(v[r], total);
        if (i < n) data[i] = carry + before;
        carry += total;
    }
    return carry;
}

// data[begin, begin + BLOCK * ROUNDS) (within n) <- carry + their exclusive prefix sums, by one
// block; returns carry plus their sum.
template <int BLOCK, int ROUNDS, typename T>
__device__ T scan_chunk(T* data, int64_t begin, int64_t n, T carry) {
    T v[ROUNDS];
    load_chunk<BLOCK, ROUNDS>(v, data, begin, n);
    return scan_loaded<BLOCK, ROUNDS>(v, data, begin, n, carry);
}

// Stage 3: the block's chunk becomes its exclusive prefix sums, offset by the chunk's start.
template <int BLOCK, int ROUNDS, typename T>
__device__ void chunk_apply(T* data, int64_t n, const T* sums) {
    scan_chunk<BLOCK, ROUNDS>(data, int64_t(blockIdx.x) * BLOCK * ROUNDS, n, sums[blockIdx.x]);
}

}  // namespace scan
