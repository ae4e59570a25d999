/* The host-side helpers: cusparseMatDescr_t (defaults, setters and getters, a bad index base refused
 * and the descriptor unchanged), GetErrorName / GetErrorString, GetVersion and GetProperty against
 * the header's version macros. */
#define SAMPLE "descr_info"
#include "sample.h"
#include <string.h>

int main(void) {
    cusparseMatDescr_t descr;
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descr));
    EXPECT(cusparseGetMatType(descr) == CUSPARSE_MATRIX_TYPE_GENERAL);
    EXPECT(cusparseGetMatFillMode(descr) == CUSPARSE_FILL_MODE_LOWER);
    EXPECT(cusparseGetMatDiagType(descr) == CUSPARSE_DIAG_TYPE_NON_UNIT);
    EXPECT(cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ZERO);
    CHECK_CUSPARSE(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_SYMMETRIC));
    CHECK_CUSPARSE(cusparseSetMatFillMode(descr, CUSPARSE_FILL_MODE_UPPER));
    CHECK_CUSPARSE(cusparseSetMatDiagType(descr, CUSPARSE_DIAG_TYPE_UNIT));
    CHECK_CUSPARSE(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ONE));
    EXPECT(cusparseGetMatType(descr) == CUSPARSE_MATRIX_TYPE_SYMMETRIC);
    EXPECT(cusparseGetMatFillMode(descr) == CUSPARSE_FILL_MODE_UPPER);
    EXPECT(cusparseGetMatDiagType(descr) == CUSPARSE_DIAG_TYPE_UNIT);
    EXPECT(cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ONE);
    EXPECT(cusparseSetMatIndexBase(descr, (cusparseIndexBase_t)7) == CUSPARSE_STATUS_INVALID_VALUE);
    EXPECT(cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ONE);
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descr));

    static const char *names[12] = {"CUSPARSE_STATUS_SUCCESS",          "CUSPARSE_STATUS_NOT_INITIALIZED",
                                    "CUSPARSE_STATUS_ALLOC_FAILED",     "CUSPARSE_STATUS_INVALID_VALUE",
                                    "CUSPARSE_STATUS_ARCH_MISMATCH",    "CUSPARSE_STATUS_MAPPING_ERROR",
                                    "CUSPARSE_STATUS_EXECUTION_FAILED", "CUSPARSE_STATUS_INTERNAL_ERROR",
                                    "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "CUSPARSE_STATUS_ZERO_PIVOT",
                                    "CUSPARSE_STATUS_NOT_SUPPORTED",    "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES"};
    for (int s = 0; s < 12; s++) {
        const char *name = cusparseGetErrorName((cusparseStatus_t)s);
        if (name == NULL || strcmp(name, names[s]) != 0) {
            printf("  cusparseGetErrorName(%d) = %s, expected %s\n", s, name ? name : "NULL", names[s]);
            sample_failures++;
        }
        EXPECT(cusparseGetErrorString((cusparseStatus_t)s) != NULL);
    }
    EXPECT(strcmp(cusparseGetErrorString(CUSPARSE_STATUS_SUCCESS), "success") == 0);
    EXPECT(strcmp(cusparseGetErrorString(CUSPARSE_STATUS_NOT_INITIALIZED), "initialization error") == 0);
    EXPECT(strcmp(cusparseGetErrorString(CUSPARSE_STATUS_INVALID_VALUE), "invalid value") == 0);

    cusparseHandle_t handle;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    int version = 0, major = -1, minor = -1, patch = -1;
    CHECK_CUSPARSE(cusparseGetVersion(handle, &version));
    CHECK_CUSPARSE(cusparseGetProperty(MAJOR_VERSION, &major));
    CHECK_CUSPARSE(cusparseGetProperty(MINOR_VERSION, &minor));
    CHECK_CUSPARSE(cusparseGetProperty(PATCH_LEVEL, &patch));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    printf("  cusparseGetVersion %d, GetProperty %d.%d.%d\n", version, major, minor, patch);
    EXPECT(version == CUSPARSE_VERSION);
    EXPECT(major == CUSPARSE_VER_MAJOR && minor == CUSPARSE_VER_MINOR && patch == CUSPARSE_VER_PATCH);
    return sample_end();
}
