// Scalars (alpha, beta, ...) arrive as a `Scalar` block: bytes read on the host in host pointer
// mode, or a device address read here, in stream order, in device pointer mode.
#pragma once
#include "oxsparse_kernel_params.h"

// memcpy, not a cast: `Scalar::host` is only 8-byte aligned and double2 wants 16.
template <typename T>
__device__ __forceinline__ T load_scalar(const Scalar& s) {
    T v;
    if (s.device != 0) {
        memcpy(&v, reinterpret_cast<const void*>(s.device), sizeof(T));
    } else {
        memcpy(&v, s.host, sizeof(T));
    }
    return v;
}
