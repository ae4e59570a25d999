// Shared pieces of the SpMM kernels: reading op(A) as rows, reading op(B) and writing C through
// strides, shuffles of every compute type, and vector loads.
#pragma once
#include "common/types.cuh"
#include "common/scalar.cuh"
#include "common/pdl.cuh"
#include "common/address.cuh"

namespace spmm {

constexpr int WARP = 32;
// Threads per block of every SpMM kernel; must match kernels::spmm::BLOCK on the Rust side.
constexpr int BLOCK = 256;

// ---- shuffles of every compute type, within groups of `width` lanes ------------------------------
__device__ __forceinline__ float shfl(unsigned mask, float v, int src, int width) { return __shfl_sync(mask, v, src, width); }
__device__ __forceinline__ double shfl(unsigned mask, double v, int src, int width) { return __shfl_sync(mask, v, src, width); }
__device__ __forceinline__ int32_t shfl(unsigned mask, int32_t v, int src, int width) { return __shfl_sync(mask, v, src, width); }
__device__ __forceinline__ int64_t shfl(unsigned mask, int64_t v, int src, int width) {
    return __shfl_sync(mask, (long long)v, src, width);
}
__device__ __forceinline__ float2 shfl(unsigned mask, float2 v, int src, int width) {
    return make_float2(__shfl_sync(mask, v.x, src, width), __shfl_sync(mask, v.y, src, width));
}
__device__ __forceinline__ double2 shfl(unsigned mask, double2 v, int src, int width) {
    return make_double2(__shfl_sync(mask, v.x, src, width), __shfl_sync(mask, v.y, src, width));
}

// The lanes of the `width`-lane group the calling thread belongs to (width divides 32).
__device__ __forceinline__ unsigned group_mask(int width) {
    if (width == WARP) return 0xffffffffu;
    const int lane = threadIdx.x % WARP;
    return ((1u << width) - 1u) << (lane / width * width);
}

// ---- op(A) as rows -----------------------------------------------------------------------------
// See SpmmRows: CSR-like rows with an optional permutation into the user's value array.
template <typename V, typename I>
struct Rows {
    const I* offsets;
    const I* cols;
    const V* values;
    const I* perm;
    int64_t base;
    bool conj;

    __device__ Rows(const SpmmRows& a, int64_t batch)
        : offsets(a.offsets ? reinterpret_cast<const I*>(a.offsets) + batch * a.offsets_batch_stride : nullptr),
          cols(reinterpret_cast<const I*>(a.cols) + batch * a.cols_batch_stride),
          values(reinterpret_cast<const V*>(a.values) + batch * a.values_batch_stride),
          perm(a.perm ? reinterpret_cast<const I*>(a.perm) + batch * a.cols_batch_stride : nullptr),
          base(a.base),
          conj(a.conj != 0) {}

    // A NULL `offsets` means every row is empty (nnz == 0 or k == 0: C = beta * C).
    __device__ int64_t begin(int64_t r) const { return offsets ? int64_t(offsets[r]) - base : 0; }
    __device__ int64_t end(int64_t r) const { return offsets ? int64_t(offsets[r + 1]) - base : 0; }
    // Column of entry q, or -1 when it lies outside [0, k) (undefined input; never read B there).
    __device__ int64_t col(int64_t q, int64_t k) const {
        const int64_t c = int64_t(cols[q]) - base;
        return (c >= 0 && c < k) ? c : -1;
    }
    template <typename C>
    __device__ C value(int64_t q) const {
        const C v = to_compute<C>(values[perm ? int64_t(perm[q]) : q]);
        return conj ? ::conj(v) : v;
    }
};

// ---- a plain call's choice between two kernels, made on the GPU (SpmmChoice) --------------------
// Whether this launch is the one the choice picked (always, without a choice). Call it after
// wait_for_previous_kernel(): the verdict comes from an earlier kernel of the chain. The value is
// the same for every thread, so a block may return on it before its barriers.
// With `host_at`, block 0's first thread also leaves the verdict in mapped host memory, where the
// handle finds it on a later call with the same matrix (src/ops/spmm/plain_choice.rs).
__device__ __forceinline__ bool chosen(const SpmmChoice& c) {
    if (c.at == 0) return true;
    const bool long_rows = *reinterpret_cast<const volatile uint64_t*>(c.at) == c.epoch;
    if (c.host_at != 0 && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0)
        *reinterpret_cast<volatile uint64_t*>(c.host_at) = (c.epoch & ~uint64_t(1)) | uint64_t(long_rows);
    return long_rows == (c.runs_if_long != 0);
}

// ---- dense operands ----------------------------------------------------------------------------
template <typename T>
struct Dense {
    T* values;
    int64_t row_stride, col_stride;
    bool conj;
    __device__ Dense(const SpmmDense& d, int64_t batch)
        : values(reinterpret_cast<T*>(d.values) + batch * d.batch_stride),
          row_stride(d.row_stride),
          col_stride(d.col_stride),
          conj(d.conj != 0) {}
    __device__ T* at(int64_t r, int64_t c) const { return values + r * row_stride + c * col_stride; }
    template <typename C>
    __device__ C read(int64_t r, int64_t c) const {
        const C v = to_compute<C>(*at(r, c));
        return conj ? ::conj(v) : v;
    }
};

// *p = alpha * acc + beta * *p; with beta == 0 *p is not read (BLAS convention).
template <typename O, typename C>
__device__ __forceinline__ void write_at(O* p, C acc, C alpha, C beta, bool read_c) {
    C v = alpha * acc;
    if (read_c) v = v + beta * to_compute<C>(*p);
    *p = from_compute<O>(v);
}

// C(r, c) = alpha * acc + beta * C(r, c), C not read when beta is 0.
template <typename O, typename C>
__device__ __forceinline__ void write_out(const Dense<O>& c, int64_t r, int64_t j, C acc, C alpha, C beta, bool read_c) {
    write_at<O, C>(c.at(r, j), acc, alpha, beta, read_c);
}

// ---- vectors of N elements, loaded and stored as one 16- or 32-byte access -----------------------
template <typename T, int N>
struct alignas(sizeof(T) * N) Vec {
    T v[N];
};

// Reads through the read-only (non-coherent) path: B and A are never written by a kernel that
// reads them. 16- and 32-byte vectors are one or two 128-bit loads, 8-byte ones one 64-bit load.
template <typename T, int N>
__device__ __forceinline__ Vec<T, N> load_vec(const T* p) {
    static_assert(sizeof(Vec<T, N>) % 16 == 0 || sizeof(Vec<T, N>) == 8, "whole 16-byte words, or 8 bytes");
    Vec<T, N> v;
    if constexpr (sizeof(Vec<T, N>) == 8) {
        *reinterpret_cast<uint2*>(&v) = __ldg(reinterpret_cast<const uint2*>(p));
    } else {
        const uint4* src = reinterpret_cast<const uint4*>(p);
        uint4* dst = reinterpret_cast<uint4*>(&v);
#pragma unroll
        for (int i = 0; i < int(sizeof(v) / 16); ++i) dst[i] = __ldg(src + i);
    }
    return v;
}

// Writes with the streaming hint: C is not read again by this kernel, so keep L2 for B.
template <typename T, int N>
__device__ __forceinline__ void store_vec(T* p, const Vec<T, N>& v) {
    static_assert(sizeof(Vec<T, N>) % 16 == 0 || sizeof(Vec<T, N>) == 8, "whole 16-byte words, or 8 bytes");
    if constexpr (sizeof(Vec<T, N>) == 8) {
        __stcs(reinterpret_cast<uint2*>(p), *reinterpret_cast<const uint2*>(&v));
    } else {
        const uint4* src = reinterpret_cast<const uint4*>(&v);
        uint4* dst = reinterpret_cast<uint4*>(p);
#pragma unroll
        for (int i = 0; i < int(sizeof(v) / 16); ++i) __stcs(dst + i, src[i]);
    }
}

// ---- vectors of one lane: VEC columns of C (the vectorised kernels) ------------------------------
template <typename C, int VEC>
struct Acc {
    C v[VEC];
    __device__ __forceinline__ void zero_all() {
#pragma unroll
        for (int i = 0; i < VEC; ++i) v[i] = zero<C>();
    }
};

// C(r, j .. j + VEC) = alpha * acc + beta * C(r, ...); C is not read when beta is 0.
template <typename O, typename C, int VEC>
__device__ __forceinline__ void write_c(const Dense<O>& c, int64_t r, int64_t j, const Acc<C, VEC>& acc, C alpha, C beta,
                                        bool read_c) {
    O* p = c.at(r, j);
    Vec<O, VEC> out;
    if (read_c) out = load_vec<O, VEC>(p);
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
        C x = alpha * acc.v[i];
        if (read_c) x = x + beta * to_compute<C>(out.v[i]);
        out.v[i] = from_compute<O>(x);
    }
    store_vec<O, VEC>(p, out);
}

}  // namespace spmm

// (name, A/B storage, C storage, compute) of every type combination SpMM accepts
// (src/ops/spmm/check.rs, TYPE_COMBINATIONS), shared by every SpMM kernel family.
#define OXS_SPMM_TYPES(X)                                                                                   \
    X(f32_f32_f32, float, float, float) X(f64_f64_f64, double, double, double)                              \
    X(c32_c32_c32, float2, float2, float2) X(c64_c64_c64, double2, double2, double2)                        \
    X(f16_f16_f32, __half, __half, float) X(f16_f32_f32, __half, float, float)                              \
    X(bf16_bf16_f32, __nv_bfloat16, __nv_bfloat16, float) X(bf16_f32_f32, __nv_bfloat16, float, float)     \
    X(i8_i32_i32, int8_t, int32_t, int32_t) X(i8_f32_f32, int8_t, float, float)                             \
    X(c16_c16_c32, complex_half, complex_half, float2) X(cbf16_cbf16_c32, complex_bf16, complex_bf16, float2)

