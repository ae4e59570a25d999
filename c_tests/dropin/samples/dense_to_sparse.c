/* DenseToSparse: a 4 x 5 row-major dense matrix into CSR, in NVIDIA's dense2sparse_csr order:
 * CreateCsr with no columns or values, _bufferSize, _analysis, SpMatGetSize for the entry count,
 * CsrSetPointers, _convert. */
#define SAMPLE "dense_to_sparse"
#include "sample.h"

int main(void) {
    /* D = [1 0 2 0 3; 0 4 0 0 0; 5 0 0 6 7; 0 8 0 9 0] */
    const float dense[20] = {1, 0, 2, 0, 3, 0, 4, 0, 0, 0, 5, 0, 0, 6, 7, 0, 8, 0, 9, 0};
    const int wantOffsets[5] = {0, 3, 4, 7, 9};
    const int wantColumns[9] = {0, 2, 4, 1, 0, 3, 4, 1, 3};
    const float wantValues[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    int offsets[5], columns[9];
    float values[9];

    float *dDense = to_device(dense, sizeof dense), *dValues = NULL;
    int *dOffsets = NULL, *dColumns = NULL;
    CHECK_CUDA(cudaMalloc((void **)&dOffsets, sizeof offsets));

    cusparseHandle_t handle;
    cusparseDnMatDescr_t matD;
    cusparseSpMatDescr_t matA;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matD, 4, 5, 5, dDense, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, 4, 5, 0, dOffsets, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseDenseToSparse_bufferSize(handle, matD, matA, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseDenseToSparse_analysis(handle, matD, matA, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
    int64_t rows = 0, cols = 0, nnz = 0;
    CHECK_CUSPARSE(cusparseSpMatGetSize(matA, &rows, &cols, &nnz));
    EXPECT(rows == 4 && cols == 5 && nnz == 9);
    if (nnz != 9) return sample_end();
    CHECK_CUDA(cudaMalloc((void **)&dColumns, sizeof columns));
    CHECK_CUDA(cudaMalloc((void **)&dValues, sizeof values));
    CHECK_CUSPARSE(cusparseCsrSetPointers(matA, dOffsets, dColumns, dValues));
    CHECK_CUSPARSE(cusparseDenseToSparse_convert(handle, matD, matA, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matD));
    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(offsets, dOffsets, sizeof offsets);
    to_host(columns, dColumns, sizeof columns);
    to_host(values, dValues, sizeof values);
    expect_i32("row offsets", offsets, wantOffsets, 5);
    expect_i32("columns", columns, wantColumns, 9);
    expect_f32("values", values, wantValues, 9);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dDense));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dColumns));
    CHECK_CUDA(cudaFree(dValues));
    return sample_end();
}
