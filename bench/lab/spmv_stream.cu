// Lab (session 10): why does the library's SpMV vector kernel reach only 55% of copy bandwidth on
// the 27-point stencil, and can a kernel get more bytes in flight? Standalone; built and run on the
// GPU machine by bench/lab/spmv_stream.sh (with -DWITH_LIBRARY it also times the library's own
// kernel, compiled from kernels/spmv_vector.cu against a generated oxsparse_kernel_params.h).
//
// Variants, timed on the same inputs (median of 40 runs after 5 warm-ups, x rotated over 4 copies):
//  * vec G        the library's short-row worker reduced to its core: a group of G lanes per row
//                 (G fixed at compile time), 4 entries per lane in flight, 32-bit positions;
//  * (measured once, then removed: commit 183426f) the same, each group also asking L2 for the
//    lines D entries further on in the entry stream (prefetch.global.L2);
//  * bisect ...   the core plus one of the library's costs: a run-time G, 64-bit positions, or the
//                 per-entry checks (base, column range, permutation and conjugation flags);
//  * band G/U/B   (session 12) the core reading 16-bit column offsets from the row (column = r +
//                 offset), U entries per lane in flight, at most B blocks' registers (B = 0: the
//                 compiler's choice); with the library, its band kernel (oxs_spmv_band_*) too;
//  * stream E/S   a persistent grid; each block streams tiles of ~E entries (whole rows) into a
//                 ring of S shared-memory stages with cp.async, so S-1 tiles are in flight while
//                 one is multiplied (all products at once, then groups of G lanes per row).
// Every variant is checked against a float64 CPU product first.
//
// Findings (H100, bench/NOTES.md session 10): the core runs the stencil at 42 us (FP32, 90% of copy
// bandwidth) where the library took 69; the per-entry checks cost ~14 us, a run-time G ~8, 64-bit
// positions ~2; prefetching and the cp.async ring were slower (48-51 and 84-104 us).
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <string>
#include <vector>
#ifdef WITH_LIBRARY
// The library's own vector kernel (needs oxsparse_kernel_params.h from a cargo build on the path).
#include "spmv_vector.cu"
#endif

#include "lab_check.cuh"

#ifndef WITH_LIBRARY
constexpr int BLOCK = 256;
#endif
constexpr int LAB_UNROLL = 4;

// ---------------------------------------------------------------- vector kernel (baseline) ----
template <typename V>
__device__ __forceinline__ V ldcs(const V* p) { return __ldcs(p); }

// The core (vec_bisect<G, false, false>) and the bisection of the library kernel's costs: GC = 0
// takes the group size at run time; WIDE does the position arithmetic in 64 bits; CHECKS adds the
// library's per-entry checks (base, column range, permutation and conjugation flags, read from
// parameters).
template <int GC, bool WIDE, bool CHECKS, typename V>
__global__ void __launch_bounds__(BLOCK) vec_bisect(const int* __restrict__ off, const int* __restrict__ col, const V* __restrict__ val,
                                                    const V* __restrict__ x, V* __restrict__ y, int m, int k, int g_rt,
                                                    const int* perm, int base, int conj) {
    using P = typename std::conditional<WIDE, long long, int>::type;
    const int G = GC ? GC : g_rt;
    const P r = P(blockIdx.x) * (BLOCK / G) + threadIdx.x / G;
    const int lane = threadIdx.x % G;
    if (r >= m) return;
    const P s = P(off[r]) - base, e = P(off[r + 1]) - base;
    V sum = 0;
    for (P q = s + lane; q < e; q += LAB_UNROLL * G) {
        P c[LAB_UNROLL];
        V v[LAB_UNROLL];
#pragma unroll
        for (int i = 0; i < LAB_UNROLL; ++i) {
            const P qi = q + P(i) * G;
            c[i] = -1;
            v[i] = 0;
            if (qi < e) {
                c[i] = P(ldcs(col + qi)) - (CHECKS ? base : 0);
                v[i] = ldcs(val + (CHECKS && perm ? P(perm[qi]) : qi));
                if (CHECKS && conj) v[i] = -v[i];
            }
        }
#pragma unroll
        for (int i = 0; i < LAB_UNROLL; ++i)
            if (c[i] >= 0 && (!CHECKS || c[i] < k)) sum += v[i] * __ldg(x + c[i]);
    }
    const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (threadIdx.x % 32 / G * G);
    for (int d = 1; d < G; d *= 2) sum += __shfl_xor_sync(mask, sum, d, G);
    if (lane == 0) y[r] = V(0.7) * sum;
}

// ---------------------------------------------------------------- band core (session 12) ------
// The core with 16-bit offsets from the row instead of 32-bit columns, positions relative to the
// row, U entries per lane in flight, MINB blocks per multiprocessor asked of the compiler; and one
// of the library band kernel's costs added to it (the session-12 bisection): POS64 keeps the row
// and its positions in 64 bits; SCALE writes alpha * sum + beta * y (beta read from a pointer, y
// read when it is nonzero); EDGES sends rows within 32768 of either end of x through a second,
// checked loop of 4 entries per lane; TOKEN reads a stamp beside the row's offsets and falls back
// to the columns when it differs.
template <int G, int U, bool POS64, bool SCALE, bool EDGES, bool TOKEN, int MINB, typename V>
__global__ void __launch_bounds__(BLOCK, MINB) band_bisect(const int* __restrict__ off, const int* __restrict__ col, const short* __restrict__ delta,
                                                        const V* __restrict__ val, const V* __restrict__ x, V* __restrict__ y, int m, int k,
                                                        const V* beta_at, const unsigned long long* token_at) {
    using P = typename std::conditional<POS64, long long, int>::type;
    const P r = P(blockIdx.x) * (BLOCK / G) + threadIdx.x / G;
    const int lane = threadIdx.x % G;
    if (r >= m) return;
    const P s = off[r], e = off[r + 1];
    if (TOKEN && __ldg(token_at) != 1ull) {
        V sum = 0;
        for (P q = s + lane; q < e; q += G) sum += val[q] * x[col[q]];
        for (int dd = 1; dd < G; dd *= 2) sum += __shfl_xor_sync(0xffffffffu, sum, dd, G);
        if (lane == 0) y[r] = sum;
        return;
    }
    const int len = int(e - s);
    const short* d0 = delta + s;
    const V* v0 = val + s;
    const V* xr = x + r;
    V sum = 0;
    auto run = [&](auto u_tag, bool checked) {
        constexpr int UU = decltype(u_tag)::value;
        for (int j = lane; j < len; j += UU * G) {
            int d[UU];
            V v[UU];
#pragma unroll
            for (int i = 0; i < UU; ++i) {
                d[i] = 0;
                v[i] = 0;
                if (j + i * G < len) {
                    d[i] = __ldcs(d0 + j + i * G);
                    v[i] = ldcs(v0 + j + i * G);
                }
            }
#pragma unroll
            for (int i = 0; i < UU; ++i)
                if (j + i * G < len && (!checked || (unsigned long long)(r + d[i]) < (unsigned long long)k)) sum += v[i] * __ldg(xr + d[i]);
        }
    };
    if (EDGES && !(r >= 32768 && k - r > 32767)) run(std::integral_constant<int, 4>{}, true);
    else run(std::integral_constant<int, U>{}, false);
    const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (threadIdx.x % 32 / G * G);
    for (int dd = 1; dd < G; dd *= 2) sum += __shfl_xor_sync(mask, sum, dd, G);
    if (lane == 0) {
        if (SCALE) {
            const V beta = *beta_at;
            V out = V(0.7) * sum;
            if (beta != V(0)) out += beta * y[r];
            y[r] = out;
        } else {
            y[r] = V(0.7) * sum;
        }
    }
}

// ---------------------------------------------------------------- stream kernel --------------
__device__ __forceinline__ unsigned smem_addr(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }

// Copies the 16-byte chunks that hold bytes [src, src + bytes) into dst (16-byte aligned), the
// last one cut short by cp.async's source size; returns src's offset in dst.
__device__ __forceinline__ int copy_range(void* dst, const void* src, long long bytes) {
    const unsigned long long a = reinterpret_cast<unsigned long long>(src);
    const unsigned long long a0 = a & ~15ull, end = a + bytes;
    const int chunks = int((end - a0 + 15) / 16);
    for (int i = threadIdx.x; i < chunks; i += BLOCK) {
        const unsigned long long c = a0 + 16ull * i;
        const int n = int(min(16ull, end - c));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_addr(static_cast<char*>(dst) + 16 * i)), "l"(c), "r"(n));
    }
    return int(a - a0);
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int N>
__device__ __forceinline__ void wait_groups() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

template <typename V, int E, int CAP, int ROWS>
struct Stage {
    int col[CAP + 8];
    V val[CAP + 8];
    int off[ROWS + 8];
};

// Tile t: rows [tiles[2t], tiles[2t+2]), entries [tiles[2t+1], tiles[2t+3]).
template <typename V, int E, int S, int G>
__global__ void __launch_bounds__(BLOCK) stream(const int* __restrict__ off, const int* __restrict__ col, const V* __restrict__ val,
                                                const V* __restrict__ x, V* __restrict__ y, const int* __restrict__ tiles, int ntiles) {
    constexpr int CAP = E + 256, ROWS = E;
    using St = Stage<V, E, CAP, ROWS>;
    extern __shared__ __align__(16) unsigned char smem[];
    St* ring = reinterpret_cast<St*>(smem);
    __shared__ int shift[S][3];

    auto issue = [&](int t, int slot) {
        if (t < ntiles) {
            const int r0 = tiles[2 * t], e0 = tiles[2 * t + 1], r1 = tiles[2 * t + 2], e1 = tiles[2 * t + 3];
            const int sc = copy_range(ring[slot].col, col + e0, (long long)(e1 - e0) * 4);
            const int sv = copy_range(ring[slot].val, val + e0, (long long)(e1 - e0) * sizeof(V));
            const int so = copy_range(ring[slot].off, off + r0, (long long)(r1 - r0 + 1) * 4);
            if (threadIdx.x == 0) { shift[slot][0] = sc / 4; shift[slot][1] = sv / int(sizeof(V)); shift[slot][2] = so / 4; }
        }
        commit();  // empty groups keep the count uniform
    };

    const int first = blockIdx.x, step = gridDim.x;
#pragma unroll
    for (int i = 0; i < S - 1; ++i) issue(first + i * step, i);
    int slot = 0;
    for (int t = first; t < ntiles; t += step) {
        issue(t + (S - 1) * step, (slot + S - 1) % S);
        wait_groups<S - 1>();
        __syncthreads();
        St& st = ring[slot];
        const int r0 = tiles[2 * t], e0 = tiles[2 * t + 1], r1 = tiles[2 * t + 2], e1 = tiles[2 * t + 3];
        const int n = e1 - e0;
        const int* c = st.col + shift[slot][0];
        V* v = st.val + shift[slot][1];
        const int* o = st.off + shift[slot][2];
        // products, all gathers of x issued before the first multiply
        constexpr int ITEMS = (CAP + BLOCK - 1) / BLOCK;
        V xv[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
            const int q = threadIdx.x + i * BLOCK;
            xv[i] = q < n ? __ldg(x + c[q]) : V(0);
        }
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
            const int q = threadIdx.x + i * BLOCK;
            if (q < n) v[q] *= xv[i];
        }
        __syncthreads();
        // rows: a group of G lanes each, lane l adding entries l, l + G, ... of the row
        const int lane = threadIdx.x % G;
        for (int r = r0 + threadIdx.x / G; r < r1; r += BLOCK / G) {
            const int s = o[r - r0] - e0, e = o[r - r0 + 1] - e0;
            V sum = 0;
            for (int q = s + lane; q < e; q += G) sum += v[q];
            for (int d = 1; d < G; d *= 2) sum += __shfl_xor_sync(__activemask(), sum, d, G);
            if (lane == 0) y[r] = V(0.7) * sum;
        }
        __syncthreads();  // the stage is free for the next issue
        slot = (slot + 1) % S;
    }
    wait_groups<0>();
}

// ---------------------------------------------------------------- host ------------------------
struct Csr {
    std::string name;
    int m = 0, n = 0;
    std::vector<int> off, col;
    std::vector<double> val;
};

static Csr stencil(int nx, std::mt19937_64& rng) {
    Csr a;
    a.name = "stencil27_nx" + std::to_string(nx);
    a.m = a.n = nx * nx * nx;
    std::uniform_real_distribution<double> u(-1, 1);
    a.off.push_back(0);
    for (int z = 0; z < nx; ++z)
        for (int yy = 0; yy < nx; ++yy)
            for (int xx = 0; xx < nx; ++xx) {
                for (int dz = -1; dz <= 1; ++dz)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx) {
                            const int X = xx + dx, Y = yy + dy, Z = z + dz;
                            if (X < 0 || Y < 0 || Z < 0 || X >= nx || Y >= nx || Z >= nx) continue;
                            a.col.push_back((Z * nx + Y) * nx + X);
                            a.val.push_back(u(rng));
                        }
                a.off.push_back(int(a.col.size()));
            }
    return a;
}

// Plain-text Matrix Market (coordinate; general or symmetric; real, integer or pattern).
static bool read_mtx(const char* path, Csr& a, std::mt19937_64& rng) {
    FILE* f = fopen(path, "r");
    if (!f) return false;
    char line[1024];
    bool sym = false, pattern = false;
    if (!fgets(line, sizeof line, f)) return false;
    sym = strstr(line, "symmetric") != nullptr;
    pattern = strstr(line, "pattern") != nullptr;
    do { if (!fgets(line, sizeof line, f)) return false; } while (line[0] == '%');
    long long m, n, k;
    sscanf(line, "%lld %lld %lld", &m, &n, &k);
    std::vector<std::pair<long long, long long>> ent;
    ent.reserve(sym ? 2 * k : k);
    std::uniform_real_distribution<double> u(-1, 1);
    for (long long i = 0; i < k; ++i) {
        long long r, c;
        if (fscanf(f, "%lld %lld", &r, &c) != 2) return false;
        if (!pattern) { double d; if (fscanf(f, "%lf", &d) != 1) return false; }
        ent.push_back({r - 1, c - 1});
        if (sym && r != c) ent.push_back({c - 1, r - 1});
    }
    fclose(f);
    std::sort(ent.begin(), ent.end());
    a.name = path;
    a.m = int(m);
    a.n = int(n);
    a.off.assign(m + 1, 0);
    for (auto& p : ent) { a.off[p.first + 1]++; a.col.push_back(int(p.second)); a.val.push_back(u(rng)); }
    for (long long r = 0; r < m; ++r) a.off[r + 1] += a.off[r];
    return true;
}

// Tiles of whole rows: rows whose first entry lies in [tE, (t+1)E). Needs rows of <= 256 entries.
static std::vector<int> make_tiles(const Csr& a, int E, int& ntiles, int& max_rows) {
    std::vector<int> t{0, 0};
    long long next = E;
    max_rows = 0;
    int rows_in = 0;
    for (int r = 0; r < a.m; ++r) {
        if (a.off[r] >= next || rows_in == E) {  // start a new tile at row r
            t.push_back(r);
            t.push_back(a.off[r]);
            next = (long long)a.off[r] + E;
            max_rows = std::max(max_rows, rows_in);
            rows_in = 0;
        }
        ++rows_in;
    }
    max_rows = std::max(max_rows, rows_in);
    t.push_back(a.m);
    t.push_back(a.off[a.m]);
    ntiles = int(t.size() / 2) - 1;
    return t;
}

template <typename V>
struct Run {
    const Csr& a;
    int *off, *col, *tiles = nullptr;
    short* delta = nullptr;  // column - row, when every entry's fits 16 bits
    V *val, *x[4], *y;
    std::vector<double> ref;
    double bytes;
    int sms;
    explicit Run(const Csr& A) : a(A) {
        cudaDeviceProp p;
        CK(cudaGetDeviceProperties(&p, 0));
        sms = p.multiProcessorCount;
        const long long nnz = a.off[a.m];
        CK(cudaMalloc(&off, (a.m + 1) * 4));
        CK(cudaMalloc(&col, nnz * 4));
        CK(cudaMalloc(&val, nnz * sizeof(V)));
        CK(cudaMalloc(&y, a.m * sizeof(V)));
        CK(cudaMemcpy(off, a.off.data(), (a.m + 1) * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(col, a.col.data(), nnz * 4, cudaMemcpyHostToDevice));
        std::vector<V> hv(a.val.begin(), a.val.end());
        CK(cudaMemcpy(val, hv.data(), nnz * sizeof(V), cudaMemcpyHostToDevice));
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<V> hx(a.n);
        for (auto& e : hx) e = V(u(rng));
        for (int i = 0; i < 4; ++i) {
            CK(cudaMalloc(&x[i], a.n * sizeof(V)));
            CK(cudaMemcpy(x[i], hx.data(), a.n * sizeof(V), cudaMemcpyHostToDevice));
        }
        ref.assign(a.m, 0);
        for (int r = 0; r < a.m; ++r) {
            double s = 0;
            for (int q = a.off[r]; q < a.off[r + 1]; ++q) s += double(hv[q]) * double(hx[a.col[q]]);
            ref[r] = 0.7 * s;
        }
        bytes = double(nnz + a.m + a.n) * sizeof(V) + nnz * 4.0 + (a.m + 1) * 4.0;
        std::vector<short> hd(nnz);
        bool fits = true;
        for (int r = 0; r < a.m; ++r)
            for (int q = a.off[r]; q < a.off[r + 1]; ++q) {
                const int d = a.col[q] - r;
                fits = fits && d >= -32768 && d <= 32767;
                hd[q] = short(d);
            }
        if (fits) {
            CK(cudaMalloc(&delta, nnz * 2));
            CK(cudaMemcpy(delta, hd.data(), nnz * 2, cudaMemcpyHostToDevice));
        }
    }
    ~Run() {
        cudaFree(off); cudaFree(col); cudaFree(val); cudaFree(y);
        if (delta) cudaFree(delta);
        for (auto p : x) cudaFree(p);
        if (tiles) cudaFree(tiles);
    }
    bool check(const char* what) {
        std::vector<V> hy(a.m);
        CK(cudaMemcpy(hy.data(), y, a.m * sizeof(V), cudaMemcpyDeviceToHost));
        const double tol = sizeof(V) == 4 ? 1e-4 : 1e-12;
        for (int r = 0; r < a.m; ++r) {
            const double d = std::fabs(double(hy[r]) - ref[r]);
            if (!(d <= tol * (1 + std::fabs(ref[r])) * 10)) {
                printf("  %s: WRONG at row %d: %g against %g\n", what, r, double(hy[r]), ref[r]);
                return false;
            }
        }
        return true;
    }
    template <typename F>
    void time(const char* what, F launch) {
        CK(cudaMemset(y, 0xff, a.m * sizeof(V)));  // poison
        launch(x[0]);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        if (!check(what)) return;
        cudaEvent_t b, e;
        CK(cudaEventCreate(&b));
        CK(cudaEventCreate(&e));
        std::vector<float> ms;
        for (int i = 0; i < 5 + 40; ++i) {
            CK(cudaEventRecord(b));
            launch(x[i % 4]);
            CK(cudaEventRecord(e));
            CK(cudaEventSynchronize(e));
            float t;
            CK(cudaEventElapsedTime(&t, b, e));
            if (i >= 5) ms.push_back(t);
        }
        CK(cudaGetLastError());
        std::sort(ms.begin(), ms.end());
        const double med = ms[ms.size() / 2] * 1e3;
        printf("  %-28s %8.1f us  %6.1f%% of 2984 GB/s\n", what, med, bytes / (med * 1e-6) / 2984e9 * 100);
        cudaEventDestroy(b);
        cudaEventDestroy(e);
    }

    template <int G>
    void vec_variants() {
        const int grid = (a.m + BLOCK / G - 1) / (BLOCK / G);
        char name[64];
        snprintf(name, sizeof name, "vec %d", G);
        time(name, [&](V* xx) { vec_bisect<G, false, false, V><<<grid, BLOCK>>>(off, col, val, xx, y, a.m, a.n, G, nullptr, 0, 0); });
    }
#ifdef WITH_LIBRARY
    // The library's vector kernel (no trusted lists), or with BAND its band kernel (the offsets and
    // a matching stamp), on the lab's CSR arrays.
    void library(int lanes, bool band) {
        if (band && !delta) return;
        SpmvVectorParams p{};
        p.shape.m = a.m;
        p.shape.k = a.n;
        p.shape.y = reinterpret_cast<uint64_t>(y);
        const double alpha = 0.7;
        if (sizeof(V) == 4) { const float f = 0.7f; memcpy(p.shape.alpha.host, &f, 4); } else memcpy(p.shape.alpha.host, &alpha, 8);
        p.a.offsets = reinterpret_cast<uint64_t>(off);
        p.a.cols = reinterpret_cast<uint64_t>(col);
        p.a.values = reinterpret_cast<uint64_t>(val);
        uint64_t* token;
        CK(cudaMalloc(&token, 64));
        CK(cudaMemset(token, 0, 64));
        const uint64_t one = 1;
        if (band) CK(cudaMemcpy(token, &one, 8, cudaMemcpyHostToDevice));
        p.v.lanes = lanes;
        p.v.long_threshold = band ? 1 << 30 : 64;
        p.v.huge_threshold = band ? 1 << 30 : 256;
        p.v.token_at = reinterpret_cast<uint64_t>(token);
        p.v.counts = reinterpret_cast<uint64_t>(token) + 8;
        p.v.token = 1;
        if (band) p.v.band = reinterpret_cast<uint64_t>(delta);
        const int grid = (a.m + BLOCK / lanes - 1) / (BLOCK / lanes);
        char name[64];
        snprintf(name, sizeof name, "library %s %d", band ? "band" : "vector", lanes);
        time(name, [&](V* xx) {
            p.shape.x = reinterpret_cast<uint64_t>(xx);
            if (band && sizeof(V) == 4) oxs_spmv_band_f32_f32_f32_f32_i32<<<grid, BLOCK>>>(p);
            else if (band) oxs_spmv_band_f64_f64_f64_f64_i32<<<grid, BLOCK>>>(p);
            else if (sizeof(V) == 4) oxs_spmv_vector_f32_f32_f32_f32_i32<<<grid, BLOCK>>>(p);
            else oxs_spmv_vector_f64_f64_f64_f64_i32<<<grid, BLOCK>>>(p);
        });
        cudaFree(token);
    }
#endif
    template <int G, int U, int MINB>
    void band_variant() {
        if (!delta) { printf("  band: an offset outside 16 bits, skipped\n"); return; }
        char name[64];
        snprintf(name, sizeof name, "band G%d U%d B%d", G, U, MINB);
        band_bisect_variant<G, U, false, false, false, false, MINB>(name);
    }
    template <int G, int U, bool POS64, bool SCALE, bool EDGES, bool TOKEN, int MINB = 8>
    void band_bisect_variant(const char* what) {
        if (!delta) return;
        V* beta;
        unsigned long long* token;
        CK(cudaMalloc(&beta, sizeof(V)));
        CK(cudaMalloc(&token, 8));
        CK(cudaMemset(beta, 0, sizeof(V)));
        const unsigned long long one = 1;
        CK(cudaMemcpy(token, &one, 8, cudaMemcpyHostToDevice));
        const int grid = (a.m + BLOCK / G - 1) / (BLOCK / G);
        time(what, [&](V* xx) { band_bisect<G, U, POS64, SCALE, EDGES, TOKEN, MINB, V><<<grid, BLOCK>>>(off, col, delta, val, xx, y, a.m, a.n, beta, token); });
        cudaFree(beta);
        cudaFree(token);
    }
    template <int G>
    void bisect() {
        const int grid = (a.m + BLOCK / G - 1) / (BLOCK / G);
        time("bisect runtime G", [&](V* xx) { vec_bisect<0, false, false, V><<<grid, BLOCK>>>(off, col, val, xx, y, a.m, a.n, G, nullptr, 0, 0); });
        time("bisect 64-bit", [&](V* xx) { vec_bisect<G, true, false, V><<<grid, BLOCK>>>(off, col, val, xx, y, a.m, a.n, G, nullptr, 0, 0); });
        time("bisect checks", [&](V* xx) { vec_bisect<G, false, true, V><<<grid, BLOCK>>>(off, col, val, xx, y, a.m, a.n, G, nullptr, 0, 0); });
        time("bisect all three", [&](V* xx) { vec_bisect<0, true, true, V><<<grid, BLOCK>>>(off, col, val, xx, y, a.m, a.n, G, nullptr, 0, 0); });
    }
    template <int E, int S, int G>
    void stream_variant(int blocks_per_sm) {
        int ntiles, max_rows;
        std::vector<int> t = make_tiles(a, E, ntiles, max_rows);
        for (int r = 0; r < a.m; ++r)
            if (a.off[r + 1] - a.off[r] > 256) { printf("  stream: rows over 256 entries, skipped\n"); return; }
        if (tiles) cudaFree(tiles);
        CK(cudaMalloc(&tiles, t.size() * 4));
        CK(cudaMemcpy(tiles, t.data(), t.size() * 4, cudaMemcpyHostToDevice));
        constexpr int CAP = E + 256;
        const size_t smem = S * sizeof(Stage<V, E, CAP, E>);
        auto k = stream<V, E, S, G>;
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
        int occ = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, BLOCK, smem));
        const int bps = std::min(occ, blocks_per_sm);
        const int grid = std::min(ntiles, sms * bps);
        char name[64];
        snprintf(name, sizeof name, "stream E%d S%d G%d x%d", E, S, G, bps);
        time(name, [&](V* xx) { k<<<grid, BLOCK, smem>>>(off, col, val, xx, y, tiles, ntiles); });
    }
};

template <typename V, int G>
static void all(const Csr& a) {
    printf("%s %s: %d rows, %d entries, G %d\n", a.name.c_str(), sizeof(V) == 4 ? "FP32" : "FP64", a.m, a.off[a.m], G);
    Run<V> r(a);
#ifdef WITH_LIBRARY
    if (getenv("LAB_LIBRARY_ONLY")) {  // every group size the planner may give
        for (int g : {4, 8, 16, 32}) r.library(g, false);
        return;
    }
    r.library(G, false);
    r.library(G, true);
    r.library(G / 2, true);
#endif
    r.template vec_variants<G>();
    r.template band_variant<G, 4, 8>();
    r.template band_variant<G / 2, 8, 8>();
    r.template band_variant<G / 2, 8, 6>();
    r.template band_variant<G / 2, 8, 0>();
    r.template band_variant<G / 4, 16, 0>();
    constexpr int BG = sizeof(V) == 4 ? G / 2 : G, BU = sizeof(V) == 4 ? 8 : 4;
    r.template band_bisect_variant<BG, BU, false, false, false, false>("band bisect core");
    r.template band_bisect_variant<BG, BU, true, false, false, false>("band bisect 64-bit");
    r.template band_bisect_variant<BG, BU, false, true, false, false>("band bisect scale");
    r.template band_bisect_variant<BG, BU, false, false, true, false>("band bisect edges");
    r.template band_bisect_variant<BG, BU, false, false, false, true>("band bisect token");
    r.template band_bisect_variant<BG, BU, true, true, true, true>("band bisect all four");
    if (getenv("LAB_BAND_ONLY")) return;
    r.template bisect<G>();
    constexpr int E = sizeof(V) == 4 ? 2048 : 1024;
    if (getenv("LAB_STREAM")) {
        r.template stream_variant<E, 3, G>(2);
        r.template stream_variant<E / 2, 3, G>(4);
    }
}

int main(int argc, char** argv) {
    std::mt19937_64 rng(1);
    Csr s = stencil(80, rng);
    all<float, 8>(s);
    all<double, 8>(s);
    for (int i = 1; i < argc; ++i) {
        Csr a;
        if (!read_mtx(argv[i], a, rng)) { printf("%s: unreadable\n", argv[i]); continue; }
        all<float, 16>(a);
        all<double, 16>(a);
    }
    return 0;
}
