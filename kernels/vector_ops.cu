// Sparse-vector routines: Axpby, Gather, Scatter, Rot, SpVV.
//
// X is a sparse vector (nnz distinct indices, any order), Y a dense one. Every kernel is a
// grid-stride loop with 64-bit positions, so nnz and sizes beyond 2^31 work. Arithmetic happens in
// the compute type C of the storage type T (16-bit real -> float, 16-bit complex -> float2).
// SpVV reduces deterministically: a fixed grid writes one partial per block, then a single block
// adds the partials in a fixed order.
#include "common/types.cuh"
#include "common/scalar.cuh"

constexpr int kBlock = 256;  // must match kernels::BLOCK on the Rust side (reductions rely on it)

// ---- helpers -----------------------------------------------------------------------------------

template <typename C> __device__ __forceinline__ bool is_one(C a) { return a == C(1); }
template <> __device__ __forceinline__ bool is_one(float2 a) { return a.x == 1.f && a.y == 0.f; }
template <> __device__ __forceinline__ bool is_one(double2 a) { return a.x == 1.0 && a.y == 0.0; }

__device__ __forceinline__ int64_t first_item() { return int64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ int64_t item_stride() { return int64_t(gridDim.x) * blockDim.x; }

// Position in Y of the i-th stored entry of X.
template <typename I>
__device__ __forceinline__ int64_t dense_pos(const I* idx, int64_t i, int64_t base) { return int64_t(idx[i]) - base; }

// Sum of `v` over the block, in a fixed tree order; every thread gets the total.
template <typename C>
__device__ __forceinline__ C block_sum(C v, C* shared) {
    shared[threadIdx.x] = v;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) shared[threadIdx.x] = shared[threadIdx.x] + shared[threadIdx.x + half];
        __syncthreads();
    }
    return shared[0];
}

// ---- stages ------------------------------------------------------------------------------------

// Y = beta * Y. beta == 0 writes zeros without reading Y (NaN must not leak, BLAS convention);
// beta == 1 leaves Y untouched.
template <typename T, typename C>
__device__ __forceinline__ void scale_stage(const VecScaleParams& p) {
    const C beta = load_scalar<C>(p.beta);
    if (is_one(beta)) return;
    T* y = reinterpret_cast<T*>(p.y_values);
    const bool zero_beta = is_zero(beta);
    for (int64_t j = first_item(); j < p.size; j += item_stride()) {
        y[j] = from_compute<T>(zero_beta ? zero<C>() : beta * to_compute<C>(y[j]));
    }
}

// Y[idx] += alpha * X (Y already scaled by beta). alpha == 0 does not read X.
template <typename T, typename C, typename I>
__device__ __forceinline__ void axpy_stage(const VecAxpyParams& p) {
    const C alpha = load_scalar<C>(p.alpha);
    if (is_zero(alpha)) return;
    const I* idx = reinterpret_cast<const I*>(p.x_indices);
    const T* x = reinterpret_cast<const T*>(p.x_values);
    T* y = reinterpret_cast<T*>(p.y_values);
    for (int64_t i = first_item(); i < p.nnz; i += item_stride()) {
        const int64_t j = dense_pos(idx, i, p.base);
        y[j] = from_compute<T>(alpha * to_compute<C>(x[i]) + to_compute<C>(y[j]));
    }
}

template <typename T, typename I>
__device__ __forceinline__ void gather_stage(const VecMoveParams& p) {
    const I* idx = reinterpret_cast<const I*>(p.x_indices);
    T* x = reinterpret_cast<T*>(p.x_values);
    const T* y = reinterpret_cast<const T*>(p.y_values);
    for (int64_t i = first_item(); i < p.nnz; i += item_stride()) x[i] = y[dense_pos(idx, i, p.base)];
}

template <typename T, typename I>
__device__ __forceinline__ void scatter_stage(const VecMoveParams& p) {
    const I* idx = reinterpret_cast<const I*>(p.x_indices);
    const T* x = reinterpret_cast<const T*>(p.x_values);
    T* y = reinterpret_cast<T*>(p.y_values);
    for (int64_t i = first_item(); i < p.nnz; i += item_stride()) y[dense_pos(idx, i, p.base)] = x[i];
}

// x' = c x + s y, y' = c y - s x, both from the old values.
template <typename T, typename C, typename I>
__device__ __forceinline__ void rot_stage(const VecRotParams& p) {
    const C c = load_scalar<C>(p.c);
    const C s = load_scalar<C>(p.s);
    const I* idx = reinterpret_cast<const I*>(p.x_indices);
    T* x = reinterpret_cast<T*>(p.x_values);
    T* y = reinterpret_cast<T*>(p.y_values);
    for (int64_t i = first_item(); i < p.nnz; i += item_stride()) {
        const int64_t j = dense_pos(idx, i, p.base);
        const C xi = to_compute<C>(x[i]);
        const C yj = to_compute<C>(y[j]);
        x[i] = from_compute<T>(c * xi + s * yj);
        y[j] = from_compute<T>(c * yj - s * xi);
    }
}

// One partial sum per block; each thread walks a fixed grid-stride share, so the result depends
// only on nnz and the grid size, never on scheduling.
template <typename T, typename C, typename I>
__device__ __forceinline__ void spvv_partial_stage(const SpvvPartialParams& p) {
    __shared__ C shared[kBlock];
    const I* idx = reinterpret_cast<const I*>(p.x_indices);
    const T* x = reinterpret_cast<const T*>(p.x_values);
    const T* y = reinterpret_cast<const T*>(p.y_values);
    C acc = zero<C>();
    for (int64_t i = first_item(); i < p.nnz; i += item_stride()) {
        C xi = to_compute<C>(x[i]);
        if (p.conj_x) xi = conj(xi);
        acc = acc + xi * to_compute<C>(y[dense_pos(idx, i, p.base)]);
    }
    const C total = block_sum(acc, shared);
    if (threadIdx.x == 0) reinterpret_cast<C*>(p.partials)[blockIdx.x] = total;
}

template <typename C>
__device__ __forceinline__ void spvv_finish_stage(const SpvvFinishParams& p) {
    __shared__ C shared[kBlock];
    const C* partials = reinterpret_cast<const C*>(p.partials);
    C acc = zero<C>();
    for (int64_t i = threadIdx.x; i < p.count; i += kBlock) acc = acc + partials[i];
    const C total = block_sum(acc, shared);
    if (threadIdx.x == 0) *reinterpret_cast<C*>(p.out) = total;
}

// ---- instantiations ----------------------------------------------------------------------------

// (suffix, storage type, compute type) of the floating-point value types.
#define OXS_FLOAT_TYPES(X)                                                                          \
    X(f32, float, float) X(f64, double, double) X(f16, __half, float) X(bf16, __nv_bfloat16, float) \
    X(c32, float2, float2) X(c64, double2, double2) X(c16, complex_half, float2) X(cbf16, complex_bf16, float2)

// Gather and Scatter only move values: every floating-point type plus int8.
#define OXS_MOVE_TYPES(X) OXS_FLOAT_TYPES(X) X(i8, int8_t, int8_t)

// (value suffix, storage type, compute suffix, compute type) of SpVV.
#define OXS_SPVV_TYPES(X)                                                                           \
    X(f32, float, f32, float) X(f64, double, f64, double) X(c32, float2, c32, float2)                \
    X(c64, double2, c64, double2) X(i8, int8_t, i32, int32_t) X(i8, int8_t, f32, float)              \
    X(f16, __half, f32, float) X(bf16, __nv_bfloat16, f32, float) X(c16, complex_half, c32, float2)  \
    X(cbf16, complex_bf16, c32, float2)

#define OXS_COMPUTE_TYPES(X) X(f32, float) X(f64, double) X(c32, float2) X(c64, double2) X(i32, int32_t)

// One thin kernel: `body` is a parenthesised call (template commas would split a macro argument).
#define OXS_KERNEL(name, Params, body) \
    extern "C" __global__ void __launch_bounds__(kBlock) name(const Params p) { body; }

#define OXS_SCALE(sfx, T, C) OXS_KERNEL(oxs_axpby_scale_##sfx, VecScaleParams, (scale_stage<T, C>(p)))

#define OXS_AXPY(sfx, T, C)                                                                \
    OXS_KERNEL(oxs_axpby_##sfx##_i32, VecAxpyParams, (axpy_stage<T, C, int32_t>(p)))     \
    OXS_KERNEL(oxs_axpby_##sfx##_i64, VecAxpyParams, (axpy_stage<T, C, int64_t>(p)))

#define OXS_ROT(sfx, T, C)                                                                 \
    OXS_KERNEL(oxs_rot_##sfx##_i32, VecRotParams, (rot_stage<T, C, int32_t>(p)))         \
    OXS_KERNEL(oxs_rot_##sfx##_i64, VecRotParams, (rot_stage<T, C, int64_t>(p)))

#define OXS_MOVE(sfx, T, C)                                                                \
    OXS_KERNEL(oxs_gather_##sfx##_i32, VecMoveParams, (gather_stage<T, int32_t>(p)))     \
    OXS_KERNEL(oxs_gather_##sfx##_i64, VecMoveParams, (gather_stage<T, int64_t>(p)))     \
    OXS_KERNEL(oxs_scatter_##sfx##_i32, VecMoveParams, (scatter_stage<T, int32_t>(p)))   \
    OXS_KERNEL(oxs_scatter_##sfx##_i64, VecMoveParams, (scatter_stage<T, int64_t>(p)))

#define OXS_SPVV(sfx, T, csfx, C)                                                                           \
    OXS_KERNEL(oxs_spvv_##sfx##_##csfx##_i32, SpvvPartialParams, (spvv_partial_stage<T, C, int32_t>(p)))  \
    OXS_KERNEL(oxs_spvv_##sfx##_##csfx##_i64, SpvvPartialParams, (spvv_partial_stage<T, C, int64_t>(p)))

#define OXS_SPVV_FINISH(csfx, C) OXS_KERNEL(oxs_spvv_finish_##csfx, SpvvFinishParams, (spvv_finish_stage<C>(p)))

OXS_FLOAT_TYPES(OXS_SCALE)
OXS_FLOAT_TYPES(OXS_AXPY)
OXS_FLOAT_TYPES(OXS_ROT)
OXS_MOVE_TYPES(OXS_MOVE)
OXS_SPVV_TYPES(OXS_SPVV)
OXS_COMPUTE_TYPES(OXS_SPVV_FINISH)
