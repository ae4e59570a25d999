// SpMM with a block-format A (opA = N), BSR and Blocked-ELL, on CUDA cores:
// C = alpha * A * op(B) + beta * C. (FP16, BF16 and, in the TF32 math modes, FP32 blocks of 16
// rows or more run on tensor cores instead: kernels/spmm_blocked_tc.cu.)
//
// A warp takes a slice of up to R rows of one block row and 32 * T columns of C (lane l holds
// columns l, l + 32, ...; an R x T register tile) and walks the block row's blocks in stored
// order, each block's columns in order:
//   load_b   the B row of the block column: T values a lane, read once for all R rows
//   load_a   the slice's R values of that column: warp-uniform loads, one transaction each
//   fma      the R x T tile
// so a B element read serves R rows instead of one, and every C element sums its products in
// one fixed order (results are reproducible). The warps of a thread block take consecutive
// slices of consecutive block rows of one column tile: the block rows of a mesh's neighbours
// share block columns, whose B rows then come from L1. op(B) and C are read and written through
// strides (src/kernels/params/spmm.rs), so every layout and op(B) is one kernel.
#include "common/spmm.cuh"
#include "common/blocked.cuh"

using namespace spmm;

namespace {

// Column chunks of 32 a lane holds: 4 for 4-byte compute types, fewer for wider ones (registers).
template <typename C>
__host__ __device__ constexpr int tile_chunks() {
    return sizeof(C) <= 4 ? 4 : sizeof(C) == 8 ? 2 : 1;
}

// One warp's item: slice `r0 .. r0 + rows` of block row `br`, columns from `j0`.
struct Item {
    int64_t br, r0, j0;
    int rows;
};

template <int R>
__device__ __forceinline__ Item item_of(const SpmmBlockedParams& p, int64_t item, int64_t per_tile, int64_t slices, int tile_cols) {
    Item it;
    const int64_t ct = item / per_tile, rem = item % per_tile;
    it.br = rem / slices;
    it.r0 = (rem % slices) * R;
    it.j0 = ct * tile_cols;
    it.rows = int(min(int64_t(R), p.row_block - it.r0));
    return it;
}

template <typename V, typename O, typename C, typename I, bool ELL, int R>
__device__ void block_rows(const SpmmBlockedParams& p) {
    constexpr int T = tile_chunks<C>();
    const blocked::BlockRows<V, I, ELL> a(p);
    const Dense<const V> b(p.b, 0);
    const Dense<O> c(p.c, 0);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const int lane = threadIdx.x % WARP;
    const int64_t k = p.shape.k, n = p.shape.n;
    const int64_t slices = (p.row_block + R - 1) / R;
    const int64_t per_tile = p.shape.m / p.row_block * slices;
    const int64_t items = per_tile * ((n + T * WARP - 1) / (T * WARP));
    const int64_t warps = int64_t(gridDim.x) * (blockDim.x / WARP);
    for (int64_t w = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / WARP; w < items; w += warps) {
        const Item it = item_of<R>(p, w, per_tile, slices, T * WARP);
        // Chunks of the tile that hold a column of C (the same for the whole warp): a narrow C
        // skips the others' loads and multiply-adds.
        const int live = int(min(int64_t(T), (n - it.j0 + WARP - 1) / WARP));
        // Lane l's column of chunk t, computed where used (an array of them cost registers).
        const int64_t j = it.j0 + lane;
        C acc[R][T];
#pragma unroll
        for (int t = 0; t < T; ++t)
#pragma unroll
            for (int r = 0; r < R; ++r) acc[r][t] = zero<C>();
        // The next block's column is loaded during this block's work: a block row of small blocks
        // would otherwise wait on each index before its B loads.
        const int64_t first = a.begin(it.br), end = a.end(it.br);
        int64_t next = first < end ? a.col0(first, k) : -1;
        for (int64_t q = first; q < end; ++q) {
            const int64_t col0 = next;
            if (q + 1 < end) next = a.col0(q + 1, k);
            if (col0 < 0) continue;
            const V* av = a.at(it.br, q, it.r0);
            const int64_t row_step = a.row_step(), col_step = a.col_step();
            const int64_t width = min(p.col_block, k - col0);
#pragma unroll 2
            for (int64_t cc = 0; cc < width; ++cc) {
                // load_b: op(B)(col0 + cc, j), once for the slice's rows.
                C bv[T];
#pragma unroll
                for (int t = 0; t < T; ++t)
                    bv[t] = (t < live && j + t * WARP < n) ? b.template read<C>(col0 + cc, j + t * WARP) : zero<C>();
                // load_a and fma: the slice's values of column cc, the same for every lane.
#pragma unroll
                for (int r = 0; r < R; ++r) {
                    if (r < it.rows) {
                        const C x = to_compute<C>(av[r * row_step + cc * col_step]);
#pragma unroll
                        for (int t = 0; t < T; ++t)
                            if (t < live) acc[r][t] = acc[r][t] + x * bv[t];
                    }
                }
            }
        }
        const int64_t row0 = it.br * p.row_block + it.r0;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (r >= it.rows) break;
#pragma unroll
            for (int t = 0; t < T; ++t)
                if (j + t * WARP < n) write_out(c, row0 + r, j + t * WARP, acc[r][t], alpha, beta, read_c);
        }
    }
}

}  // namespace

// Slices of R = 1 (blocks of one row), 4 (2 to 4 rows) or 8 rows (taller blocks are cut into
// slices of 8), chosen by src/ops/spmm/blocked.rs.
#define OXS_KERNEL(name, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK) name(const SpmmBlockedParams p) { body; }

#define OXS_BLOCKED_R(sfx, V, O, C, R)                                                           \
    OXS_KERNEL(oxs_spmm_bsr_##sfx##_i32_r##R, (block_rows<V, O, C, int32_t, false, R>(p)))     \
    OXS_KERNEL(oxs_spmm_bsr_##sfx##_i64_r##R, (block_rows<V, O, C, int64_t, false, R>(p)))     \
    OXS_KERNEL(oxs_spmm_bell_##sfx##_i32_r##R, (block_rows<V, O, C, int32_t, true, R>(p)))     \
    OXS_KERNEL(oxs_spmm_bell_##sfx##_i64_r##R, (block_rows<V, O, C, int64_t, true, R>(p)))

#define OXS_BLOCKED(sfx, V, O, C) OXS_BLOCKED_R(sfx, V, O, C, 1) OXS_BLOCKED_R(sfx, V, O, C, 4) OXS_BLOCKED_R(sfx, V, O, C, 8)

OXS_SPMM_TYPES(OXS_BLOCKED)
