// BRCV (Banded Row Column Value): its build from CSR rows and its SpMM (docs/design/brcv.md).
//
// Build (op(A) = A, CSR rows; src/kernels/brcv.rs runs the stages):
//   1. extent   a block per row block: the band [lo, lo + width) of diagonal offsets (column - row)
//               that costs least (stored slots against far entries; see `extent`), and each row's
//               count of far entries
//   2. scans    exclusive prefix sums of the blocks' value counts and of the rows' far counts
//   3. scatter  a thread per row, in stored order: band entries into the block's dense values
//               (offset-major, zeroed by the caller; a repeated (row, column) adds), the others
//               into the far CSR
// From CSR SpMM preprocess (src/ops/spmm/banded.rs) 1 and 2 are the detection, after a one-pass
// `screen` that declines matrices with too many far entries for sure; `refresh` runs 3 before every
// product (each block's band built in shared memory), from the values A has then.
//
// SpMM, C = alpha * A * op(B) + beta * C, a block per (row block, tile of NT columns, batch); each
// warp owns 16 rows of the block, each thread 8 of them (its group's) x TC columns. For every chunk
// of at most TW offsets of the block's band:
//   a. stage_band  the chunk's values in shared memory, offset-major as the format stores them
//                  (a_s[t][row]), so that a thread reads its 8 rows' values at one offset as vectors
//   b. stage_b     the rows of op(B) the chunk reaches (ROWS + chunk - 1), zero outside op(B)
//   c. accumulate  each thread walks the chunk's offsets in order; its 8 rows meet a window of 8 B
//                  rows that slides by one row an offset, held in registers: one row of TC values
//                  from shared memory an offset serves all 8 output rows
// then d. far      the far entries of the thread's rows, from global memory, and
//      e. epilogue C = alpha * acc + beta * C, C not read when beta is 0.
// Each output is summed in a fixed order (band offsets in order, then far entries in stored
// order), so results are reproducible.
#include "common/spmm.cuh"
#include "common/scan.cuh"
#include "common/cp_async.cuh"
#include <limits.h>
#include <type_traits>

using namespace spmm;

namespace {

constexpr int ROWS = BRCV_ROWS;
constexpr int THREADS = BRCV_THREADS;
constexpr int SCAN_BLOCK = BRCV_SCAN_BLOCK;
constexpr int REFRESH_THREADS = BRCV_REFRESH_THREADS;
// Shared memory the refresh builds a block's band in (a window of offsets at a time).
constexpr int REFRESH_BYTES = 32 * 1024;
constexpr int SCAN_ROUNDS = BRCV_SCAN_ROUNDS;
constexpr int64_t MAX_WIDTH = BRCV_MAX_WIDTH;
constexpr unsigned long long FAR_COST = BRCV_FAR_COST;
// Windows the build tries around a block's centre: half-widths MAX_WIDTH / 2 >> (w - 1), w = 1 .. WINDOWS.
constexpr int WINDOWS = BRCV_WINDOWS;

// The SpMM's tiling: rows per thread (a group), rows per warp, warps, column groups per warp.
constexpr int TR = 8;
constexpr int WARP_ROWS = 2 * TR;
constexpr int WARPS = THREADS / WARP;
constexpr int COL_GROUPS = WARP / 2;
static_assert(WARPS * WARP_ROWS == ROWS, "the warps cover the row block");

// Per compute type C and VEC, the bytes of a thread's vector of B (16; 8 for the narrow tiles of
// N <= 32 FP32 columns): columns per block (16 vectors), columns per thread, offsets per chunk
// (shared memory under 48 KiB for every type).
template <typename C, int VEC>
struct Tile {
    static constexpr int TC = VEC / int(sizeof(C));
    static constexpr int NT = TC * COL_GROUPS;
    static constexpr int TW = 192 / int(sizeof(C));
    // B rows staged per chunk, and a row's length padded by one vector (fewer bank conflicts when
    // column-major B is staged down its columns).
    static constexpr int B_ROWS = ROWS + TW - 1;
    static constexpr int B_LD = NT + TC;
};

template <typename T>
__device__ __forceinline__ T* ptr(uint64_t a) {
    return reinterpret_cast<T*>(a);
}

// ---- build ------------------------------------------------------------------------------------

// Stage 1, a block of ROWS threads per row block (a thread per row). The band is the cheapest of
// some candidates: the span of all entries, then windows of half-width 512, 256, .., 1, 0 around
// the block's centre (the middle entry of its middle row), each narrowed to the entries inside;
// and no band at all. A band costs its rows x width slots, a far entry FAR_COST.
template <typename I>
__device__ void extent(const BrcvBuildParams& p) {
    const BrcvFormat& f = p.fmt;
    const Rows<uint8_t, I> a(p.a, 0);
    const int64_t blk = blockIdx.x;
    const int64_t r = blk * ROWS + threadIdx.x;
    const int64_t rows_here = min(int64_t(ROWS), f.m - blk * ROWS);
    const bool row_ok = threadIdx.x < rows_here;
    const int64_t begin = row_ok ? a.begin(r) : 0, end = row_ok ? a.end(r) : 0;
    __shared__ long long s_lo, s_hi, s_centre;
    __shared__ unsigned long long s_in;
    // The row's entries with offsets in [from, to]: their count, and their span into s_lo / s_hi.
    auto window = [&](long long from, long long to) {
        long long lo = LLONG_MAX, hi = LLONG_MIN;
        unsigned long long in = 0;
        for (int64_t q = begin; q < end; ++q) {
            const int64_t c = a.col(q, f.k);
            if (c < 0) continue;  // outside [0, k): undefined input, never read
            const long long d = c - r;
            if (d < from || d > to) continue;
            lo = min(lo, d);
            hi = max(hi, d);
            ++in;
        }
        if (in > 0) {
            atomicMin(&s_lo, lo);
            atomicMax(&s_hi, hi);
            atomicAdd(&s_in, in);
        }
    };
    if (threadIdx.x == min(int64_t(ROWS / 2), rows_here - 1)) {
        const int64_t c = end > begin ? a.col(begin + (end - begin) / 2, f.k) : -1;
        s_centre = c >= 0 ? c - r : 0;
    }
    unsigned long long valid = 0;  // the block's entries (after the first candidate)
    long long best_lo = 0, best_width = 0, span_lo = 0, span_hi = -1;
    unsigned long long best_cost = ULLONG_MAX;
    for (int cand = 0; cand <= WINDOWS; ++cand) {
        const long long half = cand == 0 ? 0 : (MAX_WIDTH / 2) >> (cand - 1);
        // A window holding the whole span is the first candidate again (the same for the block).
        if (cand > 0 && s_centre - half <= span_lo && s_centre + half >= span_hi) continue;
        __syncthreads();  // the previous candidate's sums have been read
        if (threadIdx.x == 0) {
            s_lo = LLONG_MAX;
            s_hi = LLONG_MIN;
            s_in = 0;
        }
        __syncthreads();
        if (cand == 0) window(LLONG_MIN, LLONG_MAX);
        else window(s_centre - half, s_centre + half);
        __syncthreads();
        const long long lo = s_lo, hi = s_hi;
        const unsigned long long in = s_in;
        if (cand == 0) {
            valid = in;
            span_lo = lo;
            span_hi = hi;
        }
        const long long width = lo <= hi ? hi - lo + 1 : 0;
        const unsigned long long cost = (unsigned long long)(rows_here * width) + FAR_COST * (valid - in);
        if (width > 0 && width <= MAX_WIDTH && cost < best_cost) {
            best_cost = cost;
            best_lo = lo;
            best_width = width;
        }
    }
    if (FAR_COST * valid < best_cost) best_width = 0;  // no band: every entry far
    // Far entries of this row.
    unsigned long long far = 0;
    for (int64_t q = begin; q < end; ++q) {
        const int64_t c = a.col(q, f.k);
        if (c < 0) continue;
        const long long t = c - r - best_lo;
        far += !(t >= 0 && t < best_width);
    }
    if (row_ok) ptr<uint64_t>(f.far_offsets)[r] = far;
    if (threadIdx.x == 0) {
        ptr<int64_t>(f.lo)[blk] = best_width > 0 ? best_lo : 0;
        ptr<uint32_t>(f.width)[blk] = uint32_t(best_width);
        ptr<uint64_t>(f.start)[blk] = uint64_t(ROWS) * uint64_t(best_width);
        if (best_width > 0) atomicMax(ptr<unsigned long long>(p.widest), (unsigned long long)best_width);
    }
}

// The transparent path's screen (src/ops/spmm/banded.rs), before `extent`, a block of ROWS threads
// per row block: a lower bound on the block's far entries, added to p.widest (zeroed by the
// caller). Every band `extent` may choose lies within the block's span where that is at most
// MAX_WIDTH wide, else within MAX_WIDTH / 2 of its centre (the same centre), so at least the
// entries outside that are far. The block's entries are walked together (each finds its row among
// the block's offsets), so a very long row costs its block no more than the others' share.
template <typename I>
__device__ void screen(const BrcvBuildParams& p) {
    const BrcvFormat& f = p.fmt;
    const Rows<uint8_t, I> a(p.a, 0);
    const int64_t r0 = int64_t(blockIdx.x) * ROWS;
    const int rows_here = int(min(int64_t(ROWS), f.m - r0));
    __shared__ int64_t s_begin[ROWS + 1];
    __shared__ long long s_lo, s_hi, s_centre;
    __shared__ unsigned long long s_valid, s_near;
    for (int i = threadIdx.x; i <= rows_here; i += ROWS) s_begin[i] = i < rows_here ? a.begin(r0 + i) : a.end(r0 + rows_here - 1);
    if (threadIdx.x == 0) {
        s_lo = LLONG_MAX;
        s_hi = LLONG_MIN;
        s_valid = 0;
        s_near = 0;
    }
    __syncthreads();
    // extent's centre: the middle entry of the middle row.
    if (threadIdx.x == min(ROWS / 2, rows_here - 1)) {
        const int64_t begin = s_begin[threadIdx.x], end = s_begin[threadIdx.x + 1];
        const int64_t c = end > begin ? a.col(begin + (end - begin) / 2, f.k) : -1;
        s_centre = c >= 0 ? c - (r0 + threadIdx.x) : 0;
    }
    __syncthreads();
    const long long centre = s_centre;
    long long lo = LLONG_MAX, hi = LLONG_MIN;
    unsigned long long valid = 0, near = 0;
    for (int64_t q = s_begin[0] + threadIdx.x; q < s_begin[rows_here]; q += ROWS) {
        // The entry's row: the last i with s_begin[i] <= q.
        int below = 0, above = rows_here;
        while (above - below > 1) {
            const int mid = (below + above) / 2;
            if (s_begin[mid] <= q) below = mid;
            else above = mid;
        }
        const int64_t c = a.col(q, f.k);
        if (c < 0) continue;
        const long long d = c - (r0 + below);
        lo = min(lo, d);
        hi = max(hi, d);
        ++valid;
        near += (d >= centre - MAX_WIDTH / 2 && d <= centre + MAX_WIDTH / 2);
    }
    if (valid > 0) {
        atomicMin(&s_lo, lo);
        atomicMax(&s_hi, hi);
        atomicAdd(&s_valid, valid);
        atomicAdd(&s_near, near);
    }
    __syncthreads();
    if (threadIdx.x == 0 && s_valid > 0) {
        const unsigned long long held = s_hi - s_lo + 1 <= MAX_WIDTH ? s_valid : s_near;
        if (s_valid > held) atomicAdd(ptr<unsigned long long>(p.widest), s_valid - held);
    }
}

// A band slot plus an entry of A: the sum in the compute type C, stored in A's type V (the build and
// the refresh add a repeated (row, column) the same way).
template <typename V, typename C>
__device__ __forceinline__ void add_into(V& slot, V v) {
    slot = from_compute<V>(to_compute<C>(slot) + to_compute<C>(v));
}

// One row's entries: band entries into the row's dense values (a repeated (row, column) adds, in
// C), the others into its far slots. The far slots stop at the next row's first, so that a CSR whose
// structure differs from the one measured (the preprocess contract forbids it) never writes
// outside them.
template <typename V, typename C, typename I>
__device__ __forceinline__ void scatter_row(const BrcvFormat& f, const Rows<V, I>& a, int64_t r) {
    const int64_t blk = r / ROWS;
    const int64_t lo = ptr<const int64_t>(f.lo)[blk];
    const int64_t width = ptr<const uint32_t>(f.width)[blk];
    // The block's values are offset-major: offset t of row rho at t * ROWS + rho.
    V* band = ptr<V>(f.values) + ptr<const uint64_t>(f.start)[blk] + (r - blk * ROWS);
    V* far_values = ptr<V>(f.far_values);
    int64_t* far_cols = ptr<int64_t>(f.far_cols);
    uint64_t far = ptr<const uint64_t>(f.far_offsets)[r];
    const uint64_t far_end = ptr<const uint64_t>(f.far_offsets)[r + 1];
    for (int64_t q = a.begin(r); q < a.end(r); ++q) {
        const int64_t c = a.col(q, f.k);
        if (c < 0) continue;
        const V v = a.values[q];
        const int64_t t = c - r - lo;
        if (t >= 0 && t < width) {
            add_into<V, C>(band[t * ROWS], v);
        } else if (far < far_end) {
            far_cols[far] = c;
            far_values[far] = v;
            ++far;
        }
    }
}

// Stage 3, a thread per row (grid-stride). V: A's value type, C: its compute type (for the sum of
// a repeated (row, column)).
template <typename V, typename C, typename I>
__device__ void scatter(const BrcvBuildParams& p) {
    const Rows<V, I> a(p.a, 0);
    const int64_t stride = int64_t(gridDim.x) * blockDim.x;
    for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < p.fmt.m; r += stride) scatter_row<V, C, I>(p.fmt, a, r);
}

// The transparent path's refresh (src/ops/spmm/banded.rs), before every product, from A's values as
// they are at this call (the bands and far offsets were measured by preprocess; A's structure may
// not change after it, its values may). A block of REFRESH_THREADS per row block builds its band in
// shared memory, a window of REFRESH_OFFSETS offsets at a time (a pass; one for bands up to that
// wide), then writes it out contiguously: the band is offset-major, so a row's slots lie ROWS
// apart and adding into global memory would scatter. In a pass a warp takes a row at a time, its
// entries 32 at a time in stored order (coalesced): entries in the window add to their slots, far
// entries (first pass) go to the row's far slots in stored order (a ballot). A round where two
// lanes share a slot (a repeated entry) adds lane by lane, so every sum runs in stored order, as
// in stage 3.
template <typename V, typename C, typename I>
__device__ void refresh(const BrcvBuildParams& p) {
    // In shared memory an offset's rows are padded by one slot: a warp's lanes, a row's consecutive
    // offsets, then add in distinct banks.
    constexpr int S_LD = ROWS + 1;
    constexpr int REFRESH_OFFSETS = REFRESH_BYTES / (S_LD * int(sizeof(V)));
    __shared__ __align__(16) unsigned char s_raw[REFRESH_BYTES];
    V* const s_band = reinterpret_cast<V*>(s_raw);
    const BrcvFormat& f = p.fmt;
    const Rows<V, I> a(p.a, 0);
    const int64_t blk = blockIdx.x;
    const int64_t lo = ptr<const int64_t>(f.lo)[blk];
    const int64_t width = ptr<const uint32_t>(f.width)[blk];
    const uint64_t* far_offsets = ptr<const uint64_t>(f.far_offsets);
    V* far_values = ptr<V>(f.far_values);
    int64_t* far_cols = ptr<int64_t>(f.far_cols);
    const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    V* const block_band = ptr<V>(f.values) + ptr<const uint64_t>(f.start)[blk];
    // At least one pass, for the far entries of a block without a band.
    for (int64_t w0 = 0; w0 == 0 || w0 < width; w0 += REFRESH_OFFSETS) {
        const int wn = int(min(int64_t(REFRESH_OFFSETS), width - w0));
        for (int i = threadIdx.x; i < wn * S_LD; i += REFRESH_THREADS) s_band[i] = from_compute<V>(zero<C>());
        __syncthreads();
        for (int rho = warp; rho < ROWS; rho += REFRESH_THREADS / WARP) {
            const int64_t r = blk * ROWS + rho;
            if (r >= f.m) break;  // rows past m keep zeros (warp-uniform)
            V* band = s_band + rho;  // offset w0 + t at band[t * S_LD]
            uint64_t far = far_offsets[r];
            const uint64_t far_end = far_offsets[r + 1];
            const int64_t end = a.end(r);
            for (int64_t q0 = a.begin(r); q0 < end; q0 += WARP) {
                const int64_t q = q0 + lane;
                const int64_t c = q < end ? a.col(q, f.k) : -1;
                const V v = a.values[q < end ? q : q0];
                const int64_t t = c - r - lo;
                const bool in_band = c >= 0 && t >= 0 && t < width;
                if (w0 == 0) {
                    const unsigned far_lanes = __ballot_sync(0xffffffffu, c >= 0 && !in_band);
                    if (c >= 0 && !in_band) {
                        const uint64_t at = far + __popc(far_lanes & ((1u << lane) - 1));
                        if (at < far_end) far_cols[at] = c, far_values[at] = v;
                    }
                    far += __popc(far_lanes);
                }
                const bool here = in_band && t >= w0 && t < w0 + wn;
                const int slot = here ? int(t - w0) * S_LD : -1;
                const unsigned same = __match_any_sync(0xffffffffu, slot);
                if (__all_sync(0xffffffffu, !here || __popc(same) == 1)) {
                    if (here) add_into<V, C>(band[slot], v);
                } else {
                    for (int l = 0; l < WARP; ++l) {
                        if (lane == l && here) add_into<V, C>(band[slot], v);
                        __syncwarp();
                    }
                }
            }
        }
        __syncthreads();
        for (int i = threadIdx.x; i < wn * ROWS; i += REFRESH_THREADS) block_band[w0 * ROWS + i] = s_band[i / ROWS * S_LD + i % ROWS];
        __syncthreads();  // the next pass zeroes s_band
    }
}

// ---- SpMM -------------------------------------------------------------------------------------

// A vector of 16 or 8 bytes.
template <int BYTES>
using Raw = typename std::conditional<BYTES == 16, uint4, uint2>::type;

// N values from shared memory as BYTES-byte loads (the compiler cannot prove the alignment
// itself; every caller's address is a multiple of BYTES).
template <int BYTES, typename C, int N>
__device__ __forceinline__ void load_vectors(C (&out)[N], const C* p) {
    static_assert(N * sizeof(C) % BYTES == 0, "whole vectors");
    Raw<BYTES> raw[N * sizeof(C) / BYTES];
#pragma unroll
    for (int i = 0; i < int(N * sizeof(C) / BYTES); ++i) raw[i] = reinterpret_cast<const Raw<BYTES>*>(p)[i];
    memcpy(out, raw, sizeof(out));
}

// a. The chunk's values [t0, t0 + tn) of the block's band into a_s[t][row]: the band is
// offset-major in memory too, so the chunk is one contiguous run. Where A's values are of the
// compute type it is copied asynchronously, 16 bytes a copy (the caller waits); elsewhere each
// value is converted on its way.
template <typename V, typename C>
__device__ __forceinline__ void stage_band(C (*a_s)[ROWS], const V* band, int t0, int tn) {
    const V* src = band + int64_t(t0) * ROWS;
    if constexpr (std::is_same<V, C>::value) {
        constexpr int PER_COPY = 16 / int(sizeof(C));
        static_assert(ROWS % PER_COPY == 0, "a copy stays within an offset's rows");
        for (int i = threadIdx.x * PER_COPY; i < tn * ROWS; i += THREADS * PER_COPY)
            cp_async::copy16(&a_s[0][0] + i, src + i, true);
    } else {
        for (int i = threadIdx.x; i < tn * ROWS; i += THREADS) (&a_s[0][0])[i] = to_compute<C>(src[i]);
    }
}

// Whether a dense operand's rows are contiguous and every row starts on BYTES bytes.
template <int BYTES, typename T>
__device__ __forceinline__ bool rows_of_vectors(const Dense<T>& d) {
    return d.col_stride == 1 && d.row_stride * int64_t(sizeof(T)) % BYTES == 0 && reinterpret_cast<uintptr_t>(d.values) % BYTES == 0;
}

// b. op(B) rows jb .. jb + rows - 1, columns c0 .. c0 + NT - 1 (zero outside op(B)), read along
// whichever of B's strides is 1. Where B holds the compute type itself (and is not conjugated) the
// copies are asynchronous (the caller waits): a vector of TC values a copy where B's rows are
// vectors (its bytes past n zeros), else an element a copy; elsewhere each element is converted.
template <typename T, int VEC, typename V, typename C>
__device__ __forceinline__ void stage_b(C (*b_s)[T::B_LD], const Dense<const V>& b, int64_t jb, int rows, int64_t c0, int64_t k, int64_t n) {
    constexpr int NT = T::NT, TC = T::TC;
    const bool along_rows = b.col_stride == 1;
    if constexpr (std::is_same<V, C>::value) {
        if (!b.conj && rows_of_vectors<VEC>(b)) {
            // A thread keeps one vector column and steps down the rows: its bytes inside n are
            // fixed, its source advances by a stride.
            constexpr int PER_ROW = NT / TC, ROW_STEP = THREADS / PER_ROW;
            static_assert(THREADS % PER_ROW == 0, "whole rows a step");
            const int vec = threadIdx.x % PER_ROW;
            const int64_t cc = c0 + vec * TC;
            const int col_bytes = int(max(int64_t(0), min(int64_t(VEC), (n - cc) * int64_t(sizeof(C)))));
            int row = threadIdx.x / PER_ROW;
            const V* src = b.values + (jb + row) * b.row_stride + cc;
            for (; row < rows; row += ROW_STEP, src += ROW_STEP * b.row_stride) {
                const int64_t j = jb + row;
                const bool in = j >= 0 && j < k && col_bytes > 0;
                cp_async::copy_part<VEC>(&b_s[row][vec * TC], in ? src : b.values, in ? col_bytes : 0);
            }
            return;
        }
        if (!b.conj) {
            for (int i = threadIdx.x; i < rows * NT; i += THREADS) {
                const int row = along_rows ? i / NT : i % rows;
                const int col = along_rows ? i % NT : i / rows;
                const int64_t j = jb + row, cc = c0 + col;
                const bool in = j >= 0 && j < k && cc < n;
                cp_async::copy_part<sizeof(C)>(&b_s[row][col], in ? b.at(j, cc) : b.values, in ? int(sizeof(C)) : 0);
            }
            return;
        }
    }
    for (int i = threadIdx.x; i < rows * NT; i += THREADS) {
        const int row = along_rows ? i / NT : i % rows;
        const int col = along_rows ? i % NT : i / rows;
        const int64_t j = jb + row, cc = c0 + col;
        b_s[row][col] = (j >= 0 && j < k && cc < n) ? b.template read<C>(j, cc) : zero<C>();
    }
}

template <typename V, typename O, typename C, int VEC>
__device__ void spmm_brcv(const SpmmBrcvParams& p) {
    using T = Tile<C, VEC>;
    constexpr int TC = T::TC;
    static_assert(TC * sizeof(C) == VEC && T::B_LD * sizeof(C) % VEC == 0, "a thread's B values are one vector");
    __shared__ __align__(16) C a_s[T::TW][ROWS];
    __shared__ __align__(16) C b_s[T::B_ROWS][T::B_LD];
    const BrcvFormat& f = p.fmt;
    const int64_t blk = blockIdx.x;
    const int64_t r0 = blk * ROWS;
    const int64_t c0 = int64_t(blockIdx.y) * T::NT;
    const Dense<const V> b(p.b, blockIdx.z);
    const Dense<O> c(p.c, blockIdx.z);
    const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    const int group = lane / COL_GROUPS, cg = lane % COL_GROUPS;
    const int first = group * TR;  // the thread's first row within its warp's 16
    const int64_t lo = ptr<const int64_t>(f.lo)[blk];
    const int width = int(ptr<const uint32_t>(f.width)[blk]);
    const V* band = ptr<const V>(f.values) + ptr<const uint64_t>(f.start)[blk];

    C acc[TR][TC];
#pragma unroll
    for (int i = 0; i < TR; ++i)
#pragma unroll
        for (int q = 0; q < TC; ++q) acc[i][q] = zero<C>();

    const int chunks = (width + T::TW - 1) / T::TW;
    const int tw = chunks > 0 ? (width + chunks - 1) / chunks : 0;  // balanced chunks
    for (int ch = 0; ch < chunks; ++ch) {
        const int t0 = ch * tw, tn = min(tw, width - t0);
        __syncthreads();  // the previous chunk's stages have been read
        stage_band<V, C>(a_s, band, t0, tn);
        stage_b<T, VEC, V, C>(b_s, b, r0 + lo + t0, ROWS + tn - 1, c0, f.k, p.shape.n);
        cp_async::commit();
        cp_async::wait_groups<0>();
        __syncthreads();
        // c. Row first + i (of the warp's 16) takes offset t0 + t at B row first + i + t: walking
        // t, the thread's 8 rows meet a window of 8 B rows sliding by one, kept in registers
        // (row first + x in win[x % TR], so the unrolled steps name them statically).
        const C* a_at = &a_s[0][warp * WARP_ROWS + first];
        const C* b_at = &b_s[warp * WARP_ROWS + first][cg * TC];
        C win[TR][TC];
#pragma unroll
        for (int x = 0; x < TR - 1; ++x) load_vectors<VEC>(win[x], b_at + x * T::B_LD);
        for (int g = 0; g < tn; g += TR) {
#pragma unroll
            for (int s = 0; s < TR; ++s) {
                const int t = g + s;
                if (t >= tn) break;
                C av[TR];
                load_vectors<VEC>(win[(s + TR - 1) % TR], b_at + (t + TR - 1) * T::B_LD);
                load_vectors<16>(av, a_at + t * ROWS);
#pragma unroll
                for (int i = 0; i < TR; ++i)
#pragma unroll
                    for (int q = 0; q < TC; ++q) acc[i][q] = acc[i][q] + av[i] * win[(s + i) % TR][q];
            }
        }
    }

    // d. Far entries of the thread's rows.
    const int64_t row0 = r0 + warp * WARP_ROWS + first;
    if (f.far_cols != 0) {
        const uint64_t* far_offsets = ptr<const uint64_t>(f.far_offsets);
        const int64_t* far_cols = ptr<const int64_t>(f.far_cols);
        const V* far_values = ptr<const V>(f.far_values);
#pragma unroll
        for (int i = 0; i < TR; ++i) {
            const int64_t r = row0 + i;
            if (r >= f.m) break;
            for (uint64_t e = far_offsets[r]; e < far_offsets[r + 1]; ++e) {
                const int64_t col = far_cols[e];
                const C av = to_compute<C>(far_values[e]);
#pragma unroll
                for (int q = 0; q < TC; ++q) {
                    const int64_t cc = c0 + cg * TC + q;
                    if (cc < p.shape.n) acc[i][q] = acc[i][q] + av * b.template read<C>(col, cc);
                }
            }
        }
    }

    // e. Epilogue: one vector a row where C's rows are vectors of the compute type and the
    // thread's columns all lie in C.
    const C alpha = load_scalar<C>(p.shape.alpha), beta = load_scalar<C>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    if constexpr (std::is_same<O, C>::value) {
        if (rows_of_vectors<VEC>(c) && c0 + (cg + 1) * TC <= p.shape.n) {
#pragma unroll
            for (int i = 0; i < TR; ++i) {
                const int64_t r = row0 + i;
                if (r >= f.m) break;
                Raw<VEC>* at = reinterpret_cast<Raw<VEC>*>(c.at(r, c0 + cg * TC));
                C old[TC], out[TC];
                if (read_c) {
                    const Raw<VEC> raw = *at;
                    memcpy(old, &raw, sizeof(old));
                }
#pragma unroll
                for (int q = 0; q < TC; ++q) {
                    out[q] = alpha * acc[i][q];
                    if (read_c) out[q] = out[q] + beta * old[q];
                }
                Raw<VEC> raw;
                memcpy(&raw, out, sizeof(raw));
                *at = raw;
            }
            return;
        }
    }
#pragma unroll
    for (int i = 0; i < TR; ++i) {
        const int64_t r = row0 + i;
        if (r >= f.m) break;
#pragma unroll
        for (int q = 0; q < TC; ++q) {
            const int64_t cc = c0 + cg * TC + q;
            if (cc < p.shape.n) write_out(c, r, cc, acc[i][q], alpha, beta, read_c);
        }
    }
}

}  // namespace

// ---- instantiations ---------------------------------------------------------------------------

#define OXS_BRCV_EXTENT(ix, I)                                                                                     \
    extern "C" __global__ void __launch_bounds__(ROWS) oxs_brcv_extent_##ix(const BrcvBuildParams p) { extent<I>(p); } \
    extern "C" __global__ void __launch_bounds__(ROWS) oxs_brcv_screen_##ix(const BrcvBuildParams p) { screen<I>(p); }
OXS_BRCV_EXTENT(i32, int32_t)
OXS_BRCV_EXTENT(i64, int64_t)

extern "C" __global__ void __launch_bounds__(SCAN_BLOCK) oxs_brcv_scan_reduce(const BrcvBuildParams p) {
    scan::chunk_reduce<SCAN_BLOCK, SCAN_ROUNDS>(ptr<uint64_t>(p.scan_data), p.scan_n, ptr<uint64_t>(p.scan_sums));
}
extern "C" __global__ void __launch_bounds__(SCAN_BLOCK) oxs_brcv_scan_sums(const BrcvBuildParams p) {
    scan::sums_in_place<SCAN_BLOCK>(ptr<uint64_t>(p.scan_sums), p.scan_blocks);
}
extern "C" __global__ void __launch_bounds__(SCAN_BLOCK) oxs_brcv_scan_apply(const BrcvBuildParams p) {
    scan::chunk_apply<SCAN_BLOCK, SCAN_ROUNDS>(ptr<uint64_t>(p.scan_data), p.scan_n, ptr<const uint64_t>(p.scan_sums));
}

#define OXS_BRCV_SCATTER(sfx, V, C)                                                                                   \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_brcv_scatter_##sfx##_i32(const BrcvBuildParams p) {   \
        scatter<V, C, int32_t>(p);                                                                                    \
    }                                                                                                                 \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_brcv_scatter_##sfx##_i64(const BrcvBuildParams p) {   \
        scatter<V, C, int64_t>(p);                                                                                    \
    }                                                                                                                 \
    extern "C" __global__ void __launch_bounds__(REFRESH_THREADS) oxs_brcv_refresh_##sfx##_i32(const BrcvBuildParams p) {    \
        refresh<V, C, int32_t>(p);                                                                                    \
    }                                                                                                                 \
    extern "C" __global__ void __launch_bounds__(REFRESH_THREADS) oxs_brcv_refresh_##sfx##_i64(const BrcvBuildParams p) {    \
        refresh<V, C, int64_t>(p);                                                                                    \
    }
OXS_BRCV_SCATTER(f32, float, float)
OXS_BRCV_SCATTER(f64, double, double)
OXS_BRCV_SCATTER(c32, float2, float2)
OXS_BRCV_SCATTER(c64, double2, double2)
OXS_BRCV_SCATTER(f16, __half, float)
OXS_BRCV_SCATTER(bf16, __nv_bfloat16, float)
OXS_BRCV_SCATTER(i8, int8_t, int32_t)
OXS_BRCV_SCATTER(c16, complex_half, float2)
OXS_BRCV_SCATTER(cbf16, complex_bf16, float2)

// Four blocks a multiprocessor: at most 128 registers a thread. The narrow tiles (8-byte vectors,
// half the columns) serve N up to 128 bytes of a B row; with 16-byte compute types they are the
// wide ones (the host never asks for them).
#define OXS_BRCV_SPMM(sfx, V, O, C)                                                                               \
    extern "C" __global__ void __launch_bounds__(THREADS, 4) oxs_spmm_brcv_##sfx(const SpmmBrcvParams p) {        \
        spmm_brcv<V, O, C, 16>(p);                                                                                \
    }                                                                                                             \
    extern "C" __global__ void __launch_bounds__(THREADS, 4) oxs_spmm_brcv_narrow_##sfx(const SpmmBrcvParams p) { \
        spmm_brcv<V, O, C, (sizeof(C) > 8 ? 16 : 8)>(p);                                                         \
    }
OXS_SPMM_TYPES(OXS_BRCV_SPMM)
