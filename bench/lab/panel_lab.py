"""Session 45 lab: SpMM with op(B) staged through shared memory by panels, for the dense social
graphs whose calls sit at the L2 gather floor (fb100_*, twitch_FR, crocodile, blogcatalog: every
entry reads its B row's slice from L2, nnz x N x 4 bytes, for us and for cuSPARSE alike).

Block (w, s) owns rows [w R, (w + 1) R) and the 32-column slice s of C, in registers across the
whole call. It walks B's rows in panels of P: stages the panel's slice of B (P x 128 bytes) and the
window's entries whose columns fall in the panel (with their per-row offsets) into shared memory,
then each of its 32 groups of 8 lanes adds its rows' products out of shared memory. L2 then sees
each B slice once per window (k x 128 bytes x windows) instead of once per entry; the entries are
read once per slice, as now. A model, not a kernel of the library: FP32, row-major, beta = 0.

    python3 bench/lab/panel_lab.py MATRIX.mtx.gz... [--n 128,256] [--r 256,512] [--p 256,512] [--sort 1]

R: rows per block (window); P: B rows per panel; --sort 1 has each window's rows taken longest
first, so that the four groups of a warp walk rows of like lengths. Panels are double-buffered
with cp.async (the next one's copies fly while this one is added).

Prints, per matrix, N and (R, P): the lab kernel's time and cuSPARSE's through CuPy (its default
algorithm with CuPy's layout conversions: a calibration, not the bench's comparison), both as the
mean of back-to-back calls over rotated copies of B and C, and the largest error of 300 sampled
rows against a float64 reference (C poisoned with NaN first), relative to the sum of |products|.
Session 45's results: bench/NOTES.md, SpMM, session 45.
"""
import gzip, sys, time
import numpy as np
import cupy as cp

SRC = r"""
// cp.async without headers (NVRTC): 16 bytes through L2 only, 8 and 4 through L1.
__device__ __forceinline__ void copy16(void* dst, const void* src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src));
}
__device__ __forceinline__ void copy8(void* dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src));
}
__device__ __forceinline__ void copy4(void* dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int N>
__device__ __forceinline__ void wait_groups() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

struct Stage {  // one buffer of shared memory: a panel's slice of B, its unit's entries and row starts
    float4* b;
    int2* ent;
    int* rp;
};

// Issues the copies of panel p into `st` (no wait): B's rows [p P, p P + P) of slice s, the unit's
// entries [e0, e1) and its R + 1 row starts.
__device__ __forceinline__ void stage(const Stage& st, const float* B, const int2* ent, const int* rp, int k, int n, int s,
                                      int p, int unit, int e0, int e1) {
    const int rows_here = min(PANEL, k - p * PANEL);
    const float* bsrc = B + (long long)p * PANEL * n + s * 32;
    for (int i = threadIdx.x; i < rows_here * 8; i += TB) copy16(st.b + i, bsrc + (long long)(i >> 3) * n + (i & 7) * 4);
    for (int i = threadIdx.x; i < e1 - e0; i += TB) copy8(st.ent + i, ent + e0 + i);
    const int* urp = rp + (long long)unit * (WROWS + 1);
    for (int i = threadIdx.x; i <= WROWS; i += TB) copy4(st.rp + i, urp + i);
    commit();
}

extern "C" __global__ void __launch_bounds__(TB) panel_spmm(
    const int* __restrict__ rp, const int2* __restrict__ ent, const int* __restrict__ order,
    const float* __restrict__ B, float* __restrict__ C, int m, int k, int n, int panels, int max_unit) {
    extern __shared__ float4 smem[];
    // The two buffers' addresses are arithmetic on `smem` (not pointers kept in an array, which
    // would sit in local memory and turn every shared load generic: Nsight, session 45).
    const int rp_words = ((WROWS + 1) * 4 + 15) / 16 * 4;
    const int stage_f4 = PANEL * 8 + max_unit / 2 + rp_words / 4;  // float4s per buffer
    auto at = [&](int b) {
        float4* base = smem + b * stage_f4;
        return Stage{base, reinterpret_cast<int2*>(base + PANEL * 8), reinterpret_cast<int*>(base + PANEL * 8 + max_unit / 2)};
    };
    int* bounds = reinterpret_cast<int*>(smem + 2 * stage_f4);  // panels + 1 unit starts of this window
    const int w = blockIdx.x, s = blockIdx.y;
    constexpr int GROUPS = TB / 8;
    const int g = threadIdx.x >> 3, li = threadIdx.x & 7;
    for (int p = threadIdx.x; p < panels; p += TB) bounds[p] = rp[(long long)(w * panels + p) * (WROWS + 1)];
    if (threadIdx.x == 0) bounds[panels] = rp[(long long)(w * panels + panels - 1) * (WROWS + 1) + WROWS];
    int mine[RPT];  // this group's rows, local to the window (by length when ordered)
#pragma unroll
    for (int j = 0; j < RPT; ++j) mine[j] = g + GROUPS * j < WROWS ? order[w * WROWS + g + GROUPS * j] : -1;
    float4 acc[RPT];
#pragma unroll
    for (int j = 0; j < RPT; ++j) acc[j] = make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    stage(at(0), B, ent, rp, k, n, s, 0, w * panels, bounds[0], bounds[1]);
    for (int p = 0; p < panels; ++p) {
        // the next panel's copies fly while this one is added (its buffer was freed by the
        // barrier that ended panel p - 1)
        if (p + 1 < panels) {
            stage(at((p + 1) & 1), B, ent, rp, k, n, s, p + 1, w * panels + p + 1, bounds[p + 1], bounds[p + 2]);
            wait_groups<1>();
        } else {
            wait_groups<0>();
        }
        __syncthreads();
        const Stage cur = at(p & 1);
        const int e0 = bounds[p];
        // two rows of the group at once (RPT is even), four entries of each: eight shared loads of
        // B in flight per lane; a row's missing entries read column 0 with value 0
#pragma unroll
        for (int j = 0; j < RPT; j += 2) {
            const int i0 = mine[j], i1 = mine[j + 1];
            int q0 = i0 >= 0 ? cur.rp[i0] - e0 : 0, q1 = i1 >= 0 ? cur.rp[i1] - e0 : 0;
            const int f0 = i0 >= 0 ? cur.rp[i0 + 1] - e0 : 0, f1 = i1 >= 0 ? cur.rp[i1 + 1] - e0 : 0;
            float4 a0 = acc[j], a1 = acc[j + 1];
            while (q0 < f0 || q1 < f1) {
                int2 en[8];
                float4 x[8];
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    en[u] = q0 + u < f0 ? cur.ent[q0 + u] : make_int2(0, 0);
                    en[4 + u] = q1 + u < f1 ? cur.ent[q1 + u] : make_int2(0, 0);
                }
#pragma unroll
                for (int u = 0; u < 8; ++u) x[u] = cur.b[en[u].x * 8 + li];
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    const float v0 = __int_as_float(en[u].y), v1 = __int_as_float(en[4 + u].y);
                    a0.x += v0 * x[u].x; a0.y += v0 * x[u].y; a0.z += v0 * x[u].z; a0.w += v0 * x[u].w;
                    a1.x += v1 * x[4 + u].x; a1.y += v1 * x[4 + u].y; a1.z += v1 * x[4 + u].z; a1.w += v1 * x[4 + u].w;
                }
                q0 += 4;
                q1 += 4;
            }
            acc[j] = a0;
            acc[j + 1] = a1;
        }
        __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < RPT; ++j) {
        const int r = w * WROWS + mine[j];
        if (mine[j] >= 0 && r < m) *reinterpret_cast<float4*>(C + (long long)r * n + s * 32 + li * 4) = acc[j];
    }
}
"""


def read_mtx(path):
    with gzip.open(path, "rb") as f:
        header = f.readline().decode().lower()
        line = f.readline()
        while line.startswith(b"%"):
            line = f.readline()
        m, k, _ = map(int, line.split()[:3])
        data = f.read().split()
    fields = 2 if "pattern" in header else 3
    a = np.array(data, dtype=np.float64).reshape(-1, fields)
    r, c = a[:, 0].astype(np.int64) - 1, a[:, 1].astype(np.int64) - 1
    if "symmetric" in header or "hermitian" in header:
        off = r != c
        r, c = np.concatenate([r, c[off]]), np.concatenate([c, r[off]])
    rng = np.random.default_rng(7)
    v = rng.uniform(-1, 1, len(r))  # random values, never all-ones
    order = np.lexsort((c, r))
    return m, k, r[order], c[order], v[order]


def units(m, k, r, c, v, R, P):
    """Entries sorted by (window, panel, row, column) and the row starts of every unit."""
    windows, panels = -(-m // R), -(-k // P)
    w, p = r // R, c // P
    order = np.lexsort((c, r, p, w))
    r, c, v, w, p = r[order], c[order], v[order], w[order], p[order]
    key = (w * panels + p) * (R + 1) + (r - w * R)  # (unit, local row)
    grid = np.arange(windows * panels * (R + 1), dtype=np.int64)
    rp = np.searchsorted(key, grid, side="left").astype(np.int32)
    # row R of a unit (one past its last row) = the unit's end
    ends = np.searchsorted(w * panels + p, np.arange(windows * panels) + 1, side="left")
    rp.reshape(windows * panels, R + 1)[:, R] = ends
    counts = np.diff(np.concatenate([[0], ends]))
    ent = np.empty((len(c), 2), dtype=np.int32)
    ent[:, 0] = c - p * P
    ent[:, 1] = v.astype(np.float32).view(np.int32)
    return windows, panels, rp, ent, -(-int(counts.max()) // 4) * 4  # keeps the next buffer 16-byte aligned


def row_order(m, r, R, by_length):
    """Per window, its local rows in the order the groups take them: longest first when
    `by_length`, so that the four groups of a warp walk rows of like lengths."""
    windows = -(-m // R)
    lengths = np.zeros(windows * R, dtype=np.int64)
    lengths[:m] = np.bincount(r, minlength=m)
    local = np.tile(np.arange(R, dtype=np.int32), windows)
    if not by_length:
        return local
    return np.concatenate([np.argsort(-lengths[w * R:(w + 1) * R], kind="stable").astype(np.int32) for w in range(windows)])


def timed(fn, reps=20, warm=3):
    for _ in range(warm):
        fn(0)
    s, e = cp.cuda.Event(), cp.cuda.Event()
    s.record()
    for i in range(reps):
        fn(i)
    e.record()
    e.synchronize()
    return cp.cuda.get_elapsed_time(s, e) * 1e3 / reps  # us per call


def main(argv):
    opts = {"--n": "128,256", "--r": "256,512", "--p": "256,512", "--sort": "1", "--tb": "256,512"}
    paths, it = [], iter(argv)
    for a in it:
        if a in opts:
            opts[a] = next(it)
        else:
            paths.append(a)
    ns, rs, ps, sorts, tbs = ([int(x) for x in opts[o].split(",")] for o in ("--n", "--r", "--p", "--sort", "--tb"))
    import cupyx.scipy.sparse as sp
    COPIES = 8
    for path in paths:
        m, k, r, c, v = read_mtx(path)
        name = path.split("/")[-1].replace(".mtx.gz", "")
        a_gpu = sp.csr_matrix((cp.asarray(v.astype(np.float32)), (cp.asarray(r), cp.asarray(c))), shape=(m, k))
        rng = np.random.default_rng(11)
        rows = rng.choice(m, size=min(m, 300), replace=False)
        for n in ns:
            bs = [cp.asarray(rng.uniform(-1, 1, (k, n)).astype(np.float32)) for _ in range(COPIES)]
            cs = [cp.empty((m, n), dtype=cp.float32) for _ in range(COPIES)]
            b0 = cp.asnumpy(bs[0]).astype(np.float64)
            starts = np.searchsorted(r, np.arange(m + 1))
            ref = np.stack([v[starts[i]:starts[i + 1]] @ b0[c[starts[i]:starts[i + 1]]] for i in rows])
            scale = np.stack([np.abs(v[starts[i]:starts[i + 1]]) @ np.abs(b0[c[starts[i]:starts[i + 1]]]) for i in rows]) + 1e-30

            outs = [None] * COPIES  # CuPy's product comes back column-major: kept apart from cs

            def cusp(i):
                outs[i % COPIES] = a_gpu @ bs[i % COPIES]
            t_cu = timed(cusp)
            line = [f"{name[:22]:22} m {m:7d} nnz {len(r):8d} N {n:4d} | cuSPARSE (CuPy, with its conversions) {t_cu:7.1f} us |"]
            for R, P, tb in ((R, P, tb) for R in rs for P in ps for tb in tbs):
                rows_per_group = -(-R // (tb // 8))
                rpt = rows_per_group + rows_per_group % 2  # even: the kernel takes rows two at a time
                windows, panels, rp, ent, max_unit = units(m, k, r, c, v, R, P)
                smem = 2 * (P * 128 + max_unit * 8 + -(-(R + 1) * 4 // 16) * 16) + (panels + 1) * 4
                if smem > 227 * 1024:
                    line.append(f" R{R} P{P} TB{tb}: {smem >> 10} KB > smem |")
                    continue
                mod = cp.RawModule(code=SRC, options=("-std=c++17", f"-DRPT={rpt}", f"-DPANEL={P}", f"-DWROWS={R}", f"-DTB={tb}"))
                ker = mod.get_function("panel_spmm")
                ker.max_dynamic_shared_size_bytes = smem
                d_rp, d_ent = cp.asarray(rp), cp.asarray(ent)
                grid = (windows, n // 32)
                for by_length in sorts:
                    d_order = cp.asarray(row_order(m, r, R, by_length))

                    def lab(i):
                        ker(grid, (tb,), (d_rp, d_ent, d_order, bs[i % COPIES], cs[i % COPIES], np.int32(m), np.int32(k), np.int32(n),
                                           np.int32(panels), np.int32(max_unit)), shared_mem=smem)
                    for x in cs:
                        x.fill(cp.nan)  # poisoned: every row must be written
                    lab(0)
                    got = cp.asnumpy(cs[0][cp.asarray(rows)]).astype(np.float64)
                    err = float(np.max(np.abs(got - ref) / scale)) if np.all(np.isfinite(got)) else float("inf")
                    t = timed(lab)
                    line.append(f" R{R} P{P} TB{tb}{' sorted' if by_length else ''}: {t:7.1f} us ({grid[0] * grid[1]} blocks, {smem >> 10} KB, err {err:.1e}) |")
            print(" ".join(line), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
