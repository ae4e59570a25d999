"""What the lab's CuPy kernel probes share (colb_probe2.py, window_probe.py, ksplit_probe.py,
stream_lab.py): a matrix with random values and column-major op(B) and C of n columns, its float64
reference, a kernel's time by CUDA events behind a spin kernel (so Python's launch cost is not
counted), warm or with L2 flushed, and the baseline kernel of the shared-memory probes."""
import gzip
import numpy as np
import cupy as cp
import scipy.io

_spin = cp.RawKernel(r'''
extern "C" __global__ void spin(long long ns) {
    long long t0 = clock64();
    while (clock64() - t0 < ns) {}
}''', 'spin')
_flush = None


def kernel_us(f, flushed, reps=15):
    """Median event time of `f()` (one kernel launch) over `reps` runs, in microseconds."""
    global _flush
    if flushed and _flush is None:
        _flush = cp.zeros(256 << 20, dtype=cp.uint8)
    out = []
    for _ in range(reps):
        if flushed:
            _flush.fill(1)
        s, t = cp.cuda.Event(), cp.cuda.Event()
        _spin((1,), (1,), (np.int64(200_000),))
        s.record(); f(); t.record(); t.synchronize()
        out.append(cp.cuda.get_elapsed_time(s, t) * 1e3)
    return float(np.median(out))


def random_values(a):
    """CSR `a` with duplicates summed, sorted columns and uniform random FP32 values (seeded)."""
    a.sum_duplicates()
    a.sort_indices()
    a.data = np.random.default_rng(1).uniform(-1, 1, a.nnz).astype(np.float32)
    return a


def on_gpu(a):
    """Row offsets, columns (int32) and values of CSR `a` as CuPy arrays."""
    return cp.asarray(a.indptr.astype(np.int32)), cp.asarray(a.indices.astype(np.int32)), cp.asarray(a.data)


class Case:
    """The CSR matrix at `path` (sorted indices, uniform random FP32 values) on the GPU, a
    column-major k x n op(B) of random values, a column-major m x n C and the float64 reference."""

    def __init__(self, path, n):
        a = scipy.io.mmread(gzip.open(path)).tocsr()
        a.sort_indices()
        a.data = np.random.default_rng(1).uniform(-1, 1, a.nnz).astype(np.float32)
        self.a, (self.m, self.k), self.n = a, a.shape, n
        self.name = path.split('/')[-1].replace('.mtx.gz', '')
        self.off = cp.asarray(a.indptr.astype(np.int32))
        self.col = cp.asarray(a.indices.astype(np.int32))
        self.val = cp.asarray(a.data)
        self.B = cp.asfortranarray(cp.random.uniform(-1, 1, (self.k, n)).astype(cp.float32))
        self.C = cp.empty((self.m, n), dtype=cp.float32, order='F')
        self.ref = a.astype(np.float64) @ cp.asnumpy(self.B).astype(np.float64)

    def check(self, launch, what):
        """Runs `launch()` once on a poisoned C and asserts it matches the reference."""
        self.C.fill(np.nan)
        launch()
        err = np.abs(cp.asnumpy(self.C) - self.ref).max() / max(1e-30, np.abs(self.ref).max())
        assert err < 1e-5, (self.name, what, err)


# The shared-memory probes' baseline: a warp per row, lanes across N (a float4 each, V of them:
# N = 128 V), every entry's B row gathered from global memory. Kernels gather_1 and gather_2.
GATHER_SOURCE = r'''
// Baseline: a warp per row, lanes across N, B rows gathered from global memory.
template <int V>
__device__ void gather(const int* __restrict__ off, const int* __restrict__ col, const float* __restrict__ val,
                       const float* __restrict__ B, float* __restrict__ C, int m) {
    constexpr int N4 = 32 * V;
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= m) return;
    const int lo = off[row], hi = off[row + 1];
    float4 acc[V];
#pragma unroll
    for (int u = 0; u < V; ++u) acc[u] = make_float4(0.f, 0.f, 0.f, 0.f);
    const float4* b4 = reinterpret_cast<const float4*>(B);
    for (int q = lo; q < hi; q += 32) {
        const int n = min(32, hi - q);
        const int cc = lane < n ? __ldg(col + q + lane) : 0;
        const float vv = lane < n ? __ldg(val + q + lane) : 0.f;
        int t = 0;
        for (; t + 4 <= n; t += 4) {
            float4 x[4][V];
            float v[4];
#pragma unroll
            for (int s = 0; s < 4; ++s) {
                const int c = __shfl_sync(0xffffffffu, cc, t + s);
                v[s] = __shfl_sync(0xffffffffu, vv, t + s);
#pragma unroll
                for (int u = 0; u < V; ++u) x[s][u] = __ldg(b4 + (long long)c * N4 + u * 32 + lane);
            }
#pragma unroll
            for (int s = 0; s < 4; ++s)
#pragma unroll
                for (int u = 0; u < V; ++u) {
                    acc[u].x += v[s] * x[s][u].x; acc[u].y += v[s] * x[s][u].y;
                    acc[u].z += v[s] * x[s][u].z; acc[u].w += v[s] * x[s][u].w;
                }
        }
        for (; t < n; ++t) {
            const int c = __shfl_sync(0xffffffffu, cc, t);
            const float v = __shfl_sync(0xffffffffu, vv, t);
#pragma unroll
            for (int u = 0; u < V; ++u) {
                const float4 x = __ldg(b4 + (long long)c * N4 + u * 32 + lane);
                acc[u].x += v * x.x; acc[u].y += v * x.y; acc[u].z += v * x.z; acc[u].w += v * x.w;
            }
        }
    }
    float4* out = reinterpret_cast<float4*>(C) + (long long)row * N4;
#pragma unroll
    for (int u = 0; u < V; ++u) out[u * 32 + lane] = acc[u];
}

extern "C" __global__ void gather_1(const int* o, const int* c, const float* v, const float* B, float* C, int m) { gather<1>(o, c, v, B, C, m); }
extern "C" __global__ void gather_2(const int* o, const int* c, const float* v, const float* B, float* C, int m) { gather<2>(o, c, v, B, C, m); }
'''
