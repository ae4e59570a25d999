// SpMV over op(A) given as rows: y = alpha * op(A) * x + beta * y.
//
// Kernels (parameter blocks in src/kernels/params/spmv.rs):
//  * `tiles`     (oxs_spmv_tiles_*): one block per tile of TILE consecutive entries, whatever the
//                row lengths. Stages: find the tile's rows, load the products a_q * x[col_q] into
//                shared memory (coalesced, ITEMS loads in flight per thread), reduce each row's
//                segment with a group of lanes sized to the tile's mean row length, write y.
//                A row crossing a tile edge leaves a partial sum (head/tail) instead.
//  * `fixup`     (oxs_spmv_fixup_*): one warp per tile that owns a crossing row adds the partials
//                in a fixed order and writes y.
//  * `tile_rows` (oxs_spmv_tile_rows_*): the first row of every tile, built once by preprocess
//                so the tile kernel can skip its search.
//  * `scale`     (oxs_spmv_scale_*): y = beta * y when op(A) stores nothing.
//
// Summation order, fixed so results are bitwise reproducible: within a tile a row's products are
// split over G lanes (lane l takes every G-th product) and combined by a butterfly; G depends only
// on the tile's shape. A crossing row's partials are added in a fixed order. No atomics.
#include "common/spmv.cuh"
#include "common/row_search.cuh"

using spmm::group_mask;
using spmm::Rows;
using spmm::shfl;
using spmm::WARP;
using namespace spmv;

namespace {

// ---- stage 1: the tile's entries, loaded before anything else ----------------------------------

// Column indices (raw, as stored) and values of the thread's ITEMS entries: their loads are issued
// first so that they are in flight while the block finds its rows.
template <typename V, typename C, typename I>
struct Entries {
    I col[ITEMS];
    C val[ITEMS];
};

template <typename V, typename C, typename I>
__device__ __forceinline__ void load_entries(const Rows<V, I>& a, int64_t q0, int64_t q1, Entries<V, C, I>& e) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int64_t q = q0 + i * BLOCK + threadIdx.x;
        e.col[i] = I(a.base - 1);  // maps to column -1: no product
        e.val[i] = zero<C>();
        if (q < q1) {
            e.col[i] = a.cols[q];
            e.val[i] = a.template value<C>(q);
        }
    }
}

// ---- stage 2: the tile's rows ------------------------------------------------------------------

// Whether preprocess left a row table for this call. The token guards against a buffer that was
// freed and reallocated, or overwritten, since preprocess.
__device__ __forceinline__ bool table_trusted(const SpmvTiles& t) {
    return t.tile_rows != 0 && *reinterpret_cast<const volatile uint64_t*>(t.token_at) == t.token;
}

struct TileRows {
    int64_t lo, end;  // rows [lo, end) have entries in the tile or start in it
};

// Tile t covers entries [q0, q1). Its rows are those starting in [q0, q1) (the last tile also takes
// the empty rows after the last entry), plus the row that holds entry q0 if it started before.
template <typename V, typename I>
__device__ TileRows find_rows(const SpmvRowsParams& p, const Rows<V, I>& a, int64_t t, int64_t q0, int64_t q1) {
    const int64_t m = p.shape.m;
    const bool last = t + 1 == p.tiles.count;
    int64_t first, end;
    if (p.tiles.count == 1) {
        first = 0;
        end = m;
    } else if (table_trusted(p.tiles)) {
        const int64_t* table = reinterpret_cast<const int64_t*>(p.tiles.tile_rows);
        first = table[t];
        end = last ? m : table[t + 1];
    } else {
        int64_t next;
        row_search::block_lower_bounds<BLOCK>(a, m, q0, q1, first, next);
        end = last ? m : next;
    }
    // Row first - 1 holds q0 when the row found starts after q0.
    const bool continued = first > 0 && a.begin(first) > q0;
    return TileRows{continued ? first - 1 : first, end};
}

// ---- stage 3: the products of the tile, into shared memory -------------------------------------

template <typename V, typename X, typename C, typename I>
__device__ __forceinline__ void store_products(const Rows<V, I>& a, const X* x, int64_t k, const Entries<V, C, I>& e, C* prod) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int64_t c = int64_t(e.col[i]) - a.base;
        C v = zero<C>();
        if (c >= 0 && c < k) v = e.val[i] * to_compute<C>(load_x(x + c));
        prod[i * BLOCK + threadIdx.x] = v;
    }
}

// ---- stage 4: one row segment per group of lanes -----------------------------------------------

// Lanes per row: about half the tile's mean row length, a power of two from 1 to 32.
__device__ __forceinline__ int lanes_per_row(int64_t entries, int64_t rows) {
    const int64_t mean = entries / max(rows, int64_t(1));
    int g = 1;
    while (g < WARP && 2 * g <= mean / 2) g *= 2;
    return g;
}

template <typename V, typename Y, typename C, typename I>
__device__ void reduce_rows(const SpmvRowsParams& p, const Rows<V, I>& a, int64_t t, int64_t q0, int64_t q1, TileRows rows,
                            const C* prod) {
    const int g = lanes_per_row(q1 - q0, rows.end - rows.lo);
    const unsigned mask = group_mask(g);
    const int li = threadIdx.x % g;
    const int groups = BLOCK / g;
    Y* y = reinterpret_cast<Y*>(p.shape.y);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    for (int64_t r = rows.lo + threadIdx.x / g; r < rows.end; r += groups) {
        const int64_t rb = a.begin(r), re = a.end(r);
        const int64_t s = max(rb, q0), e = min(re, q1);
        C sum = zero<C>();
        for (int64_t q = s + li; q < e; q += g) sum = sum + prod[q - q0];
        for (int d = 1; d < g; d *= 2) sum = sum + shfl(mask, sum, li ^ d, g);
        if (li != 0) continue;
        if (rb >= q0 && re <= q1) {
            write_y(y, r, sum, alpha, beta);
        } else if (rb < q0) {
            reinterpret_cast<C*>(p.tiles.head)[t] = sum;  // continued from an earlier tile
        } else {
            reinterpret_cast<C*>(p.tiles.tail)[t] = sum;  // continues into later tiles
            reinterpret_cast<int64_t*>(p.tiles.tail_row)[t] = r;
        }
    }
}

template <typename V, typename X, typename Y, typename C, typename I>
__device__ void tiles(const SpmvRowsParams& p) {
    __shared__ C prod[TILE];
    const Rows<V, I> a(p.a, 0);
    const int64_t t = blockIdx.x;
    const int64_t q0 = t * TILE, q1 = min(q0 + TILE, p.tiles.nnz);
    Entries<V, C, I> e;
    load_entries(a, q0, q1, e);
    const TileRows rows = find_rows(p, a, t, q0, q1);
    if (threadIdx.x == 0 && p.tiles.tail_row != 0) reinterpret_cast<int64_t*>(p.tiles.tail_row)[t] = -1;
    store_products(a, reinterpret_cast<const X*>(p.shape.x), p.shape.k, e, prod);
    __syncthreads();  // also orders the -1 above before any tail_row write of this block
    reduce_rows<V, Y, C, I>(p, a, t, q0, q1, rows, prod);
}

// One warp per tile: the row that starts in tile t and ends in tile u > t is the sum of tail[t] and
// head[t + 1 .. u]. Lane l adds every 32nd of them in order; a butterfly combines the lanes.
template <typename V, typename Y, typename C, typename I>
__device__ void fixup(const SpmvRowsParams& p) {
    const int64_t t = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / WARP;
    if (t >= p.tiles.count) return;
    const int64_t r = reinterpret_cast<const int64_t*>(p.tiles.tail_row)[t];
    if (r < 0) return;  // the same for the whole warp
    const Rows<V, I> a(p.a, 0);
    const int64_t last = (a.end(r) - 1) / TILE;
    const C* head = reinterpret_cast<const C*>(p.tiles.head);
    const int lane = threadIdx.x % WARP;
    C sum = lane == 0 ? reinterpret_cast<const C*>(p.tiles.tail)[t] : zero<C>();
    for (int64_t u = t + 1 + lane; u <= last; u += WARP) sum = sum + head[u];
    for (int d = 1; d < WARP; d *= 2) sum = sum + shfl(0xffffffffu, sum, lane ^ d, WARP);
    if (lane == 0) {
        const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
        write_y(reinterpret_cast<Y*>(p.shape.y), r, sum, alpha, beta);
    }
}

// Thread per tile: table[t] = first row starting at or after entry t * TILE (a binary search of
// the offsets). Thread 0 then stamps the token that makes the table trusted.
template <typename I>
__device__ void tile_rows(const SpmvRowsParams& p) {
    const Rows<float, I> a(p.a, 0);
    int64_t* table = reinterpret_cast<int64_t*>(p.tiles.tile_rows);
    for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < p.tiles.count; t += int64_t(gridDim.x) * blockDim.x) {
        const int64_t target = t * TILE;
        int64_t lo = 0, hi = p.shape.m;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (a.begin(mid) < target) lo = mid + 1; else hi = mid;
        }
        table[t] = lo;
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
    }                                                                                                                 \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_fixup_##name##_##index(const SpmvRowsParams p) { \
        fixup<V, Y, C, I>(p);                                                                                         \
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
