// Lab (session 13): can a lean row kernel for FP32 row-major SpMM beat cuSPARSE where the library's
// tile kernel loses (small matrices, whose time is a chain of dependent memory trips, and
// mid-size social graphs at N >= 128)? Standalone; built and run on the GPU machine by
// bench/lab/spmm_rows.sh (nvcc and libcusparse there), on the .mtx files given as arguments.
//
// Variants, each checked against a float64 CPU product first (C poisoned), then timed two ways on
// B and C rotated over copies that cover twice the L2:
//   "one"    events around a single call on an idle stream (the bench's way: host time counts);
//   "stream" 20 calls back to back between two events, per call (the GPU's time alone).
//  * cuSPARSE DEFAULT, CSR_ALG2, CSR_ALG3 (with SpMM_preprocess);
//  * rows G/R/U: a group of G lanes per row (G fixed at compile time), each lane R float4 of the
//    row's W = 4 G R columns (grid y = N / W passes), entries read 32 at a time (coalesced, K =
//    32 / G per lane) and handed out by shuffles, U B rows in flight per lane, no per-entry checks
//    but the end of the row.
#include <cuda_runtime.h>
#include <cusparse.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lab_check.cuh"
#define CS(x)                                                                      \
    do {                                                                           \
        cusparseStatus_t s_ = (x);                                                 \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                       \
            fprintf(stderr, "%s:%d %s: status %d\n", __FILE__, __LINE__, #x, int(s_)); \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

constexpr int BLOCK = 256;

// ---------------------------------------------------------------------------- the row kernel ----
template <int G>
__device__ __forceinline__ unsigned group_mask() {
    if constexpr (G == 32) return 0xffffffffu;
    else return ((1u << G) - 1u) << ((threadIdx.x % 32) / G * G);
}

template <int G, int R, int U>
__global__ void __launch_bounds__(BLOCK) rows_kernel(const int* __restrict__ off, const int* __restrict__ col,
                                                     const float* __restrict__ val, const float* __restrict__ b,
                                                     float* __restrict__ c, int m, int n, float alpha) {
    constexpr int K = 32 / G;
    constexpr int W = 4 * G * R;
    const int row = blockIdx.x * (BLOCK / G) + threadIdx.x / G;
    if (row >= m) return;  // whole groups leave together
    const unsigned mask = group_mask<G>();
    const int li = threadIdx.x % G;
    const int j0 = blockIdx.y * W + li * 4;
    const int s = off[row], e = off[row + 1];
    float4 acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int q0 = s; q0 < e; q0 += 32) {
        int cc[K];
        float vv[K];
#pragma unroll
        for (int t = 0; t < K; ++t) {
            const int q = q0 + t * G + li;
            cc[t] = q < e ? col[q] : 0;
            vv[t] = q < e ? val[q] : 0.f;
        }
        const int cnt = min(32, e - q0);
#pragma unroll
        for (int t = 0; t < K; ++t) {
            if (t * G >= cnt) break;
#pragma unroll 1
            for (int u0 = 0; u0 < G; u0 += U) {
                if (t * G + u0 >= cnt) break;
                float4 bv[U][R];
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    const int cu = __shfl_sync(mask, cc[t], u0 + u, G);
                    const float* p = b + size_t(cu) * n + j0;
#pragma unroll
                    for (int r = 0; r < R; ++r) bv[u][r] = __ldg(reinterpret_cast<const float4*>(p + r * 4 * G));
                }
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    const float a = __shfl_sync(mask, vv[t], u0 + u, G);
                    if (t * G + u0 + u < cnt) {
#pragma unroll
                        for (int r = 0; r < R; ++r) {
                            acc[r].x += a * bv[u][r].x;
                            acc[r].y += a * bv[u][r].y;
                            acc[r].z += a * bv[u][r].z;
                            acc[r].w += a * bv[u][r].w;
                        }
                    }
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
        float4 o = make_float4(alpha * acc[r].x, alpha * acc[r].y, alpha * acc[r].z, alpha * acc[r].w);
        __stcs(reinterpret_cast<float4*>(c + size_t(row) * n + j0 + r * 4 * G), o);
    }
}

// Row decomposition (RoDe's idea, our code): rows longer than L entries are cut into virtual rows
// of at most L entries (host-built offsets `voff`); `vmap[v]` = (real row, slot): slot -1 writes C,
// else the virtual row's sums go to partials[slot], and `combine` adds a split row's partials in
// order (a second launch). The same group-per-row walk as rows_kernel.
template <int G, int U>
__global__ void __launch_bounds__(BLOCK) seg_kernel(const int* __restrict__ voff, const int2* __restrict__ vmap, const int* __restrict__ col,
                                                    const float* __restrict__ val, const float* __restrict__ b, float* __restrict__ c,
                                                    float* __restrict__ partials, int mv, int n, float alpha) {
    constexpr int K = 32 / G;
    constexpr int W = 4 * G;
    const int v = blockIdx.x * (BLOCK / G) + threadIdx.x / G;
    if (v >= mv) return;
    const unsigned mask = group_mask<G>();
    const int li = threadIdx.x % G;
    const int j0 = blockIdx.y * W + li * 4;
    const int s = voff[v], e = voff[v + 1];
    const int2 dst = vmap[v];
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int q0 = s; q0 < e; q0 += 32) {
        int cc[K];
        float vv[K];
#pragma unroll
        for (int t = 0; t < K; ++t) {
            const int q = q0 + t * G + li;
            cc[t] = q < e ? col[q] : 0;
            vv[t] = q < e ? val[q] : 0.f;
        }
        const int cnt = min(32, e - q0);
#pragma unroll
        for (int t = 0; t < K; ++t) {
            if (t * G >= cnt) break;
#pragma unroll 1
            for (int u0 = 0; u0 < G; u0 += U) {
                if (t * G + u0 >= cnt) break;
                float4 bv[U];
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    const int cu = __shfl_sync(mask, cc[t], u0 + u, G);
                    bv[u] = __ldg(reinterpret_cast<const float4*>(b + size_t(cu) * n + j0));
                }
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    const float a = __shfl_sync(mask, vv[t], u0 + u, G);
                    if (t * G + u0 + u < cnt) {
                        acc.x += a * bv[u].x;
                        acc.y += a * bv[u].y;
                        acc.z += a * bv[u].z;
                        acc.w += a * bv[u].w;
                    }
                }
            }
        }
    }
    if (dst.y < 0) {
        __stcs(reinterpret_cast<float4*>(c + size_t(dst.x) * n + j0), make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w));
    } else {
        *reinterpret_cast<float4*>(partials + size_t(dst.y) * n + j0) = acc;
    }
}

// split[i] = (real row, first slot, count): thread per (split row, 4 columns) adds the slots in order.
__global__ void combine(const int4* __restrict__ split, int nsplit, const float* __restrict__ partials, float* __restrict__ c, int n, float alpha) {
    const int per = n / 4;
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nsplit * per) return;
    const int4 sp = split[t / per];
    const int j = (t % per) * 4;
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int k = 0; k < sp.z; ++k) {
        const float4 p = __ldcg(reinterpret_cast<const float4*>(partials + size_t(sp.y + k) * n + j));
        sum.x += p.x; sum.y += p.y; sum.z += p.z; sum.w += p.w;
    }
    __stcs(reinterpret_cast<float4*>(c + size_t(sp.x) * n + j), make_float4(alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w));
}

// ---------------------------------------------------------------------------------- matrices ----
struct Csr {
    std::string name;
    int m = 0, k = 0;
    std::vector<int> off, col;
    std::vector<float> val;
};

static bool read_mtx(const char* path, Csr& a) {
    FILE* f = fopen(path, "r");
    if (!f) return false;
    char line[1024];
    if (!fgets(line, sizeof line, f)) return false;
    const bool symmetric = strstr(line, "symmetric") || strstr(line, "hermitian");
    const bool pattern = strstr(line, "pattern");
    do {
        if (!fgets(line, sizeof line, f)) return false;
    } while (line[0] == '%');
    long m, k, nz;
    sscanf(line, "%ld %ld %ld", &m, &k, &nz);
    std::vector<std::pair<int, int>> e;
    e.reserve(symmetric ? 2 * nz : nz);
    for (long i = 0; i < nz; ++i) {
        long r, c;
        double v = 0, im = 0;
        if (!fgets(line, sizeof line, f)) return false;
        if (pattern) sscanf(line, "%ld %ld", &r, &c);
        else sscanf(line, "%ld %ld %lf %lf", &r, &c, &v, &im);
        e.push_back({int(r - 1), int(c - 1)});
        if (symmetric && r != c) e.push_back({int(c - 1), int(r - 1)});
    }
    fclose(f);
    std::stable_sort(e.begin(), e.end(), [](auto& x, auto& y) { return x.first < y.first; });
    a.m = int(m);
    a.k = int(k);
    a.off.assign(m + 1, 0);
    a.col.resize(e.size());
    a.val.resize(e.size());
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    for (size_t i = 0; i < e.size(); ++i) {
        a.off[e[i].first + 1]++;
        a.col[i] = e[i].second;
        a.val[i] = d(rng);
    }
    for (long r = 0; r < m; ++r) a.off[r + 1] += a.off[r];
    std::string p(path);
    a.name = p.substr(p.find_last_of('/') + 1);
    a.name = a.name.substr(0, a.name.find('.'));
    return true;
}

// ------------------------------------------------------------------------------------- timing ----
struct Bench {
    int copies;
    cudaEvent_t e0, e1;
    Bench(int copies) : copies(copies) {
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
    }
    // call(copy) enqueues one call; returns {one: median us of single calls, stream: us per call}.
    template <typename F>
    std::pair<double, double> time(F call) {
        for (int i = 0; i < 5; ++i) call(i % copies);
        CK(cudaDeviceSynchronize());
        std::vector<float> one;
        for (int i = 0; i < 41; ++i) {
            CK(cudaEventRecord(e0));
            call(i % copies);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            one.push_back(ms);
        }
        std::sort(one.begin(), one.end());
        std::vector<float> st;
        for (int rep = 0; rep < 7; ++rep) {
            CK(cudaEventRecord(e0));
            for (int i = 0; i < 20; ++i) call((rep * 20 + i) % copies);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            st.push_back(ms / 20);
        }
        std::sort(st.begin(), st.end());
        return {one[one.size() / 2] * 1e3, st[st.size() / 2] * 1e3};
    }
};

// LAB_SEG="32 64": the segment lengths of the seg variants.
static std::vector<int> lab_segments() {
    std::vector<int> v;
    const char* e = getenv("LAB_SEG");
    for (const char* p = e ? e : "32 64 128"; *p;) {
        v.push_back(atoi(p));
        while (*p && *p != ' ' && *p != ',') ++p;
        while (*p == ' ' || *p == ',') ++p;
    }
    return v;
}

int main(int argc, char** argv) {
    std::vector<int> ns = {32, 64, 128, 256};
    if (const char* e = getenv("LAB_N")) {
        ns.clear();
        for (const char* p = e; *p;) {
            ns.push_back(atoi(p));
            while (*p && *p != ' ' && *p != ',') ++p;
            while (*p == ' ' || *p == ',') ++p;
        }
    }
    cusparseHandle_t h;
    CS(cusparseCreate(&h));
    const float alpha = 0.7f, beta = 0.f;
    for (int ai = 1; ai < argc; ++ai) {
        Csr a;
        if (!read_mtx(argv[ai], a)) {
            fprintf(stderr, "cannot read %s\n", argv[ai]);
            continue;
        }
        const int nnz = a.off[a.m];
        int *d_off, *d_col;
        float* d_val;
        CK(cudaMalloc(&d_off, (a.m + 1) * 4));
        CK(cudaMalloc(&d_col, size_t(nnz) * 4 + 4));
        CK(cudaMalloc(&d_val, size_t(nnz) * 4 + 4));
        CK(cudaMemcpy(d_off, a.off.data(), (a.m + 1) * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_col, a.col.data(), size_t(nnz) * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_val, a.val.data(), size_t(nnz) * 4, cudaMemcpyHostToDevice));
        cusparseSpMatDescr_t ma;
        CS(cusparseCreateCsr(&ma, a.m, a.k, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
        for (int n : ns) {
            const size_t bn = size_t(a.k) * n, cn = size_t(a.m) * n;
            const size_t bytes = (bn + cn) * 4;
            const int copies = int(std::min<size_t>(16, std::max<size_t>(1, (100u << 20) / std::max<size_t>(bytes, 1) + 1)));
            float *d_b, *d_c;
            CK(cudaMalloc(&d_b, bn * 4 * copies));
            CK(cudaMalloc(&d_c, cn * 4 * copies));
            std::vector<float> hb(bn);
            std::mt19937 rng(11);
            std::uniform_real_distribution<float> d(-1.f, 1.f);
            for (auto& x : hb) x = d(rng);
            for (int cp = 0; cp < copies; ++cp) CK(cudaMemcpy(d_b + bn * cp, hb.data(), bn * 4, cudaMemcpyHostToDevice));
            // float64 reference of copy 0
            std::vector<double> ref(cn, 0.0), mag(cn, 0.0);
            for (int r = 0; r < a.m; ++r)
                for (int q = a.off[r]; q < a.off[r + 1]; ++q)
                    for (int j = 0; j < n; ++j) {
                        const double p = double(a.val[q]) * hb[size_t(a.col[q]) * n + j];
                        ref[size_t(r) * n + j] += p;
                        mag[size_t(r) * n + j] += fabs(p);
                    }
            std::vector<float> got(cn);
            auto check = [&](const char* what) {
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(got.data(), d_c, cn * 4, cudaMemcpyDeviceToHost));
                for (size_t i = 0; i < cn; ++i) {
                    const double err = fabs(got[i] - alpha * ref[i]);
                    const double tol = 1e-5 * alpha * mag[i] + 1e-30;
                    if (!(err <= tol)) {
                        printf("  %s: MISMATCH at %zu: got %g want %g\n", what, i, got[i], alpha * ref[i]);
                        return false;
                    }
                }
                return true;
            };
            auto poison = [&]() { CK(cudaMemset(d_c, 0xff, cn * 4)); };
            Bench bench(copies);
            printf("%-28s %8d x %-8d nnz %9d N=%-4d copies %2d\n", a.name.c_str(), a.m, a.k, nnz, n, copies);
            // cuSPARSE
            std::vector<cusparseDnMatDescr_t> mb(copies), mc(copies);
            for (int cp = 0; cp < copies; ++cp) {
                CS(cusparseCreateDnMat(&mb[cp], a.k, n, n, d_b + bn * cp, CUDA_R_32F, CUSPARSE_ORDER_ROW));
                CS(cusparseCreateDnMat(&mc[cp], a.m, n, n, d_c + cn * cp, CUDA_R_32F, CUSPARSE_ORDER_ROW));
            }
            const cusparseSpMMAlg_t algs[] = {CUSPARSE_SPMM_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3};
            const char* names[] = {"cuSPARSE DEFAULT", "cuSPARSE CSR_ALG2", "cuSPARSE CSR_ALG3"};
            double best_one = 1e30, best_stream = 1e30;
            for (int ia = 0; ia < 3; ++ia) {
                size_t ws = 0;
                const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
                CS(cusparseSpMM_bufferSize(h, op, op, &alpha, ma, mb[0], &beta, mc[0], CUDA_R_32F, algs[ia], &ws));
                void* buf = nullptr;
                CK(cudaMalloc(&buf, ws + 16));
                CS(cusparseSpMM_preprocess(h, op, op, &alpha, ma, mb[0], &beta, mc[0], CUDA_R_32F, algs[ia], buf));
                poison();
                CS(cusparseSpMM(h, op, op, &alpha, ma, mb[0], &beta, mc[0], CUDA_R_32F, algs[ia], buf));
                const bool ok = check(names[ia]);
                auto t = bench.time([&](int cp) { cusparseSpMM(h, op, op, &alpha, ma, mb[cp], &beta, mc[cp], CUDA_R_32F, algs[ia], buf); });
                printf("  %-24s one %8.2f us  stream %8.2f us %s\n", names[ia], t.first, t.second, ok ? "" : "WRONG");
                best_one = std::min(best_one, t.first);
                best_stream = std::min(best_stream, t.second);
                CK(cudaFree(buf));
            }
            for (int cp = 0; cp < copies; ++cp) {
                CS(cusparseDestroyDnMat(mb[cp]));
                CS(cusparseDestroyDnMat(mc[cp]));
            }
            // row kernels
            auto run_rows = [&](const char* name, auto kernel, int g, int w) {
                if (n % w) return;
                const dim3 grid((a.m + BLOCK / g - 1) / (BLOCK / g), n / w);
                auto launch = [&](int cp) { kernel<<<grid, BLOCK>>>(d_off, d_col, d_val, d_b + bn * cp, d_c + cn * cp, a.m, n, alpha); };
                poison();
                launch(0);
                CK(cudaGetLastError());
                const bool ok = check(name);
                auto t = bench.time(launch);
                printf("  %-24s one %8.2f us  stream %8.2f us  %5.2fx / %5.2fx %s\n", name, t.first, t.second, best_one / t.first,
                       best_stream / t.second, ok ? "" : "WRONG");
            };
            if (!getenv("LAB_SEG_ONLY")) {
                run_rows("rows G8 R1 U4", rows_kernel<8, 1, 4>, 8, 32);
                run_rows("rows G8 R1 U8", rows_kernel<8, 1, 8>, 8, 32);
                run_rows("rows G16 R1 U4", rows_kernel<16, 1, 4>, 16, 64);
                run_rows("rows G16 R1 U8", rows_kernel<16, 1, 8>, 16, 64);
                run_rows("rows G32 R1 U4", rows_kernel<32, 1, 4>, 32, 128);
                run_rows("rows G32 R1 U8", rows_kernel<32, 1, 8>, 32, 128);
                run_rows("rows G32 R2 U4", rows_kernel<32, 2, 4>, 32, 256);
            }
            for (int L : lab_segments()) {
                // host: virtual rows of at most L entries
                std::vector<int> voff{0};
                std::vector<int2> vmap;
                std::vector<int4> split;
                int slots = 0;
                for (int r = 0; r < a.m; ++r) {
                    const int len = a.off[r + 1] - a.off[r];
                    if (len <= L) {
                        voff.push_back(a.off[r + 1]);
                        vmap.push_back(make_int2(r, -1));
                        continue;
                    }
                    const int pieces = (len + L - 1) / L;
                    split.push_back(make_int4(r, slots, pieces, 0));
                    for (int p = 0; p < pieces; ++p) {
                        voff.push_back(std::min(a.off[r] + (p + 1) * L, a.off[r + 1]));
                        vmap.push_back(make_int2(r, slots++));
                    }
                }
                const int mv = int(vmap.size());
                int *d_voff;
                int2* d_vmap;
                int4* d_split;
                float* d_part;
                CK(cudaMalloc(&d_voff, voff.size() * 4));
                CK(cudaMalloc(&d_vmap, vmap.size() * 8));
                CK(cudaMalloc(&d_split, std::max<size_t>(1, split.size()) * 16));
                CK(cudaMalloc(&d_part, std::max<size_t>(1, size_t(slots) * n) * 4));
                CK(cudaMemcpy(d_voff, voff.data(), voff.size() * 4, cudaMemcpyHostToDevice));
                CK(cudaMemcpy(d_vmap, vmap.data(), vmap.size() * 8, cudaMemcpyHostToDevice));
                if (!split.empty()) CK(cudaMemcpy(d_split, split.data(), split.size() * 16, cudaMemcpyHostToDevice));
                auto run_seg = [&](const char* kname, auto kernel, int g) {
                    const int w = 4 * g;
                    if (n % w) return;
                    const dim3 grid((mv + BLOCK / g - 1) / (BLOCK / g), n / w);
                    const int nsplit = int(split.size());
                    auto launch = [&](int cp) {
                        kernel<<<grid, BLOCK>>>(d_voff, d_vmap, d_col, d_val, d_b + bn * cp, d_c + cn * cp, d_part, mv, n, alpha);
                        if (nsplit) combine<<<(nsplit * (n / 4) + 255) / 256, 256>>>(d_split, nsplit, d_part, d_c + cn * cp, n, alpha);
                    };
                    char name[64];
                    snprintf(name, sizeof name, "%s L%d (%d split)", kname, L, nsplit);
                    poison();
                    launch(0);
                    CK(cudaGetLastError());
                    const bool ok = check(name);
                    auto t = bench.time(launch);
                    printf("  %-24s one %8.2f us  stream %8.2f us  %5.2fx / %5.2fx %s\n", name, t.first, t.second, best_one / t.first,
                           best_stream / t.second, ok ? "" : "WRONG");
                };
                run_seg("seg G8 U8", seg_kernel<8, 8>, 8);
                run_seg("seg G16 U8", seg_kernel<16, 8>, 16);
                CK(cudaFree(d_voff));
                CK(cudaFree(d_vmap));
                CK(cudaFree(d_split));
                CK(cudaFree(d_part));
            }
            CK(cudaFree(d_b));
            CK(cudaFree(d_c));
        }
        CS(cusparseDestroySpMat(ma));
        CK(cudaFree(d_off));
        CK(cudaFree(d_col));
        CK(cudaFree(d_val));
        fflush(stdout);
    }
    CS(cusparseDestroy(h));
    return 0;
}
