/* Xcsrsort with a permutation: the columns of each row of a 3 x 5 CSR sorted in place, P from
 * CreateIdentityPermutation, then the values permuted with Gather (NVIDIA's coosort sample's way). */
#define SAMPLE "csrsort"
#include "sample.h"

int main(void) {
    const int offsets[4] = {0, 3, 4, 7};
    int columns[7] = {4, 0, 2, 1, 3, 0, 4};
    const double values[7] = {1, 2, 3, 4, 5, 6, 7};
    const int wantColumns[7] = {0, 2, 4, 1, 0, 3, 4};
    const int wantP[7] = {1, 2, 0, 3, 5, 4, 6};
    const double wantValues[7] = {2, 3, 1, 4, 6, 5, 7};
    int p[7];
    double sorted[7];

    int *dOffsets = to_device(offsets, sizeof offsets), *dColumns = to_device(columns, sizeof columns), *dP = NULL;
    double *dValues = to_device(values, sizeof values), *dSorted = NULL;
    CHECK_CUDA(cudaMalloc((void **)&dP, sizeof p));
    CHECK_CUDA(cudaMalloc((void **)&dSorted, sizeof sorted));

    cusparseHandle_t handle;
    cusparseMatDescr_t descr;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descr));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseXcsrsort_bufferSizeExt(handle, 3, 5, 7, dOffsets, dColumns, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseCreateIdentityPermutation(handle, 7, dP));
    CHECK_CUSPARSE(cusparseXcsrsort(handle, 3, 5, 7, descr, dOffsets, dColumns, dP, buffer));

    /* sorted[i] = values[P[i]] */
    cusparseSpVecDescr_t vecSorted;
    cusparseDnVecDescr_t vecValues;
    CHECK_CUSPARSE(cusparseCreateSpVec(&vecSorted, 7, 7, dP, dSorted, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                       CUDA_R_64F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecValues, 7, dValues, CUDA_R_64F));
    CHECK_CUSPARSE(cusparseGather(handle, vecValues, vecSorted));
    CHECK_CUSPARSE(cusparseDestroySpVec(vecSorted));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecValues));
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descr));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(columns, dColumns, sizeof columns);
    to_host(p, dP, sizeof p);
    to_host(sorted, dSorted, sizeof sorted);
    expect_i32("columns", columns, wantColumns, 7);
    expect_i32("P", p, wantP, 7);
    expect_f64("values", sorted, wantValues, 7);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dColumns));
    CHECK_CUDA(cudaFree(dP));
    CHECK_CUDA(cudaFree(dValues));
    CHECK_CUDA(cudaFree(dSorted));
    return sample_end();
}
