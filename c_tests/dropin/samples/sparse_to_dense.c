/* SparseToDense: A 4 x 4 CSR (9 entries) into a column-major dense matrix with ld 5; the padding row
 * of every column is left as it was. */
#define SAMPLE "sparse_to_dense"
#include "sample.h"

int main(void) {
    /* A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] */
    const int offsets[5] = {0, 3, 4, 7, 9};
    const int columns[9] = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    const float values[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const float want[20] = {1, 0, 5, 0, -1, 0, 4, 0, 8, -1, 2, 0, 6, 0, -1, 3, 0, 7, 9, -1};
    float d[20];
    for (int i = 0; i < 20; i++) d[i] = -1;

    int *dOffsets = to_device(offsets, sizeof offsets), *dColumns = to_device(columns, sizeof columns);
    float *dValues = to_device(values, sizeof values), *dD = to_device(d, sizeof d);

    cusparseHandle_t handle;
    cusparseSpMatDescr_t matA;
    cusparseDnMatDescr_t matD;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, 4, 4, 9, dOffsets, dColumns, dValues, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matD, 4, 4, 5, dD, CUDA_R_32F, CUSPARSE_ORDER_COL));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseSparseToDense_bufferSize(handle, matA, matD, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseSparseToDense(handle, matA, matD, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer));
    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matD));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(d, dD, sizeof d);
    expect_f32("D", d, want, 20);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dColumns));
    CHECK_CUDA(cudaFree(dValues));
    CHECK_CUDA(cudaFree(dD));
    return sample_end();
}
