/* Check macros shared by the C tests. A failed check prints where and why and
 * is counted; main() returns non-zero when any failed (unlike NVIDIA's samples,
 * which print FAILED and still exit 0). */
#ifndef OXSPARSE_TEST_UTIL_H
#define OXSPARSE_TEST_UTIL_H

#include <stdio.h>
#include <stdint.h>
#include "oxsparse.h"

static int g_checks = 0;
static int g_failures = 0;

static inline const char *status_name(oxsparseStatus_t s) {
    const char *name = oxsparseGetErrorName(s);
    return name ? name : "(null)";
}

#define CHECK(cond)                                                              \
    do {                                                                         \
        g_checks++;                                                              \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            g_failures++;                                                        \
        }                                                                        \
    } while (0)

/* The call must return `want` (or `alt`, for behaviour cuSPARSE leaves open). */
#define EXPECT_STATUS2(call, want, alt)                                          \
    do {                                                                         \
        oxsparseStatus_t st_ = (call);                                           \
        g_checks++;                                                              \
        if (st_ != (want) && st_ != (alt)) {                                     \
            fprintf(stderr, "%s:%d: %s\n    returned %s (%d), expected %s\n",    \
                    __FILE__, __LINE__, #call, status_name(st_), (int)st_, #want); \
            g_failures++;                                                        \
        }                                                                        \
    } while (0)
#define EXPECT_STATUS(call, want) EXPECT_STATUS2(call, want, want)
#define OK(call) EXPECT_STATUS(call, OXSPARSE_STATUS_SUCCESS)
#define BAD(call) EXPECT_STATUS(call, OXSPARSE_STATUS_INVALID_VALUE)

/* Descriptors never dereference data pointers, so tests that need no GPU use
 * distinct fake addresses, aligned for every element type. */
#define FAKE(n) ((void *)(uintptr_t)(0x100000u * (unsigned)(n)))
/* Misaligned for every element type wider than one byte. */
#define FAKE_MISALIGNED ((void *)(uintptr_t)0x100001u)

#endif
