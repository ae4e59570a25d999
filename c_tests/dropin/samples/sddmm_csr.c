/* SDDMM, CSR: C = (A B) o spy(C), A 4 x 3 and B 3 x 4 row-major, C 4 x 4 CSR (9 entries), alpha 1,
 * beta 0, through SDDMM_bufferSize, SDDMM_preprocess and SDDMM (NVIDIA's sddmm_csr sequence). */
#define SAMPLE "sddmm_csr"
#include "sample.h"

int main(void) {
    const float a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; /* 4 x 3 */
    const float b[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; /* 3 x 4 */
    /* spy(C) = [x 0 x x; 0 x 0 0; x 0 x x; 0 x 0 x] */
    const int offsets[5] = {0, 3, 4, 7, 9};
    const int columns[9] = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    const float want[9] = {38, 50, 56, 98, 128, 176, 200, 206, 272};
    float c[9];
    const float alpha = 1, beta = 0;

    float *dA = to_device(a, sizeof a), *dB = to_device(b, sizeof b), *dC = NULL;
    int *dOffsets = to_device(offsets, sizeof offsets), *dColumns = to_device(columns, sizeof columns);
    for (int i = 0; i < 9; i++) c[i] = 7; /* beta is 0: C's old values do not count */
    dC = to_device(c, sizeof c);

    cusparseHandle_t handle;
    cusparseDnMatDescr_t matA, matB;
    cusparseSpMatDescr_t matC;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matA, 4, 3, 3, dA, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matB, 3, 4, 4, dB, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK_CUSPARSE(cusparseCreateCsr(&matC, 4, 4, 9, dOffsets, dColumns, dC, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseSDDMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                            CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, matB, &beta, matC,
                                            CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseSDDMM_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                            CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, matB, &beta, matC,
                                            CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseSDDMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                 matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matB));
    CHECK_CUSPARSE(cusparseDestroySpMat(matC));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(c, dC, sizeof c);
    expect_f32("C values", c, want, 9);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dColumns));
    return sample_end();
}
