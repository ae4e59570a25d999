"""Lab probe (session 32): row-major SpMM split along k, each block holding a slice of op(B)'s rows.

Question: on graphs with few columns and many entries a row (ddi_like, the fb100 graphs, squirrel,
pushpull: 1.0-1.2x cuSPARSE at N >= 128) every entry gathers a whole row of B (N x 4 bytes) out of
L2, and the calls run at ~8 TB/s of gathers, about L2's bandwidth. Split op(B)'s rows into P
partitions of R rows that fit shared memory (R x N x 4 <= 227 KB). Block (p, row chunk) stages
partition p's rows of B once, then a warp per row adds the row's entries whose column falls in the
partition (their range found in a table of m x (P + 1) offsets, as preprocess would build from
sorted columns) from shared memory, and writes the row's partial sums; a second kernel adds the P
partials of each row in partition order (deterministic). L2 then carries A, the partials and C
instead of nnz x N x 4 bytes of gathers.

Baseline in the same process: a warp per row gathering B rows from global memory (lanes across N,
as the library's kernels on these graphs). Kernel times by CUDA events behind a spin kernel
(probe_common.kernel_us), warm L2. FP32, checked against float64.
Run on the GPU machine: cd bench/lab && python3 ksplit_probe.py [--rmat-ddi] FILES...
"""
import sys
import gzip
import numpy as np
import cupy as cp
import scipy.io
import scipy.sparse
from probe_common import GATHER_SOURCE, kernel_us, on_gpu, random_values

SRC = GATHER_SOURCE + r'''
// V float4 vectors a lane: N = 128 * V.
template <int V>
__device__ void ksplit(const int* __restrict__ ranges, const int* __restrict__ col, const float* __restrict__ val,
                       const float* __restrict__ B, float* __restrict__ partials, int m, int k, int P, int R, int rpc) {
    extern __shared__ float4 bs[];
    constexpr int N4 = 32 * V;                     // float4 vectors a row
    const int p = blockIdx.x;
    const int c0 = p * R;
    const int rows_here = min(k, c0 + R) - c0;
    const float4* b4 = reinterpret_cast<const float4*>(B) + (long long)c0 * N4;
    for (int i = threadIdx.x; i < rows_here * N4; i += blockDim.x) bs[i] = __ldg(b4 + i);
    __syncthreads();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int r0 = blockIdx.y * rpc, r1 = min(m, r0 + rpc);
    for (int row = r0 + warp; row < r1; row += warps) {
        const int lo = __ldg(ranges + (long long)row * (P + 1) + p);
        const int hi = __ldg(ranges + (long long)row * (P + 1) + p + 1);
        float4 acc[V];
#pragma unroll
        for (int u = 0; u < V; ++u) acc[u] = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int q = lo; q < hi; q += 32) {
            const int n = min(32, hi - q);
            const int cc = lane < n ? __ldg(col + q + lane) - c0 : 0;
            const float vv = lane < n ? __ldg(val + q + lane) : 0.f;
            for (int t = 0; t < n; ++t) {
                const int c = __shfl_sync(0xffffffffu, cc, t);
                const float v = __shfl_sync(0xffffffffu, vv, t);
#pragma unroll
                for (int u = 0; u < V; ++u) {
                    const float4 x = bs[c * N4 + u * 32 + lane];
                    acc[u].x += v * x.x; acc[u].y += v * x.y; acc[u].z += v * x.z; acc[u].w += v * x.w;
                }
            }
        }
        float4* out = reinterpret_cast<float4*>(partials) + ((long long)p * m + row) * N4;
#pragma unroll
        for (int u = 0; u < V; ++u) out[u * 32 + lane] = acc[u];
    }
}

// C = sum over p of partials[p] (in order), a float4 a thread.
extern "C" __global__ void ksplit_sum(const float4* __restrict__ partials, float4* __restrict__ C, long long count, int P) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    float4 s = __ldg(partials + i);
    for (int p = 1; p < P; ++p) {
        const float4 x = __ldg(partials + (long long)p * count + i);
        s.x += x.x; s.y += x.y; s.z += x.z; s.w += x.w;
    }
    C[i] = s;
}

extern "C" __global__ void __launch_bounds__(1024) ksplit_1(const int* r, const int* c, const float* v, const float* B, float* pa, int m, int k, int P, int R, int rpc) { ksplit<1>(r, c, v, B, pa, m, k, P, R, rpc); }
extern "C" __global__ void __launch_bounds__(1024) ksplit_2(const int* r, const int* c, const float* v, const float* B, float* pa, int m, int k, int P, int R, int rpc) { ksplit<2>(r, c, v, B, pa, m, k, P, R, rpc); }
'''
mod = cp.RawModule(code=SRC, options=('-std=c++17',))
SMEM_MAX = 227 * 1024
SMS = 132


def rmat(nodes, edges, seed=7, a=0.57, b=0.19, c=0.19):
    """An R-MAT graph like the bench's (random vertex permutation, duplicates summed)."""
    rng = np.random.default_rng(seed)
    scale = int(np.ceil(np.log2(nodes)))
    r = np.zeros(edges, dtype=np.int64)
    s = np.zeros(edges, dtype=np.int64)
    for _ in range(scale):
        u = rng.random(edges)
        down = u >= a + b
        right = ((u >= a) & (u < a + b)) | (u >= a + b + c)
        r = 2 * r + down
        s = 2 * s + right
    keep = (r < nodes) & (s < nodes)
    perm = rng.permutation(nodes)
    m = scipy.sparse.coo_matrix((np.ones(keep.sum()), (perm[r[keep]], perm[s[keep]])), shape=(nodes, nodes)).tocsr()
    m.sum_duplicates()
    return m


def load(path):
    return random_values(rmat(4267, 1334889) if path == 'ddi_like' else scipy.io.mmread(gzip.open(path)).tocsr())


def run(path, n):
    a = load(path)
    m, k = a.shape
    name = path.split('/')[-1].replace('.mtx.gz', '')
    V = n // 128
    off, col, val = on_gpu(a)
    B = cp.random.uniform(-1, 1, (k, n)).astype(cp.float32)
    C = cp.empty((m, n), dtype=cp.float32)
    ref = a.astype(np.float64) @ cp.asnumpy(B).astype(np.float64)

    def err():
        return np.abs(cp.asnumpy(C) - ref).max() / max(1e-30, np.abs(ref).max())

    g = mod.get_function(f"gather_{V}")
    gargs = (off, col, val, B, C, np.int32(m))
    glaunch = lambda: g(((m * 32 + 255) // 256,), (256,), gargs)
    C.fill(np.nan); glaunch(); ge = err()
    tg = kernel_us(glaunch, False)
    line = f"{name[:22]:22s} k={k:6d} nnz={a.nnz:8d} avg={a.nnz / m:6.1f} N={n:3d} | gather {tg:7.1f}{'' if ge < 1e-5 else ' BAD'} |"

    R = SMEM_MAX // (n * 4)
    P = (k + R - 1) // R
    # table of m x (P + 1): where each row's entries of partition p start (sorted columns)
    bounds = np.arange(P + 1, dtype=np.int64) * R
    ranges = np.empty((m, P + 1), dtype=np.int32)
    for i in range(m):
        lo, hi = a.indptr[i], a.indptr[i + 1]
        ranges[i] = lo + np.searchsorted(a.indices[lo:hi], bounds)
    ranges_d = cp.asarray(ranges)
    partials = cp.empty((P, m, n), dtype=cp.float32)
    f = mod.get_function(f"ksplit_{V}")
    smem = min(R, k) * n * 4
    f.max_dynamic_shared_size_bytes = smem
    s = mod.get_function("ksplit_sum")
    count = m * n // 4
    for per_sm in (1, 2):
        chunks = max(1, (SMS * per_sm + P - 1) // P)
        rpc = (m + chunks - 1) // chunks
        grid = (P, (m + rpc - 1) // rpc)
        args = (ranges_d, col, val, B, partials, np.int32(m), np.int32(k), np.int32(P), np.int32(R), np.int32(rpc))
        sargs = (partials, C, np.int64(count), np.int32(P))

        def launch():
            f(grid, (1024,), args, shared_mem=smem)
            s(((count + 255) // 256,), (256,), sargs)
        C.fill(np.nan); launch(); e = err()
        t = kernel_us(launch, False)
        t1 = kernel_us(lambda: f(grid, (1024,), args, shared_mem=smem), False)
        line += f" P={P} blocks={grid[0] * grid[1]} split+sum {t:7.1f} (split {t1:6.1f}){'' if e < 1e-5 else ' BAD'} |"
    print(line, flush=True)


if __name__ == "__main__":
    paths = [p for p in sys.argv[1:]]
    for n in (128, 256):
        for p in paths:
            run(p, n)
