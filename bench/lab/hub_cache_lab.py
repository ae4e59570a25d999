#!/usr/bin/env python3
"""Lab (session 21): does a shared-memory cache of the most used B rows ("hubs") cut SpMM's L2
gather on power-law graphs? Runs on the GPU machine with CuPy, outside the library.

Three FP32 row-major kernels of the same shape (a group of 8 lanes per row piece, float4 of a
32-column slice each, 8 B rows in flight per lane), differing only in where B rows come from:
  plain      one group per row piece, blocks of 256 threads over the pieces (no cache);
  persistent one 1024-thread block per SM and column slice over an nnz-balanced range of pieces;
  hub K      persistent, and the K columns with the most entries have their slice of B in shared
             memory (loaded once per block); their entries carry -(slot + 1) as column.
Pieces are at most 128 entries, added into a zeroed C with atomics (the lab's shortcut, not the
library's deterministic way). cuSPARSE (cupyx) is timed for scale and checks the result.

usage: hub_cache_lab.py N matrix.mtx.gz ... [rmat:name:nodes:edges ...]
"""
import gzip
import os
import sys

import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np

PIECE = 128
SLICE = 32

SOURCE = r"""
#include <cuda_fp16.h>
template <bool HUB>
__device__ void body(const int* __restrict__ piece_row, const int* __restrict__ piece_begin, const int* __restrict__ piece_end,
                     const int* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ B, float* __restrict__ C,
                     int n, int p0, int p1, int slice, const int* __restrict__ hub_cols, int hubs) {
    extern __shared__ float4 cache[];
    const int li = threadIdx.x & 7, g = threadIdx.x >> 3, groups = blockDim.x >> 3;
    const int j = slice * 32 + li * 4;
    if (HUB) {
        for (int e = threadIdx.x; e < hubs * 8; e += blockDim.x)
            cache[e] = __ldg(reinterpret_cast<const float4*>(B + (long long)hub_cols[e >> 3] * n + slice * 32 + (e & 7) * 4));
        __syncthreads();
    }
    const unsigned mask = 0xffu << (threadIdx.x & 24);
    for (int p = p0 + g; p < p1; p += groups) {
        const int row = piece_row[p], q0 = piece_begin[p], q1 = piece_end[p];
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int q = q0; q < q1; q += 8) {
            const int qq = q + li;
            int c = 0;
            float v = 0.f;
            if (qq < q1) { c = cols[qq]; v = vals[qq]; }
            float4 b[8];
            float w[8];
#pragma unroll
            for (int u = 0; u < 8; ++u) {
                const int cu = __shfl_sync(mask, c, u, 8);
                w[u] = __shfl_sync(mask, v, u, 8);
                if (HUB) {  // one generic load from either space: no divergence between groups
                    const float4* src = cu < 0 ? &cache[(-cu - 1) * 8 + li] : reinterpret_cast<const float4*>(B + (long long)cu * n + j);
                    b[u] = *src;
                } else {
                    b[u] = __ldg(reinterpret_cast<const float4*>(B + (long long)cu * n + j));
                }
            }
#pragma unroll
            for (int u = 0; u < 8; ++u) {
                acc.x += w[u] * b[u].x; acc.y += w[u] * b[u].y; acc.z += w[u] * b[u].z; acc.w += w[u] * b[u].w;
            }
        }
        float* out = C + (long long)row * n + j;
        atomicAdd(out, acc.x); atomicAdd(out + 1, acc.y); atomicAdd(out + 2, acc.z); atomicAdd(out + 3, acc.w);
    }
}
extern "C" __global__ void plain(const int* pr, const int* pb, const int* pe, const int* cols, const float* vals, const float* B, float* C,
                                 int n, int pieces) {
    const int p0 = blockIdx.x * (blockDim.x >> 3);
    body<false>(pr, pb, pe, cols, vals, B, C, n, p0, min(p0 + int(blockDim.x >> 3), pieces), blockIdx.y, nullptr, 0);
}
// interleave: a 1-D grid whose block L takes slice L % slices of range L / slices (the blocks an SM
// gets, L, L + #SM, ..., then share a slice); otherwise grid (range, slice).
extern "C" __global__ void __launch_bounds__(1024, 1) persistent(const int* pr, const int* pb, const int* pe, const int* cols, const float* vals, const float* B,
                                      float* C, int n, const int* bounds, const int* hub_cols, int hubs, int interleave) {
    const int slices = n / 32;
    const int range = interleave ? blockIdx.x / slices : blockIdx.x, slice = interleave ? blockIdx.x % slices : blockIdx.y;
    if (hubs > 0)
        body<true>(pr, pb, pe, cols, vals, B, C, n, bounds[range], bounds[range + 1], slice, hub_cols, hubs);
    else
        body<false>(pr, pb, pe, cols, vals, B, C, n, bounds[range], bounds[range + 1], slice, hub_cols, 0);
}
"""


def read_mtx(path):
    with gzip.open(path, "rt") as f:
        header = f.readline().lower().split()
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        m, k, nnz = map(int, line.split())
        data = np.loadtxt(f, ndmin=2, max_rows=nnz)
    r = data[:, 0].astype(np.int64) - 1
    c = data[:, 1].astype(np.int64) - 1
    if "symmetric" in header or "hermitian" in header or "skew-symmetric" in header:
        off = r != c
        r, c = np.concatenate([r, c[off]]), np.concatenate([c, r[off]])
    return m, k, r, c


def rmat(nodes, edges, seed=1):
    rng = np.random.default_rng(seed)
    scale = int(np.ceil(np.log2(nodes)))
    rs, cs, need = [], [], edges
    perm = rng.permutation(nodes)
    while need > 0:
        cnt = int(need * 1.3) + 1000
        r = np.zeros(cnt, np.int64)
        c = np.zeros(cnt, np.int64)
        for _ in range(scale):
            u = rng.random(cnt)
            r = 2 * r + (u >= 0.76)
            c = 2 * c + (((u >= 0.57) & (u < 0.76)) | (u >= 0.95))
        ok = (r < nodes) & (c < nodes)
        rs.append(r[ok][:need])
        cs.append(c[ok][:need])
        need -= len(rs[-1])
    return nodes, nodes, perm[np.concatenate(rs)], perm[np.concatenate(cs)]


def row_pieces(indptr, piece):
    """Rows cut into pieces of at most `piece` entries, in row order: each piece's row, first and
    end entry, and each row's count of pieces."""
    m = len(indptr) - 1
    lens = np.diff(indptr)
    counts = np.maximum((lens + piece - 1) // piece, 0)
    prow = np.repeat(np.arange(m, dtype=np.int64), counts)
    first = np.repeat(indptr[:-1], counts)
    idx = np.arange(len(prow)) - np.repeat(np.cumsum(counts) - counts, counts)
    pbeg = first + idx * piece
    pend = np.minimum(pbeg + piece, np.repeat(indptr[1:], counts))
    return prow, pbeg, pend, counts


def load(spec):
    """(name, m, k, rows, cols) of a Matrix Market file or of 'rmat:name:nodes:edges'."""
    if spec.startswith("rmat:"):
        _, name, nodes, edges = spec.split(":")
        return (name, *rmat(int(nodes), int(edges)))
    return (spec.split("/")[-1].replace(".mtx.gz", ""), *read_mtx(spec))


def stream_ms(fn, calls=1, samples=int(os.environ.get("LAB_RUNS", "30")), warmup=3):
    """Median over `samples` of the time per call of `calls` calls launched back to back (with
    one call: the event time of a call on an idle stream), after `warmup` untimed calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(samples):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        for _ in range(calls):
            fn()
        e.record()
        e.synchronize()
        times.append(cp.cuda.get_elapsed_time(s, e) / calls)
    return float(np.median(times))


def median_ms(fn, runs=int(os.environ.get("LAB_RUNS", "30"))):
    return stream_ms(fn, 1, runs, 3 if runs > 1 else 0)


def run(name, m, k, r, c, n, mod, sms):
    rng = np.random.default_rng(7)
    a = cps.coo_matrix((cp.asarray(rng.uniform(-1, 1, len(r)).astype(np.float32)), (cp.asarray(r), cp.asarray(c))), shape=(m, k)).tocsr()
    a.sum_duplicates()
    indptr = cp.asnumpy(a.indptr).astype(np.int64)
    cols = cp.asnumpy(a.indices).astype(np.int32)
    nnz = len(cols)
    b = cp.asarray(rng.uniform(-1, 1, (k, n)).astype(np.float32))
    ref = (a @ b).astype(cp.float64)
    t_cus = median_ms(lambda: a @ b)
    prow, pbeg, pend, _ = row_pieces(indptr, PIECE)
    pieces = len(prow)
    d_pr, d_pb, d_pe = (cp.asarray(x.astype(np.int32)) for x in (prow, pbeg, pend))
    d_vals = a.data
    d_cols = cp.asarray(cols)
    c_out = cp.empty((m, n), cp.float32)
    slices = n // SLICE
    deg = np.bincount(cols, minlength=k)
    order = np.argsort(-deg, kind="stable")
    cum = np.cumsum(deg[order]) / max(nnz, 1)

    def check(label, t):
        err = float(cp.max(cp.abs(c_out - ref)) / (cp.max(cp.abs(ref)) + 1e-30))
        print(f"  {label:22s} {t * 1000:8.1f} us  {t_cus / t:5.2f}x cuSPARSE  err {err:.1e}", flush=True)

    def plain():
        c_out.fill(0)
        mod.get_function("plain")(((pieces + 31) // 32, slices), (256,), (d_pr, d_pb, d_pe, d_cols, d_vals, b, c_out, np.int32(n), np.int32(pieces)))

    print(f"{name}: {m} x {k}, nnz {nnz}, N {n}, pieces {pieces}; cuSPARSE {t_cus * 1000:.1f} us (incl. output alloc)", flush=True)
    t_fill = median_ms(lambda: c_out.fill(0))
    plain()
    check("plain", median_ms(plain) - t_fill)
    # (threads, blocks per SM, interleave, hubs): hubs < 0 reserves that many slots of shared
    # memory and uses none
    configs = [(1024, 1, 0, 0), (256, 4, 0, 0), (256, 4, 1, 0), (128, 8, 1, 0), (1024, 1, 0, 512), (1024, 1, 0, 1536)]
    for threads, per_sm, interleave, hubs in configs:
        blocks = max(1, sms * per_sm // slices)
        w = np.cumsum(pend - pbeg + 4)
        bounds = np.searchsorted(w, np.arange(blocks + 1) * (w[-1] / blocks)).clip(0, pieces).astype(np.int32)
        bounds[0], bounds[-1] = 0, pieces
        use = max(hubs, 0)
        hub_list = order[:use].astype(np.int32)
        slot = np.full(k, -1, np.int64)
        slot[hub_list] = np.arange(use)
        cols2 = np.where(slot[cols] >= 0, -(slot[cols] + 1), cols).astype(np.int32)
        d_cols2 = cp.asarray(cols2)
        d_bounds = cp.asarray(bounds)
        d_hubs = cp.asarray(hub_list if use else np.zeros(1, np.int32))
        fn = mod.get_function("persistent")
        smem = abs(hubs) * SLICE * 4
        fn.max_dynamic_shared_size_bytes = max(smem, 1)
        grid = (blocks * slices,) if interleave else (blocks, slices)

        def pers():
            c_out.fill(0)
            fn(grid, (threads,), (d_pr, d_pb, d_pe, d_cols2, d_vals, b, c_out, np.int32(n), d_bounds, d_hubs, np.int32(use), np.int32(interleave)),
               shared_mem=smem)

        pers()
        label = f"{threads}x{per_sm}{' interleaved' if interleave else ''}"
        label += f", hub {hubs} ({cum[min(hubs, k) - 1] * 100:.0f}% nnz)" if hubs > 0 else ""
        check(label, median_ms(pers) - t_fill)


def main():
    n = int(sys.argv[1])
    dev = cp.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    mod = cp.RawModule(code=SOURCE, options=("-std=c++17",), name_expressions=None)
    for spec in sys.argv[2:]:
        run(*load(spec), n, mod, sms)


if __name__ == "__main__":
    main()
