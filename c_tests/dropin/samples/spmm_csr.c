/* SpMM, CSR: C = A B with A 4 x 4 (9 entries), B 4 x 3 and C 4 x 3 column-major, alpha 1, beta 0,
 * through SpMM_bufferSize, SpMM_preprocess and SpMM (NVIDIA's spmm_csr sample's sequence). */
#define SAMPLE "spmm_csr"
#include "sample.h"

int main(void) {
    /* A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] */
    const int offsets[5] = {0, 3, 4, 7, 9};
    const int columns[9] = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    const float values[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const float b[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const float want[12] = {19, 8, 51, 52, 43, 24, 123, 120, 67, 40, 195, 188};
    float c[12];
    const float alpha = 1, beta = 0;

    int *dOffsets = to_device(offsets, sizeof offsets), *dColumns = to_device(columns, sizeof columns);
    float *dValues = to_device(values, sizeof values), *dB = to_device(b, sizeof b), *dC = NULL;
    for (int i = 0; i < 12; i++) c[i] = 7; /* beta is 0: C's old values do not count */
    dC = to_device(c, sizeof c);

    cusparseHandle_t handle;
    cusparseSpMatDescr_t matA;
    cusparseDnMatDescr_t matB, matC;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, 4, 4, 9, dOffsets, dColumns, dValues, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matB, 4, 3, 4, dB, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matC, 4, 3, 4, dC, CUDA_R_32F, CUSPARSE_ORDER_COL));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &alpha, matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                           &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseSpMM_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, matB, &beta, matC,
                                           CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matB));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matC));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(c, dC, sizeof c);
    expect_f32("C", c, want, 12);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dColumns));
    CHECK_CUDA(cudaFree(dValues));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
    return sample_end();
}
