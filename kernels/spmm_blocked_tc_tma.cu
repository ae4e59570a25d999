// SpMM with a block-format A (opA = N) on tensor cores, FP16 or BF16 operands (mma m16n8k16, exact
// products, FP32 sums), its operands brought into shared memory by sm_90's tensor memory accelerator
// (TMA): one instruction copies a whole box of a block's rows or of op(B)'s rows, so the copies cost
// the multiplying warps no instructions. Taken where kernels/spmm_blocked_tc_async.cu's copies fit
// (src/kernels/spmm.rs `copies_whole`), blocks are 16 or 32 rows and the device is sm_90 or newer
// (src/kernels/spmm_tma.rs `fits`); the launcher encodes the two tensor maps.
//
// A thread block takes block rows and COLS (128) columns of C, as the asynchronous kernel does, with
// BLOCK threads that multiply and one more warp that copies. Its work is a stream of stages of 32 k
// columns (two k steps) over every block row it walks, as many stages in flight as the
// launcher gives dynamic shared memory for (src/kernels/spmm_tma.rs `stage_bytes`):
//   copy      (the copying warp) per stage: wait until the stage is free, announce its bytes on the
//             stage's `full` barrier, then per piece (`Pieces`: 16 k columns, or 32 of a block for
//             N up to 64) one box of A (rb rows x the piece's columns) and one or two boxes of
//             op(B) (the piece's rows x 64 columns); an empty slot or a block outside k copies
//             boxes outside the tensors, which the TMA fills with zeros
//   multiply  (the other warps) per stage: wait on `full`, then per k step the warp's A fragment
//             (ldmatrix) times each of its n tiles' B fragments (ldmatrix.trans), each product
//             added to FP32 accumulators with a rounded add, as the asynchronous kernel's are; then
//             free the stage (`empty`)
//   write     after a block row's last stage: alpha acc + beta C
// The boxes land swizzled (op(B)'s 128-byte rows by 128 bytes, A's 32- or 64-byte rows as wide), so
// that the fragments' row reads fall in distinct banks; `swizzled` finds an element's place. The
// stream does not drain between block rows. Slices and n tiles are the asynchronous kernel's, and so
// are the sums and their order: both kernels give the same bits (docs/design/blocked-spmm.md).
#include "common/spmm.cuh"
#include "common/blocked.cuh"
#include "common/blocked_tc.cuh"
#include "common/tc_step.cuh"

using namespace spmm;

namespace {

// A CUtensorMap as cuTensorMapEncodeTiled fills it: 128 opaque bytes on 64-byte boundaries.
struct alignas(64) TensorMap {
    unsigned long long words[16];
};

// The kernel's one parameter (src/kernels/spmm_tma.rs `BlockedTmaParams` mirrors it): the maps of
// A's values and of op(B), then the block-row parameters of every block kernel.
struct BlockedTmaParams {
    TensorMap a, b;
    SpmmBlockedParams p;
};
static_assert(offsetof(BlockedTmaParams, p) == 256, "the maps first, as the host lays them out");

// The tiling: constants in one place.
constexpr int THREADS = BLOCK + WARP, MIN_BLOCKS = 3;  // 8 warps multiply, one copies; blocks a multiprocessor

// Devices before sm_90 have no TMA: their instantiations are empty (the launcher never picks them).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
constexpr int WARPS = BLOCK / WARP;          // warps that multiply
constexpr int COLS = SPMM_BLOCKED_TCA_COLS;  // C's columns a thread block
constexpr int KSTEP = 16;                    // an mma's k
constexpr int STAGE_COLS = 32;               // k columns a stage: two k steps
constexpr int MAX_STAGES = 16;               // stages in flight: as many as the launcher gives memory for
constexpr int BOX_COLS = 64;                 // op(B)'s boxes: 128-byte rows, the widest swizzle's
constexpr int HALVES = COLS / BOX_COLS;      // op(B)'s boxes a piece, at most

// A stage holds its 32 k columns as pieces of PIECE (the blocks' columns, up to 32: a piece lies in
// one block), each its own boxes: op(B)'s PIECE rows x 64 columns per half of the tile's columns,
// then A's rows x PIECE columns. Every box starts on 1 KB, which the widest swizzle repeats over.
template <int PIECE>
struct Pieces {
    static constexpr int PER_STAGE = STAGE_COLS / PIECE;
    static constexpr uint32_t HALF = PIECE * BOX_COLS * 2, A_AT = HALVES * HALF, BYTES = A_AT + 32 * PIECE * 2;
    static constexpr uint32_t A_SWIZZLE = PIECE * 2 / 16 - 1;  // A's rows of 32 or 64 bytes: 32- or 64-byte swizzle
    static_assert(PER_STAGE * BYTES == SPMM_BLOCKED_TMA_STAGE && BYTES % 1024 == 0, "the launcher's stage, boxes on 1 KB");
};

// The stages the launcher gave dynamic shared memory for (past up to 1 KB to align the first).
__device__ __forceinline__ int stage_count() {
    uint32_t bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return min(MAX_STAGES, int(bytes - 1024) / int(SPMM_BLOCKED_TMA_STAGE));
}

// A position in the ring of stages: the stage and the parity of its barriers' phase.
struct Ring {
    int stage = 0;
    uint32_t parity = 0;
    __device__ void next(int stages) {
        if (++stage == stages) {
            stage = 0;
            parity ^= 1;
        }
    }
};
static_assert(COLS / 8 % WARPS == 0, "every slice's warps take the same number of n tiles");

// Where a byte at `at` of a box lands under the TMA's swizzle: the 16-byte unit's number (bits 4..)
// exclusive-or the bits above 128 bytes (MASK: 7 for 128-byte rows, 3 for 64-byte, 1 for 32-byte).
template <uint32_t MASK>
__device__ __forceinline__ uint32_t swizzled(uint32_t at) {
    return at ^ ((at >> 7 & MASK) << 4);
}

// ---- the barriers and copies (sm_90) -------------------------------------------------------------
__device__ __forceinline__ void bar_init(uint32_t bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ bool bar_try_wait(uint32_t bar, uint32_t parity) {
    uint32_t done;
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
    return done != 0;
}
__device__ __forceinline__ void bar_wait(uint32_t bar, uint32_t parity) {
    while (!bar_try_wait(bar, parity)) {
    }
}
__device__ __forceinline__ void bar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void bar_expect(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// The box of `map` at (x, y) (x along the rows) into dst, its bytes counted on bar.
__device__ __forceinline__ void copy_box(uint32_t dst, const TensorMap& map, int x, int y, uint32_t bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(&map)), "r"(x), "r"(y), "r"(bar)
        : "memory");
}

// Block row br's blocks: [begin, begin + blocks).
template <typename I, bool ELL>
__device__ __forceinline__ void block_row(const blocked::BlockRows<__half, I, ELL>& a, int64_t br, int64_t& begin, int& blocks) {
    begin = a.begin(br);
    blocks = int(a.end(br) - begin);
}

// The block-column indices of a block row's first 32 blocks, lane j block j's (loaded by every
// lane at once), with where the row's blocks begin and how many it has.
template <typename I>
struct RowIndices {
    int64_t begin;
    int blocks;
    I stored;
};
template <typename I, bool ELL>
__device__ __forceinline__ RowIndices<I> row_indices(const blocked::BlockRows<__half, I, ELL>& a, int64_t br, int lane) {
    RowIndices<I> r;
    block_row(a, br, r.begin, r.blocks);
    r.stored = lane < r.blocks ? a.col_ind[r.begin + lane] : I(0);
    return r;
}

// copy: the copying warp's walk, a piece at a time. Lane 0 issues; the warp holds the indices of the
// block row it copies and, loaded a row ahead, of the next, so that no row waits on its index loads.
template <typename I, bool ELL, int PIECE>
__device__ void copy_stages(const BlockedTmaParams& tp, uint32_t at, int stages, uint32_t full, uint32_t empty) {
    using P = Pieces<PIECE>;
    const SpmmBlockedParams& p = tp.p;
    const blocked::BlockRows<__half, I, ELL> a(p);
    const int lane = threadIdx.x % WARP, rows = int(p.row_block), cb_shift = __ffs(int(p.col_block)) - 1;
    const int64_t n = p.shape.n, brows = p.shape.m / p.row_block, tiles = (n + COLS - 1) / COLS, kblocks = p.shape.k >> cb_shift;
    const int piece_shift = cb_shift - (PIECE == 32 ? 5 : 4);  // a block's pieces: 2^piece_shift
    Ring r;
    for (int64_t ct = blockIdx.y; ct < tiles; ct += gridDim.y) {
        const int j0 = int(ct * COLS), halves = int(min(int64_t(COLS), n - j0) + BOX_COLS - 1) / BOX_COLS;
        const uint32_t piece_bytes = uint32_t(rows * PIECE * 2) + uint32_t(halves) * P::HALF;  // what a piece's boxes bring
        if (blockIdx.x >= brows) break;
        RowIndices<I> next = row_indices(a, blockIdx.x, lane);
        for (int64_t br = blockIdx.x; br < brows; br += gridDim.x) {
            RowIndices<I> row = next;
            if (br + gridDim.x < brows) next = row_indices(a, br + gridDim.x, lane);
            const int pieces = row.blocks << piece_shift;
            for (int pc = 0; pc < pieces; pc += P::PER_STAGE, r.next(stages)) {
                const uint32_t bar_full = full + 8 * r.stage, stage = at + r.stage * SPMM_BLOCKED_TMA_STAGE;
                bar_wait(empty + 8 * r.stage, r.parity ^ 1);
                const int here = min(P::PER_STAGE, pieces - pc);
                if (lane == 0) bar_expect(bar_full, uint32_t(here) * piece_bytes);
                for (int i = 0; i < here; ++i) {
                    const int j = (pc + i) >> piece_shift, off = ((pc + i) & ((1 << piece_shift) - 1)) * PIECE;
                    if ((j & 31) == 0 && off == 0 && j > 0) row.stored = j + lane < row.blocks ? a.col_ind[row.begin + j + lane] : I(0);
                    const int64_t c = int64_t(__shfl_sync(0xffffffffu, row.stored, j & 31)) - a.base;
                    const bool ok = c >= 0 && c < kblocks;
                    if (lane != 0) continue;
                    const uint32_t piece = stage + i * P::BYTES;
                    // Outside the tensors (negative rows) for an empty slot: the TMA writes zeros.
                    const int ay = ok ? int(ELL ? br * rows : (row.begin + j) * rows) : -2 * rows;
                    copy_box(piece + P::A_AT, tp.a, ELL ? (j << cb_shift) + off : off, ay, bar_full);
                    const int by = ok ? int(c << cb_shift) + off : -2 * PIECE;
                    for (int h = 0; h < halves; ++h) copy_box(piece + h * P::HALF, tp.b, j0 + h * BOX_COLS, by, bar_full);
                }
            }
        }
    }
}

// multiply: a stage's k steps (`here` of them, or both where WHOLE) into the warp's accumulators;
// WHOLE: every n tile of the warp inside N, so that no fragment waits behind a branch. a_lane: the
// lane's ldmatrix row in an A box (row slice * 16 + l % 16, 16-byte unit l / 16); b_row: row l % 16
// of a B box. A step's fragments are all loaded before its mmas, and its mmas all issued before
// their sums.
template <typename T, int PIECE, int TILES, bool WHOLE>
__device__ __forceinline__ void multiply(float (&acc)[TILES][4], uint32_t stage, int here, uint32_t a_lane, uint32_t b_row, int wi,
                                         int per_slice, int live) {
    using P = Pieces<PIECE>;
#pragma unroll
    for (int i = 0; i < STAGE_COLS / KSTEP; ++i) {
        if (!WHOLE && i >= here) break;
        // Step i: piece i / (PIECE / 16), its k step i % (PIECE / 16).
        const uint32_t piece = stage + i / (PIECE / KSTEP) * P::BYTES, k = i % (PIECE / KSTEP);
        uint32_t af[4], bf[TILES][2];
        tc::ldmatrix_x4(af, swizzled<P::A_SWIZZLE>(piece + P::A_AT + a_lane + k * KSTEP * 2));
#pragma unroll
        for (int t = 0; t < TILES; ++t) {
            const int nt = wi + t * per_slice;
            if (!WHOLE && nt >= live) break;
            const uint32_t row = piece + (nt / 8) * P::HALF + k * KSTEP * BOX_COLS * 2 + b_row;
            tc::ldmatrix_x2_trans(bf[t], swizzled<7>(row + (nt % 8) * 16));
        }
        float d[TILES][4];
#pragma unroll
        for (int t = 0; t < TILES; ++t) {
            if (!WHOLE && wi + t * per_slice >= live) break;
#pragma unroll
            for (int e = 0; e < 4; ++e) d[t][e] = 0.f;
            tc::mma_16<T>(d[t], af, bf[t]);
        }
#pragma unroll
        for (int t = 0; t < TILES; ++t) {
            if (!WHOLE && wi + t * per_slice >= live) break;
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[t][e] += d[t][e];
        }
    }
}

// ROWS: the block rows' height (16 or 32); PIECE: the k columns of a piece (16 or 32: the blocks'
// columns up to 32).
template <typename T, typename O, typename I, bool ELL, int ROWS, int PIECE>
__device__ void block_rows_tma(const BlockedTmaParams& tp) {
    constexpr int TILES = ROWS / 16 * (COLS / 8) / WARPS;  // a warp's n tiles
    extern __shared__ __align__(1024) uint8_t dynamic[];
    __shared__ __align__(8) uint64_t bars[2 * MAX_STAGES];  // full[MAX_STAGES], then empty[MAX_STAGES]
    const SpmmBlockedParams& p = tp.p;
    const int stages = stage_count();
    const uint32_t full = tc::shared_at(bars), empty = full + 8 * MAX_STAGES, at = (tc::shared_at(dynamic) + 1023) & ~1023u;
    const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            bar_init(full + 8 * s, 1);
            bar_init(empty + 8 * s, WARPS);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (warp == WARPS) {
        copy_stages<I, ELL, PIECE>(tp, at, stages, full, empty);
        return;
    }
    const blocked::BlockRows<__half, I, ELL> a(p);
    const Dense<O> c(p.c, 0);
    const float alpha = load_scalar<float>(p.shape.alpha), beta = load_scalar<float>(p.shape.beta);
    const bool read_c = !is_zero(beta);
    const bool paired = c.col_stride == 1 && c.row_stride % 2 == 0 && reinterpret_cast<uintptr_t>(c.values) % (2 * sizeof(O)) == 0;
    constexpr int per_slice = WARPS / (ROWS / 16);
    const int slice = warp / per_slice, wi = warp % per_slice, cb_shift = __ffs(int(p.col_block)) - 1;
    const int64_t n = p.shape.n, brows = p.shape.m / p.row_block, tiles = (n + COLS - 1) / COLS;
    const uint32_t a_lane = uint32_t(slice * 16 + lane % 16) * (PIECE * 2) + uint32_t(lane / 16) * 16;
    const uint32_t b_row = uint32_t(lane % 16) * (BOX_COLS * 2);
    Ring r;
    for (int64_t ct = blockIdx.y; ct < tiles; ct += gridDim.y) {
        const int64_t j0 = ct * COLS;
        const int live = int(min(int64_t(COLS), n - j0) / 8);
        const bool whole = wi + (TILES - 1) * per_slice < live;  // every n tile of the warp inside N
        for (int64_t br = blockIdx.x; br < brows; br += gridDim.x) {
            int64_t begin;
            int blocks;
            block_row(a, br, begin, blocks);
            const int steps = blocks << (cb_shift - 4);
            float acc[TILES][4];
#pragma unroll
            for (int i = 0; i < TILES; ++i)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][e] = 0.f;
            for (int st = 0; st < steps; st += STAGE_COLS / KSTEP, r.next(stages)) {
                bar_wait(full + 8 * r.stage, r.parity);
                const uint32_t stage = at + r.stage * SPMM_BLOCKED_TMA_STAGE;
                if (whole && steps - st >= STAGE_COLS / KSTEP)
                    multiply<T, PIECE, TILES, true>(acc, stage, STAGE_COLS / KSTEP, a_lane, b_row, wi, per_slice, live);
                else
                    multiply<T, PIECE, TILES, false>(acc, stage, steps - st, a_lane, b_row, wi, per_slice, live);
                __syncwarp();
                if (lane == 0) bar_arrive(empty + 8 * r.stage);
            }
            // Lane (g, t) holds rows g and g + 8 of its slice, columns 2t and 2t + 1 of each n tile.
            const int64_t row = br * p.row_block + slice * 16 + lane / 4;
#pragma unroll
            for (int i = 0; i < TILES; ++i) {
                const int nt = wi + i * per_slice;
                if (nt >= live) break;
                const int64_t j = j0 + nt * 8 + 2 * (lane % 4);
                blocked::write_two(c, paired, row, j, acc[i][0], acc[i][1], alpha, beta, read_c);
                blocked::write_two(c, paired, row + 8, j, acc[i][2], acc[i][3], alpha, beta, read_c);
            }
        }
    }
}
#else
template <typename T, typename O, typename I, bool ELL, int ROWS, int PIECE>
__device__ void block_rows_tma(const BlockedTmaParams&) {}
#endif

}  // namespace

// (operands, C's type): the kernels' names end in the operands' and C's suffixes, the index type,
// the blocks' rows and the pieces' columns.
#define OXS_KERNEL(name, body) \
    extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) name(const __grid_constant__ BlockedTmaParams p) { body; }
#define OXS_BLOCKED_TMA_RP(sfx, T, O, R, P)                                                                 \
    OXS_KERNEL(oxs_spmm_bsr_tma_##sfx##_i32_r##R##_p##P, (block_rows_tma<T, O, int32_t, false, R, P>(p)))  \
    OXS_KERNEL(oxs_spmm_bsr_tma_##sfx##_i64_r##R##_p##P, (block_rows_tma<T, O, int64_t, false, R, P>(p)))  \
    OXS_KERNEL(oxs_spmm_bell_tma_##sfx##_i32_r##R##_p##P, (block_rows_tma<T, O, int32_t, true, R, P>(p)))  \
    OXS_KERNEL(oxs_spmm_bell_tma_##sfx##_i64_r##R##_p##P, (block_rows_tma<T, O, int64_t, true, R, P>(p)))
#define OXS_BLOCKED_TMA(sfx, T, O)                                                          \
    OXS_BLOCKED_TMA_RP(sfx, T, O, 16, 16) OXS_BLOCKED_TMA_RP(sfx, T, O, 16, 32)             \
    OXS_BLOCKED_TMA_RP(sfx, T, O, 32, 16) OXS_BLOCKED_TMA_RP(sfx, T, O, 32, 32)

OXS_BLOCKED_TMA(f16_f16, __half, __half)
OXS_BLOCKED_TMA(f16_f32, __half, float)
OXS_BLOCKED_TMA(bf16_bf16, __nv_bfloat16, __nv_bfloat16)
OXS_BLOCKED_TMA(bf16_f32, __nv_bfloat16, float)
