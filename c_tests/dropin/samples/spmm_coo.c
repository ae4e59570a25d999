/* SpMM, COO: C = 2 A B - C with A 4 x 4 (9 entries, row-sorted), B 4 x 3 and C 4 x 3 row-major. */
#define SAMPLE "spmm_coo"
#include "sample.h"

int main(void) {
    /* A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] */
    const int rows[9] = {0, 0, 0, 1, 2, 2, 2, 3, 3};
    const int columns[9] = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    const float values[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const float b[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const float c0[12] = {0, -1, -2, 1, 0, -1, 2, 1, 0, 3, 2, 1};
    const float want[12] = {90, 103, 116, 31, 40, 49, 232, 269, 306, 241, 276, 311};
    float c[12];
    const float alpha = 2, beta = -1;

    int *dRows = to_device(rows, sizeof rows), *dColumns = to_device(columns, sizeof columns);
    float *dValues = to_device(values, sizeof values), *dB = to_device(b, sizeof b), *dC = to_device(c0, sizeof c0);

    cusparseHandle_t handle;
    cusparseSpMatDescr_t matA;
    cusparseDnMatDescr_t matB, matC;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateCoo(&matA, 4, 4, 9, dRows, dColumns, dValues, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matB, 4, 3, 3, dB, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matC, 4, 3, 3, dC, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &alpha, matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                           &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matB));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matC));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(c, dC, sizeof c);
    expect_f32("C", c, want, 12);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dRows));
    CHECK_CUDA(cudaFree(dColumns));
    CHECK_CUDA(cudaFree(dValues));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
    return sample_end();
}
