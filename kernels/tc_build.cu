// BitTCF build: op(A)'s rows (CSR-like, `SpmmRows`) become row windows of 8 rows whose distinct
// columns, in increasing order, are cut into 8x8 tiles with a 64-bit occupancy mask each.
// src/kernels/spmm_tc.rs drives the stages, all on one stream, no host round trip:
//
//   0. window_bound    (preprocess, before the rest, read back) the windows' longest rows summed:
//                      a window holds at least as many (window, column) pairs as its longest row
//                      has entries (unless a row repeats a column), so where the entries fall
//                      short of the tiles' threshold times that sum, no tile can pay and the rest
//                      of the build is skipped
//   1. column_keys     per entry q: key = its column (k when out of range), pos = q
//   2. radix passes    stable sort by the column (common/radix_sort.cuh)
//   3. window_keys     key = the window of sorted entry i (W when q lies in no row)
//   4. radix passes    stable sort by the window: each window's entries now run by column, and
//                      inside one column by position, so by row
//   5. distinct        1 where a new (window, column) pair starts; scanned, it numbers the pairs
//   6. window_tiles    tiles per window = ceil(pairs / 8); scanned, the first tile of each
//   7. window_segments segments (runs of `segment` tiles) and partial slots per window; scanned
//   8. segments        the segment records
//   9. masks           each pair's column into colmap, each entry's bit into its tile's mask
//  10. tile_counts     popcount per tile; scanned, the first value slot of each tile
//  11. slots           src[slot] = the entry holding the slot's value
//  12. decide          tensor cores for this matrix, or the CUDA-core tile kernel (too few
//                      entries per pair: the tiles would read as many B rows and do more work)
//
// Windows, tiles and value slots are numbered by scans, never claimed by atomics; the only atomic
// is the OR of mask bits, whose result does not depend on order. So the format, and every SpMM
// over it, is the same on every run.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/radix_sort.cuh"
#include "common/scan.cuh"
#include "common/row_search.cuh"
#include <stdint.h>

namespace {

constexpr int BLOCK = TC_BLOCK;
constexpr int RADIX_BITS = TC_RADIX_BITS;
constexpr int SORT_ROUNDS = TC_SORT_ROUNDS;
constexpr int SCAN_ROUNDS = TC_SCAN_ROUNDS;
constexpr uint32_t WINDOW = TC_WINDOW;
constexpr uint32_t TILE = TC_TILE_COLS;
static_assert(TC_BLOCK == 1 << TC_RADIX_BITS, "the sort gives thread d of a block digit d");

using grid::global_thread;
using grid::thread_count;

// op(A)'s rows with the lookups every stage needs.
template <typename I>
struct Rows {
    SpmmRows a;
    const I* offsets;
    const I* cols;
    int64_t base, m, k, first;  // first: offsets[0] - base, where entry numbering starts

    __device__ explicit Rows(const TcBuildParams& p)
        : a(p.a),
          offsets(reinterpret_cast<const I*>(p.a.offsets)),
          cols(reinterpret_cast<const I*>(p.a.cols)),
          base(p.a.base),
          m(p.m),
          k(p.k),
          first(int64_t(reinterpret_cast<const I*>(p.a.offsets)[0]) - p.a.base) {}

    // Entries of rows [0, r) begin at start(r); start(m) ends the last row.
    __device__ int64_t start(int64_t r) const { return int64_t(offsets[min(r, m)]) - base; }
    // The row holding entry q, or -1 when q lies in no row.
    __device__ int64_t row_of(int64_t q) const {
        if (q < first || q >= start(m)) return -1;
        return row_search::row_of(spmm::Rows<float, I>(a, 0), m, q);
    }
    // Column of entry q, or k when out of range (such entries get no mask bit).
    __device__ uint32_t col(int64_t q) const {
        const int64_t c = int64_t(cols[q]) - base;
        return (c >= 0 && c < k) ? uint32_t(c) : uint32_t(k);
    }
    // Where window w's entries begin in the sorted order (windows keep CSR's order of entries).
    __device__ int64_t window_start(int64_t w) const { return start(w * WINDOW) - first; }
};

// One sorted entry, decoded.
struct Entry {
    int64_t q;        // position in op(A)'s rows
    int64_t row;      // -1: in no row
    uint32_t window;  // windows: not in any window
    uint32_t col;
};

template <typename I>
__device__ __forceinline__ Entry entry(const Rows<I>& a, const uint32_t* pos, int64_t i) {
    Entry e;
    e.q = pos[i];
    e.row = a.row_of(e.q);
    e.window = e.row < 0 ? uint32_t((a.m + WINDOW - 1) / WINDOW) : uint32_t(e.row / WINDOW);
    e.col = a.col(e.q);
    return e;
}

// ---- 0: the windows' longest rows, summed (into the u64 at `counts`, zeroed before) -----------
// A sum of integers: the same in any order.
template <typename I>
__device__ void window_bound(const TcBuildParams& p) {
    const Rows<I> a(p);
    const int64_t windows = (a.m + WINDOW - 1) / WINDOW;
    unsigned long long sum = 0;
    for (int64_t w = global_thread(); w < windows; w += thread_count()) {
        const int64_t last = min((w + 1) * int64_t(WINDOW), a.m);
        int64_t longest = 0, begin = a.start(w * WINDOW);
        for (int64_t r = w * WINDOW; r < last; ++r) {
            const int64_t end = a.start(r + 1);
            longest = max(longest, end - begin);
            begin = end;
        }
        sum += uint64_t(longest);
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0 && sum != 0) atomicAdd(reinterpret_cast<unsigned long long*>(p.counts), sum);
}

// ---- 1, 3: sort keys ---------------------------------------------------------------------------
template <typename I>
__device__ void column_keys(const TcBuildParams& p) {
    const Rows<I> a(p);
    uint32_t* keys = reinterpret_cast<uint32_t*>(p.keys_out);
    uint32_t* pos = reinterpret_cast<uint32_t*>(p.pos_out);
    for (int64_t q = global_thread(); q < p.nnz; q += thread_count()) {
        keys[q] = a.col(q);
        pos[q] = uint32_t(q);
    }
}

template <typename I>
__device__ void window_keys(const TcBuildParams& p) {
    const Rows<I> a(p);
    const uint32_t* pos = reinterpret_cast<const uint32_t*>(p.pos_in);
    uint32_t* keys = reinterpret_cast<uint32_t*>(p.keys_out);
    for (int64_t i = global_thread(); i < p.nnz; i += thread_count()) keys[i] = entry(a, pos, i).window;
}

// ---- 5: distinct (window, column) pairs ----------------------------------------------------------
template <typename I>
__device__ void distinct(const TcBuildParams& p) {
    const Rows<I> a(p);
    const uint32_t* pos = reinterpret_cast<const uint32_t*>(p.pos_in);
    uint32_t* flag = reinterpret_cast<uint32_t*>(p.distinct);
    for (int64_t i = global_thread(); i <= p.nnz; i += thread_count()) {
        if (i == p.nnz) {
            flag[i] = 0;  // the scan's total lands here
            continue;
        }
        const Entry e = entry(a, pos, i);
        bool first = i == 0;
        if (!first) {
            const Entry before = entry(a, pos, i - 1);
            first = before.window != e.window || before.col != e.col;
        }
        flag[i] = first ? 1u : 0u;
    }
}

// ---- 6, 7: per window ------------------------------------------------------------------------------
template <typename I>
__device__ void window_tiles(const TcBuildParams& p) {
    const Rows<I> a(p);
    const uint32_t* pair = reinterpret_cast<const uint32_t*>(p.distinct);  // scanned
    uint32_t* tiles = reinterpret_cast<uint32_t*>(p.fmt.win_tiles);
    for (int64_t w = global_thread(); w <= p.fmt.windows; w += thread_count()) {
        if (w == p.fmt.windows) {
            tiles[w] = 0;
            continue;
        }
        const uint32_t pairs = pair[a.window_start(w + 1)] - pair[a.window_start(w)];
        tiles[w] = (pairs + TILE - 1) / TILE;
    }
}

__device__ void window_segments(const TcBuildParams& p) {
    const uint32_t* first_tile = reinterpret_cast<const uint32_t*>(p.fmt.win_tiles);  // scanned
    uint64_t* segs = reinterpret_cast<uint64_t*>(p.fmt.win_segs);
    for (int64_t w = global_thread(); w <= p.fmt.windows; w += thread_count()) {
        if (w == p.fmt.windows) {
            segs[w] = 0;
            continue;
        }
        const uint32_t tiles = first_tile[w + 1] - first_tile[w], segment = uint32_t(p.fmt.segment);
        const uint64_t count = tiles <= segment ? 1 : (tiles + segment - 1) / segment;  // empty: one, writes beta * C
        const uint64_t slots = count > 1 ? count : 0;
        segs[w] = count | (slots << 32);
    }
}

// ---- 8: segment records ----------------------------------------------------------------------------
__device__ void segments(const TcBuildParams& p) {
    const uint32_t* first_tile = reinterpret_cast<const uint32_t*>(p.fmt.win_tiles);
    const uint64_t* segs = reinterpret_cast<const uint64_t*>(p.fmt.win_segs);
    uint4* out = reinterpret_cast<uint4*>(p.fmt.segments);
    for (int64_t w = global_thread(); w < p.fmt.windows; w += thread_count()) {
        const uint64_t at = segs[w], next = segs[w + 1];
        const uint32_t seg0 = uint32_t(at), count = uint32_t(next) - seg0;
        const uint32_t slot0 = uint32_t(at >> 32);
        const bool split = uint32_t(next >> 32) != slot0;
        const uint32_t t0 = first_tile[w], t1 = first_tile[w + 1];
        const uint32_t segment = uint32_t(p.fmt.segment);
        for (uint32_t s = 0; s < count; ++s) {
            const uint32_t begin = t0 + s * segment;
            out[seg0 + s] = make_uint4(uint32_t(w), begin, min(begin + segment, t1), split ? slot0 + s : 0xffffffffu);
        }
    }
}

// Tile and column-in-tile of sorted entry i: its pair's number inside the window, in eights.
struct Place {
    uint32_t tile, slot, pair, pairs;
};
template <typename I>
__device__ __forceinline__ Place place(const Rows<I>& a, const TcBuildParams& p, const Entry& e, int64_t i) {
    const uint32_t* pair = reinterpret_cast<const uint32_t*>(p.distinct);
    const uint32_t* first_tile = reinterpret_cast<const uint32_t*>(p.fmt.win_tiles);
    const uint32_t window_pair0 = pair[a.window_start(e.window)];
    Place pl;
    pl.pair = pair[i + 1] - 1 - window_pair0;  // scanned flags: pairs started up to i, minus one
    pl.pairs = pair[a.window_start(e.window + 1)] - window_pair0;
    pl.tile = first_tile[e.window] + pl.pair / TILE;
    pl.slot = pl.pair % TILE;
    return pl;
}

// ---- 9: colmap and masks -----------------------------------------------------------------------------
template <typename I>
__device__ void masks(const TcBuildParams& p) {
    const Rows<I> a(p);
    const uint32_t* pos = reinterpret_cast<const uint32_t*>(p.pos_in);
    const uint32_t* flag_scan = reinterpret_cast<const uint32_t*>(p.distinct);
    uint32_t* colmap = reinterpret_cast<uint32_t*>(p.fmt.colmap);
    unsigned long long* mask = reinterpret_cast<unsigned long long*>(p.fmt.masks);
    const uint32_t windows = uint32_t(p.fmt.windows);
    for (int64_t i = global_thread(); i < p.nnz; i += thread_count()) {
        const Entry e = entry(a, pos, i);
        if (e.window >= windows) continue;
        const Place pl = place(a, p, e, i);
        const bool valid = e.col < uint32_t(p.k);
        if (flag_scan[i + 1] != flag_scan[i]) {  // this entry starts its pair
            const uint32_t c = valid ? e.col : 0u;
            colmap[pl.tile * TILE + pl.slot] = c;
            // The window's last pair fills the rest of its tile with its own column: a row of B
            // that is read anyway, times zero.
            if (pl.pair + 1 == pl.pairs)
                for (uint32_t s = pl.slot + 1; s < TILE; ++s) colmap[pl.tile * TILE + s] = c;
        }
        if (valid) atomicOr(&mask[pl.tile], 1ull << ((e.row % WINDOW) * TILE + pl.slot));
    }
}

// ---- 12: tensor cores or CUDA cores ----------------------------------------------------------------
// One thread: pairs (the B rows the tiles read) against entries (those the CUDA-core kernel reads).
// Fewer value slots than entries means some (row, column) is given more than once.
template <typename I>
__device__ void decide(const TcBuildParams& p) {
    const Rows<I> a(p);
    const uint32_t* pair = reinterpret_cast<const uint32_t*>(p.distinct);
    const int64_t entries = a.window_start(p.fmt.windows);
    const uint64_t pairs = pair[entries];
    const uint32_t tiles = min(int64_t(reinterpret_cast<const uint32_t*>(p.fmt.win_tiles)[p.fmt.windows]), p.fmt.tiles_max);
    const int64_t slots = reinterpret_cast<const uint32_t*>(p.fmt.tile_vals)[tiles];
    const bool duplicates_refused = p.refuse_duplicates != 0 && slots < entries;
    *reinterpret_cast<uint32_t*>(p.fmt.use_tensor_cores) = !duplicates_refused && uint64_t(entries) * 10 >= pairs * p.min_reuse_tenths ? 1u : 0u;
}

// ---- 10: popcount per tile -----------------------------------------------------------------------------
__device__ void tile_counts(const TcBuildParams& p) {
    const unsigned long long* mask = reinterpret_cast<const unsigned long long*>(p.fmt.masks);
    uint32_t* count = reinterpret_cast<uint32_t*>(p.fmt.tile_vals);
    for (int64_t t = global_thread(); t <= p.fmt.tiles_max; t += thread_count())
        count[t] = t < p.fmt.tiles_max ? uint32_t(__popcll(mask[t])) : 0u;
}

// ---- 11: value slots -------------------------------------------------------------------------------------
// Entries of one (row, column) are neighbours in the sorted order (same window and column, then
// by position); the first of them owns the slot and is flagged when others follow.
template <typename I>
__device__ void slots(const TcBuildParams& p) {
    const Rows<I> a(p);
    const uint32_t* pos = reinterpret_cast<const uint32_t*>(p.pos_in);
    const unsigned long long* mask = reinterpret_cast<const unsigned long long*>(p.fmt.masks);
    const uint32_t* tile_vals = reinterpret_cast<const uint32_t*>(p.fmt.tile_vals);
    uint32_t* src = reinterpret_cast<uint32_t*>(p.fmt.src);
    const uint32_t windows = uint32_t(p.fmt.windows);
    for (int64_t i = global_thread(); i < p.nnz; i += thread_count()) {
        const Entry e = entry(a, pos, i);
        if (e.window >= windows || e.col >= uint32_t(p.k)) continue;
        auto same = [&](int64_t j) {
            const Entry o = entry(a, pos, j);
            return o.window == e.window && o.col == e.col && o.row == e.row;
        };
        if (i > 0 && same(i - 1)) continue;
        const Place pl = place(a, p, e, i);
        const uint32_t bit = uint32_t(e.row % WINDOW) * TILE + pl.slot;
        const uint32_t slot = tile_vals[pl.tile] + __popcll(mask[pl.tile] & ((1ull << bit) - 1));
        // With reordering `a` is a permuted copy: name the entry of op(A)'s rows it came from.
        const uint32_t q = p.entry_map ? reinterpret_cast<const uint32_t*>(p.entry_map)[e.q] : uint32_t(e.q);
        src[slot] = q | (i + 1 < p.nnz && same(i + 1) ? TC_SRC_DUPLICATE : 0u);
    }
}

}  // namespace

// ---- instantiations: oxs_tc_build_<stage>[_<index>] ------------------------------------------------------
#define OXS_TC_BUILD_INDEXED(IS, I)                                                                          \
    extern "C" __global__ void oxs_tc_build_window_bound_##IS(const TcBuildParams p) { window_bound<I>(p); }  \
    extern "C" __global__ void oxs_tc_build_column_keys_##IS(const TcBuildParams p) { column_keys<I>(p); }    \
    extern "C" __global__ void oxs_tc_build_window_keys_##IS(const TcBuildParams p) { window_keys<I>(p); }    \
    extern "C" __global__ void oxs_tc_build_distinct_##IS(const TcBuildParams p) { distinct<I>(p); }          \
    extern "C" __global__ void oxs_tc_build_window_tiles_##IS(const TcBuildParams p) { window_tiles<I>(p); }  \
    extern "C" __global__ void oxs_tc_build_masks_##IS(const TcBuildParams p) { masks<I>(p); }                \
    extern "C" __global__ void oxs_tc_build_slots_##IS(const TcBuildParams p) { slots<I>(p); }                \
    extern "C" __global__ void oxs_tc_build_decide_##IS(const TcBuildParams p) { decide<I>(p); }

OXS_TC_BUILD_INDEXED(i32, int32_t)
OXS_TC_BUILD_INDEXED(i64, int64_t)

extern "C" __global__ void oxs_tc_build_window_segments(const TcBuildParams p) { window_segments(p); }
extern "C" __global__ void oxs_tc_build_segments(const TcBuildParams p) { segments(p); }
extern "C" __global__ void oxs_tc_build_tile_counts(const TcBuildParams p) { tile_counts(p); }

extern "C" __global__ void oxs_tc_build_histogram(const TcBuildParams p) {
    radix::tile_histogram<RADIX_BITS, SORT_ROUNDS>(reinterpret_cast<const uint32_t*>(p.keys_in), p.nnz, p.sort_tiles,
                                                   p.shift, reinterpret_cast<uint32_t*>(p.counts));
}
extern "C" __global__ void oxs_tc_build_scatter(const TcBuildParams p) {
    radix::tile_scatter<RADIX_BITS, SORT_ROUNDS>(
        reinterpret_cast<const uint32_t*>(p.keys_in), reinterpret_cast<const uint32_t*>(p.pos_in),
        reinterpret_cast<uint32_t*>(p.keys_out), reinterpret_cast<uint32_t*>(p.pos_out),
        reinterpret_cast<const uint32_t*>(p.counts), p.nnz, p.sort_tiles, p.shift);
}

// Prefix sums of u32 (pairs, tiles, counts) and u64 (packed segments | slots) arrays.
#define OXS_TC_SCAN(TS, T)                                                                                     \
    extern "C" __global__ void oxs_tc_build_scan_reduce_##TS(const TcBuildParams p) {                          \
        scan::chunk_reduce<BLOCK, SCAN_ROUNDS>(reinterpret_cast<const T*>(p.scan_data), p.scan_n,              \
                                               reinterpret_cast<T*>(p.scan_sums));                             \
    }                                                                                                          \
    extern "C" __global__ void oxs_tc_build_scan_sums_##TS(const TcBuildParams p) {                            \
        scan::sums_in_place<BLOCK>(reinterpret_cast<T*>(p.scan_sums), p.scan_blocks);                          \
    }                                                                                                          \
    extern "C" __global__ void oxs_tc_build_scan_apply_##TS(const TcBuildParams p) {                           \
        scan::chunk_apply<BLOCK, SCAN_ROUNDS>(reinterpret_cast<T*>(p.scan_data), p.scan_n,                     \
                                              reinterpret_cast<const T*>(p.scan_sums));                        \
    }

OXS_TC_SCAN(u32, uint32_t)
OXS_TC_SCAN(u64, uint64_t)
