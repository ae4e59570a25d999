// The warp-row table (src/ops/spmm/warp_rows.rs) built on the GPU.
//
// Preprocess's table, its short rows' part (`short_items`, parameter block SpmmWarpRowsShortParams
// in src/kernels/params/spmm.rs): one item per row of at most a piece, in row order after the long
// rows' items, which the host lays out longest first (the long rows are few; youtube_like's 1.14M
// items took 26-39 ms to build and upload on the H100's host, session 37). Thread per row,
// grid-stride; a short row's slot is its rank among the short rows, found by a binary search of
// the long rows (ascending) for how many precede it.
//
// A plain call's table, all of it (`count` then `write`, SpmmWarpRowsBuildParams): a plain call
// cannot read the rows back, so the long rows come first in row order rather than longest first
// (warp_rows.rs `build_in_row_order` is the host's twin). Every row's place follows from three
// counts over the rows before it: rows longer than a piece, split rows, and their pieces (packed
// into one u64, `counts`). Two launches, no atomics:
//   1. count: block b sums its chunk of `chunk_rows` rows' counts into sums[b] (and, in a
//      plain call's chain, gives the verdict: whether a row is too long for whole short rows);
//   2. write: each block adds the sums of the chunks before its own (and all of them, for the
//      short rows' first slot), scans its rows in rounds of BLOCK, and writes each row's items,
//      a split row's add slot and the zeroes of its arrival counters; block 0 writes the header.
#include "common/pdl.cuh"
#include "common/scan.cuh"
#include "common/spmm.cuh"

using namespace spmm;

namespace {

__device__ __forceinline__ int64_t row_length(int64_t begin, int64_t end) { return max(end - begin, int64_t(0)); }

// A whole row's item: `begin | len << 48`, then the row (slot + 1 = 0: a whole row).
__device__ __forceinline__ ulonglong2 whole_item(int64_t begin, int64_t len, int64_t row) {
    return make_ulonglong2((unsigned long long)begin | (unsigned long long)len << 48, (unsigned long long)row);
}

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
        const int64_t len = row_length(begin, a.end(r));
        if (len > p.piece) continue;
        items[p.first_item + r - long_rows_before(long_rows, p.long_count, r)] = whole_item(begin, len, r);
    }
}

// ---- a plain call's table -----------------------------------------------------------------------

// What a row of `len` entries adds to the packed counts: 0 for a short row; a long row 1, and a
// split row (longer than `whole`) also 1 split row and its pieces.
__device__ __forceinline__ uint64_t counts(int64_t len, int64_t piece, int64_t whole) {
    if (len <= piece) return 0;
    if (len <= whole) return 1;
    const uint64_t pieces = uint64_t((len + piece - 1) / piece);
    return 1ull | 1ull << SPMM_WARP_ROWS_SPLIT_SHIFT | pieces << SPMM_WARP_ROWS_PIECES_SHIFT;
}

struct Counts {
    int64_t long_rows, splits, pieces;
    __device__ explicit Counts(uint64_t packed)
        : long_rows(int64_t(packed & ((1ull << SPMM_WARP_ROWS_SPLIT_SHIFT) - 1))),
          splits(int64_t((packed >> SPMM_WARP_ROWS_SPLIT_SHIFT) & ((1ull << (SPMM_WARP_ROWS_PIECES_SHIFT - SPMM_WARP_ROWS_SPLIT_SHIFT)) - 1))),
          pieces(int64_t(packed >> SPMM_WARP_ROWS_PIECES_SHIFT)) {}
    // The items of these long rows: one a whole row, a split row's pieces.
    __device__ int64_t long_items() const { return long_rows - splits + pieces; }
};

// The sum of `v` over the block's threads, in every thread.
__device__ __forceinline__ uint64_t block_sum(uint64_t v) {
    uint64_t total;
    scan::block_exclusive<BLOCK>(v, total);
    return total;
}


// Where `verdict_limit` is set, this launch is also the chain's verdict (rows_longer_than in
// spmm_short_rows.cu): every thread that finds a row longer stores the same epoch.
template <typename I>
__device__ void count_rows(const SpmmWarpRowsBuildParams& p) {
    wait_for_previous_kernel();  // the row views, or op(B)'s staging copy, came before
    if (p.verdict_limit == 0 && !chosen(p.choice)) return;
    const Rows<float, I> a(p.a, 0);
    const int64_t first = int64_t(blockIdx.x) * p.chunk_rows;
    const int64_t last = min(first + p.chunk_rows, p.m);
    uint64_t sum = 0;
    bool longer = false;
    for (int64_t r = first + threadIdx.x; r < last; r += BLOCK) {
        const int64_t len = row_length(a.begin(r), a.end(r));
        sum += counts(len, p.piece, p.whole);
        longer = longer || len > p.verdict_limit;
    }
    if (p.verdict_limit != 0 && longer) *reinterpret_cast<volatile uint64_t*>(p.choice.at) = p.choice.epoch;
    const uint64_t total = block_sum(sum);
    if (threadIdx.x == 0) reinterpret_cast<uint64_t*>(p.sums)[blockIdx.x] = total;
}

// A split row's pieces (items from `first_item`), its add slot and the zeroes of its counters: one
// a split row, one a group of SPMM_WARP_ROWS_GROUP pieces (at the group's first partial row), per
// column slice.
__device__ void write_split_row(const SpmmWarpRowsBuildParams& p, int64_t row, int64_t begin, int64_t len, int64_t first_item, int64_t add, int64_t first_piece) {
    ulonglong2* items = reinterpret_cast<ulonglong2*>(p.table) + 1;
    const int64_t count = (len + p.piece - 1) / p.piece;
    items[p.items_room + add] = make_ulonglong2((unsigned long long)row, (unsigned long long)first_piece | (unsigned long long)count << 32);
    for (int64_t i = 0; i < count; ++i) {
        const int64_t b = begin + i * p.piece;
        const int64_t l = min(p.piece, len - i * p.piece);
        items[first_item + i] = make_ulonglong2((unsigned long long)b | (unsigned long long)l << 48, (unsigned long long)add | (unsigned long long)(first_piece + i + 1) << 32);
    }
    uint32_t* counters = reinterpret_cast<uint32_t*>(p.counters);
    for (int64_t s = 0; s < p.slices; ++s) {
        counters[add * p.slices + s] = 0;
        for (int64_t g = 0; g < count; g += SPMM_WARP_ROWS_GROUP) counters[(p.adds_room + first_piece + g) * p.slices + s] = 0;
    }
}

template <typename I>
__device__ void write_rows(const SpmmWarpRowsBuildParams& p) {
    wait_for_previous_kernel();  // the chunks' sums
    if (!chosen(p.choice)) return;
    const uint64_t* sums = reinterpret_cast<const uint64_t*>(p.sums);
    uint64_t before = 0, all = 0;
    for (int64_t b = threadIdx.x; b < p.chunks; b += BLOCK) {
        const uint64_t s = sums[b];
        all += s;
        if (b < int64_t(blockIdx.x)) before += s;
    }
    before = block_sum(before);
    const Counts total(block_sum(all));
    const int64_t short_first = total.long_items();  // the short rows' items follow every long row's
    ulonglong2* items = reinterpret_cast<ulonglong2*>(p.table) + 1;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *reinterpret_cast<ulonglong2*>(p.table) = make_ulonglong2(p.token, (unsigned long long)(short_first + p.m - total.long_rows));
    const Rows<float, I> a(p.a, 0);
    const int64_t first = int64_t(blockIdx.x) * p.chunk_rows;
    const int64_t last = min(first + p.chunk_rows, p.m);
    uint64_t carry = before;
    for (int64_t r0 = first; r0 < last; r0 += BLOCK) {  // the same rounds in every thread: barriers inside
        const int64_t r = r0 + threadIdx.x;
        int64_t begin = 0, len = 0;
        if (r < last) {
            begin = a.begin(r);
            len = row_length(begin, a.end(r));
        }
        const uint64_t mine = counts(len, p.piece, p.whole);
        uint64_t round;
        const Counts at(carry + scan::block_exclusive<BLOCK>(mine, round));
        carry += round;
        if (r >= last) continue;
        if (len <= p.piece) {
            items[short_first + r - at.long_rows] = whole_item(begin, len, r);
        } else if (len <= p.whole) {
            items[at.long_items()] = whole_item(begin, len, r);
        } else {
            write_split_row(p, r, begin, len, at.long_items(), at.splits, at.pieces);
        }
    }
}

}  // namespace

extern "C" __global__ void oxs_spmm_warp_rows_count_i32(const SpmmWarpRowsBuildParams p) { count_rows<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_count_i64(const SpmmWarpRowsBuildParams p) { count_rows<int64_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_write_i32(const SpmmWarpRowsBuildParams p) { write_rows<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_write_i64(const SpmmWarpRowsBuildParams p) { write_rows<int64_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_short_items_i32(const SpmmWarpRowsShortParams p) { short_items<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_short_items_i64(const SpmmWarpRowsShortParams p) { short_items<int64_t>(p); }
