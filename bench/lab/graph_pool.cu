// Lab (session 43): a pool of instantiated graphs per kernel, one per parameter block seen,
// against one graph whose node is set again on every call.
//
// Session 32 measured what a call pays for setting its node (`cuGraphExecKernelNodeSetParams`)
// to a block that differs from the last one: ~0.4 us for the set and ~0.6-0.7 us more for the
// launch after it, ~1.1-1.3 us of host time over a launch alone. A call site that cycles among a
// few argument sets (a GNN's layers: one A, several B and C; the bench's rotation over 16 copies)
// pays it on every call. If each argument set kept its own instantiated graph, a call would find
// its graph already set and launch it alone. Question: does launching one of 16 graphs in turn
// cost what launching one graph again costs, and what does instantiating one cost?
//
// Standalone (driver API only): bash bench/lab/graph_pool.sh
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>
#include "lab_timed.cuh"

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { std::printf("%s failed: %d (line %d)\n", #x, (int)r_, __LINE__); std::exit(1); } } while (0)
#define RT(x) do { cudaError_t r_ = (x); if (r_ != cudaSuccess) { std::printf("%s failed: %s\n", #x, cudaGetErrorString(r_)); std::exit(1); } } while (0)

struct Block { unsigned long long w[24]; };  // 192 bytes, as our SpMM parameter block
__global__ void empty_kernel(Block) {}

struct Chain {
    CUgraph g;
    CUgraphExec e;
    std::vector<CUgraphNode> n;
};

static Chain make_chain(const CUDA_KERNEL_NODE_PARAMS &kp, int nodes) {
    Chain c;
    CK(cuGraphCreate(&c.g, 0));
    for (int i = 0; i < nodes; i++) {
        CUgraphNode n;
        CK(cuGraphAddKernelNode(&n, c.g, i ? &c.n.back() : nullptr, i ? 1 : 0, &kp));
        c.n.push_back(n);
    }
    CK(cuGraphInstantiate(&c.e, c.g, 0));
    return c;
}

static void drop(Chain &c) {
    CK(cuGraphExecDestroy(c.e));
    CK(cuGraphDestroy(c.g));
}

static void round_of(CUfunction f, int blocks, int nodes, int copies) {
    std::vector<Block> blk(copies);
    for (int i = 0; i < copies; i++)
        for (int w = 0; w < 24; w++) blk[i].w[w] = w < 10 ? 0x7f0000000000ull + (unsigned long long)i * 0x100000 + w * 64 : 3;
    std::vector<void *> argp(copies);
    for (int i = 0; i < copies; i++) argp[i] = &blk[i];
    CUDA_KERNEL_NODE_PARAMS kp = {};
    kp.func = f;
    kp.gridDimX = blocks;
    kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 256;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = &argp[0];
    auto kpi = [&](int i) { CUDA_KERNEL_NODE_PARAMS k = kp; k.kernelParams = &argp[i]; return k; };
    char what[160];
    int next = 0;

    // One graph, every node set to the call's block (what the library does now).
    Chain one = make_chain(kp, nodes);
    std::snprintf(what, sizeof what, "[%4d blocks, %d node(s)] one graph, launch only", blocks, nodes);
    timed(what, 600, [&] { CK(cuGraphLaunch(one.e, 0)); }, 40);
    std::snprintf(what, sizeof what, "[%4d blocks, %d node(s)] one graph, set 1 of %d + launch", blocks, nodes, copies);
    timed(what, 600, [&] {
        auto k = kpi(next);
        next = (next + 1) % copies;
        for (auto n : one.n) CK(cuGraphExecKernelNodeSetParams(one.e, n, &k));
        CK(cuGraphLaunch(one.e, 0));
    }, 40);

    // A pool: one graph per block, each set once; the calls launch the one that matches.
    std::vector<Chain> pool;
    std::vector<double> inst;
    for (int i = 0; i < copies; i++) {
        auto t0 = std::chrono::steady_clock::now();
        pool.push_back(make_chain(kpi(i), nodes));
        inst.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    std::snprintf(what, sizeof what, "[%4d blocks, %d node(s)] pool of %d, launch 1 in turn", blocks, nodes, copies);
    timed(what, 600, [&] {
        CK(cuGraphLaunch(pool[next].e, 0));
        next = (next + 1) % copies;
    }, 40);
    std::printf("%-60s host %6.2f us (median of %d)\n", "   creating + instantiating one graph of the pool", median(inst), copies);
    // The first launch of a fresh graph (its upload), then later ones.
    Chain fresh = make_chain(kpi(0), nodes);
    timed("   a fresh graph's first launch (then its later ones)", 1, [&] { CK(cuGraphLaunch(fresh.e, 0)); }, 40);
    drop(fresh);
    {
        Chain f2 = make_chain(kpi(0), nodes);
        cudaEvent_t a, b;
        RT(cudaEventCreate(&a));
        RT(cudaEventCreate(&b));
        RT(cudaDeviceSynchronize());
        RT(cudaEventRecord(a, 0));
        auto t0 = std::chrono::steady_clock::now();
        CK(cuGraphLaunch(f2.e, 0));
        double host = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        RT(cudaEventRecord(b, 0));
        RT(cudaEventSynchronize(b));
        float ms;
        RT(cudaEventElapsedTime(&ms, a, b));
        std::printf("%-60s host %6.2f us   event %6.2f us\n", "   a fresh graph's very first launch", host, ms * 1e3);
        RT(cudaEventDestroy(a));
        RT(cudaEventDestroy(b));
        drop(f2);
    }
    for (auto &c : pool) drop(c);
    drop(one);
}

int main() {
    RT(cudaFree(0));
    CUfunction f;
    RT(cudaGetFuncBySymbol((cudaFunction_t *)&f, (const void *)empty_kernel));
    for (int round = 0; round < 2; round++) {
        std::printf("-- round %d\n", round);
        for (int nodes : {1, 2, 3})
            for (int blocks : {1, 1000}) round_of(f, blocks, nodes, 16);
        round_of(f, 1000, 1, 64);
    }
    return 0;
}
