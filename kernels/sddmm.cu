// SDDMM: C = alpha * (op(A) * op(B)) o spy(C) + beta * C, computed on C's stored values only.
//
// Every stored value of C (a CSR entry, or one value of a BSR block) is the dot product of a line
// of A (op(A)'s row) and a line of B (op(B)'s column), k contiguous elements each: the plan
// (src/ops/sddmm/plan.rs) has copied an operand whose lines are not contiguous into the workspace
// first. The kernel is a pipeline of three stages per warp:
//   1. find the row (block row) of the warp's first stored value: a warp-wide search of C's offsets;
//   2. take the warp's run of stored values `32 / group` at a time, each group of `group` lanes
//      following the rows to its value's row and column;
//   3. the group's dot product (16-byte loads of both lines, A's kept in registers while the row
//      stays, then a butterfly sum), written by its first lane as alpha * dot + beta * C (C is not
//      read when beta is 0).
// Runs are equal in length whatever the rows look like, so a hub row is shared by many warps and
// short rows share one. The summation order depends only on k, `group` and `vectors`: results are
// the same bits run to run.
#include "oxsparse_kernel_params.h"
#include "common/spmm.cuh"
#include "common/row_search.cuh"
#include <stdint.h>

namespace {

using spmm::WARP;
// Threads per block; must match BLOCK in src/ops/sddmm/plan.rs.
constexpr int BLOCK = 256;
// Bytes a lane loads at once from a line; must match VECTOR_BYTES in src/ops/sddmm/plan.rs.
constexpr int VECTOR_BYTES = 16;
// The copy kernel's tile (TILE x TILE elements) and its rows of threads.
constexpr int TILE = 32;
constexpr int TILE_ROWS = 8;

// A dense operand read as lines of k contiguous elements.
template <typename T>
struct Lines {
    const T* values;
    int64_t ld;
    __device__ Lines(const SddmmLines& l, int64_t batch) : values(reinterpret_cast<const T*>(l.values) + batch * l.batch_stride), ld(l.ld) {}
    __device__ const T* line(int64_t i) const { return values + i * ld; }
};

// ---- butterfly sums over a group of lanes --------------------------------------------------------
__device__ __forceinline__ float shfl_xor(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ double shfl_xor(double v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ float2 shfl_xor(float2 v, int m) { return make_float2(shfl_xor(v.x, m), shfl_xor(v.y, m)); }
__device__ __forceinline__ double2 shfl_xor(double2 v, int m) { return make_double2(shfl_xor(v.x, m), shfl_xor(v.y, m)); }

// The sum of `v` over the calling lane's group of `group` lanes (a power of two), on every lane of
// the group, bitwise the same (each level adds the same two values). Every lane of the warp calls it.
template <typename C>
__device__ C group_sum(C v, int group) {
    for (int m = group / 2; m > 0; m /= 2) v = v + shfl_xor(v, m);
    return v;
}

// ---- stage 1 and 2: rows -------------------------------------------------------------------------
// The row holding stored block `q` (a value for CSR), at or after `row`: rows are followed in
// order, and a run of empty rows is crossed by a binary search instead of one step at a time.
// `q` lies before the end of the last row.
template <typename V, typename I>
__device__ int64_t advance(const spmm::Rows<V, I>& c, int64_t rows, int64_t row, int64_t q) {
    if (c.end(row) > q) return row;
    if (c.end(row + 1) > q) return row + 1;
    int64_t lo = row + 2, hi = rows - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (c.end(mid) > q) hi = mid; else lo = mid + 1;
    }
    return lo;
}

// ---- stage 3: the dot product --------------------------------------------------------------------
// op(A)'s 16-byte vectors of a lane, kept in registers while its group stays on one line of A
// (a row of C): vectors sub, sub + group, ... up to CACHED of them.
constexpr int CACHED = 4;

struct LineCache {
    uint4 v[CACHED];
    int64_t line = -1;
};

// sum + the products of the elements of two 16-byte vectors, in element order.
template <typename T, typename C>
__device__ __forceinline__ C dot16(C sum, const uint4& va, const uint4& vb) {
    constexpr int N = VECTOR_BYTES / sizeof(T);
    const T* ea = reinterpret_cast<const T*>(&va);
    const T* eb = reinterpret_cast<const T*>(&vb);
#pragma unroll
    for (int e = 0; e < N; ++e) sum = sum + to_compute<C>(ea[e]) * to_compute<C>(eb[e]);
    return sum;
}

// Lane `sub` of its group's share of line(A, i) . line(B): when `vectors` (both lines start on 16
// bytes) the 16-byte vectors sub, sub + group, ... (A's first CACHED from `cache`, reloaded when
// the line changes), then the single elements past the last whole vector; else single elements
// sub, sub + group, ... The order of the sum depends only on k, `group` and `vectors`.
template <typename T, typename C>
__device__ C partial_dot(LineCache& cache, int64_t i, const T* a, const T* b, int64_t k, int sub, int group, bool vectors) {
    C sum = zero<C>();
    int64_t tail = 0;
    if (vectors) {
        constexpr int N = VECTOR_BYTES / sizeof(T);
        const uint4* va = reinterpret_cast<const uint4*>(a);
        const uint4* vb = reinterpret_cast<const uint4*>(b);
        const int64_t whole = k / N;
        const bool reload = cache.line != i;
        cache.line = i;
#pragma unroll
        for (int t = 0; t < CACHED; ++t) {
            const int64_t v = sub + int64_t(t) * group;
            if (v < whole) {
                if (reload) cache.v[t] = __ldg(va + v);
                sum = dot16<T, C>(sum, cache.v[t], __ldg(vb + v));
            }
        }
        for (int64_t v = sub + int64_t(CACHED) * group; v < whole; v += group) sum = dot16<T, C>(sum, __ldg(va + v), __ldg(vb + v));
        tail = whole * N;
    }
    for (int64_t e = tail + sub; e < k; e += group) sum = sum + to_compute<C>(a[e]) * to_compute<C>(b[e]);
    return sum;
}

// T: A's and B's storage type; TC: C's; C: the compute type; I: C's index type; BSR: C's format.
template <typename T, typename TC, typename C, typename I, bool BSR>
__device__ void sddmm(const SddmmParams& p) {
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
    LineCache cache;

    for (int64_t step = first; step < last; step += per_step) {
        // 2. This group's value, its row and column (j = -1: a column outside C, no product).
        const int64_t q = step + lane / group;
        const bool live = q < last;
        int64_t i = 0, j = -1;
        if (live) {
            const int64_t blk = BSR ? q / area : q;
            row = advance(c, p.rows, row, blk);
            if (BSR) {
                const int64_t within = q - blk * area;
                const int64_t bi = p.col_major_blocks ? within % p.row_block : within / p.col_block;
                const int64_t bj = p.col_major_blocks ? within / p.row_block : within % p.col_block;
                const int64_t col = (int64_t(c.cols[blk]) - c.base) * p.col_block + bj;
                i = row * p.row_block + bi;
                j = (col >= 0 && col < p.n) ? col : -1;
            } else {
                i = row;
                j = c.col(q, p.n);
            }
        }
        // 3. The dot product, and the value written.
        C dot = zero<C>();
        if (products && live && j >= 0) dot = partial_dot<T, C>(cache, i, a.line(i), b.line(j), p.k, sub, group, p.vectors != 0);
        dot = group_sum(dot, group);
        if (live && sub == 0) {
            C v = products ? alpha * dot : zero<C>();
            if (read_c) v = v + beta * to_compute<C>(out[q]);
            out[q] = from_compute<TC>(v);
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

#define OXS_SDDMM_ONE(FMT, BSR, AB, CN, T, TC, C, IS, I)                                                      \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sddmm_##FMT##_##AB##_##CN##_##IS(const SddmmParams p) { \
        sddmm<T, TC, C, I, BSR>(p);                                                                           \
    }

#define OXS_SDDMM(AB, CN, T, TC, C)                          \
    OXS_SDDMM_ONE(csr, false, AB, CN, T, TC, C, i32, int32_t) \
    OXS_SDDMM_ONE(csr, false, AB, CN, T, TC, C, i64, int64_t) \
    OXS_SDDMM_ONE(bsr, true, AB, CN, T, TC, C, i32, int32_t)  \
    OXS_SDDMM_ONE(bsr, true, AB, CN, T, TC, C, i64, int64_t)

OXS_SDDMM_TYPES(OXS_SDDMM)

#define OXS_SDDMM_COPY(BYTES, W) \
    extern "C" __global__ void __launch_bounds__(TILE * TILE_ROWS) oxs_sddmm_copy_lines_w##BYTES(const SddmmCopyParams p) { copy_lines<W>(p); }

OXS_SDDMM_COPY(2, uint16_t)
OXS_SDDMM_COPY(4, uint32_t)
OXS_SDDMM_COPY(8, uint2)
OXS_SDDMM_COPY(16, uint4)
