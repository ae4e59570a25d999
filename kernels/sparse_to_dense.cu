// SparseToDense: B = dense(A). First every logical entry of B is zeroed, then every stored entry
// of A is written to its place; both kernels run on the handle's stream, in that order.
//
// Values are copied bit for bit (A and B have the same type), so the kernels only need a word of
// the element's size: `W` below is uint8_t ... uint4 for 1 ... 16-byte elements. Indices are of
// type `I` (int32_t or int64_t); all position arithmetic is in int64_t, since rows * ld and nnz
// may exceed 2^31 even when each index fits in 32 bits.
//
// cuSPARSE leaves out-of-range indices undefined; here an entry whose (row, column) falls outside
// B is skipped, so a bad index can never write outside the user's matrix.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include <stdint.h>

namespace {

constexpr int WARP = 32;

using grid::global_thread;
using grid::thread_count;

// Element offset of (r, c) in B.
__device__ __forceinline__ int64_t dense_offset(const SparseToDenseOut& b, int64_t r, int64_t c) {
    return b.row_major ? r * b.ld + c : c * b.ld + r;
}

template <typename W>
__device__ __forceinline__ void store(const SparseToDenseOut& b, int64_t r, int64_t c, W v) {
    if (r < 0 || r >= b.rows || c < 0 || c >= b.cols) return;
    reinterpret_cast<W*>(b.values)[dense_offset(b, r, c)] = v;
}

// ---- stage 1: zero the logical rows x cols entries ----------------------------------------------
// Linear index i walks B in memory order (along the leading dimension first), so neighbouring
// threads write neighbouring addresses and the padding up to ld is never touched.
template <typename W>
__device__ void zero_fill(const SparseToDenseZeroParams& p) {
    const SparseToDenseOut& b = p.b;
    const int64_t len = b.row_major ? b.cols : b.rows;  // entries per line
    const int64_t total = b.rows * b.cols;
    W* out = reinterpret_cast<W*>(b.values);
    for (int64_t i = global_thread(); i < total; i += thread_count()) {
        out[(i / len) * b.ld + i % len] = W{};
    }
}

// ---- stage 2, per format: scatter the stored entries ---------------------------------------------

template <typename W, typename I>
__device__ void scatter_coo(const SparseToDenseCooParams& p) {
    const I* rows = reinterpret_cast<const I*>(p.row_ind);
    const I* cols = reinterpret_cast<const I*>(p.col_ind);
    const W* vals = reinterpret_cast<const W*>(p.values);
    for (int64_t k = global_thread(); k < p.nnz; k += thread_count()) {
        store(p.b, int64_t(rows[k]) - p.base, int64_t(cols[k]) - p.base, vals[k]);
    }
}

// One warp per compressed line (a row of CSR, a column of CSC); its lanes stride over the line's
// entries, so a long (even fully dense) line is shared by 32 threads.
template <typename W, typename I>
__device__ void scatter_compressed(const SparseToDenseCompressedParams& p) {
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const I* minor = reinterpret_cast<const I*>(p.indices);
    const W* vals = reinterpret_cast<const W*>(p.values);
    const int lane = threadIdx.x % WARP;
    for (int64_t line = global_thread() / WARP; line < p.lines; line += thread_count() / WARP) {
        const int64_t begin = int64_t(offsets[line]) - p.base;
        const int64_t end = int64_t(offsets[line + 1]) - p.base;
        for (int64_t k = begin + lane; k < end; k += WARP) {
            const int64_t m = int64_t(minor[k]) - p.base;
            if (p.csc) store(p.b, m, line, vals[k]);
            else store(p.b, line, m, vals[k]);
        }
    }
}

// One warp per block row; its lanes stride over all values of the row's blocks, which lie
// contiguously in memory (block after block), and map each back to (row, column).
template <typename W, typename I>
__device__ void scatter_bsr(const SparseToDenseBsrParams& p) {
    const I* offsets = reinterpret_cast<const I*>(p.offsets);
    const I* bcols = reinterpret_cast<const I*>(p.col_ind);
    const W* vals = reinterpret_cast<const W*>(p.values);
    const int64_t area = p.row_block * p.col_block;
    const int lane = threadIdx.x % WARP;
    for (int64_t br = global_thread() / WARP; br < p.brows; br += thread_count() / WARP) {
        const int64_t first = int64_t(offsets[br]) - p.base;
        const int64_t last = int64_t(offsets[br + 1]) - p.base;
        const int64_t begin = first * area;
        const int64_t end = last * area;
        for (int64_t k = begin + lane; k < end; k += WARP) {
            const int64_t blk = k / area;
            const int64_t e = k - blk * area;
            const int64_t i = p.col_major_blocks ? e % p.row_block : e / p.col_block;
            const int64_t j = p.col_major_blocks ? e / p.row_block : e % p.col_block;
            const int64_t bc = int64_t(bcols[blk]) - p.base;
            store(p.b, br * p.row_block + i, bc * p.col_block + j, vals[k]);
        }
    }
}

// One thread per slot of the rows x ell_cols value array (row-major, so reads are coalesced).
template <typename W, typename I>
__device__ void scatter_bell(const SparseToDenseBellParams& p) {
    const I* bcols = reinterpret_cast<const I*>(p.col_ind);
    const W* vals = reinterpret_cast<const W*>(p.values);
    const int64_t slots_per_row = p.ell_cols / p.block_size;  // block slots per block row
    const int64_t total = p.b.rows * p.ell_cols;
    for (int64_t k = global_thread(); k < total; k += thread_count()) {
        const int64_t r = k / p.ell_cols;
        const int64_t e = k - r * p.ell_cols;
        const int64_t raw = int64_t(bcols[(r / p.block_size) * slots_per_row + e / p.block_size]);
        if (raw == -1) continue;  // empty block slot: its values are padding
        store(p.b, r, (raw - p.base) * p.block_size + e % p.block_size, vals[k]);
    }
}

}  // namespace

// ---- instantiations: oxs_s2d_<stage>_<value>[_<index>] --------------------------------------------
// Value types cuSPARSE's SparseToDense accepts, with the word that carries one element.
#define OXS_S2D_VALUES(X) \
    X(i8, uint8_t)        \
    X(f16, uint16_t)      \
    X(bf16, uint16_t)     \
    X(f32, uint32_t)      \
    X(f64, uint64_t)      \
    X(c16, uint32_t)      \
    X(cbf16, uint32_t)    \
    X(c32, uint2)         \
    X(c64, uint4)

#define OXS_S2D_ZERO(V, W) \
    extern "C" __global__ void oxs_s2d_zero_##V(const SparseToDenseZeroParams p) { zero_fill<W>(p); }

#define OXS_S2D_SCATTER_I(V, W, IS, I)                                                                         \
    extern "C" __global__ void oxs_s2d_coo_##V##_##IS(const SparseToDenseCooParams p) { scatter_coo<W, I>(p); } \
    extern "C" __global__ void oxs_s2d_compressed_##V##_##IS(const SparseToDenseCompressedParams p) {           \
        scatter_compressed<W, I>(p);                                                                            \
    }                                                                                                           \
    extern "C" __global__ void oxs_s2d_bsr_##V##_##IS(const SparseToDenseBsrParams p) { scatter_bsr<W, I>(p); } \
    extern "C" __global__ void oxs_s2d_bell_##V##_##IS(const SparseToDenseBellParams p) { scatter_bell<W, I>(p); }

#define OXS_S2D_SCATTER(V, W)                 \
    OXS_S2D_SCATTER_I(V, W, i32, int32_t)     \
    OXS_S2D_SCATTER_I(V, W, i64, int64_t)

OXS_S2D_VALUES(OXS_S2D_ZERO)
OXS_S2D_VALUES(OXS_S2D_SCATTER)
