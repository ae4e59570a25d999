// Lab: what a CUDA graph conditional node (IF with an ELSE body, CUDA 12.8+) costs against the
// plain call's chain, which launches both branches and lets the losing one return at once.
// Shapes as a plain SpMM call on a hub graph: a verdict kernel (the warp-row build's count), then
//   chain:  verdict -> dead(G blocks, each waits and returns) -> work        (today)
//   cond:   verdict sets the handle -> IF { work } ELSE { dead }              (the question)
//   alone:  verdict -> work                                                   (the floor)
// each with plain edges and with programmatic ones (the kernel after the verdict waiting at its top).
// `work` stands for the live kernel (a few us of memory traffic). Event time per replay on an idle
// stream, as oxsparse-bench times a call, median of 400 after 40 warm-ups; the work's output is
// checked so a skipped body shows.
// Build and run on the GPU machine: bench/lab/cond_lab.sh (cudaGraphSetConditional is in the
// device runtime: -rdc=true, linked with -lcudadevrt).
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lab_check.cuh"

__device__ __forceinline__ void wait_primary() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// The verdict: a grid that reads `len` ints (the row lengths) and marks whether any is long.
__global__ void verdict(const int* lens, int n, int* flag, cudaGraphConditionalHandle h, int set) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int any = 0;
    for (int i = t; i < n; i += gridDim.x * blockDim.x) any |= lens[i] > 32;
    any = __syncthreads_or(any);
    if (threadIdx.x == 0 && any) atomicOr(flag, 1);
    if (set && t == 0) cudaGraphSetConditional(h, 1);  // the lab's verdict is always "long"
}

__global__ void dead(const int* flag, float* out) {
    wait_primary();
    if (*(volatile const int*)flag == 0) out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f;  // never taken
}

__global__ void work(const float* in, float* out, long n, int pdl) {
    if (pdl) wait_primary();
    long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
    for (long i = t; i < n; i += long(gridDim.x) * blockDim.x) out[i] = in[i] * 2.f + 1.f;
}

struct Bufs {
    int* lens;
    int n;
    int* flag;
    float *in, *out;
    long m;
};

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t nd, bool programmatic, void* fn, dim3 grid,
                                  dim3 block, void** args) {
    cudaKernelNodeParams p = {};
    p.func = fn;
    p.gridDim = grid;
    p.blockDim = block;
    p.kernelParams = args;
    cudaGraphNode_t node;
    CK(cudaGraphAddKernelNode(&node, g, nullptr, 0, &p));
    for (size_t i = 0; i < nd; ++i) {
        cudaGraphEdgeData edge = {};
        if (programmatic) {
            edge.from_port = cudaGraphKernelNodePortProgrammatic;
            edge.type = cudaGraphDependencyTypeProgrammatic;
        }
        CK(cudaGraphAddDependencies(g, &deps[i], &node, &edge, 1));
    }
    return node;
}

enum Shape { ALONE, CHAIN, COND };

static float time_graph(Shape shape, bool pdl, int dead_blocks, Bufs& b, float* check) {
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h = 0;
    int set = shape == COND;
    if (set) CK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
    void* vargs[] = {&b.lens, &b.n, &b.flag, &h, &set};
    cudaGraphNode_t v = add_kernel(g, nullptr, 0, false, (void*)verdict, dim3(132), dim3(256), vargs);
    int wpdl = pdl;
    void* wargs[] = {&b.in, &b.out, &b.m, &wpdl};
    void* dargs[] = {&b.flag, &b.out};
    dim3 wgrid(528), blk(256);
    if (shape == ALONE) {
        add_kernel(g, &v, 1, pdl, (void*)work, wgrid, blk, wargs);
    } else if (shape == CHAIN) {
        cudaGraphNode_t d = add_kernel(g, &v, 1, pdl, (void*)dead, dim3(dead_blocks), blk, dargs);
        add_kernel(g, &d, 1, pdl, (void*)work, wgrid, blk, wargs);
    } else {
        cudaGraphNodeParams cp = {};
        cp.type = cudaGraphNodeTypeConditional;
        cp.conditional.handle = h;
        cp.conditional.type = cudaGraphCondTypeIf;
        cp.conditional.size = 2;
        cudaGraphNode_t c;
        CK(cudaGraphAddNode(&c, g, &v, nullptr, 1, &cp));
        cudaGraph_t then_g = cp.conditional.phGraph_out[0], else_g = cp.conditional.phGraph_out[1];
        wpdl = 0;  // a body's first kernel has no programmatic edge to wait on
        add_kernel(then_g, nullptr, 0, false, (void*)work, wgrid, blk, wargs);
        add_kernel(else_g, nullptr, 0, false, (void*)dead, dim3(dead_blocks), blk, dargs);
    }
    cudaGraphExec_t ex;
    CK(cudaGraphInstantiate(&ex, g, 0));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> ts;
    CK(cudaMemsetAsync(b.out, 0, b.m * 4, s));
    for (int i = 0; i < 440; ++i) {
        CK(cudaEventRecord(e0, s));
        CK(cudaGraphLaunch(ex, s));
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= 40) ts.push_back(ms * 1000.f);
    }
    CK(cudaMemcpy(check, b.out + b.m - 1, 4, cudaMemcpyDeviceToHost));
    std::sort(ts.begin(), ts.end());
    CK(cudaGraphExecDestroy(ex));
    CK(cudaGraphDestroy(g));
    CK(cudaStreamDestroy(s));
    return ts[ts.size() / 2];
}

int main() {
    Bufs b;
    b.n = 20000;
    b.m = 1 << 20;  // 4 MB in, 4 MB out
    CK(cudaMalloc(&b.lens, b.n * 4));
    CK(cudaMalloc(&b.flag, 4));
    CK(cudaMalloc(&b.in, b.m * 4));
    CK(cudaMalloc(&b.out, b.m * 4));
    std::vector<int> lens(b.n, 8);
    lens[77] = 5000;
    CK(cudaMemcpy(b.lens, lens.data(), b.n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(b.flag, 0, 4));
    std::vector<float> in(b.m, 0.5f);
    CK(cudaMemcpy(b.in, in.data(), b.m * 4, cudaMemcpyHostToDevice));
    printf("event time per graph replay, us (median of 400); the work's last output (2.0 = ran)\n");
    printf("%-6s %-4s %6s %8s %6s\n", "shape", "pdl", "dead", "us", "out");
    for (int pdl = 0; pdl < 2; ++pdl) {
        for (int dead_blocks : {200, 2000}) {
            for (Shape s : {ALONE, CHAIN, COND}) {
                if (s == ALONE && dead_blocks != 200) continue;
                if (s == COND && pdl) continue;
                float out = 0;
                float us = time_graph(s, pdl, dead_blocks, b, &out);
                printf("%-6s %-4d %6d %8.2f %6.1f\n", s == ALONE ? "alone" : s == CHAIN ? "chain" : "cond", pdl, s == ALONE ? 0 : dead_blocks,
                       us, out);
            }
        }
    }
    return 0;
}
