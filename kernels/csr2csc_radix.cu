// Csr2cscEx2 by radix sort: the CSC form of a CSR matrix as a stable LSD radix sort of the entry
// numbers k by column, 8 bits a pass, then the outputs written from the sorted order. No atomic
// decides a place, so every run gives the same bits, and the cost does not depend on how long the
// columns are (the atomic path, kernels/csr2csc.cu, pays for hub columns). Stages, on the stream:
//
//   per pass, from the lowest digit up (the launcher sets src, dst, counts and shift):
//     histogram   counts[d * tiles + t] <- the entries of tile t whose column has digit d (a
//                 shared atomic an entry), and the digit's total over the tiles (an atomic add a
//                 block and digit)
//     scan        exclusive prefix sums of counts, digit-major, a block a digit (the totals of
//                 the digits below it, then its tiles): each becomes the output start of
//                 (digit d, tile t); with few tiles no scan kernel runs, each scatter block
//                 summing the counts it needs itself
//     scatter     dst[start + rank] <- k, the rank counted among the tile's entries of digit d
//                 in entry order, so each pass is stable and the passes sort by the whole column
//                 (the tile is sorted by digit in shared memory first, so that its stores run along
//                 each digit's positions); where they fit 32 bits, the column's digits still to
//                 sort ride above k, so the next passes read them instead of gathering the column;
//                 where they do not but fit 16, the first pass writes them to a side array (in
//                 cscVal) that the second reads
//   row_hints     cscColPtr[j] <- the row of entry j * hint_stride (cscColPtr is free until the
//                 finish; the hints bound each row search to a few rows); done by the first
//                 histogram where no pass keeps its counts in cscColPtr
//   rows          cscRowInd[q] <- the row of the q-th sorted entry, plus the base
//   finish        cscVal[q] <- csrVal[k] (NUMERIC), and cscColPtr from where the sorted columns
//                 change: every offset is written once, by the first entry of a later column
//
// A column outside [0, n) sorts as column n, after every valid one: its entries land past
// cscColPtr[n], inside the arrays. Offsets that are not a CSR's (not increasing, not ending at
// nnz) give unspecified rows, but every read and write stays inside the arrays.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/scan.cuh"
#include <stdint.h>

namespace {

using grid::global_thread;
using grid::thread_count;
using Params = Csr2cscRadixParams;

// Tiling, in one place (the launcher mirrors these in src/kernels/csr2csc_radix.rs).
constexpr int WARP = 32;
constexpr int BITS = 8;                 // digit bits a pass
constexpr int RADIX = 1 << BITS;
constexpr int BLOCK = RADIX;            // thread d of a block looks after digit d
constexpr int WARPS = BLOCK / WARP;
constexpr int ROUNDS = 8;               // entries a thread takes in a tile (a warp: WARP * ROUNDS in a run)
constexpr int TILE = BLOCK * ROUNDS;
constexpr unsigned FULL = 0xffffffffu;
constexpr unsigned NO_DIGIT = RADIX;    // a lane past the last entry
// Up to this many tiles a pass has no scan kernel: each scatter block sums the counts it needs
// itself (2 * tiles loads a thread), which costs less than a launch.
constexpr int64_t SCAN_IN_SCATTER_TILES = CSR2CSC_RADIX_SCAN_IN_SCATTER_TILES;

__device__ __forceinline__ const int32_t* ptr_i32(uint64_t a) { return reinterpret_cast<const int32_t*>(a); }
__device__ __forceinline__ int32_t* mut_i32(uint64_t a) { return reinterpret_cast<int32_t*>(a); }

// The entry number at position i of the pass's input (the identity for the first pass).
__device__ __forceinline__ uint32_t entry_at(const Params& p, int64_t i) {
    return p.src == 0 ? uint32_t(i) : reinterpret_cast<const uint32_t*>(p.src)[i];
}

// The sort key of entry k: its column, or n for one outside [0, n).
__device__ __forceinline__ uint32_t key_of(const Params& p, uint32_t k) {
    const int64_t c = int64_t(ptr_i32(p.csr_col_ind)[k]) - p.base;
    return c >= 0 && c < p.n ? uint32_t(c) : uint32_t(p.n);
}

// The digits' totals of this pass: after its counts, the first or second set of RADIX by the pass's
// parity (the launcher leaves room for both), so that passes sharing an array never share a set.
// Each scan clears the next pass's (p.next_totals); clear_totals the first pass's.
__device__ __forceinline__ int32_t* totals(const Params& p) {
    return mut_i32(p.counts) + p.tiles * RADIX + (p.shift / BITS) % 2 * RADIX;
}

// Bits of the key (0 to n) and of an entry number (below nnz).
__device__ __forceinline__ int key_bits(const Params& p) { return 64 - __clzll(max(p.n, int64_t(1))); }
__device__ __forceinline__ int entry_bits(const Params& p) { return 64 - __clzll(max(p.nnz - 1, int64_t(1))); }

// Whether pass `pass` writes, above each entry number, the key's digits that later passes sort by
// (where they fit 32 bits), so that those passes read them instead of gathering the column again.
// The last pass writes plain entry numbers (the rows and the finish read them).
__device__ __forceinline__ bool carries(const Params& p, int pass) {
    const int passes = (key_bits(p) + BITS - 1) / BITS;
    return pass + 1 < passes && entry_bits(p) + max(key_bits(p) - (pass + 1) * BITS, 0) <= 32;
}

// The tile's entries, a thread's ROUNDS of them: warp w takes the tile's w-th run of WARP * ROUNDS
// consecutive entries, a round of 32 at a time (entry order: warp, then round, then lane), all
// loaded before any is used so that their gathers overlap. Each comes back as its digit and the
// word this pass writes for it: the entry number, with the key's remaining digits above it when
// the pass carries them. The second pass reads the key's upper digits from the first pass's side
// array where there is one.
__device__ __forceinline__ void load_tile(const Params& p, uint32_t (&w)[ROUNDS], unsigned (&d)[ROUNDS]) {
    const int64_t begin = int64_t(blockIdx.x) * TILE + (threadIdx.x / WARP) * (WARP * ROUNDS) + threadIdx.x % WARP;
    const int pass = p.shift / BITS, kb = entry_bits(p);
    const bool carried = pass > 0 && carries(p, pass - 1), carry = carries(p, pass);
    const uint32_t entry_mask = (1u << kb) - 1;
    const bool sided = pass == 1 && p.side != 0;  // the side array holds the key from this digit up
    uint32_t above[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const int64_t i = begin + int64_t(r) * WARP;
        w[r] = i < p.nnz ? entry_at(p, i) : 0;
        above[r] = sided && i < p.nnz ? reinterpret_cast<const uint16_t*>(p.side)[i] : 0;
    }
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const bool in = begin + int64_t(r) * WARP < p.nnz;
        // The key from this pass's digit up: carried in the word, read from the side array, or
        // gathered.
        const uint32_t high = carried ? w[r] >> kb : sided ? above[r] : in ? key_of(p, w[r]) >> p.shift : 0;
        const uint32_t k = carried ? w[r] & entry_mask : w[r];
        d[r] = in ? high & (RADIX - 1) : NO_DIGIT;
        w[r] = carry ? (high >> BITS) << kb | k : k;
    }
}

// The lanes whose digit equals this lane's (NO_DIGIT included), from one ballot per bit:
// __match_any_sync held the histogram and the scatter at 60-90% of the SM's issue.
__device__ __forceinline__ unsigned peers_of(unsigned d) {
    unsigned peers = FULL;
#pragma unroll
    for (int b = 0; b <= BITS; ++b) {
        const bool set = (d >> b) & 1;
        const unsigned lanes = __ballot_sync(FULL, set);
        peers &= set ? lanes : ~lanes;
    }
    return peers;
}

// Adds each lane's digit to the block's counts, a shared atomic an entry: the hardware serialises
// only lanes of one digit, which costs less than the ranking's ballots (the scatter needs ranks, a
// count needs none). A round whose lanes all share a digit (a hub column's, or the top digit of
// few columns) adds once. Every lane of the warp calls it.
__device__ __forceinline__ void count_digit(unsigned* count, unsigned digit, bool in) {
    const unsigned first = __shfl_sync(FULL, digit, 0);
    if (__all_sync(FULL, in && digit == first)) {
        if (threadIdx.x % WARP == 0) atomicAdd(&count[digit], unsigned(WARP));
    } else if (in) {
        atomicAdd(&count[digit], 1u);
    }
}

__device__ void histogram(const Params& p) {
    __shared__ unsigned count[RADIX];
    count[threadIdx.x] = 0;
    uint32_t w[ROUNDS];
    unsigned d[ROUNDS];
    load_tile(p, w, d);
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) count_digit(count, d[r], d[r] != NO_DIGIT);
    __syncthreads();
    const unsigned c = count[threadIdx.x];
    mut_i32(p.counts)[int64_t(threadIdx.x) * p.tiles + blockIdx.x] = int32_t(c);
    if (c != 0 && p.tiles > SCAN_IN_SCATTER_TILES) atomicAdd(totals(p) + threadIdx.x, int32_t(c));
}

// Block d: the start of digit d (the totals of the digits below it), then its tiles' counts turned
// into their starts. The first SCAN_ROUNDS * BLOCK counts are loaded with the totals, and later
// ones that many at a time, so a digit of up to 2048 tiles costs one memory trip before its
// stores, where a round of BLOCK at a time after the totals cost one a round. Also clears the
// next pass's totals.
constexpr int SCAN_ROUNDS = 8;
__device__ void scan_digit(const Params& p) {
    const int d = blockIdx.x;
    int32_t* counts = mut_i32(p.counts);
    const int64_t begin = int64_t(d) * p.tiles, end = begin + p.tiles;
    int32_t v[SCAN_ROUNDS];
    scan::load_chunk<BLOCK, SCAN_ROUNDS>(v, counts, begin, end);
    const int32_t total = totals(p)[threadIdx.x];
    int32_t all;
    const int32_t below = scan::block_exclusive<BLOCK>(total, all);
    __shared__ int32_t start;
    if (int(threadIdx.x) == d) start = below;
    if (d == 0 && p.next_totals != 0) mut_i32(p.next_totals)[threadIdx.x] = 0;
    __syncthreads();
    int32_t carry = scan::scan_loaded<BLOCK, SCAN_ROUNDS>(v, counts, begin, end, start);
    for (int64_t chunk = begin + int64_t(SCAN_ROUNDS) * BLOCK; chunk < end; chunk += int64_t(SCAN_ROUNDS) * BLOCK)
        carry = scan::scan_chunk<BLOCK, SCAN_ROUNDS>(counts, chunk, end, carry);
}

__device__ void clear_totals(const Params& p) { mut_i32(p.next_totals)[threadIdx.x] = 0; }

// Where the output of (digit threadIdx.x, this tile) starts: the scan kernel's result, or, with
// few tiles (no scan kernel), the counts of the digits below over every tile plus those of this
// digit in the tiles before. Every thread of the block calls it.
__device__ __forceinline__ int32_t start_of_tile(const Params& p) {
    const int32_t* mine = ptr_i32(p.counts) + int64_t(threadIdx.x) * p.tiles;
    if (p.tiles > SCAN_IN_SCATTER_TILES) return mine[blockIdx.x];
    int32_t before = 0, all = 0;
    for (int64_t t = 0; t < p.tiles; ++t) {
        const int32_t c = mine[t];
        all += c;
        before += t < int64_t(blockIdx.x) ? c : 0;
    }
    int32_t digits;
    return scan::block_exclusive<BLOCK>(all, digits) + before;
}

// Each warp ranks its run's entries among those of equal digit, round by round, in a count per
// digit of its own (the lowest lane of each digit adds the round's share). Thread d then turns the
// warps' counts of digit d into their places in the tile sorted by digit (earlier warps first,
// after the tile's entries of lower digits), and every entry goes to its place in shared memory
// with its output position; the block then writes the sorted tile in order, so a warp's stores
// fall on a few runs of consecutive positions (a digit's run in the tile) rather than on a sector
// an entry.
__device__ void scatter(const Params& p) {
    __shared__ int32_t warp_count[WARPS][RADIX];  // counts, then places in the sorted tile
    __shared__ int32_t shift[RADIX];              // output position minus place, per digit
    __shared__ uint32_t staged_word[TILE];
    __shared__ int32_t staged_at[TILE];
    __shared__ uint16_t staged_side[TILE];  // the first pass's side words
    const bool sides = p.shift == 0 && p.side != 0;
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    const unsigned lanes_below = (1u << lane) - 1;
    uint32_t* dst = reinterpret_cast<uint32_t*>(p.dst);
#pragma unroll
    for (int w = 0; w < WARPS; ++w) warp_count[w][threadIdx.x] = 0;
    const int32_t tile_start = start_of_tile(p);
    uint32_t w[ROUNDS];
    unsigned d[ROUNDS];
    load_tile(p, w, d);
    __syncthreads();
    int32_t placed[ROUNDS];  // rank << 9 | digit: one register an entry (ranks < TILE)
    int32_t* mine = warp_count[warp];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const unsigned peers = peers_of(d[r]);
        const int leader = __ffs(peers) - 1;
        int32_t before = 0;
        if (d[r] != NO_DIGIT && lane == leader) {
            before = mine[d[r]];
            mine[d[r]] = before + __popc(peers);
        }
        placed[r] = (__shfl_sync(FULL, before, leader) + __popc(peers & lanes_below)) << (BITS + 1) | d[r];
        __syncwarp();  // this round's counts are in before the next round reads them
    }
    __syncthreads();
    // Column d of the warps' counts is thread d's alone until the next barrier.
    int32_t total = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) total += warp_count[w][threadIdx.x];
    int32_t entries;
    int32_t next = scan::block_exclusive<BLOCK>(total, entries);
    shift[threadIdx.x] = tile_start - next;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
        const int32_t c = warp_count[w][threadIdx.x];
        warp_count[w][threadIdx.x] = next;
        next += c;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const unsigned digit = placed[r] & ((2u << BITS) - 1);
        if (digit != NO_DIGIT) {
            const int32_t at = mine[digit] + (placed[r] >> (BITS + 1));
            staged_word[at] = w[r];
            staged_at[at] = at + shift[digit];
            // The first pass reads the columns in order (w is the entry number): no gather.
            if (sides) staged_side[at] = uint16_t(key_of(p, w[r]) >> BITS);
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < entries; i += BLOCK) {
        dst[staged_at[i]] = staged_word[i];
        if (sides) reinterpret_cast<uint16_t*>(p.side)[staged_at[i]] = staged_side[i];
    }
}

constexpr int64_t LANE_GAP = 8;

// cp[from..=to] <- at, for every lane's range (every lane of the warp calls it).
__device__ __forceinline__ void fill_range(int32_t* cp, int64_t from, int64_t to, int32_t at) {
    const int lane = threadIdx.x % WARP;
    const bool alone = to - from < LANE_GAP;
    if (alone) {
        for (int64_t i = from; i <= to; ++i) cp[i] = at;
    }
    for (unsigned todo = __ballot_sync(FULL, !alone); todo != 0; todo &= todo - 1) {
        const int l = __ffs(todo) - 1;
        const int64_t f = __shfl_sync(FULL, from, l), t = __shfl_sync(FULL, to, l);
        const int32_t a = __shfl_sync(FULL, at, l);
        for (int64_t i = f + lane; i <= t; i += WARP) cp[i] = a;
    }
}

// Hint j: the row of entry j * hint_stride. A thread a row writes the hints of the entries it
// holds (a row of many entries several, an empty row none), so each hint is written once; a
// long row's by its whole warp.
__device__ void row_hints(const Params& p) {
    const int32_t* rp = ptr_i32(p.csr_row_ptr);
    const int64_t s = p.hint_stride;
    const int lane = threadIdx.x % WARP;
    for (int64_t r0 = global_thread() - lane; r0 < p.m; r0 += thread_count()) {
        const int64_t r = r0 + lane;
        int64_t from = 0, to = -1;
        if (r < p.m) {
            from = max(int64_t(rp[r]) - p.base + s - 1, int64_t(0)) / s;
            to = min((int64_t(rp[r + 1]) - p.base + s - 1) / s, p.hints) - 1;
        }
        fill_range(mut_i32(p.csc_col_ptr), from, to, int32_t(r));
    }
}

// The row of each sorted entry: between the hints around it, by binary search.
__device__ void rows(const Params& p) {
    const int32_t* rp = ptr_i32(p.csr_row_ptr);
    const int32_t* hint = ptr_i32(p.csc_col_ptr);
    const uint32_t* sorted = reinterpret_cast<const uint32_t*>(p.src);
    const uint32_t stride = uint32_t(p.hint_stride);
    for (int64_t q = global_thread(); q < p.nnz; q += thread_count()) {
        const uint32_t k = sorted[q];
        const uint32_t j = k / stride;
        // Clamped: a hint that bad offsets left unwritten holds whatever the passes left there.
        const int32_t last = int32_t(p.m - 1);
        int32_t lo = min(max(hint[j], 0), last);
        int32_t hi = int64_t(j) + 1 < p.hints ? min(max(hint[j + 1], lo), last) : last;
        while (lo < hi) {
            const int32_t mid = lo + (hi - lo + 1) / 2;
            if (int64_t(rp[mid]) - p.base <= int64_t(k)) lo = mid;
            else hi = mid - 1;
        }
        mut_i32(p.csc_row_ind)[q] = int32_t(lo + p.base);
    }
}

// The values, and the column offsets: cscColPtr[c] for c in (the previous entry's column, this
// entry's] is this entry's place; the last entry also writes those after its column, up to n. A
// gap of more than a few columns (empty columns) is written by the whole warp, so no lane walks a
// long one alone.
template <typename W>
__device__ void finish(const Params& p) {
    const uint32_t* sorted = reinterpret_cast<const uint32_t*>(p.src);
    int32_t* cp = mut_i32(p.csc_col_ptr);
    const int lane = threadIdx.x % WARP;
    for (int64_t q0 = global_thread() - lane; q0 < p.nnz; q0 += thread_count()) {
        const int64_t q = q0 + lane;
        int64_t from = 0, to = -1, c = p.n;  // no range for a lane past the end
        if (q < p.nnz) {
            const uint32_t k = sorted[q];
            if (p.numeric) reinterpret_cast<W*>(p.csc_val)[q] = reinterpret_cast<const W*>(p.csr_val)[k];
            c = key_of(p, k);
        }
        // The previous entry's column: the lane before's, or a load for the warp's first lane.
        const int64_t up = __shfl_up_sync(FULL, c, 1);
        if (q < p.nnz) {
            from = q == 0 ? 0 : (lane > 0 ? up : int64_t(key_of(p, sorted[q - 1]))) + 1;
            to = c;
        }
        fill_range(cp, from, to, int32_t(q + p.base));
        // After the last entry's column, up to n: the end.
        const bool last = q == p.nnz - 1;
        fill_range(cp, last ? c + 1 : 0, last ? p.n : -1, int32_t(p.nnz + p.base));
    }
}

}  // namespace

// ---- instantiations: oxs_c2cr_<stage>[_<value>] ---------------------------------------------------
// The first pass's histogram also writes the row hints where the launcher gives it their stride
// (cscColPtr holds no counts in any pass then): a launch fewer.
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2cr_histogram(const Params p) {
    histogram(p);
    if (p.hint_stride != 0) row_hints(p);
}
// Five blocks a multiprocessor: the staging held the kernel at 64 registers otherwise.
extern "C" __global__ void __launch_bounds__(BLOCK, 5) oxs_c2cr_scatter(const Params p) { scatter(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2cr_scan(const Params p) { scan_digit(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2cr_clear_totals(const Params p) { clear_totals(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2cr_row_hints(const Params p) { row_hints(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2cr_rows(const Params p) { rows(p); }

#define OXS_C2CR_FINISH(V, W) \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2cr_finish_##V(const Params p) { finish<W>(p); }

OXS_C2CR_FINISH(w1, uint8_t)
OXS_C2CR_FINISH(w2, uint16_t)
OXS_C2CR_FINISH(w4, uint32_t)
OXS_C2CR_FINISH(w8, uint64_t)
OXS_C2CR_FINISH(w16, uint4)
