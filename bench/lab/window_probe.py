"""Lab probe (session 30): column-major SpMM for banded / block-diagonal A without the staging copy
of op(B). A block of R consecutive rows finds the span of its columns [lo, hi], copies op(B)'s rows
lo..hi of J columns into shared memory (reading down op(B)'s columns, coalesced), then a thread per
(row, J / (256 / R) columns) adds its row's products from shared memory and writes C down its
columns (32 consecutive rows a warp). Blocks whose span outgrows the tile read op(B) in place.
FP32, N = 128, kernel time by CUDA events behind a spin kernel, warm and with L2 flushed.
Run on the GPU machine: python3 bench/lab/window_probe.py FILE.mtx.gz ..."""
import os, sys
import numpy as np
import cupy as cp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_common import Case, kernel_us

SRC = r'''
template <int R, int J>
__global__ void __launch_bounds__(256) window_colc(const int* __restrict__ off, const int* __restrict__ col, const float* __restrict__ val,
        const float* __restrict__ B, long long ldb, float* __restrict__ C, long long ldc, int m, int n, int wmax) {
    extern __shared__ float tile[];
    __shared__ int span[2];
    constexpr int G = 256 / R, JC = J / G, LD = J + 1;
    const int r0 = blockIdx.x * R, j0 = blockIdx.y * J;
    const int rend = min(r0 + R, m);
    const int e0 = off[r0], e1 = off[rend];
    if (threadIdx.x == 0) { span[0] = 0x7fffffff; span[1] = -1; }
    __syncthreads();
    int lo = 0x7fffffff, hi = -1;
    for (int e = e0 + threadIdx.x; e < e1; e += 256) { const int c = col[e]; lo = min(lo, c); hi = max(hi, c); }
    for (int s = 16; s > 0; s >>= 1) { lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, s)); hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, s)); }
    if ((threadIdx.x & 31) == 0 && hi >= 0) { atomicMin(&span[0], lo); atomicMax(&span[1], hi); }
    __syncthreads();
    lo = span[0]; hi = span[1];
    const int w = hi - lo + 1;
    const bool staged = w > 0 && w <= wmax;
    const int jn = min(J, n - j0);
    if (staged) {
        for (int i = threadIdx.x; i < w * J; i += 256) {
            const int jj = i / w, cc = i - jj * w;
            tile[cc * LD + jj] = jj < jn ? B[(long long)(lo + cc) + (long long)(j0 + jj) * ldb] : 0.f;
        }
    }
    __syncthreads();
    const int r = r0 + threadIdx.x % R, g = threadIdx.x / R;
    if (r >= rend) return;
    float acc[JC];
#pragma unroll
    for (int u = 0; u < JC; ++u) acc[u] = 0.f;
    const int b = off[r], e = off[r + 1];
    if (staged) {
        for (int q = b; q < e; ++q) {
            const float v = val[q];
            const float* t = tile + (col[q] - lo) * LD + g * JC;
#pragma unroll
            for (int u = 0; u < JC; ++u) acc[u] += v * t[u];
        }
    } else {
        for (int q = b; q < e; ++q) {
            const float v = val[q];
            const int c = col[q];
#pragma unroll
            for (int u = 0; u < JC; ++u) { const int j = j0 + g * JC + u; if (j < n) acc[u] += v * __ldg(B + c + (long long)j * ldb); }
        }
    }
#pragma unroll
    for (int u = 0; u < JC; ++u) {
        const int j = j0 + g * JC + u;
        if (j < n) C[r + (long long)j * ldc] = acc[u];
    }
}
'''
VARIANTS = [(64, 16), (64, 32), (32, 16), (32, 32)]
names = [f"window_colc<{r},{j}>" for r, j in VARIANTS]
mod = cp.RawModule(code=SRC, options=("-std=c++17",), name_expressions=names)
kern = {v: mod.get_function(n) for v, n in zip(VARIANTS, names)}
N = 128
SMEM_MAX = 96 * 1024

for path in sys.argv[1:]:
    case = Case(path, N)
    a, m = case.a, case.m
    cells = []
    for v in VARIANTS:
        R, J = v
        spans = [(a.indices[a.indptr[r0]:a.indptr[min(r0 + R, m)]]) for r0 in range(0, m, R)]
        widths = [int(s.max() - s.min() + 1) if len(s) else 0 for s in spans]
        wmax = min(max(widths), SMEM_MAX // ((J + 1) * 4))
        smem = wmax * (J + 1) * 4
        try:
            kern[v].max_dynamic_shared_size_bytes = SMEM_MAX
        except AttributeError:
            cp.cuda.driver.funcSetAttribute(kern[v].ptr, 8, SMEM_MAX)  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        grid = ((m + R - 1) // R, (N + J - 1) // J)
        args = (case.off, case.col, case.val, case.B, np.int64(case.k), case.C, np.int64(m), np.int32(m), np.int32(N), np.int32(wmax))
        f = lambda: kern[v](grid, (256,), args, shared_mem=smem)
        case.check(f, v)
        amp = sum(widths) / case.k
        cells.append(f"R{R}J{J} {kernel_us(f, True):6.1f}/{kernel_us(f, False):5.1f} (amp {amp:4.1f} smem {smem >> 10}K)")
    print(f"{case.name:28s} m={m:7d} nnz={a.nnz:8d} | " + " ".join(cells), flush=True)
