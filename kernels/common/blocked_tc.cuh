// What the block-format tensor-core kernels (kernels/spmm_blocked_tc_async.cu,
// kernels/spmm_blocked_tc_tma.cu) share past the mma: how a lane's accumulators reach C.
#pragma once
#include "common/spmm.cuh"

namespace blocked {

using spmm::Dense;
using spmm::Vec;

// C(r, j) and C(r, j + 1) (j even) = alpha acc + beta C as write_out computes them, stored as one
// access where C's rows are contiguous and pairs aligned (`paired`).
template <typename O>
__device__ __forceinline__ void write_two(const Dense<O>& c, bool paired, int64_t r, int64_t j, float x0, float x1, float alpha,
                                          float beta, bool read_c) {
    if (!paired) {
        spmm::write_out(c, r, j, x0, alpha, beta, read_c);
        spmm::write_out(c, r, j + 1, x1, alpha, beta, read_c);
        return;
    }
    Vec<O, 2>* p = reinterpret_cast<Vec<O, 2>*>(c.at(r, j));
    float v0 = alpha * x0, v1 = alpha * x1;
    if (read_c) {
        const Vec<O, 2> old = *p;
        v0 = v0 + beta * to_compute<float>(old.v[0]);
        v1 = v1 + beta * to_compute<float>(old.v[1]);
    }
    *p = Vec<O, 2>{{from_compute<O>(v0), from_compute<O>(v1)}};
}

}  // namespace blocked
