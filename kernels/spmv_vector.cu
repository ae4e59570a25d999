// SpMV over op(A) given as rows, scheduled from the row lengths that preprocess measured.
//
// Kernels (parameter blocks in src/kernels/params/spmv.rs, SpmvVectorParams):
//  * `vector`        (oxs_spmv_vector_huge_*, or oxs_spmv_vector_* without huge rows): three
//                    kinds of worker by block index:
//                    blocks [0, huge_blocks) take the huge rows listed by preprocess, a block per
//                    row; the next long_blocks blocks take the long rows, a warp per row; the rest
//                    give every other row a group of `lanes` lanes. Each worker reads its row's
//                    entries straight from global memory, UNROLL per lane in flight, and reduces
//                    with a butterfly. Huge rows are cut into chunks of HUGE_CHUNK entries, a block
//                    each; the row's last block to finish adds the chunk sums. No fix-up launch.
//  * `band`          (oxs_spmv_band_*): the lean vector kernel's short rows, reading their column
//                    indices as 16-bit offsets from the row (`band_encode` writes them in
//                    preprocess for matrices whose every entry lies within 32767 of the diagonal):
//                    2 bytes per entry instead of 4 or 8, a sixth to a quarter of the stream.
//                    Without the lists' token it reads A's own indices, like `vector`.
//  * `row_histogram` (oxs_spmv_row_histogram_*): rows and entries per log2 bucket of row length,
//                    which the planner reads back (src/ops/spmv/schedule.rs).
//  * `list_rows`     (oxs_spmv_list_rows_*): the long and huge rows; `vector_stamp` then marks
//                    the lists valid.
//
// Summation order, fixed so results are bitwise reproducible run to run: a row's worker (group,
// warp or block, decided by the row's length alone) gives lane l the entries l, l + W, l + 2W, ...
// (W lanes), added in order; lanes combine by a butterfly, warps of a block in warp order, chunks
// of a huge row in chunk order. The order of the lists (built with atomics) decides only which
// worker takes a row, not its sums; the arrival counter only which block adds the chunks.
#include "common/spmv.cuh"

#include <type_traits>

using spmm::group_mask;
using spmm::Rows;
using spmm::shfl;
using spmm::WARP;
using namespace spmv;

namespace {

constexpr int UNROLL = SPMV_VECTOR_UNROLL;
constexpr int BUCKETS = SPMV_HIST_BUCKETS;
constexpr int64_t HUGE_CHUNK = SPMV_HUGE_CHUNK;

// ---- stage 1: one lane's share of a row --------------------------------------------------------

// Entry q's value in the compute type. MAY_PERMUTE: A may be read through a row view, whose
// permutation leads to the user's value array; without it the kernel leaves that check out of the
// loop (bench/notes/spmv.md: the per-entry checks cost the 27-point stencil a
// quarter of its time).
template <bool MAY_PERMUTE, typename V, typename C, typename I>
__device__ __forceinline__ C entry_value(const Rows<V, I>& a, int64_t q) {
    const C v = to_compute<C>(load_once(a.values + (MAY_PERMUTE && a.perm ? int64_t(a.perm[q]) : q)));
    return a.conj ? ::conj(v) : v;
}

// Sum over q = s + lane, s + lane + W, ... < e of a_q * x[col_q], in that order, W lanes sharing
// the row (W = 0: `stride` lanes, known only at run time). The loads of UNROLL entries are issued
// before any x is gathered. A compile-time W spares the division and the loop arithmetic of a run-
// time stride (the stencil: 52 against 44 us).
template <int W, bool MAY_PERMUTE, typename V, typename X, typename C, typename I>
__device__ __forceinline__ C lane_sum(const Rows<V, I>& a, const X* x, int64_t k, int64_t s, int64_t e, int lane, int stride = W) {
    const int64_t step = W ? W : stride;
    C sum = zero<C>();
#pragma unroll 1  // the UNROLL loads per trip are the unrolling; more only costs registers
    for (int64_t q = s + lane; q < e; q += UNROLL * step) {
        int64_t col[UNROLL];
        C val[UNROLL];
#pragma unroll
        for (int i = 0; i < UNROLL; ++i) {
            const int64_t qi = q + i * step;
            col[i] = -1;
            val[i] = zero<C>();
            if (qi < e) {
                col[i] = int64_t(load_once(a.cols + qi)) - a.base;
                val[i] = entry_value<MAY_PERMUTE, V, C>(a, qi);
            }
        }
        // One unsigned compare keeps columns outside [0, k) (undefined input) from reading x.
#pragma unroll
        for (int i = 0; i < UNROLL; ++i)
            if (uint64_t(col[i]) < uint64_t(k)) sum = sum + val[i] * to_compute<C>(load_x(x + col[i]));
    }
    return sum;
}

// ---- stage 2: reductions -----------------------------------------------------------------------

// Butterfly sum over the caller's group of G lanes (G = 0: g lanes, known only at run time).
template <int G, typename C>
__device__ __forceinline__ C group_sum(C v, int g = G) {
    const int w = G ? G : g;
    const unsigned mask = group_mask(w);
    const int li = threadIdx.x % w;
#pragma unroll
    for (int d = 1; d < w; d *= 2) v = v + shfl(mask, v, li ^ d, w);
    return v;
}

// The block's sum, valid in thread 0: warps by butterfly, then warp 0 adds the warps in order.
template <typename C>
__device__ C block_sum(C v) {
    __shared__ C warps[BLOCK / WARP];
    v = group_sum<WARP>(v);
    if (threadIdx.x % WARP == 0) warps[threadIdx.x / WARP] = v;
    __syncthreads();
    C total = zero<C>();
    if (threadIdx.x == 0)
        for (int w = 0; w < BLOCK / WARP; ++w) total = total + warps[w];
    __syncthreads();  // `warps` is free for the next row
    return total;
}

// ---- stage 3: the three kinds of worker --------------------------------------------------------

__device__ __forceinline__ bool lists_trusted(const SpmvVector& v) {
    return *reinterpret_cast<const volatile uint64_t*>(v.token_at) == v.token;
}

__device__ __forceinline__ int64_t list_count(const SpmvVector& v, int which) {
    return int64_t(reinterpret_cast<const volatile uint64_t*>(v.counts)[which]);
}

// y[r] from the chunk sums of huge row i, in chunk order (the row's last block, thread 0).
template <typename Y, typename C>
__device__ void finish_huge_row(const SpmvVectorParams& p, int64_t i, int64_t r, int64_t base, int64_t n) {
    const C* partials = reinterpret_cast<const C*>(p.v.partials);
    C total = zero<C>();
    for (int64_t j = 0; j < n; ++j) total = total + __ldcg(partials + base + j);  // L2: other SMs wrote them
    write_y(reinterpret_cast<Y*>(p.shape.y), r, total, load_scalar<C>(p.shape.alpha), load_scalar<C>(p.shape.beta));
    reinterpret_cast<unsigned*>(p.v.arrivals)[i] = 0;  // ready for the next call
}

// Huge rows: one block per chunk, worker w taking chunks w, w + workers, ...
template <typename V, typename X, typename Y, typename C, typename I>
__device__ void huge_rows(const SpmvVectorParams& p, const Rows<V, I>& a) {
    if (!lists_trusted(p.v)) return;
    const int64_t rows = list_count(p.v, 1), chunks = list_count(p.v, 2);
    const int64_t* chunk_row = reinterpret_cast<const int64_t*>(p.v.chunk_row);
    const uint64_t* chunk_info = reinterpret_cast<const uint64_t*>(p.v.chunk_info);
    const X* x = reinterpret_cast<const X*>(p.shape.x);
    for (int64_t c = blockIdx.x; c < chunks; c += p.v.huge_blocks) {
        // Everything below is the same for the whole block. The chunk's row, its slot in the huge
        // list and its index in the row arrive in one round trip.
        const int64_t r = chunk_row[c];
        const uint64_t info = chunk_info[c];
        const int64_t i = int64_t(info >> 32), j = int64_t(info & 0xffffffffu), base = c - j;
        if (r < 0 || r >= p.shape.m || i >= rows) continue;
        const int64_t s = a.begin(r), e = a.end(r), n = (e - s + HUGE_CHUNK - 1) / HUGE_CHUNK;
        if (j >= n) continue;
        const int64_t qs = s + j * HUGE_CHUNK, qe = min(e, qs + HUGE_CHUNK);
        const C sum = block_sum(lane_sum<BLOCK, true, V, X, C, I>(a, x, p.shape.k, qs, qe, threadIdx.x));
        if (threadIdx.x != 0) continue;
        if (n == 1) {
            write_y(reinterpret_cast<Y*>(p.shape.y), r, sum, load_scalar<C>(p.shape.alpha), load_scalar<C>(p.shape.beta));
            continue;
        }
        reinterpret_cast<C*>(p.v.partials)[c] = sum;
        __threadfence();  // the partial is visible before the arrival is counted
        if (atomicAdd(reinterpret_cast<unsigned*>(p.v.arrivals) + i, 1u) == unsigned(n - 1)) {
            __threadfence();
            finish_huge_row<Y, C>(p, i, r, base, n);
        }
    }
}

// Long rows: one warp per row.
template <bool MAY_PERMUTE, typename V, typename X, typename Y, typename C, typename I>
__device__ void long_rows(const SpmvVectorParams& p, const Rows<V, I>& a, int64_t worker, int64_t workers) {
    if (!lists_trusted(p.v)) return;
    const int64_t n = list_count(p.v, 0);
    const int64_t* list = reinterpret_cast<const int64_t*>(p.v.long_rows);
    const X* x = reinterpret_cast<const X*>(p.shape.x);
    const int lane = threadIdx.x % WARP;
    for (int64_t i = worker; i < n; i += workers) {
        const int64_t r = list[i];
        if (r < 0 || r >= p.shape.m) continue;  // the same for the whole warp
        const C sum = group_sum<WARP>(lane_sum<WARP, MAY_PERMUTE, V, X, C, I>(a, x, p.shape.k, a.begin(r), a.end(r), lane));
        if (lane == 0)
            write_y(reinterpret_cast<Y*>(p.shape.y), r, sum, load_scalar<C>(p.shape.alpha), load_scalar<C>(p.shape.beta));
    }
}

// Every other row: a group of G lanes (G = 0: p.v.lanes, known at run time). With trusted lists,
// rows of at least long_threshold entries belong to the list workers.
template <int G, bool MAY_PERMUTE, typename V, typename X, typename Y, typename C, typename I>
__device__ void short_row_groups(const SpmvVectorParams& p, const Rows<V, I>& a, int64_t first_block) {
    const int g = G ? G : p.v.lanes;
    const int64_t r = first_block * (BLOCK / g) + threadIdx.x / g;
    if (r >= p.shape.m) return;  // the same for the whole group
    const int64_t s = a.begin(r), e = a.end(r);
    if (e - s >= p.v.long_threshold && lists_trusted(p.v)) return;
    const X* x = reinterpret_cast<const X*>(p.shape.x);
    const C sum = group_sum<G>(lane_sum<G, MAY_PERMUTE, V, X, C, I>(a, x, p.shape.k, s, e, threadIdx.x % g, g), g);
    if (threadIdx.x % g == 0)
        write_y(reinterpret_cast<Y*>(p.shape.y), r, sum, load_scalar<C>(p.shape.alpha), load_scalar<C>(p.shape.beta));
}

// The group sizes the planner gives (src/ops/spmv/schedule.rs: powers of two from 4 to 16) get
// their own code without the permutation check; anything else takes the general path.
template <typename V, typename X, typename Y, typename C, typename I>
__device__ void short_rows(const SpmvVectorParams& p, const Rows<V, I>& a, int64_t first_block) {
    if (a.perm) return short_row_groups<0, true, V, X, Y, C, I>(p, a, first_block);
    switch (p.v.lanes) {
        case 4: return short_row_groups<4, false, V, X, Y, C, I>(p, a, first_block);
        case 8: return short_row_groups<8, false, V, X, Y, C, I>(p, a, first_block);
        case 16: return short_row_groups<16, false, V, X, Y, C, I>(p, a, first_block);
        default: return short_row_groups<0, true, V, X, Y, C, I>(p, a, first_block);
    }
}

// ---- the band kernels' short rows --------------------------------------------------------------

// `p` unchanged, but opaque to the compiler, which must then keep it in a register as it is.
template <typename T>
__device__ __forceinline__ const T* opaque(const T* p) {
    asm("" : "+l"(p));
    return p;
}

// Whether the band offsets may be read: present and written by the preprocess that stamped the
// lists. Read through the read-only cache (written by an earlier launch): every thread asks, and a
// volatile load would send each warp's question to the same L2 line.
__device__ __forceinline__ bool band_trusted(const SpmvVector& v) {
    return v.band && __ldg(reinterpret_cast<const unsigned long long*>(v.token_at)) == v.token;
}

// Entries each lane keeps in flight: FP32 twice the vector kernel's, with half the lanes per row
// (src/kernels/spmv.rs, band_lanes), so a multiprocessor works on twice the rows at once.
template <typename V>
constexpr int BAND_UNROLL = sizeof(V) <= 4 ? SPMV_BAND_UNROLL_F32 : UNROLL;

// One lane's share of a short row whose columns are r + off[j] (16-bit offsets), j = lane, lane +
// W, ... < len, added in that order (as `lane_sum`), U loads per trip issued before any x is
// gathered. Everything a lane holds is 32-bit and relative to the row, so an entry in flight costs
// its value and one register. CHECKED compares each column with [0, k): needed only near either
// end of x, where an offset overwritten after preprocess could leave it; those rows keep fewer
// entries in flight (the compare's 64-bit operands would spill), with the same sums.
template <int W, int U, bool CHECKED, typename V>
__device__ __forceinline__ V band_lane_sum(const int16_t* off, const V* val, const V* xr, int len, int lane, int64_t r, int64_t k) {
    // Held as they are: left to itself the compiler re-derives each address from the parameter
    // block and 64-bit row arithmetic per load (four instructions and a constant load each), and
    // runs short of registers for the loads in flight (the stencil in FP32: 44.4 against 42.6 us).
    off = opaque(off);
    val = opaque(val);
    xr = opaque(xr);
    V sum = zero<V>();
#pragma unroll 1
    for (int j = lane; j < len; j += U * W) {
        int d[U];
        V v[U];
#pragma unroll
        for (int i = 0; i < U; ++i) {
            d[i] = 0;
            v[i] = zero<V>();
            if (j + i * W < len) {
                d[i] = load_once(off + j + i * W);
                v[i] = load_once(val + j + i * W);
            }
        }
#pragma unroll
        for (int i = 0; i < U; ++i)
            if (j + i * W < len && (!CHECKED || uint64_t(r + d[i]) < uint64_t(k))) sum = sum + v[i] * load_x(xr + d[i]);
    }
    return sum;
}

// Short rows read through the band offsets. Trusted offsets come with trusted lists, so a row of
// long_threshold entries or more is a list worker's, and a short row has fewer than 256 entries.
// The stamp is read beside the row's offsets, not before them: a load ahead of everything else
// adds a round trip to every row's chain. Without the stamp the group reads A's indices and takes
// long rows too, as the vector kernel does.
template <int G, typename V, typename I>
__device__ void band_row_groups(const SpmvVectorParams& p, const Rows<V, I>& a, int64_t first_block) {
    const int64_t r = first_block * (BLOCK / G) + threadIdx.x / G;
    if (r >= p.shape.m) return;  // the same for the whole group
    const int64_t s = a.begin(r), e = a.end(r);
    const int lane = threadIdx.x % G;
    const V* x = reinterpret_cast<const V*>(p.shape.x);
    V part = zero<V>();
    if (!band_trusted(p.v)) {
        // A's indices, one entry per lane and trip: a buffer overwritten after preprocess only.
        for (int64_t q = s + lane; q < e; q += G) {
            const int64_t c = int64_t(a.cols[q]) - a.base;
            if (uint64_t(c) < uint64_t(p.shape.k)) part = part + a.values[q] * load_x(x + c);
        }
    } else {
        if (e - s >= p.v.long_threshold) return;
        const int16_t* off = reinterpret_cast<const int16_t*>(p.v.band) + s;
        const int len = int(e - s);
        // Every 16-bit offset from an interior row lands inside x.
        const bool interior = r >= -int64_t(INT16_MIN) && p.shape.k - r > INT16_MAX;
        part = interior ? band_lane_sum<G, BAND_UNROLL<V>, false>(off, a.values + s, x + r, len, lane, r, p.shape.k)
                        : band_lane_sum<G, UNROLL, true>(off, a.values + s, x + r, len, lane, r, p.shape.k);
    }
    const V sum = group_sum<G>(part);
    if (lane == 0) write_y(reinterpret_cast<V*>(p.shape.y), r, sum, load_scalar<V>(p.shape.alpha), load_scalar<V>(p.shape.beta));
}

template <typename V, typename I>
__device__ void band_rows(const SpmvVectorParams& p, const Rows<V, I>& a, int64_t first_block) {
    switch (p.v.lanes) {
        case 4: return band_row_groups<4>(p, a, first_block);
        case 8: return band_row_groups<8>(p, a, first_block);
        case 16: return band_row_groups<16>(p, a, first_block);
        default: return short_rows<V, V, V, V, I>(p, a, first_block);  // not given: A's indices
    }
}

// WITH_HUGE = false leaves the chunk path out: the kernel then needs fewer registers (32 against
// 48 in FP32), which the short rows' occupancy shows; the launcher picks it when huge_blocks is 0.
template <bool WITH_HUGE, typename V, typename X, typename Y, typename C, typename I>
__device__ void vector(const SpmvVectorParams& p) {
    const Rows<V, I> a(p.a, 0);
    const int64_t b = blockIdx.x, huge = WITH_HUGE ? p.v.huge_blocks : 0, lng = p.v.long_blocks;
    if (b < huge) {
        if constexpr (WITH_HUGE) huge_rows<V, X, Y, C, I>(p, a);
    } else if (b < huge + lng) {
        const int64_t warps = BLOCK / WARP;
        const int64_t worker = (b - huge) * warps + threadIdx.x / WARP;
        if (a.perm) long_rows<true, V, X, Y, C, I>(p, a, worker, lng * warps);
        else long_rows<false, V, X, Y, C, I>(p, a, worker, lng * warps);
    } else {
        short_rows<V, X, Y, C, I>(p, a, b - huge - lng);
    }
}

// ---- preprocess --------------------------------------------------------------------------------

__device__ __forceinline__ int bucket_of(int64_t len) { return len <= 0 ? 0 : 64 - __clzll((long long)len); }

// hist[b] += rows in bucket b, hist[BUCKETS + b] += their entries (integers: order-free).
template <typename I>
__device__ void row_histogram(const SpmvVectorParams& p) {
    __shared__ unsigned long long rows[BUCKETS], entries[BUCKETS];
    for (int b = threadIdx.x; b < BUCKETS; b += blockDim.x) rows[b] = entries[b] = 0;
    __syncthreads();
    const Rows<float, I> a(p.a, 0);
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.shape.m; r += int64_t(gridDim.x) * blockDim.x) {
        const int64_t len = a.end(r) - a.begin(r);
        const int b = min(bucket_of(len), BUCKETS - 1);
        atomicAdd(&rows[b], 1ull);
        atomicAdd(&entries[b], (unsigned long long)max(len, int64_t(0)));
    }
    __syncthreads();
    unsigned long long* hist = reinterpret_cast<unsigned long long*>(p.v.hist);
    for (int b = threadIdx.x; b < BUCKETS; b += blockDim.x) {
        if (rows[b]) atomicAdd(&hist[b], rows[b]);
        if (entries[b]) atomicAdd(&hist[BUCKETS + b], entries[b]);
    }
}

// Appends the long and huge rows to their lists and gives each huge row its chunks (counts zeroed
// before).
template <typename I>
__device__ void list_rows(const SpmvVectorParams& p) {
    const Rows<float, I> a(p.a, 0);
    unsigned long long* counts = reinterpret_cast<unsigned long long*>(p.v.counts);
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.shape.m; r += int64_t(gridDim.x) * blockDim.x) {
        const int64_t len = a.end(r) - a.begin(r);
        if (len >= p.v.huge_threshold) {
            const int64_t i = int64_t(atomicAdd(&counts[1], 1ull));
            const int64_t n = (len + HUGE_CHUNK - 1) / HUGE_CHUNK;
            const int64_t base = int64_t(atomicAdd(&counts[2], (unsigned long long)n));
            reinterpret_cast<unsigned*>(p.v.arrivals)[i] = 0;
            for (int64_t j = 0; j < n; ++j) {
                reinterpret_cast<int64_t*>(p.v.chunk_row)[base + j] = r;
                reinterpret_cast<uint64_t*>(p.v.chunk_info)[base + j] = (uint64_t(i) << 32) | uint64_t(j);
            }
        } else if (len >= p.v.long_threshold) {
            reinterpret_cast<int64_t*>(p.v.long_rows)[atomicAdd(&counts[0], 1ull)] = r;
        }
    }
}

// The band offsets of op(A) (column - row, as i16) into p.v.band, a warp per row (its lanes read
// consecutive entries: coalesced); counts the warps that met an offset that does not fit in
// p.v.counts[3] (zeroed before), which preprocess reads back.
template <typename I>
__device__ void band_encode(const SpmvVectorParams& p) {
    const Rows<float, I> a(p.a, 0);
    int16_t* band = reinterpret_cast<int16_t*>(p.v.band);
    const int lane = threadIdx.x % WARP;
    const int64_t warps = int64_t(gridDim.x) * (blockDim.x / WARP);
    bool misfit = false;
    for (int64_t r = int64_t(blockIdx.x) * (blockDim.x / WARP) + threadIdx.x / WARP; r < p.shape.m; r += warps) {
        const int64_t e = a.end(r);
        for (int64_t q = a.begin(r) + lane; q < e; q += WARP) {
            const int64_t d = int64_t(a.cols[q]) - a.base - r;
            misfit |= d < INT16_MIN || d > INT16_MAX;
            band[q] = int16_t(d);
        }
    }
    // One count per warp with a misfit: a wide matrix must not serialise on one atomic.
    if (__any_sync(0xffffffffu, misfit) && lane == 0) atomicAdd(reinterpret_cast<unsigned long long*>(p.v.counts) + 3, 1ull);
}

}  // namespace

// The lean kernel of real FP32 / FP64 matrices keeps to 32 registers, so that 8 blocks (every warp
// slot) fit on a multiprocessor: on the 27-point stencil 45 against 64 us at 40 registers.
// Other types would spill (complex heavily): 0 leaves them the compiler's choice.
template <typename V, typename C>
constexpr int lean_min_blocks() { return std::is_floating_point<V>::value && std::is_floating_point<C>::value ? 8 : 0; }

#define OXS_SPMV_VECTOR(name, V, X, Y, C, I, index)                                                                          \
    extern "C" __global__ void __launch_bounds__(BLOCK, lean_min_blocks<V, C>()) oxs_spmv_vector_##name##_##index(const SpmvVectorParams p) { \
        vector<false, V, X, Y, C, I>(p);                                                                                     \
    }                                                                                                                        \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_vector_huge_##name##_##index(const SpmvVectorParams p) { \
        vector<true, V, X, Y, C, I>(p);                                                                                      \
    }
#define OXS_SPMV_VECTOR_BOTH(name, V, X, Y, C) OXS_SPMV_VECTOR(name, V, X, Y, C, int32_t, i32) OXS_SPMV_VECTOR(name, V, X, Y, C, int64_t, i64)
OXS_SPMV_TYPES(OXS_SPMV_VECTOR_BOTH)

// The band kernels: real FP32 and FP64, where the index bytes are a quarter and a sixth of the
// stream (src/kernels/spmv.rs, `band_types`). Every block takes short rows through the band
// offsets; the long rows' warps are launched apart, as the lean kernel's first long_blocks blocks
// alone (their code in the band kernel cost its short rows 2 us on the stencil in FP32: 42.7
// against 40.6 us). OXS_SPMV_BAND_MIN_BLOCKS lets a lab
// build them for another occupancy (bench/notes/spmv.md).
#ifndef OXS_SPMV_BAND_MIN_BLOCKS
#define OXS_SPMV_BAND_MIN_BLOCKS(V) lean_min_blocks<V, V>()
#endif
#define OXS_SPMV_BAND(name, V, I, index)                                                                                     \
    extern "C" __global__ void __launch_bounds__(BLOCK, OXS_SPMV_BAND_MIN_BLOCKS(V)) oxs_spmv_band_##name##_##index(const SpmvVectorParams p) { \
        band_rows<V, I>(p, Rows<V, I>(p.a, 0), blockIdx.x);                                                                  \
    }
OXS_SPMV_BAND(f32_f32_f32_f32, float, int32_t, i32)
OXS_SPMV_BAND(f32_f32_f32_f32, float, int64_t, i64)
OXS_SPMV_BAND(f64_f64_f64_f64, double, int32_t, i32)
OXS_SPMV_BAND(f64_f64_f64_f64, double, int64_t, i64)

extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_band_encode_i32(const SpmvVectorParams p) { band_encode<int32_t>(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_band_encode_i64(const SpmvVectorParams p) { band_encode<int64_t>(p); }

extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_row_histogram_i32(const SpmvVectorParams p) { row_histogram<int32_t>(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_row_histogram_i64(const SpmvVectorParams p) { row_histogram<int64_t>(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_list_rows_i32(const SpmvVectorParams p) { list_rows<int32_t>(p); }
extern "C" __global__ void __launch_bounds__(BLOCK) oxs_spmv_list_rows_i64(const SpmvVectorParams p) { list_rows<int64_t>(p); }

// Stamps the token after the lists (a separate launch, so every block of list_rows is done).
extern "C" __global__ void oxs_spmv_vector_stamp(const SpmvVectorParams p) {
    *reinterpret_cast<uint64_t*>(p.v.token_at) = p.v.token;
}
