// Staging for column-major SpMM operands: the vectorised row kernels want op(B) and C row-major,
// so a column-major (or transposed) op(B) is first copied into a row-major scratch, and a
// column-major C is produced in a row-major scratch of the compute type and then written back as
// C = alpha * scratch + beta * C.
//
// Both copies move TILE x TILE tiles through shared memory (kept there as [column][row]):
//  1. load: from a column-major side, threads run down the columns, TILE / STEP elements a thread
//     in flight (STEP: the columns a block's threads cover at once); from a row-major side, along
//     the rows in 16-byte vectors;
//  2. store: the other way round.
// Why vectors, several elements a thread and 64 x 64 tiles on large operands: the
// former 32 x 32 tiles of one element a thread and direction moved B at about 2.9 TB/s (read +
// write; delaunay_n16's 33.5 MB: 23.5 us, now 20.5 us, L2 flushed).
#include "common/spmm.cuh"

using namespace spmm;

namespace {

// Tiles of TILE x TILE elements: SPMM_STAGE_TILE (64) for operands of a wave of blocks or more,
// half that for smaller ones, which the larger tiles left to too few blocks (cryg2500's B, 1.3 MB:
// 80 blocks, 4.45 us against 3.94 with 316 blocks of 32 x 32; src/kernels/spmm.rs `stage_tile`).
template <typename T, int TILE>
using Tile = T[TILE][TILE + 1];  // [column][row], padded against bank conflicts

// ---- stage 1: a tile into shared memory ----------------------------------------------------------

// Down the columns (src's rows contiguous: row_stride 1): thread t takes row t % TILE of columns
// t / TILE + i * STEP, all of its loads issued before any is stored.
template <int TILE, typename T, typename S>
__device__ __forceinline__ void load_down(Tile<S, TILE>& tile, const Dense<const T>& src, int64_t rows, int64_t cols, int64_t r0, int64_t c0) {
    constexpr int STEP = BLOCK / TILE;
    const int rr = threadIdx.x % TILE, c_first = threadIdx.x / TILE;
    const int64_t r = r0 + rr;
    S v[TILE / STEP];
#pragma unroll
    for (int i = 0; i < TILE / STEP; ++i) {
        const int64_t c = c0 + c_first + i * STEP;
        v[i] = r < rows && c < cols ? to_compute<S>(__ldg(src.at(r, c))) : zero<S>();
    }
#pragma unroll
    for (int i = 0; i < TILE / STEP; ++i) tile[c_first + i * STEP][rr] = v[i];
}

// Along the rows in vectors of VEC (src row-major, 16-byte aligned rows, cols a multiple of VEC).
template <int TILE, typename T, typename S>
__device__ __forceinline__ void load_along(Tile<S, TILE>& tile, const Dense<const T>& src, int64_t rows, int64_t cols, int64_t r0, int64_t c0) {
    constexpr int VEC = 16 / sizeof(T);
    constexpr int PER_ROW = TILE / VEC;
    constexpr int PER_THREAD = (TILE * PER_ROW + BLOCK - 1) / BLOCK;
    Vec<T, VEC> v[PER_THREAD];
#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) {
        const int e = threadIdx.x + i * BLOCK, rr = e / PER_ROW, cc = e % PER_ROW * VEC;
        const int64_t r = r0 + rr, c = c0 + cc;
        if (rr < TILE && r < rows && c < cols) v[i] = load_vec<T, VEC>(src.at(r, c));
    }
#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) {
        const int e = threadIdx.x + i * BLOCK, rr = e / PER_ROW, cc = e % PER_ROW * VEC;
        if (rr < TILE && r0 + rr < rows && c0 + cc < cols) {
#pragma unroll
            for (int j = 0; j < VEC; ++j) tile[cc + j][rr] = to_compute<S>(v[i].v[j]);
        }
    }
}

// Any strides, an element at a time (the fallback; the plans give stage_b a column-major op(B)).
template <int TILE, typename T, typename S>
__device__ __forceinline__ void load_any(Tile<S, TILE>& tile, const Dense<const T>& src, int64_t rows, int64_t cols, int64_t r0, int64_t c0) {
    for (int e = threadIdx.x; e < TILE * TILE; e += BLOCK) {
        const int rr = e / TILE, cc = e % TILE;
        const int64_t r = r0 + rr, c = c0 + cc;
        if (r < rows && c < cols) tile[cc][rr] = to_compute<S>(*src.at(r, c));
    }
}

// ---- the copies ----------------------------------------------------------------------------------

// op(B) into the row-major scratch, whose rows are whole vectors (n a multiple of VEC, the plan's
// condition), written a 16-byte vector at a time.
template <int TILE, typename V>
__device__ void stage_b(const SpmmStageParams& p) {
    let_next_kernel_start();  // the row kernel's first trips overlap the copy (src/ops/spmm/mod.rs)
    constexpr int VEC = 16 / sizeof(V);
    constexpr int PER_ROW = TILE / VEC;
    __shared__ Tile<V, TILE> tile;
    const Dense<const V> src(p.src, blockIdx.z);
    const Dense<V> dst(p.dst, blockIdx.z);
    const int64_t r0 = int64_t(blockIdx.x) * TILE, c0 = int64_t(blockIdx.y) * TILE;
    if (src.row_stride == 1) {
        load_down<TILE, V, V>(tile, src, p.rows, p.cols, r0, c0);
    } else {
        load_any<TILE, V, V>(tile, src, p.rows, p.cols, r0, c0);
    }
    __syncthreads();
    for (int e = threadIdx.x; e < TILE * PER_ROW; e += BLOCK) {
        const int rr = e / PER_ROW, cc = e % PER_ROW * VEC;
        const int64_t r = r0 + rr, c = c0 + cc;
        if (r < p.rows && c < p.cols) {
            Vec<V, VEC> out;
#pragma unroll
            for (int j = 0; j < VEC; ++j) out.v[j] = tile[cc + j][rr];
            *reinterpret_cast<Vec<V, VEC>*>(dst.at(r, c)) = out;  // read soon by the row kernel: kept in L2
        }
    }
}

// C = alpha * scratch + beta * C from the row-major scratch (compute type, rows of whole vectors),
// down C's columns when they are contiguous (column-major C), else an element at a time.
template <int TILE, typename O, typename C>
__device__ void stage_c(const SpmmStageParams& p) {
    wait_for_previous_kernel();  // the kernel writing the scratch may still run (pdl.cuh)
    if (!chosen(p.choice)) return;  // a plain call's verdict sent the call to short rows
    constexpr int STEP = BLOCK / TILE;
    __shared__ Tile<C, TILE> tile;
    const Dense<const C> src(p.src, blockIdx.z);
    const Dense<O> dst(p.dst, blockIdx.z);
    const C alpha = load_scalar<C>(p.alpha), beta = load_scalar<C>(p.beta);
    const bool read_c = !is_zero(beta);
    const int64_t r0 = int64_t(blockIdx.x) * TILE, c0 = int64_t(blockIdx.y) * TILE;
    load_along<TILE, C, C>(tile, src, p.rows, p.cols, r0, c0);
    __syncthreads();
    if (dst.row_stride == 1) {
        const int rr = threadIdx.x % TILE, c_first = threadIdx.x / TILE;
        const int64_t r = r0 + rr;
#pragma unroll 4
        for (int i = 0; i < TILE / STEP; ++i) {
            const int cc = c_first + i * STEP;
            if (r < p.rows && c0 + cc < p.cols) write_out(dst, r, c0 + cc, tile[cc][rr], alpha, beta, read_c);
        }
    } else {
        for (int e = threadIdx.x; e < TILE * TILE; e += BLOCK) {
            const int rr = e / TILE, cc = e % TILE;
            if (r0 + rr < p.rows && c0 + cc < p.cols) write_out(dst, r0 + rr, c0 + cc, tile[cc][rr], alpha, beta, read_c);
        }
    }
}

}  // namespace

#define OXS_KERNEL(name, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK) name(const SpmmStageParams p) { body; }

#define OXS_STAGE(T)                                                                    \
    OXS_KERNEL(oxs_spmm_stage_b_f32_t##T, (stage_b<T, float>(p)))                       \
    OXS_KERNEL(oxs_spmm_stage_b_f64_t##T, (stage_b<T, double>(p)))                      \
    OXS_KERNEL(oxs_spmm_stage_b_f16_t##T, (stage_b<T, __half>(p)))                      \
    OXS_KERNEL(oxs_spmm_stage_b_bf16_t##T, (stage_b<T, __nv_bfloat16>(p)))              \
    OXS_KERNEL(oxs_spmm_stage_c_f32_f32_t##T, (stage_c<T, float, float>(p)))            \
    OXS_KERNEL(oxs_spmm_stage_c_f64_f64_t##T, (stage_c<T, double, double>(p)))          \
    OXS_KERNEL(oxs_spmm_stage_c_f16_f32_t##T, (stage_c<T, __half, float>(p)))           \
    OXS_KERNEL(oxs_spmm_stage_c_bf16_f32_t##T, (stage_c<T, __nv_bfloat16, float>(p)))

static_assert(SPMM_STAGE_TILE == 64, "the instantiations below");
OXS_STAGE(32)
OXS_STAGE(64)
