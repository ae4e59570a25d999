// The warp-row table (src/ops/spmm/warp_rows/gpu_build.rs) built on the GPU.
//
// Preprocess's table, its short rows' part (`short_items`, parameter block SpmmWarpRowsShortParams
// in src/kernels/params/spmm.rs): one item per row of at most a piece, in row order after the long
// rows' items, which the host lays out longest first (the long rows are few; youtube_like's 1.14M
// items took 26-39 ms to build and upload on the host). Thread per row,
// grid-stride; a short row's slot is its rank among the short rows, found by a binary search of
// the long rows (ascending) for how many precede it.
//
// Preprocess's long rows (`list_long`, SpmmWarpRowsListParams): each row longer than a piece
// claims a slot (an atomic) and leaves its first entry, length and number there; the host reads
// back only that list (youtube_like: its 1.14M row offsets read back and walked took 13-15 ms),
// sorts it longest first and lays out the long rows' items. A row outside the entries sets a flag
// instead (the host then keeps the kernels that read the offsets themselves).
//
// A plain call's table, all of it (`count` then `write`, SpmmWarpRowsBuildParams): a plain call
// cannot read the rows back, so the long rows cannot be sorted longest first as the host sorts
// them; they come in three classes by length, longest first, each in row order (warp_rows/gpu_build.rs
// `long_class`; `build_by_class` is the host's twin), then the short rows. Every row's place
// follows from counts over the rows before it: rows longer than a piece, split rows and their
// pieces (packed into one u64), and the long whole rows of class 1 (`RowCounts`).
// Two launches, no atomics:
//   1. count: block b sums its chunk of `chunk_rows` rows' counts into sums[b] (SPMM_WARP_ROWS_SUM_WORDS
//      u64 a chunk, the second unused where `whole` is a piece; in a plain call's chain it also
//      gives the verdict: whether a row is too long for whole short rows);
//   2. write: each block adds the sums of the chunks before its own (and all of them, for each
//      class's and the short rows' first slot), scans its rows in rounds of BLOCK, and writes each
//      row's items, a split row's add slot and the zeroes of its arrival counters; block 0 writes
//      the header.
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

template <typename I>
__device__ void list_long(const SpmmWarpRowsListParams& p) {
    const Rows<float, I> a(p.a, 0);
    unsigned long long* counters = reinterpret_cast<unsigned long long*>(p.counters);
    unsigned long long* list = reinterpret_cast<unsigned long long*>(p.list);
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.m; r += int64_t(gridDim.x) * blockDim.x) {
        const int64_t begin = a.begin(r), end = a.end(r);
        if (begin < 0 || end < begin || end > p.nnz) {
            atomicOr(&counters[1], 1ull);
            continue;
        }
        if (end - begin <= p.piece) continue;
        const unsigned long long slot = atomicAdd(&counters[0], 1ull);
        if (slot >= (unsigned long long)p.room) continue;  // counted: the host sees the list overflow
        unsigned long long* row = list + SPMM_WARP_ROWS_LISTED_WORDS * slot;
        row[0] = (unsigned long long)begin;
        row[1] = (unsigned long long)(end - begin);
        row[2] = (unsigned long long)r;
    }
}

// ---- a plain call's table -----------------------------------------------------------------------

// The long rows' classes, in table order (warp_rows/gpu_build.rs `long_class`): split rows (longer than
// `whole`), whole rows longer than halfway from a piece to `whole`, the other whole rows. -1 for a
// short row.
__device__ __forceinline__ int long_class(int64_t len, int64_t piece, int64_t whole) {
    if (len <= piece) return -1;
    if (len > whole) return 0;
    return 2 * len > piece + whole ? 1 : 2;
}

// What rows add up to, as the build sums and scans them: word 0 packs the rows longer than a
// piece, the split rows and their pieces (SPMM_WARP_ROWS_*_SHIFT); word 1 counts the whole rows of
// class 1. WORDS of them are scanned: one where `whole` is a piece (no row is a long whole row,
// so word 1 is 0), else two (SPMM_WARP_ROWS_SUM_WORDS, a chunk's sums, always two).
template <int WORDS>
struct RowCounts {
    static_assert(WORDS >= 1 && WORDS <= SPMM_WARP_ROWS_SUM_WORDS, "the packed counts, and the long whole rows' class 1");
    uint64_t w[WORDS];

    __device__ RowCounts() {
#pragma unroll
        for (int i = 0; i < WORDS; ++i) w[i] = 0;
    }
    // A row of `len` entries.
    __device__ RowCounts(int64_t len, int64_t piece, int64_t whole) : RowCounts() {
        const int c = long_class(len, piece, whole);
        if (c < 0) return;
        const uint64_t pieces = uint64_t((len + piece - 1) / piece);
        w[0] = c == 0 ? (1ull | 1ull << SPMM_WARP_ROWS_SPLIT_SHIFT | pieces << SPMM_WARP_ROWS_PIECES_SHIFT) : 1ull;
        if constexpr (WORDS > 1) w[1] = c == 1;
    }
    __device__ void add(const RowCounts& o) {
#pragma unroll
        for (int i = 0; i < WORDS; ++i) w[i] += o.w[i];
    }
    __device__ int64_t long_rows() const { return int64_t(w[0] & ((1ull << SPMM_WARP_ROWS_SPLIT_SHIFT) - 1)); }
    __device__ int64_t splits() const {
        return int64_t((w[0] >> SPMM_WARP_ROWS_SPLIT_SHIFT) & ((1ull << (SPMM_WARP_ROWS_PIECES_SHIFT - SPMM_WARP_ROWS_SPLIT_SHIFT)) - 1));
    }
    __device__ int64_t pieces() const { return int64_t(w[0] >> SPMM_WARP_ROWS_PIECES_SHIFT); }
    __device__ int64_t heavy() const {
        if constexpr (WORDS > 1) {
            return int64_t(w[1]);
        } else {
            return 0;
        }
    }
    // The items of the long rows: one a whole row, a split row's pieces.
    __device__ int64_t long_items() const { return long_rows() - splits() + pieces(); }
    // The slot of a long row of class c, these being the counts before it and `total` all of them:
    // the split rows' pieces first, then class 1, then class 2.
    __device__ int64_t slot(int c, const RowCounts& total) const {
        if (c == 0) return pieces();
        if (c == 1) return total.pieces() + heavy();
        return total.pieces() + total.heavy() + long_rows() - splits() - heavy();
    }
};

// The sum of `c` over the block's threads, in every thread.
template <int WORDS>
__device__ __forceinline__ RowCounts<WORDS> block_sum(RowCounts<WORDS> c) {
    RowCounts<WORDS> total;
    scan::block_exclusive_words<BLOCK>(c.w, total.w);
    return total;
}

// Where `verdict_limit` is set, this launch is also the chain's verdict (rows_longer_than in
// spmm_short_rows.cu): every thread that finds a row longer stores the same epoch.
template <typename I, int WORDS>
__device__ void count_rows(const SpmmWarpRowsBuildParams& p) {
    wait_for_previous_kernel();  // the row views, or op(B)'s staging copy, came before
    if (p.verdict_limit == 0 && !chosen(p.choice)) return;
    const Rows<float, I> a(p.a, 0);
    const int64_t first = int64_t(blockIdx.x) * p.chunk_rows;
    const int64_t last = min(first + p.chunk_rows, p.m);
    RowCounts<WORDS> sum;
    bool longer = false;
    for (int64_t r = first + threadIdx.x; r < last; r += BLOCK) {
        const int64_t len = row_length(a.begin(r), a.end(r));
        sum.add(RowCounts<WORDS>(len, p.piece, p.whole));
        longer = longer || len > p.verdict_limit;
    }
    if (p.verdict_limit != 0 && longer) *reinterpret_cast<volatile uint64_t*>(p.choice.at) = p.choice.epoch;
    const RowCounts<WORDS> total = block_sum(sum);
    if (threadIdx.x == 0) {
        uint64_t* sums = reinterpret_cast<uint64_t*>(p.sums) + SPMM_WARP_ROWS_SUM_WORDS * blockIdx.x;
#pragma unroll
        for (int i = 0; i < WORDS; ++i) sums[i] = total.w[i];
    }
}

// Two words only where long whole rows exist (`whole` above a piece).
template <typename I>
__device__ void count_rows(const SpmmWarpRowsBuildParams& p) {
    if (p.whole > p.piece) count_rows<I, 2>(p); else count_rows<I, 1>(p);
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

template <typename I, int WORDS>
__device__ void write_rows(const SpmmWarpRowsBuildParams& p) {
    // The first round's rows, read before the wait: no kernel of the chain writes them after
    // `count`, which had waited for what wrote them (the row views) before any of its blocks ended,
    // and this launch starts only once they have all ended. The sums' trip then overlaps theirs.
    const Rows<float, I> a(p.a, 0);
    const int64_t first = int64_t(blockIdx.x) * p.chunk_rows;
    const int64_t last = min(first + p.chunk_rows, p.m);
    int64_t begin = 0, len = 0;
    if (first + threadIdx.x < last) {
        begin = a.begin(first + threadIdx.x);
        len = row_length(begin, a.end(first + threadIdx.x));
    }
    wait_for_previous_kernel();  // the chunks' sums
    if (!chosen(p.choice)) return;
    // The chunks before this block's, and all of them, in one scan of twice the words.
    const uint64_t* sums = reinterpret_cast<const uint64_t*>(p.sums);
    uint64_t both[2 * WORDS] = {}, sum[2 * WORDS];
    for (int64_t b = threadIdx.x; b < p.chunks; b += BLOCK) {
        const bool earlier = b < int64_t(blockIdx.x);
#pragma unroll
        for (int i = 0; i < WORDS; ++i) {
            const uint64_t s = sums[SPMM_WARP_ROWS_SUM_WORDS * b + i];
            both[i] += earlier ? s : 0;
            both[WORDS + i] += s;
        }
    }
    scan::block_exclusive_words<BLOCK>(both, sum);
    RowCounts<WORDS> carry, total;
#pragma unroll
    for (int i = 0; i < WORDS; ++i) {
        carry.w[i] = sum[i];
        total.w[i] = sum[WORDS + i];
    }
    const int64_t short_first = total.long_items();  // the short rows' items follow every long row's
    ulonglong2* items = reinterpret_cast<ulonglong2*>(p.table) + 1;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *reinterpret_cast<ulonglong2*>(p.table) = make_ulonglong2(p.token, (unsigned long long)(short_first + p.m - total.long_rows()));
    for (int64_t r0 = first; r0 < last; r0 += BLOCK) {  // the same rounds in every thread: barriers inside
        const int64_t r = r0 + threadIdx.x;
        if (r0 != first) {
            begin = len = 0;
            if (r < last) {
                begin = a.begin(r);
                len = row_length(begin, a.end(r));
            }
        }
        RowCounts<WORDS> at(len, p.piece, p.whole), round;
        scan::block_exclusive_words<BLOCK>(at.w, round.w);  // the rows before this one in the round
        at.add(carry);
        carry.add(round);
        if (r >= last) continue;
        const int c = long_class(len, p.piece, p.whole);
        if (c < 0) {
            items[short_first + r - at.long_rows()] = whole_item(begin, len, r);
        } else if (c > 0) {
            items[at.slot(c, total)] = whole_item(begin, len, r);
        } else {
            write_split_row(p, r, begin, len, at.slot(c, total), at.splits(), at.pieces());
        }
    }
}

template <typename I>
__device__ void write_rows(const SpmmWarpRowsBuildParams& p) {
    if (p.whole > p.piece) write_rows<I, 2>(p); else write_rows<I, 1>(p);
}

}  // namespace

extern "C" __global__ void oxs_spmm_warp_rows_count_i32(const SpmmWarpRowsBuildParams p) { count_rows<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_count_i64(const SpmmWarpRowsBuildParams p) { count_rows<int64_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_write_i32(const SpmmWarpRowsBuildParams p) { write_rows<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_write_i64(const SpmmWarpRowsBuildParams p) { write_rows<int64_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_short_items_i32(const SpmmWarpRowsShortParams p) { short_items<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_short_items_i64(const SpmmWarpRowsShortParams p) { short_items<int64_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_list_long_i32(const SpmmWarpRowsListParams p) { list_long<int32_t>(p); }
extern "C" __global__ void oxs_spmm_warp_rows_list_long_i64(const SpmmWarpRowsListParams p) { list_long<int64_t>(p); }
