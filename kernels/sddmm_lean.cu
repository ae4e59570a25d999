// SDDMM's kernel for CSR C whose lines of A and B start on 16 bytes and hold whole 16-byte vectors
// (k * element size a multiple of 16): the common case, with the general kernel's bookkeeping cut
// to what it needs. G lanes share a value's dot product and each reads V of its 16-byte vectors
// (vectors sub, sub + G, ..., the order the general kernel sums in, so both give the same bits).
// A warp takes a run of C's values 32 / G at a time:
//   1. the row of its first value, by a warp-wide search of the offsets;
//   2. per step, each group's value: its row (followed from the last, in the index type), its
//      column, and the lane's vectors of A's line, reloaded only when the row changes;
//   3. the lane's V vectors of B's line, the products, the butterfly sum over the group, and the
//      value written by the group's first lane as alpha * dot + beta * C (C unread when beta is 0).
#include "common/sddmm.cuh"

namespace {

using namespace sddmm_shared;

// T: A's and B's storage type; TC: C's; C: the compute type; I: C's index type (positions are
// counted in it: nnz + base fits); G: lanes per value; V: 16-byte vectors a lane reads per line.
template <typename T, typename TC, typename C, typename I, int G, int V>
__device__ void sddmm_lean(const SddmmParams& p) {
    constexpr int PER_STEP = WARP / G;
    const int lane = threadIdx.x % WARP, sub = lane % G, slot = lane / G;
    const int64_t warp = (int64_t(blockIdx.x) * BLOCK + threadIdx.x) / WARP;
    if (warp * p.entries_per_warp >= p.stored) return;  // the whole warp
    const I first = I(warp * p.entries_per_warp);
    const I last = I(min(int64_t(first) + p.entries_per_warp, p.stored));
    const int64_t batch = blockIdx.y;
    const I* offsets = reinterpret_cast<const I*>(p.c.offsets) + batch * p.c.offsets_batch_stride;
    const I* cols = reinterpret_cast<const I*>(p.c.cols) + batch * p.c.cols_batch_stride;
    TC* out = reinterpret_cast<TC*>(p.c.values) + batch * p.c.values_batch_stride;
    const uint4* a = reinterpret_cast<const uint4*>(reinterpret_cast<const T*>(p.a.values) + batch * p.a.batch_stride);
    const uint4* b = reinterpret_cast<const uint4*>(reinterpret_cast<const T*>(p.b.values) + batch * p.b.batch_stride);
    // Lines' strides and lengths in 16-byte vectors.
    const int64_t lda = p.a.ld * int64_t(sizeof(T)) / VECTOR_BYTES, ldb = p.b.ld * int64_t(sizeof(T)) / VECTOR_BYTES;
    const int vectors = int(p.k * int64_t(sizeof(T)) / VECTOR_BYTES);
    const I base = I(p.c.base), rows = I(p.rows), n = I(p.n);
    const C alpha = load_scalar<C>(p.alpha), beta = load_scalar<C>(p.beta);
    const bool products = p.k > 0 && !is_zero(alpha);
    const bool read_c = !is_zero(beta);
    const auto end = [&](I r) { return I(offsets[r + 1] - base); };

    // 1. The row of the warp's first value.
    const spmm::Rows<TC, I> c(p.c, batch);
    I row = I(row_search::warp_lower_bound(c, p.rows, int64_t(first) + 1) - 1);
    I a_row = -1;
    uint4 av[V];

    for (I step = first; step < last; step += PER_STEP) {
        // 2. This group's value, its row and column.
        const I q = step + slot;
        const bool live = q < last;
        C dot = zero<C>();
        if (live && products) {
            row = advance(end, rows, row, q);
            const I j = cols[q] - base;
            if (j >= 0 && j < n) {
                if (row != a_row) {
                    const uint4* al = a + int64_t(row) * lda;
#pragma unroll
                    for (int t = 0; t < V; ++t)
                        if (sub + t * G < vectors) av[t] = __ldg(al + sub + t * G);
                    a_row = row;
                }
                // 3. The products.
                const uint4* bl = b + int64_t(j) * ldb;
                uint4 bv[V];
#pragma unroll
                for (int t = 0; t < V; ++t)
                    if (sub + t * G < vectors) bv[t] = __ldg(bl + sub + t * G);
#pragma unroll
                for (int t = 0; t < V; ++t)
                    if (sub + t * G < vectors) dot = dot16<T, C>(dot, av[t], bv[t]);
            }
        }
        dot = group_sum(dot, G);
        if (live && sub == 0) {
            C v = products ? alpha * dot : zero<C>();
            if (read_c) v = v + beta * to_compute<C>(out[q]);
            out[q] = from_compute<TC>(v);
        }
    }
}

}  // namespace

// ---- instantiations: oxs_sddmm_lean_<ab>_<c>_<index>_g<G>v<V> -------------------------------------
// The shapes src/ops/sddmm/plan.rs `lean_shape` may choose: G lanes of V vectors each.
#define OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, G, V)                                                             \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sddmm_lean_##AB##_##CN##_##IS##_g##G##v##V(const SddmmParams p) { \
        sddmm_lean<T, TC, C, I, G, V>(p);                                                                      \
    }

#define OXS_LEAN_SHAPES(AB, CN, T, TC, C, IS, I)                                                                       \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 1, 1)                                                                        \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 2, 1) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 2, 2) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 2, 4) \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 4, 1) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 4, 2) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 4, 4) \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 1) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 2) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 4) \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 8)

#define OXS_LEAN(AB, CN, T, TC, C)                \
    OXS_LEAN_SHAPES(AB, CN, T, TC, C, i32, int32_t) \
    OXS_LEAN_SHAPES(AB, CN, T, TC, C, i64, int64_t)

OXS_LEAN(f32, f32, float, float, float)
OXS_LEAN(f64, f64, double, double, double)
OXS_LEAN(c32, c32, float2, float2, float2)
OXS_LEAN(c64, c64, double2, double2, double2)
OXS_LEAN(f16, f32, __half, float, float)
OXS_LEAN(f16, f16, __half, __half, float)
OXS_LEAN(bf16, f32, __nv_bfloat16, float, float)
OXS_LEAN(bf16, bf16, __nv_bfloat16, __nv_bfloat16, float)
