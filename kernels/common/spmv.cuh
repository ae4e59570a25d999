// Shared pieces of the SpMV kernels: the type list, read-only loads of x, and the write of y.
#pragma once
#include "common/spmm.cuh"  // Rows (op(A) as rows), shfl, group_mask, load_scalar

namespace spmv {

constexpr int BLOCK = SPMV_BLOCK;
constexpr int TILE = SPMV_TILE;
constexpr int ITEMS = TILE / BLOCK;  // entries each thread loads per tile
static_assert(TILE % BLOCK == 0, "a tile is whole rounds of the block");

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
