// SpMM with a block-format A (opA = N) on tensor cores, FP16 or BF16 operands (mma m16n8k16,
// exact products, FP32 sums) or FP32 ones in the TF32 math mode (m16n8k8 on operands rounded to
// TF32), where every operand reaches shared memory 16 bytes at a time as it
// lies: A's block rows row-major (Blocked-ELL, or BSR with row-major blocks), op(B) row-major with
// rows on 16-byte boundaries, N a multiple of 8 and k a multiple of the block's columns
// (src/kernels/spmm.rs `copies_whole` checks; everything else runs kernels/spmm_blocked_tc.cu).
//
// A thread block takes one block row and COLS (128) columns of C, so A is read once for N up to
// 128. It walks the block row's k range KC columns (64 bytes of a row) a stage, STAGES stages in
// flight (`Tiling`):
//   deal      once a column tile: which 16-byte pieces of a chunk each thread copies (`Walk`, or
//             under N = 128 `DealtWalk`, whose pieces skip the columns past N)
//   fetch     the block columns the stage's copies need, a chunk ahead of its issue
//   issue     the stage's rb x KC values of A and KC rows x COLS of op(B) by cp.async, zeros
//             where a slot is empty (the copy's source size 0); no thread waits on its copies
//   wait      the oldest stage's copies, then one barrier
//   multiply  per k step (16 for 16-bit operands, 8 for TF32): the warp's A fragment (ldmatrix)
//             times each of its n tiles' B fragments (16-bit: ldmatrix.trans of the row-major rows;
//             TF32: two loads a lane, which ldmatrix cannot give for 32-bit elements)
// With S = rb / 16 slices, warp w takes slice w / (8 / S) and the n tiles w % (8 / S) + i (8 / S):
// interleaved, so that a narrow N still spreads its tiles over the slice's warps. Each 16-bit k
// step's product is added to FP32 accumulators with a rounded add (the mma's own accumulation
// truncates, bench/notes/tensor-cores.md); TF32 steps accumulate in the mma, as the staged kernel's
// do. Either way in a fixed order: results are reproducible and equal the staged kernel's.
#include "common/spmm.cuh"
#include "common/blocked.cuh"
#include "common/tc_step.cuh"
#include "common/blocked_tc.cuh"
#include "common/cp_async.cuh"

using namespace spmm;

namespace {

constexpr int COLS = SPMM_BLOCKED_TCA_COLS;
constexpr int WARPS = BLOCK / WARP;
static_assert(COLS / 8 % WARPS == 0, "every slice's warps take the same number of n tiles");

// Elements of T a 16-byte copy carries.
template <typename T>
constexpr int PER_COPY = 16 / int(sizeof(T));

// One stage of ROWS rows of A and KC rows of op(B), as T's bits. Rows are padded so that the
// fragment loads fall in distinct banks: A's by one copy (an ldmatrix's 8 row reads), op(B)'s by 8
// elements (16-bit: ldmatrix.trans's row reads; TF32: lane (g, t) reads rows t and t + 4 at column
// g, banks 8t + g).
template <typename T, int ROWS, int KC>
struct Stage {
    using S = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    static constexpr int A_STRIDE = KC + PER_COPY<T>, B_STRIDE = COLS + 8;
    S a[ROWS * A_STRIDE];
    S b[KC * B_STRIDE];
};

using tc::ldmatrix_x2_trans;
using tc::shared_at;
using blocked::write_two;

using cp_async::commit;
using cp_async::copy16;

// What both walks know of the block row they walk. Positions along the block row and columns are
// 32-bit (the launcher keeps k under 2^31); blocks have 2^cb_shift columns.
template <typename I>
struct BlockRowWalk {
    const I* col_ind;  // the block row's first block's
    int a_block;       // elements from a block's row to the next block's (ELL cb, BSR rb x cb)
    int ldb_bytes, base, kblocks, blocks, rows, live, cb_shift;  // live: the tile's n tiles inside N

    // Block j's first column from its stored index, or -1 for none (past the block row, an empty
    // slot, outside k).
    __device__ int col0(int j, I stored) const {
        const int64_t c = int64_t(stored) - base;
        return j < blocks && uint64_t(c) < uint64_t(kblocks) ? int(c) << cb_shift : -1;
    }
};

// The walk of one block row: where each of a thread's 16-byte pieces of a chunk comes from. A
// thread's pieces are every BLOCK-th of A's ROWS x KC and of op(B)'s KC x COLS, the same in every
// chunk; what changes from chunk to chunk is the block they lie in. This walk serves N of whole
// tiles; `DealtWalk` a narrower N.
template <typename T, typename I, int ROWS, int KC>
struct Walk : BlockRowWalk<I> {
    using St = Stage<T, ROWS, KC>;
    static constexpr int VEC = PER_COPY<T>, B_STRIDE = St::B_STRIDE;
    using BlockRowWalk<I>::col_ind, BlockRowWalk<I>::a_block, BlockRowWalk<I>::ldb_bytes, BlockRowWalk<I>::blocks,
        BlockRowWalk<I>::rows, BlockRowWalk<I>::live, BlockRowWalk<I>::cb_shift, BlockRowWalk<I>::col0;
    static constexpr int A = (ROWS * KC / VEC + BLOCK - 1) / BLOCK, B = KC * COLS / VEC / BLOCK;
    const T* a_row[A];  // A piece i's row at the block row's first block
    const T* b_col[B];  // op(B) piece i's column, row 0

    __device__ static int a_row_of(int i) { return (threadIdx.x + i * BLOCK) / (KC / VEC); }
    __device__ static int a_col_of(int i) { return (threadIdx.x + i * BLOCK) % (KC / VEC) * VEC; }
    __device__ static int b_row_of(int i) { return (threadIdx.x + i * BLOCK) / (COLS / VEC); }
    __device__ static int b_col_of(int i) { return (threadIdx.x + i * BLOCK) % (COLS / VEC) * VEC; }

    // The column tile from j0 of op(B) (b: element (0, 0); after `live` is set); the block row
    // whose first block's element (0, 0) is first, A's rows row_step apart.
    __device__ void start_tile(const T* b, int64_t j0) {
#pragma unroll
        for (int i = 0; i < B; ++i) b_col[i] = b + j0 + b_col_of(i);
    }
    __device__ void start_row(const T* first, int64_t row_step) {
#pragma unroll
        for (int i = 0; i < A; ++i) a_row[i] = first + min(a_row_of(i), rows - 1) * row_step;
    }

    struct Indices {
        I a[A], b[B];  // the stored block-column index of each piece's block
    };

    // fetch: the stored indices of chunk ch's blocks, taken a chunk ahead of its issue and only
    // read there, so that the loads of several chunks are in flight at once and issuing never
    // waits on them. Every load is made (clamped to the block row's last block; the caller
    // fetches only from block rows with blocks) so that none waits behind a branch.
    __device__ Indices fetch(int ch) const {
        Indices f;
#pragma unroll
        for (int i = 0; i < A; ++i) f.a[i] = col_ind[min((ch * KC + a_col_of(i)) >> cb_shift, blocks - 1)];
#pragma unroll
        for (int i = 0; i < B; ++i) f.b[i] = col_ind[min((ch * KC + b_row_of(i)) >> cb_shift, blocks - 1)];
        return f;
    }

    // issue: chunk ch's copies into st, from its fetched indices.
    __device__ void issue(St& st, int ch, const Indices& f) const {
        const int cmask = (1 << cb_shift) - 1;
#pragma unroll
        for (int i = 0; i < A; ++i) {
            if (a_row_of(i) >= rows) break;
            const int pos = ch * KC + a_col_of(i), j = pos >> cb_shift;
            const bool ok = col0(j, f.a[i]) >= 0;
            const T* src = a_row[i] + mul_wide(j, a_block) + (pos & cmask);
            copy16(&st.a[a_row_of(i) * St::A_STRIDE + a_col_of(i)], ok ? src : a_row[i], ok);
        }
#pragma unroll
        for (int i = 0; i < B; ++i) {
            if (b_col_of(i) >= live * 8) continue;  // never multiplied
            const int pos = ch * KC + b_row_of(i), c0 = col0(pos >> cb_shift, f.b[i]);
            const T* src = row_at(b_col[i], c0 + (pos & cmask), ldb_bytes);
            copy16(&st.b[b_row_of(i) * B_STRIDE + b_col_of(i)], c0 >= 0 ? src : b_col[i], c0 >= 0);
        }
    }
};

// The walk for N under COLS, the pieces dealt: A chunk's pieces are A's rows x KC / VEC, then
// op(B)'s KC rows x the tile's live columns / VEC (only those: at N = 32 a quarter of the tile),
// numbered in that order and dealt to the threads every BLOCK-th; both counts are multiples of
// 32, so a warp's pieces are all of A or all of op(B) and no thread carries a dead column's
// piece. A thread's pieces are the same in every chunk of a tile (`start_tile` places them).
template <typename T, typename I, int ROWS, int KC>
struct DealtWalk : BlockRowWalk<I> {
    using St = Stage<T, ROWS, KC>;
    using S = typename St::S;
    static constexpr int VEC = PER_COPY<T>;
    using BlockRowWalk<I>::col_ind, BlockRowWalk<I>::a_block, BlockRowWalk<I>::ldb_bytes, BlockRowWalk<I>::blocks,
        BlockRowWalk<I>::rows, BlockRowWalk<I>::live, BlockRowWalk<I>::cb_shift, BlockRowWalk<I>::col0;
    static constexpr int SLOTS = (ROWS * KC / VEC + KC * COLS / VEC + BLOCK - 1) / BLOCK;
    const T* at[SLOTS];   // A: the piece's row at the block row's first block; op(B): its column, row 0
    // The piece's element in a stage (low 16 bits) and, above, A: its column in the chunk;
    // op(B): its row in the chunk.
    int place[SLOTS];
    unsigned of_a, used;  // bit i: slot i holds a piece of A; holds a piece at all

    // Places the thread's pieces for the column tile from j0 (after `live` is set); b: op(B)'s
    // element (0, 0).
    __device__ void start_tile(const T* b, int64_t j0) {
        const int per_row = live * (8 / VEC), na = rows * (KC / VEC), nb = KC * per_row;
        of_a = used = 0;
#pragma unroll
        for (int i = 0; i < SLOTS; ++i) {
            const int v = threadIdx.x + i * BLOCK;
            if (v < na) {
                of_a |= 1u << i;
                const int e = v % (KC / VEC) * VEC;
                place[i] = e << 16 | (v / (KC / VEC) * St::A_STRIDE + e);
            } else if (v < na + nb) {
                const int w = v - na, e = w % per_row * VEC, kr = w / per_row;
                place[i] = kr << 16 | (int(offsetof(St, b) / sizeof(S)) + kr * St::B_STRIDE + e);
                at[i] = b + j0 + e;
            }
            if (v < na + nb) used |= 1u << i;
        }
    }
    // The block row whose first block's element (0, 0) is first, A's rows row_step apart.
    __device__ void start_row(const T* first, int64_t row_step) {
#pragma unroll
        for (int i = 0; i < SLOTS; ++i)
            if (of_a >> i & 1) at[i] = first + mul_wide((threadIdx.x + i * BLOCK) / (KC / VEC), int(row_step));
    }

    struct Indices {
        I v[SLOTS];  // the stored block-column index of each piece's block
    };

    // fetch: the stored indices of chunk ch's blocks, taken a chunk ahead of its issue and only
    // read there, so that the loads of several chunks are in flight at once and issuing never
    // waits on them. Every load is made (clamped to the block row's last block; the caller
    // fetches only from block rows with blocks) so that none waits behind a branch.
    __device__ Indices fetch(int ch) const {
        Indices f;
#pragma unroll
        for (int i = 0; i < SLOTS; ++i) f.v[i] = col_ind[min((ch * KC + (place[i] >> 16)) >> cb_shift, blocks - 1)];
        return f;
    }

    // issue: chunk ch's copies into st, from its fetched indices.
    __device__ void issue(St& st, int ch, const Indices& f) const {
        const int cmask = (1 << cb_shift) - 1;
        S* stage = reinterpret_cast<S*>(&st);
#pragma unroll
        for (int i = 0; i < SLOTS; ++i) {
            if (!(used >> i & 1)) break;
            const int pos = ch * KC + (place[i] >> 16), j = pos >> cb_shift, c0 = col0(j, f.v[i]);
            const T* src = of_a >> i & 1 ? at[i] + mul_wide(j, a_block) + (pos & cmask) : row_at(at[i], c0 + (pos & cmask), ldb_bytes);
            copy16(stage + (place[i] & 0xffff), c0 >= 0 ? src : at[i], c0 >= 0);
        }
    }
};

// multiply: the stage's k steps (16 for 16-bit operands, 8 for TF32) into the warp's accumulators.
template <typename T, int ROWS, int KC, int TILES>
__device__ __forceinline__ void multiply(float (&acc)[TILES][4], const Stage<T, ROWS, KC>& st, int slice, int wi, int per_slice, int live) {
    using St = Stage<T, ROWS, KC>;
    constexpr bool TF32 = sizeof(T) == 4;
    const int lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
    // Lane l gives the address of row l % 16 of the slice, the step's columns from l / 16 copies:
    // for 16-bit elements the m16n8k16 A fragment; for 32-bit ones each 8 x 8 matrix of 16-bit
    // halves is an 8 x 4 tile of which lane l gets element (l / 4, l % 4), the m16n8k8 one.
    const auto* a_lane = &st.a[(slice * 16 + lane % 16) * St::A_STRIDE + lane / 16 * PER_COPY<T>];
#pragma unroll
    for (int ks = 0; ks < KC; ks += TF32 ? 8 : 16) {
        uint32_t af[4];
        tc::ldmatrix_x4(af, a_lane + ks);
        if constexpr (TF32) {
#pragma unroll
            for (int e = 0; e < 4; ++e) af[e] = tc::to_tf32(__uint_as_float(af[e]));
        }
#pragma unroll
        for (int i = 0; i < TILES; ++i) {
            const int nt = wi + i * per_slice;
            if (nt >= live) break;
            if constexpr (TF32) {
                // Rows t and t + 4 of column g; the mma accumulates, as the staged kernel's does.
                const uint32_t* b = &st.b[(ks + t) * St::B_STRIDE + nt * 8 + g];
                const uint32_t bf[2] = {tc::to_tf32(__uint_as_float(b[0])), tc::to_tf32(__uint_as_float(b[4 * St::B_STRIDE]))};
                tc::mma_tf32(acc[i], af, bf);
            } else {
                uint32_t bf[2];
                ldmatrix_x2_trans(bf, &st.b[(ks + lane % 16) * St::B_STRIDE + nt * 8]);
                float d[4] = {0.f, 0.f, 0.f, 0.f};
                tc::mma_16<T>(d, af, bf);
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][e] += d[e];
            }
        }
    }
}

// The tilings, by the tallest block row an instantiation stages (32: blocks of 16 or 32 rows;
// 128: up to 128): bytes of a row of A a stage (KC = 32 16-bit columns, 16 TF32 ones: the same
// copies), stages (all within 48 KB of shared memory) and thread blocks a multiprocessor holds
// (which bounds the registers).
template <int ROWS>
struct Tiling;
template <>
struct Tiling<32> {
    static constexpr int KC_BYTES = 64, STAGES = 4, MIN_BLOCKS = 4;
};
template <>
struct Tiling<128> {
    static constexpr int KC_BYTES = 64, STAGES = 2, MIN_BLOCKS = 2;
};

// DEALT: the walk whose pieces are dealt to the threads (N under COLS), else the plain one.
template <typename T, typename O, typename I, bool ELL, int ROWS, bool DEALT>
__device__ void block_rows_tca(const SpmmBlockedParams& p) {
    constexpr int KC = Tiling<ROWS>::KC_BYTES / int(sizeof(T)), STAGES = Tiling<ROWS>::STAGES;
    constexpr int TILES = ROWS / 16 * (COLS / 8) / WARPS;  // a warp's n tiles at most
    __shared__ __align__(16) Stage<T, ROWS, KC> sh[STAGES];
    const blocked::BlockRows<T, I, ELL> a(p);
    const Dense<O> c(p.c, 0);
    const float alpha = load_scalar<float>(p.shape.alpha), beta = load_scalar<float>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const bool paired = c.col_stride == 1 && c.row_stride % 2 == 0 && reinterpret_cast<uintptr_t>(c.values) % (2 * sizeof(O)) == 0;
    const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    const int rows = int(p.row_block), per_slice = WARPS / (rows / 16);
    const int slice = warp / per_slice, wi = warp % per_slice;
    const int64_t n = p.shape.n, brows = p.shape.m / p.row_block, tiles = (n + COLS - 1) / COLS;
    const int cb_shift = __ffs(int(p.col_block)) - 1;
    using W = std::conditional_t<DEALT, DealtWalk<T, I, ROWS, KC>, Walk<T, I, ROWS, KC>>;
    W w;
    w.a_block = int(ELL ? p.col_block : p.row_block * p.col_block);
    w.ldb_bytes = int(p.b.row_stride * int64_t(sizeof(T)));
    w.base = int(a.base);
    w.kblocks = int(p.shape.k >> cb_shift);
    w.rows = rows;
    w.cb_shift = cb_shift;
    for (int64_t ct = blockIdx.y; ct < tiles; ct += gridDim.y) {
        const int64_t j0 = ct * COLS;
        w.live = int(min(int64_t(COLS), n - j0) / 8);
        w.start_tile(reinterpret_cast<const T*>(p.b.values), j0);
        for (int64_t br = blockIdx.x; br < brows; br += gridDim.x) {
            const int64_t begin = a.begin(br);
            w.col_ind = a.col_ind + begin;
            w.start_row(a.at(br, begin, 0), a.row_step());
            w.blocks = int(a.end(br) - begin);
            const int chunks = (w.blocks * int(p.col_block) + KC - 1) / KC;
            float acc[TILES][4];
#pragma unroll
            for (int i = 0; i < TILES; ++i)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][e] = 0.f;
            // Every iteration commits one group (empty past the last chunk), so waiting for all
            // but STAGES - 2 groups is waiting for chunk ch. The prologue fetches the columns of
            // its STAGES - 1 chunks before issuing any, one wait on the indices for all of them.
            typename W::Indices f[STAGES - 1];
            if (chunks > 0) {
#pragma unroll
                for (int s = 0; s < STAGES - 1; ++s) f[s] = w.fetch(s);
            }
#pragma unroll
            for (int s = 0; s < STAGES - 1; ++s) {
                if (s < chunks) w.issue(sh[s], s, f[s]);
                commit();
            }
            if (chunks > 0) f[0] = w.fetch(STAGES - 1);
            for (int ch = 0; ch < chunks; ++ch) {
                cp_async::wait_groups<STAGES - 2>();
                __syncthreads();  // chunk ch is in; every warp is done with chunk ch - 1's stage
                multiply<T>(acc, sh[ch % STAGES], slice, wi, per_slice, w.live);
                const int next = ch + STAGES - 1;
                if (next < chunks) {
                    w.issue(sh[next % STAGES], next, f[0]);
                    f[0] = w.fetch(next + 1);
                }
                commit();
            }
            cp_async::wait_groups<0>();
            __syncthreads();  // the next block row's copies overwrite stages still being read
            // Lane (g, t) holds rows g and g + 8 of its slice, columns 2t and 2t + 1 of each n tile.
            const int64_t row = br * p.row_block + slice * 16 + lane / 4;
#pragma unroll
            for (int i = 0; i < TILES; ++i) {
                const int nt = wi + i * per_slice;
                if (nt >= w.live) break;
                const int64_t j = j0 + nt * 8 + 2 * (lane % 4);
                write_two(c, paired, row, j, acc[i][0], acc[i][1], alpha, beta, read_c);
                write_two(c, paired, row + 8, j, acc[i][2], acc[i][3], alpha, beta, read_c);
            }
        }
    }
}

}  // namespace

#define OXS_KERNEL(name, rows, body) \
    extern "C" __global__ void __launch_bounds__(BLOCK, Tiling<rows>::MIN_BLOCKS) name(const SpmmBlockedParams p) { body; }

// (operands, C's type): the kernels' names end in the operands' and C's suffixes, the index type,
// the tallest block row they stage, then _d where the pieces are dealt (N under 128).
#define OXS_BLOCKED_TCA_W(sfx, T, O, R, D, dsfx)                                                                 \
    OXS_KERNEL(oxs_spmm_bsr_tca_##sfx##_i32_r##R##dsfx, R, (block_rows_tca<T, O, int32_t, false, R, D>(p)))  \
    OXS_KERNEL(oxs_spmm_bsr_tca_##sfx##_i64_r##R##dsfx, R, (block_rows_tca<T, O, int64_t, false, R, D>(p)))  \
    OXS_KERNEL(oxs_spmm_bell_tca_##sfx##_i32_r##R##dsfx, R, (block_rows_tca<T, O, int32_t, true, R, D>(p)))  \
    OXS_KERNEL(oxs_spmm_bell_tca_##sfx##_i64_r##R##dsfx, R, (block_rows_tca<T, O, int64_t, true, R, D>(p)))

#define OXS_BLOCKED_TCA(sfx, T, O)                                                                          \
    OXS_BLOCKED_TCA_W(sfx, T, O, 32, false, ) OXS_BLOCKED_TCA_W(sfx, T, O, 128, false, )                \
    OXS_BLOCKED_TCA_W(sfx, T, O, 32, true, _d) OXS_BLOCKED_TCA_W(sfx, T, O, 128, true, _d)

OXS_BLOCKED_TCA(f16_f16, __half, __half)
OXS_BLOCKED_TCA(f16_f32, __half, float)
OXS_BLOCKED_TCA(bf16_bf16, __nv_bfloat16, __nv_bfloat16)
OXS_BLOCKED_TCA(bf16_f32, __nv_bfloat16, float)
OXS_BLOCKED_TCA(tf32_f32, float, float)
