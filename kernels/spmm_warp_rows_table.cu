// Preprocess's warp-row table (src/ops/spmm/warp_rows.rs), its short rows' part: one item per
// row of at most a piece, in row order after the long rows' items, which the host lays out (the
// long rows are few; youtube_like's 1.14M items took 26-39 ms to build and upload on the H100's
// host, session 37).
//
// Kernel (parameter block SpmmWarpRowsShortParams in src/kernels/params/spmm.rs): thread per row,
// grid-stride; a short row's slot is its rank among the short rows, found by a binary search of
// the long rows (ascending) for how many precede it.
#include "common/spmm.cuh"

using namespace spmm;

namespace {

// Long rows before row r: the first index of `long_rows` whose row is r or later.
__device__ int64_t long_rows_before(const uint32_t* long_rows, int64_t count, int64_t r) {
    int64_t lo = 0, hi = count;
    while (lo < hi) {
        const int64_t mid = (lo + hi) / 2;
        if (int64_t(long_rows[mid]) < r) lo = mid + 1; else hi = mid;
    }
    return lo;
}

template <typename I>
__device__ void short_items(const SpmmWarpRowsShortParams& p) {
    const Rows<float, I> a(p.a, 0);
    const uint32_t* long_rows = reinterpret_cast<const uint32_t*>(p.long_rows);
    ulonglong2* items = reinterpret_cast<ulonglong2*>(p.items);
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.m; r += int64_t(gridDim.x) * blockDim.x) {
        const int64_t begin = a.begin(r);
        const int64_t len = max(a.end(r) - begin, int64_t(0));
        if (len > p.piece) continue;
        const int64_t slot = p.first_item + r - long_rows_before(long_rows, p.long_count, r);
        // `begin | len << 48`, then the row (slot + 1 = 0: a whole row).
        items[slot] = make_ulonglong2((unsigned long long)begin | (unsigned long long)len << 48, (unsigned long long)r);
    }
}

}  // namespace

extern "C" __global__ void oxs_spmm_warp_rows_short_items_i32(const SpmmWarpRowsShortParams p) { short_items<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_short_items_i64(const SpmmWarpRowsShortParams p) { short_items<int64_t>(p); }
