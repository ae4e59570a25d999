/* Xcoo2csr and Xcsr2coo: the row indices of a 5-row matrix with an empty row (row 3) compressed to
 * offsets with base zero, and one-based offsets expanded back to one-based row indices. */
#define SAMPLE "coo2csr"
#include "sample.h"

int main(void) {
    const int cooRows[8] = {0, 0, 1, 2, 2, 2, 4, 4};
    const int wantOffsets[6] = {0, 2, 3, 6, 6, 8};
    const int offsetsOne[6] = {1, 3, 4, 7, 7, 9};
    const int wantRowsOne[8] = {1, 1, 2, 3, 3, 3, 5, 5};
    int offsets[6], rows[8];

    int *dCooRows = to_device(cooRows, sizeof cooRows), *dOffsetsOne = to_device(offsetsOne, sizeof offsetsOne);
    int *dOffsets = NULL, *dRows = NULL;
    CHECK_CUDA(cudaMalloc((void **)&dOffsets, sizeof offsets));
    CHECK_CUDA(cudaMalloc((void **)&dRows, sizeof rows));

    cusparseHandle_t handle;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseXcoo2csr(handle, dCooRows, 8, 5, dOffsets, CUSPARSE_INDEX_BASE_ZERO));
    CHECK_CUSPARSE(cusparseXcsr2coo(handle, dOffsetsOne, 8, 5, dRows, CUSPARSE_INDEX_BASE_ONE));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(offsets, dOffsets, sizeof offsets);
    to_host(rows, dRows, sizeof rows);
    expect_i32("Xcoo2csr offsets", offsets, wantOffsets, 6);
    expect_i32("Xcsr2coo rows", rows, wantRowsOne, 8);
    CHECK_CUDA(cudaFree(dCooRows));
    CHECK_CUDA(cudaFree(dOffsetsOne));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dRows));
    return sample_end();
}
