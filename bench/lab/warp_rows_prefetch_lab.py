"""Lab (session 33): warp rows that walk several items each and load the next item's slot and
entries while the current item's B rows are in flight.

Question: the library's warp-row kernel (kernels/spmm_warp_rows.cu) gives a warp one item of the
table. Before its first B row is requested the warp waits for two dependent memory trips (its
table slot, then its entries), and on arxiv_like (~7 entries an item: two rounds of UNROLL B rows)
that is half the item's chain. Nsight (session 32): 120.5 us at N = 128 against 88.6 for
cuSPARSE's csrmm_alg2_kernel with the same L2 reads, so the kernel waits rather than streams.

Kernels here (FP32, row-major, N = 128 VECS), the items and block adds of spmm_warp_rows_lab.py:
  base: session 22's kernel, a warp per item;
  multi<PF>: a grid of resident blocks only, warp g taking items g, g + G, ... (G warps in the
    grid): PF 0 loads each item's slot and entries when it starts (persistence alone); PF 1 loads
    the next item's slot at the start of the current one; PF 2 also loads the next item's first 32
    entries once the current item's first B rows are requested; PF 3 loads the next slot only then
    (for its entries, holding only them) and reads it again (from L1) when the next item starts.

    run(command="cd bench/lab && python3 warp_rows_prefetch_lab.py rmat:arxiv_like:169343:1166243 ../../.device-lab/s33/mx/ca-CondMat.mtx.gz")
The products of a round are spmm_warp_rows_lab.py's `add_products` (the session's measurements,
bench/NOTES.md, ran the same loop written out in this kernel).
Settings: LAB_PIECE (entries a piece, default 64), LAB_KERNELS (a list of base:VECS:UNROLL:BLOCKS
or multi:VECS:UNROLL:BLOCKS:PF:WAVES, WAVES resident grids' worth of blocks), LAB_CALLS /
LAB_RUNS. Prints the time per call (rows kernel plus block adds) and ERR when the result is off
the float64 product by more than 1e-5 of |A| |B|.
"""
import os
import sys

import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from hub_cache_lab import load  # noqa: E402
from spmm_warp_rows_lab import SOURCE as BASE_SOURCE, checked_us, reference, work_items  # noqa: E402

MULTI_SOURCE = r"""
// Item w's first (up to) 32 entries, one a lane.
__device__ __forceinline__ void first_entries(const int* __restrict__ cols, const float* __restrict__ vals, int4 it, int lane,
        int& col, float& val) {
    const int n = min(32, it.z - it.y);
    col = lane < n ? __ldcs(cols + it.y + lane) : 0;
    val = lane < n ? __ldcs(vals + it.y + lane) : 0.f;
}

template <int VECS, int UNROLL, int MIN_BLOCKS, int PF>
__global__ void __launch_bounds__(256, MIN_BLOCKS) warp_rows_multi(const int* __restrict__ cols, const float* __restrict__ vals,
        const int4* __restrict__ items, int nitems, const float* __restrict__ B, float* __restrict__ C,
        float* __restrict__ partials, float alpha) {
    constexpr int N = 128 * VECS;
    const int lane = threadIdx.x % 32;
    const int stride = gridDim.x * 8;
    int w = (blockIdx.x * 256 + threadIdx.x) / 32;
    if (w >= nitems) return;
    int4 it = items[w];
    int4 next = make_int4(0, 0, 0, 0);
    if (PF >= 1 && PF <= 2 && w + stride < nitems) next = items[w + stride];
    int my_col;
    float my_val;
    first_entries(cols, vals, it, lane, my_col, my_val);
    int next_col = 0;
    float next_val = 0.f;
    while (true) {
        float4 acc[VECS];
#pragma unroll
        for (int v = 0; v < VECS; ++v) acc[v] = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int e0 = it.y; e0 < it.z; e0 += 32) {
            const int n = min(32, it.z - e0);
            if (e0 != it.y) {
                my_col = lane < n ? __ldcs(cols + e0 + lane) : 0;
                my_val = lane < n ? __ldcs(vals + e0 + lane) : 0.f;
            }
            add_products<VECS, UNROLL>(my_col, my_val, n, B, lane, acc, [&] {
                if (PF >= 2 && e0 == it.y && w + stride < nitems)
                    first_entries(cols, vals, PF == 3 ? items[w + stride] : next, lane, next_col, next_val);
            });
        }
        if (PF >= 2 && it.z == it.y && w + stride < nitems)  // an empty row
            first_entries(cols, vals, PF == 3 ? items[w + stride] : next, lane, next_col, next_val);
        const float s = it.w < 0 ? alpha : 1.f;
        float4* dst = reinterpret_cast<float4*>(it.w < 0 ? C + (long long)it.x * N : partials + (long long)it.w * N) + lane;
#pragma unroll
        for (int v = 0; v < VECS; ++v) __stcs(dst + 32 * v, make_float4(s * acc[v].x, s * acc[v].y, s * acc[v].z, s * acc[v].w));
        w += stride;
        if (w >= nitems) return;
        if (PF == 1 || PF == 2) {
            it = next;
            if (w + stride < nitems) next = items[w + stride];
        } else {
            it = items[w];
        }
        if (PF >= 2) {
            my_col = next_col;
            my_val = next_val;
        } else {
            first_entries(cols, vals, it, lane, my_col, my_val);
        }
    }
}
"""


def main():
    piece = int(os.environ.get("LAB_PIECE", "64"))
    specs = os.environ.get("LAB_KERNELS", "base:1:4:6,multi:1:4:6:0:1,multi:1:4:6:1:1,multi:1:4:6:2:1,multi:1:4:5:2:1,multi:1:4:6:2:2")
    kernels = [s.split(":") for s in specs.split(",")]
    names = []
    for k in kernels:
        if k[0] == "base":
            names.append(f"warp_rows<{k[1]}, {k[2]}, {k[3]}>")
        else:
            names.append(f"warp_rows_multi<{k[1]}, {k[2]}, {k[3]}, {k[4]}>")
    mod = cp.RawModule(code=BASE_SOURCE + MULTI_SOURCE, options=("-std=c++17",),
                       name_expressions=sorted(set(names)) + ["add_pieces_block<1>", "add_pieces_block<2>"])
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    for spec in sys.argv[1:]:
        name, m, k, r, c = load(spec)
        rng = np.random.default_rng(7)
        a = cps.coo_matrix((cp.asarray(rng.uniform(-1, 1, len(r)).astype(np.float32)), (cp.asarray(r), cp.asarray(c))), shape=(m, k)).tocsr()
        items, split, slots = work_items(cp.asnumpy(a.indptr), piece)
        for vecs in sorted({int(x[1]) for x in kernels}):
            n = 128 * vecs
            b = cp.asarray(rng.uniform(-1, 1, (k, n)).astype(np.float32))
            ref, scale = reference(a, b)
            partials = cp.zeros((max(slots, 1), n), np.float32)
            add_k = mod.get_function(f"add_pieces_block<{vecs}>")
            line = [f"{name[:14]:14} N={n} items {len(items)}"]
            for kspec, kname in zip(kernels, names):
                if int(kspec[1]) != vecs:
                    continue
                out = cp.full((m, n), np.nan, np.float32)
                fn = mod.get_function(kname)
                if kspec[0] == "base":
                    grid = (len(items) + 7) // 8
                else:
                    grid = min((len(items) + 7) // 8, sms * int(kspec[3]) * int(kspec[5]))

                def call():
                    fn((grid,), (256,), (a.indices, a.data, items, np.int32(len(items)), b, out, partials, np.float32(0.7)))
                    if len(split):
                        add_k((len(split),), (256,), (split, partials, out, np.float32(0.7)))

                line.append(f"{':'.join(kspec)} {checked_us(call, out, ref, scale)}")
            print("  ".join(line), flush=True)


if __name__ == "__main__":
    main()
