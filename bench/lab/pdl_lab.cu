// Lab: what programmatic dependent launch (sm_90) saves inside a two-kernel graph shaped like a
// column-major SpMM call: a staging copy (transpose of a K x 128 FP32 column-major matrix), then a
// kernel that first does work independent of the copy (reads of its own input, standing in for
// the row kernel's offsets and entries) and then reads the copy. Three graphs, each captured from
// a stream and replayed: (a) plain edge, (b) programmatic edge, second kernel waiting
// (griddepcontrol.wait) after its independent part, (c) as (b) with the copy triggering its
// dependents at its start (griddepcontrol.launch_dependents). Event time per replay on an idle
// stream, median of 200 after 20 warm-ups.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 -o pdl_lab pdl_lab.cu && ./pdl_lab
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lab_check.cuh"

__device__ __forceinline__ void wait_primary() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void release_dependents() { asm volatile("griddepcontrol.launch_dependents;" :::); }

template <bool TRIGGER>
__global__ void __launch_bounds__(256) stage(const float* src, float* dst, long rows, long cols) {
    if (TRIGGER) release_dependents();
    __shared__ float tile[32][33];
    const long r0 = long(blockIdx.x) * 32, c0 = long(blockIdx.y) * 32;
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    for (int i = ty; i < 32; i += 8) {
        const long r = r0 + tx, c = c0 + i;
        if (r < rows && c < cols) tile[tx][i] = src[r + c * rows];
    }
    __syncthreads();
    for (int i = ty; i < 32; i += 8) {
        const long r = r0 + i, c = c0 + tx;
        if (r < rows && c < cols) dst[r * cols + c] = tile[i][tx];
    }
}

// A thread per output row element group: independent part (gathers `rounds` dependent loads
// through its own index array, like offsets -> entries), then reads the staged rows it names.
template <bool WAIT>
__global__ void __launch_bounds__(256) consume(const int* idx, const float* staged, float* out, long rows, long cols, int rounds) {
    const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= rows * 4) return;
    int j = int(t % rows);
    for (int r = 0; r < rounds; ++r) j = idx[j];
    if (WAIT) wait_primary();
    float s = 0.f;
    for (int c = int(t / rows) * 32; c < int(t / rows) * 32 + 32 && c < cols; ++c) s += staged[long(j) * cols + c];
    out[t] = s;
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main() {
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const long sizes[] = {2405, 11397, 43471};
    printf("%8s %8s %10s %10s %10s %10s\n", "K", "MB", "plain us", "pdl us", "pdl+trig", "check");
    for (long K : sizes) {
        const long N = 128, n = K * N;
        float *src, *dst, *out;
        int* idx;
        CK(cudaMalloc(&src, n * 4));
        CK(cudaMalloc(&dst, n * 4));
        CK(cudaMalloc(&out, K * 4 * 4));
        CK(cudaMalloc(&idx, K * 4));
        std::vector<float> h(n);
        std::vector<int> hi(K);
        for (long i = 0; i < n; ++i) h[i] = float(rand() % 1000) / 1000.f;
        for (long i = 0; i < K; ++i) hi[i] = rand() % K;
        CK(cudaMemcpy(src, h.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(idx, hi.data(), K * 4, cudaMemcpyHostToDevice));
        float times[3];
        std::vector<float> ref;
        bool ok = true;
        for (int mode = 0; mode < 3; ++mode) {
            cudaGraph_t g;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
            dim3 sg((K + 31) / 32, N / 32);
            if (mode == 2)
                stage<true><<<sg, 256, 0, st>>>(src, dst, K, N);
            else
                stage<false><<<sg, 256, 0, st>>>(src, dst, K, N);
            const unsigned blocks = unsigned((K * 4 + 255) / 256);
            if (mode == 0) {
                consume<false><<<blocks, 256, 0, st>>>(idx, dst, out, K, N, 3);
            } else {
                cudaLaunchConfig_t cfg = {};
                cfg.gridDim = blocks;
                cfg.blockDim = 256;
                cfg.stream = st;
                cudaLaunchAttribute at[1];
                at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
                at[0].val.programmaticStreamSerializationAllowed = 1;
                cfg.attrs = at;
                cfg.numAttrs = 1;
                CK(cudaLaunchKernelEx(&cfg, consume<true>, (const int*)idx, (const float*)dst, out, K, N, 3));
            }
            CK(cudaStreamEndCapture(st, &g));
            CK(cudaGraphInstantiate(&ge, g, 0));
            std::vector<float> t;
            for (int it = 0; it < 220; ++it) {
                CK(cudaMemsetAsync(dst, 0xff, 4, st));  // the consumer must see the copy, not this
                CK(cudaStreamSynchronize(st));
                CK(cudaEventRecord(e0, st));
                CK(cudaGraphLaunch(ge, st));
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                if (it >= 20) t.push_back(ms * 1e3f);
            }
            times[mode] = median(t);
            std::vector<float> got(K * 4);
            CK(cudaMemcpy(got.data(), out, K * 16, cudaMemcpyDeviceToHost));
            if (mode == 0)
                ref = got;
            else
                ok = ok && got == ref;
            CK(cudaGraphExecDestroy(ge));
            CK(cudaGraphDestroy(g));
        }
        printf("%8ld %8.1f %10.2f %10.2f %10.2f %10s\n", K, n * 4 / 1e6, times[0], times[1], times[2], ok ? "same" : "DIFFER");
        CK(cudaFree(src));
        CK(cudaFree(dst));
        CK(cudaFree(out));
        CK(cudaFree(idx));
    }
    return 0;
}
