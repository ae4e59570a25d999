/* A forwarded family: C = A + 2 B with Scsrgeam2 (Scsrgeam2_bufferSizeExt, Xcsrgeam2Nnz with the
 * count on the host, Scsrgeam2), A and B 3 x 4 CSR, one entry of A cancelled by B. oxsparse does not
 * carry it: under the face it runs on the real cuSPARSE the face finds, over a shadow handle and shadow
 * cusparseMatDescr_t. */
#define SAMPLE "csrgeam2"
#include "sample.h"

int main(void) {
    /* A = [1 0 2 0; 0 3 0 0; 4 0 0 5], B = [0 1 -1 0; 0 0 0 0; 2 0 0 1] */
    const int offsetsA[4] = {0, 2, 3, 5}, columnsA[5] = {0, 2, 1, 0, 3};
    const float valuesA[5] = {1, 2, 3, 4, 5};
    const int offsetsB[4] = {0, 2, 2, 4}, columnsB[4] = {1, 2, 0, 3};
    const float valuesB[4] = {1, -1, 2, 1};
    /* C = [1 2 0 0; 0 3 0 0; 8 0 0 7]: the (0, 2) entry is kept, a stored zero */
    const int wantOffsets[4] = {0, 3, 4, 6}, wantColumns[6] = {0, 1, 2, 1, 0, 3};
    const float wantValues[6] = {1, 2, 0, 3, 8, 7};
    const float alpha = 1, beta = 2;
    int offsets[4], columns[6];
    float values[6];

    int *dOffsetsA = to_device(offsetsA, sizeof offsetsA), *dColumnsA = to_device(columnsA, sizeof columnsA);
    int *dOffsetsB = to_device(offsetsB, sizeof offsetsB), *dColumnsB = to_device(columnsB, sizeof columnsB);
    float *dValuesA = to_device(valuesA, sizeof valuesA), *dValuesB = to_device(valuesB, sizeof valuesB);
    int *dOffsetsC = NULL, *dColumnsC = NULL;
    float *dValuesC = NULL;
    CHECK_CUDA(cudaMalloc((void **)&dOffsetsC, sizeof offsets));

    cusparseHandle_t handle;
    cusparseMatDescr_t descrA, descrB, descrC;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descrA));
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descrB));
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descrC));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseScsrgeam2_bufferSizeExt(handle, 3, 4, &alpha, descrA, 5, dValuesA, dOffsetsA, dColumnsA,
                                                   &beta, descrB, 4, dValuesB, dOffsetsB, dColumnsB, descrC, NULL,
                                                   dOffsetsC, NULL, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    int nnzC = -1;
    CHECK_CUSPARSE(cusparseXcsrgeam2Nnz(handle, 3, 4, descrA, 5, dOffsetsA, dColumnsA, descrB, 4, dOffsetsB, dColumnsB,
                                        descrC, dOffsetsC, &nnzC, buffer));
    EXPECT(nnzC == 6);
    if (nnzC != 6) return sample_end();
    CHECK_CUDA(cudaMalloc((void **)&dColumnsC, sizeof columns));
    CHECK_CUDA(cudaMalloc((void **)&dValuesC, sizeof values));
    CHECK_CUSPARSE(cusparseScsrgeam2(handle, 3, 4, &alpha, descrA, 5, dValuesA, dOffsetsA, dColumnsA, &beta, descrB, 4,
                                     dValuesB, dOffsetsB, dColumnsB, descrC, dValuesC, dOffsetsC, dColumnsC, buffer));
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descrA));
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descrB));
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descrC));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(offsets, dOffsetsC, sizeof offsets);
    to_host(columns, dColumnsC, sizeof columns);
    to_host(values, dValuesC, sizeof values);
    expect_i32("row offsets", offsets, wantOffsets, 4);
    expect_i32("columns", columns, wantColumns, 6);
    expect_f32("values", values, wantValues, 6);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dOffsetsA));
    CHECK_CUDA(cudaFree(dColumnsA));
    CHECK_CUDA(cudaFree(dValuesA));
    CHECK_CUDA(cudaFree(dOffsetsB));
    CHECK_CUDA(cudaFree(dColumnsB));
    CHECK_CUDA(cudaFree(dValuesB));
    CHECK_CUDA(cudaFree(dOffsetsC));
    CHECK_CUDA(cudaFree(dColumnsC));
    CHECK_CUDA(cudaFree(dValuesC));
    return sample_end();
}
