// SDDMM: C = alpha * (op(A) * op(B)) o spy(C) + beta * C, computed on C's stored values only.
//
// Every stored value of C (a CSR entry, or one value of a BSR block) is the dot product of a line
// of A (op(A)'s row) and a line of B (op(B)'s column), k contiguous elements each: the plan
// (src/ops/sddmm/plan.rs) has copied an operand whose lines are not contiguous into the workspace
// first. The kernel is a pipeline of three stages per warp:
//   1. find the row (block row) of the warp's first stored value: a warp-wide search of C's offsets;
//   2. take the warp's run of stored values `U * 32 / group` at a time, each group of `group`
//      lanes following the rows to its U values' rows and columns;
//   3. the group's U dot products (16-byte loads of both lines, all U in flight, A's kept in
//      registers while the row stays, then butterfly sums), written by its first lane as
//      alpha * dot + beta * C (C is not read when beta is 0).
// Runs are equal in length whatever the rows look like, so a hub row is shared by many warps and
// short rows share one. The summation order depends only on k, `group` and `vectors`: results are
// the same bits run to run.
#include "common/sddmm.cuh"

namespace {

using namespace sddmm_shared;
// The copy kernel's tile (TILE x TILE elements) and its rows of threads.
constexpr int TILE = 32;
constexpr int TILE_ROWS = 8;

// ---- stage 3: the dot products -------------------------------------------------------------------
// A group takes U values a step, their loads in flight together (a lone gather waits a whole trip
// to L2). A lane keeps its vectors of one line of A (vectors sub, sub + group, ... up to CACHED) in
// registers while its group stays on that line (a row of C). The shapes (U, CACHED) by the
// vectors a lane reads per line: one (k <= 32 in FP32), two, or more.
template <int U_, int CACHED_>
struct Shape {
    static constexpr int U = U_;
    static constexpr int CACHED = CACHED_;
};

template <int CACHED>
struct LineCache {
    uint4 v[CACHED];
    int64_t line = -1;
};

// One lane's share of U dot products line(A, i[u]) . line(B, j[u]) (those with on[u]): when
// `vectors` (every line starts on 16 bytes) the 16-byte vectors sub, sub + group, ..., then the
// single elements past the last whole vector; else single elements sub, sub + group, ... Each
// sum's order depends only on k, `group` and `vectors`, never on U or on the cache.
template <typename T, typename C, typename S>
__device__ void partial_dots(C (&sum)[S::U], LineCache<S::CACHED>& cache, const Lines<T>& a, const Lines<T>& b,
                             const int64_t (&i)[S::U], const int64_t (&j)[S::U], const bool (&on)[S::U], int64_t k, int sub,
                             int group, bool vectors) {
    constexpr int U = S::U, CACHED = S::CACHED;
#pragma unroll
    for (int u = 0; u < U; ++u) sum[u] = zero<C>();
    int64_t tail = 0;
    if (vectors) {
        constexpr int N = VECTOR_BYTES / sizeof(T);
        const int64_t whole = k / N;
        const uint4* va[U];
        const uint4* vb[U];
        bool cached[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            va[u] = reinterpret_cast<const uint4*>(a.line(i[u]));
            vb[u] = reinterpret_cast<const uint4*>(b.line(j[u]));
        }
        // The first value's line of A comes into the cache; a value on another line reads its own.
        if (on[0] && cache.line != i[0]) {
#pragma unroll
            for (int t = 0; t < CACHED; ++t) {
                const int64_t v = sub + int64_t(t) * group;
                if (v < whole) cache.v[t] = __ldg(va[0] + v);
            }
            cache.line = i[0];
        }
#pragma unroll
        for (int u = 0; u < U; ++u) cached[u] = i[u] == cache.line;
#pragma unroll
        for (int t = 0; t < CACHED; ++t) {
            const int64_t v = sub + int64_t(t) * group;
            if (v < whole) {
                uint4 bv[U];
#pragma unroll
                for (int u = 0; u < U; ++u)
                    if (on[u]) bv[u] = __ldg(vb[u] + v);
#pragma unroll
                for (int u = 0; u < U; ++u)
                    if (on[u]) sum[u] = dot16<T, C>(sum[u], cached[u] ? cache.v[t] : __ldg(va[u] + v), bv[u]);
            }
        }
        for (int64_t v = sub + int64_t(CACHED) * group; v < whole; v += group) {
            uint4 bv[U];
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (on[u]) bv[u] = __ldg(vb[u] + v);
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (on[u]) sum[u] = dot16<T, C>(sum[u], __ldg(va[u] + v), bv[u]);
        }
        tail = whole * N;
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
        if (!on[u]) continue;
        const T* al = a.line(i[u]);
        const T* bl = b.line(j[u]);
        for (int64_t e = tail + sub; e < k; e += group) sum[u] = sum[u] + to_compute<C>(al[e]) * to_compute<C>(bl[e]);
    }
}

// T: A's and B's storage type; TC: C's; C: the compute type; I: C's index type; BSR: C's format;
// S: the shape (values a group takes a step, A's vectors a lane keeps).
template <typename T, typename TC, typename C, typename I, bool BSR, typename S>
__device__ void sddmm(const SddmmParams& p) {
    constexpr int U = S::U;
    const int lane = threadIdx.x % WARP;
    const int64_t warp = (int64_t(blockIdx.x) * BLOCK + threadIdx.x) / WARP;
    const int64_t first = warp * p.entries_per_warp;
    if (first >= p.stored) return;  // the whole warp
    const int64_t last = min(first + p.entries_per_warp, p.stored);
    const int64_t batch = blockIdx.y;
    const spmm::Rows<TC, I> c(p.c, batch);
    TC* out = reinterpret_cast<TC*>(p.c.values) + batch * p.c.values_batch_stride;
    const Lines<T> a(p.a, batch), b(p.b, batch);
    const C alpha = load_scalar<C>(p.alpha), beta = load_scalar<C>(p.beta);
    const bool products = p.k > 0 && !is_zero(alpha);
    const bool read_c = !is_zero(beta);
    const int group = p.group, sub = lane % group, per_step = WARP / group;
    const int64_t area = BSR ? p.row_block * p.col_block : 1;

    // 1. The row of the warp's first value.
    int64_t row = row_search::warp_lower_bound(c, p.rows, first / area + 1) - 1;
    LineCache<S::CACHED> cache;

    for (int64_t step = first; step < last; step += int64_t(per_step) * U) {
        // 2. This group's U values (q, q + per_step, ...), their rows and columns (j = -1: a
        // column outside C, no product).
        int64_t q[U], i[U], j[U];
        bool live[U], on[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            q[u] = step + lane / group + int64_t(u) * per_step;
            live[u] = q[u] < last;
            i[u] = 0;
            j[u] = -1;
            if (live[u]) {
                const int64_t blk = BSR ? q[u] / area : q[u];
                row = advance([&](int64_t r) { return c.end(r); }, p.rows, row, blk);
                if (BSR) {
                    const int64_t within = q[u] - blk * area;
                    const int64_t bi = p.col_major_blocks ? within % p.row_block : within / p.col_block;
                    const int64_t bj = p.col_major_blocks ? within / p.row_block : within % p.col_block;
                    const int64_t col = (int64_t(c.cols[blk]) - c.base) * p.col_block + bj;
                    i[u] = row * p.row_block + bi;
                    j[u] = (col >= 0 && col < p.n) ? col : -1;
                } else {
                    i[u] = row;
                    j[u] = c.col(q[u], p.n);
                }
            }
            on[u] = products && live[u] && j[u] >= 0;
        }
        // 3. The dot products, summed over the group, and the values written.
        C dot[U];
        partial_dots<T, C, S>(dot, cache, a, b, i, j, on, p.k, sub, group, p.vectors != 0);
#pragma unroll
        for (int u = 0; u < U; ++u) {
            dot[u] = group_sum(dot[u], group);
            if (live[u] && sub == 0) {
                C v = products ? alpha * dot[u] : zero<C>();
                if (read_c) v = v + beta * to_compute<C>(out[q[u]]);
                out[q[u]] = from_compute<TC>(v);
            }
        }
    }
}

// ---- the copy of an operand into contiguous lines ------------------------------------------------
// A tile of TILE lines x TILE elements goes through shared memory: read with the lanes along the
// source's contiguous direction (across lines), written with them along the destination's (along a line).
template <typename W>
__device__ void copy_lines(const SddmmCopyParams& p) {
    __shared__ W tile[TILE][TILE + 1];
    const W* src = reinterpret_cast<const W*>(p.src) + int64_t(blockIdx.z) * p.src_batch_stride;
    W* dst = reinterpret_cast<W*>(p.dst) + int64_t(blockIdx.z) * p.dst_batch_stride;
    const int64_t line0 = int64_t(blockIdx.x) * TILE;
    const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    for (int64_t e0 = int64_t(blockIdx.y) * TILE; e0 < p.len; e0 += int64_t(gridDim.y) * TILE) {
        for (int r = ty; r < TILE; r += TILE_ROWS) {
            const int64_t line = line0 + tx, e = e0 + r;
            if (line < p.lines && e < p.len) tile[r][tx] = src[line * p.line_stride + e * p.elem_stride];
        }
        __syncthreads();
        for (int r = ty; r < TILE; r += TILE_ROWS) {
            const int64_t line = line0 + r, e = e0 + tx;
            if (line < p.lines && e < p.len) dst[line * p.dst_ld + e] = tile[tx][r];
        }
        __syncthreads();
    }
}

}  // namespace

// ---- instantiations: oxs_sddmm_<format>_<ab>_<c>_<index>, oxs_sddmm_copy_lines_w<bytes> ----------
// The type combinations of src/ops/sddmm/check.rs: (A and B, C) storage names and types, compute type.
#define OXS_SDDMM_TYPES(X)                          \
    X(f32, f32, float, float, float)                \
    X(f64, f64, double, double, double)             \
    X(c32, c32, float2, float2, float2)             \
    X(c64, c64, double2, double2, double2)          \
    X(f16, f32, __half, float, float)               \
    X(f16, f16, __half, __half, float)              \
    X(bf16, f32, __nv_bfloat16, float, float)       \
    X(bf16, bf16, __nv_bfloat16, __nv_bfloat16, float)

// Shapes: x4 (4 values a step, 1 cached vector), x2 (2, 2), x1 (1, 4); src/ops/sddmm/plan.rs `Unroll`.
#define OXS_SDDMM_ONE(FMT, BSR, AB, CN, T, TC, C, IS, I, SN, U, CACHED)                                         \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sddmm_##FMT##_##AB##_##CN##_##IS##_##SN(const SddmmParams p) { \
        sddmm<T, TC, C, I, BSR, Shape<U, CACHED>>(p);                                                           \
    }

#define OXS_SDDMM_SHAPES(FMT, BSR, AB, CN, T, TC, C, IS, I)      \
    OXS_SDDMM_ONE(FMT, BSR, AB, CN, T, TC, C, IS, I, x4, 4, 1) \
    OXS_SDDMM_ONE(FMT, BSR, AB, CN, T, TC, C, IS, I, x2, 2, 2) \
    OXS_SDDMM_ONE(FMT, BSR, AB, CN, T, TC, C, IS, I, x1, 1, 4)

#define OXS_SDDMM(AB, CN, T, TC, C)                             \
    OXS_SDDMM_SHAPES(csr, false, AB, CN, T, TC, C, i32, int32_t) \
    OXS_SDDMM_SHAPES(csr, false, AB, CN, T, TC, C, i64, int64_t) \
    OXS_SDDMM_SHAPES(bsr, true, AB, CN, T, TC, C, i32, int32_t)  \
    OXS_SDDMM_SHAPES(bsr, true, AB, CN, T, TC, C, i64, int64_t)

OXS_SDDMM_TYPES(OXS_SDDMM)

#define OXS_SDDMM_COPY(BYTES, W) \
    extern "C" __global__ void __launch_bounds__(TILE * TILE_ROWS) oxs_sddmm_copy_lines_w##BYTES(const SddmmCopyParams p) { copy_lines<W>(p); }

OXS_SDDMM_COPY(2, uint16_t)
OXS_SDDMM_COPY(4, uint32_t)
OXS_SDDMM_COPY(8, uint2)
OXS_SDDMM_COPY(16, uint4)
