// Index helpers: COO row indices <-> CSR row offsets (cuSPARSE's Xcoo2csr / Xcsr2coo) and the
// identity permutation. 32-bit indices; `base` is in every index read and written.
//
// Both conversions stream their input once, with at most one warp search per long range of it
// (the old merge-path kernels searched for every 2048-step piece and waited on that latency):
//
// coo2csr: offset r is the number of entries whose row is below r, so between entries i and i + 1
// (a "boundary", i in -1..nnz-1, with row(-1) = -1 and row(nnz) = m) the offsets of the rows in
// (row(i), row(i + 1)] are all i + 1. Two forms (the launcher chooses by size): the tile form
// (below, with its own comment) on large matrices of short rows, and the thread form: a thread
// takes 8 consecutive entries (two 16-byte loads, a scalar head and tail where the array is not
// 16-byte aligned) and writes the runs of its 8 boundaries. A run of empty rows may be long, so
// the offsets are cut into chunks of CHUNK: a chunk lying wholly inside one run is written by a
// warp of its own (one warp search for the entries below the chunk), and a boundary's thread
// writes only the parts of its run outside such chunks, at most 2 * CHUNK - 2 offsets.
//
// csr2coo, two forms (the launcher chooses by size):
// - streaming: a warp takes a contiguous range of whole TILEs of entries (tiles aligned so that
//   its stores are 16-byte), finds the row of its first entry by one warp search of the offsets,
//   then walks with a window of 32 row ends in shared memory (one coalesced load, kept while it
//   covers the entries: long rows load one for many tiles, a tile crossing many short rows loads
//   several): each lane finds the rows of its 8 entries in the window, and the tile goes out in
//   16-byte stores. Any size, but each warp waits on a few dependent loads in turn.
// - probe: a block takes PROBE_TILE entries in two reads: the offsets of every ROWS-th row (all
//   of them, at most COARSE + 1), which name the blocks of ROWS rows the tile crosses, then those
//   rows' offsets (at most SPAN blocks of rows); each thread finds its entries' rows in shared
//   memory and writes them 16 bytes at a time. A tile crossing more than SPAN blocks of rows
//   (mostly empty rows) searches each block of rows in memory instead. Balanced whatever the
//   rows, two round trips before the stores: for up to COARSE * ROWS rows.
//
// For sorted input every offset or index is written once, by one thread: no atomics, no scratch,
// the same result on every run. Unsorted or out-of-range input gives unspecified values (as
// cuSPARSE), but every read and write stays inside the arrays: rows are clamped to -1..m before
// they choose what to write, csr2coo writes only its own tiles' entries, and its window reads
// only offsets up to m.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include <stdint.h>

namespace {

constexpr int BLOCK = 256;
constexpr int WARPS = BLOCK / 32;
constexpr int64_t CHUNK = 256;
constexpr int64_t TILE = 256;
// csr2coo's probe form: entries a block, rows a block of rows, blocks of rows the coarse offsets
// cover, blocks of rows a tile's fine offsets cover.
constexpr int64_t PROBE_TILE = 4 * BLOCK;
constexpr int ROWS = 256;
constexpr int COARSE = 2048;
constexpr int SPAN = 4;

__device__ __forceinline__ int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
__device__ __forceinline__ int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
__device__ __forceinline__ int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return min64(max64(v, lo), hi); }

// The largest x in [lo, hi] with ok(x), ok(lo) taken as true, for ok true then false along x: a
// whole warp probes 32 points at a time, so a search over 2^31 values takes 7 dependent loads,
// not 31.
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

// ---- coo2csr ------------------------------------------------------------------------------------

struct Coo {
    const int32_t* rows;
    int32_t* offsets;
    int64_t nnz, m, base;
    // Entry i's row, clamped to -1..m so that a run never reaches outside offsets[0..=m]; -1
    // before the first entry, m after the last.
    __device__ int64_t row(int64_t i) const {
        return i < 0 ? -1 : i >= nnz ? m : clamp(int64_t(rows[i]) - base, -1, m);
    }
    // Boundary i's run: offsets (a, b] are i + 1, less the whole chunks inside it (their warps
    // write those).
    __device__ void run(int64_t i, int64_t a, int64_t b) const {
        if (b <= a) return;
        const int32_t v = int32_t(i + 1 + base);
        const int64_t lo = a + 1, hi = b + 1;  // [lo, hi)
        const int64_t first = (lo + CHUNK - 1) / CHUNK * CHUNK;
        const int64_t last = hi / CHUNK * CHUNK;
        if (first < last) {
            for (int64_t r = lo; r < first; ++r) offsets[r] = v;
            for (int64_t r = last; r < hi; ++r) offsets[r] = v;
        } else {
            for (int64_t r = lo; r < hi; ++r) offsets[r] = v;
        }
    }
};

// Chunk c (offsets c * CHUNK .. + CHUNK - 1, all <= m): i = the entries with rows below its first
// offset; the chunk lies inside boundary i - 1's run when row(i) reaches its last offset.
template <int64_t SIZE>
__device__ void coo2csr_chunk(const Coo& c, int64_t chunk) {
    const int lane = threadIdx.x % 32;
    const int64_t r0 = chunk * SIZE;
    const int64_t i = warp_search(0, c.nnz, [&](int64_t x) { return c.row(x - 1) < r0; });
    if (c.row(i) < r0 + SIZE - 1) return;
    const int32_t v = int32_t(i + c.base);
    for (int64_t r = lane; r < SIZE; r += 32) c.offsets[r0 + r] = v;
}

// The first blocks of either form write the whole chunks of SIZE offsets, a warp each (the
// launcher counts them the same); true for those blocks. `chunk_blocks` is their number.
template <int64_t SIZE>
__device__ bool write_whole_chunks(const Coo& c, int64_t& chunk_blocks) {
    const int64_t chunks = (c.m + 1) / SIZE;
    chunk_blocks = (chunks + WARPS - 1) / WARPS;
    if (int64_t(blockIdx.x) >= chunk_blocks) return false;
    const int64_t chunk = int64_t(blockIdx.x) * WARPS + threadIdx.x / 32;
    if (chunk < chunks) coo2csr_chunk<SIZE>(c, chunk);
    return true;
}

__device__ void coo2csr(const Coo2CsrParams& p) {
    const Coo c{reinterpret_cast<const int32_t*>(p.coo_rows), reinterpret_cast<int32_t*>(p.csr_offsets), p.nnz, p.m, p.base};
    int64_t chunk_blocks;
    if (write_whole_chunks<CHUNK>(c, chunk_blocks)) return;
    const int64_t t = (int64_t(blockIdx.x) - chunk_blocks) * BLOCK + threadIdx.x;
    // Entries head.. are 16-byte aligned; quads of 4 from there, then a tail of up to 3.
    const int64_t head = min64((4 - int64_t((p.coo_rows >> 2) & 3)) & 3, p.nnz);
    const int64_t quads = (p.nnz - head) / 4;
    const int64_t tail = head + quads * 4;
    // Scalar boundaries: -1 .. head - 1, and tail .. nnz - 1.
    if (t <= head) c.run(t - 1, t == 0 ? -1 : c.row(t - 1), c.row(t));
    if (t < p.nnz - tail) c.run(tail + t, c.row(tail + t), c.row(tail + t + 1));
    // Two quads: boundaries e0 .. e0 + n - 1.
    const int64_t q = 2 * t;
    if (q >= quads) return;
    const int4* aligned = reinterpret_cast<const int4*>(c.rows + head);
    const int n = q + 1 < quads ? 8 : 4;
    int32_t raw[8];
    const int4 v0 = aligned[q];
    const int4 v1 = n == 8 ? aligned[q + 1] : make_int4(0, 0, 0, 0);
    raw[0] = v0.x, raw[1] = v0.y, raw[2] = v0.z, raw[3] = v0.w;
    raw[4] = v1.x, raw[5] = v1.y, raw[6] = v1.z, raw[7] = v1.w;
    const int64_t e0 = head + q * 4;
    // Loaded before any store: the compiler may not move a load past stores that could alias it.
    const int64_t next = c.row(e0 + n);
    int64_t a = clamp(int64_t(raw[0]) - p.base, -1, p.m);
#pragma unroll
    for (int s = 0; s < 8; ++s) {
        if (s < n) {
            const int64_t b = s + 1 < n ? clamp(int64_t(raw[s + 1]) - p.base, -1, p.m) : next;
            c.run(e0 + s, a, b);
            a = b;
        }
    }
}

// ---- coo2csr, tile form --------------------------------------------------------------------------
//
// A block takes tiles of TILE_ENTRIES consecutive entries. The runs of the boundaries e0 - 1 ..
// e0 + TILE_ENTRIES - 2 tile exactly the offsets (row(e0 - 1), row(e0 + TILE_ENTRIES - 1)], and
// offset r among them is e0 plus the number of the tile's entries whose row is below r: the block
// stages the tile's rows in shared memory and each thread finds one offset's count by a binary
// search there, BLOCK consecutive offsets a step, so the stores are coalesced and a block's work
// follows its tile's entries and rows, not the longest run among a warp's lanes. A step whose
// offsets all lie in one run (long runs of empty rows) writes that run to its end at once, less
// the whole WIDE_CHUNKs inside it, which warps of their own write (as the thread form's chunks), so
// no block writes more than 2 * WIDE_CHUNK offsets of one run. Blocks stride over the tiles, each
// loading its next tile's rows before it writes the current one's offsets.

constexpr int ITEMS = 8;
constexpr int TILE_ENTRIES = BLOCK * ITEMS;
constexpr int64_t WIDE_CHUNK = 2048;

struct TileShared {
    int4 rows[TILE_ENTRIES / 4];  // the tile's rows, clamped to -1..m
    int32_t count_first, count_last;  // the step's first and last offsets' counts
};

// A thread's ITEMS rows of the tile from e0: entries e0 + t * ITEMS + j (m past the last entry).
struct TileRows {
    int32_t row[ITEMS];
};

__device__ TileRows load_tile_rows(const Coo& c, int64_t e0) {
    const int64_t first = e0 + int64_t(threadIdx.x) * ITEMS;
    TileRows s;
    const bool aligned = ((reinterpret_cast<uintptr_t>(c.rows) >> 2) & 3) == 0;
    if (aligned && first + ITEMS <= c.nnz) {
        const int4* v = reinterpret_cast<const int4*>(c.rows + first);
        const int4 v0 = v[0], v1 = v[1];
        const int32_t raw[ITEMS] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) s.row[j] = int32_t(clamp(int64_t(raw[j]) - c.base, -1, c.m));
    } else {
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) s.row[j] = int32_t(c.row(first + j));
    }
    return s;
}

// The number of the tile's entries whose row is below r (rows sorted: a lower bound).
__device__ __forceinline__ int32_t count_below(const int32_t* rows, int32_t r) {
    int32_t k = 0;
#pragma unroll
    for (int step = TILE_ENTRIES / 2; step > 0; step /= 2)
        if (rows[k + step - 1] < r) k += step;
    return k + (rows[k] < r ? 1 : 0);
}

// Offsets [from, to] = v, the block's threads striding.
__device__ __forceinline__ void fill(const Coo& c, int64_t from, int64_t to, int32_t v) {
    for (int64_t r = from + threadIdx.x; r <= to; r += BLOCK) c.offsets[r] = v;
}

// Offsets from .. min(b, hi) lie in the run (a, b]: they get its value, less the whole
// WIDE_CHUNKs inside the run. Returns the last offset written.
__device__ int64_t fill_run(const Coo& c, int64_t from, int64_t hi, int64_t a, int64_t b, int32_t v) {
    const int64_t end = min64(b, hi);
    const int64_t first = (a + 1 + WIDE_CHUNK - 1) / WIDE_CHUNK * WIDE_CHUNK;
    const int64_t last = (b + 1) / WIDE_CHUNK * WIDE_CHUNK;
    if (first < last) {
        fill(c, from, min64(end, first - 1), v);
        fill(c, max64(from, last), end, v);
    } else {
        fill(c, from, end, v);
    }
    return end;
}

// Writes the offsets of the tile from e0, whose rows are staged, and lo - 1 the row before it.
__device__ void write_tile(const Coo& c, TileShared& sh, int64_t e0, int64_t lo) {
    const int32_t* rows = reinterpret_cast<const int32_t*>(sh.rows);
    const int64_t hi = rows[TILE_ENTRIES - 1];
    for (int64_t g = lo; g <= hi;) {
        const int64_t r = g + threadIdx.x;
        const int32_t k = r <= hi ? count_below(rows, int32_t(r)) : 0;
        if (r <= hi) c.offsets[r] = int32_t(e0 + k + c.base);
        if (g + BLOCK - 1 >= hi) break;  // the last step
        if (threadIdx.x == 0) sh.count_first = k;
        if (threadIdx.x == BLOCK - 1) sh.count_last = k;
        __syncthreads();
        const int32_t k0 = sh.count_first, k1 = sh.count_last;
        __syncthreads();
        g += BLOCK;
        if (k0 == k1) {
            // The step lay in one run, (row of entry k - 1, row of entry k]: on to its end.
            const int64_t a = k0 == 0 ? lo - 1 : rows[k0 - 1];
            const int64_t b = k0 == TILE_ENTRIES ? hi : rows[k0];
            const int64_t end = fill_run(c, g, hi, a, b, int32_t(e0 + k0 + c.base));
            g = max64(g, end + 1);
        }
    }
}

__device__ void coo2csr_tile(const Coo2CsrParams& p) {
    __shared__ TileShared sh;
    const Coo c{reinterpret_cast<const int32_t*>(p.coo_rows), reinterpret_cast<int32_t*>(p.csr_offsets), p.nnz, p.m, p.base};
    int64_t chunk_blocks;
    if (write_whole_chunks<WIDE_CHUNK>(c, chunk_blocks)) return;
    const int64_t tiles = p.nnz / TILE_ENTRIES + 1;
    const int64_t stride = int64_t(gridDim.x) - chunk_blocks;
    int64_t tile = int64_t(blockIdx.x) - chunk_blocks;
    TileRows current = load_tile_rows(c, tile * TILE_ENTRIES);
    int64_t before = c.row(tile * TILE_ENTRIES - 1);
    for (; tile < tiles; tile += stride) {
        const int64_t e0 = tile * TILE_ENTRIES;
        TileRows next = current;
        int64_t next_before = before;
        if (tile + stride < tiles) {
            next = load_tile_rows(c, (tile + stride) * TILE_ENTRIES);
            next_before = c.row((tile + stride) * TILE_ENTRIES - 1);
        }
        sh.rows[2 * threadIdx.x] = make_int4(current.row[0], current.row[1], current.row[2], current.row[3]);
        sh.rows[2 * threadIdx.x + 1] = make_int4(current.row[4], current.row[5], current.row[6], current.row[7]);
        __syncthreads();
        write_tile(c, sh, e0, before + 1);
        __syncthreads();
        current = next;
        before = next_before;
    }
}

// ---- csr2coo ------------------------------------------------------------------------------------

// Group kg .. kg + 3 of out (16-byte aligned): whole, or the entries inside [k0, k1).
__device__ __forceinline__ void write_group(int32_t* out, int64_t kg, int64_t k0, int64_t k1, int4 v) {
    if (kg >= k0 && kg + 4 <= k1) {
        *reinterpret_cast<int4*>(out + kg) = v;
    } else {
        const int32_t e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int s = 0; s < 4; ++s)
            if (kg + s >= k0 && kg + s < k1) out[kg + s] = e[s];
    }
}

__device__ void csr2coo(const Csr2CooParams& p) {
    __shared__ int64_t ends_sh[WARPS][32];
    __shared__ __align__(16) int32_t tile_sh[WARPS][TILE];
    const int32_t* offsets = reinterpret_cast<const int32_t*>(p.csr_offsets);
    int32_t* out = reinterpret_cast<int32_t*>(p.coo_rows);
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int64_t* ends = ends_sh[w];
    int32_t* tile = tile_sh[w];
    // Tiles start where out is 16-byte aligned: tile n holds entries n * TILE - mis ...
    const int64_t mis = int64_t((p.coo_rows >> 2) & 3);
    const int64_t tiles = (p.nnz + mis + TILE - 1) / TILE;
    const int64_t warps = int64_t(gridDim.x) * WARPS;
    const int64_t per = (tiles + warps - 1) / warps;
    const int64_t n0 = (int64_t(blockIdx.x) * WARPS + w) * per;
    const int64_t n1 = min64(n0 + per, tiles);
    if (n0 >= n1) return;
    // The window: ends[j] is where row r + j ends (past row m - 1: never); r starts as the row of
    // the warp's first entry (the last row starting at or before it).
    int64_t r = warp_search(0, p.m - 1, [&](int64_t x) { return int64_t(offsets[x]) - p.base <= max64(n0 * TILE - mis, 0); });
    int64_t last;
    auto load = [&]() {
        ends[lane] = r + 1 + lane <= p.m ? int64_t(offsets[r + 1 + lane]) - p.base : INT64_MAX;
        __syncwarp();
        last = ends[31];
    };
    load();
    for (int64_t n = n0; n < n1; ++n) {
        const int64_t kt = n * TILE - mis;
        const int64_t lo = max64(kt, 0), hi = min64(kt + TILE, p.nnz);
        // The window stays while it covers the tile (long rows: one load for many tiles); past
        // its end, the next 32 rows start exactly at `last`.
        for (int64_t from = lo;;) {
            const int64_t a = max64(kt + 8 * lane, from), b = min64(kt + 8 * lane + 8, min64(hi, last));
            if (a < b) {
                // The first row ending after a (ends[31] > a, so j <= 31), then walk.
                int j = 0;
#pragma unroll
                for (int s = 16; s > 0; s /= 2)
                    if (ends[j + s - 1] <= a) j += s;
                int64_t end = ends[j];
                for (int64_t k = a; k < b; ++k) {
                    while (end <= k && j < 31) end = ends[++j];
                    tile[k - kt] = int32_t(r + j + p.base);
                }
            }
            __syncwarp();
            if (last >= hi) break;
            from = max64(from, last);
            r += 32;
            load();
        }
#pragma unroll
        for (int g = lane; g < TILE / 4; g += 32) write_group(out, kt + 4 * g, lo, hi, *reinterpret_cast<const int4*>(tile + 4 * g));
        __syncwarp();
    }
}

// The largest j in [0, n) with a[j] <= k (0 if none), n <= 2 * top: a binary search of a
// sorted array (any array: the result stays in range).
template <typename A>
__device__ __forceinline__ int last_at_or_before(A a, int n, int64_t k, int top) {
    int j = 0;
    for (int s = top; s > 0; s /= 2)
        if (j + s < n && a(j + s) <= k) j += s;
    return j;
}

// Offset i less the base, clamped to 0..nnz so that garbage offsets keep every write in bounds.
__device__ __forceinline__ int32_t start_of(const Csr2CooParams& p, int64_t i) {
    return int32_t(clamp(int64_t(reinterpret_cast<const int32_t*>(p.csr_offsets)[i]) - p.base, 0, p.nnz));
}

__device__ void csr2coo_probe(const Csr2CooParams& p) {
    __shared__ int32_t coarse[COARSE + 1];
    __shared__ int32_t fine[SPAN * ROWS + 1];
    int32_t* out = reinterpret_cast<int32_t*>(p.coo_rows);
    // The tile: groups g0.., group g holding entries 4g - mis .. + 3 (16-byte aligned in out).
    const int64_t mis = int64_t((p.coo_rows >> 2) & 3);
    const int64_t g0 = int64_t(blockIdx.x) * (PROBE_TILE / 4);
    const int64_t k0 = max64(4 * g0 - mis, 0), k1 = min64(4 * g0 + PROBE_TILE - mis, p.nnz);
    // Read 1: coarse[j] = where block of rows j starts (coarse[blocks] = nnz's end).
    const int blocks = int((p.m + ROWS - 1) / ROWS);
    for (int j = threadIdx.x; j <= blocks; j += BLOCK) coarse[j] = start_of(p, min64(int64_t(j) * ROWS, p.m));
    __syncthreads();
    auto in_coarse = [&](int j) { return int64_t(coarse[j]); };
    const int ja = last_at_or_before(in_coarse, blocks, k0, COARSE);
    const int jb = max(ja, last_at_or_before(in_coarse, blocks, k1 - 1, COARSE));
    const int64_t r0 = int64_t(ja) * ROWS;
    const int64_t g1 = min64(g0 + PROBE_TILE / 4, (p.nnz + mis + 3) / 4);
    if (jb - ja < SPAN) {
        // Read 2: the rows' offsets; fine[i] = where row r0 + i starts.
        const int rows = int(min64(int64_t(jb - ja + 1) * ROWS, p.m - r0));
        for (int i = threadIdx.x; i <= rows; i += BLOCK) fine[i] = start_of(p, r0 + i);
        __syncthreads();
        auto in_fine = [&](int i) { return int64_t(fine[i]); };
        for (int64_t g = g0 + threadIdx.x; g < g1; g += BLOCK) {
            const int64_t kg = 4 * g - mis;
            int i = last_at_or_before(in_fine, rows, max64(kg, k0), SPAN * ROWS / 2);
            int32_t v[4];
#pragma unroll
            for (int s = 0; s < 4; ++s) {
                while (i + 1 < rows && fine[i + 1] <= kg + s) ++i;
                v[s] = int32_t(r0 + i + p.base);
            }
            write_group(out, kg, k0, k1, make_int4(v[0], v[1], v[2], v[3]));
        }
        return;
    }
    // Mostly empty rows: each entry's block of rows from coarse, its row by a search of that
    // block's offsets in memory (a fresh search only where the entry leaves the last one's row).
    for (int64_t g = g0 + threadIdx.x; g < g1; g += BLOCK) {
        const int64_t kg = 4 * g - mis;
        int64_t row = -1, row_end = 0;
        int32_t v[4];
#pragma unroll
        for (int s = 0; s < 4; ++s) {
            const int64_t k = clamp(kg + s, k0, k1 - 1);
            if (row < 0 || k >= row_end) {
                const int j = last_at_or_before(in_coarse, blocks, k, COARSE);
                const int64_t lo = int64_t(j) * ROWS;
                const int n = int(min64(ROWS, p.m - lo));
                row = lo + last_at_or_before([&](int i) { return int64_t(start_of(p, lo + i)); }, n, k, ROWS / 2);
                row_end = start_of(p, row + 1);
            }
            v[s] = int32_t(row + p.base);
        }
        write_group(out, kg, k0, k1, make_int4(v[0], v[1], v[2], v[3]));
    }
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
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_coo2csr_tile_i32(const Coo2CsrParams p) { coo2csr_tile(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_csr2coo_i32(const Csr2CooParams p) { csr2coo(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_csr2coo_probe_i32(const Csr2CooParams p) { csr2coo_probe(p); }
extern "C" __global__ void oxs_identity_permutation_i32(const IdentityParams p) { identity(p); }
