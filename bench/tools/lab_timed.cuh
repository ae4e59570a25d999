// The launch labs' timing (launch_floor.cu): host time and event-to-event time of
// one call on an idle legacy stream, each call waited for, medians after a warm-up. Standalone
// labs built by their own scripts in this folder (nvcc finds this header beside them).
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

static void lab_rt(cudaError_t r, const char *what, int line) {
    if (r != cudaSuccess) {
        std::printf("%s failed: %s (line %d)\n", what, cudaGetErrorString(r), line);
        std::exit(1);
    }
}
#define LAB_RT(x) lab_rt((x), #x, __LINE__)

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Host us and event us of `call`, median of `runs` after `warmup` calls, each call waited for.
static void timed(const char *what, int runs, const std::function<void()> &call, int warmup = 20) {
    cudaEvent_t a, b;
    LAB_RT(cudaEventCreate(&a));
    LAB_RT(cudaEventCreate(&b));
    for (int i = 0; i < warmup; i++) call();
    LAB_RT(cudaDeviceSynchronize());
    std::vector<double> host, ev;
    for (int i = 0; i < runs; i++) {
        LAB_RT(cudaEventRecord(a, 0));
        auto t0 = std::chrono::steady_clock::now();
        call();
        host.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        LAB_RT(cudaEventRecord(b, 0));
        LAB_RT(cudaEventSynchronize(b));
        float ms;
        LAB_RT(cudaEventElapsedTime(&ms, a, b));
        ev.push_back(ms * 1e3);
    }
    std::printf("%-60s host %6.2f us   event %6.2f us (min %6.2f)\n", what, median(host), median(ev), *std::min_element(ev.begin(), ev.end()));
    LAB_RT(cudaEventDestroy(a));
    LAB_RT(cudaEventDestroy(b));
}
