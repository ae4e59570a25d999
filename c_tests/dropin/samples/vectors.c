/* The sparse vector routines on x (size 8, entries at 0, 3, 4, 7) and a dense y, each from the same
 * start: Axpby (alpha 2, beta 3), Gather, Scatter, Rot (c 2, s 1), SpVV (result on the host). */
#define SAMPLE "vectors"
#include "sample.h"

static const int indices[4] = {0, 3, 4, 7};
static const float x0[4] = {1, 2, 3, 4};
static const float y0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static float *dX, *dY;

/* x and y as they were at the start. */
static void reset(void) {
    CHECK_CUDA(cudaMemcpy(dX, x0, sizeof x0, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dY, y0, sizeof y0, cudaMemcpyHostToDevice));
}

static void check(const char *what, const float *wantX, const float *wantY) {
    float x[4], y[8];
    CHECK_CUDA(cudaDeviceSynchronize());
    to_host(x, dX, sizeof x);
    to_host(y, dY, sizeof y);
    printf("  %s\n", what);
    expect_f32("x", x, wantX, 4);
    expect_f32("y", y, wantY, 8);
}

int main(void) {
    int *dIndices = to_device(indices, sizeof indices);
    dX = to_device(x0, sizeof x0);
    dY = to_device(y0, sizeof y0);

    cusparseHandle_t handle;
    cusparseSpVecDescr_t vecX;
    cusparseDnVecDescr_t vecY;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateSpVec(&vecX, 8, 4, dIndices, dX, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                       CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, 8, dY, CUDA_R_32F));

    const float alpha = 2, beta = 3;
    CHECK_CUSPARSE(cusparseAxpby(handle, &alpha, vecX, &beta, vecY));
    check("Axpby", x0, (const float[8]){5, 6, 9, 16, 21, 18, 21, 32});

    reset();
    CHECK_CUSPARSE(cusparseGather(handle, vecY, vecX));
    check("Gather", (const float[4]){1, 4, 5, 8}, y0);

    reset();
    CHECK_CUSPARSE(cusparseScatter(handle, vecX, vecY));
    check("Scatter", x0, (const float[8]){1, 2, 3, 2, 3, 6, 7, 4});

    reset();
    const float c = 2, s = 1;
    CHECK_CUSPARSE(cusparseRot(handle, &c, &s, vecX, vecY));
    check("Rot", (const float[4]){3, 8, 11, 16}, (const float[8]){1, 2, 3, 6, 7, 6, 7, 12});

    reset();
    float result = -1;
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(
        cusparseSpVV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, vecX, vecY, &result, CUDA_R_32F, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseSpVV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, vecX, vecY, &result, CUDA_R_32F, buffer));
    check("SpVV", x0, y0);
    EXPECT(result == 56);

    CHECK_CUSPARSE(cusparseDestroySpVec(vecX));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dIndices));
    CHECK_CUDA(cudaFree(dX));
    CHECK_CUDA(cudaFree(dY));
    return sample_end();
}
