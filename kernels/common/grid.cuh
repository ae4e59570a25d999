// Grid-stride loops: a thread's first item and the stride, in 64-bit so that loops over more than
// 2^31 items do not overflow.
#pragma once
#include <stdint.h>

namespace grid {

__device__ __forceinline__ int64_t global_thread() { return int64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ int64_t thread_count() { return int64_t(gridDim.x) * blockDim.x; }

}  // namespace grid
