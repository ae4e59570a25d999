// Lab: how much of a small call's time is ours? Times, on an idle legacy stream, the host time
// and the event-to-event time of (a) one empty kernel launched through the driver API with a
// parameter block like ours, (b) the driver calls our launch path makes around it, and (c)
// oxsparseSpMV / oxsparseSpMM on a small random matrix, plain and preprocessed. The bench's small
// cases take event time = host time before the launch + launch latency + the kernel; (a) is the
// floor of the first two; (d, session 19) the same kernel through one- and two-node CUDA graphs.
// Session 32, as the first argument: "rotation" (the library's calls over 16 copies of their
// operands, as the bench rotates them), "driver" (a graph node set to the same or to rotating
// parameter blocks), "params" (what a changed node costs by block size and changed words).
// Standalone: nvcc on the GPU machine, linked against the carried library.
#include <cuda.h>
#include <cuda_runtime.h>
#include <oxsparse.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <random>
#include <vector>
#include "lab_timed.cuh"

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { std::printf("%s failed: %d (line %d)\n", #x, (int)r_, __LINE__); std::exit(1); } } while (0)
#define RT(x) do { cudaError_t r_ = (x); if (r_ != cudaSuccess) { std::printf("%s failed: %s\n", #x, cudaGetErrorString(r_)); std::exit(1); } } while (0)
#define OX(x) do { oxsparseStatus_t s_ = (x); if (s_ != 0) { std::printf("%s failed: status %d\n", #x, (int)s_); std::exit(1); } } while (0)

struct Block { unsigned long long w[24]; };  // 192 bytes, the size of our SpMM parameter block
__global__ void empty_kernel(Block) {}
__global__ void small_kernel(unsigned long long) {}
__global__ void noarg_kernel() {}
__global__ void touch_kernel(Block b) {
    if (threadIdx.x == 0 && blockIdx.x == 0 && b.w[0]) *(int *)b.w[0] = 1;
}


// Host us of one launch on `stream`, median of 400, each waited for (the wait not counted).
static void launch_host(const char *what, CUstream stream, const std::function<void()> &call) {
    std::vector<double> host;
    for (int i = 0; i < 420; i++) {
        auto t0 = std::chrono::steady_clock::now();
        call();
        double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        if (i >= 20) host.push_back(us);
        CK(cuStreamSynchronize(stream));
    }
    std::printf("%-52s host %6.2f us\n", what, median(host));
}

// Host ns per call of a cheap driver call, median over batches.
static void host_only(const char *what, const std::function<void()> &call) {
    std::vector<double> per;
    for (int r = 0; r < 21; r++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 1000; i++) call();
        per.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 1000);
    }
    std::printf("%-52s host %8.1f ns\n", what, median(per));
}

// Session 32: does the cost of launching a node whose parameters changed grow with the size of
// its parameter block, or with how many words changed?
template <int W> struct Words { unsigned long long w[W]; };
template <int W> __global__ void words_kernel(Words<W>) {}
template <int W> static void param_size(int changed) {
    CUfunction f;
    RT(cudaGetFuncBySymbol((cudaFunction_t *)&f, (const void *)words_kernel<W>));
    std::vector<Words<W>> blk(16);
    for (int i = 0; i < 16; i++)
        for (int w = 0; w < W; w++) blk[i].w[w] = w < changed ? 0x7f0000000000ull + (unsigned long long)i * 0x100000 + w * 64 : 7;
    std::vector<void *> argp(16);
    for (int i = 0; i < 16; i++) argp[i] = &blk[i];
    CUDA_KERNEL_NODE_PARAMS kp = {};
    kp.func = f;
    kp.gridDimX = 100;
    kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 256;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = &argp[0];
    CUgraph g;
    CUgraphExec e;
    CUgraphNode n;
    CK(cuGraphCreate(&g, 0));
    CK(cuGraphAddKernelNode(&n, g, nullptr, 0, &kp));
    CK(cuGraphInstantiate(&e, g, 0));
    int next = 0;
    char what[128];
    std::snprintf(what, sizeof what, "%3d-byte block, %2d words change: set + launch", 8 * W, changed);
    timed(what, 1000, [&] {
        CUDA_KERNEL_NODE_PARAMS k = kp;
        k.kernelParams = &argp[next];
        next = (next + 1) % 16;
        CK(cuGraphExecKernelNodeSetParams(e, n, &k));
        CK(cuGraphLaunch(e, 0));
    });
    CK(cuCtxSynchronize());
    CK(cuGraphExecDestroy(e));
    CK(cuGraphDestroy(g));
}

// Session 32: the driver alone. A one-node graph of a 192-byte-parameter kernel: launched as is,
// its node set to the same block each time, set to one of 16 blocks in turn (the bench's rotation),
// and the same for a two-node chain.
static void driver_rotation(CUfunction f, int blocks) {
    std::vector<Block> blk(16);
    for (int i = 0; i < 16; i++)
        for (int w = 0; w < 24; w++) blk[i].w[w] = 0;
    for (int i = 0; i < 16; i++)
        for (int w = 1; w < 8; w++) blk[i].w[w] = 0x7f0000000000ull + (unsigned long long)i * 0x100000 + w * 64;
    std::vector<void *> argv(16);
    std::vector<void *> argp(16);
    for (int i = 0; i < 16; i++) argp[i] = &blk[i];
    CUDA_KERNEL_NODE_PARAMS kp = {};
    kp.func = f;
    kp.gridDimX = blocks;
    kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 256;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = &argp[0];
    CUgraph g1, g2;
    CUgraphExec e1, e2;
    CUgraphNode n1, na, nb;
    CK(cuGraphCreate(&g1, 0));
    CK(cuGraphAddKernelNode(&n1, g1, nullptr, 0, &kp));
    CK(cuGraphInstantiate(&e1, g1, 0));
    CK(cuGraphCreate(&g2, 0));
    CK(cuGraphAddKernelNode(&na, g2, nullptr, 0, &kp));
    CK(cuGraphAddKernelNode(&nb, g2, &na, 1, &kp));
    CK(cuGraphInstantiate(&e2, g2, 0));
    char what[128];
    int next = 0;
    auto kpi = [&](int i) { CUDA_KERNEL_NODE_PARAMS k = kp; k.kernelParams = &argp[i]; return k; };
    std::snprintf(what, sizeof what, "[%d blocks] 1 node: launch only", blocks);
    timed(what, 400, [&] { CK(cuGraphLaunch(e1, 0)); });
    std::snprintf(what, sizeof what, "[%d blocks] 1 node: set same + launch", blocks);
    timed(what, 400, [&] { auto k = kpi(0); CK(cuGraphExecKernelNodeSetParams(e1, n1, &k)); CK(cuGraphLaunch(e1, 0)); });
    std::snprintf(what, sizeof what, "[%d blocks] 1 node: set 1 of 16 rotating + launch", blocks);
    timed(what, 400, [&] { auto k = kpi(next); next = (next + 1) % 16; CK(cuGraphExecKernelNodeSetParams(e1, n1, &k)); CK(cuGraphLaunch(e1, 0)); });
    std::snprintf(what, sizeof what, "[%d blocks] 2 nodes: launch only", blocks);
    timed(what, 400, [&] { CK(cuGraphLaunch(e2, 0)); });
    std::snprintf(what, sizeof what, "[%d blocks] 2 nodes: set both rotating + launch", blocks);
    timed(what, 400, [&] { auto k = kpi(next); next = (next + 1) % 16; CK(cuGraphExecKernelNodeSetParams(e2, na, &k)); CK(cuGraphExecKernelNodeSetParams(e2, nb, &k)); CK(cuGraphLaunch(e2, 0)); });
    std::snprintf(what, sizeof what, "[%d blocks] 2 nodes: set second rotating + launch", blocks);
    timed(what, 400, [&] { auto k = kpi(next); next = (next + 1) % 16; CK(cuGraphExecKernelNodeSetParams(e2, nb, &k)); CK(cuGraphLaunch(e2, 0)); });
    // host time of the set alone, no launch (batches of 1000)
    std::snprintf(what, sizeof what, "[%d blocks] set alone, rotating", blocks);
    host_only(what, [&] { auto k = kpi(next); next = (next + 1) % 16; CK(cuGraphExecKernelNodeSetParams(e1, n1, &k)); });
    std::snprintf(what, sizeof what, "[%d blocks] set alone, same", blocks);
    host_only(what, [&] { auto k = kpi(0); CK(cuGraphExecKernelNodeSetParams(e1, n1, &k)); });
    CK(cuCtxSynchronize());
    CK(cuGraphExecDestroy(e1));
    CK(cuGraphExecDestroy(e2));
    CK(cuGraphDestroy(g1));
    CK(cuGraphDestroy(g2));
}

// Session 32: does a call's host time depend on rotating among copies of its operands (the bench
// rotates 16 copies, each with its own descriptors, buffers and preprocessed workspace) or on the
// problem's size? "rotation" part: SpMM FP32 N=32, preprocessed, m x m with 8 random entries a row.
static void rotation(int m, int copies, bool col_major) {
    const int per = 8, nnz = m * per, n = 32;
    std::mt19937 rng(11);
    std::vector<int> off(m + 1), col(nnz);
    std::vector<float> val(nnz), bh((size_t)m * n);
    for (int i = 0; i <= m; i++) off[i] = i * per;
    for (int e = 0; e < nnz; e++) { col[e] = rng() % m; val[e] = (rng() % 1000) / 500.0f - 1; }
    for (int i = 0; i < m; i++) std::sort(col.begin() + off[i], col.begin() + off[i + 1]);
    for (auto &v : bh) v = (rng() % 1000) / 500.0f - 1;
    oxsparseHandle_t h;
    OX(oxsparseCreate(&h));
    struct Copy { oxsparseSpMatDescr_t a; oxsparseDnMatDescr_t b, c; void *buf; std::vector<void *> mem; };
    std::vector<Copy> cs(copies);
    float alpha = 0.7f, beta = 0.0f;
    const auto NT = OXSPARSE_OPERATION_NON_TRANSPOSE;
    const auto order = col_major ? OXSPARSE_ORDER_COL : OXSPARSE_ORDER_ROW;
    const int64_t ld = col_major ? m : n;
    for (auto &c : cs) {
        int *d_off, *d_col;
        float *d_val, *d_b, *d_c;
        RT(cudaMalloc(&d_off, 4 * (m + 1)));
        RT(cudaMalloc(&d_col, 4 * nnz));
        RT(cudaMalloc(&d_val, 4 * nnz));
        RT(cudaMalloc(&d_b, 4 * (size_t)m * n));
        RT(cudaMalloc(&d_c, 4 * (size_t)m * n));
        RT(cudaMemcpy(d_off, off.data(), 4 * (m + 1), cudaMemcpyHostToDevice));
        RT(cudaMemcpy(d_col, col.data(), 4 * nnz, cudaMemcpyHostToDevice));
        RT(cudaMemcpy(d_val, val.data(), 4 * nnz, cudaMemcpyHostToDevice));
        RT(cudaMemcpy(d_b, bh.data(), 4 * (size_t)m * n, cudaMemcpyHostToDevice));
        OX(oxsparseCreateCsr(&c.a, m, m, nnz, d_off, d_col, d_val, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
        OX(oxsparseCreateDnMat(&c.b, m, n, ld, d_b, CUDA_R_32F, order));
        OX(oxsparseCreateDnMat(&c.c, m, n, ld, d_c, CUDA_R_32F, order));
        size_t bytes = 0;
        OX(oxsparseSpMM_bufferSize(h, NT, NT, &alpha, c.a, c.b, &beta, c.c, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, &bytes));
        RT(cudaMalloc(&c.buf, bytes + 256));
        OX(oxsparseSpMM_preprocess(h, NT, NT, &alpha, c.a, c.b, &beta, c.c, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, c.buf));
        c.mem = {d_off, d_col, d_val, d_b, d_c, c.buf};
    }
    RT(cudaDeviceSynchronize());
    char what[128];
    for (int k : {1, 2, copies}) {
        int next = 0;
        std::snprintf(what, sizeof what, "SpMM %s m=%d, %d of %d copies", col_major ? "col" : "row", m, k, copies);
        timed(what, 400, [&] {
            Copy &c = cs[next];
            next = (next + 1) % k;
            OX(oxsparseSpMM(h, NT, NT, &alpha, c.a, c.b, &beta, c.c, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, c.buf));
        });
    }
    for (auto &c : cs) {
        OX(oxsparseDestroySpMat(c.a));
        OX(oxsparseDestroyDnMat(c.b));
        OX(oxsparseDestroyDnMat(c.c));
        for (void *p : c.mem) RT(cudaFree(p));
    }
    OX(oxsparseDestroy(h));
}

int main(int argc, char **argv) {
    if (argc > 1 && std::string(argv[1]) == "params") {
        RT(cudaFree(0));
        for (int round = 0; round < 3; round++) {
            std::printf("-- round %d\n", round);
            param_size<8>(0); param_size<8>(2); param_size<8>(8);
            param_size<16>(0); param_size<16>(2); param_size<16>(8); param_size<16>(16);
            param_size<24>(0); param_size<24>(2); param_size<24>(8); param_size<24>(24);
            param_size<48>(0); param_size<48>(2); param_size<48>(8); param_size<48>(48);
        }
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "driver") {
        RT(cudaFree(0));
        CUfunction f;
        RT(cudaGetFuncBySymbol((cudaFunction_t *)&f, (const void *)empty_kernel));
        for (int round = 0; round < 2; round++)
            for (int blocks : {1, 1000}) driver_rotation(f, blocks);
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "rotation") {
        RT(cudaFree(0));
        for (int round = 0; round < 2; round++)
            for (int m : {4096, 65536})
                for (bool cm : {false, true}) rotation(m, 16, cm);
        std::printf("launch_floor: done\n");
        return 0;
    }
    // "oxsparse": only the library calls (A/B of library builds, bench/tools/launch_ab.sh).
    const bool only_ox = argc > 1 && std::string(argv[1]) == "oxsparse";
    RT(cudaFree(0));
    CUcontext ctx;
    CK(cuCtxGetCurrent(&ctx));
    CUfunction fe, ft;
    RT(cudaGetFuncBySymbol((cudaFunction_t *)&fe, (const void *)empty_kernel));
    RT(cudaGetFuncBySymbol((cudaFunction_t *)&ft, (const void *)touch_kernel));
    int *flag;
    RT(cudaMalloc(&flag, 4));
    Block blk = {};
    void *args[] = {&blk};
    const int runs = 400;

    if (!only_ox) {
    std::printf("== floor\n");
    timed("cuLaunchKernel empty, 1 block", runs, [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, 0, args, nullptr)); });
    timed("cuLaunchKernel empty, 1000 blocks", runs, [&] { CK(cuLaunchKernel(fe, 1000, 1, 1, 256, 1, 1, 0, 0, args, nullptr)); });
    blk.w[0] = (unsigned long long)flag;
    timed("cuLaunchKernel touch, 1000 blocks", runs, [&] { CK(cuLaunchKernel(ft, 1000, 1, 1, 256, 1, 1, 0, 0, args, nullptr)); });
    timed("two launches (touch, empty)", runs, [&] {
        CK(cuLaunchKernel(ft, 1000, 1, 1, 256, 1, 1, 0, 0, args, nullptr));
        CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, 0, args, nullptr));
    });
    timed("nothing", runs, [&] {});
    CUfunction fs, fn;
    RT(cudaGetFuncBySymbol((cudaFunction_t *)&fs, (const void *)small_kernel));
    RT(cudaGetFuncBySymbol((cudaFunction_t *)&fn, (const void *)noarg_kernel));
    unsigned long long word = 0;
    void *sargs[] = {&word};
    timed("cuLaunchKernel 8-byte argument", runs, [&] { CK(cuLaunchKernel(fs, 1, 1, 1, 256, 1, 1, 0, 0, sargs, nullptr)); });
    timed("cuLaunchKernel no argument", runs, [&] { CK(cuLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, 0, nullptr, nullptr)); });
    size_t bsize = sizeof(Block);
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &blk, CU_LAUNCH_PARAM_BUFFER_SIZE, &bsize, CU_LAUNCH_PARAM_END};
    timed("cuLaunchKernel 192 B through extra", runs, [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, 0, nullptr, extra)); });
    timed("cudaLaunchKernel 192 B", runs, [&] { RT(cudaLaunchKernel((const void *)empty_kernel, dim3(1), dim3(256), args, 0, 0)); });
    timed("<<<>>> 192 B", runs, [&] { empty_kernel<<<1, 256>>>(blk); });
    CUstream s_nb, s_bl;
    CK(cuStreamCreate(&s_nb, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&s_bl, CU_STREAM_DEFAULT));
    // on another stream the events on the legacy stream do not bracket it; host time only matters
    launch_host("cuLaunchKernel 192 B, non-blocking stream", s_nb, [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, s_nb, args, nullptr)); });
    launch_host("cuLaunchKernel 192 B, blocking stream", s_bl, [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, s_bl, args, nullptr)); });
    launch_host("cuLaunchKernel 192 B, legacy stream", 0, [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, 0, args, nullptr)); });
    launch_host("cuLaunchKernel 192 B, per-thread stream", CU_STREAM_PER_THREAD, [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, CU_STREAM_PER_THREAD, args, nullptr)); });
    launch_host("cuLaunchKernel 8 B, non-blocking stream", s_nb, [&] { CK(cuLaunchKernel(fs, 1, 1, 1, 256, 1, 1, 0, s_nb, sargs, nullptr)); });
    RT(cudaDeviceSynchronize());

    // Session 18: is a graph launch cheaper on the host than a kernel launch here? A one-node graph
    // (the kernel a call would launch), its parameters set again before each launch (as a call with
    // new pointers would), and a two-node graph against two launches (the column-major staging).
    std::printf("== graphs\n");
    {
        CUgraph g1, g2;
        CUgraphExec e1, e2;
        CUgraphNode n1, n2a, n2b;
        CUDA_KERNEL_NODE_PARAMS kp = {};
        kp.func = fe;
        kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
        kp.blockDimX = 256;
        kp.blockDimY = kp.blockDimZ = 1;
        kp.kernelParams = args;
        CK(cuGraphCreate(&g1, 0));
        CK(cuGraphAddKernelNode(&n1, g1, nullptr, 0, &kp));
        CK(cuGraphInstantiate(&e1, g1, 0));
        timed("cuGraphLaunch, one empty kernel", runs, [&] { CK(cuGraphLaunch(e1, 0)); });
        timed("cuGraphExecKernelNodeSetParams + cuGraphLaunch", runs, [&] {
            CK(cuGraphExecKernelNodeSetParams(e1, n1, &kp));
            CK(cuGraphLaunch(e1, 0));
        });
        CUDA_KERNEL_NODE_PARAMS kt = kp;
        kt.func = ft;
        kt.gridDimX = 1000;
        CK(cuGraphCreate(&g2, 0));
        CK(cuGraphAddKernelNode(&n2a, g2, nullptr, 0, &kt));
        CK(cuGraphAddKernelNode(&n2b, g2, &n2a, 1, &kp));
        CK(cuGraphInstantiate(&e2, g2, 0));
        timed("cuGraphLaunch, two nodes (touch, empty)", runs, [&] { CK(cuGraphLaunch(e2, 0)); });
        timed("two SetParams + cuGraphLaunch, two nodes", runs, [&] {
            CK(cuGraphExecKernelNodeSetParams(e2, n2a, &kt));
            CK(cuGraphExecKernelNodeSetParams(e2, n2b, &kp));
            CK(cuGraphLaunch(e2, 0));
        });
        // Host time per launch when launches are not waited for one by one (a loop of calls).
        std::vector<double> per;
        for (int r = 0; r < 11; r++) {
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < 200; i++) CK(cuLaunchKernel(fe, 1, 1, 1, 256, 1, 1, 0, 0, args, nullptr));
            per.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 200);
            CK(cuCtxSynchronize());
        }
        std::printf("%-52s host %6.2f us\n", "cuLaunchKernel, 200 back to back (per launch)", median(per));
        CK(cuGraphExecDestroy(e1));
        CK(cuGraphExecDestroy(e2));
        CK(cuGraphDestroy(g1));
        CK(cuGraphDestroy(g2));
    }

    std::printf("== driver calls on our path\n");
    host_only("cuCtxGetCurrent", [&] { CUcontext c; CK(cuCtxGetCurrent(&c)); });
    host_only("cuCtxGetId", [&] { unsigned long long id; CK(cuCtxGetId(ctx, &id)); });
    host_only("cuPointerGetAttribute(BUFFER_ID)", [&] { unsigned long long id; CK(cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, (CUdeviceptr)flag)); });
    host_only("cuStreamIsCapturing(legacy)", [&] { CUstreamCaptureStatus s; CK(cuStreamIsCapturing(0, &s)); });

    }

    // A small random matrix: m x m, 8 entries per row, random columns and values.
    const int m = 4096, per = 8, nnz = m * per, n = 32;
    std::mt19937 rng(7);
    std::vector<int> off(m + 1), col(nnz);
    std::vector<float> val(nnz), x(m * n);
    for (int i = 0; i <= m; i++) off[i] = i * per;
    for (int e = 0; e < nnz; e++) { col[e] = rng() % m; val[e] = (rng() % 1000) / 500.0f - 1; }
    std::sort(col.begin(), col.end());  // per row sortedness does not matter for timing
    for (auto &v : x) v = (rng() % 1000) / 500.0f - 1;
    int *d_off, *d_col;
    float *d_val, *d_x, *d_y, *d_b, *d_c;
    RT(cudaMalloc(&d_off, 4 * (m + 1)));
    RT(cudaMalloc(&d_col, 4 * nnz));
    RT(cudaMalloc(&d_val, 4 * nnz));
    RT(cudaMalloc(&d_x, 4 * m));
    RT(cudaMalloc(&d_y, 4 * m));
    RT(cudaMalloc(&d_b, 4 * m * n));
    RT(cudaMalloc(&d_c, 4 * m * n));
    RT(cudaMemcpy(d_off, off.data(), 4 * (m + 1), cudaMemcpyHostToDevice));
    RT(cudaMemcpy(d_col, col.data(), 4 * nnz, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(d_val, val.data(), 4 * nnz, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(d_x, x.data(), 4 * m, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(d_b, x.data(), 4 * m * n, cudaMemcpyHostToDevice));

    oxsparseHandle_t h;
    OX(oxsparseCreate(&h));
    oxsparseSpMatDescr_t A;
    oxsparseDnVecDescr_t X, Y;
    oxsparseDnMatDescr_t B, C;
    OX(oxsparseCreateCsr(&A, m, m, nnz, d_off, d_col, d_val, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    OX(oxsparseCreateDnVec(&X, m, d_x, CUDA_R_32F));
    OX(oxsparseCreateDnVec(&Y, m, d_y, CUDA_R_32F));
    OX(oxsparseCreateDnMat(&B, m, n, n, d_b, CUDA_R_32F, OXSPARSE_ORDER_ROW));
    OX(oxsparseCreateDnMat(&C, m, n, n, d_c, CUDA_R_32F, OXSPARSE_ORDER_ROW));
    float alpha = 0.7f, beta = 0.0f;
    const auto NT = OXSPARSE_OPERATION_NON_TRANSPOSE;
    size_t mv_bytes = 0, mm_bytes = 0;
    OX(oxsparseSpMV_bufferSize(h, NT, &alpha, A, X, &beta, Y, CUDA_R_32F, OXSPARSE_SPMV_ALG_DEFAULT, &mv_bytes));
    OX(oxsparseSpMM_bufferSize(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, &mm_bytes));
    void *mv_buf, *mm_buf;
    RT(cudaMalloc(&mv_buf, mv_bytes + 256));
    RT(cudaMalloc(&mm_buf, mm_bytes + 256));

    std::printf("== oxsparse, %d x %d, %d entries, FP32 (SpMM N=%d row-major)\n", m, m, nnz, n);
    timed("oxsparseSpMV plain", runs, [&] { OX(oxsparseSpMV(h, NT, &alpha, A, X, &beta, Y, CUDA_R_32F, OXSPARSE_SPMV_ALG_DEFAULT, mv_buf)); });
    timed("oxsparseSpMM plain", runs, [&] { OX(oxsparseSpMM(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, mm_buf)); });
    OX(oxsparseSpMV_preprocess(h, NT, &alpha, A, X, &beta, Y, CUDA_R_32F, OXSPARSE_SPMV_ALG_DEFAULT, mv_buf));
    OX(oxsparseSpMM_preprocess(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, mm_buf));
    timed("oxsparseSpMV preprocessed", runs, [&] { OX(oxsparseSpMV(h, NT, &alpha, A, X, &beta, Y, CUDA_R_32F, OXSPARSE_SPMV_ALG_DEFAULT, mv_buf)); });
    timed("oxsparseSpMM preprocessed", runs, [&] { OX(oxsparseSpMM(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, mm_buf)); });
    // Column-major B and C: op(B) staged into the workspace, then the kernel (two launches).
    oxsparseDnMatDescr_t Bc, Cc;
    OX(oxsparseCreateDnMat(&Bc, m, n, m, d_b, CUDA_R_32F, OXSPARSE_ORDER_COL));
    OX(oxsparseCreateDnMat(&Cc, m, n, m, d_c, CUDA_R_32F, OXSPARSE_ORDER_COL));
    size_t col_bytes = 0;
    OX(oxsparseSpMM_bufferSize(h, NT, NT, &alpha, A, Bc, &beta, Cc, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, &col_bytes));
    void *col_buf;
    RT(cudaMalloc(&col_buf, col_bytes + 256));
    OX(oxsparseSpMM_preprocess(h, NT, NT, &alpha, A, Bc, &beta, Cc, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, col_buf));
    timed("oxsparseSpMM column-major preprocessed", runs, [&] { OX(oxsparseSpMM(h, NT, NT, &alpha, A, Bc, &beta, Cc, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, col_buf)); });
    OX(oxsparseDestroyDnMat(Bc));
    OX(oxsparseDestroyDnMat(Cc));
    timed("oxsparseSpMV_bufferSize (host work only)", runs, [&] { OX(oxsparseSpMV_bufferSize(h, NT, &alpha, A, X, &beta, Y, CUDA_R_32F, OXSPARSE_SPMV_ALG_DEFAULT, &mv_bytes)); });
    timed("oxsparseSpMM_bufferSize (host work only)", runs, [&] { OX(oxsparseSpMM_bufferSize(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F, OXSPARSE_SPMM_ALG_DEFAULT, &mm_bytes)); });
    OX(oxsparseDestroySpMat(A));
    OX(oxsparseDestroyDnVec(X));
    OX(oxsparseDestroyDnVec(Y));
    OX(oxsparseDestroyDnMat(B));
    OX(oxsparseDestroyDnMat(C));
    OX(oxsparseDestroy(h));
    std::printf("launch_floor: done\n");
    return 0;
}
