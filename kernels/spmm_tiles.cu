// SpMM by tiles of entries: C = alpha * op(A) * op(B) + beta * C, with op(A) given as rows and
// op(B) and C row-major with 16-byte aligned rows (the plan stages other layouts; see
// src/ops/spmm/plan.rs).
//
// Kernels (parameter blocks in src/kernels/params/spmm.rs):
//  * `tiles` (oxs_spmm_tiles_*): block (t, y, batch) multiplies the entries of tile t, that is
//    entries [t * size, (t + 1) * size) whatever rows they belong to, by column slices
//    [y * slices_per_block, ...) of op(B), one after another (SLICE columns: a group of G lanes
//    reads a B row's slice as one 16-byte vector per lane). Several slices per block spread the
//    cost of stages 1-2 when there are blocks enough.
//    Stages, each a function below:
//      1. load the tile's entries (coalesced) and find its rows (from preprocess's table when it
//         is trusted, else by a block-wide search of the offsets);
//      2. stage columns, values and each entry's row in shared memory;
//      3. walk (per slice): each group multiplies its run of entries, DEPTH B rows in flight
//         per lane, and writes the rows that start and end inside its run;
//      4. combine (per slice): rows split between groups are added in group order. A row that
//         crosses tile edges is finished by the tile where it ends: its owner tile publishes a
//         tail partial, the tiles it runs through publish head partials, each with a flag set to
//         this call's epoch, and the last tile waits for those flags (clearing them) and adds the partials in
//         tile order (a single pass, as in a decoupled look-back scan: tiles wait only on lower
//         tiles, which started before them).
//
// Every block does the same work whatever the row lengths. With one slice per block, slices run
// in order (grid x is the tile): the B rows in use at a time are one slice of B.
// Summation order, fixed by the structure and the tile size only (so with or without preprocess):
// a row's products in stored order within a group, group pieces in group order, tile partials in
// tile order. No atomics on values; results are bitwise reproducible.
#include "common/spmm.cuh"
#include "common/row_search.cuh"
#include "common/flags.cuh"

using namespace spmm;

namespace {

constexpr int TB = SPMM_TILE_BLOCK;       // threads per block
constexpr int TILE_MAX = SPMM_TILE_MAX;   // largest tile (entries)
constexpr int SLICE = SPMM_TILE_SLICE;    // columns of C per block
constexpr int ITEMS = TILE_MAX / TB;      // entries each thread stages, at most
constexpr int DEPTH = 4;                  // B rows in flight per lane (8: 95 registers, no faster)
static_assert(TILE_MAX % TB == 0, "a tile is whole rounds of the block");

// A B row's slice is read by G lanes, VEC elements (16 bytes) each.
template <typename V>
struct Slice {
    static constexpr int VEC = 16 / sizeof(V);
    static constexpr int G = SLICE / VEC;
    static constexpr int GROUPS = TB / G;
    static_assert(G >= 1 && G <= WARP && WARP % G == 0, "a group divides a warp");
};

// Entry e of the tile lies at slot(e) of the per-entry arrays: one word of padding per 32 entries,
// so that the groups of a warp, which read the starts of different runs, hit different banks.
__device__ __forceinline__ int slot(int e) { return e + (e >> 5); }
constexpr int SLOTS = TILE_MAX + TILE_MAX / 32;

// An entry as the walk reads it, in one shared-memory load: its column (below bit 31; an entry
// whose column lies outside [0, k) becomes column 0 with value 0, so B is never read out of
// bounds) and, in bit 31, whether its row ends at this entry.
constexpr uint32_t ROW_ENDS = 0x80000000u;
template <typename C>
struct alignas(2 * sizeof(C)) Entry {
    uint32_t meta;
    C val;
};

template <typename V, typename C>
struct Shared {
    Entry<C> ent[SLOTS];
    int row[SLOTS];  // the entry's row, relative to the tile's first row
    C head[Slice<V>::GROUPS][SLICE];  // per group: piece of a row that began before its run
    C tail[Slice<V>::GROUPS][SLICE];  // per group: piece of a row that goes on after its run
    int head_row[Slice<V>::GROUPS];   // -1 when the group has no such piece
    int tail_row[Slice<V>::GROUPS];
    C crossing[SLICE];  // this tile's share of the continued row, when the row ends here
};

// What a block of the tile kernel knows about its tile.
struct Tile {
    int64_t t, q0;   // tile number, first entry
    int count;       // entries in the tile
    int64_t lo;      // first row (the continued row when `continued`)
    int64_t end;     // rows [lo, end) are the tile's
    bool continued;  // row lo began in an earlier tile
    int64_t s0, s1;  // column slices [s0, s1) of this block
};

// ---- stage 1: the tile's entries and rows ------------------------------------------------------

template <typename V, typename C, typename I>
__device__ __forceinline__ void load_entries(const Rows<V, I>& a, int64_t q0, int count, I (&col)[ITEMS], C (&val)[ITEMS]) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int e = i * TB + threadIdx.x;
        col[i] = I(-1);
        val[i] = zero<C>();
        if (e < count) {
            col[i] = a.cols[q0 + e];
            val[i] = a.template value<C>(q0 + e);
        }
    }
}

// The tile's rows: those starting in [q0, q1) (the last tile also takes the empty rows after the
// last entry), plus the row holding entry q0 when it started before.
template <typename V, typename I>
__device__ void find_rows(const SpmmTiles& tl, const Rows<V, I>& a, int64_t m, Tile& tile) {
    const int64_t q1 = tile.q0 + tile.count;
    int64_t first, next;
    if (tl.count == 1) {
        first = 0;
        next = m;
    } else if (tl.rows != 0 && *reinterpret_cast<const volatile uint64_t*>(tl.token_at) == tl.token) {
        const int64_t* table = reinterpret_cast<const int64_t*>(tl.rows);  // preprocess's table
        first = table[tile.t];
        next = table[tile.t + 1];
    } else {
        row_search::block_lower_bounds<TB>(a, m, tile.q0, q1, first, next);
    }
    tile.end = tile.t + 1 == tl.count ? m : next;
    tile.continued = first > 0 && a.begin(first) > tile.q0;
    tile.lo = tile.continued ? first - 1 : first;
}

// ---- stage 2: shared memory --------------------------------------------------------------------

// Running maximum over the block's threads, in thread order, excluding the caller (values >= 0).
__device__ __forceinline__ int block_exclusive_max(int v) {
    __shared__ int warp_max[TB / WARP];
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    int inclusive = v;
    for (int o = 1; o < WARP; o <<= 1) {
        const int up = __shfl_up_sync(0xffffffffu, inclusive, o);
        if (lane >= o) inclusive = max(inclusive, up);
    }
    if (lane == WARP - 1) warp_max[warp] = inclusive;
    int exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane == 0) exclusive = 0;
    __syncthreads();
    for (int w = 0; w < warp; ++w) exclusive = max(exclusive, warp_max[w]);
    return exclusive;
}

// Entries into shared memory; each entry's row, by marking where the tile's rows start and
// carrying the mark forward; where rows end, in the entries' ROW_ENDS bit. Empty rows of the tile
// are written here (C = beta * C).
template <typename V, typename O, typename C, typename I>
__device__ void stage_shared(const Rows<V, I>& a, int64_t k, const Tile& tile, const I (&col)[ITEMS], const C (&val)[ITEMS],
                             Shared<V, C>& sm, const Dense<O>& c, int64_t n, C alpha, C beta, bool read_c) {
    using S = Slice<V>;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int e = i * TB + threadIdx.x;
        if (e < tile.count) {
            const int64_t cc = int64_t(col[i]) - a.base;
            const bool inside = cc >= 0 && cc < k;
            sm.ent[slot(e)] = Entry<C>{inside ? uint32_t(cc) : 0u, inside ? val[i] : zero<C>()};
            sm.row[slot(e)] = 0;
        }
    }
    __syncthreads();
    for (int64_t r = tile.lo + threadIdx.x; r < tile.end; r += TB) {
        const int64_t b = a.begin(r) - tile.q0, e = a.end(r) - tile.q0;
        if (b < e) {
            if (b >= 0) sm.row[slot(b)] = int(r - tile.lo);  // not the continued row
            if (e <= tile.count) sm.ent[slot(e - 1)].meta |= ROW_ENDS;
        } else {
            Acc<C, S::VEC> none;
            none.zero_all();
            for (int64_t j = tile.s0 * SLICE; j < min(n, tile.s1 * SLICE); j += S::VEC) write_c<O, C, S::VEC>(c, r, j, none, alpha, beta, read_c);
        }
    }
    __syncthreads();
    // Thread i carries the marks over entries [i * ITEMS, (i + 1) * ITEMS); rows only grow.
    int run = 0;
    int mine[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int e = threadIdx.x * ITEMS + i;
        run = max(run, e < tile.count ? sm.row[slot(e)] : 0);
        mine[i] = run;
    }
    const int before = block_exclusive_max(run);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int e = threadIdx.x * ITEMS + i;
        if (e < tile.count) sm.row[slot(e)] = max(before, mine[i]);
    }
    __syncthreads();
}

// ---- stage 3: the walk --------------------------------------------------------------------------

// A finished piece of row `r` (relative) from group g: written to C when the row lies wholly in
// the group's run, else kept in shared memory for stage 4.
template <typename V, typename O, typename C>
__device__ __forceinline__ void finish_piece(Shared<V, C>& sm, const Tile& tile, const Dense<O>& c, int64_t j, bool lane_on,
                                             int g, int r, bool began_before, bool goes_on, const Acc<C, Slice<V>::VEC>& acc,
                                             C alpha, C beta, bool read_c) {
    using S = Slice<V>;
    const int li = threadIdx.x % S::G;
    if (!began_before && !goes_on) {
        if (lane_on) write_c<O, C, S::VEC>(c, tile.lo + r, j, acc, alpha, beta, read_c);
        return;
    }
    C* dst = began_before ? sm.head[g] : sm.tail[g];
#pragma unroll
    for (int i = 0; i < S::VEC; ++i) dst[li * S::VEC + i] = acc.v[i];
    if (li == 0) (began_before ? sm.head_row : sm.tail_row)[g] = r;
}

// Group g multiplies entries [e0, e1) of the tile. Loads of DEPTH B rows are issued before any is
// used; an entry that ends its row finishes the piece. The hot loop is one shared load, one
// address and one B load per entry, then VEC multiply-adds and a test of ROW_ENDS.
template <typename V, typename O, typename C>
__device__ void walk(Shared<V, C>& sm, const Tile& tile, int64_t slice, int size, const Dense<const V>& b, int ldb_bytes,
                     const Dense<O>& c, int64_t n, C alpha, C beta, bool read_c) {
    using S = Slice<V>;
    const int g = threadIdx.x / S::G, li = threadIdx.x % S::G;
    const int64_t j = slice * SLICE + li * S::VEC;
    const bool lane_on = j < n;
    const char* bj = reinterpret_cast<const char*>(b.values + j);  // row-major op(B): column stride 1
    const int per_group = size / S::GROUPS;  // a multiple of DEPTH, so a batch never crosses 32 entries
    const int e0 = g * per_group, e1 = min(e0 + per_group, tile.count);
    if (e0 >= e1) return;
    Acc<C, S::VEC> acc;
    acc.zero_all();
    bool began_before = e0 > 0 ? (sm.ent[slot(e0 - 1)].meta & ROW_ENDS) == 0 : tile.continued;
    bool open = false;  // acc holds products of a row not finished yet
    for (int eb = e0; eb < e1; eb += DEPTH) {
        const int s0 = slot(eb);
        Entry<C> en[DEPTH];
        Vec<V, S::VEC> bv[DEPTH];
#pragma unroll
        for (int u = 0; u < DEPTH; ++u) {
            const bool in_run = eb + u < e1;
            en[u] = in_run ? sm.ent[s0 + u] : Entry<C>{0u, zero<C>()};
            const int col = int(en[u].meta & ~ROW_ENDS);
            if (in_run && lane_on) bv[u] = load_vec<V, S::VEC>(reinterpret_cast<const V*>(bj + mul_wide(col, ldb_bytes)));
        }
#pragma unroll
        for (int u = 0; u < DEPTH; ++u) {
            if (eb + u >= e1) break;
#pragma unroll
            for (int i = 0; i < S::VEC; ++i) acc.v[i] = acc.v[i] + en[u].val * to_compute<C>(bv[u].v[i]);
            open = true;
            if (en[u].meta & ROW_ENDS) {
                finish_piece<V, O, C>(sm, tile, c, j, lane_on, g, sm.row[s0 + u], began_before, false, acc, alpha, beta, read_c);
                acc.zero_all();
                began_before = false;
                open = false;
            }
        }
    }
    // The run ends inside a row: it goes on in the next group or tile.
    if (open) finish_piece<V, O, C>(sm, tile, c, j, lane_on, g, sm.row[slot(e1 - 1)], began_before, true, acc, alpha, beta, read_c);
}

// ---- stage 4: rows split between groups or tiles -----------------------------------------------

// Adds the head pieces of row r from group `from` on (they are consecutive groups).
template <typename V, typename C>
__device__ __forceinline__ int add_heads(const Shared<V, C>& sm, int r, int from, Acc<C, Slice<V>::VEC>& sum) {
    using S = Slice<V>;
    const int li = threadIdx.x % S::G;
    int g = from;
    for (; g < S::GROUPS && sm.head_row[g] == r; ++g)
#pragma unroll
        for (int i = 0; i < S::VEC; ++i) sum.v[i] = sum.v[i] + sm.head[g][li * S::VEC + i];
    return g;
}

// Where tile u's flag for `slice` lies: it holds the epoch of the call once u's partials are out.
__device__ __forceinline__ uint64_t* ready_flag(const SpmmTiles& tl, int64_t u, int64_t slice, int64_t slices) {
    return reinterpret_cast<uint64_t*>(tl.ready) + (int64_t(blockIdx.z) * tl.count + u) * slices + slice;
}

// The row continued from earlier tiles ends in this tile: wait until its owner tile t0 and the tiles
// between have published their partials (lower tiles never wait on higher ones, and blocks start
// in order, so they make progress), then add tail[t0], head[t0 + 1 .. t - 1] and this tile's
// share `crossing`, in that order, and write C. The whole block takes part: a hub row crosses
// dozens of tiles (vsp_model1's 17663 entries, 69 tiles of 256), and one flag poll and one load
// after another made as many L2 round trips (its FP32 N = 32 call took 44-50 us). So the threads
// poll the flags side by side, and each of the block's GROUPS groups of G lanes loads a partial
// per round trip into its `head` row of shared memory (free between this slice's combine and the
// next one's walk), from which group 0 adds them, still in tile order (bitwise as it did alone).
template <typename V, typename O, typename C, typename I>
__device__ void finish_crossing_row(const SpmmTiles& tl, const Rows<V, I>& a, Shared<V, C>& sm, const Tile& tile,
                                    int64_t slice, int64_t slices, const Dense<O>& c, int64_t n, C alpha, C beta, bool read_c) {
    using S = Slice<V>;
    const int g = threadIdx.x / S::G, li = threadIdx.x % S::G;
    const int64_t j = slice * SLICE + li * S::VEC;
    const bool lane_on = j < n;
    const int64_t t0 = a.begin(tile.lo) / tl.size;
    for (int64_t u = t0 + threadIdx.x; u < tile.t; u += TB) flags::consume(ready_flag(tl, u, slice, slices), tl.epoch);
    __syncthreads();
    const int64_t base = int64_t(blockIdx.z) * tl.count;
    const C* tail = reinterpret_cast<const C*>(tl.tail) + (base + t0) * n + j;
    const C* head = reinterpret_cast<const C*>(tl.head) + j;
    Acc<C, S::VEC> sum;
#pragma unroll
    for (int i = 0; i < S::VEC; ++i) sum.v[i] = g == 0 && lane_on ? __ldcg(tail + i) : zero<C>();
    for (int64_t u0 = t0 + 1; u0 < tile.t; u0 += S::GROUPS) {
        const int64_t u = u0 + g;  // this group's partial
        if (u < tile.t && lane_on)
#pragma unroll
            for (int i = 0; i < S::VEC; ++i) sm.head[g][li * S::VEC + i] = __ldcg(head + (base + u) * n + i);
        __syncthreads();
        if (g == 0)
            for (int s = 0; s < S::GROUPS && u0 + s < tile.t; ++s)
#pragma unroll
                for (int i = 0; i < S::VEC; ++i) sum.v[i] = sum.v[i] + sm.head[s][li * S::VEC + i];
        __syncthreads();
    }
    if (g != 0 || !lane_on) return;
#pragma unroll
    for (int i = 0; i < S::VEC; ++i) sum.v[i] = sum.v[i] + sm.crossing[li * S::VEC + i];
    write_c<O, C, S::VEC>(c, tile.lo, j, sum, alpha, beta, read_c);
}

// Whether the row continued from an earlier tile ends in this one (rather than running through it).
template <typename V, typename C>
__device__ __forceinline__ bool crossing_row_ends_here(const Shared<V, C>& sm, const Tile& tile) {
    return tile.continued && !(sm.row[slot(tile.count - 1)] == 0 && (sm.ent[slot(tile.count - 1)].meta & ROW_ENDS) == 0);
}

template <typename V, typename O, typename C>
__device__ void combine(const SpmmTiles& tl, Shared<V, C>& sm, const Tile& tile, int64_t slice, const Dense<O>& c, int64_t n,
                        C alpha, C beta, bool read_c) {
    using S = Slice<V>;
    const int g = threadIdx.x / S::G, li = threadIdx.x % S::G;
    const int64_t j = slice * SLICE + li * S::VEC;
    const bool lane_on = j < n;
    const int64_t part = int64_t(blockIdx.z) * tl.count + tile.t;  // this tile's partials
    C* head = reinterpret_cast<C*>(tl.head) + part * n;
    C* tail = reinterpret_cast<C*>(tl.tail) + part * n;
    const int last = sm.row[slot(tile.count - 1)];
    const bool last_row_continues = (sm.ent[slot(tile.count - 1)].meta & ROW_ENDS) == 0;
    // The row continued from an earlier tile: this tile's share is published in head[t] when the
    // row runs through the whole tile, else kept for finish_crossing_row.
    if (g == 0 && tile.continued) {
        Acc<C, S::VEC> sum;
        sum.zero_all();
        add_heads<V, C>(sm, 0, 0, sum);
        C* dst = last == 0 && last_row_continues ? (lane_on ? head + j : nullptr) : sm.crossing + li * S::VEC;
        if (dst)
#pragma unroll
            for (int i = 0; i < S::VEC; ++i) dst[i] = sum.v[i];
    }
    // A row that starts in group g and goes on: its pieces from the later groups, in order.
    const int r = sm.tail_row[g];
    if (r < 0) return;
    Acc<C, S::VEC> sum;
#pragma unroll
    for (int i = 0; i < S::VEC; ++i) sum.v[i] = sm.tail[g][li * S::VEC + i];
    add_heads<V, C>(sm, r, g + 1, sum);
    if (r == last && last_row_continues) {
        if (lane_on)
#pragma unroll
            for (int i = 0; i < S::VEC; ++i) tail[j + i] = sum.v[i];
    } else if (lane_on) {
        write_c<O, C, S::VEC>(c, tile.lo + r, j, sum, alpha, beta, read_c);
    }
}

// ---- the kernels --------------------------------------------------------------------------------

template <typename V, typename O, typename C, typename I>
__device__ void tiles(const SpmmTilesParams& p) {
    wait_for_previous_kernel();  // op(B) may still be being staged (src/ops/spmm/mod.rs, pdl.cuh)
    // In a tensor-op math mode the build chose tensor cores for this matrix (src/kernels/spmm_tc.rs).
    if (p.tiles.skip_if_set && *reinterpret_cast<const uint32_t*>(p.tiles.skip_if_set) != 0) return;
    if (!chosen(p.tiles.choice)) return;  // a plain call's verdict sent the call to short rows
    __shared__ Shared<V, C> sm;
    const int64_t batch = blockIdx.z;
    const Rows<V, I> a(p.a, batch);
    const Dense<const V> b(p.b, batch);
    const Dense<O> c(p.c, batch);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const int size = int(p.tiles.size);
    Tile tile;
    tile.t = blockIdx.x;
    tile.s0 = int64_t(blockIdx.y) * p.tiles.slices_per_block;
    tile.s1 = min(tile.s0 + p.tiles.slices_per_block, (p.shape.n + SLICE - 1) / SLICE);
    tile.q0 = tile.t * size;
    tile.count = int(min(int64_t(size), p.tiles.nnz - tile.q0));
    I col[ITEMS];
    C val[ITEMS];
    load_entries(a, tile.q0, tile.count, col, val);
    find_rows(p.tiles, a, p.shape.m, tile);
    stage_shared<V, O, C, I>(a, p.shape.k, tile, col, val, sm, c, p.shape.n, alpha, beta, read_c);
    // The staged tile serves every slice of the block, one after another.
    const int ldb_bytes = int(p.b.row_stride * int64_t(sizeof(V)));
    const int64_t slices = (p.shape.n + SLICE - 1) / SLICE;
    for (int64_t slice = tile.s0; slice < tile.s1; ++slice) {
        if (threadIdx.x < Slice<V>::GROUPS) sm.head_row[threadIdx.x] = sm.tail_row[threadIdx.x] = -1;
        __syncthreads();
        walk<V, O, C>(sm, tile, slice, size, b, ldb_bytes, c, p.shape.n, alpha, beta, read_c);
        __syncthreads();
        combine<V, O, C>(p.tiles, sm, tile, slice, c, p.shape.n, alpha, beta, read_c);
        // Publish: every thread's partials are visible before the flag says so (a release fence,
        // not __threadfence, which would invalidate L1: common/flags.cuh). The barrier also keeps
        // the next slice from resetting pieces that stage 4 still reads.
        flags::release_fence();
        __syncthreads();
        if (threadIdx.x == 0 && p.tiles.count > 1) flags::raise(ready_flag(p.tiles, tile.t, slice, slices), p.tiles.epoch);
        if (crossing_row_ends_here(sm, tile))  // the same for the whole block
            finish_crossing_row<V, O, C, I>(p.tiles, a, sm, tile, slice, slices, c, p.shape.n, alpha, beta, read_c);
    }
}

// Preprocess: thread per t in [0, count]: rows[t] = first row starting at or after entry t * size.
template <typename I>
__device__ void tile_rows(const SpmmTilesParams& p) {
    const Rows<float, I> a(p.a, 0);
    int64_t* table = reinterpret_cast<int64_t*>(p.tiles.rows);
    for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t <= p.tiles.count; t += int64_t(gridDim.x) * blockDim.x) {
        table[t] = row_search::lower_bound(a, p.shape.m, t * p.tiles.size);
    }
}

}  // namespace

extern "C" __global__ void oxs_spmm_tile_rows_i32(const SpmmTilesParams p) { tile_rows<int32_t>(p); }
extern "C" __global__ void oxs_spmm_tile_rows_i64(const SpmmTilesParams p) { tile_rows<int64_t>(p); }

// Stamps the token after the table (a separate launch, so that every block of tile_rows is done).
extern "C" __global__ void oxs_spmm_tile_rows_stamp(const SpmmTilesParams p) {
    *reinterpret_cast<uint64_t*>(p.tiles.token_at) = p.tiles.token;
}

// ---- instantiations ------------------------------------------------------------------------------

// The third argument is the blocks per multiprocessor the registers must allow: 8 (64 registers,
// a few spilled on the rare paths) keeps 32 warps resident where that costs little.
#define OXS_TILES_INDEX(sfx, V, O, C, I, idx, blocks)                                                  \
    extern "C" __global__ void __launch_bounds__(TB, blocks) oxs_spmm_tiles_##sfx##_##idx(const SpmmTilesParams p) { \
        tiles<V, O, C, I>(p);                                                                          \
    }

#define OXS_TILES(sfx, V, O, C, blocks) \
    OXS_TILES_INDEX(sfx, V, O, C, int32_t, i32, blocks) OXS_TILES_INDEX(sfx, V, O, C, int64_t, i64, blocks)

// The vectorised type combinations, as in kernels/spmm.cu.
OXS_TILES(f32_f32_f32, float, float, float, 8)
OXS_TILES(f64_f64_f64, double, double, double, 8)
OXS_TILES(f16_f16_f32, __half, __half, float, 8)
OXS_TILES(f16_f32_f32, __half, float, float, 6)
OXS_TILES(bf16_bf16_f32, __nv_bfloat16, __nv_bfloat16, float, 6)
OXS_TILES(bf16_f32_f32, __nv_bfloat16, float, float, 4)
