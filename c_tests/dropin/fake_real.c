/* A stand-in for the real cuSPARSE in the host checks (scripts/check_dropin.sh): the face opens it
 * through OXSPARSE_CUSPARSE_FALLBACK and forwards to it. It implements one function whose
 * arguments are only passed through: cusparseCreateCsric02Info writes a recognisable value. */
int cusparseCreateCsric02Info(void **info) {
    *info = (void *)0xC0FFEE;
    return 0;
}
