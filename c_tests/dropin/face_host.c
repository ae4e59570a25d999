/* The cuSPARSE face on a machine without a GPU (scripts/check_dropin.sh): linked with -lcusparse
 * against libcusparse.so.12 from oxsparse, run with LD_BIND_NOW=1 and OXSPARSE_CUSPARSE_FALLBACK=none.
 * Declares the few functions it calls, with cuSPARSE's types reduced to their C equivalents, so it
 * needs no cusparse.h. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void *cusparseHandle_t;
typedef void *cusparseMatDescr_t;
typedef void *cusparseSpMatDescr_t;
typedef void *csric02Info_t;
typedef void *cusparseSpGEMMDescr_t;

int cusparseCreate(cusparseHandle_t *handle);
int cusparseDestroy(cusparseHandle_t handle);
int cusparseGetVersion(cusparseHandle_t handle, int *version);
int cusparseGetProperty(int type, int *value);
const char *cusparseGetErrorName(int status);
const char *cusparseGetErrorString(int status);
int cusparseCreateMatDescr(cusparseMatDescr_t *descr);
int cusparseSetMatIndexBase(cusparseMatDescr_t descr, int base);
int cusparseGetMatIndexBase(cusparseMatDescr_t descr);
int cusparseDestroyMatDescr(cusparseMatDescr_t descr);
int cusparseCreateCsr(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz, void *csrRowOffsets,
                      void *csrColInd, void *csrValues, int csrRowOffsetsType, int csrColIndType, int idxBase,
                      int valueType);
int cusparseSpMatGetSize(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz);
int cusparseDestroySpMat(cusparseSpMatDescr_t spMatDescr);
int cusparseCreateCsric02Info(csric02Info_t *info);
int cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t *descr);
int cusparseSpGEMM_workEstimation(cusparseHandle_t handle, int opA, int opB, const void *alpha, void *matA, void *matB,
                                  const void *beta, void *matC, int computeType, int alg,
                                  cusparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize1, void *externalBuffer1);
int cusparseSpGEMM_estimateMemory(cusparseHandle_t handle, int opA, int opB, const void *alpha, void *matA, void *matB,
                                  const void *beta, void *matC, int computeType, int alg,
                                  cusparseSpGEMMDescr_t spgemmDescr, float chunk_fraction, size_t *bufferSize3,
                                  void *externalBuffer3, size_t *bufferSize2);

static int failures = 0;
#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "face_host.c:%d: failed: %s\n", __LINE__, #cond); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

int main(void) {
    int value = -1;
    CHECK(cusparseGetProperty(0, &value) == 0 && value == 12);
    CHECK(cusparseGetProperty(1, &value) == 0 && value == 6);
    CHECK(cusparseGetProperty(2, &value) == 0 && value == 3);
    CHECK(strcmp(cusparseGetErrorName(10), "CUSPARSE_STATUS_NOT_SUPPORTED") == 0);
    CHECK(strcmp(cusparseGetErrorName(0), "CUSPARSE_STATUS_SUCCESS") == 0);
    CHECK(strcmp(cusparseGetErrorString(3), "invalid value") == 0);
    CHECK(cusparseGetVersion(NULL, &value) == 1); /* NOT_INITIALIZED, as for any NULL handle */

    /* A handle needs a GPU; where there is one, the version is cuSPARSE 12.6.3's. */
    cusparseHandle_t handle = NULL;
    if (cusparseCreate(&handle) == 0) {
        CHECK(cusparseGetVersion(handle, &value) == 0 && value == 12603);
        CHECK(cusparseDestroy(handle) == 0);
    } else {
        printf("no GPU: cusparseCreate refused, GetVersion checked on a NULL handle only\n");
    }

    cusparseMatDescr_t descr = NULL;
    CHECK(cusparseCreateMatDescr(&descr) == 0);
    CHECK(cusparseGetMatIndexBase(descr) == 0);
    CHECK(cusparseSetMatIndexBase(descr, 1) == 0);
    CHECK(cusparseGetMatIndexBase(descr) == 1);
    CHECK(cusparseSetMatIndexBase(descr, 7) == 3);
    CHECK(cusparseDestroyMatDescr(descr) == 0);

    cusparseSpMatDescr_t mat = NULL;
    int64_t rows = 0, cols = 0, nnz = -1;
    /* 4 x 5 without nonzeros (no column or value arrays), CUSPARSE_INDEX_32I (2), BASE_ZERO,
     * CUDA_R_32F (0). The row offsets are only recorded here, so a host array stands for them
     * (oxsparse, unlike cuSPARSE, refuses NULL row offsets for rows > 0). */
    int offsets[5] = {0, 0, 0, 0, 0};
    CHECK(cusparseCreateCsr(&mat, 4, 5, 0, offsets, NULL, NULL, 2, 2, 0, 0) == 0);
    CHECK(cusparseSpMatGetSize(mat, &rows, &cols, &nnz) == 0 && rows == 4 && cols == 5 && nnz == 0);
    CHECK(cusparseDestroySpMat(mat) == 0);

    /* Forwarded without a real library, and not implemented at all: NOT_SUPPORTED, outputs untouched. */
    csric02Info_t info = (csric02Info_t)0x1;
    CHECK(cusparseCreateCsric02Info(&info) == 10 && info == (csric02Info_t)0x1);
    cusparseSpGEMMDescr_t spgemm = NULL;
    CHECK(cusparseSpGEMM_createDescr(&spgemm) == 10 && spgemm == NULL);
    size_t size = 7;
    CHECK(cusparseSpGEMM_workEstimation(NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL, &size, NULL) == 10 && size == 7);
    size_t size2 = 9;
    CHECK(cusparseSpGEMM_estimateMemory(NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL, 0.5f, &size, NULL, &size2) == 10 &&
          size == 7 && size2 == 9);

    printf("face_host: %s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
