"""Lab (session 22): a merge-path SpMV kernel at full occupancy against cuSPARSE's CSR SpMV, on the
power-law graphs where our tile kernel trails cuSPARSE's kernel (Nsight, flushed caches, FP32:
ddi_like 11.6 against 7.5 us, youtube_like 66 against 55; ours 64 registers and 32% of the warps
active, cuSPARSE's 32 registers and 92%).

Kernel: block b takes merge items [b * TILE, (b + 1) * TILE) of the merged list of row ends and
entries (coordinates from a host search, as preprocess would store them). Stages: row ends of the
tile's rows into shared memory; products val * x[col] of its entries into shared memory (ITEMS
independent gathers a thread in flight); each thread finds its own diagonal in shared memory and
walks ITEMS items, writing the rows it closes; a block-wide segmented scan of the threads' open
sums completes the first row each thread closes; the row open at the tile's end is published
with a flag, and the tile that closes it adds the earlier tiles' partials (look-back).

    run(command="python3 bench/lab/spmv_merge_lab.py rmat:ddi_like:4267:2920000 ...", carry=[".device-lab"])
Prints, per matrix and variant (THREADSxITEMS, LAB_VARIANTS): the time per call of calls launched
back to back (warm caches), and an error against float64 when above 1e-4. cuSPARSE through CuPy's
csr @ x for comparison (its time may be CuPy's host time on small matrices: Nsight for those).
"""
import os
import sys

import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from hub_cache_lab import load, stream_ms  # noqa: E402


def per_call_ms(fn, calls=int(os.environ.get("LAB_CALLS", "20"))):
    """Time per call of calls launched back to back (kernel time plus the gap between launches,
    not the host time of one call on an idle stream); LAB_CALLS=1 under Nsight."""
    return stream_ms(fn, calls, int(os.environ.get("LAB_RUNS", "15")), 3 if calls > 1 else 0)


SOURCE = r"""
// NVRTC: no standard headers.
#define INT_MAX 0x7fffffff

__device__ __forceinline__ void raise_flag(unsigned long long* f, unsigned long long e) {
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(f), "l"(e) : "memory");
}
__device__ __forceinline__ void wait_flag(const unsigned long long* f, unsigned long long e) {
    unsigned long long v;
    while (true) {
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(f) : "memory");
        if (v == e) return;
        __nanosleep(32);
    }
}

template <typename T, int THREADS, int ITEMS, bool STAGE_Y>
__global__ void __launch_bounds__(THREADS) merge_spmv(const int* __restrict__ rp, const int* __restrict__ ci,
        const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y, const int2* __restrict__ coords,
        T* partials, unsigned long long* flags, unsigned long long epoch, int m, T alpha) {
    constexpr int TILE = THREADS * ITEMS;
    constexpr int WARPS = THREADS / 32;
    __shared__ int s_end[TILE + 1];
    __shared__ T s_prod[TILE];
    __shared__ T s_y[STAGE_Y ? TILE : 1];  // sums of the rows closed here, written out coalesced
    __shared__ int s_wf[WARPS];
    __shared__ T s_wv[WARPS];
    const int t = blockIdx.x, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int2 c0 = coords[t], c1 = coords[t + 1];
    const int r0 = c0.x, n0 = c0.y, rows = c1.x - c0.x, ents = c1.y - c0.y;
    // stage 1: row ends (relative to n0) of the rows closed here and of the row left open
    for (int i = tid; i <= rows; i += THREADS) s_end[i] = r0 + i < m ? __ldg(rp + r0 + i + 1) - n0 : INT_MAX;
    // stage 2: products, ITEMS gathers a thread in flight
    int col[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) { const int i = tid + k * THREADS; col[k] = i < ents ? __ldcs(ci + n0 + i) : 0; }
    T v[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) { const int i = tid + k * THREADS; v[k] = i < ents ? __ldcs(val + n0 + i) * __ldg(x + col[k]) : T(0); }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) { const int i = tid + k * THREADS; if (i < ents) s_prod[i] = v[k]; }
    __syncthreads();
    // stage 3: this thread's start on the merge path (rows closed before it: end + row < d)
    const int total = rows + ents;
    const int d = min(tid * ITEMS, total), dn = min(d + ITEMS, total);
    int lo = max(0, d - ents), hi = min(d, rows);
    while (lo < hi) {
        const int p = (lo + hi) / 2;
        if (s_end[p] + p < d) lo = p + 1; else hi = p;
    }
    int i = lo, j = d - lo;
    // stage 4: walk the items
    T acc = T(0), first = T(0);
    int first_row = -1;
    for (int s = d; s < dn; ++s) {
        if (j < s_end[i]) { acc += s_prod[j]; ++j; }
        else {
            if (first_row < 0) { first_row = i; first = acc; }
            else if (STAGE_Y) s_y[i] = acc;
            else y[r0 + i] = alpha * acc;
            acc = T(0); ++i;
        }
    }
    // stage 5: block-wide segmented scan of (closed, open sum): the sum open before each thread
    int f = first_row >= 0;
    T inc = acc;
#pragma unroll
    for (int o = 1; o < 32; o *= 2) {
        const T vu = __shfl_up_sync(0xffffffffu, inc, o);
        const int fu = __shfl_up_sync(0xffffffffu, f, o);
        if (lane >= o) { if (!f) inc += vu; f |= fu; }
    }
    if (lane == 31) { s_wf[warp] = f; s_wv[warp] = inc; }
    __syncthreads();
    T before = T(0);  // open sum of the warps before this one
    for (int w = 0; w < warp; ++w) before = s_wf[w] ? s_wv[w] : before + s_wv[w];
    T exc = __shfl_up_sync(0xffffffffu, inc, 1);
    const int fexc = __shfl_up_sync(0xffffffffu, f, 1);
    if (lane == 0) exc = before; else if (!fexc) exc += before;
    // the tile's open row: its sum here, then the flag
    if (tid == THREADS - 1) {
        T open = inc;
        if (!f) open += before;
        partials[t] = open;
        raise_flag(flags + t, epoch);
    }
    if (first_row >= 0) {
        T sum = exc + first;
        if (first_row == 0 && t > 0) {  // the tile's first row may have begun in earlier tiles
            T back = T(0);
            for (int u = t - 1; u >= 0; --u) {
                wait_flag(flags + u, epoch);
                back += __ldcg(partials + u);
                if (coords[u].x < r0) break;
            }
            sum = back + sum;
        }
        if (STAGE_Y) s_y[first_row] = sum;
        else y[r0 + first_row] = alpha * sum;
    }
    if (STAGE_Y) {
        __syncthreads();
        for (int i = tid; i < rows; i += THREADS) y[r0 + i] = alpha * s_y[i];
    }
}
"""


def coords_for(indptr, tile):
    m, nnz = len(indptr) - 1, int(indptr[-1])
    total = m + nnz
    tiles = (total + tile - 1) // tile
    d = np.minimum(np.arange(tiles + 1, dtype=np.int64) * tile, total)
    pos = indptr[1:].astype(np.int64) + np.arange(m, dtype=np.int64)  # merge position of each row end
    i = np.searchsorted(pos, d, side="left")
    return tiles, cp.asarray(np.stack([i, d - i], axis=1).astype(np.int32))


def main():
    # THREADSxITEMS, "y" at the end: the closed rows' sums staged in shared memory
    variants = [(int(v.split("x")[0]), int(v.split("x")[1].rstrip("y")), v.endswith("y"))
                for v in os.environ.get("LAB_VARIANTS", "128x4,128x8,128x16,256x4,256x8").split(",")]
    dtypes = [np.float32, np.float64]
    def kname(dt, t, it, sy):
        return f"merge_spmv<{'float' if dt == np.float32 else 'double'}, {t}, {it}, {'true' if sy else 'false'}>"
    names = [kname(dt, *v) for dt in dtypes for v in variants]
    mod = cp.RawModule(code=SOURCE, options=("-std=c++17",), name_expressions=names)
    epoch = [0]
    for spec in sys.argv[1:]:
        name, m, k, r, c = load(spec)
        rng = np.random.default_rng(7)
        for dt in dtypes:
            a = cps.coo_matrix((cp.asarray(rng.uniform(-1, 1, len(r)).astype(dt)), (cp.asarray(r), cp.asarray(c))), shape=(m, k)).tocsr()
            a.sum_duplicates()
            x = cp.asarray(rng.uniform(-1, 1, k).astype(dt))
            indptr = cp.asnumpy(a.indptr)
            ref = cp.asnumpy(a.astype(np.float64) @ x.astype(np.float64)) * 0.7
            a_abs = a.astype(np.float64)
            a_abs.data = cp.abs(a_abs.data)
            scale = cp.asnumpy(a_abs @ cp.abs(x.astype(np.float64))) * 0.7 + 1e-30
            t_cu = per_call_ms(lambda: a @ x)
            line = [f"{name[:18]:18} {np.dtype(dt).name:7} m={m} nnz={a.nnz} cusparse(cupy) {t_cu * 1e3:6.1f}"]
            for t, it, sy in variants:
                kern = mod.get_function(kname(dt, t, it, sy))
                tiles, coords = coords_for(indptr, t * it)
                partials = cp.zeros(tiles, dt)
                flags = cp.zeros(tiles, cp.uint64)
                y = cp.full(m, np.nan, dt)

                def call():
                    epoch[0] += 1
                    kern((tiles,), (t,), (a.indptr, a.indices, a.data, x, y, coords, partials, flags, np.uint64(epoch[0]), np.int32(m), dt(0.7)))

                call()
                err = float(np.max(np.abs(cp.asnumpy(y).astype(np.float64) - ref) / scale))
                ms = per_call_ms(call)
                line.append(f"{t}x{it}{'y' if sy else ''} {ms * 1e3:6.1f}{'' if err < 1e-4 else f' ERR {err:.1e}'}")
            print("  ".join(line), flush=True)


if __name__ == "__main__":
    main()
