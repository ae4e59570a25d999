"""Lab (session 22): a whole warp on one row piece across all of N, for row-major FP32 SpMM at
N = 128 / 256 on the power-law graphs where our tile kernel trails cuSPARSE's CSR_ALG2.

Nsight (arxiv_like, FP32, N = 128, flushed caches): our tile kernel 140 us, cuSPARSE's
csrmm_alg2_kernel 88 us (plus its 28 us pass scaling C first: it adds with atomics, so it is not
deterministic). Both move the same bytes through L2 (542 against 528 MB of reads); ours executes
65 warp instructions per entry against 36: the walk pays its per-entry work (a shared-memory
entry, an address, a row-end test) for each 32-column slice of a group of 8 lanes.

Kernel here: a warp per row piece of at most PIECE entries, lane l holding columns 4l .. 4l + 3 of
each 128-column half (VECS float4 a lane for N = 128 VECS); the warp loads up to 32 entries at
once, coalesced, and broadcasts each by shuffle; UNROLL B rows in flight. Whole rows write C;
pieces of longer rows write partial rows, and a second kernel adds each row's pieces in order
(deterministic, no atomics). Empty rows are items too (C = 0).

    run(command="cd bench/lab && LAB_ADD=block python3 spmm_warp_rows_lab.py rmat:arxiv_like:169343:1166243", carry=[".device-lab"])
Settings: LAB_PIECES (entries a piece, a list), LAB_KERNELS (VECS:UNROLL:MIN_BLOCKS, a list;
N = 128 VECS), LAB_ADD=block (a block per split row; default a warp), LAB_CALLS / LAB_RUNS (calls
timed back to back, samples; 1 / 1 under Nsight). Prints the time per call (both kernels), and
ERR when the result is off float64 by more than 1e-5 relative to |A| |B|.
Measured (session 22, bench/NOTES.md): PIECE 64, UNROLL 4 bounded to 6 blocks, block adds.
"""
import os
import sys

import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from hub_cache_lab import load  # noqa: E402
from spmv_merge_lab import per_call_ms  # noqa: E402

SOURCE = r"""
// acc += the round's n entries (column and value one a lane) times their B rows, lane l holding
// columns 4l .. 4l + 3 of each 128; UNROLL B rows in flight. `after_first_loads` runs once the
// first UNROLL rows are requested (warp_rows_prefetch_lab.py loads the next item there).
template <int VECS, int UNROLL, typename F>
__device__ __forceinline__ void add_products(int my_col, float my_val, int n, const float* __restrict__ B, int lane, float4 (&acc)[VECS],
        F after_first_loads) {
    constexpr int N = 128 * VECS;
    for (int u0 = 0; u0 < n; u0 += UNROLL) {
        float4 b[UNROLL][VECS];
        float a[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int c = __shfl_sync(0xffffffffu, my_col, u0 + u);
            a[u] = __shfl_sync(0xffffffffu, my_val, u0 + u);
            const float4* row = reinterpret_cast<const float4*>(B + (long long)c * N) + lane;
#pragma unroll
            for (int v = 0; v < VECS; ++v) b[u][v] = u0 + u < n ? __ldg(row + 32 * v) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
        if (u0 == 0) after_first_loads();
#pragma unroll
        for (int u = 0; u < UNROLL; ++u)
#pragma unroll
            for (int v = 0; v < VECS; ++v) {
                acc[v].x += a[u] * b[u][v].x; acc[v].y += a[u] * b[u][v].y;
                acc[v].z += a[u] * b[u][v].z; acc[v].w += a[u] * b[u][v].w;
            }
    }
}

template <int VECS, int UNROLL, int MIN_BLOCKS>
__global__ void __launch_bounds__(256, MIN_BLOCKS) warp_rows(const int* __restrict__ cols, const float* __restrict__ vals,
        const int4* __restrict__ items, int nitems, const float* __restrict__ B, float* __restrict__ C,
        float* __restrict__ partials, float alpha) {
    constexpr int N = 128 * VECS;
    const int w = (blockIdx.x * 256 + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (w >= nitems) return;
    const int4 it = items[w];
    float4 acc[VECS];
#pragma unroll
    for (int v = 0; v < VECS; ++v) acc[v] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int e0 = it.y; e0 < it.z; e0 += 32) {
        const int n = min(32, it.z - e0);
        const int my_col = lane < n ? __ldcs(cols + e0 + lane) : 0;
        const float my_val = lane < n ? __ldcs(vals + e0 + lane) : 0.f;
        add_products<VECS, UNROLL>(my_col, my_val, n, B, lane, acc, [] {});
    }
    const float s = it.w < 0 ? alpha : 1.f;
    float4* dst = reinterpret_cast<float4*>(it.w < 0 ? C + (long long)it.x * N : partials + (long long)it.w * N) + lane;
#pragma unroll
    for (int v = 0; v < VECS; ++v) __stcs(dst + 32 * v, make_float4(s * acc[v].x, s * acc[v].y, s * acc[v].z, s * acc[v].w));
}

// A warp per split row: its pieces' partial rows added in piece order.
template <int VECS>
__global__ void __launch_bounds__(256) add_pieces(const int4* __restrict__ split, int nsplit, const float* __restrict__ partials,
        float* __restrict__ C, float alpha) {
    constexpr int N = 128 * VECS;
    const int w = (blockIdx.x * 256 + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (w >= nsplit) return;
    const int4 s = split[w];  // row, first slot, count
    float4 acc[VECS];
#pragma unroll
    for (int v = 0; v < VECS; ++v) acc[v] = make_float4(0.f, 0.f, 0.f, 0.f);
    constexpr int AHEAD = 4;  // partial rows in flight
    for (int p0 = 0; p0 < s.z; p0 += AHEAD) {
        float4 q[AHEAD][VECS];
#pragma unroll
        for (int u = 0; u < AHEAD; ++u) {
            const float4* src = reinterpret_cast<const float4*>(partials + (long long)(s.y + p0 + u) * N) + lane;
#pragma unroll
            for (int v = 0; v < VECS; ++v) q[u][v] = p0 + u < s.z ? __ldcs(src + 32 * v) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
#pragma unroll
        for (int u = 0; u < AHEAD; ++u)
#pragma unroll
            for (int v = 0; v < VECS; ++v) {
                acc[v].x += q[u][v].x; acc[v].y += q[u][v].y; acc[v].z += q[u][v].z; acc[v].w += q[u][v].w;
            }
    }
    float4* dst = reinterpret_cast<float4*>(C + (long long)s.x * N) + lane;
#pragma unroll
    for (int v = 0; v < VECS; ++v) dst[32 * v] = make_float4(alpha * acc[v].x, alpha * acc[v].y, alpha * acc[v].z, alpha * acc[v].w);
}

// A block per split row: warp w adds pieces w, w + 8, ... (AHEAD in flight), then warp 0 adds the
// eight warp sums in warp order (a fixed order: deterministic). For rows of hundreds of pieces
// (the hubs), where a warp per row walks them one round trip after another.
template <int VECS>
__global__ void __launch_bounds__(256) add_pieces_block(const int4* __restrict__ split, const float* __restrict__ partials,
        float* __restrict__ C, float alpha) {
    constexpr int N = 128 * VECS, AHEAD = 4;
    __shared__ float4 sums[8][32 * VECS];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int4 s = split[blockIdx.x];
    float4 acc[VECS];
#pragma unroll
    for (int v = 0; v < VECS; ++v) acc[v] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int p0 = warp; p0 < s.z; p0 += 8 * AHEAD) {
        float4 q[AHEAD][VECS];
#pragma unroll
        for (int u = 0; u < AHEAD; ++u) {
            const int p = p0 + 8 * u;
            const float4* src = reinterpret_cast<const float4*>(partials + (long long)(s.y + p) * N) + lane;
#pragma unroll
            for (int v = 0; v < VECS; ++v) q[u][v] = p < s.z ? __ldcs(src + 32 * v) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
#pragma unroll
        for (int u = 0; u < AHEAD; ++u)
#pragma unroll
            for (int v = 0; v < VECS; ++v) {
                acc[v].x += q[u][v].x; acc[v].y += q[u][v].y; acc[v].z += q[u][v].z; acc[v].w += q[u][v].w;
            }
    }
#pragma unroll
    for (int v = 0; v < VECS; ++v) sums[warp][lane + 32 * v] = acc[v];
    __syncthreads();
    if (warp != 0) return;
#pragma unroll
    for (int v = 0; v < VECS; ++v) {
        float4 t = sums[0][lane + 32 * v];
        for (int w = 1; w < 8; ++w) {
            const float4 o = sums[w][lane + 32 * v];
            t.x += o.x; t.y += o.y; t.z += o.z; t.w += o.w;
        }
        reinterpret_cast<float4*>(C + (long long)s.x * N)[lane + 32 * v] = make_float4(alpha * t.x, alpha * t.y, alpha * t.z, alpha * t.w);
    }
}
"""


def reference(a, b, alpha=0.7):
    """alpha A B in float64 and alpha |A| |B| (the scale of the check), on the host."""
    ref = cp.asnumpy(a.astype(np.float64) @ b.astype(np.float64)) * alpha
    a_abs = a.astype(np.float64)
    a_abs.data = cp.abs(a_abs.data)
    return ref, cp.asnumpy(a_abs @ cp.abs(b.astype(np.float64))) * alpha + 1e-30


def checked_us(call, out, ref, scale):
    """Runs `call` once, checks `out` against the reference, then times it: 'T us' or 'T us ERR e'."""
    call()
    err = float(np.max(np.abs(cp.asnumpy(out).astype(np.float64) - ref) / scale))
    ms = per_call_ms(call, calls=int(os.environ.get("LAB_CALLS", "5")))
    return f"{ms * 1e3:7.1f} us{'' if err < 1e-5 else f' ERR {err:.1e}'}"


def work_items(indptr, piece):
    """(row, begin, end, slot) per item (slot -1: the whole row) and (row, first slot, count) per
    split row."""
    m = len(indptr) - 1
    lens = np.diff(indptr)
    counts = np.maximum((lens + piece - 1) // piece, 1)
    rows = np.repeat(np.arange(m), counts)
    idx = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    begin = np.repeat(indptr[:-1], counts) + idx * piece
    end = np.minimum(begin + piece, np.repeat(indptr[1:], counts))
    split_rows = np.nonzero(counts > 1)[0]
    first = np.zeros(m, np.int64)
    first[split_rows] = np.cumsum(counts[split_rows]) - counts[split_rows]
    slot = np.where(np.repeat(counts > 1, counts), np.repeat(first, counts) + idx, -1)
    items = np.stack([rows, begin, end, slot], axis=1).astype(np.int32)
    split = np.stack([split_rows, first[split_rows], counts[split_rows], np.zeros_like(split_rows)], axis=1).astype(np.int32)
    return cp.asarray(items), cp.asarray(split), int(counts[split_rows].sum())


def main():
    pieces = [int(p) for p in os.environ.get("LAB_PIECES", "32,64").split(",")]
    # VECS:UNROLL:MIN_BLOCKS (float4 a lane per 128 columns, B rows in flight, launch bound)
    kernels = [tuple(map(int, v.split(":"))) for v in os.environ.get("LAB_KERNELS", "1:8:1,1:4:6,1:6:4,2:4:1,2:2:6").split(",")]
    mod = cp.RawModule(code=SOURCE, options=("-std=c++17",),
                       name_expressions=[f"warp_rows<{v}, {u}, {b}>" for v, u, b in kernels] + ["add_pieces<1>", "add_pieces<2>", "add_pieces_block<1>", "add_pieces_block<2>"])
    for spec in sys.argv[1:]:
        name, m, k, r, c = load(spec)
        rng = np.random.default_rng(7)
        a = cps.coo_matrix((cp.asarray(rng.uniform(-1, 1, len(r)).astype(np.float32)), (cp.asarray(r), cp.asarray(c))), shape=(m, k)).tocsr()
        indptr = cp.asnumpy(a.indptr)
        for vecs, unroll, min_blocks in kernels:
            n = 128 * vecs
            b = cp.asarray(rng.uniform(-1, 1, (k, n)).astype(np.float32))
            ref, scale = reference(a, b)
            line = [f"{name[:14]:14} N={n} unroll {unroll} min blocks {min_blocks}"]
            for piece in pieces:
                items, split, slots = work_items(indptr, piece)
                partials = cp.zeros((max(slots, 1), n), np.float32)
                out = cp.full((m, n), np.nan, np.float32)
                rows_k = mod.get_function(f"warp_rows<{vecs}, {unroll}, {min_blocks}>")
                add_k = mod.get_function(f"add_pieces<{vecs}>")
                add_block_k = mod.get_function(f"add_pieces_block<{vecs}>")
                block_add = os.environ.get("LAB_ADD", "warp") == "block"

                def call():
                    rows_k(((len(items) + 7) // 8,), (256,), (a.indices, a.data, items, np.int32(len(items)), b, out, partials, np.float32(0.7)))
                    if len(split) and block_add:
                        add_block_k((len(split),), (256,), (split, partials, out, np.float32(0.7)))
                    elif len(split):
                        add_k(((len(split) + 7) // 8,), (256,), (split, np.int32(len(split)), partials, out, np.float32(0.7)))

                line.append(f"piece {piece}: {checked_us(call, out, ref, scale)}")
            print("  ".join(line), flush=True)


if __name__ == "__main__":
    main()
