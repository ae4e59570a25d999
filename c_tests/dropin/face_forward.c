/* Forwarding on a machine without a GPU (scripts/check_dropin.sh). Run with
 * OXSPARSE_CUSPARSE_FALLBACK naming fake_real.c's library ("forwarded": the call reaches it) or the
 * face itself ("self": the face must not forward to itself, so NOT_SUPPORTED). */
#include <stdio.h>
#include <string.h>

int cusparseCreateCsric02Info(void **info);

int main(int argc, char **argv) {
    int forwarded = argc > 1 && strcmp(argv[1], "forwarded") == 0;
    void *info = NULL;
    int status = cusparseCreateCsric02Info(&info);
    int ok = forwarded ? status == 0 && info == (void *)0xC0FFEE : status == 10 && info == NULL;
    printf("face_forward (%s): status %d, %s\n", forwarded ? "forwarded" : "self", status, ok ? "passed" : "FAILED");
    return !ok;
}
