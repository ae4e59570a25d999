#!/usr/bin/env python3
"""Lab (session 43): row-major FP32 SpMM with op(B) streamed through shared memory in tiles.

Question: on the graphs where our kernels tie cuSPARSE at N >= 128 (fb100, squirrel, blogcatalog,
twitch, crocodile, pushpull, the DNN-style layers) both libraries gather a whole row of B per entry
out of L1 / L2 and wait on those gathers. Sessions 32 and 40 put op(B) in shared memory in two
shapes and lost: a few columns of all k rows (A read N / J times, bank conflicts), and op(B) split
along k with full N (15 partial sums per row, a sum kernel of 5-20 us).

This shape: block = (row chunk, 32-column slice of op(B)). The block streams the slice's k rows
through two shared-memory buffers of TR rows (cp.async, the next tile loading while the current
one is used) and keeps its chunk's sums in shared memory. A subwarp of 8 lanes (a float4 each: 32
columns, one 128-byte row of the tile a step, conflict-free) owns a fixed list of rows, balanced by
entries; for each tile it adds each owned row's entries whose column falls in the tile (the range
from a table of (tiles + 1) x m offsets, as preprocess would build from sorted columns) into the
row's shared sums. A row's sum is thus tile by tile in stored order: deterministic, no partials in
global memory, no second kernel. Each SM reads its slice of op(B) once (k x 128 bytes) instead of
nnz / chunks gathers of 128 bytes.

Model (smem-bound, 128 bytes / clk / SM): time ~ (entries of a block + k) clocks. fb100_MIT8 N = 128:
15.2K entries + 6.4K rows of fill a block = 21.6K clk ~ 12 us, against the library's kernel ~34.5.

Baselines in the same process: `gather` (a warp per row, lanes across N: the shape of the library's
kernels on these graphs) and cupyx's `csr @ dense` (cuSPARSE's default algorithm; not its best).
Kernel times by CUDA events behind a spin kernel, warm L2 and flushed.

usage (GPU machine): python3 bench/lab/stream_lab.py N[,N...] matrix.mtx.gz ...
"""
import gzip
import sys

import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np
import scipy.io

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe_common import GATHER_SOURCE, kernel_us  # noqa: E402

SMS = 132
SMEM_MAX = 227 * 1024
THREADS = 1024
SUBS = THREADS // 8

SOURCE = r"""
#include <cuda_pipeline.h>

// Stage 1: tile t of the block's 32-column slice of op(B) into `dst` (one 16-byte cp.async a step).
template <int TR>
__device__ __forceinline__ void load_tile(float4* dst, const float* __restrict__ B, int n, int k, int s, int t) {
    const int k0 = t * TR;
    const int rows = min(TR, k - k0);
    for (int i = threadIdx.x; i < rows * 8; i += blockDim.x) {
        const float* src = B + (long long)(k0 + (i >> 3)) * n + s * 32 + (i & 7) * 4;
        __pipeline_memcpy_async(dst + i, src, 16);
    }
    __pipeline_commit();
}

// Stage 2: one row's entries of tile t (columns k0 .. k0 + TR) times the tile, 8 lanes, a float4 each.
__device__ __forceinline__ float4 row_times_tile(const float4* __restrict__ tile, const int* __restrict__ ci,
                                                 const float* __restrict__ av, int lo, int hi, int k0, int q,
                                                 unsigned mask) {
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int b = lo; b < hi; b += 8) {
        int c = 0;
        float v = 0.f;
        if (b + q < hi) {
            c = __ldg(ci + b + q) - k0;
            v = __ldg(av + b + q);
        }
        const int cnt = min(8, hi - b);
        for (int e = 0; e < cnt; ++e) {
            const int ce = __shfl_sync(mask, c, e, 8);
            const float ve = __shfl_sync(mask, v, e, 8);
            const float4 x = tile[ce * 8 + q];
            a.x = fmaf(ve, x.x, a.x);
            a.y = fmaf(ve, x.y, a.y);
            a.z = fmaf(ve, x.z, a.z);
            a.w = fmaf(ve, x.w, a.w);
        }
    }
    return a;
}

template <int TR>
__device__ __forceinline__ void stream(const int* __restrict__ seg, const int* __restrict__ ci,
                                       const float* __restrict__ av, const float* __restrict__ B,
                                       float* __restrict__ C, const int* __restrict__ chunk_lo,
                                       const int* __restrict__ sub_ptr, const int* __restrict__ sub_rows,
                                       int m, int n, int k, int tiles, int slices, float alpha) {
    extern __shared__ float4 sm[];
    float4* sums = sm + 2 * TR * 8;
    const int s = blockIdx.x % slices, p = blockIdx.x / slices;
    const int r0 = chunk_lo[p], r1 = chunk_lo[p + 1];
    const int q = threadIdx.x & 7, sub = threadIdx.x >> 3;
    const unsigned mask = 0xffu << (threadIdx.x & 24);
    for (int i = threadIdx.x; i < (r1 - r0) * 8; i += blockDim.x) sums[i] = make_float4(0.f, 0.f, 0.f, 0.f);
    load_tile<TR>(sm, B, n, k, s, 0);
    const int sb = sub_ptr[p * (blockDim.x >> 3) + sub], se = sub_ptr[p * (blockDim.x >> 3) + sub + 1];
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            load_tile<TR>(sm + ((t + 1) & 1) * TR * 8, B, n, k, s, t + 1);
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
        const float4* tile = sm + (t & 1) * TR * 8;
        for (int i = sb; i < se; ++i) {
            const int row = __ldg(sub_rows + i);
            const int lo = __ldg(seg + (long long)t * m + row), hi = __ldg(seg + (long long)(t + 1) * m + row);
            if (lo == hi) continue;
            const float4 a = row_times_tile(tile, ci, av, lo, hi, t * TR, q, mask);
            float4& o = sums[(row - r0) * 8 + q];
            o.x += a.x; o.y += a.y; o.z += a.z; o.w += a.w;
        }
        __syncthreads();
    }
    // Stage 3: the chunk's sums to C.
    for (int i = threadIdx.x; i < (r1 - r0) * 8; i += blockDim.x) {
        const float4 x = sums[i];
        *reinterpret_cast<float4*>(C + (long long)(r0 + (i >> 3)) * n + s * 32 + (i & 7) * 4) =
            make_float4(alpha * x.x, alpha * x.y, alpha * x.z, alpha * x.w);
    }
}

#define STREAM(TR)                                                                                              \
    extern "C" __global__ void __launch_bounds__(1024, 1) stream_##TR(                                          \
        const int* seg, const int* ci, const float* av, const float* B, float* C, const int* chunk_lo,           \
        const int* sub_ptr, const int* sub_rows, int m, int n, int k, int tiles, int slices, float alpha) {      \
        stream<TR>(seg, ci, av, B, C, chunk_lo, sub_ptr, sub_rows, m, n, k, tiles, slices, alpha);               \
    }
STREAM(256)
STREAM(384)
STREAM(512)
STREAM(768)

"""

TILE_ROWS = (256, 384, 512, 768)


def load(path):
    a = scipy.io.mmread(gzip.open(path)).tocsr().astype(np.float64)
    a.sum_duplicates()
    a.sort_indices()
    a.data = np.random.default_rng(1).uniform(-1, 1, a.nnz).astype(np.float32).astype(np.float64)
    return a


def chunk_bounds(indptr, chunks):
    """Row bounds of `chunks` ranges of about equal entries plus rows (a row's fixed cost ~ 4 entries)."""
    m = len(indptr) - 1
    w = indptr.astype(np.int64) + 4 * np.arange(m + 1)
    cuts = np.searchsorted(w, np.arange(1, chunks) * (w[-1] / chunks))
    b = np.concatenate([[0], np.clip(cuts, 0, m), [m]]).astype(np.int64)
    return np.maximum.accumulate(b)


def owners(indptr, bounds, tiles):
    """Rows of each chunk dealt to its SUBS subwarps, longest first to the least loaded (LPT); the
    weight of a row is its entries plus one step a tile it touches (~ tiles, bounded by entries)."""
    lens = np.diff(indptr)
    ptr, rows, worst = [0], [], 1.0
    for p in range(len(bounds) - 1):
        r0, r1 = bounds[p], bounds[p + 1]
        w = lens[r0:r1] + np.minimum(lens[r0:r1], tiles) + 1
        order = np.argsort(-w, kind="stable")
        load_ = np.zeros(SUBS)
        lists = [[] for _ in range(SUBS)]
        for i in order:
            j = int(np.argmin(load_))
            load_[j] += w[i]
            lists[j].append(r0 + int(i))
        worst = max(worst, load_.max() / max(1e-9, load_.mean()))
        for lst in lists:
            rows.extend(sorted(lst))
            ptr.append(len(rows))
    return np.array(ptr, dtype=np.int32), np.array(rows, dtype=np.int32), worst


def segments(a, tr, tiles):
    """(tiles + 1) x m offsets: where each row's entries of column tile t start (sorted columns)."""
    m = a.shape[0]
    tile_of = a.indices // tr
    row_of = np.repeat(np.arange(m), np.diff(a.indptr))
    counts = np.bincount(row_of * tiles + tile_of, minlength=m * tiles).reshape(m, tiles)
    seg = np.zeros((tiles + 1, m), dtype=np.int64)
    seg[0] = a.indptr[:-1]
    seg[1:] = a.indptr[:-1][None, :] + np.cumsum(counts, axis=1).T
    return seg.astype(np.int32)


def run(module, path, n):
    a = load(path)
    m, k = a.shape
    name = path.split('/')[-1].replace('.mtx.gz', '')
    rng = np.random.default_rng(2)
    b64 = rng.uniform(-1, 1, (k, n)).astype(np.float32).astype(np.float64)
    ref = a @ b64
    bound = abs(a) @ abs(b64) + 1e-30
    off = cp.asarray(a.indptr.astype(np.int32))
    col = cp.asarray(a.indices.astype(np.int32))
    val = cp.asarray(a.data.astype(np.float32))
    B = cp.asarray(b64.astype(np.float32))
    C = cp.empty((m, n), dtype=cp.float32)

    def err():
        got = cp.asnumpy(C).astype(np.float64)
        return float(np.max(np.abs(got - ref) / bound)) if np.all(np.isfinite(got)) else float('inf')

    a_gpu = cps.csr_matrix((val, col, off), shape=(m, k))
    cu = kernel_us(lambda: a_gpu @ B, False)
    line = [f"{name[:24]:24} m={m:6} k={k:6} nnz={a.nnz:8} avg={a.nnz / m:6.1f} N={n:3}: cupyx {cu:7.1f}"]
    if n % 128 == 0:
        g = module.get_function(f"gather_{n // 128}")
        glaunch = lambda: g(((m * 32 + 255) // 256,), (256,), (off, col, val, B, C, np.int32(m)))
        C.fill(cp.nan); glaunch(); cp.cuda.Device().synchronize()
        line.append(f"gather {kernel_us(glaunch, False):7.1f}{'' if err() < 1e-5 else ' BAD'}")
    slices = n // 32
    best = None
    for tr in TILE_ROWS:
        tiles = (k + tr - 1) // tr
        room = SMEM_MAX - 2 * tr * 128 - 1024
        chunks = max(1, SMS // slices)
        bounds = chunk_bounds(a.indptr, chunks)
        while np.max(np.diff(bounds)) * 128 > room:
            chunks += max(1, chunks // 8)
            bounds = chunk_bounds(a.indptr, chunks)
        smem = 2 * tr * 128 + int(np.max(np.diff(bounds))) * 128
        sub_ptr, sub_rows, worst = owners(a.indptr, bounds, tiles)
        seg = cp.asarray(segments(a, tr, tiles))
        f = module.get_function(f"stream_{tr}")
        f.max_dynamic_shared_size_bytes = smem
        args = (seg, col, val, B, C, cp.asarray(bounds.astype(np.int32)), cp.asarray(sub_ptr), cp.asarray(sub_rows),
                np.int32(m), np.int32(n), np.int32(k), np.int32(tiles), np.int32(slices), np.float32(1.0))
        grid = (chunks * slices,)
        launch = lambda: f(grid, (THREADS,), args, shared_mem=smem)
        C.fill(cp.nan); launch(); cp.cuda.Device().synchronize()
        e = err()
        warm, cold = kernel_us(launch, False), kernel_us(launch, True)
        line.append(f"TR={tr} tiles={tiles} blocks={grid[0]} lpt={worst:.2f} {warm:6.1f}/{cold:6.1f}{'' if e < 1e-5 else f' BAD {e:.1e}'}")
        if e < 1e-5 and (best is None or warm < best[0]):
            best = (warm, tr)
    if best:
        line.append(f"best {best[0]:.1f} (TR={best[1]})")
    print("\n    ".join(line), flush=True)


if __name__ == "__main__":
    module = cp.RawModule(code=SOURCE + GATHER_SOURCE, options=("-std=c++17",))
    ns = [int(x) for x in sys.argv[1].split(",")]
    for p in sys.argv[2:]:
        for n in ns:
            run(module, p, n)
