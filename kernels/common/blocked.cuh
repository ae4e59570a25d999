// A BSR or Blocked-ELL matrix as block rows of blocks (SpmmBlockedParams), shared by the CUDA-core
// and tensor-core block-row kernels (kernels/spmm_blocked.cu, kernels/spmm_blocked_tc.cu).
#pragma once
#include "oxsparse_kernel_params.h"
#include <stdint.h>

namespace blocked {

// ELL: Blocked-ELL (a fixed number of slots a block row, -1 an empty one); else BSR.
template <typename V, typename I, bool ELL>
struct BlockRows {
    const I* offsets;
    const I* col_ind;
    const V* values;
    int64_t base, rb, cb, slots;
    bool col_major;

    __device__ explicit BlockRows(const SpmmBlockedParams& p)
        : offsets(reinterpret_cast<const I*>(p.offsets)),
          col_ind(reinterpret_cast<const I*>(p.col_ind)),
          values(reinterpret_cast<const V*>(p.values)),
          base(p.base),
          rb(p.row_block),
          cb(p.col_block),
          slots(p.ell_slots),
          col_major(!ELL && p.col_major_blocks != 0) {}

    // Block row br's blocks are begin(br) .. end(br), in stored order.
    __device__ int64_t begin(int64_t br) const { return ELL ? br * slots : int64_t(offsets[br]) - base; }
    __device__ int64_t end(int64_t br) const { return ELL ? (br + 1) * slots : int64_t(offsets[br + 1]) - base; }

    // The first column of block q, or -1 for an empty slot or a block outside [0, k) (undefined
    // input: never read B there).
    __device__ int64_t col0(int64_t q, int64_t k) const {
        const int64_t c = (int64_t(col_ind[q]) - base) * cb;
        return (c >= 0 && c < k) ? c : -1;
    }

    // Element (r, 0) of block q of block row br; (r, cc) is at(br, q, r)[cc * col_step()], and
    // row r + 1 lies row_step() elements after row r.
    __device__ const V* at(int64_t br, int64_t q, int64_t r) const {
        if (ELL) return values + (br * rb + r) * (slots * cb) + (q - br * slots) * cb;
        return values + q * rb * cb + (col_major ? r : r * cb);
    }
    __device__ int64_t row_step() const { return ELL ? slots * cb : (col_major ? 1 : cb); }
    __device__ int64_t col_step() const { return col_major ? rb : 1; }
};

}  // namespace blocked
