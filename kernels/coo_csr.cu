// Index helpers: COO row indices <-> CSR row offsets (cuSPARSE's Xcoo2csr / Xcsr2coo) and the
// identity permutation. 32-bit indices; `base` is in every index read and written.
//
// Both conversions are merges of two sorted sequences, cut into equal pieces along the merge path
// (as merge-path SpMV does): coo2csr merges the row indices with the rows 0..m (offset r is the
// number of entries whose row is below r), csr2coo merges the row ends with the entries 0..nnz-1.
// A block takes ITEMS steps of the path: one warp finds where the block's piece starts and
// another where it ends (a 32-way search each), the block loads the inputs of its piece into
// shared memory, each thread finds its own start inside them and walks STEPS steps writing into
// shared memory, and the block writes its outputs out in one coalesced sweep. So work is even
// whatever the rows look like (empty rows by the million, a hub of millions of entries), every
// offset or index is written once, with no atomics and no scratch, and the result is the same on
// every run.
//
// Unsorted or out-of-range input gives unspecified offsets (as cuSPARSE), but every read and
// write stays inside the arrays: a block's piece is clamped to its steps and the arrays' ends,
// and a thread never steps outside its block's piece.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include <stdint.h>

namespace {

constexpr int BLOCK = 256;
constexpr int STEPS = 8;
constexpr int ITEMS = BLOCK * STEPS;

__device__ __forceinline__ int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
__device__ __forceinline__ int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
__device__ __forceinline__ int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return min64(max64(v, lo), hi); }

// ---- coo2csr ------------------------------------------------------------------------------------
// State (i, r): i entries consumed, r offsets written. An entry is consumed while its row is below
// r; otherwise offset r (= i) is written. On diagonal d = i + r the path's i is the largest with
// row[i - 1] + i < d (row[i - 1] + i grows strictly with i for sorted rows).

// The largest x in [lo, hi] with ok(x), ok(lo) taken as true, for ok true then false along x: a
// whole warp probes 32 points at a time, so a search over 2^31 values takes 7 dependent loads,
// not 31 (the block waits on these before it can start).
template <typename Ok>
__device__ int64_t warp_search(int64_t lo, int64_t hi, Ok ok) {
    const int lane = threadIdx.x % 32;
    while (lo < hi) {
        const int64_t step = (hi - lo + 31) / 32;
        const int64_t x = lo + step * (lane + 1);
        const int c = __popc(__ballot_sync(0xffffffffu, x <= hi && ok(x)));
        const int64_t next_lo = lo + step * c;
        hi = min64(hi, lo + step * (c + 1) - 1);
        lo = next_lo;
    }
    return lo;
}

// Where diagonal d crosses the path: the entries consumed before it (a whole warp calls this).
__device__ int64_t coo_split(const int32_t* rows, int64_t nnz, int64_t m, int64_t base, int64_t d) {
    return warp_search(max64(d - (m + 1), 0), min64(d, nnz), [&](int64_t i) { return int64_t(rows[i - 1]) - base + i < d; });
}

__device__ void coo2csr(const Coo2CsrParams& p) {
    __shared__ int64_t split[2];
    __shared__ int32_t rows_in[ITEMS];
    __shared__ int32_t offsets_out[ITEMS];
    const int32_t* rows = reinterpret_cast<const int32_t*>(p.coo_rows);
    int32_t* offsets = reinterpret_cast<int32_t*>(p.csr_offsets);
    const int64_t total = p.m + 1 + p.nnz;
    const int64_t d0 = int64_t(blockIdx.x) * ITEMS;
    const int64_t d1 = d0 + ITEMS < total ? d0 + ITEMS : total;
    // Warp 0 finds where the block's piece starts, warp 1 where it ends.
    if (threadIdx.x < 64) {
        const int64_t at = coo_split(rows, p.nnz, p.m, p.base, threadIdx.x < 32 ? d0 : d1);
        if (threadIdx.x % 32 == 0) split[threadIdx.x / 32] = at;
    }
    __syncthreads();
    // Sorted rows make the two splits consistent; clamping keeps the piece inside its ITEMS steps
    // and the arrays whatever the rows are.
    const int64_t i0 = split[0];
    const int64_t i1 = clamp(split[1], max64(i0, d1 - (p.m + 1)), min64(i0 + (d1 - d0), p.nnz));
    const int64_t r0 = d0 - i0, r1 = d1 - i1;
    for (int64_t j = threadIdx.x; j < i1 - i0; j += BLOCK) rows_in[j] = rows[i0 + j];
    __syncthreads();

    // This thread's piece of the block's: its start by the same search, inside shared memory.
    const int64_t t0 = d0 + int64_t(threadIdx.x) * STEPS;
    if (t0 < d1) {
        int64_t lo = t0 - r1 > i0 ? t0 - r1 : i0;
        int64_t hi = t0 - r0 < i1 ? t0 - r0 : i1;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo + 1) / 2;
            if (int64_t(rows_in[mid - 1 - i0]) - p.base + mid < t0) lo = mid;
            else hi = mid - 1;
        }
        int64_t i = lo, r = t0 - lo;
        const int64_t t1 = t0 + STEPS < d1 ? t0 + STEPS : d1;
        for (int64_t d = t0; d < t1; ++d) {
            if (i < i1 && (r >= r1 || int64_t(rows_in[i - i0]) - p.base < r)) {
                ++i;
            } else if (r < r1) {
                offsets_out[r - r0] = int32_t(i + p.base);
                ++r;
            } else {
                break;
            }
        }
    }
    __syncthreads();
    for (int64_t j = threadIdx.x; j < r1 - r0; j += BLOCK) offsets[r0 + j] = offsets_out[j];
}

// ---- csr2coo ------------------------------------------------------------------------------------
// State (r, k): r rows finished, k indices written. Row r is finished once its end, offset r + 1,
// is at most k; otherwise index k gets row r. On diagonal d = r + k the path's r is the largest
// with offset[r] + r <= d.

// Where diagonal d crosses the path: the rows finished before it (a whole warp calls this).
__device__ int64_t csr_split(const int32_t* offsets, int64_t nnz, int64_t m, int64_t base, int64_t d) {
    return warp_search(max64(d - nnz, 0), min64(d, m), [&](int64_t r) { return int64_t(offsets[r]) - base + r <= d; });
}

__device__ void csr2coo(const Csr2CooParams& p) {
    __shared__ int64_t split[2];
    __shared__ int32_t ends_in[ITEMS];
    __shared__ int32_t rows_out[ITEMS];
    const int32_t* offsets = reinterpret_cast<const int32_t*>(p.csr_offsets);
    int32_t* rows = reinterpret_cast<int32_t*>(p.coo_rows);
    const int64_t total = p.m + p.nnz;
    const int64_t d0 = int64_t(blockIdx.x) * ITEMS;
    const int64_t d1 = d0 + ITEMS < total ? d0 + ITEMS : total;
    if (threadIdx.x < 64) {
        const int64_t at = csr_split(offsets, p.nnz, p.m, p.base, threadIdx.x < 32 ? d0 : d1);
        if (threadIdx.x % 32 == 0) split[threadIdx.x / 32] = at;
    }
    __syncthreads();
    const int64_t r0 = split[0];
    const int64_t r1 = clamp(split[1], max64(r0, d1 - p.nnz), min64(r0 + (d1 - d0), p.m));
    const int64_t k0 = d0 - r0, k1 = d1 - r1;
    // The ends of the rows the block finishes: offsets r0 + 1 .. r1.
    for (int64_t j = threadIdx.x; j < r1 - r0; j += BLOCK) ends_in[j] = offsets[r0 + 1 + j];
    __syncthreads();

    const int64_t t0 = d0 + int64_t(threadIdx.x) * STEPS;
    if (t0 < d1) {
        int64_t lo = t0 - k1 > r0 ? t0 - k1 : r0;
        int64_t hi = t0 - k0 < r1 ? t0 - k0 : r1;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo + 1) / 2;
            if (int64_t(ends_in[mid - 1 - r0]) - p.base + mid <= t0) lo = mid;
            else hi = mid - 1;
        }
        int64_t r = lo, k = t0 - lo;
        const int64_t t1 = t0 + STEPS < d1 ? t0 + STEPS : d1;
        for (int64_t d = t0; d < t1; ++d) {
            if (r < r1 && (k >= k1 || int64_t(ends_in[r - r0]) - p.base <= k)) {
                ++r;
            } else if (k < k1) {
                rows_out[k - k0] = int32_t(r + p.base);
                ++k;
            } else {
                break;
            }
        }
    }
    __syncthreads();
    for (int64_t j = threadIdx.x; j < k1 - k0; j += BLOCK) rows[k0 + j] = rows_out[j];
}

// ---- identity permutation -----------------------------------------------------------------------
// Four values a store where p is 16-byte aligned: a scalar head up to the first aligned element,
// int4 stores, a scalar tail.
__device__ void identity(const IdentityParams& p) {
    int32_t* out = reinterpret_cast<int32_t*>(p.p);
    const int64_t misaligned = int64_t((p.p >> 2) & 3);
    int64_t head = (4 - misaligned) & 3;
    if (head > p.n) head = p.n;
    const int64_t quads = (p.n - head) / 4;
    const int64_t tail = head + quads * 4;
    const int64_t t = grid::global_thread();
    if (t < head) out[t] = int32_t(t);
    if (t < p.n - tail) out[tail + t] = int32_t(tail + t);
    int4* aligned = reinterpret_cast<int4*>(out + head);
    for (int64_t q = t; q < quads; q += grid::thread_count()) {
        const int32_t v = int32_t(head + q * 4);
        aligned[q] = make_int4(v, v + 1, v + 2, v + 3);
    }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(BLOCK) oxs_coo2csr_i32(const Coo2CsrParams p) { coo2csr(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_csr2coo_i32(const Csr2CooParams p) { csr2coo(p); }
extern "C" __global__ void oxs_identity_permutation_i32(const IdentityParams p) { identity(p); }
