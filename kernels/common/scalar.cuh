// Scalars (alpha, beta, ...) arrive as a `Scalar` block: bytes read on the host in host pointer
// mode, or a device address read here, in stream order, in device pointer mode.
#pragma once
#include "oxsparse_kernel_params.h"

template <typename T>
__device__ __forceinline__ T load_scalar(const Scalar& s) {
    if (s.device != 0) return *reinterpret_cast<const T*>(s.device);
    return *reinterpret_cast<const T*>(s.host);
}
