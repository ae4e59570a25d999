// Pieces the SDDMM kernels share (kernels/sddmm.cu, the general kernel and the copy of an operand;
// kernels/sddmm_lean.cu, the kernel for aligned CSR lines): the lines of A and B, butterfly sums
// over a group of lanes, following C's rows, and the dot product of two 16-byte vectors.
#pragma once
#include "oxsparse_kernel_params.h"
#include "common/spmm.cuh"
#include "common/row_search.cuh"
#include <stdint.h>

namespace sddmm_shared {

using spmm::WARP;
// Threads per block; must match BLOCK in src/ops/sddmm/plan.rs.
constexpr int BLOCK = 256;
// Bytes a lane loads at once from a line; must match VECTOR_BYTES in src/ops/sddmm/plan.rs.
constexpr int VECTOR_BYTES = 16;

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
__device__ __forceinline__ float shfl_from(float v, int src) { return __shfl_sync(0xffffffffu, v, src); }
__device__ __forceinline__ double shfl_from(double v, int src) { return __shfl_sync(0xffffffffu, v, src); }
__device__ __forceinline__ float2 shfl_from(float2 v, int src) { return make_float2(shfl_from(v.x, src), shfl_from(v.y, src)); }
__device__ __forceinline__ double2 shfl_from(double2 v, int src) { return make_double2(shfl_from(v.x, src), shfl_from(v.y, src)); }

// The sum of `v` over the calling lane's group of `group` lanes (a power of two), on every lane of
// the group, bitwise the same (each level adds the same two values). Every lane of the warp calls it.
template <typename C>
__device__ __forceinline__ C group_sum(C v, int group) {
    for (int m = group / 2; m > 0; m /= 2) v = v + shfl_xor(v, m);
    return v;
}

// ---- following C's rows --------------------------------------------------------------------------
// The row holding stored block `q` (a value for CSR), at or after `row`, where `end(r)` is where row
// r ends: rows are followed in order, and a run of empty rows is crossed by a binary search instead
// of one step at a time. `q` lies before the end of the last row. P: int32_t or int64_t positions.
template <typename P, typename End>
__device__ __forceinline__ P advance(const End& end, P rows, P row, P q) {
    if (end(row) > q) return row;
    if (end(row + 1) > q) return row + 1;
    P lo = row + 2, hi = rows - 1;
    while (lo < hi) {
        const P mid = lo + (hi - lo) / 2;
        if (end(mid) > q) hi = mid; else lo = mid + 1;
    }
    return lo;
}

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

// ---- the tiles' survey (kernels/sddmm_tiles.cu) ---------------------------------------------------
// The survey's counters in the workspace, unsigned 64-bit each (match src/ops/sddmm/tiles.rs).
constexpr int SURVEY_BAD = 0;      // entries out of order (columns not increasing in a row) or out of [0, n)
constexpr int SURVEY_DENSE = 1;    // entries in row blocks that fill at least half of their tiles
constexpr int SURVEY_ENTRIES = 2;  // all entries
constexpr int SURVEY_LONGEST = 3;  // the longest row
constexpr int SURVEY_COUNTERS = 4;
// The longest row the tiles take: a block's rows are its work, so a hub row would hold one block
// long after the others are done.
constexpr unsigned long long TILES_LONGEST_ROW = 8192;

// Whether the tile kernel runs (and the lean kernel returns at once): the survey at `at` (0: none)
// found every row sorted and in range, no row past TILES_LONGEST_ROW, and at least half the entries
// in dense row blocks. The same answer for every thread of both kernels.
// The counters were written by the survey, an earlier kernel, so plain loads see them.
__device__ __forceinline__ bool tiles_chosen(uint64_t at) {
    if (at == 0) return false;
    const unsigned long long* c = reinterpret_cast<const unsigned long long*>(at);
    return c[SURVEY_BAD] == 0 && c[SURVEY_ENTRIES] > 0 && c[SURVEY_DENSE] * 2 >= c[SURVEY_ENTRIES] &&
           c[SURVEY_LONGEST] <= TILES_LONGEST_ROW;
}

// SddmmParams::tiles: the lean kernel alone (no survey), the survey's verdict read on the GPU (a
// plain call, or preprocess under capture), or the tiles alone (preprocess read the verdict).
constexpr int TILES_NONE = 0, TILES_SURVEY = 1, TILES_RUN = 2;

// Whether the tile kernel computes C (else the lean kernel does). Every thread of the block calls
// it, first thing: one thread reads the survey's verdict for the block (every warp reading the
// same line queued on it in L2).
__device__ __forceinline__ bool tiles_run(const SddmmParams& p) {
    if (p.tiles != TILES_SURVEY) return p.tiles == TILES_RUN;
    __shared__ int chosen;
    if (threadIdx.x == 0) chosen = tiles_chosen(p.survey);
    __syncthreads();
    return chosen != 0;
}

}  // namespace sddmm_shared
