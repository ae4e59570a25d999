// SpMV over op(A) given as rows: y = alpha * op(A) * x + beta * y.
//
// Kernels (parameter blocks in src/kernels/params/spmv.rs):
//  * `tiles`     (oxs_spmv_tiles_*): one warp per tile of `size` consecutive entries (a multiple of
//                CHUNK), whatever the row lengths. The warp streams its tile a chunk of CHUNK
//                entries at a time, each lane reading QUAD consecutive entries with one wide load
//                per array. Stages per chunk: load the entries (the next chunk's loads are in
//                flight while this one is reduced), gather x, mark the entries that end a row
//                (from a window of 32 rows' offsets), add the products by a segmented scan over
//                the warp, write y. Positions are 32-bit offsets from the tile's first entry.
//                A row crossing tile edges is finished in the same launch by the tile where it
//                ends: every tile publishes the sum of the row left open at its end with a flag
//                carrying the call's epoch, and the ending tile waits for the flags of the tiles
//                the row began in and ran through (a look-back: they are lower tiles, started
//                earlier), clears them, and adds their sums in tile order (common/flags.cuh: no
//                fence that would invalidate L1; cleared flags keep a replayed graph right).
//  * `tile_rows` (oxs_spmv_tile_rows_*): the first row of every tile, built once by preprocess
//                so the tile kernel can skip its search.
//  * `scale`     (oxs_spmv_scale_*): y = beta * y when op(A) stores nothing.
//
// Summation order, fixed so results are bitwise reproducible: it depends only on the tile size
// (chosen from nnz) and the entries' positions: within a lane in entry order, across lanes by a
// segmented scan of fixed shape, across chunks in order; a crossing row's tile sums by a fixed
// butterfly. No atomics.
#include "common/spmv.cuh"
#include "common/flags.cuh"
#include "common/row_search.cuh"

#include <climits>
#include <type_traits>

using spmm::Rows;
using spmm::shfl;
using spmm::WARP;
using namespace spmv;

namespace {

constexpr int QUAD = SPMV_QUAD;       // consecutive entries per lane and chunk
constexpr int CHUNK = QUAD * WARP;    // entries per warp step
constexpr int WARPS = BLOCK / WARP;   // tiles per block
constexpr unsigned FULL = 0xffffffffu;
constexpr int OUTSIDE = INT_MAX;      // begin and end of a window row past m

__device__ __forceinline__ int lane_id() { return threadIdx.x % WARP; }

// ---- stage 1: a chunk's entries ----------------------------------------------------------------

template <typename C, typename I>
struct Chunk {
    I col[QUAD];
    C val[QUAD];
};

// Entries c + QUAD * lane + i (i < QUAD) of the tile starting at q0, those before len. Whole chunks
// of a matrix whose arrays allow it (`wide`: aligned, values not permuted) take one wide load per
// array; the rest entry by entry. Missing entries get column base - 1, which no product reads.
template <typename V, typename C, typename I>
__device__ __forceinline__ void load_chunk(const Rows<V, I>& a, bool wide, int64_t q0, int c, int len, Chunk<C, I>& ch) {
    const int q = c + QUAD * lane_id();
    if (wide && c + CHUNK <= len) {
        V val[QUAD];
        load_once_n<QUAD>(a.cols + q0 + q, ch.col);
        load_once_n<QUAD>(a.values + q0 + q, val);
#pragma unroll
        for (int i = 0; i < QUAD; ++i) ch.val[i] = a.conj ? ::conj(to_compute<C>(val[i])) : to_compute<C>(val[i]);
        return;
    }
#pragma unroll
    for (int i = 0; i < QUAD; ++i) {
        ch.col[i] = I(a.base - 1);
        ch.val[i] = zero<C>();
        if (q + i < len) {
            ch.col[i] = load_once(a.cols + q0 + q + i);
            ch.val[i] = a.template value<C>(q0 + q + i);
        }
    }
}

// ---- stage 2: the products ---------------------------------------------------------------------

// Columns in the index type's own width: one unsigned compare rejects those outside [0, k).
template <typename I>
struct Columns {
    using U = std::make_unsigned_t<I>;
    U base, k;
    __device__ Columns(int64_t base_, int64_t k_) : base(U(base_)), k(U(min(uint64_t(k_), uint64_t(U(~U(0)))))) {}
};

template <typename X, typename C, typename I>
__device__ __forceinline__ void products(const Chunk<C, I>& ch, const X* x, const Columns<I>& cols, C (&prod)[QUAD]) {
    using U = typename Columns<I>::U;
#pragma unroll
    for (int i = 0; i < QUAD; ++i) {
        const U c = U(ch.col[i]) - cols.base;
        prod[i] = c < cols.k ? ch.val[i] * to_compute<C>(load_x(x + c)) : zero<C>();
    }
}

// ---- stage 3: which entries end a row ----------------------------------------------------------

// 32 consecutive rows w .. w + 31 of op(A): lane l holds where row w + l begins and ends, as
// offsets from the tile's first entry clamped to [-1, len + 1] (OUTSIDE past m). Clamping keeps
// every comparison with a position of the tile exact. The next 32 rows' offsets are loaded one
// step ahead, so moving the window on (every chunk when rows are short) does not wait for memory.
struct Window {
    int64_t w;
    int begin, end;
    int next_begin, next_end;  // rows w + 32 ..
};

// Row r's begin and end relative to the tile.
template <typename V, typename I>
__device__ __forceinline__ int2 relative_row(const Rows<V, I>& a, int64_t m, int64_t r, int64_t q0, int len) {
    if (r >= m) return make_int2(OUTSIDE, OUTSIDE);
    const auto rel = [&](int64_t q) { return int(max(int64_t(-1), min(q - q0, int64_t(len) + 1))); };
    return make_int2(rel(a.begin(r)), rel(a.end(r)));
}

template <typename V, typename I>
__device__ __forceinline__ Window load_window(const Rows<V, I>& a, int64_t m, int64_t w, int64_t q0, int len) {
    const int2 now = relative_row(a, m, w + lane_id(), q0, len);
    const int2 next = relative_row(a, m, w + WARP + lane_id(), q0, len);
    return Window{w, now.x, now.y, next.x, next.y};
}

// Moves the window on by 32 rows: the loaded next rows become current, the ones after are loaded.
template <typename V, typename I>
__device__ __forceinline__ void advance(const Rows<V, I>& a, int64_t m, Window& win, int64_t q0, int len) {
    win.w += WARP;
    win.begin = win.next_begin;
    win.end = win.next_end;
    const int2 next = relative_row(a, m, win.w + WARP + lane_id(), q0, len);
    win.next_begin = next.x;
    win.next_end = next.y;
}

// The window the tile's walk starts from: its first row is the one before the first row starting
// at or after q0 (preprocess's table, or a search), which holds q0 or ends there.
template <typename V, typename I>
__device__ Window first_window(const SpmvRowsParams& p, const Rows<V, I>& a, int64_t t, int64_t q0, int len) {
    const SpmvTiles& tl = p.tiles;
    int64_t r = 0;
    if (t > 0) {
        const bool trusted = tl.tile_rows != 0 && *reinterpret_cast<const volatile uint64_t*>(tl.token_at) == tl.token;
        r = trusted ? reinterpret_cast<const int64_t*>(tl.tile_rows)[t] : row_search::warp_lower_bound(a, p.shape.m, q0);
    }
    return load_window(a, p.shape.m, max(r - 1, int64_t(0)), q0, len);
}

// Rows ending in (lo, c1] belong to the chunk [c, c1) (lo is c, or -1 for the matrix's first
// chunk, which also owns the empty rows before entry 0). A nonempty row is marked at its last
// entry in `ends` (the warp's CHUNK slots, cleared to -1 before); an empty one gets y = beta * y
// here. The window moves on while all its rows end by c1.
template <typename V, typename Y, typename C, typename I>
__device__ __forceinline__ void mark_row_ends(const Rows<V, I>& a, int64_t m, Window& win, int64_t q0, int len, int lo, int c, int c1,
                                              int64_t* ends, Y* y, C alpha, C beta) {
    while (true) {
        if (lo < win.end && win.end <= c1) {
            const int64_t r = win.w + lane_id();
            if (win.end > win.begin) ends[win.end - 1 - c] = r;
            else write_y(y, r, zero<C>(), alpha, beta);
        }
        if (__shfl_sync(FULL, win.end, WARP - 1) > c1) return;
        advance(a, m, win, q0, len);
    }
}

// ---- stage 4: the chunk's row sums -------------------------------------------------------------

// A row the tile closed that began in an earlier tile: its share in this tile, kept by one lane
// until the tile's end.
template <typename C>
struct Held {
    int lane;     // -1: none (the same in every lane)
    int64_t row;  // valid in `lane`
    C share;
};

// Adds the chunk's products row by row. Lane l's items close the rows marked in ends[QUAD * l ..];
// the first row a lane closes also takes what the lanes before it left open, found by a
// segmented scan over the warp that starts from `carry` (the sum of the row left open by earlier
// chunks). When `continued` and the tile has closed no row yet, its first closed row began in an
// earlier tile: it is held, not written. Returns the sum of the row left open, in every lane.
template <typename Y, typename C>
__device__ __forceinline__ C reduce_chunk(const C (&prod)[QUAD], const int64_t* ends, C carry, bool continued, Held<C>& held, Y* y, C alpha,
                                          C beta) {
    const int lane = lane_id();
    int64_t row[QUAD];
    C seg[QUAD];  // sum since the lane's start or its previous closed row
    C run = zero<C>();
    int first = QUAD;
#pragma unroll
    for (int i = 0; i < QUAD; ++i) {
        row[i] = ends[QUAD * lane + i];
        run = run + prod[i];
        seg[i] = run;
        if (row[i] >= 0) {
            run = zero<C>();
            if (first == QUAD) first = i;
        }
    }
    // Inclusive segmented scan of (run, closes): afterwards v is the sum of the row open after lane l.
    const bool closes = first < QUAD;
    C v = (lane == 0 && !closes) ? carry + run : run;
    bool f = closes;
#pragma unroll
    for (int d = 1; d < WARP; d *= 2) {
        const C vu = shfl(FULL, v, max(lane - d, 0), WARP);
        const bool fu = __shfl_sync(FULL, int(f), max(lane - d, 0)) != 0;
        if (lane >= d) {
            if (!f) v = vu + v;
            f = f || fu;
        }
    }
    const C left = shfl(FULL, v, max(lane - 1, 0), WARP);  // every lane takes part in a full-mask shuffle
    const C before = lane == 0 ? carry : left;
    const unsigned closing = __ballot_sync(FULL, closes);
    const int hold_lane = (continued && held.lane < 0 && closing) ? __ffs(closing) - 1 : -1;
#pragma unroll
    for (int i = 0; i < QUAD; ++i) {
        if (row[i] < 0) continue;
        const C sum = i == first ? before + seg[i] : seg[i];
        if (i == first && lane == hold_lane) {
            held.row = row[i];
            held.share = sum;
        } else {
            write_y(y, row[i], sum, alpha, beta);
        }
    }
    if (hold_lane >= 0) held.lane = hold_lane;
    return shfl(FULL, v, WARP - 1, WARP);
}

// ---- stage 5: rows crossing tile edges ---------------------------------------------------------

__device__ __forceinline__ uint64_t* ready_flag(const SpmvTiles& tl, int64_t t) { return reinterpret_cast<uint64_t*>(tl.ready) + t; }

// The first window row ending after the tile, if it holds entries of the tile, is open: its sum in
// the tile goes to partials[t]. Every tile then raises its flag (the call's epoch), so a tile
// that waits on it never waits for nothing.
template <typename C>
__device__ __forceinline__ void publish(const SpmvTiles& tl, const Window& win, int64_t t, int len, C carry) {
    const unsigned open = __ballot_sync(FULL, win.end > len && win.end != OUTSIDE);
    const int owner = open ? __ffs(open) - 1 : 0;
    if (lane_id() != owner) return;
    if (open && win.begin < len) reinterpret_cast<C*>(tl.partials)[t] = carry;
    flags::raise(ready_flag(tl, t), tl.epoch);  // after the partial, by the same thread
}

// The held row began in tile t0 = begin / size and ran through the tiles up to this one: wait for
// their flags (lower tiles, which started earlier, never wait on this one), add their partials
// (lane l takes every 32nd, in order; a butterfly combines the lanes) and this tile's share.
template <typename V, typename Y, typename C, typename I>
__device__ void finish_held_row(const SpmvRowsParams& p, const Rows<V, I>& a, int64_t t, const Held<C>& held) {
    const SpmvTiles& tl = p.tiles;
    const int lane = lane_id();
    const int64_t row = __shfl_sync(FULL, held.row, held.lane);
    const int64_t t0 = a.begin(row) / tl.size;
    C sum = zero<C>();
    for (int64_t u = t0 + lane; u < t; u += WARP) {
        flags::consume(ready_flag(tl, u), tl.epoch);
        sum = sum + __ldcg(reinterpret_cast<const C*>(tl.partials) + u);
    }
    for (int d = 1; d < WARP; d *= 2) sum = sum + shfl(FULL, sum, lane ^ d, WARP);
    if (lane == held.lane)
        write_y(reinterpret_cast<Y*>(p.shape.y), row, sum + held.share, load_scalar<C>(p.shape.alpha), load_scalar<C>(p.shape.beta));
}

// ---- the tile kernel ---------------------------------------------------------------------------

template <typename V, typename X, typename Y, typename C, typename I>
__device__ void tiles(const SpmvRowsParams& p) {
    __shared__ int64_t ends_of[WARPS][CHUNK];
    const int64_t t = int64_t(blockIdx.x) * WARPS + threadIdx.x / WARP;
    if (t >= p.tiles.count) return;  // whole warps
    int64_t* ends = ends_of[threadIdx.x / WARP];
    const Rows<V, I> a(p.a, 0);
    const int64_t m = p.shape.m, q0 = t * p.tiles.size;
    const int len = int(min(p.tiles.size, p.tiles.nnz - q0));
    const bool wide = p.tiles.wide != 0;
    Chunk<C, I> next;
    load_chunk(a, wide, q0, 0, len, next);  // in flight while the tile finds its rows
    Window win = first_window(p, a, t, q0, len);
    const bool continued = __ballot_sync(FULL, win.begin < 0 && win.end > 0) != 0;
    const X* x = reinterpret_cast<const X*>(p.shape.x);
    Y* y = reinterpret_cast<Y*>(p.shape.y);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const Columns<I> cols(a.base, p.shape.k);
    C carry = zero<C>();
    Held<C> held{-1, 0, zero<C>()};
    for (int c = 0; c < len; c += CHUNK) {
        const int c1 = min(c + CHUNK, len);
        C prod[QUAD];
        products(next, x, cols, prod);
        if (c1 < len) load_chunk(a, wide, q0, c1, len, next);  // in flight while this chunk is reduced
#pragma unroll
        for (int i = 0; i < QUAD; ++i) ends[QUAD * lane_id() + i] = -1;
        __syncwarp();
        mark_row_ends(a, m, win, q0, len, (t == 0 && c == 0) ? -1 : c, c, c1, ends, y, alpha, beta);
        __syncwarp();
        carry = reduce_chunk(prod, ends, carry, continued, held, y, alpha, beta);
    }
    if (p.tiles.count == 1) return;  // nothing crosses
    publish(p.tiles, win, t, len, carry);
    if (held.lane >= 0) finish_held_row<V, Y, C, I>(p, a, t, held);
}

// Thread per tile: table[t] = first row starting at or after entry t * size (a binary search of
// the offsets). `oxs_spmv_stamp`, launched after, stamps the token that makes the table trusted.
template <typename I>
__device__ void tile_rows(const SpmvRowsParams& p) {
    const Rows<float, I> a(p.a, 0);
    int64_t* table = reinterpret_cast<int64_t*>(p.tiles.tile_rows);
    for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < p.tiles.count; t += int64_t(gridDim.x) * blockDim.x) {
        table[t] = row_search::lower_bound(a, p.shape.m, t * p.tiles.size);
    }
}

template <typename Y, typename C>
__device__ void scale(const SpmvShape& s) {
    Y* y = reinterpret_cast<Y*>(s.y);
    const C alpha = zero<C>(), beta = load_scalar<C>(s.beta);
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < s.m; r += int64_t(gridDim.x) * blockDim.x)
        write_y(y, r, zero<C>(), alpha, beta);
}

}  // namespace

#define OXS_SPMV_ROWS(name, V, X, Y, C, I, index)                                                                     \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_tiles_##name##_##index(const SpmvRowsParams p) { \
        tiles<V, X, Y, C, I>(p);                                                                                      \
    }
#define OXS_SPMV_ROWS_BOTH(name, V, X, Y, C) OXS_SPMV_ROWS(name, V, X, Y, C, int32_t, i32) OXS_SPMV_ROWS(name, V, X, Y, C, int64_t, i64)
OXS_SPMV_TYPES(OXS_SPMV_ROWS_BOTH)

extern "C" __global__ void oxs_spmv_tile_rows_i32(const SpmvRowsParams p) { tile_rows<int32_t>(p); }
extern "C" __global__ void oxs_spmv_tile_rows_i64(const SpmvRowsParams p) { tile_rows<int64_t>(p); }

// Stamps the token after the table (a separate launch, so every block of tile_rows is done).
extern "C" __global__ void oxs_spmv_stamp(const SpmvRowsParams p) {
    *reinterpret_cast<uint64_t*>(p.tiles.token_at) = p.tiles.token;
}

#define OXS_SPMV_SCALE(name, V, X, Y, C) \
    extern "C" __global__ void oxs_spmv_scale_##name(const SpmvShape s) { scale<Y, C>(s); }
OXS_SPMV_TYPES(OXS_SPMV_SCALE)
