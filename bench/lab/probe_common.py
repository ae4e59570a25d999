"""What the lab's CuPy kernel probes share (colb_probe2.py, window_probe.py): a matrix with random
values and column-major op(B) and C of n columns, its float64 reference, and a kernel's time by CUDA
events behind a spin kernel (so Python's launch cost is not counted), warm or with L2 flushed."""
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
