// One pass of a stable LSD radix sort of (key, position) pairs, as two kernels around a scan.
//
// The items are cut into tiles of TILE = BLOCK * ROUNDS consecutive items, one block per tile,
// with RADIX = BLOCK = 1 << BITS (thread d of a block looks after digit d). A pass sorts by the
// digit (key >> shift) & (RADIX - 1):
//
//   1. radix::tile_histogram  counts[d * tiles + t] <- how many items of tile t have digit d
//   2. (scan.cuh)             exclusive scan of counts: digit-major order makes each entry the
//                             output start of (digit d, tile t) -- all smaller digits first, then
//                             digit d of the earlier tiles
//   3. radix::tile_scatter    every item goes to its start + its rank among the tile's items of
//                             the same digit, counted in item order
//
// Step 3 ranks in item order, so the pass is stable, and a sequence of passes from the lowest
// digit up sorts stably by the whole key. Nothing depends on timing: the shared-memory atomics
// of step 1 only count, and every item's place is computed, never claimed.
#pragma once
#include <stdint.h>

namespace radix {

constexpr int WARP = 32;
constexpr unsigned FULL_MASK = 0xffffffffu;

template <int BITS, typename I>
__device__ __forceinline__ unsigned digit_of(I key, unsigned shift) {
    return unsigned((uint64_t(key) >> shift) & ((1u << BITS) - 1));
}

// Step 1. Lanes of a warp that share a digit add their count once (__match_any_sync), so a tile
// whose items all share one digit costs a few atomics per round, not one per item.
template <int BITS, int ROUNDS, typename I>
__device__ void tile_histogram(const I* keys, int64_t n, int64_t tiles, unsigned shift, I* counts) {
    constexpr int RADIX = 1 << BITS;
    constexpr int BLOCK = RADIX;
    __shared__ unsigned histogram[RADIX];
    const int lane = threadIdx.x % WARP;
    histogram[threadIdx.x] = 0;
    __syncthreads();
    const int64_t tile_begin = int64_t(blockIdx.x) * BLOCK * ROUNDS;
    for (int round = 0; round < ROUNDS; ++round) {
        const int64_t round_begin = tile_begin + int64_t(round) * BLOCK;
        if (round_begin >= n) break;  // the same for the whole block
        const int64_t i = round_begin + threadIdx.x;
        const bool active = i < n;
        const unsigned d = active ? digit_of<BITS>(keys[i], shift) : unsigned(RADIX);  // RADIX: no digit
        const unsigned peers = __match_any_sync(FULL_MASK, d);
        if (active && lane == __ffs(peers) - 1) atomicAdd(&histogram[d], unsigned(__popc(peers)));
    }
    __syncthreads();
    counts[int64_t(threadIdx.x) * tiles + blockIdx.x] = I(histogram[threadIdx.x]);
}

// Step 3. The tile is walked in rounds of BLOCK items (item order = round, then warp, then lane).
// Per round: each warp ranks its lanes among equal digits (__match_any_sync), its lowest lane of
// each digit records the warp's count, and thread d turns the counts of digit d into per-warp
// starts (earlier warps first) from `next`, the running output position of digit d in this tile.
template <int BITS, int ROUNDS, typename I>
__device__ void tile_scatter(const I* keys_in, const I* pos_in, I* keys_out, I* pos_out, const I* starts,
                             int64_t n, int64_t tiles, unsigned shift) {
    constexpr int RADIX = 1 << BITS;
    constexpr int BLOCK = RADIX;
    constexpr int WARPS = BLOCK / WARP;
    __shared__ unsigned warp_count[WARPS][RADIX];  // items of digit d in warp w, this round
    __shared__ I warp_start[WARPS][RADIX];         // output position of warp w's first digit-d item
    const int lane = threadIdx.x % WARP;
    const int warp = threadIdx.x / WARP;
    const unsigned lanes_below = (1u << lane) - 1;

    for (int w = 0; w < WARPS; ++w) warp_count[w][threadIdx.x] = 0;
    I next = starts[int64_t(threadIdx.x) * tiles + blockIdx.x];
    __syncthreads();

    const int64_t tile_begin = int64_t(blockIdx.x) * BLOCK * ROUNDS;
    for (int round = 0; round < ROUNDS; ++round) {
        const int64_t round_begin = tile_begin + int64_t(round) * BLOCK;
        if (round_begin >= n) break;  // the same for the whole block
        const int64_t i = round_begin + threadIdx.x;
        const bool active = i < n;
        const I key = active ? keys_in[i] : I(0);
        const unsigned d = active ? digit_of<BITS>(key, shift) : unsigned(RADIX);
        const unsigned peers = __match_any_sync(FULL_MASK, d);
        const unsigned rank = __popc(peers & lanes_below);
        if (active && rank == 0) warp_count[warp][d] = __popc(peers);
        __syncthreads();

        // Thread d: starts of digit d per warp. Zeroing the counts here readies them for the next
        // round, whose writes come after the barrier below.
        for (int w = 0; w < WARPS; ++w) {
            const unsigned c = warp_count[w][threadIdx.x];
            warp_count[w][threadIdx.x] = 0;
            warp_start[w][threadIdx.x] = next;
            next += I(c);
        }
        __syncthreads();

        // warp_start is rewritten only after the next round's first barrier, when every thread
        // has passed this point.
        if (active) {
            const I dst = warp_start[warp][d] + I(rank);
            keys_out[dst] = key;
            pos_out[dst] = pos_in[i];
        }
    }
}

}  // namespace radix
