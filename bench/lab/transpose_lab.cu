// Lab: how fast can SpMM's staging copy turn a column-major op(B) (K x N, leading dimension K) into
// the row-major scratch the vectorised kernels read? Times the library's kernel as it stands
// (kernels/spmm_stage.cu: 32 x 32 tiles, 4 elements a thread) against taller and wider tiles with
// more elements in flight a thread, and against a plain copy of the same bytes (the ceiling).
// Standalone: nvcc -O3 -arch=sm_90 -o transpose_lab transpose_lab.cu && ./transpose_lab
// Each case: median of 30 event-timed calls after 5 warm-ups, sources rotated over 3 copies.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lab_check.cuh"

// The library's kernel today: 32 x 32 tile, 256 threads, generic strides.
__global__ void __launch_bounds__(256) square(const float* src, float* dst, long rows, long cols, long ld) {
    __shared__ float tile[32][33];
    const long r0 = long(blockIdx.x) * 32, c0 = long(blockIdx.y) * 32;
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    for (int i = ty; i < 32; i += 8) {
        const long r = r0 + tx, c = c0 + i;
        if (r < rows && c < cols) tile[tx][i] = src[r + c * ld];
    }
    __syncthreads();
    for (int i = ty; i < 32; i += 8) {
        const long r = r0 + i, c = c0 + tx;
        if (r < rows && c < cols) dst[r * cols + c] = tile[i][tx];
    }
}

// Load stage of the tall tiles: TR rows x 32 columns of the source into shared memory, reads
// running down the source's columns (TR x 4 bytes contiguous), TR * 32 / 256 elements in flight a
// thread. Returns whether the tile lies wholly inside the matrix.
template <int TR>
__device__ __forceinline__ bool load_tall(float (&tile)[TR][33], const float* src, long rows, long cols, long ld, long r0, long c0) {
    constexpr int PER = TR * 32 / 256;
    const bool full = r0 + TR <= rows && c0 + 32 <= cols;
    float v[PER];
#pragma unroll
    for (int i = 0; i < PER; ++i) {
        const int idx = threadIdx.x + i * 256, r = idx % TR, c = idx / TR;
        v[i] = (full || (r0 + r < rows && c0 + c < cols)) ? src[(r0 + r) + (c0 + c) * ld] : 0.f;
    }
#pragma unroll
    for (int i = 0; i < PER; ++i) {
        const int idx = threadIdx.x + i * 256;
        tile[idx % TR][idx / TR] = v[i];
    }
    __syncthreads();
    return full;
}

// TR rows x 32 columns a block, stores along the scratch's rows (128 bytes).
template <int TR>
__global__ void __launch_bounds__(256) tall(const float* src, float* dst, long rows, long cols, long ld) {
    __shared__ float tile[TR][33];
    const long r0 = long(blockIdx.x) * TR, c0 = long(blockIdx.y) * 32;
    const bool full = load_tall<TR>(tile, src, rows, cols, ld, r0, c0);
#pragma unroll
    for (int i = 0; i < TR * 32 / 256; ++i) {
        const int idx = threadIdx.x + i * 256, c = idx % 32, r = idx / 32;
        if (full || (r0 + r < rows && c0 + c < cols)) dst[(r0 + r) * cols + c0 + c] = tile[r][c];
    }
}

// As `tall`, stores as 16-byte vectors (8 lanes a 128-byte row segment).
template <int TR>
__global__ void __launch_bounds__(256) tall_v4(const float* src, float* dst, long rows, long cols, long ld) {
    __shared__ float tile[TR][33];
    const long r0 = long(blockIdx.x) * TR, c0 = long(blockIdx.y) * 32;
    const bool full = load_tall<TR>(tile, src, rows, cols, ld, r0, c0);
#pragma unroll
    for (int i = 0; i < TR * 32 / 256 / 4; ++i) {
        const int idx = threadIdx.x + i * 256, c = (idx % 8) * 4, r = idx / 8;
        if (full) {
            float4 o = make_float4(tile[r][c], tile[r][c + 1], tile[r][c + 2], tile[r][c + 3]);
            *reinterpret_cast<float4*>(dst + (r0 + r) * cols + c0 + c) = o;
        } else {
            for (int j = 0; j < 4; ++j)
                if (r0 + r < rows && c0 + c + j < cols) dst[(r0 + r) * cols + c0 + c + j] = tile[r][c + j];
        }
    }
}

__global__ void copy_v4(const float4* src, float4* dst, long n4) {
    for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n4; i += long(gridDim.x) * blockDim.x) dst[i] = src[i];
}

typedef void (*Launch)(const float*, float*, long, long, long, cudaStream_t);

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long shapes[][2] = {{258569, 128}, {156317, 128}, {65536, 128}, {43471, 128}, {11397, 128}, {2405, 128}, {258569, 32}, {65536, 256}};
    struct V {
        const char* name;
        Launch f;
    };
    V variants[] = {
        {"square32", [](const float* s, float* d, long r, long c, long ld, cudaStream_t st) { square<<<dim3((r + 31) / 32, (c + 31) / 32), 256, 0, st>>>(s, d, r, c, ld); }},
        {"tall64", [](const float* s, float* d, long r, long c, long ld, cudaStream_t st) { tall<64><<<dim3((r + 63) / 64, (c + 31) / 32), 256, 0, st>>>(s, d, r, c, ld); }},
        {"tall128", [](const float* s, float* d, long r, long c, long ld, cudaStream_t st) { tall<128><<<dim3((r + 127) / 128, (c + 31) / 32), 256, 0, st>>>(s, d, r, c, ld); }},
        {"tall256", [](const float* s, float* d, long r, long c, long ld, cudaStream_t st) { tall<256><<<dim3((r + 255) / 256, (c + 31) / 32), 256, 0, st>>>(s, d, r, c, ld); }},
        {"tall64v4", [](const float* s, float* d, long r, long c, long ld, cudaStream_t st) { tall_v4<64><<<dim3((r + 63) / 64, (c + 31) / 32), 256, 0, st>>>(s, d, r, c, ld); }},
        {"tall128v4", [](const float* s, float* d, long r, long c, long ld, cudaStream_t st) { tall_v4<128><<<dim3((r + 127) / 128, (c + 31) / 32), 256, 0, st>>>(s, d, r, c, ld); }},
        {"copy_v4", [](const float* s, float* d, long r, long c, long, cudaStream_t st) { copy_v4<<<132 * 16, 256, 0, st>>>((const float4*)s, (float4*)d, r * c / 4); }},
    };
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("%-10s %8s %5s %8s", "", "K", "N", "MB");
    for (auto& v : variants) printf(" %10s", v.name);
    printf("   (us; GB/s read+write for the largest)\n");
    for (auto& s : shapes) {
        const long K = s[0], N = s[1], n = K * N;
        float* src[3];
        float* dst;
        for (auto& p : src) CK(cudaMalloc(&p, n * 4));
        CK(cudaMalloc(&dst, n * 4));
        std::vector<float> h(n), back(n);
        for (long i = 0; i < n; ++i) h[i] = float(rand()) / RAND_MAX;
        for (auto& p : src) CK(cudaMemcpy(p, h.data(), n * 4, cudaMemcpyHostToDevice));
        printf("%-10s %8ld %5ld %8.1f", "", K, N, n * 4 / 1e6);
        for (auto& v : variants) {
            // Correctness (the copy is not a transpose).
            CK(cudaMemset(dst, 0xff, n * 4));
            v.f(src[0], dst, K, N, K, st);
            CK(cudaGetLastError());
            CK(cudaStreamSynchronize(st));
            if (v.f != variants[6].f) {
                CK(cudaMemcpy(back.data(), dst, n * 4, cudaMemcpyDeviceToHost));
                for (long r = 0; r < K; ++r)
                    for (long c = 0; c < N; ++c)
                        if (back[r * N + c] != h[r + c * K]) {
                            printf("\n%s wrong at (%ld, %ld)\n", v.name, r, c);
                            exit(1);
                        }
            }
            std::vector<float> t;
            for (int it = 0; it < 35; ++it) {
                CK(cudaEventRecord(e0, st));
                v.f(src[it % 3], dst, K, N, K, st);
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                if (it >= 5) t.push_back(ms * 1e3f);
            }
            const float us = median(t);
            printf(" %6.1f/%4.0f", us, 2.0 * n * 4 / (us * 1e3));
        }
        printf("\n");
        for (auto& p : src) CK(cudaFree(p));
        CK(cudaFree(dst));
    }
    return 0;
}
