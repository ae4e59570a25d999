#!/usr/bin/env python3
"""Lab (session 21): can L2 eviction priorities keep SpMM's reused B rows in L2 when op(B) is larger
than L2? Runs on the GPU machine with CuPy, outside the library.

One FP32 row-major kernel (a group of 8 lanes per row piece of at most 128 entries, float4 of a
32-column slice each, 8 B rows in flight per lane, slices one after another as grid y), whose B
loads differ by mode:
  0  plain ld.global.nc (the library's loads today);
  1  entries whose column has at most T entries ("cold": read at most T times in all) load with
     an L2 evict_first policy (createpolicy + L2::cache_hint: sm_90 has no ld.L2::evict_* for 16
     bytes), the others plainly; A's entries stream with evict_first too;
  2  as 1, and the other ("warm") columns with an evict_last policy;
  3  every B load evict_first (a control).
A whole row's piece stores C with st.global.cs; a row cut into pieces adds into a zeroed C with
atomics (the lab's shortcut). The flag travels in bit 31 of the column index (set by the host).

usage: l2_priority_lab.py N spec... where spec is matrix.mtx.gz or rmat:name:nodes:edges
"""
import os
import sys

import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hub_cache_lab import load, median_ms, row_pieces  # noqa: E402

PIECE = 128
SLICE = 32

SOURCE = r"""
// L2 priorities on sm_90 come as cache-hint policies (createpolicy), not as ld qualifiers.
__device__ __forceinline__ unsigned long long policy_first() {
    unsigned long long p;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    return p;
}
__device__ __forceinline__ unsigned long long policy_last() {
    unsigned long long p;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    return p;
}
__device__ __forceinline__ float4 load_hint(const float* p, unsigned long long pol) {
    float4 v;
    asm volatile("ld.global.nc.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p), "l"(pol));
    return v;
}
template <int MODE>
__device__ __forceinline__ float4 load_b(const float* p, bool cold, unsigned long long first, unsigned long long last) {
    if (MODE == 0) return __ldg(reinterpret_cast<const float4*>(p));
    if (MODE == 3) return load_hint(p, first);
    if (MODE == 1) return cold ? load_hint(p, first) : __ldg(reinterpret_cast<const float4*>(p));
    return load_hint(p, cold ? first : last);
}
template <int MODE>
__device__ __forceinline__ unsigned load_a(const unsigned* p, unsigned long long first) {
    if (MODE == 0) return __ldg(p);
    unsigned u;
    asm volatile("ld.global.nc.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(u) : "l"(p), "l"(first));
    return u;
}
template <int MODE>
__device__ __forceinline__ float load_a(const float* p, unsigned long long first) {
    return __uint_as_float(load_a<MODE>(reinterpret_cast<const unsigned*>(p), first));
}
template <int MODE>
__device__ void body(const int* __restrict__ pr, const int* __restrict__ pb, const int* __restrict__ pe, const int* __restrict__ whole,
                     const unsigned* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ B, float* __restrict__ C,
                     int n, int pieces) {
    const int li = threadIdx.x & 7;
    const int p = blockIdx.x * (blockDim.x >> 3) + (threadIdx.x >> 3);
    if (p >= pieces) return;
    const int j = blockIdx.y * 32 + li * 4;
    const unsigned mask = 0xffu << (threadIdx.x & 24);
    const int row = pr[p], q0 = pb[p], q1 = pe[p];
    const unsigned long long first = policy_first(), last = policy_last();
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int q = q0; q < q1; q += 8) {
        const int qq = q + li;
        unsigned c = 0;
        float v = 0.f;
        if (qq < q1) { c = load_a<MODE>(cols + qq, first); v = load_a<MODE>(vals + qq, first); }
        float4 b[8];
        float w[8];
#pragma unroll
        for (int u = 0; u < 8; ++u) {
            const unsigned cu = __shfl_sync(mask, c, u, 8);
            w[u] = __shfl_sync(mask, v, u, 8);
            b[u] = load_b<MODE>(B + (long long)(cu & 0x7fffffffu) * n + j, cu >> 31, first, last);
        }
#pragma unroll
        for (int u = 0; u < 8; ++u) {
            acc.x += w[u] * b[u].x; acc.y += w[u] * b[u].y; acc.z += w[u] * b[u].z; acc.w += w[u] * b[u].w;
        }
    }
    float* out = C + (long long)row * n + j;
    if (whole[p]) {
        __stcs(reinterpret_cast<float4*>(out), acc);
    } else {
        atomicAdd(out, acc.x); atomicAdd(out + 1, acc.y); atomicAdd(out + 2, acc.z); atomicAdd(out + 3, acc.w);
    }
}
#define K(m) extern "C" __global__ void mode##m(const int* pr, const int* pb, const int* pe, const int* whole, const unsigned* cols, \
    const float* vals, const float* B, float* C, int n, int pieces) { body<m>(pr, pb, pe, whole, cols, vals, B, C, n, pieces); }
K(0) K(1) K(2) K(3)
"""


def run(name, m, k, r, c, n, mod):
    rng = np.random.default_rng(7)
    a = cps.coo_matrix((cp.asarray(rng.uniform(-1, 1, len(r)).astype(np.float32)), (cp.asarray(r), cp.asarray(c))), shape=(m, k)).tocsr()
    a.sum_duplicates()
    del r, c
    indptr = cp.asnumpy(a.indptr).astype(np.int64)
    cols = cp.asnumpy(a.indices).astype(np.int64)
    nnz = len(cols)
    b = cp.asarray(rng.uniform(-1, 1, (k, n)).astype(np.float32))
    c_out = cp.empty((m, n), cp.float32)
    prow, pbeg, pend, counts = row_pieces(indptr, PIECE)
    whole = (np.repeat(counts, counts) == 1).astype(np.int32)
    pieces = len(prow)
    d = [cp.asarray(x.astype(np.int32)) for x in (prow, pbeg, pend)] + [cp.asarray(whole)]
    deg = np.bincount(cols, minlength=k)
    slices = n // SLICE
    print(f"{name}: {m} x {k}, nnz {nnz}, N {n}: op(B) {k * n * 4 / 1e6:.0f} MB ({k * SLICE * 4 / 1e6:.0f} MB a slice), "
          f"columns with 1 / <= 2 / <= 4 entries: {np.mean(deg == 1) * 100:.0f} / {np.mean((deg >= 1) & (deg <= 2)) * 100:.0f} / "
          f"{np.mean((deg >= 1) & (deg <= 4)) * 100:.0f}% of columns, {np.sum(deg[deg <= 4]) / nnz * 100:.0f}% of entries", flush=True)
    ref = None
    t_fill = median_ms(lambda: c_out.fill(0))
    by_degree = np.sort(deg)[::-1]
    # cold < 0: every column outside the -cold MB of a slice's most used B rows is cold
    for mode, cold in [(0, 0), (3, 0), (1, 1), (1, 4), (2, 1), (2, 4), (2, -20), (2, -30), (2, -40), (1, -30), (0, 0)]:
        limit = cold if cold >= 0 else by_degree[min(int(-cold * 1e6 / (SLICE * 4)), k - 1)]
        flagged = cols | (np.where(deg[cols] <= limit, 1, 0).astype(np.int64) << 31)
        d_cols = cp.asarray(flagged.astype(np.uint32))
        fn = mod.get_function(f"mode{mode}")

        def call():
            c_out.fill(0)
            fn(((pieces + 31) // 32, slices), (256,), (*d, d_cols, a.data, b, c_out, np.int32(n), np.int32(pieces)))

        call()
        if ref is None:
            ref = (a @ b).astype(cp.float64)
        err = float(cp.max(cp.abs(c_out - ref)) / (cp.max(cp.abs(ref)) + 1e-30))
        t = median_ms(call) - t_fill
        what = f"cold <= {cold}" if cold >= 0 else f"hot = top {-cold} MB (degree > {limit})"
        print(f"  mode {mode} {what:32s} {t * 1000:8.1f} us  err {err:.1e}", flush=True)
        del d_cols


def main():
    n_list = [int(x) for x in sys.argv[1].split(",")]
    mod = cp.RawModule(code=SOURCE, options=("-std=c++17",))
    for spec in sys.argv[2:]:
        name, m, k, r, c = load(spec)
        for n in n_list:
            run(name, m, k, r, c, n, mod)
            cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
