// SpMM with a block-format A (opA = N), BSR and Blocked-ELL, on CUDA cores:
// C = alpha * A * op(B) + beta * C. (FP16, BF16 and, in the TF32 math modes, FP32 blocks of 16
// rows or more run on tensor cores instead: kernels/spmm_blocked_tc_async.cu and
// kernels/spmm_blocked_tc.cu.)
//
// A group of G lanes takes a slice of up to R rows of one block row and G * T columns of C (lane
// l of the group holds T consecutive columns; an R x T register tile). G is the fewest lanes, a
// power of two up to 32, whose columns cover N, so that a narrow C still keeps every lane busy and
// a warp works on 32 / G slices at once. The group walks the block row's blocks in stored order,
// each block's columns U at a time:
//   load_b   the U B rows of the step: T values a lane (one vector load where op(B) allows)
//   load_a   the slice's R x U values of the step (the same for the group's lanes; a vector a
//            row where the block's rows are contiguous and aligned), all issued before any use
//   fma      the R x T tile, column by column
// so a B element read serves R rows, each step's loads are in flight together, and every C
// element sums its products in one fixed order (results are reproducible). Consecutive groups
// take consecutive slices of consecutive block rows of one column tile: the block rows of a
// mesh's neighbours share block columns, whose B rows then come from L1. op(B) and C are read and
// written through strides (src/kernels/params/spmm.rs), so every layout and op(B) is one kernel.
#include "common/spmm.cuh"
#include "common/blocked.cuh"

using namespace spmm;

namespace {

// Consecutive columns of C a lane holds: 4 up to 8-byte compute types (FP64 at 2 columns a lane
// took twice as many warps, each with half the loads in flight), 1 for 16-byte ones (registers).
// Mirrored by `blocked_group` in src/kernels/spmm.rs.
template <typename C>
__host__ __device__ constexpr int lane_columns() {
    return sizeof(C) <= 8 ? 4 : 1;
}

// Lanes of a group: the fewest, a power of two up to a warp, whose T columns each cover n
// (mirrored by `blocked_group` in src/kernels/spmm.rs).
__device__ __forceinline__ int group_lanes(int64_t n, int t) {
    int g = 1;
    while (g < WARP && int64_t(g) * t < n) g *= 2;
    return g;
}

// Whether N elements of T are one vector access (load_vec, store_vec).
template <typename T, int N>
__host__ __device__ constexpr bool vector_sized() {
    return sizeof(T) * N == 8 || sizeof(T) * N % 16 == 0;
}

template <typename T, int N>
__device__ __forceinline__ bool aligned(const T* p) {
    return reinterpret_cast<uintptr_t>(p) % (sizeof(T) * N) == 0;
}

// One group's item: slice `r0 .. r0 + rows` of block row `br`, the lane's columns from `j`.
struct Item {
    int64_t br, r0, j;
    int rows;
};

template <typename V, typename O, typename C, typename I, bool ELL, int R>
__device__ void block_rows(const SpmmBlockedParams& p) {
    constexpr int T = lane_columns<C>();
    // Block columns a step: fewer where a column's R values of A are wide (registers: two
    // thread blocks a multiprocessor without spills for the common types).
    constexpr int U = R * sizeof(C) <= 16 ? 4 : R * sizeof(C) <= 32 ? 2 : 1;
    const blocked::BlockRows<V, I, ELL> a(p);
    const Dense<const V> b(p.b, 0);
    const Dense<O> c(p.c, 0);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const int64_t k = p.shape.k, n = p.shape.n;
    const int g = group_lanes(n, T), sub = threadIdx.x % g;
    const int64_t width = int64_t(g) * T;
    const int64_t slices = (p.row_block + R - 1) / R;
    const int64_t per_tile = p.shape.m / p.row_block * slices;
    const int64_t items = per_tile * ((n + width - 1) / width);
    const int64_t groups = int64_t(gridDim.x) * (blockDim.x / g);
    // op(B) rows whose T columns at a lane are one aligned vector (the same for every call site).
    bool vec_b = false, vec_c = false;
    if constexpr (vector_sized<V, T>())
        vec_b = b.col_stride == 1 && b.row_stride % T == 0 && aligned<V, T>(b.values);
    if constexpr (vector_sized<O, T>())
        vec_c = c.col_stride == 1 && c.row_stride % T == 0 && aligned<O, T>(c.values);
    const int64_t row_step = a.row_step(), col_step = a.col_step();
    for (int64_t gi = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / g; gi < items; gi += groups) {
        Item it;
        {
            const int64_t ct = gi / per_tile, rem = gi % per_tile;
            it.br = rem / slices;
            it.r0 = (rem % slices) * R;
            it.j = ct * width + int64_t(sub) * T;
            it.rows = int(min(int64_t(R), p.row_block - it.r0));
        }
        // Lane columns that hold a column of C; a lane with none still loads A (its group's loads
        // are the same) but no B.
        const int live = int(max(int64_t(0), min(int64_t(T), n - it.j)));
        const bool whole = live == T;
        C acc[R][T];
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int t = 0; t < T; ++t) acc[r][t] = zero<C>();
        // The next block's column is loaded during this block's work: a block row of small blocks
        // would otherwise wait on each index before its B loads.
        const int64_t first = a.begin(it.br), end = a.end(it.br);
        int64_t next = first < end ? a.col0(first, k) : -1;
        for (int64_t q = first; q < end; ++q) {
            const int64_t col0 = next;
            if (q + 1 < end) next = a.col0(q + 1, k);
            if (col0 < 0) continue;
            const V* av = a.at(it.br, q, it.r0);
            const V* brow = b.at(col0, it.j);
            const int cols = int(min(p.col_block, k - col0));
            // A's rows as vectors of U: contiguous columns, every row and step on a vector boundary.
            const bool vec_a = vector_sized<V, U>() && col_step == 1 && row_step % U == 0 && aligned<V, U>(av);
            for (int c0 = 0; c0 < cols; c0 += U) {
                // load_b: op(B)(col0 + c0 + u, lane's columns), zero past the block.
                C bv[U][T];
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    const bool in = c0 + u < cols;
                    const V* src = brow + (in ? c0 + u : 0) * b.row_stride;
                    if (vec_b && whole) {
                        Vec<V, T> x;
                        if constexpr (vector_sized<V, T>()) {
                            if (in) x = load_vec<V, T>(src);
                        }
#pragma unroll
                        for (int t = 0; t < T; ++t) {
                            const C v = to_compute<C>(x.v[t]);
                            bv[u][t] = !in ? zero<C>() : b.conj ? ::conj(v) : v;
                        }
                    } else {
#pragma unroll
                        for (int t = 0; t < T; ++t) {
                            bv[u][t] = zero<C>();
                            if (in && t < live) {
                                const C v = to_compute<C>(src[t * b.col_stride]);
                                bv[u][t] = b.conj ? ::conj(v) : v;
                            }
                        }
                    }
                }
                // load_a: rows past the slice read its last row (never used), columns past the
                // block nothing.
                C x[R][U];
                const bool full = c0 + U <= cols;
#pragma unroll
                for (int r = 0; r < R; ++r) {
                    const V* row = av + int64_t(min(r, it.rows - 1)) * row_step + int64_t(c0) * col_step;
                    bool done = false;
                    if constexpr (vector_sized<V, U>()) {
                        if (vec_a && full) {
                            const Vec<V, U> v = load_vec<V, U>(row);
#pragma unroll
                            for (int u = 0; u < U; ++u) x[r][u] = to_compute<C>(v.v[u]);
                            done = true;
                        }
                    }
                    if (!done) {
#pragma unroll
                        for (int u = 0; u < U; ++u) x[r][u] = c0 + u < cols ? to_compute<C>(row[u * col_step]) : zero<C>();
                    }
                }
                // fma: columns in order, so each C element's sum has one order whatever the step.
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    if (c0 + u >= cols) break;
#pragma unroll
                    for (int r = 0; r < R; ++r)
                        if (r < it.rows)
#pragma unroll
                            for (int t = 0; t < T; ++t) acc[r][t] = acc[r][t] + x[r][u] * bv[u][t];
                }
            }
        }
        const int64_t row0 = it.br * p.row_block + it.r0;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (r >= it.rows) break;
            if (vec_c && whole) {
                if constexpr (vector_sized<O, T>()) {
                    Acc<C, T> out;
#pragma unroll
                    for (int t = 0; t < T; ++t) out.v[t] = acc[r][t];
                    write_c<O, C, T>(c, row0 + r, it.j, out, alpha, beta, read_c);
                }
            } else {
#pragma unroll
                for (int t = 0; t < T; ++t)
                    if (t < live) write_out(c, row0 + r, it.j + t, acc[r][t], alpha, beta, read_c);
            }
        }
    }
}

}  // namespace

// Slices of R = 1 (blocks of one row), 4 (2 to 4 rows) or 8 rows (taller blocks are cut into
// slices of 8), chosen by src/ops/spmm/blocked.rs (`slice_rows`), which never names r8 for 8-byte
// compute types: theirs are the r4 walk, which spares compiling a kernel that spills.
template <typename C, int R>
__host__ __device__ constexpr int slice_rows() {
    return sizeof(C) == 8 && R > 4 ? 4 : R;
}

#define OXS_KERNEL(name, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK, 2) name(const SpmmBlockedParams p) { body; }

#define OXS_BLOCKED_R(sfx, V, O, C, R)                                                                        \
    OXS_KERNEL(oxs_spmm_bsr_##sfx##_i32_r##R, (block_rows<V, O, C, int32_t, false, slice_rows<C, R>()>(p)))   \
    OXS_KERNEL(oxs_spmm_bsr_##sfx##_i64_r##R, (block_rows<V, O, C, int64_t, false, slice_rows<C, R>()>(p)))   \
    OXS_KERNEL(oxs_spmm_bell_##sfx##_i32_r##R, (block_rows<V, O, C, int32_t, true, slice_rows<C, R>()>(p)))   \
    OXS_KERNEL(oxs_spmm_bell_##sfx##_i64_r##R, (block_rows<V, O, C, int64_t, true, slice_rows<C, R>()>(p)))

#define OXS_BLOCKED(sfx, V, O, C) OXS_BLOCKED_R(sfx, V, O, C, 1) OXS_BLOCKED_R(sfx, V, O, C, 4) OXS_BLOCKED_R(sfx, V, O, C, 8)

OXS_SPMM_TYPES(OXS_BLOCKED)
