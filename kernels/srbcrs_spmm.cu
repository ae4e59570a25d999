// SR-BCRS (docs/design/srbcrs.md): the build from CSR and the integer SpMM on tensor cores, for
// int4, int8 and int16 sparse values (L) times int4, int8 or int16 dense values (R), L >= R.
//
// Build, one thread per (vector row of V consecutive rows, chunk of columns), merging the V rows'
// sorted columns inside the chunk (of a CSR matrix, or of a Blocked-ELL one: every element of its
// stored blocks):
//   0. validate  the rows' columns sorted and in range (a flag for bad ones)
//   1. count     the distinct columns of each chunk of each vector row
//   (the host scans the counts, each vector row's rounded up to the stride, into vec_ptr and the
//   chunks' first vectors)
//   2. fill      every distinct column becomes a vector: its column in vec_col, its V values in the
//                stride block's row-major V x stride tile (vec_col and vec_val zeroed before)
//   3. pad       the tail up to the stride repeats the vector row's last column, values zero
//
// SpMM, C = alpha * rowScale * A * B + beta * C, `splits` warps per (vector row, TILE_N columns
// of B and C), each taking every splits-th stride block of the row (the planner picks splits from
// the blocks a row holds and the device's size, so that long rows still fill the GPU). The
// vector row is the mma's n side (V of its 8 columns) and B's columns its m side, so the product
// is formed transposed, C^T = B^T A^T, with exact int32 accumulation. For each stride block of a
// warp's share:
//   load_columns      the lane's k's columns (16-byte loads), a block ahead of their use
//   load_stage        the sparse fragment (the mma's B operand, straight from the block's tile)
//                     and B's row at each k over the lane's 8 columns (one load of 8 elements)
//   split / widen     int16 operands become a signed high and an unsigned low byte, int4 dense
//                     values become bytes when A is wider (all in registers)
//   dense_fragments   the online transpose of the dense operand in registers (byte or nibble
//                     permutes): the mma's A operand, B^T, no shuffles
//   mma               one per 16 columns and part: m16n8k32 s8/u8 (L = 8, 16) or m16n8k64 s4
//                     (L = 4; on sm_90, two s8 mmas of widened nibbles); int16 runs one mma
//                     per pair of byte halves, combined by shifts
// with the next block's loads issued before this block's mmas; then
//   store_direct      one warp a row: its sums (int16 parts combined) straight to C, a row's 8
//                     columns of a lane in two 16-byte stores where C allows
//   stash, store      split rows: each warp's sums into shared memory, then the row's warps'
//                     sums added (int32, wrapping: any order gives the same bits) and written a
//                     C row (row-major) or column (column-major) at a time
#include "oxsparse_kernel_params.h"
#include "common/address.cuh"
#include "common/grid.cuh"
#include "common/int_mma.cuh"
#include "common/scalar.cuh"
#include <stdint.h>
#include <type_traits>

namespace {

// Tiling, in one place (the launcher mirrors these in src/kernels/srbcrs.rs).
constexpr int MAX_V = 8;                 // the mma's n: the longest vector
constexpr int WARP = 32;
constexpr int WARPS = 8;                 // most warps per SpMM block (blockDim.x / 32 of them, a
                                         // multiple of splits: blockDim.x / 32 / splits vector rows)
constexpr int M_TILES = 4;               // 16-column slices of B and C per warp
constexpr int TILE_N = 16 * M_TILES;     // columns of B and C per warp
constexpr int STASH_PITCH = TILE_N + 1;  // a stashed C row (padded: a stash store hits 16 banks)
constexpr int STORE_WIDTH = 4;           // C elements a lane stores at once (16 bytes)
constexpr int BUILD_BLOCK = 256;         // threads of a build block

// Vectors per stride block: the k depth of the mma the sparse values feed (int16 is split into
// bytes for the int8 mma).
__host__ __device__ constexpr int stride_of(int bits) { return bits == 4 ? 64 : 32; }

// ---- build: merging a vector row's rows, a chunk of columns at a time ----------------------------

__device__ __forceinline__ int64_t load_index(uint64_t array, int64_t i, int wide) {
    return wide ? reinterpret_cast<const int64_t*>(array)[i] : int64_t(reinterpret_cast<const int32_t*>(array)[i]);
}

// Element i of an integer array of `bits` bits (int4: two to a byte, low nibble first).
__device__ __forceinline__ int32_t load_value(uint64_t array, int64_t i, int bits) {
    if (bits == 4) {
        const int32_t nibble = (reinterpret_cast<const uint8_t*>(array)[i >> 1] >> (4 * (i & 1))) & 0xF;
        return (nibble ^ 8) - 8;
    }
    if (bits == 16) return reinterpret_cast<const int16_t*>(array)[i];
    return reinterpret_cast<const int8_t*>(array)[i];
}

// A source row as positions at .. end: CSR entries row_ptr[row] .. row_ptr[row + 1]; Blocked-ELL
// elements row * ell_cols .. (row + 1) * ell_cols (the value's index), where an empty slot (a
// negative block column) and the part of a block past the matrix's last column hold no entries.
struct SourceRow {
    int64_t row, at, end;
};

__device__ __forceinline__ int64_t ell_block_column(const SrBcrsBuildParams& p, int64_t row, int64_t in_row) {
    const int64_t b = p.ell_block;
    return load_index(p.col_ind, (row / b) * (p.ell_cols / b) + in_row / b, p.indices_64) - p.base;
}

// The column at position `at` of the row.
__device__ __forceinline__ int64_t column_at(const SrBcrsBuildParams& p, const SourceRow& s) {
    if (p.ell_block == 0) return load_index(p.col_ind, s.at, p.indices_64) - p.base;
    const int64_t in_row = s.at - s.row * p.ell_cols;
    return ell_block_column(p, s.row, in_row) * p.ell_block + in_row % p.ell_block;
}

// Moves `at` to the row's next entry: past empty slots and the columns of a block beyond the
// matrix (a block that starts beyond it stays, for the merge to refuse).
__device__ __forceinline__ void settle(const SrBcrsBuildParams& p, SourceRow& s) {
    if (p.ell_block == 0) return;
    const int64_t b = p.ell_block;
    while (s.at < s.end) {
        const int64_t in_row = s.at - s.row * p.ell_cols, bc = ell_block_column(p, s.row, in_row);
        if (bc >= 0 && (bc * b + in_row % b < p.cols || bc * b >= p.cols)) return;
        s.at += b - in_row % b;
    }
}

// The row's first entry at column `lo` or past (rows checked sorted by `validate`): a binary
// search over CSR columns; over a Blocked-ELL row's slots in order (empty ones break a search).
__device__ __forceinline__ void seek(const SrBcrsBuildParams& p, SourceRow& s, int64_t lo) {
    if (lo == 0) return;
    if (p.ell_block == 0) {
        int64_t first = s.at, last = s.end;
        while (first < last) {
            const int64_t mid = (first + last) / 2;
            if (load_index(p.col_ind, mid, p.indices_64) - p.base < lo) first = mid + 1;
            else last = mid;
        }
        s.at = first;
        return;
    }
    const int64_t b = p.ell_block;
    for (; s.at < s.end; s.at += b) {
        const int64_t bc = ell_block_column(p, s.row, s.at - s.row * p.ell_cols);
        if (bc >= 0 && (bc + 1) * b > lo) {
            s.at += max(lo - bc * b, int64_t(0));
            break;
        }
    }
    settle(p, s);
}

__device__ __forceinline__ SourceRow source_row(const SrBcrsBuildParams& p, int64_t row, bool real, int64_t lo) {
    SourceRow s{row, 0, 0};
    if (!real) return s;
    if (p.ell_block == 0) {
        s.at = load_index(p.row_ptr, row, p.offsets_64) - p.base;
        s.end = load_index(p.row_ptr, row + 1, p.offsets_64) - p.base;
    } else {
        s.at = row * p.ell_cols;
        s.end = s.at + p.ell_cols;
        settle(p, s);
    }
    seek(p, s, lo);
    return s;
}

// Visits vector row g's distinct columns in [lo, hi) in increasing order: emit(s, c, -1, 0) once
// per column (s counts them from 0), then emit(s, c, r, v) for each of its rows r holding an entry
// there. Returns the number of columns, or -1 when a row's columns are not strictly increasing or
// one lies outside [0, cols) (which `validate` flags first).
template <typename Emit>
__device__ int64_t merge_vector_row(const SrBcrsBuildParams& p, int64_t g, int64_t lo, int64_t hi, Emit emit) {
    SourceRow src[MAX_V];  // unrolled loops keep the cursors in registers
#pragma unroll
    for (int r = 0; r < MAX_V; ++r) {
        const int64_t row = g * p.vector_length + r;
        src[r] = source_row(p, row, r < p.vector_length && row < p.rows, lo);
    }
    int64_t s = 0;
    for (;;) {
        int64_t c = INT64_MAX;
#pragma unroll
        for (int r = 0; r < MAX_V; ++r)
            if (src[r].at < src[r].end) c = min(c, column_at(p, src[r]));
        if (c >= hi) return s;
        if (c < 0 || c >= p.cols) return -1;
        emit(s, c, -1, 0);
#pragma unroll
        for (int r = 0; r < MAX_V; ++r) {
            if (src[r].at >= src[r].end || column_at(p, src[r]) != c) continue;
            emit(s, c, r, load_value(p.values, src[r].at, p.value_bits));
            ++src[r].at;
            settle(p, src[r]);
            if (src[r].at < src[r].end && column_at(p, src[r]) <= c) return -1;
        }
        ++s;
    }
}

// The flag after the chunks' counts: set when the source is not sorted or in range.
__device__ __forceinline__ void flag_bad(const SrBcrsBuildParams& p) {
    atomicExch(reinterpret_cast<int32_t*>(p.counts) + p.vector_rows * p.chunks, 1);
}

// ---- 0. validate --------------------------------------------------------------------------------
// CSR: a warp per row, its lanes checking neighbouring columns (strictly increasing, in [0, cols)).
// Blocked-ELL: a thread per block row, checking its stored block columns (strictly increasing,
// starting below cols). The chunks' searches rely on it.
__device__ void validate(const SrBcrsBuildParams& p) {
    if (p.ell_block == 0) {
        const int lane = threadIdx.x % 32;
        for (int64_t row = grid::global_thread() / 32; row < p.rows; row += grid::thread_count() / 32) {
            const int64_t start = load_index(p.row_ptr, row, p.offsets_64) - p.base;
            const int64_t end = load_index(p.row_ptr, row + 1, p.offsets_64) - p.base;
            bool bad = false;
            for (int64_t e = start + lane; e < end; e += 32) {
                const int64_t c = load_index(p.col_ind, e, p.indices_64) - p.base;
                bad |= c < 0 || c >= p.cols || (e + 1 < end && load_index(p.col_ind, e + 1, p.indices_64) - p.base <= c);
            }
            if (__any_sync(0xFFFFFFFFu, bad) && lane == 0) flag_bad(p);
        }
        return;
    }
    const int64_t b = p.ell_block, slots = p.ell_cols / b;
    for (int64_t br = grid::global_thread(); br < p.rows / b; br += grid::thread_count()) {
        int64_t previous = -1;
        for (int64_t j = 0; j < slots; ++j) {
            const int64_t bc = ell_block_column(p, br * b, j * b);
            if (bc < 0) continue;
            if (bc <= previous || bc * b >= p.cols) {
                flag_bad(p);
                break;
            }
            previous = bc;
        }
    }
}

// Work items of the count and fill stages: (vector row, chunk of `chunk_width` columns).
__device__ __forceinline__ void chunk_of(const SrBcrsBuildParams& p, int64_t item, int64_t& g, int64_t& lo, int64_t& hi) {
    g = item / p.chunks;
    lo = (item % p.chunks) * p.chunk_width;
    hi = min(lo + p.chunk_width, p.cols);
}

// ---- 1. count -----------------------------------------------------------------------------------
__device__ void count(const SrBcrsBuildParams& p) {
    int32_t* counts = reinterpret_cast<int32_t*>(p.counts);
    for (int64_t item = grid::global_thread(); item < p.vector_rows * p.chunks; item += grid::thread_count()) {
        int64_t g, lo, hi;
        chunk_of(p, item, g, lo, hi);
        const int64_t n = merge_vector_row(p, g, lo, hi, [](int64_t, int64_t, int, int32_t) {});
        counts[item] = n < 0 ? 0 : int32_t(n);
        if (n < 0) flag_bad(p);
    }
}

// ---- 2. fill ------------------------------------------------------------------------------------
// Element `e` of the value tiles. A vector row's tiles are written by its chunks' threads: int4
// pairs of one byte may belong to two chunks, so their nibbles are or-ed in atomically.
__device__ __forceinline__ void store_value(uint64_t array, int64_t e, int bits, int32_t v) {
    if (bits == 4) {
        const uint32_t nibble = uint32_t(v & 0xF) << (4 * (e & 1) + 8 * ((e >> 1) & 3));
        if (nibble != 0) atomicOr(reinterpret_cast<unsigned int*>(array) + (e >> 3), nibble);
    } else if (bits == 16) {
        reinterpret_cast<int16_t*>(array)[e] = int16_t(v);
    } else {
        reinterpret_cast<int8_t*>(array)[e] = int8_t(v);
    }
}

__device__ void fill(const SrBcrsBuildParams& p) {
    const int32_t* chunk_start = reinterpret_cast<const int32_t*>(p.chunk_start);
    int32_t* vec_col = reinterpret_cast<int32_t*>(p.vec_col);
    const int V = p.vector_length, stride = stride_of(p.value_bits);
    for (int64_t item = grid::global_thread(); item < p.vector_rows * p.chunks; item += grid::thread_count()) {
        int64_t g, lo, hi;
        chunk_of(p, item, g, lo, hi);
        const int64_t first = chunk_start[item];
        merge_vector_row(p, g, lo, hi, [&](int64_t s, int64_t c, int r, int32_t v) {
            const int64_t at = first + s;
            if (r < 0) vec_col[at] = int32_t(c);
            else store_value(p.vec_val, (at / stride) * stride * V + r * stride + at % stride, p.value_bits, v);
        });
    }
}

// ---- 3. pad -------------------------------------------------------------------------------------
// A thread per vector row: its padding vectors (vec_col zeroed before, real columns strictly
// increasing) repeat its last column, already read (B's row is in cache); values stay zero.
__device__ void pad(const SrBcrsBuildParams& p) {
    const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
    int32_t* vec_col = reinterpret_cast<int32_t*>(p.vec_col);
    for (int64_t g = grid::global_thread(); g < p.vector_rows; g += grid::thread_count()) {
        const int64_t start = vec_ptr[g], end = vec_ptr[g + 1];
        if (start == end) continue;
        int64_t last = end - 1;
        while (last > start && vec_col[last] == 0) --last;  // at most a stride of padding
        for (int64_t at = last + 1; at < end; ++at) vec_col[at] = vec_col[last];
    }
}

// ---- SpMM: lanes and register permutes ---------------------------------------------------------
//
// Which of the warp's TILE_N columns of B and C an mma row stands for is ours to choose: lane
// (group g, thread t) holds mma rows g and g + 8 of each of the M_TILES tiles, and row g of tile
// i is column 8 g + i, row g + 8 column 8 g + 4 + i. So a lane's eight columns are contiguous
// and, for each of its k's, one load of a B row gives all of them.

struct Lane {
    int group;   // the mma's groupID: a row of the A fragment, a column (vector row entry) of B
    int thread;  // its threadID_in_group: which k's
};

// A lane's addresses in stride block 0, set once; block b's are b times a block's bytes further
// and B's row k is k rows further, each one 32 x 32 -> 64-bit multiply-add (64-bit block indices
// and products took a fifth of the int8 loop's instructions). Loads through them say global
// (`__ldg`): an address from inline PTX is generic to the compiler.
struct LaneAt {
    bool sparse;               // the lane's group is an entry of the vector (group < V)
    const uint8_t* val;        // the lane's first sparse word (unused by groups past V)
    const uint8_t* col;        // its first column index
    const uint8_t* b;          // B's row 0 at the lane's first column (whole-tile loads)
    uint32_t val_block_bytes;  // the values of a stride block: S x V elements of L bits
    uint32_t b_row_bytes;      // B's row stride (under 2^31, the launcher's b_aligned)
};

// Four words (one per k, four byte columns each) become four words (one per column, four k's
// each, k ascending from the low byte).
__device__ __forceinline__ void transpose4(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, uint32_t out[4]) {
    const uint32_t lo01 = __byte_perm(w0, w1, 0x5140), lo23 = __byte_perm(w2, w3, 0x5140);
    const uint32_t hi01 = __byte_perm(w0, w1, 0x7362), hi23 = __byte_perm(w2, w3, 0x7362);
    out[0] = __byte_perm(lo01, lo23, 0x5410);
    out[1] = __byte_perm(lo01, lo23, 0x7632);
    out[2] = __byte_perm(hi01, hi23, 0x5410);
    out[3] = __byte_perm(hi01, hi23, 0x7632);
}

// Eight words of eight nibbles, w[j] nibble c, become w[c] nibble j: swaps of 4 x 4, 2 x 2 and
// 1 x 1 nibble blocks between words 4, 2 and 1 apart.
__device__ __forceinline__ void transpose8_nibbles(uint32_t w[8]) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const uint32_t a = w[j], b = w[j + 4];
        w[j] = __byte_perm(a, b, 0x5410);
        w[j + 4] = __byte_perm(a, b, 0x7632);
    }
    constexpr int pairs[4] = {0, 1, 4, 5};
#pragma unroll
    for (int j : pairs) {
        const uint32_t a = w[j], b = w[j + 2];
        w[j] = __byte_perm(a, b, 0x6240);
        w[j + 2] = __byte_perm(a, b, 0x7351);
    }
#pragma unroll
    for (int j = 0; j < 8; j += 2) {
        const uint32_t a = w[j], b = w[j + 1];
        w[j] = (a & 0x0F0F0F0Fu) | ((b << 4) & 0xF0F0F0F0u);
        w[j + 1] = ((a >> 4) & 0x0F0F0F0Fu) | (b & 0xF0F0F0F0u);
    }
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 900  // sm_90 has no int4 tensor cores (block_mmas4)
__device__ __forceinline__ void mma_s4(int32_t d[4], const uint32_t a[4], const uint32_t b[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif

// ---- SpMM stages --------------------------------------------------------------------------------

// B's element (k, col) of R bits; the edge path's reads.
template <int R>
__device__ __forceinline__ int32_t dense_element(const SrBcrsSpmmParams& p, int64_t k, int64_t col) {
    return load_value(p.b, k * p.b_row_stride + col * p.b_col_stride, R);
}

// ---- int8 mma path (L = 8 or 16; R <= L, int4 widened to bytes) ----
//
// Parts of the dense operand: 1 (int8 bytes) or 2 (int16: signed high bytes, unsigned low bytes);
// likewise of the sparse one. Each (dense part, sparse part) pair is one mma.
template <int L, int R>
struct Bytes {
    static constexpr int SPARSE = L == 16 ? 2 : 1;
    static constexpr int DENSE = R == 16 ? 2 : 1;
    // Accumulators by weight: int16 x int16 keeps high x high (<< 16), the two cross terms (<< 8)
    // and low x low; int16 x int8 keeps high (<< 8) and low.
    static constexpr int ACC = SPARSE + DENSE - 1;
};

template <int L, int R>
struct Stage8 {
    uint32_t sparse[Bytes<L, R>::SPARSE][2];
    uint2 dense[Bytes<L, R>::DENSE][8];
};

// The mma's B operand (A^T, 32 k x 8 n) for stride block `block`: entry r = group of the vector
// takes k = 4 thread .. + 3 and 16 + 4 thread .. + 3, contiguous in the tile. Groups past V: zero.
template <int L, int R>
__device__ __forceinline__ void sparse_fragment(uint32_t block, const LaneAt& at, Stage8<L, R>& s) {
    if (!at.sparse) {
#pragma unroll
        for (int h = 0; h < Bytes<L, R>::SPARSE; ++h) s.sparse[h][0] = s.sparse[h][1] = 0;
        return;
    }
    const uint8_t* words = row_at(at.val, block, at.val_block_bytes);  // k = 4 thread of the tile row
    if constexpr (L == 8) {
        s.sparse[0][0] = __ldg(reinterpret_cast<const uint32_t*>(words));
        s.sparse[0][1] = __ldg(reinterpret_cast<const uint32_t*>(words + 16));
    } else {
        const uint2 x = __ldg(reinterpret_cast<const uint2*>(words));
        const uint2 y = __ldg(reinterpret_cast<const uint2*>(words + 32));
        s.sparse[0][0] = high_bytes(x.x, x.y);
        s.sparse[0][1] = high_bytes(y.x, y.y);
        s.sparse[1][0] = low_bytes(x.x, x.y);
        s.sparse[1][1] = low_bytes(y.x, y.y);
    }
}

// B's row k at columns n .. n + 7 as bytes in column order (int16: high and low bytes); columns
// past N read as zero. WHOLE: the warp's columns all lie inside B and its rows are aligned to 8
// elements (one load).
template <int R, bool WHOLE, bool SCALED>
__device__ __forceinline__ void dense_chunk(const SrBcrsSpmmParams& p, const LaneAt& at, int32_t k, int64_t n, uint2 out[]) {
    if constexpr (WHOLE && R == 8) {
        out[0] = __ldg(reinterpret_cast<const uint2*>(row_at(at.b, uint32_t(k), at.b_row_bytes)));
    } else if constexpr (WHOLE && R == 4) {
        out[0] = widen<SCALED>(__ldg(reinterpret_cast<const uint32_t*>(row_at(at.b, uint32_t(k), at.b_row_bytes))));
    } else if constexpr (WHOLE && R == 16) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(row_at(at.b, uint32_t(k), at.b_row_bytes)));
        out[0] = make_uint2(high_bytes(q.x, q.y), high_bytes(q.z, q.w));
        out[1] = make_uint2(low_bytes(q.x, q.y), low_bytes(q.z, q.w));
    } else {
        uint32_t w[2][2] = {{0, 0}, {0, 0}};
        for (int i = 0; i < 8; ++i) {
            if (n + i >= p.n) break;
            const uint32_t v = uint32_t(dense_element<R>(p, k, n + i));
            w[0][i / 4] |= ((R == 16 ? v >> 8 : R == 4 && SCALED ? v << 4 : v) & 0xFF) << (8 * (i % 4));
            w[1][i / 4] |= (v & 0xFF) << (8 * (i % 4));
        }
        out[0] = make_uint2(w[0][0], w[0][1]);
        if constexpr (R == 16) out[1] = make_uint2(w[1][0], w[1][1]);
    }
}

// The columns of a lane's k's in a stride block, loaded a block ahead of the B rows they address.
template <int WORDS>
struct Columns {
    int4 w[WORDS];
};

// int8 mma path: k = 4 thread + i, then 16 + 4 thread + i.
__device__ __forceinline__ Columns<2> load_columns8(uint32_t block, const LaneAt& at) {
    const int4* c = reinterpret_cast<const int4*>(row_at(at.col, block, 32u * 4));  // column 4 thread
    return {{__ldg(c), __ldg(c + 4)}};
}

template <int L, int R, bool WHOLE, bool SCALED>
__device__ __forceinline__ void load_stage(const SrBcrsSpmmParams& p, uint32_t block, const Columns<2>& cols, const LaneAt& at,
                                           int64_t n_lane, Stage8<L, R>& s) {
    sparse_fragment<L, R>(block, at, s);
    const int4 c0 = cols.w[0], c1 = cols.w[1];
    const int32_t k[8] = {c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w};
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        uint2 chunk[Bytes<L, R>::DENSE];
        dense_chunk<R, WHOLE, SCALED>(p, at, k[j], n_lane, chunk);
#pragma unroll
        for (int h = 0; h < Bytes<L, R>::DENSE; ++h) s.dense[h][j] = chunk[h];
    }
}

// The mma's A operand (B^T, 16 rows x 32 k) of every tile from one dense part: a[i] = {row g,
// row g + 8 at the first 16 k's; the same at the last 16}, i.e. columns 8 g + i and 8 g + 4 + i.
__device__ __forceinline__ void dense_fragments(const uint2 d[8], uint32_t a[M_TILES][4]) {
    static_assert(M_TILES == 4, "a lane's 8 columns are 2 words of 4 tiles");
    uint32_t t[4][4];
    transpose4(d[0].x, d[1].x, d[2].x, d[3].x, t[0]);  // first k's, row g
    transpose4(d[0].y, d[1].y, d[2].y, d[3].y, t[1]);  // first k's, row g + 8
    transpose4(d[4].x, d[5].x, d[6].x, d[7].x, t[2]);  // last k's, row g
    transpose4(d[4].y, d[5].y, d[6].y, d[7].y, t[3]);  // last k's, row g + 8
#pragma unroll
    for (int i = 0; i < M_TILES; ++i) {
        a[i][0] = t[0][i];
        a[i][1] = t[1][i];
        a[i][2] = t[2][i];
        a[i][3] = t[3][i];
    }
}

// One stride block's mmas. Dense part 0 (int8, or int16's signed high bytes) times sparse part 0
// goes to the accumulator of the highest weight; int16's unsigned low bytes add the lower ones.
template <int L, int R>
__device__ __forceinline__ void block_mmas(const Stage8<L, R>& s, int32_t acc[][M_TILES][4]) {
    static_assert(Bytes<L, R>::DENSE <= Bytes<L, R>::SPARSE, "R <= L");
    uint32_t a[M_TILES][4];
    dense_fragments(s.dense[0], a);
#pragma unroll
    for (int t = 0; t < M_TILES; ++t) mma_k32<true, true>(acc[0][t], a[t], s.sparse[0]);
    if constexpr (Bytes<L, R>::SPARSE == 2) {
#pragma unroll
        for (int t = 0; t < M_TILES; ++t) mma_k32<true, false>(acc[1][t], a[t], s.sparse[1]);
    }
    if constexpr (Bytes<L, R>::DENSE == 2) {
        dense_fragments(s.dense[1], a);
#pragma unroll
        for (int t = 0; t < M_TILES; ++t) {
            mma_k32<false, true>(acc[1][t], a[t], s.sparse[0]);
            mma_k32<false, false>(acc[2][t], a[t], s.sparse[1]);
        }
    }
}

// ---- int4 mma path (L = R = 4) ----
//
// m16n8k64 s4 lays its registers out as m16n8k32 s8 does, eight nibbles where four bytes were:
// the sparse fragment is the same bytes of a 64-nibble tile row, and a lane's k's are
// 8 thread .. + 7 and 32 + 8 thread .. + 7.
struct Stage4 {
    uint32_t sparse[2];
    uint32_t dense[16];  // B's row at each k over the lane's 8 columns, nibble c = column c
};

// int4 mma path: k = 8 thread .. + 7, then 32 + 8 thread .. + 7.
__device__ __forceinline__ Columns<4> load_columns4(uint32_t block, const LaneAt& at) {
    const int4* c = reinterpret_cast<const int4*>(row_at(at.col, block, 64u * 4));  // column 8 thread
    return {{__ldg(c), __ldg(c + 1), __ldg(c + 8), __ldg(c + 9)}};
}

template <bool WHOLE>
__device__ __forceinline__ void load_stage4(const SrBcrsSpmmParams& p, uint32_t block, const Columns<4>& cols, const LaneAt& at, int64_t n_lane,
                                            Stage4& s) {
    if (at.sparse) {
        const uint8_t* words = row_at(at.val, block, at.val_block_bytes);  // nibble 8 thread of the tile row
        s.sparse[0] = __ldg(reinterpret_cast<const uint32_t*>(words));
        s.sparse[1] = __ldg(reinterpret_cast<const uint32_t*>(words + 16));
    } else {
        s.sparse[0] = s.sparse[1] = 0;
    }
    const int4 c0 = cols.w[0], c1 = cols.w[1], c2 = cols.w[2], c3 = cols.w[3];
    const int32_t k[16] = {c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w, c2.x, c2.y, c2.z, c2.w, c3.x, c3.y, c3.z, c3.w};
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        if constexpr (WHOLE) {
            s.dense[j] = __ldg(reinterpret_cast<const uint32_t*>(row_at(at.b, uint32_t(k[j]), at.b_row_bytes)));
        } else {
            uint32_t w = 0;
            for (int i = 0; i < 8 && n_lane + i < p.n; ++i) w |= (uint32_t(dense_element<4>(p, k[j], n_lane + i)) & 0xF) << (4 * i);
            s.dense[j] = w;
        }
    }
}

// sm_90 has no int4 tensor cores (ptxas would emulate m16n8k64 s4 with a long sequence): there the
// transposed nibbles are widened to bytes and run as two m16n8k32 s8 mmas. Which k a register
// slot stands for is free while both operands agree: in the first mma, slot 4 t + i is k 8 t + i
// and slot 16 + 4 t + i is k 8 t + 4 + i (one widened word each); the second is the same at k + 32.
template <bool SCALED>
__device__ __forceinline__ void block_mmas4(const Stage4& s, int32_t acc[][M_TILES][4]) {
    uint32_t first[8], last[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        first[j] = s.dense[j];
        last[j] = s.dense[8 + j];
    }
    transpose8_nibbles(first);  // first[c]: column c at k = 8 thread .. + 7
    transpose8_nibbles(last);
#if __CUDA_ARCH__ >= 900
#pragma unroll
    for (int t = 0; t < M_TILES; ++t) {
        const uint2 s0 = widen<SCALED>(s.sparse[0]), s1 = widen<SCALED>(s.sparse[1]);
        const uint32_t b0[2] = {s0.x, s0.y}, b1[2] = {s1.x, s1.y};
        const uint2 f = widen<SCALED>(first[t]), f4 = widen<SCALED>(first[4 + t]);
        const uint2 l = widen<SCALED>(last[t]), l4 = widen<SCALED>(last[4 + t]);
        const uint32_t a0[4] = {f.x, f4.x, f.y, f4.y}, a1[4] = {l.x, l4.x, l.y, l4.y};
        mma_k32<true, true>(acc[0][t], a0, b0);
        mma_k32<true, true>(acc[0][t], a1, b1);
    }
#else
#pragma unroll
    for (int t = 0; t < M_TILES; ++t) {
        const uint32_t a[4] = {first[t], first[4 + t], last[t], last[4 + t]};
        mma_s4(acc[0][t], a, s.sparse);
    }
#endif
}

// ---- the pipeline and the epilogue ----

// The lane's addresses in block 0 (LaneAt): its sparse words at k = 4 thread of its tile row (8
// thread nibbles for int4), its columns from 4 thread (8 thread), B's row 0 at its first column.
template <int L, int R>
__device__ __forceinline__ LaneAt lane_at(const SrBcrsSpmmParams& p, int64_t n_lane, Lane l) {
    constexpr int S = stride_of(L), K_PER_THREAD = L == 4 ? 8 : 4;
    return LaneAt{
        l.group < p.vector_length,
        reinterpret_cast<const uint8_t*>(p.vec_val) + (l.group * S + K_PER_THREAD * l.thread) * L / 8,
        reinterpret_cast<const uint8_t*>(p.vec_col) + K_PER_THREAD * l.thread * 4,
        reinterpret_cast<const uint8_t*>(p.b) + n_lane * R / 8,
        uint32_t(S * p.vector_length * L / 8),
        uint32_t(p.b_row_stride * R / 8),
    };
}

// SCALED: int4 values widened to 16 times themselves (widen_nibbles_scaled); DESCALE is the shift
// that takes the sums back (0 where nothing was scaled).
template <int L, int R, bool SCALED>
struct Path {
    using Stage = Stage8<L, R>;
    using Cols = Columns<2>;
    static constexpr int ACC = Bytes<L, R>::ACC;
    static constexpr int DESCALE = SCALED && R == 4 ? 4 : 0;
    __device__ static Cols columns(uint32_t b, const LaneAt& at) { return load_columns8(b, at); }
    template <bool WHOLE>
    __device__ static void load(const SrBcrsSpmmParams& p, uint32_t b, const Cols& c, const LaneAt& at, int64_t n, Stage& s) {
        load_stage<L, R, WHOLE, SCALED>(p, b, c, at, n, s);
    }
    __device__ static void mmas(const Stage& s, int32_t acc[][M_TILES][4]) { block_mmas<L, R>(s, acc); }
};
template <bool SCALED>
struct Path<4, 4, SCALED> {
    using Stage = Stage4;
    using Cols = Columns<4>;
    static constexpr int ACC = 1;
#if __CUDA_ARCH__ >= 900
    static constexpr int DESCALE = SCALED ? 8 : 0;  // both operands widened (two s8 mmas)
#else
    static constexpr int DESCALE = 0;  // the s4 mma takes the nibbles as they are
#endif
    __device__ static Cols columns(uint32_t b, const LaneAt& at) { return load_columns4(b, at); }
    template <bool WHOLE>
    __device__ static void load(const SrBcrsSpmmParams& p, uint32_t b, const Cols& c, const LaneAt& at, int64_t n, Stage& s) {
        load_stage4<WHOLE>(p, b, c, at, n, s);
    }
    __device__ static void mmas(const Stage& s, int32_t acc[][M_TILES][4]) { block_mmas4<SCALED>(s, acc); }
};

// The stride blocks first, first + step, ... before stop, in order: the next block's values and
// B rows are loaded before the current block's mmas (double buffering in registers), and the
// columns a block further on, so that the B loads never wait on the column loads that address
// them.
template <int L, int R, bool SCALED, bool WHOLE>
__device__ __forceinline__ void accumulate(const SrBcrsSpmmParams& p, uint32_t first, uint32_t stop, uint32_t step, const LaneAt& at,
                                           int64_t n_lane, int32_t acc[][M_TILES][4]) {
    using P = Path<L, R, SCALED>;
    typename P::Stage even, odd;  // the stages of alternate blocks (two steps a turn: no copies)
    typename P::Cols ahead;
    // Loads block b's stage from the columns loaded a block before, then the columns after it.
    const auto load = [&](uint32_t b, typename P::Stage& s) {
        P::template load<WHOLE>(p, b, ahead, at, n_lane, s);
        if (b + step < stop) ahead = P::columns(b + step, at);
    };
    if (first >= stop) return;
    ahead = P::columns(first, at);
    load(first, even);
    for (uint32_t block = first;; block += 2 * step) {
        if (block + step < stop) load(block + step, odd);
        P::mmas(even, acc);
        if (block + step >= stop) break;
        if (block + 2 * step < stop) load(block + 2 * step, even);
        P::mmas(odd, acc);
        if (block + 2 * step >= stop) break;
    }
}

// The parts' sums by weight, combined modulo 2^32: the int32 product, wrapping as the reference's.
template <int PARTS>
__device__ __forceinline__ int32_t combine(const int32_t (&acc)[PARTS][M_TILES][4], int t, int i) {
    if constexpr (PARTS == 1) return acc[0][t][i];
    else if constexpr (PARTS == 2) return int32_t((uint32_t(acc[0][t][i]) << 8) + uint32_t(acc[1][t][i]));
    else return int32_t((uint32_t(acc[0][t][i]) << 16) + (uint32_t(acc[1][t][i]) << 8) + uint32_t(acc[2][t][i]));
}

// alpha * acc + beta * old: int32 wraps as two's complement (as the reference does), FP32 rounds
// once per operation, with row scale s: (alpha * s) * acc + beta * old. beta == 0 never reads C.
template <typename T>
struct Epilogue;
template <>
struct Epilogue<int32_t> {
    int32_t alpha, beta;
    __device__ int32_t operator()(int32_t acc, int64_t, const int32_t* c) const {
        uint32_t v = uint32_t(alpha) * uint32_t(acc);
        if (beta != 0) v += uint32_t(beta) * uint32_t(*c);
        return int32_t(v);
    }
};
template <>
struct Epilogue<float> {
    float alpha, beta;
    const float* row_scale;  // NULL: none
    __device__ float operator()(int32_t acc, int64_t row, const float* c) const {
        // Rounded operations, never contracted into an fma: the reference rounds each one.
        const float a = row_scale != nullptr ? __fmul_rn(alpha, row_scale[row]) : alpha;
        const float v = __fmul_rn(a, float(acc));
        return beta != 0.0f ? __fadd_rn(v, __fmul_rn(beta, *c)) : v;
    }
};

// Four adjacent C elements from their sums, read (only when beta is not 0) and written as one
// 16-byte word.
template <typename T>
__device__ __forceinline__ void store4(const Epilogue<T>& e, T* out, int64_t row, const int32_t (&sums)[STORE_WIDTH]) {
    using Word = typename std::conditional<std::is_same<T, float>::value, float4, int4>::type;
    Word* at = reinterpret_cast<Word*>(out);
    const Word old = e.beta != T(0) ? *at : Word{};  // beta == 0 never reads C
    const T olds[STORE_WIDTH] = {old.x, old.y, old.z, old.w};
    T v[STORE_WIDTH];
#pragma unroll
    for (int j = 0; j < STORE_WIDTH; ++j) v[j] = e(sums[j], row, &olds[j]);
    *at = Word{v[0], v[1], v[2], v[3]};
}

// A warp alone on its vector row (splits 1) stores its sums straight from its registers: lane
// (g, t) holds rows 2 t and 2 t + 1 at the tile's columns 8 g .. 8 g + 7 (register i = 2 q + h of
// tile j is row 2 t + h, column 8 g + 4 q + j), so each row's 8 columns go out as two 16-byte
// stores when C is row-major with 16-byte aligned rows and they lie inside C; else one by one.
template <typename T, int PARTS>
__device__ __forceinline__ void store_direct(const SrBcrsSpmmParams& p, const Epilogue<T>& e, int64_t g, int64_t n_lane, Lane l,
                                             const int32_t (&acc)[PARTS][M_TILES][4]) {
    static_assert(M_TILES == STORE_WIDTH, "a lane's 4 tiles are 4 adjacent columns");
    const bool whole = p.c_rows_aligned && n_lane + 8 <= p.n;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int r = 2 * l.thread + h;
        const int64_t row = g * p.vector_length + r;
        if (r >= p.vector_length || row >= p.m) continue;
        T* out = reinterpret_cast<T*>(p.c) + row * p.c_row_stride;
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            if (whole) {
                int32_t sums[STORE_WIDTH];
#pragma unroll
                for (int j = 0; j < STORE_WIDTH; ++j) sums[j] = combine<PARTS>(acc, j, 2 * q + h);
                store4<T>(e, out + n_lane + 4 * q, row, sums);
            } else {
#pragma unroll
                for (int j = 0; j < M_TILES; ++j) {
                    const int64_t col = n_lane + 4 * q + j;
                    if (col >= p.n) continue;
                    T* at = out + col * p.c_col_stride;
                    *at = e(combine<PARTS>(acc, j, 2 * q + h), row, at);
                }
            }
        }
    }
}

// A warp's sums, combined, into its stash (MAX_V rows x TILE_N columns of the warp's C tile).
// D's entries of tile t: d[0], d[1] at vector entries 2 thread, 2 thread + 1 of mma row g (tile
// column 8 g + t); d[2], d[3] the same at row g + 8 (column 8 g + 4 + t). Entries past V are zero.
template <int PARTS>
__device__ __forceinline__ void stash(const int32_t (&acc)[PARTS][M_TILES][4], Lane l, int32_t (*out)[STASH_PITCH]) {
#pragma unroll
    for (int t = 0; t < M_TILES; ++t) {
#pragma unroll
        for (int i = 0; i < 4; ++i) out[2 * l.thread + (i & 1)][8 * l.group + (i >= 2 ? 4 : 0) + t] = combine<PARTS>(acc, t, i);
    }
}

// Entry (r, col) of a vector row's C tile: its `splits` warps' stashes (`first` the lowest) added,
// wrapping as int32.
__device__ __forceinline__ int32_t stashed_sum(const int32_t (*first)[MAX_V][STASH_PITCH], int splits, int r, int col) {
    uint32_t sum = 0;
    for (int s = 0; s < splits; ++s) sum += uint32_t(first[s][r][col]);
    return int32_t(sum);
}

// Vector row g's C tile from the stashes of its `splits` warps, shared among them and stored along
// C's contiguous side.
//   store_rows  row-major C, 16-byte aligned rows, the tile inside C: a lane takes 4 adjacent
//               columns of a row (one 16-byte store), the tile in 4 unrolled steps a warp
//   store_any   every other case: entry e is row e / TILE_N, column e % TILE_N when C is
//               row-major, else row e % MAX_V, column e / MAX_V, each checked against C's edges

template <typename T>
__device__ __forceinline__ void store_rows(const SrBcrsSpmmParams& p, const Epilogue<T>& e, int64_t g, int64_t n_first,
                                           const int32_t (*first)[MAX_V][STASH_PITCH], int splits, int split, int lane) {
    constexpr int PER_ROW = TILE_N / STORE_WIDTH, STEPS = MAX_V * PER_ROW / WARP;
#pragma unroll
    for (int step = 0; step < STEPS; ++step) {
        const int at = (split + step * splits) * WARP + lane;
        const int r = at / PER_ROW, col = STORE_WIDTH * (at % PER_ROW);
        const int64_t row = g * p.vector_length + r;
        if (at >= MAX_V * PER_ROW || r >= p.vector_length || row >= p.m) continue;
        int32_t sums[STORE_WIDTH];
#pragma unroll
        for (int i = 0; i < STORE_WIDTH; ++i) sums[i] = stashed_sum(first, splits, r, col + i);
        store4<T>(e, reinterpret_cast<T*>(p.c) + row * p.c_row_stride + n_first + col, row, sums);
    }
}

template <typename T>
__device__ __forceinline__ void store_any(const SrBcrsSpmmParams& p, const Epilogue<T>& e, int64_t g, int64_t n_first,
                                          const int32_t (*first)[MAX_V][STASH_PITCH], int splits, int split, int lane) {
    T* c = reinterpret_cast<T*>(p.c);
    const bool row_major = p.c_col_stride == 1;
#pragma unroll 4
    for (int at = split * WARP + lane; at < MAX_V * TILE_N; at += splits * WARP) {
        const int r = row_major ? at / TILE_N : at % MAX_V, col = row_major ? at % TILE_N : at / MAX_V;
        const int64_t row = g * p.vector_length + r;
        if (r >= p.vector_length || row >= p.m || n_first + col >= p.n) continue;
        T* out = c + row * p.c_row_stride + (n_first + col) * p.c_col_stride;
        *out = e(stashed_sum(first, splits, r, col), row, out);
    }
}

template <typename T>
__device__ Epilogue<T> epilogue(const SrBcrsSpmmParams& p);
template <>
__device__ Epilogue<int32_t> epilogue(const SrBcrsSpmmParams& p) {
    return {load_scalar<int32_t>(p.alpha), load_scalar<int32_t>(p.beta)};
}
template <>
__device__ Epilogue<float> epilogue(const SrBcrsSpmmParams& p) {
    return {load_scalar<float>(p.alpha), load_scalar<float>(p.beta), reinterpret_cast<const float*>(p.row_scale)};
}

// `p.splits` warps per (vector row, TILE_N columns): blockDim.x / 32 / splits vector rows a block;
// split rows add their sums in stashes of MAX_V x STASH_PITCH words a warp (dynamic shared memory).
// Every lane of a warp takes the same branches (the mma needs all of them).
template <int L, int R, bool SCALED, typename T>
__device__ void spmm(const SrBcrsSpmmParams& p) {
    extern __shared__ int32_t stash_words[];
    auto stashes = reinterpret_cast<int32_t (*)[MAX_V][STASH_PITCH]>(stash_words);
    const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    const int splits = p.splits, split = warp % splits;
    const int64_t g = int64_t(blockIdx.x) * (blockDim.x / WARP / splits) + warp / splits;
    const Lane l{lane / 4, lane % 4};
    const int64_t n_first = int64_t(blockIdx.y) * TILE_N, n_lane = n_first + 8 * l.group;

    using P = Path<L, R, SCALED>;
    constexpr int PARTS = P::ACC;
    int32_t acc[PARTS][M_TILES][4] = {};
    if (g < p.vector_rows) {  // the whole warp: the mma needs all its lanes
        const int32_t* vec_ptr = reinterpret_cast<const int32_t*>(p.vec_ptr);
        // Stride blocks number under 2^26 (vec_ptr is int32): 32-bit block indices.
        const uint32_t first = uint32_t(vec_ptr[g]) / stride_of(L) + split, stop = uint32_t(vec_ptr[g + 1]) / stride_of(L);
        const LaneAt at = lane_at<L, R>(p, n_lane, l);
        if (p.b_aligned && n_first + TILE_N <= p.n) accumulate<L, R, SCALED, true>(p, first, stop, splits, at, n_lane, acc);
        else accumulate<L, R, SCALED, false>(p, first, stop, splits, at, n_lane, acc);
    }
    if constexpr (P::DESCALE > 0) {  // exact: the launcher takes SCALED only while every sum fits
#pragma unroll
        for (int a = 0; a < PARTS; ++a)
#pragma unroll
            for (int t = 0; t < M_TILES; ++t)
#pragma unroll
                for (int i = 0; i < 4; ++i) acc[a][t][i] >>= P::DESCALE;
    }
    if (splits == 1) {  // the same for the whole block
        if (g < p.vector_rows) store_direct<T, PARTS>(p, epilogue<T>(p), g, n_lane, l, acc);
        return;
    }
    stash<PARTS>(acc, l, stashes[warp]);
    __syncthreads();
    if (g >= p.vector_rows) return;
    if (p.c_rows_aligned && n_first + TILE_N <= p.n) store_rows<T>(p, epilogue<T>(p), g, n_first, stashes + (warp - split), splits, split, lane);
    else store_any<T>(p, epilogue<T>(p), g, n_first, stashes + (warp - split), splits, split, lane);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_validate(const SrBcrsBuildParams p) { validate(p); }
extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_count(const SrBcrsBuildParams p) { count(p); }
extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_fill(const SrBcrsBuildParams p) { fill(p); }
extern "C" __global__ void __launch_bounds__(BUILD_BLOCK) oxs_srbcrs_pad(const SrBcrsBuildParams p) { pad(p); }

// oxs_srbcrs_spmm_l{L}r{R}[s]_{C}: the supported (sparse bits, dense bits) pairs, C int32 or FP32;
// `s`: int4 widened scaled (vector rows of at most MAX_SCALED_VECTORS vectors).
#define OXS_SRBCRS_SPMM_KERNEL(L, R, SCALED, SUFFIX, C, T)                                                               \
    extern "C" __global__ void __launch_bounds__(WARPS * WARP) oxs_srbcrs_spmm_l##L##r##R##SUFFIX##_##C(const SrBcrsSpmmParams p) { \
        spmm<L, R, SCALED, T>(p);                                                                                        \
    }
#define OXS_SRBCRS_SPMM(L, R)                        \
    OXS_SRBCRS_SPMM_KERNEL(L, R, false, , i32, int32_t) \
    OXS_SRBCRS_SPMM_KERNEL(L, R, false, , f32, float)
#define OXS_SRBCRS_SPMM_SCALED(L, R)                 \
    OXS_SRBCRS_SPMM_KERNEL(L, R, true, s, i32, int32_t) \
    OXS_SRBCRS_SPMM_KERNEL(L, R, true, s, f32, float)
OXS_SRBCRS_SPMM(4, 4)
OXS_SRBCRS_SPMM(8, 4)
OXS_SRBCRS_SPMM(8, 8)
OXS_SRBCRS_SPMM(16, 4)
OXS_SRBCRS_SPMM(16, 8)
OXS_SRBCRS_SPMM(16, 16)
OXS_SRBCRS_SPMM_SCALED(4, 4)
OXS_SRBCRS_SPMM_SCALED(8, 4)
OXS_SRBCRS_SPMM_SCALED(16, 4)
