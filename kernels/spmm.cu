// SpMM over op(A) given as rows: C = alpha * op(A) * op(B) + beta * C.
//
// Three kernels (parameter blocks in src/kernels/params/spmm.rs):
//  * `rows`   (oxs_spmm_rows_*): any type, any layout, any op(B) through strides. One warp per row,
//             lanes over 32 columns at a time. The fallback every case can take.
//  * `rowvec` (oxs_spmm_rowvec_*): row-major op(B) and C, 16-byte vector loads. A group of G lanes
//             per row, each lane holding R vectors of B's row; B rows of UNROLL entries are loaded
//             before any is used, so many loads are in flight per lane. Rows longer than
//             `sched.long_row` are left to the chunk blocks at the end of the grid.
//  * `find_long` (oxs_spmm_find_long_*): lists the long rows and their chunks (the schedule).
//
// Summation order, fixed so results are bitwise reproducible: a row's products are added in the
// row's stored order, starting from zero; a long row is cut into chunks of `sched.chunk` entries,
// each summed that way, and the chunk sums are added in chunk order. No atomics touch values.
#include "common/spmm.cuh"

using namespace spmm;

namespace {

// ---- the strided kernel -------------------------------------------------------------------------

template <typename V, typename O, typename C, typename I>
__device__ void rows_strided(const SpmmRowsParams& p) {
    const int64_t batch = blockIdx.y;
    const Rows<V, I> a(p.a, batch);
    const Dense<const V> b(p.b, batch);
    const Dense<O> c(p.c, batch);
    const int64_t m = p.shape.m, k = p.shape.k, n = p.shape.n;
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const int lane = threadIdx.x % WARP;
    const int64_t warps = int64_t(gridDim.x) * (blockDim.x / WARP);

    for (int64_t r = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / WARP; r < m; r += warps) {
        const int64_t begin = a.begin(r), end = a.end(r);
        for (int64_t j0 = 0; j0 < n; j0 += WARP) {
            const int64_t j = j0 + lane;
            C acc = zero<C>();
            for (int64_t q0 = begin; q0 < end; q0 += WARP) {
                // Stage 1: the warp reads 32 entries of the row, one per lane (coalesced).
                const int64_t q = q0 + lane;
                int64_t my_col = -1;
                C my_val = zero<C>();
                if (q < end) {
                    my_col = a.col(q, k);
                    my_val = a.template value<C>(q);
                }
                // Stage 2: every lane multiplies them, in order, into its column j.
                const int count = int(min(int64_t(WARP), end - q0));
                for (int e = 0; e < count; ++e) {
                    const int64_t kk = shfl(0xffffffffu, my_col, e, WARP);
                    const C av = shfl(0xffffffffu, my_val, e, WARP);
                    if (kk >= 0 && j < n) acc = acc + av * b.template read<C>(kk, j);
                }
            }
            // Stage 3: write C.
            if (j < n) write_out(c, r, j, acc, alpha, beta, read_c);
        }
    }
}

// ---- the vectorised kernel ----------------------------------------------------------------------

// Columns covered by one pass of a group: W = G * R * VEC. VEC elements of V make 16 bytes.
template <typename V, int W>
struct RowVecShape {
    static constexpr int VEC = 16 / sizeof(V);
    static constexpr int R = (W / VEC) > WARP ? (W / VEC) / WARP : 1;  // vectors per lane
    static constexpr int G = W / (VEC * R);                            // lanes per row
    static constexpr int UNROLL = R >= 4 ? 2 : 8 / R;                  // B rows in flight
    static_assert(G >= 1 && G <= WARP && (WARP % G) == 0, "group must divide a warp");
};

// The multiply of one row segment [begin, end) into `acc`, for the columns of pass `j0`.
// All G lanes of the group call it together (the shuffles are group-wide). A load round reads
// 32 entries (K per lane), so narrow groups do not pay one index round trip per G entries.
template <typename V, typename C, typename I, int W>
__device__ __forceinline__ void multiply_segment(const Rows<V, I>& a, const Dense<const V>& b, int64_t k, int64_t n,
                                                 int64_t begin, int64_t end, int64_t j0,
                                                 C (&acc)[RowVecShape<V, W>::R][RowVecShape<V, W>::VEC]) {
    using S = RowVecShape<V, W>;
    constexpr int K = S::G >= WARP ? 1 : WARP / S::G;  // entries per lane per load round
    const unsigned mask = group_mask(S::G);
    const int li = threadIdx.x % S::G;
    for (int64_t q0 = begin; q0 < end; q0 += S::G * K) {
        // Load stage: lane li reads entries q0 + s * G + li (coalesced per slot s).
        int64_t my_col[K];
        C my_val[K];
#pragma unroll
        for (int s = 0; s < K; ++s) {
            const int64_t q = q0 + s * S::G + li;
            my_col[s] = -1;
            my_val[s] = zero<C>();
            if (q < end) {
                my_col[s] = a.col(q, k);
                my_val[s] = a.template value<C>(q);
            }
        }
        const int count = int(min(int64_t(S::G * K), end - q0));
#pragma unroll
        for (int s = 0; s < K; ++s) {
            if (s * S::G >= count) break;  // the same for the whole group
            const int in_slot = min(S::G, count - s * S::G);
            for (int e0 = 0; e0 < in_slot; e0 += S::UNROLL) {
                // Fetch stage: the B rows of UNROLL entries, all loads issued before any use.
                Vec<V, S::VEC> bv[S::UNROLL][S::R];
                int64_t kk[S::UNROLL];
#pragma unroll
                for (int u = 0; u < S::UNROLL; ++u) {
                    kk[u] = shfl(mask, my_col[s], (e0 + u) % S::G, S::G);
                    if (e0 + u >= in_slot) kk[u] = -1;
#pragma unroll
                    for (int rr = 0; rr < S::R; ++rr) {
                        const int64_t j = j0 + (int64_t(rr) * S::G + li) * S::VEC;
                        if (kk[u] >= 0 && j < n) bv[u][rr] = load_vec<V, S::VEC>(b.at(kk[u], j));
                    }
                }
                // Compute stage: multiply-add in the row's order.
#pragma unroll
                for (int u = 0; u < S::UNROLL; ++u) {
                    const C av = shfl(mask, my_val[s], (e0 + u) % S::G, S::G);
                    if (kk[u] < 0) continue;
#pragma unroll
                    for (int rr = 0; rr < S::R; ++rr) {
                        const int64_t j = j0 + (int64_t(rr) * S::G + li) * S::VEC;
                        if (j >= n) continue;
#pragma unroll
                        for (int v = 0; v < S::VEC; ++v) acc[rr][v] = acc[rr][v] + av * to_compute<C>(bv[u][rr].v[v]);
                    }
                }
            }
        }
    }
}

// Store stage: C = alpha * acc + beta * C for the group's vectors of pass j0 of row r.
template <typename V, typename O, typename C, int W>
__device__ __forceinline__ void store_row(const Dense<O>& c, int64_t r, int64_t n, int64_t j0,
                                          const C (&acc)[RowVecShape<V, W>::R][RowVecShape<V, W>::VEC],
                                          C alpha, C beta, bool read_c) {
    using S = RowVecShape<V, W>;
    const int li = threadIdx.x % S::G;
#pragma unroll
    for (int rr = 0; rr < S::R; ++rr) {
        const int64_t j = j0 + (int64_t(rr) * S::G + li) * S::VEC;
        if (j >= n) continue;
        O* p = c.at(r, j);
        Vec<O, S::VEC> out;
        if (read_c) out = load_vec<O, S::VEC>(p);
#pragma unroll
        for (int v = 0; v < S::VEC; ++v) {
            C x = alpha * acc[rr][v];
            if (read_c) x = x + beta * to_compute<C>(out.v[v]);
            out.v[v] = from_compute<O>(x);
        }
        store_vec<O, S::VEC>(p, out);
    }
}

// Whether the schedule in the workspace is the one this call expects (see SpmmSchedule::token).
__device__ __forceinline__ bool schedule_valid(const SpmmSchedule& s) {
    return s.counters != 0 && *reinterpret_cast<const volatile uint64_t*>(s.counters + 8) == s.token;
}

// Rows part: one group per row. With a schedule, a row longer than `long_row` is summed chunk by
// chunk (chunk sums added in order); the chunk blocks do that when the schedule is valid, else
// the row's own group does, with the same arithmetic.
template <typename V, typename O, typename C, typename I, int W>
__device__ void rowvec_rows(const SpmmRowsParams& p, const Rows<V, I>& a, const Dense<const V>& b, const Dense<O>& c,
                            C alpha, C beta, bool read_c) {
    using S = RowVecShape<V, W>;
    const int64_t r = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / S::G;
    if (r >= p.shape.m) return;
    const int64_t begin = a.begin(r), end = a.end(r);
    const bool long_row = p.sched.counters != 0 && end - begin > p.sched.long_row;
    if (long_row && schedule_valid(p.sched)) return;
    const int64_t chunk = long_row ? p.sched.chunk : max(end - begin, int64_t(1));
    for (int64_t j0 = 0; j0 < p.shape.n; j0 += W) {
        C total[S::R][S::VEC];
        for (int64_t q = begin; q < end || q == begin; q += chunk) {
            C acc[S::R][S::VEC];
#pragma unroll
            for (int rr = 0; rr < S::R; ++rr)
#pragma unroll
                for (int v = 0; v < S::VEC; ++v) acc[rr][v] = zero<C>();
            multiply_segment<V, C, I, W>(a, b, p.shape.k, p.shape.n, q, min(end, q + chunk), j0, acc);
#pragma unroll
            for (int rr = 0; rr < S::R; ++rr)
#pragma unroll
                for (int v = 0; v < S::VEC; ++v) total[rr][v] = q == begin ? acc[rr][v] : total[rr][v] + acc[rr][v];
        }
        store_row<V, O, C, W>(c, r, p.shape.n, j0, total, alpha, beta, read_c);
    }
}

// Chunk part: groups walk the chunk list. Each writes its chunk's partial sums; the group that
// completes a row (the last arrival) adds the row's partials in chunk order and writes C.
template <typename V, typename O, typename C, typename I, int W>
__device__ void rowvec_chunks(const SpmmRowsParams& p, const Rows<V, I>& a, const Dense<const V>& b, const Dense<O>& c,
                              C alpha, C beta, bool read_c) {
    using S = RowVecShape<V, W>;
    const SpmmSchedule& s = p.sched;
    const int64_t n = p.shape.n, batch = blockIdx.y;
    const unsigned mask = group_mask(S::G);
    const int li = threadIdx.x % S::G;
    const int64_t groups_per_block = blockDim.x / S::G;
    const int64_t first_group = (int64_t(blockIdx.x) - p.row_blocks) * groups_per_block + threadIdx.x / S::G;
    const int64_t group_stride = (int64_t(gridDim.x) - p.row_blocks) * groups_per_block;
    if (!schedule_valid(s)) return;  // the row groups do the long rows
    const uint32_t chunks = reinterpret_cast<const volatile uint32_t*>(s.counters)[1];
    const int64_t* long_rows = reinterpret_cast<const int64_t*>(s.long_rows);
    const uint32_t* owner = reinterpret_cast<const uint32_t*>(s.chunk_owner);
    uint32_t* arrivals = reinterpret_cast<uint32_t*>(s.arrivals) + batch * s.max_long_rows;
    C* partials = reinterpret_cast<C*>(s.partials) + batch * s.max_chunks * n;

    for (int64_t chunk = first_group; chunk < chunks; chunk += group_stride) {
        const uint32_t slot = owner[chunk];
        const int64_t r = long_rows[3 * slot], first = long_rows[3 * slot + 1], count = long_rows[3 * slot + 2];
        const int64_t row_begin = a.begin(r), row_end = a.end(r);
        const int64_t begin = row_begin + (chunk - first) * s.chunk;
        const int64_t end = min(row_end, begin + s.chunk);
        for (int64_t j0 = 0; j0 < n; j0 += W) {
            C acc[S::R][S::VEC];
#pragma unroll
            for (int rr = 0; rr < S::R; ++rr)
#pragma unroll
                for (int v = 0; v < S::VEC; ++v) acc[rr][v] = zero<C>();
            multiply_segment<V, C, I, W>(a, b, p.shape.k, n, begin, end, j0, acc);
#pragma unroll
            for (int rr = 0; rr < S::R; ++rr) {
                const int64_t j = j0 + (int64_t(rr) * S::G + li) * S::VEC;
                if (j >= n) continue;
#pragma unroll
                for (int v = 0; v < S::VEC; ++v) partials[chunk * n + j + v] = acc[rr][v];
            }
        }
        // Publish the partial, then count the arrival; the last arrival finishes the row.
        __threadfence();
        uint32_t before = 0;
        if (li == 0) before = atomicAdd(&arrivals[slot], 1u);
        before = __shfl_sync(mask, before, 0, S::G);
        if (before + 1 != uint32_t(count)) continue;
        __threadfence();
        for (int64_t j = li; j < n; j += S::G) {
            C sum = __ldcg(&partials[first * n + j]);
            for (int64_t t = 1; t < count; ++t) sum = sum + __ldcg(&partials[(first + t) * n + j]);
            write_out(c, r, j, sum, alpha, beta, read_c);
        }
        if (li == 0) arrivals[slot] = 0;  // ready for the next call with this schedule
    }
}

template <typename V, typename O, typename C, typename I, int W>
__device__ void rowvec(const SpmmRowsParams& p) {
    wait_for_previous_kernel();  // op(B) may still be being staged (src/ops/spmm/mod.rs, pdl.cuh)
    const int64_t batch = blockIdx.y;
    const Rows<V, I> a(p.a, batch);
    const Dense<const V> b(p.b, batch);
    const Dense<O> c(p.c, batch);
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    if (blockIdx.x < p.row_blocks) rowvec_rows<V, O, C, I, W>(p, a, b, c, alpha, beta, read_c);
    else rowvec_chunks<V, O, C, I, W>(p, a, b, c, alpha, beta, read_c);
}

// ---- the schedule -------------------------------------------------------------------------------

// One thread per row: a row longer than `long_row` takes a slot and a run of chunk numbers.
// Slots are handed out by atomics, so their order varies; results do not (see rowvec_chunks).
template <typename I>
__device__ void find_long(const SpmmFindLongParams& p) {
    const SpmmSchedule& s = p.sched;
    const Rows<float, I> a(p.a, 0);
    uint32_t* counters = reinterpret_cast<uint32_t*>(s.counters);
    int64_t* long_rows = reinterpret_cast<int64_t*>(s.long_rows);
    uint32_t* owner = reinterpret_cast<uint32_t*>(s.chunk_owner);
    uint32_t* arrivals = reinterpret_cast<uint32_t*>(s.arrivals);
    const int64_t batches = gridDim.y;
    if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0) *reinterpret_cast<uint64_t*>(s.counters + 8) = s.token;
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.m; r += int64_t(gridDim.x) * blockDim.x) {
        const int64_t len = a.end(r) - a.begin(r);
        if (len <= s.long_row) continue;
        const int64_t count = (len + s.chunk - 1) / s.chunk;
        const uint32_t slot = atomicAdd(&counters[0], 1u);
        const uint32_t first = atomicAdd(&counters[1], uint32_t(count));
        if (slot >= s.max_long_rows || first + count > s.max_chunks) continue;  // cannot happen (bounds)
        long_rows[3 * slot] = r;
        long_rows[3 * slot + 1] = first;
        long_rows[3 * slot + 2] = count;
        for (int64_t t = 0; t < count; ++t) owner[first + t] = slot;
        for (int64_t bt = 0; bt < batches; ++bt) arrivals[bt * s.max_long_rows + slot] = 0;
    }
}

}  // namespace

// ---- instantiations -------------------------------------------------------------------------------

#define OXS_KERNEL(name, Params, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK) name(const Params p) { body; }

// The combinations with a vectorised kernel (real floating point).
#define OXS_SPMM_VEC_TYPES(X)                                                                               \
    X(f32_f32_f32, float, float, float) X(f64_f64_f64, double, double, double)                              \
    X(f16_f16_f32, __half, __half, float) X(f16_f32_f32, __half, float, float)                              \
    X(bf16_bf16_f32, __nv_bfloat16, __nv_bfloat16, float) X(bf16_f32_f32, __nv_bfloat16, float, float)

#define OXS_ROWS(sfx, V, O, C)                                                                     \
    OXS_KERNEL(oxs_spmm_rows_##sfx##_i32, SpmmRowsParams, (rows_strided<V, O, C, int32_t>(p)))   \
    OXS_KERNEL(oxs_spmm_rows_##sfx##_i64, SpmmRowsParams, (rows_strided<V, O, C, int64_t>(p)))

#define OXS_ROWVEC_W(sfx, V, O, C, W)                                                                     \
    OXS_KERNEL(oxs_spmm_rowvec_##sfx##_i32_w##W, SpmmRowsParams, (rowvec<V, O, C, int32_t, W>(p)))      \
    OXS_KERNEL(oxs_spmm_rowvec_##sfx##_i64_w##W, SpmmRowsParams, (rowvec<V, O, C, int64_t, W>(p)))

#define OXS_ROWVEC(sfx, V, O, C) \
    OXS_ROWVEC_W(sfx, V, O, C, 32) OXS_ROWVEC_W(sfx, V, O, C, 64) OXS_ROWVEC_W(sfx, V, O, C, 128) OXS_ROWVEC_W(sfx, V, O, C, 256)

OXS_SPMM_TYPES(OXS_ROWS)
OXS_SPMM_VEC_TYPES(OXS_ROWVEC)
OXS_KERNEL(oxs_spmm_find_long_i32, SpmmFindLongParams, (find_long<int32_t>(p)))
OXS_KERNEL(oxs_spmm_find_long_i64, SpmmFindLongParams, (find_long<int64_t>(p)))
