/* Ports of NVIDIA CUDALibrarySamples' cuSPARSE programs sparse2dense_csr, dense2sparse_csr,
 * gather, scatter, axpby, rot, spvv, spmm_csr, spmm_coo, spmv_csr, spmv_coo, spmv_sell and
 * sddmm_csr to oxsparse, with a sample of the index helpers (coo2csr, csr2coo, identity
 * permutation). Unlike the originals:
 *   - inputs are pseudo-random from a fixed seed, and the expected results are
 *     computed here on the host in double precision;
 *   - each program runs twice: float with 32-bit indices and base 0, and double
 *     with 64-bit indices and base 1 (column-major dense output for sparse2dense);
 *   - every output is poisoned with 0xFF bytes (a NaN) before the call;
 *   - any mismatch makes the process exit non-zero.
 * Without a GPU it prints "SKIP: no GPU" and exits 0. */
#include "oxsparse.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define CUDA_OK(call)                                                                  \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                    cudaGetErrorString(e_));                                           \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

typedef struct {
    const char *name;
    cudaDataType vtype;
    oxsparseIndexType_t itype;
    oxsparseIndexBase_t base;
    oxsparseOrder_t order; /* of sparse2dense's dense output */
} config_t;

static const config_t configs[] = {
    {"float, 32-bit indices, base 0", CUDA_R_32F, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO,
     OXSPARSE_ORDER_ROW},
    {"double, 64-bit indices, base 1", CUDA_R_64F, OXSPARSE_INDEX_64I, OXSPARSE_INDEX_BASE_ONE,
     OXSPARSE_ORDER_COL},
};

static oxsparseHandle_t handle;

/* ------------------------------------------------------------------ host helpers */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

/* Uniform in [-2, 2), rounded to the element type so that the host reference
 * sees exactly what the device sees. */
static double rnd(cudaDataType t) {
    double x;
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    x = (double)(rng_state >> 11) / 9007199254740992.0 * 4.0 - 2.0;
    return t == CUDA_R_32F ? (double)(float)x : x;
}

static size_t vsize(cudaDataType t) { return t == CUDA_R_32F ? sizeof(float) : sizeof(double); }
static size_t isize(oxsparseIndexType_t t) {
    return t == OXSPARSE_INDEX_32I ? sizeof(int32_t) : sizeof(int64_t);
}

/* nnz sorted distinct positions in [0, n), shifted by the index base. */
static void random_indices(int64_t n, int64_t nnz, int64_t base, int64_t *out) {
    int64_t i, k = 0;
    for (i = 0; i < n && k < nnz; i++) {
        rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
        /* selection sampling: take i with probability (needed / remaining) */
        if ((int64_t)((rng_state >> 33) % (uint64_t)(n - i)) < nnz - k)
            out[k++] = i + base;
    }
}

/* A scalar of the element type, for host-pointer alpha/beta/c/s. */
typedef struct {
    float f;
    double d;
} scalar_t;
static scalar_t scalar(double x) {
    scalar_t s;
    s.f = (float)x;
    s.d = x;
    return s;
}
static const void *scalar_ptr(const scalar_t *s, cudaDataType t) {
    return t == CUDA_R_32F ? (const void *)&s->f : (const void *)&s->d;
}

/* ----------------------------------------------------------------- device helpers */

static void *upload_values(const double *h, int64_t n, cudaDataType t) {
    void *d = NULL, *tmp = malloc((size_t)(n ? n : 1) * vsize(t));
    int64_t i;
    for (i = 0; i < n; i++) {
        if (t == CUDA_R_32F)
            ((float *)tmp)[i] = (float)h[i];
        else
            ((double *)tmp)[i] = h[i];
    }
    CUDA_OK(cudaMalloc(&d, (size_t)(n ? n : 1) * vsize(t)));
    CUDA_OK(cudaMemcpy(d, tmp, (size_t)n * vsize(t), cudaMemcpyHostToDevice));
    free(tmp);
    return d;
}

static void download_values(const void *d, int64_t n, cudaDataType t, double *h) {
    void *tmp = malloc((size_t)(n ? n : 1) * vsize(t));
    int64_t i;
    CUDA_OK(cudaMemcpy(tmp, d, (size_t)n * vsize(t), cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++)
        h[i] = t == CUDA_R_32F ? (double)((float *)tmp)[i] : ((double *)tmp)[i];
    free(tmp);
}

static void *upload_indices(const int64_t *h, int64_t n, oxsparseIndexType_t t) {
    void *d = NULL, *tmp = malloc((size_t)(n ? n : 1) * isize(t));
    int64_t i;
    for (i = 0; i < n; i++) {
        if (t == OXSPARSE_INDEX_32I)
            ((int32_t *)tmp)[i] = (int32_t)h[i];
        else
            ((int64_t *)tmp)[i] = h[i];
    }
    CUDA_OK(cudaMalloc(&d, (size_t)(n ? n : 1) * isize(t)));
    CUDA_OK(cudaMemcpy(d, tmp, (size_t)n * isize(t), cudaMemcpyHostToDevice));
    free(tmp);
    return d;
}

/* 0xFF bytes are a NaN in float and double: an element the call should have
 * written and did not stands out. */
static void poison(void *d, int64_t n, cudaDataType t) {
    CUDA_OK(cudaMemset(d, 0xFF, (size_t)n * vsize(t)));
}

/* ------------------------------------------------------------------- comparison */

/* Exact when tol_scale is 0 (copies), else relative to tol_scale. */
static int compare(const char *what, const double *got, const double *want, int64_t n,
                   cudaDataType t, double tol_scale) {
    double eps = t == CUDA_R_32F ? 1e-5 : 1e-12;
    int64_t i, bad = 0;
    for (i = 0; i < n; i++) {
        int ok = tol_scale == 0.0 ? got[i] == want[i]
                                  : fabs(got[i] - want[i]) <= eps * tol_scale;
        if (isnan(want[i]))
            ok = isnan(got[i]); /* must still be the poison */
        if (!ok && bad++ < 5)
            fprintf(stderr, "    %s[%ld] = %.17g, expected %.17g\n", what, (long)i, got[i],
                    want[i]);
    }
    g_checks++;
    if (bad) {
        fprintf(stderr, "    %s: %ld of %ld elements wrong\n", what, (long)bad, (long)n);
        g_failures++;
    }
    return bad == 0;
}

/* ----------------------------------------------------------------------- samples */

static void sparse2dense_csr(const config_t *c) {
    /* the sample's 5x4 pattern, nnz 11, with random values */
    enum { ROWS = 5, COLS = 4, NNZ = 11 };
    static const int64_t offsets0[ROWS + 1] = {0, 3, 4, 7, 9, 11};
    static const int64_t columns0[NNZ] = {0, 2, 3, 1, 0, 2, 3, 1, 3, 1, 2};
    int64_t offsets[ROWS + 1], columns[NNZ], i, k;
    double values[NNZ];
    /* padded leading dimension: the padding must keep its poison */
    int64_t ld = c->order == OXSPARSE_ORDER_ROW ? COLS + 1 : ROWS + 2;
    int64_t n_dense = c->order == OXSPARSE_ORDER_ROW ? ld * ROWS : ld * COLS;
    double *want = malloc((size_t)n_dense * sizeof(double));
    double *got = malloc((size_t)n_dense * sizeof(double));
    void *d_off, *d_col, *d_val, *d_dense, *d_buf = NULL;
    size_t buffer_size = 0;
    oxsparseSpMatDescr_t matA;
    oxsparseDnMatDescr_t matB;

    for (i = 0; i <= ROWS; i++)
        offsets[i] = offsets0[i] + c->base;
    for (k = 0; k < NNZ; k++) {
        columns[k] = columns0[k] + c->base;
        values[k] = rnd(c->vtype);
    }
    for (k = 0; k < n_dense; k++)
        want[k] = NAN;
    for (i = 0; i < ROWS; i++) {
        int64_t j;
        for (j = 0; j < COLS; j++)
            want[c->order == OXSPARSE_ORDER_ROW ? i * ld + j : j * ld + i] = 0.0;
        for (k = offsets0[i]; k < offsets0[i + 1]; k++) {
            j = columns0[k];
            want[c->order == OXSPARSE_ORDER_ROW ? i * ld + j : j * ld + i] = values[k];
        }
    }

    d_off = upload_indices(offsets, ROWS + 1, c->itype);
    d_col = upload_indices(columns, NNZ, c->itype);
    d_val = upload_values(values, NNZ, c->vtype);
    CUDA_OK(cudaMalloc(&d_dense, (size_t)n_dense * vsize(c->vtype)));
    poison(d_dense, n_dense, c->vtype);

    OK(oxsparseCreateCsr(&matA, ROWS, COLS, NNZ, d_off, d_col, d_val, c->itype, c->itype, c->base,
                         c->vtype));
    OK(oxsparseCreateDnMat(&matB, ROWS, COLS, ld, d_dense, c->vtype, c->order));
    OK(oxsparseSparseToDense_bufferSize(handle, matA, matB, OXSPARSE_SPARSETODENSE_ALG_DEFAULT,
                                        &buffer_size));
    CUDA_OK(cudaMalloc(&d_buf, buffer_size));
    OK(oxsparseSparseToDense(handle, matA, matB, OXSPARSE_SPARSETODENSE_ALG_DEFAULT, d_buf));
    OK(oxsparseDestroySpMat(matA));
    OK(oxsparseDestroyDnMat(matB));

    download_values(d_dense, n_dense, c->vtype, got);
    compare("dense", got, want, n_dense, c->vtype, 0.0);
    CUDA_OK(cudaFree(d_buf));
    CUDA_OK(cudaFree(d_off));
    CUDA_OK(cudaFree(d_col));
    CUDA_OK(cudaFree(d_val));
    CUDA_OK(cudaFree(d_dense));
    free(want);
    free(got);
}

/* dense2sparse_csr: the sample's 5x4 dense matrix (its zero pattern) with random values, A in the
 * config's order with a padded leading dimension (the padding holds nonzero bytes, which must not
 * be read); the target is made with no entries, analysed, sized with SpMatGetSize, given its
 * arrays with CsrSetPointers, and converted. */
static void download_indices(const void *d, int64_t n, oxsparseIndexType_t t, double *h) {
    void *tmp = malloc((size_t)(n ? n : 1) * isize(t));
    int64_t i;
    CUDA_OK(cudaMemcpy(tmp, d, (size_t)n * isize(t), cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++)
        h[i] = t == OXSPARSE_INDEX_32I ? (double)((int32_t *)tmp)[i] : (double)((int64_t *)tmp)[i];
    free(tmp);
}

static void dense2sparse_csr(const config_t *c) {
    enum { ROWS = 5, COLS = 4, NNZ = 11 };
    static const int nonzero[ROWS][COLS] = {
        {1, 0, 1, 1}, {0, 1, 0, 0}, {1, 0, 1, 1}, {0, 1, 0, 1}, {0, 1, 1, 0}};
    int64_t ld = c->order == OXSPARSE_ORDER_ROW ? COLS + 1 : ROWS + 2;
    int64_t n_dense = c->order == OXSPARSE_ORDER_ROW ? ld * ROWS : ld * COLS;
    double *dense = malloc((size_t)n_dense * sizeof(double));
    double want_off[ROWS + 1], want_col[NNZ], want_val[NNZ], got_off[ROWS + 1], got_col[NNZ + 1],
        got_val[NNZ + 1];
    int64_t i, j, k = 0, rows = 0, cols = 0, nnz = -1;
    void *d_dense, *d_off, *d_col, *d_val, *d_buf = NULL;
    size_t buffer_size = 0;
    oxsparseDnMatDescr_t matA;
    oxsparseSpMatDescr_t matB;

    for (i = 0; i < n_dense; i++)
        dense[i] = 1.5; /* the padding: nonzero */
    want_off[0] = (double)c->base;
    for (i = 0; i < ROWS; i++) {
        for (j = 0; j < COLS; j++) {
            double v = 0.0;
            if (nonzero[i][j]) {
                do
                    v = rnd(c->vtype);
                while (v == 0.0);
                want_col[k] = (double)(j + c->base);
                want_val[k++] = v;
            }
            dense[c->order == OXSPARSE_ORDER_ROW ? i * ld + j : j * ld + i] = v;
        }
        want_off[i + 1] = (double)(k + c->base);
    }

    d_dense = upload_values(dense, n_dense, c->vtype);
    CUDA_OK(cudaMalloc(&d_off, (ROWS + 1) * isize(c->itype)));
    CUDA_OK(cudaMemset(d_off, 0xFF, (ROWS + 1) * isize(c->itype)));
    OK(oxsparseCreateDnMat(&matA, ROWS, COLS, ld, d_dense, c->vtype, c->order));
    OK(oxsparseCreateCsr(&matB, ROWS, COLS, 0, d_off, NULL, NULL, c->itype, c->itype, c->base,
                         c->vtype));
    OK(oxsparseDenseToSparse_bufferSize(handle, matA, matB, OXSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                        &buffer_size));
    CUDA_OK(cudaMalloc(&d_buf, buffer_size ? buffer_size : 1));
    OK(oxsparseDenseToSparse_analysis(handle, matA, matB, OXSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                      d_buf));
    OK(oxsparseSpMatGetSize(matB, &rows, &cols, &nnz));
    CHECK(rows == ROWS && cols == COLS && nnz == NNZ);
    /* one element more than nnz: it must keep its poison */
    CUDA_OK(cudaMalloc(&d_col, (NNZ + 1) * isize(c->itype)));
    CUDA_OK(cudaMalloc(&d_val, (NNZ + 1) * vsize(c->vtype)));
    CUDA_OK(cudaMemset(d_col, 0xFF, (NNZ + 1) * isize(c->itype)));
    poison(d_val, NNZ + 1, c->vtype);
    OK(oxsparseCsrSetPointers(matB, d_off, d_col, d_val));
    OK(oxsparseDenseToSparse_convert(handle, matA, matB, OXSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                     d_buf));
    OK(oxsparseDestroyDnMat(matA));
    OK(oxsparseDestroySpMat(matB));

    download_indices(d_off, ROWS + 1, c->itype, got_off);
    download_indices(d_col, NNZ + 1, c->itype, got_col);
    download_values(d_val, NNZ + 1, c->vtype, got_val);
    compare("offsets", got_off, want_off, ROWS + 1, c->vtype, 0.0);
    compare("columns", got_col, want_col, NNZ, c->vtype, 0.0);
    compare("values", got_val, want_val, NNZ, c->vtype, 0.0);
    CHECK(got_col[NNZ] == -1.0 && isnan(got_val[NNZ]));
    CUDA_OK(cudaFree(d_buf));
    CUDA_OK(cudaFree(d_dense));
    CUDA_OK(cudaFree(d_off));
    CUDA_OK(cudaFree(d_col));
    CUDA_OK(cudaFree(d_val));
    free(dense);
}

/* The vector samples share one shape: sparse X (VEC_SIZE, VEC_NNZ) and dense Y (VEC_SIZE). */
enum { VEC_SIZE = 40, VEC_NNZ = 13 };
typedef struct {
    int64_t idx[VEC_NNZ]; /* with the base */
    double x[VEC_NNZ], y[VEC_SIZE];
    void *d_idx, *d_x, *d_y;
    oxsparseSpVecDescr_t vecX;
    oxsparseDnVecDescr_t vecY;
} vectors_t;

static void vectors_setup(vectors_t *v, const config_t *c) {
    int64_t i;
    random_indices(VEC_SIZE, VEC_NNZ, c->base, v->idx);
    for (i = 0; i < VEC_NNZ; i++)
        v->x[i] = rnd(c->vtype);
    for (i = 0; i < VEC_SIZE; i++)
        v->y[i] = rnd(c->vtype);
    v->d_idx = upload_indices(v->idx, VEC_NNZ, c->itype);
    v->d_x = upload_values(v->x, VEC_NNZ, c->vtype);
    v->d_y = upload_values(v->y, VEC_SIZE, c->vtype);
    OK(oxsparseCreateSpVec(&v->vecX, VEC_SIZE, VEC_NNZ, v->d_idx, v->d_x, c->itype, c->base, c->vtype));
    OK(oxsparseCreateDnVec(&v->vecY, VEC_SIZE, v->d_y, c->vtype));
}

static void vectors_teardown(vectors_t *v) {
    OK(oxsparseDestroySpVec(v->vecX));
    OK(oxsparseDestroyDnVec(v->vecY));
    CUDA_OK(cudaFree(v->d_idx));
    CUDA_OK(cudaFree(v->d_x));
    CUDA_OK(cudaFree(v->d_y));
}

static void gather(const config_t *c) {
    vectors_t v;
    double want[VEC_NNZ], got[VEC_NNZ];
    int64_t i;
    vectors_setup(&v, c);
    for (i = 0; i < VEC_NNZ; i++)
        want[i] = v.y[v.idx[i] - c->base];
    poison(v.d_x, VEC_NNZ, c->vtype);
    OK(oxsparseGather(handle, v.vecY, v.vecX));
    download_values(v.d_x, VEC_NNZ, c->vtype, got);
    compare("x", got, want, VEC_NNZ, c->vtype, 0.0);
    vectors_teardown(&v);
}

static void scatter(const config_t *c) {
    vectors_t v;
    double want[VEC_SIZE], got[VEC_SIZE];
    int64_t i;
    vectors_setup(&v, c);
    /* Y is in/out: entries outside the pattern keep their values */
    memcpy(want, v.y, sizeof want);
    for (i = 0; i < VEC_NNZ; i++)
        want[v.idx[i] - c->base] = v.x[i];
    OK(oxsparseScatter(handle, v.vecX, v.vecY));
    download_values(v.d_y, VEC_SIZE, c->vtype, got);
    compare("y", got, want, VEC_SIZE, c->vtype, 0.0);
    vectors_teardown(&v);
}

static void axpby(const config_t *c) {
    vectors_t v;
    double want[VEC_SIZE], got[VEC_SIZE];
    const double alpha = 1.5, beta = -0.75;
    scalar_t a = scalar(alpha), b = scalar(beta);
    int64_t i;
    vectors_setup(&v, c);
    for (i = 0; i < VEC_SIZE; i++)
        want[i] = beta * v.y[i];
    for (i = 0; i < VEC_NNZ; i++)
        want[v.idx[i] - c->base] += alpha * v.x[i];
    OK(oxsparseAxpby(handle, scalar_ptr(&a, c->vtype), v.vecX, scalar_ptr(&b, c->vtype), v.vecY));
    download_values(v.d_y, VEC_SIZE, c->vtype, got);
    compare("y", got, want, VEC_SIZE, c->vtype, 4.0);
    vectors_teardown(&v);
}

static void rot(const config_t *c) {
    vectors_t v;
    double want_x[VEC_NNZ], want_y[VEC_SIZE], got_x[VEC_NNZ], got_y[VEC_SIZE];
    const double cc = 0.6, ss = 0.8; /* a rotation: cc^2 + ss^2 = 1 */
    scalar_t c_coeff = scalar(cc), s_coeff = scalar(ss);
    int64_t i;
    vectors_setup(&v, c);
    memcpy(want_y, v.y, sizeof want_y);
    for (i = 0; i < VEC_NNZ; i++) {
        double x = v.x[i], y = v.y[v.idx[i] - c->base];
        want_x[i] = cc * x + ss * y; /* both from the old values (sample: rot_example) */
        want_y[v.idx[i] - c->base] = cc * y - ss * x;
    }
    OK(oxsparseRot(handle, scalar_ptr(&c_coeff, c->vtype), scalar_ptr(&s_coeff, c->vtype), v.vecX,
                   v.vecY));
    download_values(v.d_x, VEC_NNZ, c->vtype, got_x);
    download_values(v.d_y, VEC_SIZE, c->vtype, got_y);
    compare("x", got_x, want_x, VEC_NNZ, c->vtype, 4.0);
    compare("y", got_y, want_y, VEC_SIZE, c->vtype, 4.0);
    vectors_teardown(&v);
}

static void spvv(const config_t *c) {
    vectors_t v;
    double want = 0.0, scale = 0.0, got;
    scalar_t result;
    size_t buffer_size = 0;
    void *d_buf = NULL, *d_result = NULL;
    int64_t i;
    vectors_setup(&v, c);
    for (i = 0; i < VEC_NNZ; i++) {
        want += v.x[i] * v.y[v.idx[i] - c->base];
        scale += fabs(v.x[i] * v.y[v.idx[i] - c->base]);
    }

    /* host pointer mode, as in the sample: the call returns the value */
    memset(&result, 0xFF, sizeof result);
    OK(oxsparseSpVV_bufferSize(handle, OXSPARSE_OPERATION_NON_TRANSPOSE, v.vecX, v.vecY,
                               scalar_ptr(&result, c->vtype), c->vtype, &buffer_size));
    CUDA_OK(cudaMalloc(&d_buf, buffer_size));
    OK(oxsparseSpVV(handle, OXSPARSE_OPERATION_NON_TRANSPOSE, v.vecX, v.vecY,
                    (void *)scalar_ptr(&result, c->vtype), c->vtype, d_buf));
    got = c->vtype == CUDA_R_32F ? (double)result.f : result.d;
    compare("result (host pointer mode)", &got, &want, 1, c->vtype, scale);

    /* device pointer mode: the result lands in device memory, in stream order */
    CUDA_OK(cudaMalloc(&d_result, vsize(c->vtype)));
    poison(d_result, 1, c->vtype);
    OK(oxsparseSetPointerMode(handle, OXSPARSE_POINTER_MODE_DEVICE));
    OK(oxsparseSpVV(handle, OXSPARSE_OPERATION_NON_TRANSPOSE, v.vecX, v.vecY, d_result, c->vtype,
                    d_buf));
    OK(oxsparseSetPointerMode(handle, OXSPARSE_POINTER_MODE_HOST));
    download_values(d_result, 1, c->vtype, &got);
    compare("result (device pointer mode)", &got, &want, 1, c->vtype, scale);

    CUDA_OK(cudaFree(d_result));
    CUDA_OK(cudaFree(d_buf));
    vectors_teardown(&v);
}

/* spmm_csr and spmm_coo: C = alpha * A * B + beta * C with the samples' 4x4 pattern (nnz 9),
 * B 4x3 column-major, C column-major, random values, alpha 1 and beta 0 as in the samples plus a
 * second call with beta != 0 (C then holds the first result). */
enum { MM_ROWS = 4, MM_K = 4, MM_N = 3, MM_NNZ = 9 };
static const int64_t mm_offsets0[MM_ROWS + 1] = {0, 3, 4, 7, 9};
static const int64_t mm_rows0[MM_NNZ] = {0, 0, 0, 1, 2, 2, 2, 3, 3};
static const int64_t mm_columns0[MM_NNZ] = {0, 2, 3, 1, 0, 2, 3, 1, 3};

static void spmm_sample(const config_t *c, int coo) {
    int64_t offsets[MM_ROWS + 1], rows[MM_NNZ], columns[MM_NNZ], i, j, k;
    double values[MM_NNZ], b[MM_K * MM_N], want[MM_ROWS * MM_N], got[MM_ROWS * MM_N], scale = 0;
    void *d_off, *d_col, *d_val, *d_b, *d_c, *d_buf = NULL;
    size_t buffer_size = 0;
    scalar_t alpha = scalar(1.0), beta = scalar(0.0), beta2 = scalar(0.5);
    oxsparseSpMatDescr_t matA;
    oxsparseDnMatDescr_t matB, matC;
    int pass;

    for (i = 0; i <= MM_ROWS; i++)
        offsets[i] = mm_offsets0[i] + c->base;
    for (k = 0; k < MM_NNZ; k++) {
        rows[k] = mm_rows0[k] + c->base;
        columns[k] = mm_columns0[k] + c->base;
        values[k] = rnd(c->vtype);
    }
    for (k = 0; k < MM_K * MM_N; k++)
        b[k] = rnd(c->vtype);
    for (k = 0; k < MM_ROWS * MM_N; k++)
        want[k] = 0.0;
    for (k = 0; k < MM_NNZ; k++)
        for (j = 0; j < MM_N; j++)
            want[j * MM_ROWS + mm_rows0[k]] += values[k] * b[j * MM_K + mm_columns0[k]];
    for (k = 0; k < MM_ROWS * MM_N; k++)
        scale = fmax(scale, fabs(want[k]) + 8.0);

    d_off = upload_indices(coo ? rows : offsets, coo ? MM_NNZ : MM_ROWS + 1, c->itype);
    d_col = upload_indices(columns, MM_NNZ, c->itype);
    d_val = upload_values(values, MM_NNZ, c->vtype);
    d_b = upload_values(b, MM_K * MM_N, c->vtype);
    CUDA_OK(cudaMalloc(&d_c, (size_t)(MM_ROWS * MM_N) * vsize(c->vtype)));
    poison(d_c, MM_ROWS * MM_N, c->vtype);

    if (coo)
        OK(oxsparseCreateCoo(&matA, MM_ROWS, MM_K, MM_NNZ, d_off, d_col, d_val, c->itype, c->base,
                             c->vtype));
    else
        OK(oxsparseCreateCsr(&matA, MM_ROWS, MM_K, MM_NNZ, d_off, d_col, d_val, c->itype,
                             c->itype, c->base, c->vtype));
    OK(oxsparseCreateDnMat(&matB, MM_K, MM_N, MM_K, d_b, c->vtype, OXSPARSE_ORDER_COL));
    OK(oxsparseCreateDnMat(&matC, MM_ROWS, MM_N, MM_ROWS, d_c, c->vtype, OXSPARSE_ORDER_COL));
    OK(oxsparseSpMM_bufferSize(handle, OXSPARSE_OPERATION_NON_TRANSPOSE,
                               OXSPARSE_OPERATION_NON_TRANSPOSE, scalar_ptr(&alpha, c->vtype), matA,
                               matB, scalar_ptr(&beta, c->vtype), matC, c->vtype,
                               OXSPARSE_SPMM_ALG_DEFAULT, &buffer_size));
    if (buffer_size)
        CUDA_OK(cudaMalloc(&d_buf, buffer_size));
    for (pass = 0; pass < 2; pass++) {
        /* pass 1: beta = 0.5 over the first result, C = A*B + 0.5 * A*B */
        OK(oxsparseSpMM(handle, OXSPARSE_OPERATION_NON_TRANSPOSE,
                        OXSPARSE_OPERATION_NON_TRANSPOSE, scalar_ptr(&alpha, c->vtype), matA, matB,
                        scalar_ptr(pass ? &beta2 : &beta, c->vtype), matC, c->vtype,
                        OXSPARSE_SPMM_ALG_DEFAULT, d_buf));
        download_values(d_c, MM_ROWS * MM_N, c->vtype, got);
        compare(pass ? "C (beta 0.5)" : "C", got, want, MM_ROWS * MM_N, c->vtype, scale);
        for (k = 0; k < MM_ROWS * MM_N; k++)
            want[k] *= 1.5;
    }
    OK(oxsparseDestroySpMat(matA));
    OK(oxsparseDestroyDnMat(matB));
    OK(oxsparseDestroyDnMat(matC));
    if (d_buf)
        CUDA_OK(cudaFree(d_buf));
    CUDA_OK(cudaFree(d_off));
    CUDA_OK(cudaFree(d_col));
    CUDA_OK(cudaFree(d_val));
    CUDA_OK(cudaFree(d_b));
    CUDA_OK(cudaFree(d_c));
}

static void spmm_csr(const config_t *c) { spmm_sample(c, 0); }
static void spmm_coo(const config_t *c) { spmm_sample(c, 1); }

/* spmv_csr, spmv_coo and spmv_sell: y = alpha * A * x + beta * y with the same 4x4 pattern; the
 * Sliced-ELL form is the spmv_sell sample's (slice size 2, 12 slots, padding column -1). Two calls:
 * beta 0 over a poisoned y, then beta 0.5 over the first result. */
enum { MV_SLICE = 2, MV_SLOTS = 12 };
/* slot -> entry of the CSR order (-1: padding), column by column inside each slice */
static const int mv_sell_entry[MV_SLOTS] = {0, 3, 1, -1, 2, -1, 4, 7, 5, 8, 6, -1};
static const int64_t mv_slice_offsets0[3] = {0, 6, 12};

enum { MV_CSR, MV_COO, MV_SELL };

static void spmv_sample(const config_t *c, int format) {
    int64_t offsets[MM_ROWS + 1], rows[MM_NNZ], columns[MM_NNZ], sell_cols[MV_SLOTS], sell_off[3], i, k;
    double values[MM_NNZ], sell_values[MV_SLOTS], x[MM_K], want[MM_ROWS], got[MM_ROWS], scale = 0;
    void *d_off, *d_col, *d_val, *d_x, *d_y, *d_buf = NULL;
    size_t buffer_size = 0;
    scalar_t alpha = scalar(1.0), beta = scalar(0.0), beta2 = scalar(0.5);
    oxsparseSpMatDescr_t matA;
    oxsparseDnVecDescr_t vecX, vecY;
    int pass;

    for (i = 0; i <= MM_ROWS; i++)
        offsets[i] = mm_offsets0[i] + c->base;
    for (k = 0; k < MM_NNZ; k++) {
        rows[k] = mm_rows0[k] + c->base;
        columns[k] = mm_columns0[k] + c->base;
        values[k] = rnd(c->vtype);
    }
    for (k = 0; k < MV_SLOTS; k++) {
        int e = mv_sell_entry[k];
        sell_cols[k] = e < 0 ? -1 : columns[e];
        sell_values[k] = e < 0 ? 0.0 : values[e];
    }
    for (k = 0; k < 3; k++)
        sell_off[k] = mv_slice_offsets0[k] + c->base;
    for (k = 0; k < MM_K; k++)
        x[k] = rnd(c->vtype);
    for (k = 0; k < MM_ROWS; k++)
        want[k] = 0.0;
    for (k = 0; k < MM_NNZ; k++)
        want[mm_rows0[k]] += values[k] * x[mm_columns0[k]];
    for (k = 0; k < MM_ROWS; k++)
        scale = fmax(scale, fabs(want[k]) + 8.0);

    if (format == MV_SELL) {
        d_off = upload_indices(sell_off, 3, c->itype);
        d_col = upload_indices(sell_cols, MV_SLOTS, c->itype);
        d_val = upload_values(sell_values, MV_SLOTS, c->vtype);
        OK(oxsparseCreateSlicedEll(&matA, MM_ROWS, MM_K, MM_NNZ, MV_SLOTS, MV_SLICE, d_off, d_col, d_val,
                                   c->itype, c->itype, c->base, c->vtype));
    } else {
        d_off = upload_indices(format == MV_COO ? rows : offsets, format == MV_COO ? MM_NNZ : MM_ROWS + 1,
                               c->itype);
        d_col = upload_indices(columns, MM_NNZ, c->itype);
        d_val = upload_values(values, MM_NNZ, c->vtype);
        if (format == MV_COO)
            OK(oxsparseCreateCoo(&matA, MM_ROWS, MM_K, MM_NNZ, d_off, d_col, d_val, c->itype, c->base,
                                 c->vtype));
        else
            OK(oxsparseCreateCsr(&matA, MM_ROWS, MM_K, MM_NNZ, d_off, d_col, d_val, c->itype, c->itype,
                                 c->base, c->vtype));
    }
    d_x = upload_values(x, MM_K, c->vtype);
    CUDA_OK(cudaMalloc(&d_y, (size_t)MM_ROWS * vsize(c->vtype)));
    poison(d_y, MM_ROWS, c->vtype);
    OK(oxsparseCreateDnVec(&vecX, MM_K, d_x, c->vtype));
    OK(oxsparseCreateDnVec(&vecY, MM_ROWS, d_y, c->vtype));
    OK(oxsparseSpMV_bufferSize(handle, OXSPARSE_OPERATION_NON_TRANSPOSE, scalar_ptr(&alpha, c->vtype), matA,
                               vecX, scalar_ptr(&beta, c->vtype), vecY, c->vtype, OXSPARSE_SPMV_ALG_DEFAULT,
                               &buffer_size));
    if (buffer_size)
        CUDA_OK(cudaMalloc(&d_buf, buffer_size));
    for (pass = 0; pass < 2; pass++) {
        OK(oxsparseSpMV(handle, OXSPARSE_OPERATION_NON_TRANSPOSE, scalar_ptr(&alpha, c->vtype), matA, vecX,
                        scalar_ptr(pass ? &beta2 : &beta, c->vtype), vecY, c->vtype, OXSPARSE_SPMV_ALG_DEFAULT,
                        d_buf));
        download_values(d_y, MM_ROWS, c->vtype, got);
        compare(pass ? "y (beta 0.5)" : "y", got, want, MM_ROWS, c->vtype, scale);
        for (k = 0; k < MM_ROWS; k++)
            want[k] *= 1.5;
    }
    OK(oxsparseDestroySpMat(matA));
    OK(oxsparseDestroyDnVec(vecX));
    OK(oxsparseDestroyDnVec(vecY));
    if (d_buf)
        CUDA_OK(cudaFree(d_buf));
    CUDA_OK(cudaFree(d_off));
    CUDA_OK(cudaFree(d_col));
    CUDA_OK(cudaFree(d_val));
    CUDA_OK(cudaFree(d_x));
    CUDA_OK(cudaFree(d_y));
}

static void spmv_csr(const config_t *c) { spmv_sample(c, MV_CSR); }
static void spmv_coo(const config_t *c) { spmv_sample(c, MV_COO); }
static void spmv_sell(const config_t *c) { spmv_sample(c, MV_SELL); }

/* sddmm_csr: C = alpha * (A * B) o spy(C) + beta * C with the sample's shapes: A 4x4 row-major,
 * B 4x3, C 4x3 CSR of 9 entries, random values. B is row-major as in the sample (the library
 * copies its columns: bufferSize > 0), then column-major (read in place: bufferSize 0, and a NULL
 * buffer as cudaMalloc(0) gives). bufferSize, cudaMalloc, preprocess and SDDMM with beta 0 over a
 * poisoned C, then SDDMM with beta 0.5 over the first result. */
enum { DD_M = 4, DD_K = 4, DD_N = 3, DD_NNZ = 9 };
static const int64_t dd_offsets0[DD_M + 1] = {0, 3, 4, 7, 9};
static const int64_t dd_columns0[DD_NNZ] = {0, 1, 2, 1, 0, 1, 2, 0, 2};

static void sddmm_sample(const config_t *c, oxsparseOrder_t b_order) {
    int64_t offsets[DD_M + 1], columns[DD_NNZ], ldb = b_order == OXSPARSE_ORDER_ROW ? DD_N : DD_K;
    int64_t i, k, kk;
    double a[DD_M * DD_K], b[DD_K * DD_N], want[DD_NNZ], got[DD_NNZ], scale = 0;
    void *d_a, *d_b, *d_off, *d_col, *d_val, *d_buf = NULL;
    size_t buffer_size = 0;
    scalar_t alpha = scalar(1.0), beta = scalar(0.0), beta2 = scalar(0.5);
    oxsparseDnMatDescr_t matA, matB;
    oxsparseSpMatDescr_t matC;
    int pass;

    for (i = 0; i <= DD_M; i++)
        offsets[i] = dd_offsets0[i] + c->base;
    for (k = 0; k < DD_NNZ; k++)
        columns[k] = dd_columns0[k] + c->base;
    for (k = 0; k < DD_M * DD_K; k++)
        a[k] = rnd(c->vtype); /* A(i, kk) = a[i * DD_K + kk] */
    for (k = 0; k < DD_K * DD_N; k++)
        b[k] = rnd(c->vtype); /* B(kk, j) = b[kk * ldb + j] (row-major) or b[j * ldb + kk] */
    for (i = 0; i < DD_M; i++) {
        for (k = dd_offsets0[i]; k < dd_offsets0[i + 1]; k++) {
            int64_t j = dd_columns0[k];
            double sum = 0.0, mag = 0.0;
            for (kk = 0; kk < DD_K; kk++) {
                double p = a[i * DD_K + kk] * b[b_order == OXSPARSE_ORDER_ROW ? kk * ldb + j : j * ldb + kk];
                sum += p;
                mag += fabs(p);
            }
            want[k] = sum;
            scale = fmax(scale, 2.0 * mag + 8.0);
        }
    }

    d_a = upload_values(a, DD_M * DD_K, c->vtype);
    d_b = upload_values(b, DD_K * DD_N, c->vtype);
    d_off = upload_indices(offsets, DD_M + 1, c->itype);
    d_col = upload_indices(columns, DD_NNZ, c->itype);
    CUDA_OK(cudaMalloc(&d_val, (size_t)DD_NNZ * vsize(c->vtype)));
    poison(d_val, DD_NNZ, c->vtype);

    OK(oxsparseCreateDnMat(&matA, DD_M, DD_K, DD_K, d_a, c->vtype, OXSPARSE_ORDER_ROW));
    OK(oxsparseCreateDnMat(&matB, DD_K, DD_N, ldb, d_b, c->vtype, b_order));
    OK(oxsparseCreateCsr(&matC, DD_M, DD_N, DD_NNZ, d_off, d_col, d_val, c->itype, c->itype, c->base,
                         c->vtype));
    OK(oxsparseSDDMM_bufferSize(handle, OXSPARSE_OPERATION_NON_TRANSPOSE,
                                OXSPARSE_OPERATION_NON_TRANSPOSE, scalar_ptr(&alpha, c->vtype), matA,
                                matB, scalar_ptr(&beta, c->vtype), matC, c->vtype,
                                OXSPARSE_SDDMM_ALG_DEFAULT, &buffer_size));
    /* a copy of B's columns exactly when they are not contiguous */
    CHECK((buffer_size == 0) == (b_order == OXSPARSE_ORDER_COL));
    if (buffer_size)
        CUDA_OK(cudaMalloc(&d_buf, buffer_size));
    OK(oxsparseSDDMM_preprocess(handle, OXSPARSE_OPERATION_NON_TRANSPOSE,
                                OXSPARSE_OPERATION_NON_TRANSPOSE, scalar_ptr(&alpha, c->vtype), matA,
                                matB, scalar_ptr(&beta, c->vtype), matC, c->vtype,
                                OXSPARSE_SDDMM_ALG_DEFAULT, d_buf));
    for (pass = 0; pass < 2; pass++) {
        /* pass 1: beta = 0.5 over the first result, C = A*B + 0.5 * A*B on the pattern */
        OK(oxsparseSDDMM(handle, OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_NON_TRANSPOSE,
                         scalar_ptr(&alpha, c->vtype), matA, matB,
                         scalar_ptr(pass ? &beta2 : &beta, c->vtype), matC, c->vtype,
                         OXSPARSE_SDDMM_ALG_DEFAULT, d_buf));
        download_values(d_val, DD_NNZ, c->vtype, got);
        compare(pass ? "C values (beta 0.5)" : "C values", got, want, DD_NNZ, c->vtype, scale);
        for (k = 0; k < DD_NNZ; k++)
            want[k] *= 1.5;
    }
    OK(oxsparseDestroyDnMat(matA));
    OK(oxsparseDestroyDnMat(matB));
    OK(oxsparseDestroySpMat(matC));
    if (d_buf)
        CUDA_OK(cudaFree(d_buf));
    CUDA_OK(cudaFree(d_a));
    CUDA_OK(cudaFree(d_b));
    CUDA_OK(cudaFree(d_off));
    CUDA_OK(cudaFree(d_col));
    CUDA_OK(cudaFree(d_val));
}

static void sddmm_csr(const config_t *c) { sddmm_sample(c, OXSPARSE_ORDER_ROW); }
static void sddmm_csr_col_b(const config_t *c) { sddmm_sample(c, OXSPARSE_ORDER_COL); }

/* coo2csr (oxsparse's own sample of the legacy index helpers): spmm's 4x4 pattern's sorted COO
 * rows to CSR offsets, back to rows with csr2coo, and the identity permutation of its entries; 32-bit
 * indices in the config's base, outputs poisoned (-1) with one extra int that must keep it. */
static void coo2csr(const config_t *c) {
    int rows[MM_NNZ], offsets_want[MM_ROWS + 1] = {0, 3, 4, 7, 9}, got[MM_NNZ + 1], i;
    int *d_rows, *d_offsets, *d_back, *d_perm;
    const int base = c->base == OXSPARSE_INDEX_BASE_ONE;
    for (i = 0; i < MM_NNZ; i++) rows[i] = (int)mm_rows0[i] + base;
    for (i = 0; i <= MM_ROWS; i++) offsets_want[i] += base;
    CUDA_OK(cudaMalloc((void **)&d_rows, sizeof rows));
    CUDA_OK(cudaMalloc((void **)&d_offsets, (MM_ROWS + 2) * sizeof(int)));
    CUDA_OK(cudaMalloc((void **)&d_back, (MM_NNZ + 1) * sizeof(int)));
    CUDA_OK(cudaMalloc((void **)&d_perm, (MM_NNZ + 1) * sizeof(int)));
    CUDA_OK(cudaMemcpy(d_rows, rows, sizeof rows, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d_offsets, 0xFF, (MM_ROWS + 2) * sizeof(int)));
    CUDA_OK(cudaMemset(d_back, 0xFF, (MM_NNZ + 1) * sizeof(int)));
    CUDA_OK(cudaMemset(d_perm, 0xFF, (MM_NNZ + 1) * sizeof(int)));

    OK(oxsparseXcoo2csr(handle, d_rows, MM_NNZ, MM_ROWS, d_offsets, c->base));
    CUDA_OK(cudaMemcpy(got, d_offsets, (MM_ROWS + 2) * sizeof(int), cudaMemcpyDeviceToHost));
    for (i = 0; i <= MM_ROWS; i++) CHECK(got[i] == offsets_want[i]);
    CHECK(got[MM_ROWS + 1] == -1);

    OK(oxsparseXcsr2coo(handle, d_offsets, MM_NNZ, MM_ROWS, d_back, c->base));
    CUDA_OK(cudaMemcpy(got, d_back, (MM_NNZ + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    for (i = 0; i < MM_NNZ; i++) CHECK(got[i] == rows[i]);
    CHECK(got[MM_NNZ] == -1);

    OK(oxsparseCreateIdentityPermutation(handle, MM_NNZ, d_perm));
    CUDA_OK(cudaMemcpy(got, d_perm, (MM_NNZ + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    for (i = 0; i < MM_NNZ; i++) CHECK(got[i] == i);
    CHECK(got[MM_NNZ] == -1);

    BAD(oxsparseXcoo2csr(handle, d_rows, -1, MM_ROWS, d_offsets, c->base));
    BAD(oxsparseXcsr2coo(handle, NULL, MM_NNZ, MM_ROWS, d_back, c->base));
    BAD(oxsparseCreateIdentityPermutation(handle, MM_NNZ, NULL));
    CUDA_OK(cudaFree(d_rows));
    CUDA_OK(cudaFree(d_offsets));
    CUDA_OK(cudaFree(d_back));
    CUDA_OK(cudaFree(d_perm));
}

int main(void) {
    static const struct {
        const char *name;
        void (*run)(const config_t *);
    } samples[] = {
        {"sparse2dense_csr", sparse2dense_csr},
        {"dense2sparse_csr", dense2sparse_csr},
        {"gather", gather},
        {"scatter", scatter},
        {"axpby", axpby},
        {"rot", rot},
        {"spvv", spvv},
        {"spmm_csr", spmm_csr},
        {"spmm_coo", spmm_coo},
        {"spmv_csr", spmv_csr},
        {"spmv_coo", spmv_coo},
        {"spmv_sell", spmv_sell},
        {"sddmm_csr", sddmm_csr},
        {"sddmm_csr_col_b", sddmm_csr_col_b},
        {"coo2csr", coo2csr},
    };
    int devices = 0, failed_samples = 0;
    size_t s, k;
    cudaError_t err = cudaGetDeviceCount(&devices);
    if (err != cudaSuccess || devices == 0) {
        printf("SKIP: no GPU (cudaGetDeviceCount: %s, %d devices)\n",
               err == cudaSuccess ? "ok" : cudaGetErrorString(err), devices);
        return 0;
    }
    OK(oxsparseCreate(&handle));
    if (g_failures) {
        printf("c_gpu_samples: oxsparseCreate failed although %d GPU(s) are visible\n", devices);
        return 1;
    }
    for (s = 0; s < sizeof samples / sizeof samples[0]; s++) {
        for (k = 0; k < sizeof configs / sizeof configs[0]; k++) {
            int before = g_failures;
            samples[s].run(&configs[k]);
            printf("%-17s %-32s %s\n", samples[s].name, configs[k].name,
                   g_failures == before ? "ok" : "FAILED");
            failed_samples += g_failures != before;
        }
    }
    OK(oxsparseDestroy(handle));
    if (g_failures) {
        printf("c_gpu_samples: %d sample run(s) FAILED (%d of %d checks)\n", failed_samples,
               g_failures, g_checks);
        return 1;
    }
    printf("c_gpu_samples: all %d checks passed\n", g_checks);
    return 0;
}
