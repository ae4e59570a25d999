/* The source drop-in (scripts/check_dropin.sh): a program written for cuSPARSE, built against the
 * face's cusparse.h (dropin/include/) and linked with -lcusparse, without NVIDIA's cuSPARSE. */
#include <cusparse.h>
#include <stdio.h>
#include <string.h>

#if CUSPARSE_VERSION != 12603
#error "the face's cusparse.h is cuSPARSE 12.6.3's"
#endif

int main(void) {
    int failures = 0, major = 0;
    cusparseMatDescr_t descr = NULL;
    failures += cusparseGetProperty(MAJOR_VERSION, &major) != CUSPARSE_STATUS_SUCCESS || major != 12;
    failures += cusparseCreateMatDescr(&descr) != CUSPARSE_STATUS_SUCCESS;
    failures += cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL) != CUSPARSE_STATUS_SUCCESS;
    failures += cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ONE) != CUSPARSE_STATUS_SUCCESS;
    failures += cusparseGetMatIndexBase(descr) != CUSPARSE_INDEX_BASE_ONE;
    failures += cusparseDestroyMatDescr(descr) != CUSPARSE_STATUS_SUCCESS;
    failures += strcmp(cusparseGetErrorName(CUSPARSE_STATUS_INVALID_VALUE), "CUSPARSE_STATUS_INVALID_VALUE") != 0;
    printf("face_header: %s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
