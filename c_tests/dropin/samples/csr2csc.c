/* Csr2cscEx2: A 4 x 5 CSR (9 entries, FP64 values) to CSC with values (CUSPARSE_ACTION_NUMERIC),
 * through Csr2cscEx2_bufferSize and Csr2cscEx2. */
#define SAMPLE "csr2csc"
#include "sample.h"

int main(void) {
    /* A = [1 0 2 0 3; 0 4 0 0 0; 5 0 0 6 7; 0 8 0 9 0] */
    const int offsets[5] = {0, 3, 4, 7, 9};
    const int columns[9] = {0, 2, 4, 1, 0, 3, 4, 1, 3};
    const double values[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const int wantColOffsets[6] = {0, 2, 4, 5, 7, 9};
    const int wantRows[9] = {0, 2, 1, 3, 0, 2, 3, 0, 2};
    const double wantValues[9] = {1, 5, 4, 8, 2, 6, 9, 3, 7};
    int colOffsets[6], rows[9];
    double cscValues[9];

    int *dOffsets = to_device(offsets, sizeof offsets), *dColumns = to_device(columns, sizeof columns);
    double *dValues = to_device(values, sizeof values), *dCscValues = NULL;
    int *dColOffsets = NULL, *dRows = NULL;
    CHECK_CUDA(cudaMalloc((void **)&dColOffsets, sizeof colOffsets));
    CHECK_CUDA(cudaMalloc((void **)&dRows, sizeof rows));
    CHECK_CUDA(cudaMalloc((void **)&dCscValues, sizeof cscValues));

    cusparseHandle_t handle;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseCsr2cscEx2_bufferSize(handle, 4, 5, 9, dValues, dOffsets, dColumns, dCscValues, dColOffsets,
                                                 dRows, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                                                 CUSPARSE_CSR2CSC_ALG1, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size));
    CHECK_CUSPARSE(cusparseCsr2cscEx2(handle, 4, 5, 9, dValues, dOffsets, dColumns, dCscValues, dColOffsets, dRows,
                                      CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                                      CUSPARSE_CSR2CSC_ALG1, buffer));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(colOffsets, dColOffsets, sizeof colOffsets);
    to_host(rows, dRows, sizeof rows);
    to_host(cscValues, dCscValues, sizeof cscValues);
    expect_i32("column offsets", colOffsets, wantColOffsets, 6);
    expect_i32("rows", rows, wantRows, 9);
    expect_f64("values", cscValues, wantValues, 9);
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(dOffsets));
    CHECK_CUDA(cudaFree(dColumns));
    CHECK_CUDA(cudaFree(dValues));
    CHECK_CUDA(cudaFree(dColOffsets));
    CHECK_CUDA(cudaFree(dRows));
    CHECK_CUDA(cudaFree(dCscValues));
    return sample_end();
}
