// Staging for column-major SpMM operands: the vectorised row kernel (kernels/spmm.cu) wants op(B)
// and C row-major, so a column-major (or transposed) op(B) is first copied into a row-major
// scratch, and a column-major C is produced in a row-major scratch of the compute type and then
// written back as C = alpha * scratch + beta * C. Both copies move 32 x 32 tiles through shared
// memory, reading and writing whole sectors on both sides, so they run near copy bandwidth.
#include "common/spmm.cuh"

using namespace spmm;

namespace {

constexpr int TILE = 32;
constexpr int TILE_ROWS = BLOCK / TILE;  // a block of 32 x 8 threads walks a 32 x 32 tile

// Load stage: the tile of `src` at (r0, c0) into shared memory, threads running down the
// columns of the source when its rows are contiguous (row_stride == 1) and along rows otherwise.
template <typename T, typename S>
__device__ __forceinline__ void load_tile(S (&tile)[TILE][TILE + 1], const Dense<const T>& src, int64_t rows, int64_t cols,
                                          int64_t r0, int64_t c0) {
    const bool down = src.row_stride == 1;
    const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    for (int i = ty; i < TILE; i += TILE_ROWS) {
        const int64_t r = r0 + (down ? tx : i), c = c0 + (down ? i : tx);
        if (r < rows && c < cols) tile[r - r0][c - c0] = to_compute<S>(*src.at(r, c));
    }
}

template <typename V>
__device__ void stage_b(const SpmmStageParams& p) {
    __shared__ V tile[TILE][TILE + 1];
    const Dense<const V> src(p.src, blockIdx.z);
    const Dense<V> dst(p.dst, blockIdx.z);
    const int64_t r0 = int64_t(blockIdx.x) * TILE, c0 = int64_t(blockIdx.y) * TILE;
    load_tile<V, V>(tile, src, p.rows, p.cols, r0, c0);
    __syncthreads();
    // Store stage: the scratch is row-major, so threads run along its rows.
    const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    for (int i = ty; i < TILE; i += TILE_ROWS) {
        const int64_t r = r0 + i, c = c0 + tx;
        if (r < p.rows && c < p.cols) *dst.at(r, c) = tile[i][tx];
    }
}

template <typename O, typename C>
__device__ void stage_c(const SpmmStageParams& p) {
    __shared__ C tile[TILE][TILE + 1];
    const Dense<const C> src(p.src, blockIdx.z);
    const Dense<O> dst(p.dst, blockIdx.z);
    const C alpha = load_scalar<C>(p.alpha), beta = load_scalar<C>(p.beta);
    const bool read_c = !is_zero(beta);
    const int64_t r0 = int64_t(blockIdx.x) * TILE, c0 = int64_t(blockIdx.y) * TILE;
    load_tile<C, C>(tile, src, p.rows, p.cols, r0, c0);
    __syncthreads();
    // Store stage: threads run down C's columns when they are contiguous (column-major C).
    const bool down = dst.row_stride == 1;
    const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    for (int i = ty; i < TILE; i += TILE_ROWS) {
        const int rr = down ? tx : i, cc = down ? i : tx;
        const int64_t r = r0 + rr, c = c0 + cc;
        if (r < p.rows && c < p.cols) write_out(dst, r, c, tile[rr][cc], alpha, beta, read_c);
    }
}

}  // namespace

#define OXS_KERNEL(name, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK) name(const SpmmStageParams p) { body; }

OXS_KERNEL(oxs_spmm_stage_b_f32, (stage_b<float>(p)))
OXS_KERNEL(oxs_spmm_stage_b_f64, (stage_b<double>(p)))
OXS_KERNEL(oxs_spmm_stage_b_f16, (stage_b<__half>(p)))
OXS_KERNEL(oxs_spmm_stage_b_bf16, (stage_b<__nv_bfloat16>(p)))
OXS_KERNEL(oxs_spmm_stage_c_f32_f32, (stage_c<float, float>(p)))
OXS_KERNEL(oxs_spmm_stage_c_f64_f64, (stage_c<double, double>(p)))
OXS_KERNEL(oxs_spmm_stage_c_f16_f32, (stage_c<__half, float>(p)))
OXS_KERNEL(oxs_spmm_stage_c_bf16_f32, (stage_c<__nv_bfloat16, float>(p)))
