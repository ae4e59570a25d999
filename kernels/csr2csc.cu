// Csr2cscEx2: the CSC form of a CSR matrix (its transpose), stable: within each column the
// entries keep their CSR order, so rows come out increasing. The pipeline, all on the stream:
//
//   1. fill_offsets   cscColPtr[0, n] <- 0 (or the base alone when nnz == 0); the word after the
//                     scan's chunk sums (the count of long columns) <- 0
//   2. count          cscColPtr[c + 1] += 1 for every entry of column c (atomics only count; the
//                     lanes of a warp that share a column add once, see claim())
//   3. scan (3 kernels of common/scan.cuh)  exclusive prefix sums of cscColPtr, plus the base:
//                     cscColPtr[c + 1] is now where column c starts. The last kernel also marks
//                     the long columns (more than p.long_chunks entries): the sign bit of their
//                     cscColPtr[c + 1] set (the start is the other 31 bits), their cursors zeroed.
//                     With one scan chunk (n < 2048) the first two kernels are skipped.
//   Long columns are placed stably without a sort, in p.long_chunks chunks of consecutive entries,
//   a warp a chunk; a long column's chunk cursors live in its own first p.long_chunks slots of perm
//   (it has more slots than that).
//   4. scatter        every entry of a short column claims a slot of its column with an atomic
//                     cursor, cscColPtr[c + 1], and writes its entry number k there (perm, the 4
//                     bytes/entry of scratch) and its row (cscRowInd). After it, cscColPtr[c + 1]
//                     is where column c ends, so no pass has to shift the array. An entry of a
//                     long column adds 1 to its chunk's cursor instead (counting needs no order).
//   5a. long_scan     cursors <- the slot where each chunk's entries of the column begin
//   5b. long_scatter  each chunk's warp walks its entries in order, claiming slots from its
//                     cursors: in-order claims by one warp, so each slot is the entry's place in
//                     the stable order, and rows and values go straight there
//   6. sort_columns   a short column's claims came in any order: its slots are sorted by k (which
//                     orders them by row too, since CSR rows increase with k), then the rows get
//                     the base and the values are gathered, cscVal[p] = csrVal[k]. Columns of up
//                     to 12 slots: a thread each; up to 256: a warp each, by rank; up to
//                     p.long_chunks: a block, bitonic. A long column's cscColPtr[c + 1] becomes
//                     its last chunk's cursor, its end.
//
// The host launches stages 5 when a column could be long (nnz > p.long_chunks); they return at
// once when none was marked. Only stages 5b and 6 depend on the value type; values are moved as
// words of their size (`W`). Steps 2 and 4 skip entries whose column lies outside [0, n), so a bad
// index never writes out of bounds.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/scan.cuh"
#include <stdint.h>

namespace {

using grid::global_thread;
using grid::thread_count;

constexpr int WARP = 32;
// Tiling, in one place (the launcher mirrors these in src/kernels/csr2csc.rs).
constexpr int BLOCK = 256;              // threads of every block
constexpr int SCAN_ROUNDS = 8;          // scan chunk: BLOCK * SCAN_ROUNDS offsets
constexpr int SCATTER_ITEMS = 8;        // consecutive entries a scatter thread walks
constexpr int THREAD_SLOTS = 12;        // a column this short is sorted by one thread, in registers (16 spills)
constexpr int WARP_SLOTS = 256;         // a column this short is sorted by one warp (8 keys a lane)
constexpr int TILE = 4096;              // a column this short is sorted by one block in shared memory
// The long stages: p.long_chunks chunks of entries, a power of two from WARP_SLOTS to TILE chosen
// by the host (src/kernels/csr2csc.rs) for about 2048 entries a chunk; a column of more slots than
// that is long.
constexpr int32_t MARK = INT32_MIN;     // the sign bit of a long column's cscColPtr[c + 1]
constexpr int WARPS = BLOCK / WARP;
// Sort blocks an SM holds: left to itself, ptxas trades spills for a sixth block (40 registers).
constexpr int SORT_BLOCKS = 5;
// Blocks an SM holds of long_scatter's chunk warps (at most TILE warps: about 4 blocks an SM).
constexpr int LONG_BLOCKS = 4;
// Scatter blocks an SM holds: the 8 items in flight at once and the warp's row search take about
// 48 registers (40 spilled).
constexpr int SCATTER_BLOCKS = 5;
// A warp's region: WARP_SLOTS entry numbers, then WARP_SLOTS rows (4 bytes each), in the tile.
static_assert(WARPS * WARP_SLOTS * 2 * 4 <= TILE * 8, "the warps' regions share the block's tile");

__device__ __forceinline__ const int32_t* ptr_i32(uint64_t a) { return reinterpret_cast<const int32_t*>(a); }
__device__ __forceinline__ int32_t* mut_i32(uint64_t a) { return reinterpret_cast<int32_t*>(a); }
__device__ __forceinline__ uint32_t* mut_u32(uint64_t a) { return reinterpret_cast<uint32_t*>(a); }

// ---- 1. fill_offsets ----------------------------------------------------------------------------
__device__ void fill_offsets(const Csr2cscParams& p) {
    int32_t* cp = mut_i32(p.csc_col_ptr);
    for (int64_t i = global_thread(); i <= p.n; i += thread_count()) cp[i] = p.fill;
    // After the chunk sums: the count of long columns. With one scan chunk the host skips the
    // chunk sums' two kernels: the only sum, its exclusive prefix, is the base.
    if (p.chunk_sums != 0 && global_thread() == 0) {
        mut_i32(p.chunk_sums)[p.chunks] = 0;
        if (p.chunks == 1) mut_i32(p.chunk_sums)[0] = int32_t(p.base);
    }
}

// ---- 2. count -----------------------------------------------------------------------------------
// The column of entry k (0-based), or -1 when k is past the end or its column outside [0, n).
__device__ __forceinline__ int32_t column_of(const Csr2cscParams& p, int64_t k) {
    if (k >= p.nnz) return -1;
    const int64_t c = int64_t(ptr_i32(p.csr_col_ind)[k]) - p.base;
    return c >= 0 && c < p.n ? int32_t(c) : -1;
}

// Lanes that share a key add to its counter, `at`, once (a hub column is hit by several lanes of
// a warp at a time, and same-address atomics serialise); returns the counter's value before this
// lane's share, lanes in lane order. Every lane of the warp calls it, lanes with key == -1
// included (they get 0); lanes with the same key pass the same `at`.
__device__ __forceinline__ int32_t warp_claim(int32_t key, int32_t* at) {
    const int lane = threadIdx.x % WARP;
    const unsigned peers = __match_any_sync(0xffffffffu, key);
    const int leader = __ffs(peers) - 1;
    int32_t before = 0;
    if (key >= 0 && lane == leader) before = atomicAdd(at, __popc(peers));
    before = __shfl_sync(peers, before, leader);
    return before + __popc(peers & ((1u << lane) - 1));
}

// A column's cursor in cscColPtr.
__device__ __forceinline__ int32_t claim(int32_t* cp, int32_t c) { return warp_claim(c, cp + (c + 1)); }

// Warps walk whole rounds (lanes past the end take part with no column), as claim() needs.
__device__ void count(const Csr2cscParams& p) {
    int32_t* cp = mut_i32(p.csc_col_ptr);
    const int64_t lane = threadIdx.x % WARP;
    for (int64_t k0 = global_thread() - lane; k0 < p.nnz; k0 += thread_count()) claim(cp, column_of(p, k0 + lane));
}

// The row of entry k, searching forward from row r (a row at or before k's): steps doubling until
// past k, then halving, so a walk over increasing k costs about log(rows skipped) reads each.
__device__ __forceinline__ int64_t row_from(const Csr2cscParams& p, int64_t r, int64_t k) {
    const int32_t* rp = ptr_i32(p.csr_row_ptr);
    int64_t lo = r, step = 1;  // rowPtr[lo] - base <= k; rowPtr[m] - base = nnz > k
    while (lo + step < p.m && int64_t(rp[lo + step]) - p.base <= k) {
        lo += step;
        step *= 2;
    }
    int64_t hi = min(lo + step, p.m);
    while (hi - lo > 1) {
        const int64_t mid = (lo + hi) / 2;
        if (int64_t(rp[mid]) - p.base <= k) lo = mid;
        else hi = mid;
    }
    return lo;
}

// The row of each lane's entry k (0 <= k < nnz, increasing with the lane; every lane of the warp
// calls it). The warp finds lane 0's row by 32 probes a round, each round narrowing the range 33
// times (about log33(m) dependent reads instead of a binary search's log2(m)), then each lane counts
// the row starts after it at or before its entry, 32 rows a read, shuffled across the warp. Past
// WARP_ROW_WINDOWS windows (many empty rows), a lane searches on from the last window by itself.
constexpr int WARP_ROW_WINDOWS = 2;
__device__ __forceinline__ int64_t warp_rows_of(const Csr2cscParams& p, int64_t k) {
    const int32_t* rp = ptr_i32(p.csr_row_ptr);
    const int lane = threadIdx.x % WARP;
    const int64_t k0 = __shfl_sync(0xffffffffu, k, 0), k_last = __shfl_sync(0xffffffffu, k, WARP - 1);
    int64_t lo = 0, hi = p.m;  // rowPtr[lo] - base <= k0 < rowPtr[hi] - base
    while (hi - lo > 1) {
        const int64_t pos = lo + (hi - lo) * (lane + 1) / (WARP + 1);  // nondecreasing, in [lo, hi)
        const bool at_or_before = pos == lo || int64_t(rp[pos]) - p.base <= k0;
        const unsigned yes = __ballot_sync(0xffffffffu, at_or_before);  // a prefix of the lanes
        const int last = yes == 0 ? -1 : 31 - __clz(yes);
        const int64_t new_lo = last < 0 ? lo : __shfl_sync(0xffffffffu, pos, last);
        const int64_t new_hi = last == WARP - 1 ? hi : __shfl_sync(0xffffffffu, pos, last + 1);
        lo = new_lo;
        hi = new_hi;
    }
    int64_t r = lo;  // row of k0, at or before every lane's
    for (int w = 0; w < WARP_ROW_WINDOWS; ++w) {
        const int64_t i = lo + 1 + lane;  // row starts lo + 1 .. lo + 32 (rowPtr[m] - base = nnz)
        const int64_t start = i <= p.m ? int64_t(rp[i]) - p.base : INT64_MAX;
        int below = 0;
#pragma unroll
        for (int j = 0; j < WARP; ++j) below += __shfl_sync(0xffffffffu, start, j) <= k;
        r += below;
        if (__shfl_sync(0xffffffffu, start, WARP - 1) > k_last) return r;  // the window reached past every entry
        lo += WARP;
    }
    return row_from(p, r, k);
}

// ---- 5. long columns ----------------------------------------------------------------------------
__device__ __forceinline__ int32_t* long_count_word(const Csr2cscParams& p) { return mut_i32(p.chunk_sums) + p.chunks; }
__device__ __forceinline__ int32_t long_columns(const Csr2cscParams& p) {
    return p.chunk_sums != 0 && p.nnz > p.long_chunks ? *long_count_word(p) : 0;
}
__device__ __forceinline__ bool marked(int32_t v) { return v < 0; }
// A column's start (with the base) from its cscColPtr[c + 1], marked or not.
__device__ __forceinline__ int64_t unmarked(int32_t v) { return int64_t(v & INT32_MAX); }

// The final cscColPtr[i] during the sort: a long column's end is its last chunk's cursor. The
// sort writes it in place of the mark, so a block may read either: both give the same value.
__device__ __forceinline__ int32_t column_bound(const Csr2cscParams& p, int64_t i) {
    const int32_t v = ptr_i32(p.csc_col_ptr)[i];
    return marked(v) ? ptr_i32(p.perm)[unmarked(v) - p.base + p.long_chunks - 1] + int32_t(p.base) : v;
}

// Stage 3's last kernel with the marks: chunk_apply of common/scan.cuh, and a column whose count
// is over p.long_chunks gets the mark and its cursors zeroed (a column this long has a slot for
// each). The whole block zeroes each round's long columns: a hub-heavy matrix has thousands, and
// one thread writing a column's p.long_chunks cursors alone held the kernel for 100 us.
__device__ void scan_apply_and_mark(const Csr2cscParams& p) {
    __shared__ int32_t long_first[BLOCK];
    __shared__ int listed;
    int32_t* data = mut_i32(p.csc_col_ptr);
    uint32_t* perm = mut_u32(p.perm);
    const int64_t n = p.n + 1;
    const int64_t begin = int64_t(blockIdx.x) * BLOCK * SCAN_ROUNDS;
    const int64_t end = min(begin + int64_t(BLOCK) * SCAN_ROUNDS, n);
    int32_t carry = ptr_i32(p.chunk_sums)[blockIdx.x];
    for (int64_t start = begin; start < end; start += BLOCK) {
        if (threadIdx.x == 0) listed = 0;
        const int64_t i = start + threadIdx.x;
        const int32_t v = i < end ? data[i] : 0;  // data[c + 1]: the count of column c
        int32_t total;
        const int32_t before = scan::block_exclusive<BLOCK>(v, total);  // its barriers order listed = 0
        if (i < end) {
            int32_t out = carry + before;
            if (v > p.long_chunks) {
                long_first[atomicAdd(&listed, 1)] = out - int32_t(p.base);
                atomicAdd(long_count_word(p), 1);
                out |= MARK;
            }
            data[i] = out;
        }
        __syncthreads();
        for (int j = 0; j < listed; ++j) {
            for (int x = threadIdx.x; x < int(p.long_chunks); x += BLOCK) perm[long_first[j] + x] = 0;
        }
        __syncthreads();  // every thread has read listed before the next round resets it
        carry += total;
    }
}

// Entries [begin, end) of chunk `chunk` of the long stages.
__device__ __forceinline__ void chunk_range(const Csr2cscParams& p, int64_t chunk, int64_t& begin, int64_t& end) {
    const int64_t per = (p.nnz + p.long_chunks - 1) / p.long_chunks;
    begin = min(chunk * per, p.nnz);
    end = min(begin + per, p.nnz);
}

// The long columns among the warp's 32 (lanes own a column each), handed to `f(c, first slot)`
// one at a time with the whole warp.
template <typename F>
__device__ __forceinline__ void for_each_long(const Csr2cscParams& p, int64_t c0, F f) {
    const int32_t* cp = ptr_i32(p.csc_col_ptr);
    const int lane = threadIdx.x % WARP;
    const int64_t c = c0 + lane;
    const int32_t v = c < p.n ? cp[c + 1] : 0;
    for (unsigned todo = __ballot_sync(0xffffffffu, marked(v)); todo != 0; todo &= todo - 1) {
        const int l = __ffs(todo) - 1;
        f(c0 + l, unmarked(__shfl_sync(0xffffffffu, v, l)) - p.base);
    }
}

// The long column of entry k of a chunk ending at `end`, or -1; its first slot in `first`.
__device__ __forceinline__ int32_t long_column_of(const Csr2cscParams& p, int64_t k, int64_t end, int32_t& first) {
    const int32_t c = k < end ? column_of(p, k) : -1;
    if (c < 0) return -1;
    const int32_t v = ptr_i32(p.csc_col_ptr)[c + 1];
    first = (v & INT32_MAX) - int32_t(p.base);
    return marked(v) ? c : -1;
}

// 5a. A long column's chunk counts become the slots where its chunks begin, a warp a column.
__device__ void long_scan(const Csr2cscParams& p) {
    if (long_columns(p) == 0) return;
    uint32_t* perm = mut_u32(p.perm);
    const int lane = threadIdx.x % WARP;
    for (int64_t c0 = global_thread() - lane; c0 < p.n; c0 += thread_count()) {
        for_each_long(p, c0, [&](int64_t, int64_t first) {
            uint32_t carry = uint32_t(first);
            for (int i0 = 0; i0 < int(p.long_chunks); i0 += WARP) {  // a multiple of WARP
                const uint32_t v = perm[first + i0 + lane];
                uint32_t incl = v;
                for (int o = 1; o < WARP; o *= 2) {
                    const uint32_t up = __shfl_up_sync(0xffffffffu, incl, o);
                    if (lane >= o) incl += up;
                }
                perm[first + i0 + lane] = carry + incl - v;
                carry += __shfl_sync(0xffffffffu, incl, WARP - 1);
            }
        });
    }
}

// 5b. A warp walks its chunk in order, 32 entries a round, claiming each long entry's slot from
// its column's cursor for this chunk: the claims of a chunk come in entry order, so every slot is
// the entry's place in the stable order, and the row and value are written there at once. A round
// waits on one claim: the next round's columns, marks and rows are read while it is in flight.
template <typename W>
__device__ void long_scatter(const Csr2cscParams& p) {
    if (long_columns(p) == 0) return;
    int32_t* cursors = mut_i32(p.perm);
    int32_t* rows = mut_i32(p.csc_row_ind);
    const int lane = threadIdx.x % WARP;
    for (int64_t chunk = global_thread() / WARP; chunk < p.long_chunks; chunk += thread_count() / WARP) {
        int64_t begin, end;
        chunk_range(p, chunk, begin, end);
        int32_t next_first = 0;
        int32_t next = long_column_of(p, begin + lane, end, next_first);
        // The row of the lane's entry when it is long, else a row at or before it (entries only
        // increase, so it bounds the next search from below).
        int64_t next_row = warp_rows_of(p, min(begin + lane, p.nnz - 1));
        for (int64_t k0 = begin; k0 < end; k0 += WARP) {
            const int64_t k = k0 + lane;
            const int32_t c = next, first = next_first;
            const int64_t r = next_row;
            next = long_column_of(p, k + WARP, end, next_first);
            const unsigned peers = __match_any_sync(0xffffffffu, c);
            const int leader = __ffs(peers) - 1;
            int32_t before = 0;
            if (c >= 0 && lane == leader) before = atomicAdd(cursors + first + chunk, __popc(peers));
            if (next >= 0) next_row = row_from(p, r, k + WARP);
            before = __shfl_sync(0xffffffffu, before, leader);
            __syncwarp();  // this round's claims are done before the next round's, from any lane
            if (c < 0) continue;
            const int32_t slot = before + __popc(peers & ((1u << lane) - 1));
            rows[slot] = int32_t(r + p.base);
            if (p.numeric) reinterpret_cast<W*>(p.csc_val)[slot] = reinterpret_cast<const W*>(p.csr_val)[k];
        }
    }
}

// ---- 4. scatter ---------------------------------------------------------------------------------
// A thread walks SCATTER_ITEMS consecutive entries: one search finds the row of its first, and the
// row advances as the entries cross row ends. The stages are split so that each issues all its
// items' memory operations before any waits: the columns, then the marks, then every item's claim
// (the leaders' atomics), then the claims' results and the stores. Item by item, each waited on
// three round trips in turn.
__device__ void scatter(const Csr2cscParams& p) {
    const int32_t* rp = ptr_i32(p.csr_row_ptr);
    int32_t* cp = mut_i32(p.csc_col_ptr);
    uint32_t* perm = mut_u32(p.perm);
    int32_t* rows = mut_i32(p.csc_row_ind);
    const int64_t threads = (p.nnz + SCATTER_ITEMS - 1) / SCATTER_ITEMS;
    const int lane = threadIdx.x % WARP;
    const bool any_long = long_columns(p) != 0;
    for (int64_t t0 = global_thread() - lane; t0 < threads; t0 += thread_count()) {
        const int64_t t = t0 + lane;
        const int64_t first = t * SCATTER_ITEMS;
        int32_t c[SCATTER_ITEMS];
#pragma unroll
        for (int s = 0; s < SCATTER_ITEMS; ++s) c[s] = t < threads ? column_of(p, first + s) : -1;
        // A long column's entry is counted into its chunk's cursor instead: counting
        // needs no order. Only the mark is read, and no stage changes it while this one runs.
        if (any_long) {
            int32_t v[SCATTER_ITEMS];
#pragma unroll
            for (int s = 0; s < SCATTER_ITEMS; ++s) v[s] = c[s] >= 0 ? cp[c[s] + 1] : 0;
            const int64_t per = (p.nnz + p.long_chunks - 1) / p.long_chunks;
#pragma unroll
            for (int s = 0; s < SCATTER_ITEMS; ++s) {
                uint32_t* at = marked(v[s]) ? perm + (unmarked(v[s]) - p.base) + (first + s) / per : nullptr;
                const unsigned peers = __match_any_sync(0xffffffffu, reinterpret_cast<unsigned long long>(at));
                if (at != nullptr && lane == __ffs(peers) - 1) atomicAdd(at, uint32_t(__popc(peers)));
                c[s] = marked(v[s]) ? -1 : c[s];
            }
        }
        // warp_claim in two halves: every leader's atomic issued, then each result shared.
        unsigned peers[SCATTER_ITEMS];
        int32_t before[SCATTER_ITEMS];
#pragma unroll
        for (int s = 0; s < SCATTER_ITEMS; ++s) {
            peers[s] = __match_any_sync(0xffffffffu, c[s]);
            before[s] = 0;
            if (c[s] >= 0 && lane == __ffs(peers[s]) - 1) before[s] = atomicAdd(cp + (c[s] + 1), __popc(peers[s]));
        }
        int64_t r = warp_rows_of(p, min(first, p.nnz - 1));
#pragma unroll
        for (int s = 0; s < SCATTER_ITEMS; ++s) {
            const int32_t got = __shfl_sync(peers[s], before[s], __ffs(peers[s]) - 1);
            if (c[s] < 0) continue;
            const int64_t k = first + s;
            const int32_t slot = got + __popc(peers[s] & ((1u << lane) - 1)) - int32_t(p.base);
            while (r + 1 < p.m && int64_t(rp[r + 1]) - p.base <= k) ++r;
            perm[slot] = uint32_t(k);
            rows[slot] = int32_t(r);
        }
    }
}

// ---- 6. sort_columns ----------------------------------------------------------------------------

// Ascending bitonic sort of s[0, size) (size a power of two) by `threads` threads numbered `tid`,
// with `sync` between steps (a warp's or a block's barrier).
template <typename K, typename Sync>
__device__ void bitonic_sort(K* s, int size, int tid, int threads, Sync sync) {
    sync();
    for (int run = 2; run <= size; run <<= 1) {
        for (int stride = run >> 1; stride > 0; stride >>= 1) {
            for (int i = tid; i < size; i += threads) {
                const int j = i ^ stride;
                if (j > i) {
                    const bool up = (i & run) == 0;
                    const K a = s[i], b = s[j];
                    if ((a > b) == up) {
                        s[i] = b;
                        s[j] = a;
                    }
                }
            }
            sync();
        }
    }
}

__device__ __forceinline__ int pow2_at_least(int64_t n) {
    int s = 1;
    while (s < n) s <<= 1;
    return s;
}

// The slot's final contents from its entry number k and row r.
template <typename W>
__device__ __forceinline__ void place(const Csr2cscParams& p, int64_t slot, uint32_t k, int64_t r) {
    mut_i32(p.csc_row_ind)[slot] = int32_t(r + p.base);
    if (p.numeric) reinterpret_cast<W*>(p.csc_val)[slot] = reinterpret_cast<const W*>(p.csr_val)[k];
}

// A column of at most `size` slots sorted in s[] by (k << 32 | row) pairs, by `threads` threads
// (the block's tier: columns of WARP_SLOTS + 1 to TILE slots).
template <typename W, typename Sync>
__device__ void sort_in_shared(const Csr2cscParams& p, uint64_t* s, int64_t begin, int64_t len, int tid, int threads, Sync sync) {
    const uint32_t* perm = reinterpret_cast<const uint32_t*>(p.perm);
    const int32_t* rows = ptr_i32(p.csc_row_ind);
    const int size = pow2_at_least(len);
    for (int i = tid; i < size; i += threads) {
        s[i] = i < len ? (uint64_t(perm[begin + i]) << 32) | uint32_t(rows[begin + i]) : ~uint64_t(0);
    }
    bitonic_sort(s, size, tid, threads, sync);
    for (int i = tid; i < len; i += threads) place<W>(p, begin + i, uint32_t(s[i] >> 32), int64_t(uint32_t(s[i])));
    sync();  // s[] is reused by the next column
}

// 1 when x < k, for x, k <= INT32_MAX: the sign of x - k, which cannot overflow (two instructions,
// a subtract and a shift-add, where a compare and select took three or four).
__device__ __forceinline__ int below(uint32_t x, uint32_t k) { return int((x - k) >> 31); }

// A column of 2 to 32 * ITEMS slots, by one warp with no barrier but __syncwarp: lane l owns slots
// l, l + 32, ...; each key's output slot is its rank, the count of the column's keys below it (keys
// are distinct entry numbers), counted against the keys read back four at a time from shared
// memory as broadcasts: no block barrier, no dependent compare-exchange steps, every lane busy.
// Ranks are counted for at most 4 keys a pass so the registers stay few (8 at once spilled).
// The results go through shared memory so the global writes are coalesced.
template <typename W, int ITEMS>
__device__ __forceinline__ void sort_in_warp(const Csr2cscParams& p, uint32_t* sk, uint32_t* sr, int64_t begin, int len,
                                             int lane) {
    constexpr int GROUP = ITEMS < 4 ? ITEMS : 4;
    const uint32_t* perm = reinterpret_cast<const uint32_t*>(p.perm);
    const int32_t* rows = ptr_i32(p.csc_row_ind);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int j = i * WARP + lane;
        // Padding is INT32_MAX: above every real key (entry numbers are < nnz <= INT32_MAX).
        sk[j] = j < len ? perm[begin + j] : uint32_t(INT32_MAX);
        if (j < len) sr[j] = uint32_t(rows[begin + j]);
    }
    __syncwarp();
    const uint4* s4 = reinterpret_cast<const uint4*>(sk);
    int rank[ITEMS];
#pragma unroll
    for (int g = 0; g < ITEMS; g += GROUP) {
        uint32_t k[GROUP];
#pragma unroll
        for (int i = 0; i < GROUP; ++i) {
            k[i] = sk[(g + i) * WARP + lane];
            rank[g + i] = 0;
        }
        for (int t = 0; t < (len + 3) / 4; ++t) {  // 4 * that <= 32 * ITEMS slots, all written above
            const uint4 x = s4[t];
#pragma unroll
            for (int i = 0; i < GROUP; ++i) {
                rank[g + i] += below(x.x, k[i]) + below(x.y, k[i]) + below(x.z, k[i]) + below(x.w, k[i]);
            }
        }
    }
    uint32_t k[ITEMS], r[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int j = i * WARP + lane;
        k[i] = sk[j];
        r[i] = j < len ? sr[j] : 0;
    }
    __syncwarp();  // every lane has read sk[] and sr[] before they are overwritten in sorted order
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        if (i * WARP + lane < len) {
            sk[rank[i]] = k[i];
            sr[rank[i]] = r[i];
        }
    }
    __syncwarp();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int j = i * WARP + lane;
        if (j < len) place<W>(p, begin + j, sk[j], int64_t(sr[j]));
    }
    __syncwarp();  // the region is reused by the warp's next column
}

// A column of 2 to SLOTS slots by its own thread: the keys in registers, each ranked against the
// others (keys are distinct, so the ranks are the slots); padding is INT32_MAX, above every key.
template <typename W, int SLOTS>
__device__ __forceinline__ void sort_in_thread(const Csr2cscParams& p, int64_t begin, int len) {
    const uint32_t* perm = reinterpret_cast<const uint32_t*>(p.perm);
    const int32_t* rows = ptr_i32(p.csc_row_ind);
    uint32_t k[SLOTS];
#pragma unroll
    for (int i = 0; i < SLOTS; ++i) k[i] = i < len ? perm[begin + i] : uint32_t(INT32_MAX);
    int32_t r[SLOTS];  // all read before any is written: the rows are placed in the same slots
#pragma unroll
    for (int i = 0; i < SLOTS; ++i) r[i] = i < len ? rows[begin + i] : 0;
#pragma unroll
    for (int i = 0; i < SLOTS; ++i) {
        int rank = 0;
#pragma unroll
        for (int j = 0; j < SLOTS; ++j) rank += below(k[j], k[i]);
        if (i < len) place<W>(p, begin + rank, k[i], r[i]);
    }
}

// A block takes p.sort_chunk columns at a time (at most BLOCK), a thread a column: the thread sorts
// its column when it has at most THREAD_SLOTS slots (most columns of a mesh: one pass of loads for
// the whole chunk instead of a warp's round trips a column), and lists it otherwise. The warps
// then share the listed columns of up to WARP_SLOTS slots (a warp a column, ranked in registers),
// and the whole block sorts each listed longer one up to p.long_chunks in turn (longer ones are in
// place already). The host makes chunks narrower where columns are longer on average, so that
// the warps' columns spread over more blocks.
template <typename W>
__device__ void sort_columns(const Csr2cscParams& p) {
    __shared__ __align__(16) uint64_t tile[TILE];
    __shared__ int32_t listed_begin[BLOCK], listed_len[BLOCK];  // warp tier from the front, block tier from the back
    __shared__ int listed[2];
    int32_t* cp = mut_i32(p.csc_col_ptr);
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    uint32_t* sk = reinterpret_cast<uint32_t*>(tile) + warp * 2 * WARP_SLOTS;
    uint32_t* sr = sk + WARP_SLOTS;
    auto block_sync = [] { __syncthreads(); };
    const int per_chunk = int(p.sort_chunk);
    // Column numbers and lengths fit in 32 bits (cscColPtr is int32): fewer live registers.
    const int chunks = int((p.n + per_chunk - 1) / per_chunk);
    for (int chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
        const int64_t c0 = int64_t(chunk) * per_chunk;
        const int width = int(min(int64_t(per_chunk), p.n - c0));  // columns, not c0 + i, so n near INT32_MAX cannot overflow
        if (threadIdx.x < 2) listed[threadIdx.x] = 0;
        __syncthreads();
        if (int(threadIdx.x) < width) {
            const int32_t b = column_bound(p, c0 + threadIdx.x), len = column_bound(p, c0 + threadIdx.x + 1) - b;
            const int64_t begin = int64_t(b) - p.base;
            // Keys a thread or lane: the fewest that hold the column, so short columns compare little padding.
            if (len == 1) place<W>(p, begin, mut_u32(p.perm)[begin], ptr_i32(p.csc_row_ind)[begin]);
            else if (len > 1 && len <= 4) sort_in_thread<W, 4>(p, begin, len);
            else if (len > 4 && len <= 8) sort_in_thread<W, 8>(p, begin, len);
            else if (len > 8 && len <= THREAD_SLOTS) sort_in_thread<W, THREAD_SLOTS>(p, begin, len);
            else if (len > THREAD_SLOTS && len <= WARP_SLOTS) {
                const int at = atomicAdd(&listed[0], 1);
                listed_begin[at] = int32_t(begin);
                listed_len[at] = len;
            } else if (len > WARP_SLOTS && len <= p.long_chunks) {
                const int at = BLOCK - 1 - atomicAdd(&listed[1], 1);
                listed_begin[at] = int32_t(begin);
                listed_len[at] = len;
            }
        }
        __syncthreads();
        for (int i = warp; i < listed[0]; i += WARPS) {
            const int64_t begin = listed_begin[i];
            const int len = listed_len[i];
            if (len <= 32) sort_in_warp<W, 1>(p, sk, sr, begin, len, lane);
            else if (len <= 64) sort_in_warp<W, 2>(p, sk, sr, begin, len, lane);
            else if (len <= 128) sort_in_warp<W, 4>(p, sk, sr, begin, len, lane);
            else sort_in_warp<W, WARP_SLOTS / WARP>(p, sk, sr, begin, len, lane);
        }
        __syncthreads();
        for (int i = 0; i < listed[1]; ++i) {
            const int at = BLOCK - 1 - i;
            sort_in_shared<W>(p, tile, listed_begin[at], listed_len[at], threadIdx.x, BLOCK, block_sync);
        }
        __syncthreads();  // every thread has read listed[] before the next chunk resets it
        // A long column's end in place of its mark (a thread a column).
        if (int(threadIdx.x) < width && marked(cp[c0 + threadIdx.x + 1])) {
            cp[c0 + threadIdx.x + 1] = column_bound(p, c0 + threadIdx.x + 1);
        }
    }
}

}  // namespace

// ---- instantiations: oxs_c2c_<stage>[_<value>] ----------------------------------------------------
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2c_fill_offsets(const Csr2cscParams p) { fill_offsets(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2c_count(const Csr2cscParams p) { count(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2c_scan_reduce(const Csr2cscParams p) {
    scan::chunk_reduce<BLOCK, SCAN_ROUNDS>(mut_i32(p.csc_col_ptr), p.n + 1, mut_i32(p.chunk_sums));
}
// The chunk sums start from the base, so the scanned offsets carry it.
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2c_scan_sums(const Csr2cscParams p) {
    scan::exclusive_in_place<BLOCK>(mut_i32(p.chunk_sums), 0, p.chunks, int32_t(p.base));
}
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2c_scan_apply(const Csr2cscParams p) { scan_apply_and_mark(p); }
extern "C" __global__ void __launch_bounds__(BLOCK, SCATTER_BLOCKS) oxs_c2c_scatter(const Csr2cscParams p) { scatter(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_c2c_long_scan(const Csr2cscParams p) { long_scan(p); }

#define OXS_C2C_SORT(V, W)                                                                              \
    extern "C" __global__ void __launch_bounds__(BLOCK, SORT_BLOCKS) oxs_c2c_sort_##V(const Csr2cscParams p) { \
        sort_columns<W>(p);                                                                             \
    }                                                                                                   \
    extern "C" __global__ void __launch_bounds__(BLOCK, LONG_BLOCKS) oxs_c2c_long_scatter_##V(            \
        const Csr2cscParams p) {                                                                        \
        long_scatter<W>(p);                                                                             \
    }

OXS_C2C_SORT(w1, uint8_t)
OXS_C2C_SORT(w2, uint16_t)
OXS_C2C_SORT(w4, uint32_t)
OXS_C2C_SORT(w8, uint64_t)
OXS_C2C_SORT(w16, uint4)
