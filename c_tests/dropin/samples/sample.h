/* Shared by the sample programs of this folder (scripts/dropin_device_check.sh): each is a tiny
 * cuSPARSE program in the style of NVIDIA's CUDALibrarySamples, compiled against the toolkit's real
 * cusparse.h and linked with -lcusparse. Every CUDA and cuSPARSE status is checked; the values are
 * small integers (or halves), so every expected result is exact in the type and compared with ==.
 * A program prints "PASS <name>" and exits 0, or "FAIL <name>: ..." and exits 1. */
#ifndef OXSPARSE_DROPIN_SAMPLE_H
#define OXSPARSE_DROPIN_SAMPLE_H

#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SAMPLE
#error "define SAMPLE (the program's name) before including sample.h"
#endif

#define CHECK_CUDA(call)                                                                          \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            printf("FAIL %s: %s:%d: %s: %s\n", SAMPLE, __FILE__, __LINE__, #call,               \
                   cudaGetErrorString(e_));                                                       \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

#define CHECK_CUSPARSE(call)                                                                      \
    do {                                                                                          \
        cusparseStatus_t s_ = (call);                                                             \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                      \
            printf("FAIL %s: %s:%d: %s: %s (%s)\n", SAMPLE, __FILE__, __LINE__, #call,           \
                   cusparseGetErrorName(s_), cusparseGetErrorString(s_));                         \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

static int sample_failures = 0;

/* Counts a failed expectation and says which. */
#define EXPECT(cond)                                                                              \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            printf("  %s:%d: expected %s\n", __FILE__, __LINE__, #cond);                          \
            sample_failures++;                                                                    \
        }                                                                                         \
    } while (0)

static inline void expect_f32(const char *what, const float *got, const float *want, int n) {
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("  %s[%d] = %g, expected %g\n", what, i, (double)got[i], (double)want[i]);
            sample_failures++;
        }
}

static inline void expect_f64(const char *what, const double *got, const double *want, int n) {
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("  %s[%d] = %g, expected %g\n", what, i, got[i], want[i]);
            sample_failures++;
        }
}

static inline void expect_i32(const char *what, const int *got, const int *want, int n) {
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("  %s[%d] = %d, expected %d\n", what, i, got[i], want[i]);
            sample_failures++;
        }
}

/* A device copy of n bytes of host memory. */
static inline void *to_device(const void *host, size_t n) {
    void *dev = NULL;
    CHECK_CUDA(cudaMalloc(&dev, n ? n : 1));
    if (n) CHECK_CUDA(cudaMemcpy(dev, host, n, cudaMemcpyHostToDevice));
    return dev;
}

static inline void to_host(void *host, const void *dev, size_t n) {
    CHECK_CUDA(cudaMemcpy(host, dev, n, cudaMemcpyDeviceToHost));
}

/* The verdict: PASS and 0, or FAIL and 1. */
static inline int sample_end(void) {
    if (sample_failures) {
        printf("FAIL %s: %d wrong values\n", SAMPLE, sample_failures);
        return 1;
    }
    printf("PASS %s\n", SAMPLE);
    return 0;
}

#endif
