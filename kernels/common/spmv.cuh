// Shared pieces of the SpMV kernels: the type list, read-only loads of x, and the write of y.
#pragma once
#include "common/spmm.cuh"  // Rows (op(A) as rows), shfl, group_mask, load_scalar

namespace spmv {

constexpr int BLOCK = SPMV_BLOCK;

// x goes through the read-only path: no kernel writes it, and it is gathered many times.
template <typename T> __device__ __forceinline__ T load_x(const T* p) { return __ldg(p); }
template <> __device__ __forceinline__ complex_half load_x(const complex_half* p) {
    const unsigned u = __ldg(reinterpret_cast<const unsigned*>(p));
    complex_half v;
    memcpy(&v, &u, sizeof(v));
    return v;
}
template <> __device__ __forceinline__ complex_bf16 load_x(const complex_bf16* p) {
    const unsigned u = __ldg(reinterpret_cast<const unsigned*>(p));
    complex_bf16 v;
    memcpy(&v, &u, sizeof(v));
    return v;
}

// ---- loads of A that bypass the caches' keep policy: A is read once, x many times ---------------

template <typename T>
__device__ __forceinline__ T load_once(const T* p) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "load size");
    T v;
    if constexpr (sizeof(T) == 1) {
        const unsigned char u = __ldcs(reinterpret_cast<const unsigned char*>(p));
        memcpy(&v, &u, 1);
    } else if constexpr (sizeof(T) == 2) {
        const unsigned short u = __ldcs(reinterpret_cast<const unsigned short*>(p));
        memcpy(&v, &u, 2);
    } else if constexpr (sizeof(T) == 4) {
        const unsigned u = __ldcs(reinterpret_cast<const unsigned*>(p));
        memcpy(&v, &u, 4);
    } else if constexpr (sizeof(T) == 8) {
        const unsigned long long u = __ldcs(reinterpret_cast<const unsigned long long*>(p));
        memcpy(&v, &u, 8);
    } else {
        const uint4 u = __ldcs(reinterpret_cast<const uint4*>(p));
        memcpy(&v, &u, 16);
    }
    return v;
}

// N consecutive elements from an address aligned to N * sizeof(T), in as few wide loads as the
// size allows (one of 4, 8 or 16 bytes, or several of 16).
template <int N, typename T>
__device__ __forceinline__ void load_once_n(const T* p, T (&out)[N]) {
    constexpr int BYTES = N * int(sizeof(T));
    static_assert(BYTES == 4 || BYTES == 8 || BYTES % 16 == 0, "wide load size");
    if constexpr (BYTES >= 16) {
        uint4 w[BYTES / 16];
#pragma unroll
        for (int i = 0; i < BYTES / 16; ++i) w[i] = __ldcs(reinterpret_cast<const uint4*>(p) + i);
        memcpy(out, w, BYTES);
    } else if constexpr (BYTES == 8) {
        const uint2 w = __ldcs(reinterpret_cast<const uint2*>(p));
        memcpy(out, &w, BYTES);
    } else {
        const unsigned w = __ldcs(reinterpret_cast<const unsigned*>(p));
        memcpy(out, &w, BYTES);
    }
}

// y[r] = alpha * acc + beta * y[r]; with beta == 0 y is not read (BLAS convention).
template <typename Y, typename C>
__device__ __forceinline__ void write_y(Y* y, int64_t r, C acc, C alpha, C beta) {
    C v = alpha * acc;
    if (!is_zero(beta)) v = v + beta * to_compute<C>(y[r]);
    y[r] = from_compute<Y>(v);
}

}  // namespace spmv

// (name, A storage, x storage, y storage, compute) of every type combination SpMV accepts
// (src/ops/spmv/check.rs, TYPE_COMBINATIONS).
#define OXS_SPMV_TYPES(X)                                                                                     \
    X(f32_f32_f32_f32, float, float, float, float) X(f64_f64_f64_f64, double, double, double, double)         \
    X(c32_c32_c32_c32, float2, float2, float2, float2) X(c64_c64_c64_c64, double2, double2, double2, double2) \
    X(i8_i8_i32_i32, int8_t, int8_t, int32_t, int32_t) X(i8_i8_f32_f32, int8_t, int8_t, float, float)         \
    X(f16_f16_f32_f32, __half, __half, float, float) X(bf16_bf16_f32_f32, __nv_bfloat16, __nv_bfloat16, float, float) \
    X(f16_f16_f16_f32, __half, __half, __half, float)                                                        \
    X(bf16_bf16_bf16_f32, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float)                                \
    X(c16_c16_c16_c32, complex_half, complex_half, complex_half, float2)                                     \
    X(cbf16_cbf16_cbf16_c32, complex_bf16, complex_bf16, complex_bf16, float2)                               \
    X(f32_c32_c32_c32, float, float2, float2, float2) X(f64_c64_c64_c64, double, double2, double2, double2)   \
    X(f32_f64_f64_f64, float, double, double, double)
