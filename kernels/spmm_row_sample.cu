// Preprocess's sample of op(A) for the row-order model (src/ops/spmm/row_order/model.rs): the entries
// whose column the model follows, found on the GPU so that the host reads back a sixteenth of the
// columns instead of all of them (on the H100's host, scanning wave_squared_2hop's 11M columns
// for the sample took 25-32 ms).
//
// Kernel (parameter block SpmmRowSampleParams in src/kernels/params/spmm.rs): thread per row,
// grid-stride. Two passes over the same rows: with `ids` 0 it counts each row's sampled entries;
// then, once the host has summed the counts into offsets, it writes each row's sampled columns
// at its offset, in stored order. Deterministic: no atomics, each row written by one thread.
#include "common/spmm.cuh"

using namespace spmm;

namespace {

// Whether the model follows column c: the same hash as the host's `sampled`.
__device__ __forceinline__ bool followed(const SpmmRowSampleParams& p, int64_t c) {
    return ((uint64_t(c) * p.hash_multiplier) >> 40 & p.hash_mask) == 0;
}

template <typename I>
__device__ void row_sample(const SpmmRowSampleParams& p) {
    const Rows<float, I> a(p.a, 0);
    uint32_t* counts = reinterpret_cast<uint32_t*>(p.counts);
    const uint32_t* offsets = reinterpret_cast<const uint32_t*>(p.offsets);
    uint32_t* ids = reinterpret_cast<uint32_t*>(p.ids);
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.rows; i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t r = p.first_row + i;
        const int64_t end = a.end(r);
        if (ids == nullptr) {
            uint32_t count = 0;
            for (int64_t q = a.begin(r); q < end; ++q) {
                const int64_t c = a.col(q, p.k);
                count += (c >= 0 && followed(p, c)) ? 1u : 0u;
            }
            counts[i] = count;
        } else {
            uint32_t* out = ids + (offsets[r] - p.first_id);
            for (int64_t q = a.begin(r); q < end; ++q) {
                const int64_t c = a.col(q, p.k);
                if (c >= 0 && followed(p, c)) *out++ = uint32_t(c);
            }
        }
    }
}

}  // namespace

extern "C" __global__ void oxs_spmm_row_sample_i32(const SpmmRowSampleParams p) { row_sample<int32_t>(p); }
extern "C" __global__ void oxs_spmm_row_sample_i64(const SpmmRowSampleParams p) { row_sample<int64_t>(p); }
