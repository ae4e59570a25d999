/* SpMV, CSR: y = A x + 2 y with A 4 x 4 (9 entries), through SpMV_bufferSize, SpMV_preprocess, SpMV. */
#define SAMPLE "spmv_csr"
#include "sample.h"

int main(void) {
    /* A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] */
    const int offsets[5] = {0, 3, 4, 7, 9};
    const int columns[9] = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    const float values[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const float x[4] = {1, 2, 3, 4}, y0[4] = {1, 2, 3, 4};
    const float want[4] = {21, 12, 57, 60};
    float y[4];
    const float alpha = 1, beta = 2;

    int *dOffsets = to_device(offsets, sizeof offsets), *dColumns = to_device(columns, sizeof columns);
    float *dValues = to_device(values, sizeof values), *dX = to_device(x, sizeof x), *dY = to_device(y0, sizeof y0);

    cusparseHandle_t handle;
    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, 4, 4, 9, dOffsets, dColumns, dValues, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecX, 4, dX, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, 4, dY, CUDA_R_32F));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecX));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(y, dY, sizeof y);
    expect_f32("y", y, want, 4);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dColumns));
    CHECK_CUDA(cudaFree(dValues));
    CHECK_CUDA(cudaFree(dX));
    CHECK_CUDA(cudaFree(dY));
    return sample_end();
}
