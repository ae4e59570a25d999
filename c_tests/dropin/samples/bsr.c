/* The legacy BSR products on A, 2 x 3 blocks of 2 x 2 (a 4 x 6 matrix, 3 blocks), FP64:
 *   Dbsrmv   y = A x, blocks stored column by column, one-based indices, y's old values ignored (beta 0)
 *   Dbsrxmv  z = A x + z on the block rows a mask lists, one at a time: block row 2 over its blocks,
 *            then block row 1 over its first block only (its end pointer stops short), as above
 *   Dbsrmm   C = 2 A B - C, blocks stored row by row, zero-based, B 6 x 2 and C 4 x 2 column-major */
#define SAMPLE "bsr"
#include "sample.h"

int main(void) {
    /* A = [1 2 0 0 5 6; 3 4 0 0 7 8; 0 0 9 10 0 0; 0 0 11 12 0 0] */
    const int rowPtrOne[3] = {1, 3, 4}, colIndOne[3] = {1, 3, 2};
    const int rowPtr[3] = {0, 2, 3}, colInd[3] = {0, 2, 1};
    const double byColumns[12] = {1, 3, 2, 4, 5, 7, 6, 8, 9, 11, 10, 12};
    const double byRows[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const double x[6] = {1, 2, 3, 4, 5, 6};
    const double b[12] = {1, 2, 3, 4, 5, 6, 1, 0, 1, 0, 1, 0};
    const double c0[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    const int endPtrOne[2] = {2, 4}, maskTwo[1] = {2}, maskOne[1] = {1};
    const double wantY[4] = {66, 94, 67, 81};
    const double wantZAfterTwo[4] = {7, 7, 74, 88}, wantZ[4] = {12, 18, 74, 88};
    const double wantC[8] = {131, 187, 133, 161, 11, 19, 17, 21};
    double y[4] = {7, 7, 7, 7}, z[4], c[8];

    int *dRowPtrOne = to_device(rowPtrOne, sizeof rowPtrOne), *dColIndOne = to_device(colIndOne, sizeof colIndOne);
    int *dRowPtr = to_device(rowPtr, sizeof rowPtr), *dColInd = to_device(colInd, sizeof colInd);
    double *dByColumns = to_device(byColumns, sizeof byColumns), *dByRows = to_device(byRows, sizeof byRows);
    double *dX = to_device(x, sizeof x), *dY = to_device(y, sizeof y), *dB = to_device(b, sizeof b);
    double *dC = to_device(c0, sizeof c0), *dZ = to_device(y, sizeof y);
    int *dEndPtrOne = to_device(endPtrOne, sizeof endPtrOne), *dMaskTwo = to_device(maskTwo, sizeof maskTwo);
    int *dMaskOne = to_device(maskOne, sizeof maskOne);

    cusparseHandle_t handle;
    cusparseMatDescr_t descrOne, descrZero;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descrOne));
    CHECK_CUSPARSE(cusparseSetMatIndexBase(descrOne, CUSPARSE_INDEX_BASE_ONE));
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descrZero));
    const double one = 1, zero = 0, two = 2, minusOne = -1;
    CHECK_CUSPARSE(cusparseDbsrmv(handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, 2, 3, 3, &one,
                                  descrOne, dByColumns, dRowPtrOne, dColIndOne, 2, dX, &zero, dY));
    CHECK_CUSPARSE(cusparseDbsrxmv(handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, 1, 2, 3, 3, &one,
                                   descrOne, dByColumns, dMaskTwo, dRowPtrOne, dEndPtrOne, dColIndOne, 2, dX, &one, dZ));
    to_host(z, dZ, sizeof z);
    expect_f64("bsrxmv z after block row 2", z, wantZAfterTwo, 4);
    CHECK_CUSPARSE(cusparseDbsrxmv(handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, 1, 2, 3, 3, &one,
                                   descrOne, dByColumns, dMaskOne, dRowPtrOne, dEndPtrOne, dColIndOne, 2, dX, &one, dZ));
    CHECK_CUSPARSE(cusparseDbsrmm(handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_NON_TRANSPOSE, 2, 2, 3, 3, &two, descrZero, dByRows, dRowPtr,
                                  dColInd, 2, dB, 6, &minusOne, dC, 4));
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descrOne));
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descrZero));
    CHECK_CUSPARSE(cusparseDestroy(handle));

    to_host(y, dY, sizeof y);
    to_host(c, dC, sizeof c);
    to_host(z, dZ, sizeof z);
    expect_f64("bsrmv y", y, wantY, 4);
    expect_f64("bsrxmv z", z, wantZ, 4);
    expect_f64("bsrmm C", c, wantC, 8);
    CHECK_CUDA(cudaFree(dRowPtrOne));
    CHECK_CUDA(cudaFree(dColIndOne));
    CHECK_CUDA(cudaFree(dRowPtr));
    CHECK_CUDA(cudaFree(dColInd));
    CHECK_CUDA(cudaFree(dByColumns));
    CHECK_CUDA(cudaFree(dByRows));
    CHECK_CUDA(cudaFree(dX));
    CHECK_CUDA(cudaFree(dY));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
    CHECK_CUDA(cudaFree(dZ));
    CHECK_CUDA(cudaFree(dEndPtrOne));
    CHECK_CUDA(cudaFree(dMaskTwo));
    CHECK_CUDA(cudaFree(dMaskOne));
    return sample_end();
}
