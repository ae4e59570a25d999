// RowView: a row-compressed (CSR-like) view of op(A) for SpMM, built in the caller's workspace.
//
// Each source entry p has a major coordinate (its CSR row / CSC column, found from the offsets,
// or its COO index) and a minor one; the view's row is one of them (`key_is_minor` picks which),
// its column the other. The view is three arrays: row offsets, the columns, and `perm`, the source
// position of every view entry, so A's values are read through perm and never copied. Within a
// row entries keep their source order, which makes the view, and every SpMM over it, bitwise
// reproducible.
//
// Stages, all on one stream (src/kernels/row_view.rs launches them and lays out the workspace):
//   1. expand        per entry: sort key = its view row (out_rows if it is dropped), its view
//                    column, and its position p
//   2. radix passes  stable LSD sort of (key, position) by the key, 8 bits per pass, only as many
//                    passes as out_rows needs (common/radix_sort.cuh, common/scan.cuh)
//   3. offsets       offsets[r] = first sorted entry with key >= r (binary search); the dropped
//                    entries sort last, behind offsets[out_rows]
//   4. columns       cols[q] = view column of sorted entry q
//
// Indices, keys, positions and counts are all of the index type I (int32_t or int64_t), so the
// 64-bit path has 64-bit positions; coordinate arithmetic is in int64_t.
//
// cuSPARSE leaves out-of-range indices undefined; here an entry whose view row or column falls
// outside [0, out_rows) x [0, out_cols) is dropped, so a bad index can never write outside the view.
#include "oxsparse_kernel_params.h"
#include "common/grid.cuh"
#include "common/radix_sort.cuh"
#include "common/scan.cuh"
#include <stdint.h>

namespace {

// Tiling constants come from src/kernels/params/row_view.rs, shared with the host's arithmetic.
constexpr int BLOCK = ROW_VIEW_BLOCK;
constexpr int RADIX_BITS = ROW_VIEW_RADIX_BITS;
constexpr int SORT_ROUNDS = ROW_VIEW_SORT_ROUNDS;
constexpr int SCAN_ROUNDS = ROW_VIEW_SCAN_ROUNDS;
static_assert(ROW_VIEW_RADIX == 1u << ROW_VIEW_RADIX_BITS, "RADIX is 2^RADIX_BITS");
static_assert(ROW_VIEW_BLOCK == ROW_VIEW_RADIX, "the sort gives thread d of a block digit d");

using grid::global_thread;
using grid::thread_count;

// First i in [0, n) with a[i] > value (n if none); a is non-decreasing.
template <typename I>
__device__ int64_t upper_bound(const I* a, int64_t n, int64_t value) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (int64_t(a[mid]) <= value) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// First i in [0, n) with a[i] >= value (n if none); a is non-decreasing.
template <typename I>
__device__ int64_t lower_bound(const I* a, int64_t n, int64_t value) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (int64_t(a[mid]) < value) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// ---- stage 1: expand ----------------------------------------------------------------------------
// One thread per entry. With offsets, the entry's line is the last l with offsets[l] <= p + base
// (a binary search, so a single huge line costs no more than many small ones); an entry outside
// every line (offsets inconsistent with nnz) gets major -1 and is dropped.
template <typename I>
__device__ void expand(const RowViewExpandParams& p) {
    const I* major = reinterpret_cast<const I*>(p.major);
    const I* minor = reinterpret_cast<const I*>(p.minor);
    I* keys = reinterpret_cast<I*>(p.keys);
    I* cols = reinterpret_cast<I*>(p.cols);
    I* pos = reinterpret_cast<I*>(p.pos);
    for (int64_t k = global_thread(); k < p.nnz; k += thread_count()) {
        int64_t maj;
        if (p.major_is_offsets) {
            const int64_t line = upper_bound(major, p.lines + 1, k + p.base) - 1;
            maj = line < p.lines ? line : -1;
        } else {
            maj = int64_t(major[k]) - p.base;
        }
        const int64_t mnr = int64_t(minor[k]) - p.base;
        const int64_t row = p.key_is_minor ? mnr : maj;
        const int64_t col = p.key_is_minor ? maj : mnr;
        const bool kept = row >= 0 && row < p.out_rows && col >= 0 && col < p.out_cols;
        keys[k] = I(kept ? row : p.out_rows);
        cols[k] = I(kept ? col : 0);
        pos[k] = I(k);
    }
}

// ---- stage 3: row offsets -------------------------------------------------------------------------
// One thread per row r in [0, out_rows]: the keys are sorted, so the row's first entry is the
// first key >= r; for r = out_rows that is the number of kept entries.
template <typename I>
__device__ void row_offsets(const RowViewFinishParams& p) {
    const I* keys = reinterpret_cast<const I*>(p.keys);
    I* offsets = reinterpret_cast<I*>(p.offsets);
    for (int64_t r = global_thread(); r <= p.out_rows; r += thread_count()) {
        offsets[r] = I(lower_bound(keys, p.nnz, r));
    }
}

// ---- stage 4: columns -----------------------------------------------------------------------------
// A kernel of its own: the sorted keys that stage 3 searched lie in `cols` (the last radix pass
// writes them there to save a buffer) and are overwritten here.
template <typename I>
__device__ void columns(const RowViewFinishParams& p) {
    const I* perm = reinterpret_cast<const I*>(p.perm);
    const I* col_of = reinterpret_cast<const I*>(p.col_of);
    I* cols = reinterpret_cast<I*>(p.cols);
    for (int64_t q = global_thread(); q < p.nnz; q += thread_count()) {
        cols[q] = col_of[int64_t(perm[q])];
    }
}

}  // namespace

// ---- instantiations: oxs_row_view_<stage>_<index> ------------------------------------------------
// expand, offsets, columns: grid-stride, BLOCK threads. histogram, scatter: one block of BLOCK
// threads per sort tile. scan_reduce, scan_apply: one block per scan chunk; scan_sums: one block.
#define OXS_ROW_VIEW(IS, I)                                                                               \
    extern "C" __global__ void oxs_row_view_expand_##IS(const RowViewExpandParams p) { expand<I>(p); }    \
    extern "C" __global__ void oxs_row_view_histogram_##IS(const RowViewPassParams p) {                   \
        radix::tile_histogram<RADIX_BITS, SORT_ROUNDS>(reinterpret_cast<const I*>(p.keys_in), p.nnz,      \
                                                       p.tiles, p.shift, reinterpret_cast<I*>(p.counts)); \
    }                                                                                                     \
    extern "C" __global__ void oxs_row_view_scan_reduce_##IS(const RowViewScanParams p) {                 \
        scan::chunk_reduce<BLOCK, SCAN_ROUNDS>(reinterpret_cast<const I*>(p.data), p.n,                   \
                                               reinterpret_cast<I*>(p.block_sums));                       \
    }                                                                                                     \
    extern "C" __global__ void oxs_row_view_scan_sums_##IS(const RowViewScanParams p) {                   \
        scan::sums_in_place<BLOCK>(reinterpret_cast<I*>(p.block_sums), p.blocks);                         \
    }                                                                                                     \
    extern "C" __global__ void oxs_row_view_scan_apply_##IS(const RowViewScanParams p) {                  \
        scan::chunk_apply<BLOCK, SCAN_ROUNDS>(reinterpret_cast<I*>(p.data), p.n,                          \
                                              reinterpret_cast<const I*>(p.block_sums));                  \
    }                                                                                                     \
    extern "C" __global__ void oxs_row_view_scatter_##IS(const RowViewPassParams p) {                     \
        radix::tile_scatter<RADIX_BITS, SORT_ROUNDS>(                                                     \
            reinterpret_cast<const I*>(p.keys_in), reinterpret_cast<const I*>(p.pos_in),                 \
            reinterpret_cast<I*>(p.keys_out), reinterpret_cast<I*>(p.pos_out),                            \
            reinterpret_cast<const I*>(p.counts), p.nnz, p.tiles, p.shift);                               \
    }                                                                                                     \
    extern "C" __global__ void oxs_row_view_offsets_##IS(const RowViewFinishParams p) { row_offsets<I>(p); } \
    extern "C" __global__ void oxs_row_view_columns_##IS(const RowViewFinishParams p) { columns<I>(p); }

OXS_ROW_VIEW(i32, int32_t)
OXS_ROW_VIEW(i64, int64_t)
