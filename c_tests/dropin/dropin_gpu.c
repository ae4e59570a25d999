/* An unmodified cuSPARSE program for the face on the GPU machine (scripts/dropin_device_check.sh):
 * compiled against the toolkit's real cusparse.h, linked with -lcusparse, and run once on the real
 * library and once with the face first on the library path. Exact checks on tiny problems:
 *   SpMM   C = A B, A 4 x 4 CSR (7 entries), B 4 x 3 column-major      (native in the face)
 *   SpMV   y = A x                                                      (native)
 *   Sbsrmv y = A x with A in 2 x 2 blocks stored row by row, y NaN first (native)
 *   Sbsrmm C = A B with A's blocks stored column by column, B given transposed (transB T) (native)
 *   Xcsrsort of a CSR whose rows are unsorted, with an identity P        (forwarded until oxsparse's
 *          sorts land; CreateIdentityPermutation is native)
 *   Snnz   nonzeros per row of A stored dense                            (forwarded: shadow handle
 *          with our pointer mode, shadow cusparseMatDescr_t)
 *   SpSV   L y = b, L lower triangular (fill mode and diagonal set on the descriptor)
 *   SpGEMM C = A A: nnz read with SpMatGetSize after compute, CsrSetPointers, copy
 *          (both forwarded over shadow generic descriptors kept in step with ours)
 */
#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <math.h>
#include <stdio.h>

static int failures = 0;
#define CHECK_CUDA(call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));            \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)
#define CHECK_CUSPARSE(call)                                                              \
    do {                                                                                  \
        cusparseStatus_t s_ = (call);                                                     \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                              \
            printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s_)); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)
#define EXPECT(cond)                                                                      \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            printf("%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);                     \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

enum { M = 4, K = 4, N = 3, NNZ = 7 };

int main(void) {
    /* A = [1 0 2 0; 0 3 0 0; 4 0 5 6; 0 0 0 7] */
    int hRow[M + 1] = {0, 2, 3, 6, 7};
    int hCol[NNZ] = {0, 2, 1, 0, 2, 3, 3};
    float hVal[NNZ] = {1, 2, 3, 4, 5, 6, 7};
    float hB[K * N], hX[K], hC[M * N], hY[M];
    for (int i = 0; i < K * N; i++) hB[i] = (float)(i % 5) - 1.0f;
    for (int i = 0; i < K; i++) hX[i] = (float)i + 0.5f;

    cusparseHandle_t handle;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    int version = 0;
    CHECK_CUSPARSE(cusparseGetVersion(handle, &version));
    printf("cusparseGetVersion: %d\n", version);
    EXPECT(version >= 12000);

    int *dRow, *dCol;
    float *dVal, *dB, *dC, *dX, *dY;
    CHECK_CUDA(cudaMalloc((void **)&dRow, sizeof hRow));
    CHECK_CUDA(cudaMalloc((void **)&dCol, sizeof hCol));
    CHECK_CUDA(cudaMalloc((void **)&dVal, sizeof hVal));
    CHECK_CUDA(cudaMalloc((void **)&dB, sizeof hB));
    CHECK_CUDA(cudaMalloc((void **)&dC, sizeof hC));
    CHECK_CUDA(cudaMalloc((void **)&dX, sizeof hX));
    CHECK_CUDA(cudaMalloc((void **)&dY, sizeof hY));
    CHECK_CUDA(cudaMemcpy(dRow, hRow, sizeof hRow, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dCol, hCol, sizeof hCol, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dVal, hVal, sizeof hVal, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dX, hX, sizeof hX, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dC, 0, sizeof hC));
    CHECK_CUDA(cudaMemset(dY, 0, sizeof hY));

    cusparseSpMatDescr_t matA;
    cusparseDnMatDescr_t matB, matC;
    cusparseDnVecDescr_t vecX, vecY;
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, M, K, NNZ, dRow, dCol, dVal, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matB, K, N, K, dB, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matC, M, N, M, dC, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecX, K, dX, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, M, dY, CUDA_R_32F));
    float alpha = 1.0f, beta = 0.0f;

    size_t size = 0;
    void *buffer = NULL;
    CHECK_CUSPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &alpha, matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                           &size));
    CHECK_CUDA(cudaMalloc(&buffer, size ? size : 1));
    CHECK_CUSPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size ? size : 1));
    CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaMemcpy(hC, dC, sizeof hC, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hY, dY, sizeof hY, cudaMemcpyDeviceToHost));

    /* CPU loops: small integers and halves, so the sums are exact in FP32. */
    for (int i = 0; i < M; i++) {
        float y = 0;
        for (int p = hRow[i]; p < hRow[i + 1]; p++) y += hVal[p] * hX[hCol[p]];
        EXPECT(hY[i] == y);
        for (int j = 0; j < N; j++) {
            float c = 0;
            for (int p = hRow[i]; p < hRow[i + 1]; p++) c += hVal[p] * hB[j * K + hCol[p]];
            EXPECT(hC[j * M + i] == c);
        }
    }
    printf("SpMM and SpMV: %s\n", failures ? "mismatch" : "exact");

    /* The legacy BSR products: A in 2 x 2 blocks, all four present. */
    {
        int bRow[3] = {0, 2, 4}, bCol[4] = {0, 1, 0, 1};
        float byRows[16] = {1, 0, 0, 3, 2, 0, 0, 0, 4, 0, 0, 0, 5, 6, 0, 7};
        float byCols[16] = {1, 0, 0, 3, 2, 0, 0, 0, 4, 0, 0, 0, 5, 0, 6, 7};
        float hBt[N * K], bY[M], bC[M * N];
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++) hBt[k * N + j] = hB[j * K + k];
        int *dbRow, *dbCol;
        float *dRows, *dCols, *dBt;
        CHECK_CUDA(cudaMalloc((void **)&dbRow, sizeof bRow));
        CHECK_CUDA(cudaMalloc((void **)&dbCol, sizeof bCol));
        CHECK_CUDA(cudaMalloc((void **)&dRows, sizeof byRows));
        CHECK_CUDA(cudaMalloc((void **)&dCols, sizeof byCols));
        CHECK_CUDA(cudaMalloc((void **)&dBt, sizeof hBt));
        CHECK_CUDA(cudaMemcpy(dbRow, bRow, sizeof bRow, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dbCol, bCol, sizeof bCol, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dRows, byRows, sizeof byRows, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dCols, byCols, sizeof byCols, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dBt, hBt, sizeof hBt, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemset(dY, 0xFF, sizeof hY)); /* NaN: beta 0 must not read it */
        CHECK_CUDA(cudaMemset(dC, 0xFF, sizeof hC));
        cusparseMatDescr_t bDescr;
        CHECK_CUSPARSE(cusparseCreateMatDescr(&bDescr));
        CHECK_CUSPARSE(cusparseSbsrmv(handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, 2, 2, 4, &alpha,
                                      bDescr, dRows, dbRow, dbCol, 2, dX, &beta, dY));
        CHECK_CUSPARSE(cusparseSbsrmm(handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                      CUSPARSE_OPERATION_TRANSPOSE, 2, N, 2, 4, &alpha, bDescr, dCols, dbRow, dbCol, 2,
                                      dBt, N, &beta, dC, M));
        CHECK_CUDA(cudaMemcpy(bY, dY, sizeof bY, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(bC, dC, sizeof bC, cudaMemcpyDeviceToHost));
        int bsrFailures = failures;
        for (int i = 0; i < M; i++) EXPECT(bY[i] == hY[i]);
        for (int i = 0; i < M * N; i++) EXPECT(bC[i] == hC[i]);
        printf("Sbsrmv and Sbsrmm: %s\n", failures > bsrFailures ? "mismatch" : "exact");
        CHECK_CUSPARSE(cusparseDestroyMatDescr(bDescr));
        cudaFree(dbRow); cudaFree(dbCol); cudaFree(dRows); cudaFree(dCols); cudaFree(dBt);
    }

    /* Xcsrsort: rows with their columns out of order; P starts as the identity. */
    int uRow[M + 1] = {0, 2, 3, 6, 7};
    int uCol[NNZ] = {2, 0, 1, 3, 0, 2, 3};
    int *dP;
    CHECK_CUDA(cudaMalloc((void **)&dP, NNZ * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(dRow, uRow, sizeof uRow, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dCol, uCol, sizeof uCol, cudaMemcpyHostToDevice));
    cusparseMatDescr_t descr;
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descr));
    CHECK_CUSPARSE(cusparseXcsrsort_bufferSizeExt(handle, M, K, NNZ, dRow, dCol, &size));
    CHECK_CUDA(cudaMalloc(&buffer, size ? size : 1));
    CHECK_CUSPARSE(cusparseCreateIdentityPermutation(handle, NNZ, dP));
    CHECK_CUSPARSE(cusparseXcsrsort(handle, M, K, NNZ, descr, dRow, dCol, dP, buffer));
    CHECK_CUDA(cudaDeviceSynchronize());
    int sCol[NNZ], sP[NNZ];
    CHECK_CUDA(cudaMemcpy(sCol, dCol, sizeof sCol, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(sP, dP, sizeof sP, cudaMemcpyDeviceToHost));
    int expectCol[NNZ] = {0, 2, 1, 0, 2, 3, 3}, expectP[NNZ] = {1, 0, 2, 4, 5, 3, 6};
    int sortFailures = failures;
    for (int i = 0; i < NNZ; i++) EXPECT(sCol[i] == expectCol[i] && sP[i] == expectP[i]);
    printf("Xcsrsort: %s\n", failures > sortFailures ? "mismatch" : "exact");
    CHECK_CUDA(cudaFree(buffer));

    /* Snnz: A (column-major dense) -> nonzeros per row and in total (host pointer mode). */
    float hA[M * K] = {0};
    for (int i = 0; i < M; i++)
        for (int p = hRow[i]; p < hRow[i + 1]; p++) hA[hCol[p] * M + i] = hVal[p];
    float *dA;
    int *dPerRow, total = -1, perRow[M];
    CHECK_CUDA(cudaMalloc((void **)&dA, sizeof hA));
    CHECK_CUDA(cudaMalloc((void **)&dPerRow, sizeof perRow));
    CHECK_CUDA(cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice));
    CHECK_CUSPARSE(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
    CHECK_CUSPARSE(cusparseSnnz(handle, CUSPARSE_DIRECTION_ROW, M, K, descr, dA, M, dPerRow, &total));
    CHECK_CUDA(cudaMemcpy(perRow, dPerRow, sizeof perRow, cudaMemcpyDeviceToHost));
    int nnzFailures = failures;
    EXPECT(total == NNZ);
    for (int i = 0; i < M; i++) EXPECT(perRow[i] == hRow[i + 1] - hRow[i]);
    printf("Snnz: %s\n", failures > nnzFailures ? "mismatch" : "exact");
    cudaFree(dA);
    cudaFree(dPerRow);
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descr));

    /* SpSV: L = [2 0 0 0; 1 4 0 0; 0 2 8 0; 1 0 1 2], b = L [1 2 3 4]. */
    {
        int lRow[5] = {0, 1, 3, 5, 8}, lCol[8] = {0, 0, 1, 1, 2, 0, 2, 3};
        float lVal[8] = {2, 1, 4, 2, 8, 1, 1, 2}, hb[4] = {2, 9, 28, 12}, hs[4];
        int *dlRow, *dlCol;
        float *dlVal, *db, *ds;
        CHECK_CUDA(cudaMalloc((void **)&dlRow, sizeof lRow));
        CHECK_CUDA(cudaMalloc((void **)&dlCol, sizeof lCol));
        CHECK_CUDA(cudaMalloc((void **)&dlVal, sizeof lVal));
        CHECK_CUDA(cudaMalloc((void **)&db, sizeof hb));
        CHECK_CUDA(cudaMalloc((void **)&ds, sizeof hb));
        CHECK_CUDA(cudaMemcpy(dlRow, lRow, sizeof lRow, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dlCol, lCol, sizeof lCol, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dlVal, lVal, sizeof lVal, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
        cusparseSpMatDescr_t matL;
        cusparseDnVecDescr_t vecB, vecS;
        CHECK_CUSPARSE(cusparseCreateCsr(&matL, 4, 4, 8, dlRow, dlCol, dlVal, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
        cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
        cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
        CHECK_CUSPARSE(cusparseSpMatSetAttribute(matL, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
        CHECK_CUSPARSE(cusparseSpMatSetAttribute(matL, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
        CHECK_CUSPARSE(cusparseCreateDnVec(&vecB, 4, db, CUDA_R_32F));
        CHECK_CUSPARSE(cusparseCreateDnVec(&vecS, 4, ds, CUDA_R_32F));
        cusparseSpSVDescr_t spsv;
        CHECK_CUSPARSE(cusparseSpSV_createDescr(&spsv));
        float one = 1.0f;
        CHECK_CUSPARSE(cusparseSpSV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matL, vecB, vecS, CUDA_R_32F,
                                               CUSPARSE_SPSV_ALG_DEFAULT, spsv, &size));
        CHECK_CUDA(cudaMalloc(&buffer, size ? size : 1));
        CHECK_CUSPARSE(cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matL, vecB, vecS, CUDA_R_32F,
                                             CUSPARSE_SPSV_ALG_DEFAULT, spsv, buffer));
        CHECK_CUSPARSE(cusparseSpSV_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matL, vecB, vecS, CUDA_R_32F,
                                          CUSPARSE_SPSV_ALG_DEFAULT, spsv));
        CHECK_CUDA(cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost));
        int spsvFailures = failures;
        for (int i = 0; i < 4; i++) EXPECT(hs[i] == (float)(i + 1));
        printf("SpSV: %s\n", failures > spsvFailures ? "mismatch" : "exact");
        CHECK_CUDA(cudaFree(buffer));
        CHECK_CUSPARSE(cusparseSpSV_destroyDescr(spsv));
        CHECK_CUSPARSE(cusparseDestroySpMat(matL));
        CHECK_CUSPARSE(cusparseDestroyDnVec(vecB));
        CHECK_CUSPARSE(cusparseDestroyDnVec(vecS));
        cudaFree(dlRow); cudaFree(dlCol); cudaFree(dlVal); cudaFree(db); cudaFree(ds);
    }

    /* SpGEMM: C = A A, A as at the top (its arrays restored: Xcsrsort reused them). */
    {
        CHECK_CUDA(cudaMemcpy(dRow, hRow, sizeof hRow, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dCol, hCol, sizeof hCol, cudaMemcpyHostToDevice));
        int *dcRow, *dcCol;
        float *dcVal;
        CHECK_CUDA(cudaMalloc((void **)&dcRow, (M + 1) * sizeof(int)));
        cusparseSpMatDescr_t matC2;
        CHECK_CUSPARSE(cusparseCreateCsr(&matC2, M, K, 0, dcRow, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
        cusparseSpGEMMDescr_t spgemm;
        CHECK_CUSPARSE(cusparseSpGEMM_createDescr(&spgemm));
        cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
        size_t size1 = 0, size2 = 0;
        void *buffer1 = NULL, *buffer2 = NULL;
        CHECK_CUSPARSE(cusparseSpGEMM_workEstimation(handle, nt, nt, &alpha, matA, matA, &beta, matC2, CUDA_R_32F,
                                                     CUSPARSE_SPGEMM_DEFAULT, spgemm, &size1, NULL));
        CHECK_CUDA(cudaMalloc(&buffer1, size1 ? size1 : 1));
        CHECK_CUSPARSE(cusparseSpGEMM_workEstimation(handle, nt, nt, &alpha, matA, matA, &beta, matC2, CUDA_R_32F,
                                                     CUSPARSE_SPGEMM_DEFAULT, spgemm, &size1, buffer1));
        CHECK_CUSPARSE(cusparseSpGEMM_compute(handle, nt, nt, &alpha, matA, matA, &beta, matC2, CUDA_R_32F,
                                              CUSPARSE_SPGEMM_DEFAULT, spgemm, &size2, NULL));
        CHECK_CUDA(cudaMalloc(&buffer2, size2 ? size2 : 1));
        CHECK_CUSPARSE(cusparseSpGEMM_compute(handle, nt, nt, &alpha, matA, matA, &beta, matC2, CUDA_R_32F,
                                              CUSPARSE_SPGEMM_DEFAULT, spgemm, &size2, buffer2));
        int64_t rows2, cols2, nnz2 = -1;
        CHECK_CUSPARSE(cusparseSpMatGetSize(matC2, &rows2, &cols2, &nnz2));
        /* The dense product, for the pattern and the values (small integers: exact). */
        float dense[M * K] = {0}, product[M * K] = {0};
        for (int i = 0; i < M; i++)
            for (int p = hRow[i]; p < hRow[i + 1]; p++) dense[i * K + hCol[p]] = hVal[p];
        int want = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < K; j++) {
                int reached = 0;
                for (int k = 0; k < K; k++) {
                    product[i * K + j] += dense[i * K + k] * dense[k * K + j];
                    reached |= dense[i * K + k] != 0 && dense[k * K + j] != 0;
                }
                want += reached;
            }
        int spgemmFailures = failures;
        EXPECT(nnz2 == want);
        if (nnz2 > 0 && nnz2 <= M * K) {
            CHECK_CUDA(cudaMalloc((void **)&dcCol, nnz2 * sizeof(int)));
            CHECK_CUDA(cudaMalloc((void **)&dcVal, nnz2 * sizeof(float)));
            CHECK_CUSPARSE(cusparseCsrSetPointers(matC2, dcRow, dcCol, dcVal));
            CHECK_CUSPARSE(cusparseSpGEMM_copy(handle, nt, nt, &alpha, matA, matA, &beta, matC2, CUDA_R_32F,
                                               CUSPARSE_SPGEMM_DEFAULT, spgemm));
            int cRow[M + 1], cCol[M * K];
            float cVal[M * K];
            CHECK_CUDA(cudaMemcpy(cRow, dcRow, sizeof cRow, cudaMemcpyDeviceToHost));
            CHECK_CUDA(cudaMemcpy(cCol, dcCol, nnz2 * sizeof(int), cudaMemcpyDeviceToHost));
            CHECK_CUDA(cudaMemcpy(cVal, dcVal, nnz2 * sizeof(float), cudaMemcpyDeviceToHost));
            EXPECT(cRow[0] == 0 && cRow[M] == nnz2);
            for (int i = 0; i < M; i++)
                for (int p = cRow[i]; p < cRow[i + 1] && p >= 0 && p < nnz2; p++)
                    EXPECT(cCol[p] >= 0 && cCol[p] < K && cVal[p] == product[i * K + cCol[p]]);
            cudaFree(dcCol);
            cudaFree(dcVal);
        }
        printf("SpGEMM: nnz %lld, %s\n", (long long)nnz2, failures > spgemmFailures ? "mismatch" : "exact");
        CHECK_CUSPARSE(cusparseSpGEMM_destroyDescr(spgemm));
        CHECK_CUSPARSE(cusparseDestroySpMat(matC2));
        cudaFree(buffer1); cudaFree(buffer2); cudaFree(dcRow);
    }

    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matB));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matC));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecX));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    cudaFree(dRow); cudaFree(dCol); cudaFree(dVal); cudaFree(dB); cudaFree(dC); cudaFree(dX); cudaFree(dY); cudaFree(dP);
    printf("dropin_gpu: %s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
