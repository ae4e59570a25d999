// SpMM over short rows: C = alpha * op(A) * op(B) + beta * C, with op(A) given as rows and op(B)
// and C row-major with 16-byte aligned rows: the cases of the tile kernel (kernels/spmm_tiles.cu),
// taken instead of it when preprocess found every row short (src/ops/spmm/short_rows.rs).
//
// Kernels (parameter blocks in src/kernels/params/spmm.rs):
//  * `longest_row` (oxs_spmm_longest_row_*): preprocess's measure, an atomic maximum of the row
//    lengths; `rows_longer_than` (oxs_spmm_rows_longer_than_*): a plain call's verdict, whether
//    any row is too long for this kernel (SpmmChoice);
//  * `short_rows` (oxs_spmm_short_rows_*, and oxs_spmm_split_rows_* over a split-row table;
//    SpmmRowsParams, its schedule unused): block (x, run, batch). A group of G lanes per row
//    multiplies the row by a slice of op(B)'s columns, each lane VECS 16-byte vectors of them,
//    for each column slice of the block's run in turn. Shapes, in FP32 (FP64: twice the lanes):
//    plain: 32 columns (G = 8 lanes x 1 vector); `_wide`: 64 (16 x 1); `_x2`: 64 (8 x 2);
//    `_wide_x2`: 128 (16 x 2). More vectors a lane spread each entry's shuffles, address and
//    load-round over more columns. FP64 also has `_half`: 16 columns, 8 lanes x 1 vector, so
//    that a block holds FP32's 32 groups and the split-row table takes twice as long a row.
//    16-bit types (A, B and C of one type) also have `_packed` (64 columns, 8 lanes x one 16-byte
//    vector of 8 elements) and `_packed_wide` (128, 16 x 1); their other shapes use 8-byte vectors.
//    Stages, each a function below:
//      0. work: the group's row, or with the split-row table (`p.split`, preprocess's, one batch)
//         its slot: a whole row, or a piece of a long row whose pieces share the block;
//      1. load: the group reads 32 of the row's entries at a time, coalesced, 32 / G per lane;
//      2. multiply: the entries are handed out by shuffles, UNROLL B rows in flight per lane;
//      3. join (split rows only): a row's pieces meet in shared memory, added in piece order;
//      4. store: C = alpha * acc + beta * C (C is not read when beta is 0); a column-major C
//         through shared memory by whole rows (4b), an element at a time by split rows (4c).
//
// Why a second kernel: a row of a few dozen entries is then a chain of three or four dependent
// memory trips (offsets, entries, B, C) where a tile's block needs about ten (entries, row table,
// staging, a walk of four B trips, partials); on matrices whose rows are all short that made it
// 1.3-2.2x faster than the tile kernel (bench/notes/spmm-kernels.md). A long row is
// still multiplied exactly, by its one group, only slowly: hence preprocess's check.
// Split rows (src/ops/spmm/split_rows/) cut the long rows into pieces so that no group's chain is
// long. Summation order: a row's (or piece's) products in stored order, from zero, per column;
// a split row's pieces in piece order (bitwise reproducible).
#include "common/spmm.cuh"

using namespace spmm;

namespace {

constexpr int SLICE = SPMM_TILE_SLICE;  // columns of C per group and vector a lane, as the tile
                                        // kernel's slices...
constexpr int WIDE_SLICE = 2 * SLICE;   // ...or twice as many (FP32, n a multiple of 64: `_wide`)
constexpr int HALF_SLICE = SLICE / 2;   // ...or half as many (FP64: `_half`, 8 lanes, 32 groups)
constexpr int UNROLL = SPMM_SHORT_ROWS_UNROLL;  // B vectors in flight per lane

// A B row's slice of W columns is read by G lanes, VEC elements each: 16 bytes for 4- and 8-byte
// types, 8 for 16-bit ones, so that every type gives a row at least 8 lanes (4 lanes of 16 bytes
// made each read 8 of every 32 entries and measured 0.35-1.0x of the tiles). A load round covers
// WARP entries. Wide groups (16 lanes of FP32) read each entry once for 64 columns (1.05-1.15x the
// narrow ones at N >= 64, but no better once blocks held rows of like length).
// A lane holds VECS vectors, G x VEC columns apart (each vector's loads coalesced over the
// group), so a slice is W x VECS columns; UNROLL / VECS entries are in flight per lane. Which
// shape a call runs: src/kernels/spmm.rs `short_rows_shape`.
// PACKED (16-bit types, `_packed` and `_packed_wide`): 16-byte vectors of 8 elements, so that a
// lane moves as many bytes per load as in FP32 (the 8-byte vectors issued as many loads as FP32
// for half the bytes: FP16 ran no faster than FP32 at N = 64, where cuSPARSE's FP16 took 0.6x its
// FP32 time), with half the entries in flight: FP16 x2's registers (all of UNROLL
// spilled 52-136 bytes at 4 blocks a multiprocessor).
template <typename V, int W, int VECS = 1, bool PACKED = false>
struct Shape {
    static_assert(!PACKED || sizeof(V) == 2, "packed vectors are for 16-bit types");
    static constexpr int VEC = sizeof(V) >= 4 ? 16 / sizeof(V) : (PACKED ? 8 : 4);
    static constexpr int G = W / VEC;
    static constexpr int NV = VECS;
    static constexpr int SLICE = W * VECS;
    static constexpr int K = WARP / G;  // entries per lane per load round
    static constexpr int ROWS = BLOCK / G;
    static constexpr int UNROLL_E = UNROLL / VECS / (PACKED ? 2 : 1);  // entries in flight per lane
    static_assert(G >= 1 && G <= WARP && WARP % G == 0, "groups tile the warp");
    static_assert(UNROLL_E >= 1 && UNROLL % VECS == 0, "whole entries in flight");
};

// A lane's sums: one accumulator per vector.
template <typename S, typename C>
struct Sums {
    Acc<C, S::VEC> v[S::NV];
    __device__ __forceinline__ void zero_all() {
#pragma unroll
        for (int k = 0; k < S::NV; ++k) v[k].zero_all();
    }
};

// ---- stage 0: the group's work ----------------------------------------------------------------

// A row, or a piece of one: entries begin .. begin + len; pieces as in the split-row table (1: a
// whole row, written by this group; k >= 2: the first of k pieces, which adds the next k - 1
// groups' sums and writes; 0: a piece added by its first, or nothing).
struct Work {
    int64_t row, begin;
    int len, pieces;
};

// The group's work: row blockIdx.x * ROWS + group, or that slot of the split-row table (16 bytes:
// begin | pieces << 48, row | len << 32; see split_rows/table.rs). The table starts with preprocess's
// token: a buffer overwritten since is not trusted, and the groups take the rows as stored, one
// each (a table has a slot for every row, so its grid covers them; a long row is then slow, but
// right).
template <bool SPLIT, typename S, typename V, typename I>
__device__ __forceinline__ Work find_work(const SpmmRowsParams& p, const Rows<V, I>& a, int group) {
    const int64_t slot = int64_t(blockIdx.x) * S::ROWS + group;
    if constexpr (SPLIT) {
        const ulonglong2* table = reinterpret_cast<const ulonglong2*>(p.split);
        const unsigned long long token = __ldg(reinterpret_cast<const unsigned long long*>(table));
        const ulonglong2 s = __ldg(table + 1 + slot);  // in flight beside the token
        if (token == p.split_token)
            return Work{int64_t(s.y & 0xffffffffull), int64_t(s.x & ((1ull << 48) - 1)), int(s.y >> 32), int(s.x >> 48)};
        if (slot >= p.shape.m) return Work{slot, 0, 0, 0};
    }
    const int64_t begin = a.begin(slot);
    return Work{slot, begin, int(a.end(slot) - begin), 1};  // within one row of op(A): below k < 2^31
}

// ---- stage 1: 32 entries of the row ------------------------------------------------------------

// Entry o + t * G + li of the row (entries begin .. begin + len) into slot t of lane li. A column
// outside [0, k) (undefined input) becomes column 0 with value 0, as in the tile kernel, so B is
// never read out of bounds. Slots past the row's end get value 0 and the column of the row's last
// entry: stage 2 loads their B rows too (unconditional loads: predicated ones cost 32 more
// registers in FP32, half the resident rows), and that row is already in L1; their products are
// not added.
// Every slot's column and value are loaded before any is looked at (the entry is clamped into the
// row, so both loads are in bounds whatever the column holds): one memory trip. Choosing the
// value by the column made the compiler load each value after its column, and each slot's
// column after the slot before had arrived (SASS of the FP32 kernel).
template <typename S, typename V, typename C, typename I>
__device__ __forceinline__ void load_entries(const Rows<V, I>& a, int64_t k, int64_t begin, int o, int len, int li, int (&col)[S::K],
                                             C (&val)[S::K]) {
    I raw[S::K];
    C v[S::K];
#pragma unroll
    for (int t = 0; t < S::K; ++t) {
        const int64_t q = begin + min(o + t * S::G + li, len - 1);
        raw[t] = a.cols[q];
        v[t] = a.template value<C>(q);
    }
#pragma unroll
    for (int t = 0; t < S::K; ++t) {
        const int64_t c = int64_t(raw[t]) - a.base;
        const bool inside = uint64_t(c) < uint64_t(k);
        col[t] = inside ? int(c) : 0;
        val[t] = inside && o + t * S::G + li < len ? v[t] : zero<C>();
    }
}

// acc += a * b where `on` (one fused multiply-add, as the compiler contracts acc + a * b), else
// acc unchanged: a predicated FMA into acc itself. The plain `if` compiled to an FMA into a new
// register and a predicated move back, eight instructions for a lane's four products. Taken for
// 16-bit A and B (FP32 sums), whose kernels kept their registers and ran 1.05-1.1x faster at N >=
// 64; FP32's own kernels spilled 12-20 bytes more with it and ran 2-4% slower.
__device__ __forceinline__ void add_product_if(bool on, float& acc, float a, float b) {
    asm("{ .reg .pred p; setp.ne.b32 p, %1, 0; @p fma.rn.f32 %0, %2, %3, %0; }" : "+f"(acc) : "r"(int(on)), "f"(a), "f"(b));
}

// ---- stage 2: the products -----------------------------------------------------------------------

// acc += the round's first `count` entries times their B rows, in order. Entry e lies in slot
// e / G of lane e % G. A chunk of UNROLL entries spans SPAN slots of PER entries each, so its slots
// are known at compile time; chunks run one after another (unrolling them let the compiler hoist
// the next chunk's loads: twice the registers, half the resident rows).
template <typename S, typename V, typename C>
__device__ __forceinline__ void multiply_round(const V* bj, int ldb_bytes, unsigned mask, int count, const int (&col)[S::K], const C (&val)[S::K],
                                               Sums<S, C>& acc) {
    constexpr int SPAN = S::UNROLL_E >= S::G ? S::UNROLL_E / S::G : 1;
    constexpr int PER = S::UNROLL_E >= S::G ? S::G : S::UNROLL_E;
    constexpr int STRIDE = S::G * S::VEC;  // between a lane's vectors
#pragma unroll
    for (int t0 = 0; t0 < S::K; t0 += SPAN) {
#pragma unroll 1
        for (int u0 = 0; u0 < S::G; u0 += PER) {
            const int e0 = t0 * S::G + u0;
            if (e0 >= count) return;
            Vec<V, S::VEC> bv[SPAN][PER][S::NV];
#pragma unroll
            for (int s = 0; s < SPAN; ++s)
#pragma unroll
                for (int u = 0; u < PER; ++u) {
                    const int c = __shfl_sync(mask, col[t0 + s], u0 + u, S::G);
                    const V* row = row_at(bj, c, ldb_bytes);
#pragma unroll
                    for (int k = 0; k < S::NV; ++k) bv[s][u][k] = load_vec<V, S::VEC>(row + k * STRIDE);
                }
#pragma unroll
            for (int s = 0; s < SPAN; ++s)
#pragma unroll
                for (int u = 0; u < PER; ++u) {
                    const C av = shfl(mask, val[t0 + s], u0 + u, S::G);
                    const bool on = e0 + s * S::G + u < count;
#pragma unroll
                    for (int k = 0; k < S::NV; ++k)
#pragma unroll
                        for (int i = 0; i < S::VEC; ++i) {
                            if constexpr (sizeof(V) == 2) {
                                static_assert(std::is_same_v<C, float>, "16-bit A and B sum in FP32");
                                add_product_if(on, acc.v[k].v[i], av, to_compute<C>(bv[s][u][k].v[i]));
                            } else if (on) {
                                acc.v[k].v[i] = acc.v[k].v[i] + av * to_compute<C>(bv[s][u][k].v[i]);
                            }
                        }
                }
        }
    }
}

// ---- stage 3: a split row's pieces ------------------------------------------------------------

// In a block holding split rows, every lane leaves its sums in `parts`; a row's first piece adds
// the sums of the pieces after it (the next groups, same lane), in order. Two barriers: all the
// block's threads call this, whatever their work.
template <typename S, typename C>
__device__ __forceinline__ void join_pieces(Sums<S, C>* parts, const Work& w, Sums<S, C>& acc) {
    parts[threadIdx.x] = acc;
    __syncthreads();
    for (int p = 1; p < w.pieces; ++p) {
        const Sums<S, C>& other = parts[threadIdx.x + p * S::G];
#pragma unroll
        for (int k = 0; k < S::NV; ++k)
#pragma unroll
            for (int i = 0; i < S::VEC; ++i) acc.v[k].v[i] = acc.v[k].v[i] + other.v[k].v[i];
    }
    __syncthreads();  // before the next slice overwrites parts
}

// ---- stage 4b: a column-major C -------------------------------------------------------------------

// The block's ROWS consecutive rows x the slice's columns from col0, through a tile in shared
// memory: each lane leaves its sums in its row's column of the tile, then the block writes C a
// column at a time, ROWS consecutive rows per column (whole sectors; element stores straight from
// the groups covered 16 sectors for 32 values and ran 1.2-1.4x slower than staging C).
// The tile's rows are padded by one element so that neither pass conflicts on banks (reading the
// lanes' sums in place conflicted 32 ways). Rows past m and columns past n are not written. All the
// block's threads call this (two barriers).
template <typename S, typename O, typename C>
__device__ __forceinline__ void store_column_major(const SpmmRowsParams& p, int64_t batch, C (*tile)[S::ROWS + 1], const Sums<S, C>& acc,
                                                   int64_t col0, int group, int li) {
    constexpr int PER_VECTOR = S::G * S::VEC;  // columns between a lane's vectors
#pragma unroll
    for (int k = 0; k < S::NV; ++k)
#pragma unroll
        for (int i = 0; i < S::VEC; ++i) tile[k * PER_VECTOR + li * S::VEC + i][group] = acc.v[k].v[i];
    __syncthreads();
    const Dense<O> c(p.c, batch);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    // Thread t writes row t % ROWS of columns t / ROWS, + STEP, ...: its address moves by a fixed
    // stride (the full 64-bit address of every element, as write_out makes it, was ~24
    // instructions a store: 11M more instructions than the row-major kernel on delaunay_n16 N =
    // 128, 52 against 40 us).
    static_assert(BLOCK % S::ROWS == 0, "threads cover whole columns of the tile");
    constexpr int STEP = BLOCK / S::ROWS;
    const int r = threadIdx.x % S::ROWS, first = threadIdx.x / S::ROWS;
    const int64_t row = int64_t(blockIdx.x) * S::ROWS + r;
    const int cols = int(min(int64_t(S::SLICE), p.shape.n - col0));  // the slice's columns within n
    if (row < p.shape.m) {
        O* out = c.at(row, col0 + first);
        const int64_t stride = STEP * c.col_stride;
#pragma unroll
        for (int col = first; col < S::SLICE; col += STEP, out += stride) {
            if (col >= cols) break;
            write_at<O, C>(out, tile[col][r], alpha, beta, read_c);
        }
    }
    __syncthreads();  // before the next slice overwrites the tile
}

// ---- stage 4 (and 4c): the group's row -----------------------------------------------------------

// The lane's columns of row `row` from column j: C = alpha * acc + beta * C, C not read when beta
// is 0. A row-major C takes whole vectors; a column-major one (ELEMENTS: split rows, stage 4c)
// an element at a time down its columns, since a split-row block's rows are scattered by the chain
// sort and leave no run of rows to write a column at a time. Such a store covers one element of a
// 32-byte sector; the host sends here only a C whose sectors are completed in L2 before they go to
// memory (src/ops/spmm/mod.rs `split_rows_write_c`).
template <bool ELEMENTS, typename S, typename O, typename C>
__device__ __forceinline__ void store_row(const SpmmRowsParams& p, int64_t batch, int64_t row, int64_t j, const Sums<S, C>& acc) {
    const Dense<O> c(p.c, batch);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
#pragma unroll
    for (int k = 0; k < S::NV; ++k) {
        const int64_t jk = j + k * S::G * S::VEC;
        if constexpr (ELEMENTS) {
            O* out = c.at(row, jk);  // then one column stride an element
#pragma unroll
            for (int i = 0; i < S::VEC; ++i, out += c.col_stride) write_at<O, C>(out, acc.v[k].v[i], alpha, beta, read_c);
        } else {
            write_c<O, C, S::VEC>(c, row, jk, acc.v[k], alpha, beta, read_c);
        }
    }
}

// ---- the kernel ----------------------------------------------------------------------------------

// SPLIT: the work comes from the split-row table (`oxs_spmm_split_rows_*`; its own instantiation,
// so that the plain kernel keeps its registers). COL_C (`oxs_spmm_short_rows_colc*`,
// `oxs_spmm_split_rows_colc*`): C is column-major, written through shared memory by whole rows
// (stage 4b), an element at a time by split rows (stage 4c).
template <bool SPLIT, bool COL_C, int W, int VECS, typename V, typename O, typename C, typename I, bool PACKED = false>
__device__ void short_rows(const SpmmRowsParams& p) {
    using S = Shape<V, W, VECS, PACKED>;
    __shared__ Sums<S, C> parts[SPLIT ? BLOCK : 1];
    __shared__ C tile[COL_C && !SPLIT ? S::SLICE : 1][S::ROWS + 1];
    const int group = threadIdx.x / S::G;
    // Without a table the groups past the last row leave (the group together); with one, or with
    // a column-major C, every thread stays for the block's barriers (an idle group has no entries).
    const bool row_on = SPLIT || int64_t(blockIdx.x) * S::ROWS + group < p.shape.m;
    if (!SPLIT && !COL_C && !row_on) return;
    const int64_t batch = blockIdx.z;
    const Rows<V, I> a(p.a, batch);
    const Dense<const V> b(p.b, batch);
    const int li = threadIdx.x % S::G;
    const unsigned mask = group_mask(S::G);
    const int ldb_bytes = int(b.row_stride * int64_t(sizeof(V)));  // fits (the plan's tiles_fit)
    // Under a plain call's choice, the verdict first: a block the verdict sends away leaves
    // without a memory trip of its own (the loser's blocks cost 5-8 us when they read their rows
    // first).
    if (p.choice.at != 0) {
        wait_for_previous_kernel();
        if (!chosen(p.choice)) return;
    }
    const Work w = row_on ? find_work<SPLIT, S>(p, a, group) : Work{0, 0, 0, 0};
    const bool joins = SPLIT && __syncthreads_or(w.pieces >= 2);  // the same in the whole block
    // The column-major kernels' first round of entries comes in before the wait too (its own
    // instantiations: moving it in every kernel cost the row-major ones registers and 1-4.5%).
    int first_col[S::K];
    C first_val[S::K];
    if constexpr (COL_C) {
        if (w.len > 0) load_entries<S, V, C, I>(a, p.shape.k, w.begin, 0, w.len, li, first_col, first_val);
    }
    // op(B) may still be being staged (src/ops/spmm/mod.rs, pdl.cuh): the row's bounds (and the
    // split-row slot) came in meanwhile.
    wait_for_previous_kernel();
    const int64_t slices = (p.shape.n + S::SLICE - 1) / S::SLICE;
    const int64_t s0 = int64_t(blockIdx.y) * p.slices_per_block, s1 = min(s0 + p.slices_per_block, slices);
    // The block's slices one after another: the row's entries come from L1 after the first.
    for (int64_t slice = s0; slice < s1; ++slice) {
        const int64_t j = slice * S::SLICE + li * S::VEC;  // the lane's first vector
        // Row-major op(B): column stride 1. n is a multiple of VEC (the plan's condition), and of
        // the slice where a lane holds several vectors (so all of them are in or all out). A lane
        // past n reads the row's first vectors instead (every load unconditional, see
        // load_entries) and writes nothing.
        const bool lane_on = j < p.shape.n;
        const V* bj = b.values + (lane_on ? j : 0);
        Sums<S, C> acc;
        acc.zero_all();
#pragma unroll 1
        for (int o = 0; o < w.len; o += WARP) {
            int col[S::K];
            C val[S::K];
            if (COL_C && o == 0 && slice == s0) {
#pragma unroll
                for (int t = 0; t < S::K; ++t) col[t] = first_col[t], val[t] = first_val[t];
            } else {
                load_entries<S, V, C, I>(a, p.shape.k, w.begin, o, w.len, li, col, val);
            }
            multiply_round<S, V, C>(bj, ldb_bytes, mask, min(WARP, w.len - o), col, val, acc);
        }
        if (joins) join_pieces<S, C>(parts, w, acc);
        if constexpr (COL_C && !SPLIT) {
            store_column_major<S, O, C>(p, batch, tile, acc, slice * S::SLICE, group, li);
        } else if (lane_on && w.pieces >= 1) {
            store_row<COL_C, S, O, C>(p, batch, w.row, j, acc);
        }
    }
}

// Preprocess: thread per row (grid-stride), the longest row of batch 0 into *p.longest.
template <typename I>
__device__ void longest_row(const SpmmLongestRowParams& p) {
    const Rows<float, I> a(p.a, 0);
    uint64_t mine = 0;
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.m; r += int64_t(gridDim.x) * blockDim.x)
        mine = max(mine, uint64_t(max(a.end(r) - a.begin(r), int64_t(0))));
    for (int o = WARP / 2; o > 0; o /= 2) mine = max(mine, uint64_t(__shfl_xor_sync(0xffffffffu, (unsigned long long)mine, o)));
    if (threadIdx.x % WARP == 0 && mine > 0) atomicMax(reinterpret_cast<unsigned long long*>(p.longest), (unsigned long long)mine);
}

// A plain call (SpmmRowsLongerParams): thread per row (grid-stride) of batch 0; any row longer
// than the limit sets the verdict word to this call's epoch (every such thread stores the same
// value, so no atomics), and the tiles take the call.
template <typename I>
__device__ void rows_longer_than(const SpmmRowsLongerParams& p) {
    const Rows<float, I> a(p.a, 0);
    bool longer = false;
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.m && !longer; r += int64_t(gridDim.x) * blockDim.x)
        longer = a.end(r) - a.begin(r) > p.limit;
    if (longer) *reinterpret_cast<volatile uint64_t*>(p.at) = p.epoch;
}

}  // namespace

extern "C" __global__ void oxs_spmm_rows_longer_than_i32(const SpmmRowsLongerParams p) { rows_longer_than<int32_t>(p); }
extern "C" __global__ void oxs_spmm_rows_longer_than_i64(const SpmmRowsLongerParams p) { rows_longer_than<int64_t>(p); }
extern "C" __global__ void oxs_spmm_longest_row_i32(const SpmmLongestRowParams p) { longest_row<int32_t>(p); }
extern "C" __global__ void oxs_spmm_longest_row_i64(const SpmmLongestRowParams p) { longest_row<int64_t>(p); }

// ---- instantiations ------------------------------------------------------------------------------

// The last argument is the blocks per multiprocessor the registers must allow. `_wide` is FP32
// only, `_half` FP64 only; `_x2` and `_wide_x2` FP32, FP64 and FP16 (the types they were
// measured on).
#define OXS_SHORT_ROWS_KERNEL(name, split, W, VECS, V, O, C, I, blocks)                                        \
    extern "C" __global__ void __launch_bounds__(BLOCK, blocks) name(const SpmmRowsParams p) { short_rows<split, false, W, VECS, V, O, C, I>(p); }

// Whole rows into a column-major C: FP32 and FP64, the shapes whole rows take (narrow, x2,
// wide_x2), both index types.
#define OXS_SHORT_ROWS_COLC_KERNEL(shape, W, VECS, sfx, V, idx, I)                                                        \
    extern "C" __global__ void __launch_bounds__(BLOCK, 4) oxs_spmm_short_rows_colc##shape##_##sfx##_##idx(const SpmmRowsParams p) { \
        short_rows<false, true, W, VECS, V, V, V, I>(p);                                                                   \
    }
// Split rows into a column-major C: FP32 and FP64, the shapes preprocess gives split rows (narrow,
// wide_x2, FP64's half), both index types.
#define OXS_SPLIT_ROWS_COLC_KERNEL(shape, W, VECS, sfx, V, idx, I)                                                        \
    extern "C" __global__ void __launch_bounds__(BLOCK, 4) oxs_spmm_split_rows_colc##shape##_##sfx##_##idx(const SpmmRowsParams p) { \
        short_rows<true, true, W, VECS, V, V, V, I>(p);                                                                   \
    }
#define OXS_SPLIT_ROWS_COLC_INDEX(idx, I)                                          \
    OXS_SPLIT_ROWS_COLC_KERNEL(, SLICE, 1, f32_f32_f32, float, idx, I)             \
    OXS_SPLIT_ROWS_COLC_KERNEL(_wide_x2, WIDE_SLICE, 2, f32_f32_f32, float, idx, I)  \
    OXS_SPLIT_ROWS_COLC_KERNEL(, SLICE, 1, f64_f64_f64, double, idx, I)            \
    OXS_SPLIT_ROWS_COLC_KERNEL(_wide_x2, WIDE_SLICE, 2, f64_f64_f64, double, idx, I) \
    OXS_SPLIT_ROWS_COLC_KERNEL(_half, HALF_SLICE, 1, f64_f64_f64, double, idx, I)
#define OXS_SHORT_ROWS_COLC_TYPE(sfx, V, idx, I)                         \
    OXS_SHORT_ROWS_COLC_KERNEL(, SLICE, 1, sfx, V, idx, I)               \
    OXS_SHORT_ROWS_COLC_KERNEL(_x2, SLICE, 2, sfx, V, idx, I)            \
    OXS_SHORT_ROWS_COLC_KERNEL(_wide_x2, WIDE_SLICE, 2, sfx, V, idx, I)

#define OXS_SHORT_ROWS_INDEX(sfx, V, O, C, I, idx, blocks)                                                      \
    OXS_SHORT_ROWS_KERNEL(oxs_spmm_short_rows_##sfx##_##idx, false, SLICE, 1, V, O, C, I, blocks)            \
    OXS_SHORT_ROWS_KERNEL(oxs_spmm_split_rows_##sfx##_##idx, true, SLICE, 1, V, O, C, I, blocks)

#define OXS_SHORT_ROWS(sfx, V, O, C, blocks) \
    OXS_SHORT_ROWS_INDEX(sfx, V, O, C, int32_t, i32, blocks) OXS_SHORT_ROWS_INDEX(sfx, V, O, C, int64_t, i64, blocks)

// The vectorised type combinations, as in kernels/spmm_tiles.cu.
// 4 blocks (64 registers) for every type: no spills but 8 bytes on FP32 / FP64.
OXS_SHORT_ROWS(f32_f32_f32, float, float, float, 4)
OXS_SHORT_ROWS(f64_f64_f64, double, double, double, 4)
OXS_SHORT_ROWS(f16_f16_f32, __half, __half, float, 4)
OXS_SHORT_ROWS(f16_f32_f32, __half, float, float, 4)
OXS_SHORT_ROWS(bf16_bf16_f32, __nv_bfloat16, __nv_bfloat16, float, 4)
OXS_SHORT_ROWS(bf16_f32_f32, __nv_bfloat16, float, float, 4)

#define OXS_SHORT_ROWS_SHAPE(shape, W, VECS, sfx, V, O, C, idx, I)                                              \
    OXS_SHORT_ROWS_KERNEL(oxs_spmm_short_rows##shape##_##sfx##_##idx, false, W, VECS, V, O, C, I, 4) \
    OXS_SHORT_ROWS_KERNEL(oxs_spmm_split_rows##shape##_##sfx##_##idx, true, W, VECS, V, O, C, I, 4)
// Two vectors a lane: FP32, FP64 and FP16 (src/kernels/spmm_row_shape.rs `RowShape::fits`).
#define OXS_SHORT_ROWS_X2(sfx, V, O, C, idx, I)                        \
    OXS_SHORT_ROWS_SHAPE(_x2, SLICE, 2, sfx, V, O, C, idx, I)          \
    OXS_SHORT_ROWS_SHAPE(_wide_x2, WIDE_SLICE, 2, sfx, V, O, C, idx, I)
// 16-byte vectors of 16-bit types (`_packed`: 64 columns, 8 lanes; `_packed_wide`: 128, 16 lanes).
#define OXS_PACKED_KERNEL(name, split, W, V, O, C, I) \
    extern "C" __global__ void __launch_bounds__(BLOCK, 4) name(const SpmmRowsParams p) { short_rows<split, false, W, 1, V, O, C, I, true>(p); }
#define OXS_PACKED_SHAPE(shape, W, sfx, V, O, C, idx, I)                                 \
    OXS_PACKED_KERNEL(oxs_spmm_short_rows##shape##_##sfx##_##idx, false, W, V, O, C, I) \
    OXS_PACKED_KERNEL(oxs_spmm_split_rows##shape##_##sfx##_##idx, true, W, V, O, C, I)
#define OXS_PACKED(sfx, V, O, C, idx, I)                          \
    OXS_PACKED_SHAPE(_packed, WIDE_SLICE, sfx, V, O, C, idx, I) \
    OXS_PACKED_SHAPE(_packed_wide, 2 * WIDE_SLICE, sfx, V, O, C, idx, I)
// A, B and C of one 16-bit type only: with FP32 C the split-row form spilled 24-28 bytes.
#define OXS_PACKED_TYPES(idx, I)                           \
    OXS_PACKED(f16_f16_f32, __half, __half, float, idx, I) \
    OXS_PACKED(bf16_bf16_f32, __nv_bfloat16, __nv_bfloat16, float, idx, I)
OXS_PACKED_TYPES(i32, int32_t)
OXS_PACKED_TYPES(i64, int64_t)
#define OXS_SHORT_ROWS_SHAPES(idx, I)                                                  \
    OXS_SHORT_ROWS_SHAPE(_wide, WIDE_SLICE, 1, f32_f32_f32, float, float, float, idx, I) \
    OXS_SHORT_ROWS_SHAPE(_half, HALF_SLICE, 1, f64_f64_f64, double, double, double, idx, I) \
    OXS_SHORT_ROWS_X2(f32_f32_f32, float, float, float, idx, I)                          \
    OXS_SHORT_ROWS_X2(f64_f64_f64, double, double, double, idx, I)                       \
    OXS_SHORT_ROWS_X2(f16_f16_f32, __half, __half, float, idx, I)
OXS_SHORT_ROWS_SHAPES(i32, int32_t)
OXS_SHORT_ROWS_SHAPES(i64, int64_t)
OXS_SHORT_ROWS_COLC_TYPE(f32_f32_f32, float, i32, int32_t)
OXS_SHORT_ROWS_COLC_TYPE(f32_f32_f32, float, i64, int64_t)
OXS_SHORT_ROWS_COLC_TYPE(f64_f64_f64, double, i32, int32_t)
OXS_SHORT_ROWS_COLC_TYPE(f64_f64_f64, double, i64, int64_t)
OXS_SPLIT_ROWS_COLC_INDEX(i32, int32_t)
OXS_SPLIT_ROWS_COLC_INDEX(i64, int64_t)
