// SpMV for the formats that are not read as rows: Sliced-ELL and BSR (opA = N only, as in
// cuSPARSE), and the legacy bsrxmv's masked BSR rows. y = alpha * A * x + beta * y. One thread per
// row of A; each row's products are added in stored order, so results are bitwise reproducible.
#include "common/spmv.cuh"

using namespace spmv;

namespace {

// Row r of slice s = r / slice_size: slots offsets[s] + j * slice_size + r % slice_size for each
// ELL column j. Threads of consecutive rows read consecutive slots (coalesced).
template <typename V, typename X, typename Y, typename C, typename I>
__device__ void sell(const SpmvSellParams& p) {
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const I* cols = reinterpret_cast<const I*>(p.cols);
    const V* values = reinterpret_cast<const V*>(p.values);
    const X* x = reinterpret_cast<const X*>(p.shape.x);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const int64_t c = p.slice_size, k = p.shape.k;
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.shape.m; r += int64_t(gridDim.x) * blockDim.x) {
        const int64_t s = r / c;
        const int64_t begin = int64_t(offsets[s]) - p.base, end = int64_t(offsets[s + 1]) - p.base;
        C sum = zero<C>();
        for (int64_t q = begin + r % c; q < end; q += c) {
            const int64_t stored = int64_t(cols[q]);
            if (stored < 0) continue;  // padding (-1 whatever the base)
            const int64_t col = stored - p.base;
            if (col < 0 || col >= k) continue;
            sum = sum + to_compute<C>(values[q]) * to_compute<C>(load_x(x + col));
        }
        write_y(reinterpret_cast<Y*>(p.shape.y), r, sum, alpha, beta);
    }
}

// Row i of a block row whose blocks are at positions begin .. end (base removed): every column
// of every block, in stored order.
template <typename V, typename X, typename C, typename I>
__device__ C bsr_row(const SpmvBsrParams& p, int64_t i, int64_t begin, int64_t end) {
    const I* col_ind = reinterpret_cast<const I*>(p.col_ind);
    const V* values = reinterpret_cast<const V*>(p.values);
    const X* x = reinterpret_cast<const X*>(p.shape.x);
    const int64_t rb = p.row_block, cb = p.col_block, k = p.shape.k;
    // Element (i, j) of a block: row-major i * cb + j, column-major j * rb + i.
    const int64_t row_step = p.col_major_blocks ? 1 : cb, col_step = p.col_major_blocks ? rb : 1;
    C sum = zero<C>();
    for (int64_t b = begin; b < end; ++b) {
        const int64_t col0 = (int64_t(col_ind[b]) - p.base) * cb;
        if (col0 < 0 || col0 + cb > k) continue;
        const V* block = values + b * rb * cb + i * row_step;
        for (int64_t j = 0; j < cb; ++j)
            sum = sum + to_compute<C>(block[j * col_step]) * to_compute<C>(load_x(x + col0 + j));
    }
    return sum;
}

// Row r = block row br, row i inside the block: the blocks offsets[br] .. offsets[br + 1].
template <typename V, typename X, typename Y, typename C, typename I>
__device__ void bsr(const SpmvBsrParams& p) {
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const int64_t rb = p.row_block;
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.shape.m; r += int64_t(gridDim.x) * blockDim.x) {
        const int64_t br = r / rb, i = r % rb;
        const int64_t begin = int64_t(offsets[br]) - p.base, end = int64_t(offsets[br + 1]) - p.base;
        write_y(reinterpret_cast<Y*>(p.shape.y), r, bsr_row<V, X, C, I>(p, i, begin, end), alpha, beta);
    }
}

// bsrxmv: work item w is row i = w % rb of block row mask[w / rb] - base, whose blocks are
// offsets[br] .. ends[br]; rows of y that the mask does not name are never touched. A mask entry
// outside the block rows is skipped.
template <typename V, typename X, typename Y, typename C, typename I>
__device__ void bsrx(const SpmvBsrxParams& q) {
    const SpmvBsrParams& p = q.bsr;
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const I* ends = reinterpret_cast<const I*>(q.ends);
    const I* mask = reinterpret_cast<const I*>(q.mask);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const int64_t rb = p.row_block, items = q.mask_size * rb;
    for (int64_t w = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; w < items; w += int64_t(gridDim.x) * blockDim.x) {
        const int64_t br = int64_t(mask[w / rb]) - p.base, i = w % rb;
        if (br < 0 || br * rb >= p.shape.m) continue;
        const int64_t begin = int64_t(offsets[br]) - p.base, end = int64_t(ends[br]) - p.base;
        write_y(reinterpret_cast<Y*>(p.shape.y), br * rb + i, bsr_row<V, X, C, I>(p, i, begin, end), alpha, beta);
    }
}

}  // namespace

#define OXS_SPMV_FORMATS(name, V, X, Y, C, I, index)                                                            \
    extern "C" __global__ void oxs_spmv_sell_##name##_##index(const SpmvSellParams p) { sell<V, X, Y, C, I>(p); } \
    extern "C" __global__ void oxs_spmv_bsr_##name##_##index(const SpmvBsrParams p) { bsr<V, X, Y, C, I>(p); }
#define OXS_SPMV_FORMATS_BOTH(name, V, X, Y, C) \
    OXS_SPMV_FORMATS(name, V, X, Y, C, int32_t, i32) OXS_SPMV_FORMATS(name, V, X, Y, C, int64_t, i64)
OXS_SPMV_TYPES(OXS_SPMV_FORMATS_BOTH)

// bsrxmv: the four types of cuSPARSE's S, D, C and Z routines, 32-bit indices.
#define OXS_SPMV_BSRX(name, V)                                                                    \
    extern "C" __global__ void oxs_spmv_bsrx_##name##_i32(const SpmvBsrxParams p) { bsrx<V, V, V, V, int32_t>(p); }
OXS_SPMV_BSRX(f32_f32_f32_f32, float)
OXS_SPMV_BSRX(f64_f64_f64_f64, double)
OXS_SPMV_BSRX(c32_c32_c32_c32, float2)
OXS_SPMV_BSRX(c64_c64_c64_c64, double2)
