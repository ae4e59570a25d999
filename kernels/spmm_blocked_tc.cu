// SpMM with a block-format A (opA = N), BSR and Blocked-ELL, on tensor cores: blocks of 16, 32,
// 64 or 128 rows and 16, 32 or a multiple of 64 columns (src/ops/spmm/blocked.rs decides), with
// FP16 or BF16 A and B (mma m16n8k16, exact products, FP32 sums) or FP32 A and B in the TF32 math
// modes (m16n8k8; three mmas on TF32 heads and tails in the FP32-accurate mode). Where the
// operands copy 16 bytes at a time as they lie, the 16-bit and TF32 calls take
// kernels/spmm_blocked_tc_async.cu instead, which gives the same bits.
//
// A thread block takes one block row and COLS (64) columns of C. It walks the block row's k range
// (its blocks' columns, blocks in stored order) a chunk of KC columns at a time:
//   locate    where a thread's chunk column lies: its B row and A's offset (none: zero); the
//             next chunk's is located while this one is staged
//   stage_a   the chunk's rb x KC values of A into shared memory, zero where there is no column
//   stage_b   op(B)'s KC rows x COLS of the chunk, transposed, into shared memory
//   multiply  each warp, per k step: its 16-row slice's A fragment times its n tiles' B fragments
// so an element of B is read from memory once per block row and feeds all of its rows. With
// S = rb / 16 slices, warp w takes slice w / (8 / S) and the S n tiles from (w % (8 / S)) * S of
// the tile's 8. Each k step's product is added to FP32 accumulators in a fixed order (results
// are reproducible); 16-bit steps add theirs with a rounded add, since the mma's own
// accumulation truncates (bench/notes/tensor-cores.md).
#include "common/spmm.cuh"
#include "common/blocked.cuh"
#include "common/tc_step.cuh"

using namespace spmm;

namespace {

constexpr int COLS = SPMM_BLOCKED_TC_COLS;
constexpr int MAX_ROWS = SPMM_BLOCKED_TC_MAX_ROWS;
constexpr int WARPS = BLOCK / WARP;
static_assert(COLS == 8 * WARPS, "a slice's warps share the tile's 8 n tiles");
static_assert(MAX_ROWS == 16 * WARPS, "at most one slice a warp");

__device__ __forceinline__ uint32_t word(const uint16_t* p) { return *reinterpret_cast<const uint32_t*>(p); }

// FP16 or BF16 (T): the values' bits in shared memory, 64 columns a chunk (128 bytes a row), k
// steps of 16. Rows are padded by 8 halves: the fragments' 32-bit reads at (g, 2t) then fall in
// banks 4g + t, all distinct.
template <typename T>
struct Half {
    using V = T;
    using S = uint16_t;
    static constexpr int KC = 64, KSTEP = 16, STRIDE = KC + 8;

    __device__ static S store(V v) { return *reinterpret_cast<const uint16_t*>(&v); }

    struct AFrag {
        uint32_t a[4];
    };

    // Rows r0 + g and r0 + g + 8, columns k0 + 2t, 2t + 1 and the same 8 further.
    __device__ static AFrag a_frag(const S* as, int r0, int k0, int g, int t) {
        const S* p = as + (r0 + g) * STRIDE + k0 + 2 * t;
        return AFrag{{word(p), word(p + 8 * STRIDE), word(p + 8), word(p + 8 * STRIDE + 8)}};
    }

    // B rows k0 + 2t, 2t + 1 (and 8 further) of column n0 + g: bt holds op(B) transposed.
    __device__ static void multiply(float (&acc)[4], const AFrag& f, const S* bt, int n0, int k0, int g, int t) {
        const S* p = bt + (n0 + g) * STRIDE + k0 + 2 * t;
        const uint32_t b[2] = {word(p), word(p + 8)};
        float d[4] = {0.f, 0.f, 0.f, 0.f};
        tc::mma_16<T>(d, f.a, b);
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[e] += d[e];
    }
};

// FP32 on TF32 (ACCURATE: heads and tails, three mmas): 32 columns a chunk, k steps of 8, rows
// padded by 4 words (banks 4g + t again).
template <bool ACCURATE>
struct Tf32 {
    using V = float;
    using S = float;
    static constexpr int KC = 32, KSTEP = 8, STRIDE = KC + 4;

    __device__ static S store(V v) { return v; }

    struct AFrag {
        uint32_t head[4], tail[4];
    };

    __device__ static void split(float x, uint32_t& head, uint32_t& tail) {
        if (ACCURATE) {
            tc::split_tf32(x, head, tail);
        } else {
            head = tc::to_tf32(x);
            tail = 0;
        }
    }

    // Rows r0 + g, r0 + g + 8 at column k0 + t, then both at k0 + t + 4.
    __device__ static AFrag a_frag(const S* as, int r0, int k0, int g, int t) {
        const S* p = as + (r0 + g) * STRIDE + k0 + t;
        const float x[4] = {p[0], p[8 * STRIDE], p[4], p[8 * STRIDE + 4]};
        AFrag f;
#pragma unroll
        for (int e = 0; e < 4; ++e) split(x[e], f.head[e], f.tail[e]);
        return f;
    }

    // B rows k0 + t and k0 + t + 4 of column n0 + g.
    __device__ static void multiply(float (&acc)[4], const AFrag& f, const S* bt, int n0, int k0, int g, int t) {
        const S* p = bt + (n0 + g) * STRIDE + k0 + t;
        uint32_t head[2], tail[2];
        split(p[0], head[0], tail[0]);
        split(p[4], head[1], tail[1]);
        if (ACCURATE) {
            float d[4] = {0.f, 0.f, 0.f, 0.f};
            tc::mma_tf32(d, f.tail, head);  // small terms first
            tc::mma_tf32(d, f.head, tail);
            tc::mma_tf32(d, f.head, head);
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[e] += d[e];
        } else {
            tc::mma_tf32(acc, f.head, head);
        }
    }
};

template <typename P>
struct Shared {
    typename P::S a[MAX_ROWS * P::STRIDE];
    typename P::S bt[COLS * P::STRIDE];
    int64_t b_row[P::KC];  // op(B)'s row of each chunk column, -1: none (the k steps' skip test)
};

// Where one chunk column lies: op(B)'s row (-1: no column) and A's element (0, column).
struct Column {
    int64_t row, at;
};

// locate: the thread's own chunk column kp = threadIdx.x % KC (BLOCK is a multiple of KC, so it
// is the same in every staging loop) of the chunk that starts at k position c0 of block row br
// (its blocks begin .. end, each cb wide; cb divides KC or KC divides cb).
template <typename P, typename A>
__device__ __forceinline__ Column locate(const A& a, int64_t br, int64_t begin, int64_t end, int64_t c0, int64_t k) {
    const int64_t pos = c0 + threadIdx.x % P::KC;
    const int64_t q = begin + pos / a.cb, cc = pos % a.cb;
    Column col{-1, 0};
    if (q < end) {
        const int64_t col0 = a.col0(q, k);
        if (col0 >= 0 && col0 + cc < k) col = Column{col0 + cc, (a.at(br, q, 0) - a.values) + cc * a.col_step()};
    }
    return col;
}

// stage_a: the thread's chunk column, every BLOCK / KC-th row from threadIdx.x / KC.
template <typename P, typename A>
__device__ __forceinline__ void stage_a(Shared<P>& sh, const A& a, int rows, const Column& col) {
    const int kp = threadIdx.x % P::KC;
    const typename P::V* v = a.values + col.at;
    const int64_t step = a.row_step();
    for (int r = threadIdx.x / P::KC; r < rows; r += BLOCK / P::KC)
        sh.a[r * P::STRIDE + kp] = col.row >= 0 ? P::store(v[r * step]) : typename P::S(0);
}

// stage_b: op(B)'s row of the thread's chunk column, transposed into bt; consecutive threads take
// consecutive chunk columns, so the transposed writes fall in distinct banks. A row-major op(B)
// whose rows start on 16-byte boundaries is read 16 bytes a thread (a warp's two reads of a
// 32-byte sector come from neighbouring warps at once), any other element by element.
template <typename P>
__device__ __forceinline__ void stage_b(Shared<P>& sh, const SpmmDense& bd, int64_t j0, int64_t n, const Column& col) {
    using V = typename P::V;
    using S = typename P::S;
    constexpr int VEC = 16 / sizeof(V), GROUPS = BLOCK / P::KC;
    static_assert(sizeof(S) == sizeof(V) && COLS % (VEC * GROUPS) == 0, "whole vectors, every thread the same count");
    const int kp = threadIdx.x % P::KC;
    const V* b = reinterpret_cast<const V*>(bd.values) + (col.row >= 0 ? col.row : 0) * bd.row_stride;
    if (bd.col_stride == 1 && bd.row_stride % VEC == 0 && bd.values % 16 == 0) {
        for (int jv = threadIdx.x / P::KC * VEC; jv < COLS; jv += GROUPS * VEC) {
            S v[VEC];
#pragma unroll
            for (int e = 0; e < VEC; ++e) v[e] = S(0);
            if (col.row >= 0) {
                const V* src = b + j0 + jv;
                if (j0 + jv + VEC <= n) {
                    const uint4 x = __ldg(reinterpret_cast<const uint4*>(src));
                    const S* xs = reinterpret_cast<const S*>(&x);
#pragma unroll
                    for (int e = 0; e < VEC; ++e) v[e] = xs[e];
                } else {
#pragma unroll
                    for (int e = 0; e < VEC; ++e)
                        if (j0 + jv + e < n) v[e] = P::store(src[e]);
                }
            }
#pragma unroll
            for (int e = 0; e < VEC; ++e) sh.bt[(jv + e) * P::STRIDE + kp] = v[e];
        }
        return;
    }
    for (int j = threadIdx.x / P::KC; j < COLS; j += GROUPS) {
        S v = 0;
        if (col.row >= 0 && j0 + j < n) v = P::store(b[(j0 + j) * bd.col_stride]);
        sh.bt[j * P::STRIDE + kp] = v;
    }
}

// SMAX: the most slices the instantiation takes (2: blocks of 16 or 32 rows, in fewer registers;
// 8: up to 128).
template <typename P, typename O, typename I, bool ELL, int SMAX>
__device__ void block_rows_tc(const SpmmBlockedParams& p) {
    __shared__ Shared<P> sh;
    const blocked::BlockRows<typename P::V, I, ELL> a(p);
    const Dense<O> c(p.c, 0);
    const float alpha = load_scalar<float>(p.shape.alpha), beta = load_scalar<float>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, g = lane >> 2, t = lane & 3;
    const int64_t k = p.shape.k, n = p.shape.n;
    const int rows = int(p.row_block), slices = rows / 16, per_slice = WARPS / slices;
    const int slice = warp / per_slice, nt0 = (warp % per_slice) * slices;
    const int64_t brows = p.shape.m / p.row_block, tiles = (n + COLS - 1) / COLS;
    for (int64_t ct = blockIdx.y; ct < tiles; ct += gridDim.y) {
        const int64_t j0 = ct * COLS;
        for (int64_t br = blockIdx.x; br < brows; br += gridDim.x) {
            float acc[SMAX][4];
#pragma unroll
            for (int i = 0; i < SMAX; ++i)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][e] = 0.f;
            const int64_t begin = a.begin(br), end = a.end(br);
            const int64_t span = (end - begin) * p.col_block;
            // The thread's column of the first chunk; each chunk's staging then locates the next
            // one's, whose index load waits through the chunk's barrier and multiplies.
            Column col = span > 0 ? locate<P>(a, br, begin, end, 0, k) : Column{-1, 0};
            for (int64_t c0 = 0; c0 < span; c0 += P::KC) {
                __syncthreads();  // the last chunk's fragments and skip tests are read
                if (threadIdx.x < P::KC) sh.b_row[threadIdx.x] = col.row;
                stage_a<P>(sh, a, rows, col);
                stage_b<P>(sh, p.b, j0, n, col);
                col = c0 + P::KC < span ? locate<P>(a, br, begin, end, c0 + P::KC, k) : Column{-1, 0};
                __syncthreads();
                for (int ks = 0; ks < P::KC; ks += P::KSTEP) {
                    // A k step lies in one block: its first column says whether any of it is there.
                    if (sh.b_row[ks] < 0) continue;
                    const typename P::AFrag f = P::a_frag(sh.a, slice * 16, ks, g, t);
#pragma unroll
                    for (int i = 0; i < SMAX; ++i)
                        if (i < slices && j0 + (nt0 + i) * 8 < n) P::multiply(acc[i], f, sh.bt, (nt0 + i) * 8, ks, g, t);
                }
            }
            // Lane (g, t) holds rows g and g + 8 of its slice, columns 2t and 2t + 1 of each n tile.
            const int64_t row = br * p.row_block + slice * 16 + g;
#pragma unroll
            for (int i = 0; i < SMAX; ++i) {
                if (i >= slices) break;
                const int64_t j = j0 + (nt0 + i) * 8 + 2 * t;
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int64_t jj = j + (e & 1);
                    if (jj < n) write_out(c, row + (e >> 1) * 8, jj, acc[i][e], alpha, beta, read_c);
                }
            }
        }
    }
}

}  // namespace

#define OXS_KERNEL(name, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK) name(const SpmmBlockedParams p) { body; }

// (name, precision, C's type): the kernels' names end in the precision's and C's suffixes, then
// the most slices they take.
#define OXS_BLOCKED_TC_S(sfx, P, O, S)                                                           \
    OXS_KERNEL(oxs_spmm_bsr_tc_##sfx##_i32_s##S, (block_rows_tc<P, O, int32_t, false, S>(p)))    \
    OXS_KERNEL(oxs_spmm_bsr_tc_##sfx##_i64_s##S, (block_rows_tc<P, O, int64_t, false, S>(p)))    \
    OXS_KERNEL(oxs_spmm_bell_tc_##sfx##_i32_s##S, (block_rows_tc<P, O, int32_t, true, S>(p)))    \
    OXS_KERNEL(oxs_spmm_bell_tc_##sfx##_i64_s##S, (block_rows_tc<P, O, int64_t, true, S>(p)))

#define OXS_BLOCKED_TC(sfx, P, O) OXS_BLOCKED_TC_S(sfx, P, O, 2) OXS_BLOCKED_TC_S(sfx, P, O, 8)

OXS_BLOCKED_TC(f16_f16, Half<__half>, __half)
OXS_BLOCKED_TC(f16_f32, Half<__half>, float)
OXS_BLOCKED_TC(bf16_bf16, Half<__nv_bfloat16>, __nv_bfloat16)
OXS_BLOCKED_TC(bf16_f32, Half<__nv_bfloat16>, float)
OXS_BLOCKED_TC(tf32_f32, Tf32<false>, float)
OXS_BLOCKED_TC(tf32x3_f32, Tf32<true>, float)
