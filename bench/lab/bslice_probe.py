"""Lab probe (session 32): row-major SpMM with a column slice of B held in shared memory.

Question: on graphs whose op(B) has few rows but many entries a row (the social graphs that sit at
1.0-1.1x cuSPARSE at N >= 128), both libraries gather B rows out of L1/L2 at ~8 TB/s, a quarter of
the L1 bound. Does a kernel that stages a W-column slice of all of op(B) in shared memory once per
block (grid: column slices x row chunks, one block a multiprocessor) and streams A's entries past it
beat that? A group of G lanes takes a row, its lanes take every G-th entry and add W products from
shared memory; a reduce-scatter across the group leaves each lane W / G sums of the row.

Kernel time by CUDA events behind a spin kernel (probe_common.kernel_us), warm L2, against
the library's own kernels (the bench's times less its host time). FP32, float64 check.
Run on the GPU machine: python3 bench/lab/bslice_probe.py .device-lab/matrices/*.mtx.gz
"""
import sys
import numpy as np
import cupy as cp
import scipy.io, gzip
from probe_common import kernel_us, on_gpu, random_values

SRC = r'''
template <int W, int G, int U>
__device__ void bslice(const int* __restrict__ off, const int* __restrict__ col, const float* __restrict__ val,
                       const float* __restrict__ B, int ldb, float* __restrict__ C, int ldc, int m, int k,
                       int rows_per_chunk) {
    extern __shared__ float4 bs[];           // k rows of W floats: W / 4 vectors a row
    constexpr int V = W / 4;
    const int j0 = blockIdx.x * W;
    for (int i = threadIdx.x; i < k * V; i += blockDim.x) {
        const int r = i / V, p = i % V;
        bs[i] = __ldg(reinterpret_cast<const float4*>(B + (long long)r * ldb + j0) + p);
    }
    __syncthreads();
    const int gl = threadIdx.x % G;
    const int groups = blockDim.x / G;
    const int r0 = blockIdx.y * rows_per_chunk;
    const int r1 = min(m, r0 + rows_per_chunk);
    // every lane of a warp runs the same number of outer steps (the shuffles need them all)
    for (int base = r0; base < r1; base += groups) {
        const int row = base + threadIdx.x / G;
        int b = 0, e = 0;
        if (row < r1) { b = off[row]; e = off[row + 1]; }
        float acc[W];
#pragma unroll
        for (int j = 0; j < W; ++j) acc[j] = 0.f;
        for (int q = b + gl; q < e; q += G * U) {
            int c[U];
            float v[U];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const int i = q + u * G;
                c[u] = i < e ? __ldg(col + i) : 0;
                v[u] = i < e ? __ldg(val + i) : 0.f;
            }
#pragma unroll
            for (int u = 0; u < U; ++u) {
#pragma unroll
                for (int p = 0; p < V; ++p) {
                    const float4 x = bs[c[u] * V + p];
                    acc[4 * p + 0] += v[u] * x.x; acc[4 * p + 1] += v[u] * x.y;
                    acc[4 * p + 2] += v[u] * x.z; acc[4 * p + 3] += v[u] * x.w;
                }
            }
        }
        // reduce-scatter: after the step of width s each lane keeps half of its values
#pragma unroll
        for (int s = G / 2, n = W; s >= 1 && n > W / G; s /= 2, n /= 2) {
            const bool hi = gl & s;
#pragma unroll
            for (int j = 0; j < n / 2; ++j) {
                const float send = hi ? acc[j] : acc[j + n / 2];
                const float keep = hi ? acc[j + n / 2] : acc[j];
                acc[j] = keep + __shfl_xor_sync(0xffffffffu, send, s);
            }
        }
        if (row < r1) {
            // lane gl holds columns gl * (W / G) ... of the slice, in bit-reversed halves order
            int idx = 0;
#pragma unroll
            for (int s = G / 2, h = W / 2; s >= 1; s /= 2, h /= 2) if (gl & s) idx += h;
#pragma unroll
            for (int j = 0; j < W / G; ++j) C[(long long)row * ldc + j0 + idx + j] = acc[j];
        }
    }
}
extern "C" __global__ void __launch_bounds__(1024) bslice_8_8_1(const int* off, const int* col, const float* val, const float* B, int ldb, float* C, int ldc, int m, int k, int rpc) { bslice<8, 8, 1>(off, col, val, B, ldb, C, ldc, m, k, rpc); }
extern "C" __global__ void __launch_bounds__(1024) bslice_8_8_4(const int* off, const int* col, const float* val, const float* B, int ldb, float* C, int ldc, int m, int k, int rpc) { bslice<8, 8, 4>(off, col, val, B, ldb, C, ldc, m, k, rpc); }
extern "C" __global__ void __launch_bounds__(1024) bslice_8_8_8(const int* off, const int* col, const float* val, const float* B, int ldb, float* C, int ldc, int m, int k, int rpc) { bslice<8, 8, 8>(off, col, val, B, ldb, C, ldc, m, k, rpc); }
extern "C" __global__ void __launch_bounds__(1024) bslice_4_4_4(const int* off, const int* col, const float* val, const float* B, int ldb, float* C, int ldc, int m, int k, int rpc) { bslice<4, 4, 4>(off, col, val, B, ldb, C, ldc, m, k, rpc); }
extern "C" __global__ void __launch_bounds__(1024) bslice_4_4_8(const int* off, const int* col, const float* val, const float* B, int ldb, float* C, int ldc, int m, int k, int rpc) { bslice<4, 4, 8>(off, col, val, B, ldb, C, ldc, m, k, rpc); }
extern "C" __global__ void __launch_bounds__(1024) bslice_8_4_4(const int* off, const int* col, const float* val, const float* B, int ldb, float* C, int ldc, int m, int k, int rpc) { bslice<8, 4, 4>(off, col, val, B, ldb, C, ldc, m, k, rpc); }
'''
mod = cp.RawModule(code=SRC, options=('-std=c++17',), name_expressions=None)
SMEM_MAX = 227 * 1024
SMS = 132


def run(path, n):
    a = random_values(scipy.io.mmread(gzip.open(path)).tocsr())
    m, k = a.shape
    name = path.split('/')[-1].replace('.mtx.gz', '')
    off, col, val = on_gpu(a)
    B = cp.random.uniform(-1, 1, (k, n)).astype(cp.float32)
    C = cp.empty((m, n), dtype=cp.float32)
    ref = a.astype(np.float64) @ cp.asnumpy(B).astype(np.float64)
    line = f"{name[:20]:20s} k={k:6d} nnz={a.nnz:8d} N={n:3d} |"
    for (w, g, u) in ((8, 8, 1), (8, 8, 4), (8, 8, 8), (4, 4, 4), (4, 4, 8), (8, 4, 4)):
        smem = k * w * 4
        if smem > SMEM_MAX:
            line += f" W{w}G{g}U{u}    -   "
            continue
        f = mod.get_function(f"bslice_{w}_{g}_{u}")
        f.max_dynamic_shared_size_bytes = smem
        slices = n // w
        for per_sm in (1,):
            chunks = max(1, (SMS * per_sm + slices - 1) // slices)
            rpc = (m + chunks - 1) // chunks
            grid = (slices, (m + rpc - 1) // rpc)
            args = (off, col, val, B, np.int32(n), C, np.int32(n), np.int32(m), np.int32(k), np.int32(rpc))
            launch = lambda: f(grid, (1024,), args, shared_mem=smem)
            C.fill(np.nan)
            launch()
            err = np.abs(cp.asnumpy(C) - ref).max() / max(1e-30, np.abs(ref).max())
            t = kernel_us(launch, False)
            line += f" W{w}G{g}U{u} {t:6.1f}{'' if err < 1e-5 else ' BAD'}"
    print(line, flush=True)


if __name__ == "__main__":
    for n in (128,):
        for p in sys.argv[1:]:
            run(p, n)
