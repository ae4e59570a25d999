// oxsparse.h must compile as C++11 on its own and when included twice, with
// C linkage for every function (the calls below link against the C symbols),
// and with cuSPARSE's type relations: enums are int-sized, and each Const
// descriptor type is a pointer to const of the mutable type's struct, so that
// mutable descriptors convert implicitly where const ones are taken.
#include "oxsparse.h"
#include "oxsparse.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

template <typename Mutable, typename Const>
struct is_const_twin
    : std::is_same<Const, typename std::add_pointer<typename std::add_const<
                              typename std::remove_pointer<Mutable>::type>::type>::type> {};

static_assert(sizeof(oxsparseStatus_t) == sizeof(int), "C enums are int-sized");
static_assert(sizeof(oxsparseOrder_t) == sizeof(int), "C enums are int-sized");
static_assert(std::is_pointer<oxsparseHandle_t>::value, "handles are pointers");
static_assert(is_const_twin<oxsparseSpVecDescr_t, oxsparseConstSpVecDescr_t>::value, "SpVec");
static_assert(is_const_twin<oxsparseDnVecDescr_t, oxsparseConstDnVecDescr_t>::value, "DnVec");
static_assert(is_const_twin<oxsparseSpMatDescr_t, oxsparseConstSpMatDescr_t>::value, "SpMat");
static_assert(is_const_twin<oxsparseDnMatDescr_t, oxsparseConstDnMatDescr_t>::value, "DnMat");
static_assert(OXSPARSE_STATUS_INSUFFICIENT_RESOURCES == 11, "cuSPARSE value");
static_assert(OXSPARSE_ORDER_COL == 1 && OXSPARSE_ORDER_ROW == 2, "cuSPARSE values");
static_assert(OXSPARSE_FORMAT_BLOCKED_ELL == 5 && OXSPARSE_FORMAT_SLICED_ELLPACK == 7,
              "cuSPARSE values");
static_assert(OXSPARSE_INDEX_32I == 2 && OXSPARSE_INDEX_64I == 3, "cuSPARSE values");

static int failures = 0;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

int main() {
    CHECK(std::strcmp(oxsparseGetErrorName(OXSPARSE_STATUS_NOT_SUPPORTED),
                      "OXSPARSE_STATUS_NOT_SUPPORTED") == 0);
    CHECK(std::strcmp(oxsparseGetErrorString(OXSPARSE_STATUS_INVALID_VALUE), "invalid value") == 0);

    int minor = -1;
    CHECK(oxsparseGetProperty(MINOR_VERSION, &minor) == OXSPARSE_STATUS_SUCCESS);
    CHECK(minor >= 0);

    alignas(8) static float values[4];
    alignas(8) static int rows[3], cols[4];
    oxsparseSpMatDescr_t mat = nullptr;
    CHECK(oxsparseCreateCsr(&mat, 2, 2, 4, rows, cols, values, OXSPARSE_INDEX_32I,
                            OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO,
                            CUDA_R_32F) == OXSPARSE_STATUS_SUCCESS);
    oxsparseConstSpMatDescr_t cmat = mat; // implicit, as with cuSPARSE
    int64_t r = 0, c = 0, nnz = 0;
    CHECK(oxsparseSpMatGetSize(cmat, &r, &c, &nnz) == OXSPARSE_STATUS_SUCCESS);
    CHECK(r == 2 && c == 2 && nnz == 4);
    CHECK(oxsparseDestroySpMat(mat) == OXSPARSE_STATUS_SUCCESS);
    CHECK(oxsparseDestroySpMat(nullptr) == OXSPARSE_STATUS_SUCCESS);

    oxsparseDnMatDescr_t dn = nullptr;
    CHECK(oxsparseCreateDnMat(&dn, 2, 2, 2, values, CUDA_R_32F,
                              static_cast<oxsparseOrder_t>(99)) ==
          OXSPARSE_STATUS_INVALID_VALUE);

    if (failures) {
        std::printf("cxx_header: %d check(s) FAILED\n", failures);
        return 1;
    }
    std::printf("cxx_header: all checks passed\n");
    return 0;
}
