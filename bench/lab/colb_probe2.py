"""Lab probe (session 30): column-major SpMM reading op(B) where it lies, fixing session 28's probe
(`colb_probe.py`), whose thread-per-row loop waited on one entry at a time. Here G lanes share a row
(entries strided by G, U entries in flight a lane, a butterfly joining the lanes) and each lane keeps
J columns of C. FP32, N = 128, B and C column-major. Kernel time by CUDA events behind a spin kernel
(so Python's launch cost is not counted), L2 flushed before each run and warm.
Run on the GPU machine: python3 bench/lab/colb_probe2.py .device-lab/colb/*.mtx.gz"""
import os, sys
import numpy as np
import cupy as cp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_common import Case, kernel_us

SRC = r'''
template <int G, int J, int U>
__global__ void colb(const int* __restrict__ off, const int* __restrict__ col, const float* __restrict__ val,
                     const float* __restrict__ B, long long ldb, float* __restrict__ C, long long ldc, int m) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = t / G, g = t % G;
    const long long j0 = (long long)blockIdx.y * J;
    const bool live = r < m;
    int q = live ? off[r] + g : 0;
    const int e = live ? off[r + 1] : 0;
    float acc[J];
#pragma unroll
    for (int j = 0; j < J; ++j) acc[j] = 0.f;
    const float* Bj = B + j0 * ldb;
    for (; q + (U - 1) * G < e; q += U * G) {
        int c[U]; float v[U];
#pragma unroll
        for (int u = 0; u < U; ++u) { c[u] = col[q + u * G]; v[u] = val[q + u * G]; }
        float x[U][J];
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int j = 0; j < J; ++j) x[u][j] = __ldg(Bj + c[u] + j * ldb);
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int j = 0; j < J; ++j) acc[j] += v[u] * x[u][j];
    }
    for (; q < e; q += G) {
        const int c = col[q]; const float v = val[q];
#pragma unroll
        for (int j = 0; j < J; ++j) acc[j] += v * __ldg(Bj + c + j * ldb);
    }
#pragma unroll
    for (int s = 1; s < G; s <<= 1)
#pragma unroll
        for (int j = 0; j < J; ++j) acc[j] += __shfl_xor_sync(0xffffffffu, acc[j], s);
    if (!live) return;
#pragma unroll
    for (int j = 0; j < J; ++j)
        if (j % G == g) C[r + (j0 + j) * ldc] = acc[j];
}
'''
VARIANTS = [(1, 8, 4), (1, 16, 4), (2, 8, 2), (2, 16, 2), (4, 8, 2), (4, 16, 2), (8, 16, 2)]
names = [f"colb<{g},{j},{u}>" for g, j, u in VARIANTS]
mod = cp.RawModule(code=SRC, options=("-std=c++17",), name_expressions=names)
kern = {v: mod.get_function(n) for v, n in zip(VARIANTS, names)}
N = 128

for path in sys.argv[1:]:
    case = Case(path, N)
    lens = np.diff(case.a.indptr)
    cells = []
    for v in VARIANTS:
        g, j, u = v
        grid = ((case.m * g + 127) // 128, N // j)
        args = (case.off, case.col, case.val, case.B, np.int64(case.k), case.C, np.int64(case.m), np.int32(case.m))
        f = lambda: kern[v](grid, (128,), args)
        case.check(f, v)
        cells.append(f"G{g}J{j} {kernel_us(f, True):6.1f}/{kernel_us(f, False):5.1f}")
    print(f"{case.name:28s} m={case.m:7d} nnz={case.a.nnz:8d} mean={lens.mean():5.1f} max={lens.max():5d} | " + " ".join(cells), flush=True)
