// SDDMM by dense tiles, for CSR masks whose rows share their columns in blocks (sliding windows,
// block-sparse attention, meshes): a thread block takes TILE_ROWS rows of C and walks the column
// tiles of TILE_COLS columns their entries touch, in order. A tile holding enough entries is
// computed densely from A's rows and B's columns staged in shared memory a slice of k at a time
// (the lean kernel reads B's line once per value): in FP32 each thread keeps a 2 x 4 register
// tile, so each B element read from shared memory serves two values and each A element four; FP16
// and BF16 run on tensor cores (mma m16n8k16, exact products, FP32 sums), each warp a 16 x 16
// piece. A tile with few entries computes them one lane each from global memory.
//
// Whether the tiles run at all follows a survey of C's structure (oxs_sddmm_tiles_survey, into
// four counters of the workspace, sddmm_shared::tiles_chosen): read back by preprocess, or read on
// the GPU by both this kernel and the lean one, launched in the same graph, which agree which of
// them computes C (sddmm_shared::tiles_run). Either way the same structure gets the same kernel.
//
// Stages of a block, per tile (each a single round trip to memory at most: a block is a chain of
// dependent steps, so the loads of a step are all issued before any is used):
//   1. the tile: the least next column of its rows, rounded down to TILE_COLS;
//   2. its entries: each row's run of columns inside the tile (rows' columns are sorted and
//      distinct: the survey requires it, so a row has at most TILE_COLS of them in a tile, read by
//      one load a lane for all of a warp's rows), their positions in a TILE_ROWS x TILE_COLS map
//      (-1: no entry);
//   3a. dense (at least DENSE_ENTRIES): for each slice of SLICE_K of k, A's rows and B's columns
//       into shared memory by cp.async (A's once a block where one slice holds k), then the
//       products (FMA or mma); then each present value written;
//   3b. sparse: each entry's dot product by one lane, A's and B's lines read from global memory.
#include "common/sddmm.cuh"
#include "common/cp_async.cuh"
#include "common/tc_step.cuh"  // mma_16

namespace {

using namespace sddmm_shared;

// The tiling constants (TILE_ROWS, TILE_COLS and TILE_BLOCK must match src/ops/sddmm/tiles.rs).
constexpr int TILE_ROWS = 32;
constexpr int TILE_COLS = 64;
constexpr int SLICE_K = 64;                               // elements of k staged at once
constexpr int DENSE_ENTRIES = TILE_ROWS * TILE_COLS / 8;  // a tile at least 1/8 full runs densely
constexpr int TILE_BLOCK = 256;  // threads of the tile kernel
constexpr int WARPS = TILE_BLOCK / WARP;
constexpr int ROWS_PER_WARP = TILE_ROWS / WARPS;
// FP32: a thread's register tile, rows tr + 16 i, columns tc + 16 j.
constexpr int TR = 2, TC = 4, THREAD_ROWS = TILE_ROWS / TR, THREAD_COLS = TILE_COLS / TC;
static_assert(THREAD_ROWS * THREAD_COLS == TILE_BLOCK, "one register tile a thread");
// 16-bit: a warp's piece, 16 rows (one mma) x 16 columns (two), and the mma's depth.
constexpr int WARP_ROWS = 16, WARP_COLS = 16, MMA_K = 16;
static_assert((TILE_ROWS / WARP_ROWS) * (TILE_COLS / WARP_COLS) == WARPS, "one piece a warp");

// How a slice is staged: as it is, 16 bytes after each line, so lines stay on 16 bytes for
// cp.async, float4 reads and ldmatrix, and the 8 lines a quarter warp's float4 reads or an
// ldmatrix touches fall in distinct banks.
template <typename T>
constexpr int PAD = VECTOR_BYTES / int(sizeof(T));

template <typename T, typename I>
struct TileShared {
    alignas(16) T a[TILE_ROWS][SLICE_K + PAD<T>];
    alignas(16) T b[TILE_COLS][SLICE_K + PAD<T>];
    I at[TILE_ROWS][TILE_COLS];  // the position of entry (row, column) of the tile, or -1
    I cursor[TILE_ROWS];         // each row's first entry not yet computed
    I end[TILE_ROWS];            // the row's end (0 for rows past C's)
    I next[TILE_ROWS];           // the column at the cursor (or `none`)
    I tile;                      // the current tile's first column
    int entries;                 // the tile's entries
};

template <typename I>
__device__ __forceinline__ I none() {
    return sizeof(I) == 8 ? I(INT64_MAX) : I(INT32_MAX);
}

// Stage 1: the least next column of the block's rows, rounded down to the tile (`none` when done).
template <typename S>
__device__ void find_tile(S& s) {
    using I = decltype(s.tile);
    __syncthreads();
    if (threadIdx.x < WARP) {
        I m = threadIdx.x < TILE_ROWS ? s.next[threadIdx.x] : none<I>();
#pragma unroll
        for (int d = WARP / 2; d > 0; d /= 2) {
            const I o = __shfl_xor_sync(0xffffffffu, m, d);
            m = o < m ? o : m;
        }
        if (threadIdx.x == 0) {
            s.tile = m == none<I>() ? m : I(m / TILE_COLS * TILE_COLS);
            s.entries = 0;
        }
    }
    for (int i = threadIdx.x; i < TILE_ROWS * TILE_COLS; i += TILE_BLOCK) (&s.at[0][0])[i] = I(-1);
    __syncthreads();
}

// Stage 2: each warp's rows' entries inside the tile: their positions into the map, the cursors
// and next columns moved past them, the count added to s.entries. A row's entries in the tile are
// a prefix of its next TILE_COLS (sorted, distinct columns), so one load a lane for each of the
// warp's rows finds them all, and one more (the same address on every lane) the column after them
// where all TILE_COLS fall inside, as they do inside wide windows and dense blocks.
template <typename S, typename I>
__device__ void gather_entries(S& s, const I* cols, I base) {
    static_assert(TILE_COLS == 2 * WARP, "a row's candidates: two a lane");
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    const I tile = s.tile, end_col = tile + I(TILE_COLS);
    I cur[ROWS_PER_WARP], col[ROWS_PER_WARP][2], after[ROWS_PER_WARP];
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) {
        const int i = warp * ROWS_PER_WARP + r;
        cur[r] = s.cursor[i];
        const I end = s.end[i];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const I q = cur[r] + I(h * WARP + lane);
            col[r][h] = q < end ? I(cols[q] - base) : none<I>();
        }
        const I q = cur[r] + I(TILE_COLS);
        after[r] = q < end ? I(cols[q] - base) : none<I>();
    }
    int count = 0;
    I next[ROWS_PER_WARP];
#pragma unroll
    for (int r = 0; r < ROWS_PER_WARP; ++r) {
        const int i = warp * ROWS_PER_WARP + r;
        int taken = 0;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const bool inside = col[r][h] < end_col;
            if (inside) s.at[i][col[r][h] - tile] = cur[r] + I(h * WARP + lane);
            taken += __popc(__ballot_sync(0xffffffffu, inside));
        }
        const I first_out0 = __shfl_sync(0xffffffffu, col[r][0], taken % WARP);
        const I first_out1 = __shfl_sync(0xffffffffu, col[r][1], taken % WARP);
        next[r] = taken < WARP ? first_out0 : taken < TILE_COLS ? first_out1 : after[r];
        cur[r] += I(taken);
        count += taken;
    }
    __syncwarp();  // every lane has read the cursors
    if (lane == 0) {
#pragma unroll
        for (int r = 0; r < ROWS_PER_WARP; ++r) {
            s.cursor[warp * ROWS_PER_WARP + r] = cur[r];
            s.next[warp * ROWS_PER_WARP + r] = next[r];
        }
        atomicAdd(&s.entries, count);
    }
    __syncthreads();
}

// Stage 3a, one slice: lines [row0, row0 + TILE_ROWS) of A (unless `with_a` is false: they are
// in place) and [col0, col0 + TILE_COLS) of B, elements [k0, k0 + len), into shared memory by
// cp.async (zeros past the operand's lines, and 16-bit slices zero-padded to whole mma steps).
template <typename T, typename I>
__device__ void stage_slice(TileShared<T, I>& s, const T* a, const T* b, int64_t lda, int64_t ldb, I row0, I rows, I col0,
                            I n, int k0, int len, bool with_a) {
    constexpr int E = VECTOR_BYTES / sizeof(T);
    constexpr bool wide = std::is_same<T, float>::value;
    const int real = len / E;
    const int vectors = wide ? real : (len + MMA_K - 1) / MMA_K * (MMA_K / E);
    const int first = with_a ? 0 : TILE_ROWS * vectors;
    for (int i = first + int(threadIdx.x); i < (TILE_ROWS + TILE_COLS) * vectors; i += TILE_BLOCK) {
        const int line = i / vectors, v = i % vectors;
        const bool is_a = line < TILE_ROWS;
        const I which = is_a ? I(row0 + line) : I(col0 + (line - TILE_ROWS));
        const bool valid = (is_a ? which < rows : which < n) && v < real;
        const T* from = valid ? (is_a ? a + int64_t(which) * lda : b + int64_t(which) * ldb) + k0 + v * E : a;
        T* to = is_a ? &s.a[line][v * E] : &s.b[line - TILE_ROWS][v * E];
        cp_async::copy16(to, from, valid);
    }
    cp_async::commit();
    cp_async::wait_groups<0>();
    __syncthreads();
}

// Stage 3a in FP32: the tile's TILE_ROWS x TILE_COLS products, each summed over k in order, then
// `write(q, dot)` for each present entry.
template <typename T, typename I, typename Write>
__device__ void dense_tile(TileShared<T, I>& s, const T* a, const T* b, int64_t lda, int64_t ldb, I row0, I rows, I n,
                           int k, bool& a_staged, const Write& write) {
    const int tc = threadIdx.x % THREAD_COLS, tr = threadIdx.x / THREAD_COLS;
    float acc[TR][TC];
#pragma unroll
    for (int i = 0; i < TR; ++i)
#pragma unroll
        for (int j = 0; j < TC; ++j) acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < k; k0 += SLICE_K) {
        const int len = min(SLICE_K, k - k0);
        stage_slice<T, I>(s, a, b, lda, ldb, row0, rows, s.tile, n, k0, len, !a_staged);
        a_staged = k <= SLICE_K;  // one slice holds k: A's lines stay for the block's next tiles
        // Four elements of k a step (lines hold whole 16-byte vectors), each product still added
        // in k's order.
#pragma unroll 2
        for (int x = 0; x < len; x += 4) {
            float4 av[TR], bv[TC];
#pragma unroll
            for (int i = 0; i < TR; ++i) av[i] = *reinterpret_cast<const float4*>(&s.a[tr + THREAD_ROWS * i][x]);
#pragma unroll
            for (int j = 0; j < TC; ++j) bv[j] = *reinterpret_cast<const float4*>(&s.b[tc + THREAD_COLS * j][x]);
#pragma unroll
            for (int i = 0; i < TR; ++i)
#pragma unroll
                for (int j = 0; j < TC; ++j) {
                    acc[i][j] = fmaf(av[i].x, bv[j].x, acc[i][j]);
                    acc[i][j] = fmaf(av[i].y, bv[j].y, acc[i][j]);
                    acc[i][j] = fmaf(av[i].z, bv[j].z, acc[i][j]);
                    acc[i][j] = fmaf(av[i].w, bv[j].w, acc[i][j]);
                }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TR; ++i)
#pragma unroll
        for (int j = 0; j < TC; ++j) {
            const I q = s.at[tr + THREAD_ROWS * i][tc + THREAD_COLS * j];
            if (q >= 0) write(q, acc[i][j]);
        }
}

// Stage 3a in FP16 / BF16: each warp's 16 x 16 piece by two mma a step of 16 (A's rows by one
// ldmatrix, B's columns, stored k-contiguous as the mma's "col" operand wants, by another), then
// `write` for each present entry of the accumulators (lane (g, t) holds rows g and g + 8,
// columns 2t and 2t + 1 of each n8 half).
template <typename T, typename I, typename Write>
__device__ void dense_tile_mma(TileShared<T, I>& s, const T* a, const T* b, int64_t lda, int64_t ldb, I row0, I rows, I n,
                               int k, bool& a_staged, const Write& write) {
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    const int m0 = (warp % (TILE_ROWS / WARP_ROWS)) * WARP_ROWS, n0 = (warp / (TILE_ROWS / WARP_ROWS)) * WARP_COLS;
    float acc[2][4] = {};
    for (int k0 = 0; k0 < k; k0 += SLICE_K) {
        const int len = min(SLICE_K, k - k0);
        stage_slice<T, I>(s, a, b, lda, ldb, row0, rows, s.tile, n, k0, len, !a_staged);
        a_staged = k <= SLICE_K;
        for (int x = 0; x < len; x += MMA_K) {
            uint32_t af[4], bf[4];
            tc::ldmatrix_x4(af, &s.a[m0 + lane % 16][x + (lane / 16) * 8]);
            tc::ldmatrix_x4(bf, &s.b[n0 + lane % 8 + (lane / 16) * 8][x + ((lane / 8) % 2) * 8]);
            { const uint32_t b0[2] = {bf[0], bf[1]}; tc::mma_16<T>(acc[0], af, b0); }
            { const uint32_t b1[2] = {bf[2], bf[3]}; tc::mma_16<T>(acc[1], af, b1); }
        }
        __syncthreads();
    }
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const I q = s.at[m0 + g + (e / 2) * 8][n0 + h * 8 + 2 * t + e % 2];
            if (q >= 0) write(q, acc[h][e]);
        }
}

// Stage 3b: each entry of the tile, one lane each, A's and B's lines from global memory.
template <typename T, typename I>
__device__ float sparse_product(const T* a_line, const T* b_line, int k) {
    constexpr int E = VECTOR_BYTES / sizeof(T);
    float sum = 0.0f;
    for (int v = 0; v < k / E; ++v) {
        const uint4 va = __ldg(reinterpret_cast<const uint4*>(a_line) + v);
        const uint4 vb = __ldg(reinterpret_cast<const uint4*>(b_line) + v);
        const T* ea = reinterpret_cast<const T*>(&va);
        const T* eb = reinterpret_cast<const T*>(&vb);
#pragma unroll
        for (int x = 0; x < E; ++x) sum = fmaf(to_compute<float>(ea[x]), to_compute<float>(eb[x]), sum);
    }
    return sum;
}

template <typename T, typename TC_, typename I>
__device__ void sddmm_tiles(const SddmmParams& p) {
    if (!tiles_run(p)) return;  // the lean kernel runs instead (the same for every block)
    __shared__ TileShared<T, I> s;
    const I base = I(p.c.base), rows = I(p.rows), n = I(p.n);
    const I* offsets = reinterpret_cast<const I*>(p.c.offsets);
    const I* cols = reinterpret_cast<const I*>(p.c.cols);
    TC_* out = reinterpret_cast<TC_*>(p.c.values);
    const T* a = reinterpret_cast<const T*>(p.a.values);
    const T* b = reinterpret_cast<const T*>(p.b.values);
    const int k = int(p.k);
    const float alpha = load_scalar<float>(p.alpha), beta = load_scalar<float>(p.beta);
    const bool products = k > 0 && alpha != 0.0f, read_c = beta != 0.0f;
    const I row0 = I(int64_t(blockIdx.x) * TILE_ROWS);
    const auto write = [&](I q, float dot) {
        float v = products ? alpha * dot : 0.0f;
        if (read_c) v = v + beta * to_compute<float>(out[q]);
        out[q] = from_compute<TC_>(v);
    };

    // Each row's cursor at its first entry, its end, and the first entry's column.
    if (threadIdx.x < TILE_ROWS) {
        const I row = row0 + I(threadIdx.x);
        I cur = 0, end = 0, next = none<I>();
        if (row < rows) {
            cur = I(offsets[row] - base);
            end = I(offsets[row + 1] - base);
            if (cur < end) next = I(cols[cur] - base);
        }
        s.cursor[threadIdx.x] = cur;
        s.end[threadIdx.x] = end;
        s.next[threadIdx.x] = next;
    }
    bool a_staged = false;  // A's lines of the block are in shared memory (k in one slice)
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    while (true) {
        // 1-2. The next tile and its entries.
        find_tile(s);
        if (s.tile == none<I>()) break;
        gather_entries(s, cols, base);
        const I tile = s.tile;
        if (!products) {
            for (int i = threadIdx.x; i < TILE_ROWS * TILE_COLS; i += TILE_BLOCK) {
                const I q = (&s.at[0][0])[i];
                if (q >= 0) write(q, 0.0f);
            }
        } else if (s.entries >= DENSE_ENTRIES) {
            // 3a. Dense.
            if constexpr (std::is_same<T, float>::value)
                dense_tile<T, I>(s, a, b, p.a.ld, p.b.ld, row0, rows, n, k, a_staged, write);
            else
                dense_tile_mma<T, I>(s, a, b, p.a.ld, p.b.ld, row0, rows, n, k, a_staged, write);
        } else {
            // 3b. Sparse: each warp its rows' entries, a lane each.
            for (int i = warp * ROWS_PER_WARP; i < (warp + 1) * ROWS_PER_WARP; ++i) {
                const I row = row0 + I(i);
                for (int c = lane; c < TILE_COLS; c += WARP) {
                    const I q = s.at[i][c];
                    if (q >= 0) write(q, sparse_product<T, I>(a + int64_t(row) * p.a.ld, b + int64_t(tile + c) * p.b.ld, k));
                }
            }
        }
        __syncthreads();  // the map is reset by the next tile
    }
}

// ---- the survey: whether C's structure suits the tiles -------------------------------------------
// Counters (sddmm_shared::Survey), zeroed by oxs_sddmm_tiles_reset: entries out of order or out of
// [0, n), entries in row blocks dense enough (their entries fill at least half of the tiles
// they touch), all entries, the longest row. A block surveys TILE_ROWS rows; the tiles they touch
// are marked in a bitmap of n / TILE_COLS bits (the plan keeps n within SURVEY_BITS tiles).
//
// A plain call surveys every time, so the survey reads the block's entries as one range, every
// thread SURVEY_UNROLL of them at once, whatever the rows' lengths (a warp a row at a time waited
// on each of its loads in turn, and a hub row held its warp long after the others). Each entry is
// compared with the one before it in the range; only where its column does not follow that one's
// does it look up whether it starts a row.
constexpr int SURVEY_BITS = 1 << 16;
constexpr int SURVEY_UNROLL = 4;

template <typename I>
__device__ void survey(const SddmmSurveyParams& p) {
    __shared__ unsigned touched[SURVEY_BITS / 32];
    __shared__ I start[TILE_ROWS + 1];  // the block's rows' first entries, and the last row's end
    __shared__ unsigned long long block_tiles, block_bad, block_longest;
    const I base = I(p.base), rows = I(p.rows), n = I(p.n);
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const I* cols = reinterpret_cast<const I*>(p.cols);
    const int words = int((p.n + TILE_COLS * 32 - 1) / (TILE_COLS * 32));
    const I row0 = I(int64_t(blockIdx.x) * TILE_ROWS);
    const int count = int(min(I(TILE_ROWS), rows - row0));
    for (int w = threadIdx.x; w < words; w += BLOCK) touched[w] = 0;
    if (threadIdx.x <= count) start[threadIdx.x] = I(offsets[row0 + I(threadIdx.x)] - base);
    if (threadIdx.x == 0) block_tiles = block_bad = block_longest = 0;
    __syncthreads();
    if (threadIdx.x < count) atomicMax(&block_longest, (unsigned long long)(start[threadIdx.x + 1] - start[threadIdx.x]));
    const I first = start[0], last = start[count];
    // Whether position q starts one of the block's rows (the starts are non-decreasing).
    const auto starts_row = [&](I q) {
        int lo = 0, hi = count;  // the first row whose start is >= q
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (start[mid] < q) lo = mid + 1; else hi = mid;
        }
        return lo < count && start[lo] == q;
    };
    unsigned long long bad = 0;
    for (I q0 = first + I(threadIdx.x); q0 < last; q0 += I(BLOCK * SURVEY_UNROLL)) {
        I col[SURVEY_UNROLL], before[SURVEY_UNROLL];
#pragma unroll
        for (int u = 0; u < SURVEY_UNROLL; ++u) {
            const I q = q0 + I(u * BLOCK);
            col[u] = q < last ? I(cols[q] - base) : I(-1);
            before[u] = q < last && q > first ? I(cols[q - 1] - base) : I(-1);
        }
#pragma unroll
        for (int u = 0; u < SURVEY_UNROLL; ++u) {
            const I q = q0 + I(u * BLOCK);
            if (q >= last) break;
            const bool inside = col[u] >= 0 && col[u] < n;
            if (!inside || (col[u] <= before[u] && !starts_row(q))) ++bad;
            // One mark per run of entries in the same tile (a block's mark of a tile is what
            // counts; rows are sorted where it matters): neighbouring threads on one word queue.
            const int64_t t = inside ? int64_t(col[u]) / TILE_COLS : -1;
            const bool before_inside = before[u] >= 0 && before[u] < n;
            if (t >= 0 && (!before_inside || int64_t(before[u]) / TILE_COLS != t)) atomicOr(&touched[t / 32], 1u << (t % 32));
        }
    }
    if (bad) atomicAdd(&block_bad, bad);
    __syncthreads();
    unsigned long long tiles = 0;
    for (int w = threadIdx.x; w < words; w += BLOCK) tiles += __popc(touched[w]);
    if (tiles) atomicAdd(&block_tiles, tiles);
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned long long entries = (unsigned long long)(last - first);
        unsigned long long* c = reinterpret_cast<unsigned long long*>(p.survey);
        if (block_bad) atomicAdd(&c[SURVEY_BAD], block_bad);
        if (entries * 2 >= block_tiles * TILE_ROWS * TILE_COLS) atomicAdd(&c[SURVEY_DENSE], entries);
        atomicAdd(&c[SURVEY_ENTRIES], entries);
        atomicMax(&c[SURVEY_LONGEST], block_longest);
    }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sddmm_tiles_reset(const SddmmSurveyParams p) {
    if (threadIdx.x < SURVEY_COUNTERS) reinterpret_cast<unsigned long long*>(p.survey)[threadIdx.x] = 0;
}

extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sddmm_tiles_survey_i32(const SddmmSurveyParams p) {
    survey<int32_t>(p);
}
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sddmm_tiles_survey_i64(const SddmmSurveyParams p) {
    survey<int64_t>(p);
}

// ---- instantiations: oxs_sddmm_tiles_<ab>_<c>_<index> -----------------------------------------------
#define OXS_TILES_ONE(AB, CN, T, TC_, IS, I) \
    extern "C" __global__ void __launch_bounds__(TILE_BLOCK) oxs_sddmm_tiles_##AB##_##CN##_##IS(const SddmmParams p) { sddmm_tiles<T, TC_, I>(p); }
#define OXS_TILES(AB, CN, T, TC_)                \
    OXS_TILES_ONE(AB, CN, T, TC_, i32, int32_t) \
    OXS_TILES_ONE(AB, CN, T, TC_, i64, int64_t)

OXS_TILES(f32, f32, float, float)
OXS_TILES(f16, f32, __half, float)
OXS_TILES(f16, f16, __half, __half)
OXS_TILES(bf16, f32, __nv_bfloat16, float)
OXS_TILES(bf16, bf16, __nv_bfloat16, __nv_bfloat16)
