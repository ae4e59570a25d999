// Element types and the arithmetic the kernels need on them.
//
// Storage types are what sits in the user's arrays (float, __half, float2 for complex float, ...);
// each has a compute type (`Compute<T>::type`) in which products and sums are formed, as cuSPARSE
// does: 16-bit values compute in float, complex 16-bit in float2, int8 in int32 or float.
// `to_compute<C>(x)` and `from_compute<T>(c)` convert between them; the overloaded operators and
// `conj` give one arithmetic for real and complex types.
#pragma once
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>

// ---- complex arithmetic on float2 / double2 ---------------------------------------------------
__device__ __forceinline__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 operator-(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 operator*(float2 a, float2 b) {
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ __forceinline__ double2 operator+(double2 a, double2 b) { return make_double2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ double2 operator-(double2 a, double2 b) { return make_double2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ double2 operator*(double2 a, double2 b) {
    return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

template <typename C> __device__ __forceinline__ C conj(C a) { return a; }
template <> __device__ __forceinline__ float2 conj(float2 a) { return make_float2(a.x, -a.y); }
template <> __device__ __forceinline__ double2 conj(double2 a) { return make_double2(a.x, -a.y); }

template <typename C> __device__ __forceinline__ C zero() { return C(0); }
template <> __device__ __forceinline__ float2 zero() { return make_float2(0.f, 0.f); }
template <> __device__ __forceinline__ double2 zero() { return make_double2(0.0, 0.0); }

template <typename C> __device__ __forceinline__ bool is_zero(C a) { return a == C(0); }
template <> __device__ __forceinline__ bool is_zero(float2 a) { return a.x == 0.f && a.y == 0.f; }
template <> __device__ __forceinline__ bool is_zero(double2 a) { return a.x == 0.0 && a.y == 0.0; }

// ---- complex 16-bit storage --------------------------------------------------------------------
struct alignas(4) complex_half { __half x, y; };
struct alignas(4) complex_bf16 { __nv_bfloat16 x, y; };

// ---- storage -> compute conversions ------------------------------------------------------------
template <typename C, typename T> __device__ __forceinline__ C to_compute(T v) { return C(v); }
template <> __device__ __forceinline__ float to_compute(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float to_compute(__nv_bfloat16 v) { return __bfloat162float(v); }
template <> __device__ __forceinline__ float to_compute(int8_t v) { return float(v); }
template <> __device__ __forceinline__ int32_t to_compute(int8_t v) { return int32_t(v); }
template <> __device__ __forceinline__ float2 to_compute(float2 v) { return v; }
// A real value in a complex computation (SpMV's mixed real/complex cases).
template <> __device__ __forceinline__ float2 to_compute(float v) { return make_float2(v, 0.f); }
template <> __device__ __forceinline__ double2 to_compute(double v) { return make_double2(v, 0.0); }
template <> __device__ __forceinline__ double2 to_compute(double2 v) { return v; }
template <> __device__ __forceinline__ float2 to_compute(complex_half v) {
    return make_float2(__half2float(v.x), __half2float(v.y));
}
template <> __device__ __forceinline__ float2 to_compute(complex_bf16 v) {
    return make_float2(__bfloat162float(v.x), __bfloat162float(v.y));
}

// ---- compute -> storage conversions (round to nearest) -----------------------------------------
template <typename T, typename C> __device__ __forceinline__ T from_compute(C v) { return T(v); }
template <> __device__ __forceinline__ __half from_compute(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_compute(float v) { return __float2bfloat16_rn(v); }
template <> __device__ __forceinline__ float2 from_compute(float2 v) { return v; }
template <> __device__ __forceinline__ double2 from_compute(double2 v) { return v; }
template <> __device__ __forceinline__ complex_half from_compute(float2 v) {
    return complex_half{__float2half_rn(v.x), __float2half_rn(v.y)};
}
template <> __device__ __forceinline__ complex_bf16 from_compute(float2 v) {
    return complex_bf16{__float2bfloat16_rn(v.x), __float2bfloat16_rn(v.y)};
}
