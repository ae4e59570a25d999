// Csr2cscEx2 for small matrices (n <= SMALL_COLUMNS, nnz <= SMALL_ENTRIES): the stages of
// csr2csc.cu in one block of SMALL_THREADS, its barriers in place of kernel boundaries. Ten
// launches cost more than the work on such a matrix; one block does it in one.
//
//   1. count     column counts in shared memory (shared atomics)
//   2. scan      the counts become starts (cscColPtr written, with the base); columns of more than
//                TILE entries (at most SMALL_LONG) are listed as long and marked in the cursors
//   3. scatter   a thread walks a contiguous range of entries, rows advancing from one search:
//                a short column's entry claims a slot (shared cursor) and writes its entry number
//                (perm) and row, as stage 5 of csr2csc.cu; the thread counts its long entries
//   4. long      each long column's entries are placed in order without a sort: a thread's
//                entries of a column come before those of the next thread, so its first slot is
//                the column's start plus the earlier threads' counts (scanned); the thread walks
//                its range again, writing rows and values there
//   5. sort      short columns by entry number, as stage 6 of csr2csc.cu: a thread, a warp or the
//                block a column by length
//
// Included by csr2csc.cu (its helpers and tiling constants); the launcher mirrors the limits in
// src/kernels/csr2csc.rs.

constexpr int SMALL_THREADS = 512;
constexpr int SMALL_WARPS = SMALL_THREADS / WARP;
constexpr int SMALL_COLUMNS = 8192;  // column counters in the 32 KB pool
constexpr int SMALL_ENTRIES = 65536;
constexpr int SMALL_LONG = 16;  // columns of more than TILE entries a small matrix can have
constexpr int SMALL_UNROLL = 4;  // entries a thread counts at once
constexpr int32_t SMALL_LONG_MARK = INT32_MIN;
static_assert(SMALL_ENTRIES / (TILE + 1) < SMALL_LONG, "every long column of a small matrix is listed");
static_assert(SMALL_COLUMNS * 4 <= TILE * 8, "the counters fit the pool");
static_assert(SMALL_LONG * SMALL_THREADS * 4 <= TILE * 8, "the long columns' per-thread counts fit the pool");
static_assert(SMALL_WARPS * WARP_SLOTS * 2 * 4 <= TILE * 8, "the warps' sort regions fit the pool");

struct SmallLong {
    int count;                   // long columns listed
    int32_t column[SMALL_LONG];  // their numbers
    int32_t first[SMALL_LONG];   // their first slots (0-based)
};

// The entries [begin, end) a thread walks in stages 3 and 4.
__device__ __forceinline__ void small_range(const Csr2cscParams& p, int64_t& begin, int64_t& end) {
    const int64_t per = (p.nnz + SMALL_THREADS - 1) / SMALL_THREADS;
    begin = min(int64_t(threadIdx.x) * per, p.nnz);
    end = min(begin + per, p.nnz);
}

// The list index of column c when it is long, else -1.
__device__ __forceinline__ int small_long_index(const SmallLong& l, int32_t c) {
    int at = -1;
#pragma unroll
    for (int i = 0; i < SMALL_LONG; ++i) at = i < l.count && l.column[i] == c ? i : at;
    return at;
}

// 1 + 2. Counts, then starts: cursor[c] is column c's first slot (0-based, marked when long).
__device__ void small_count_and_scan(const Csr2cscParams& p, int32_t* cursor, SmallLong& l) {
    const int n = int(p.n);
    for (int c = threadIdx.x; c < n; c += SMALL_THREADS) cursor[c] = 0;
    if (threadIdx.x == 0) l.count = 0;
    __syncthreads();
    // SMALL_UNROLL columns read before their counts are added: the reads wait together.
    for (int64_t k0 = threadIdx.x; k0 < p.nnz; k0 += SMALL_THREADS * SMALL_UNROLL) {
        int32_t c[SMALL_UNROLL];
#pragma unroll
        for (int u = 0; u < SMALL_UNROLL; ++u) c[u] = column_of(p, k0 + u * SMALL_THREADS);
#pragma unroll
        for (int u = 0; u < SMALL_UNROLL; ++u) {
            if (c[u] >= 0) atomicAdd(cursor + c[u], 1);
        }
    }
    __syncthreads();
    int32_t* cp = mut_i32(p.csc_col_ptr);
    int32_t carry = 0;
    for (int c0 = 0; c0 < n; c0 += SMALL_THREADS) {
        const int c = c0 + threadIdx.x;
        const int32_t v = c < n ? cursor[c] : 0;
        int32_t total;
        const int32_t before = scan::block_exclusive<SMALL_THREADS>(v, total) + carry;
        if (c < n) {
            cp[c] = before + int32_t(p.base);
            int32_t cur = before;
            if (v > TILE) {
                const int at = atomicAdd(&l.count, 1);
                l.column[at] = c;
                l.first[at] = before;
                cur |= SMALL_LONG_MARK;
            }
            cursor[c] = cur;
        }
        carry += total;
    }
    if (threadIdx.x == 0) cp[n] = carry + int32_t(p.base);
    __syncthreads();
}

// 3. A short column's entries claim slots; returns nothing, counts the thread's long entries.
__device__ void small_scatter(const Csr2cscParams& p, int32_t* cursor, const SmallLong& l, int32_t (&mine)[SMALL_LONG]) {
    const int32_t* rp = ptr_i32(p.csr_row_ptr);
    uint32_t* perm = mut_u32(p.perm);
    int32_t* rows = mut_i32(p.csc_row_ind);
    int64_t begin, end;
    small_range(p, begin, end);
    int64_t r = begin < end ? row_of(p, begin) : 0;
    int32_t next = begin < end ? column_of(p, begin) : -1;
    for (int64_t k = begin; k < end; ++k) {
        const int32_t c = next;
        next = k + 1 < end ? column_of(p, k + 1) : -1;  // read while this entry's claim is out
        if (c < 0) continue;
        while (r + 1 < p.m && int64_t(rp[r + 1]) - p.base <= k) ++r;
        if (cursor[c] < 0) {  // long (only its mark's sign is read: no thread changes it here)
            const int at = small_long_index(l, c);
#pragma unroll
            for (int i = 0; i < SMALL_LONG; ++i) mine[i] += i == at;
            continue;
        }
        const int32_t slot = atomicAdd(cursor + c, 1);
        perm[slot] = uint32_t(k);
        rows[slot] = int32_t(r);
    }
}

// 4. Long columns in place: the threads' counts scanned per column (a warp a column), then each
// thread's entries written from its first slot on, in entry order.
template <typename W>
__device__ void small_place_long(const Csr2cscParams& p, int32_t* counts, const SmallLong& l, int32_t (&mine)[SMALL_LONG]) {
    const int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
#pragma unroll
    for (int i = 0; i < SMALL_LONG; ++i) counts[i * SMALL_THREADS + threadIdx.x] = mine[i];
    __syncthreads();
    constexpr int PER_LANE = SMALL_THREADS / WARP;
    for (int i = warp; i < l.count; i += SMALL_WARPS) {
        int32_t* row = counts + i * SMALL_THREADS + lane * PER_LANE;
        int32_t sum = 0;
        for (int j = 0; j < PER_LANE; ++j) sum += row[j];
        int32_t incl = sum;
        for (int o = 1; o < WARP; o *= 2) {
            const int32_t up = __shfl_up_sync(0xffffffffu, incl, o);
            if (lane >= o) incl += up;
        }
        int32_t run = l.first[i] + incl - sum;
        for (int j = 0; j < PER_LANE; ++j) {
            const int32_t v = row[j];
            row[j] = run;
            run += v;
        }
    }
    __syncthreads();
    int32_t next[SMALL_LONG];
#pragma unroll
    for (int i = 0; i < SMALL_LONG; ++i) next[i] = i < l.count ? counts[i * SMALL_THREADS + threadIdx.x] : 0;
    const int32_t* rp = ptr_i32(p.csr_row_ptr);
    int32_t* rows = mut_i32(p.csc_row_ind);
    int64_t begin, end;
    small_range(p, begin, end);
    int64_t r = begin < end ? row_of(p, begin) : 0;
    for (int64_t k = begin; k < end; ++k) {
        const int32_t c = column_of(p, k);
        const int at = c >= 0 ? small_long_index(l, c) : -1;
        if (at < 0) continue;
        while (r + 1 < p.m && int64_t(rp[r + 1]) - p.base <= k) ++r;
        int32_t slot = 0;
#pragma unroll
        for (int i = 0; i < SMALL_LONG; ++i) {
            if (i == at) slot = next[i]++;
        }
        rows[slot] = int32_t(r + p.base);
        if (p.numeric) reinterpret_cast<W*>(p.csc_val)[slot] = reinterpret_cast<const W*>(p.csr_val)[k];
    }
}

// 5. Short columns sorted: a thread, a warp, or the whole block a column, by length.
template <typename W>
__device__ void small_sort(const Csr2cscParams& p, uint64_t* pool) {
    __shared__ int32_t listed_begin[SMALL_ENTRIES / (WARP_SLOTS + 1) + 1], listed_len[SMALL_ENTRIES / (WARP_SLOTS + 1) + 1];
    __shared__ int listed;
    const int32_t* cp = ptr_i32(p.csc_col_ptr);
    const int n = int(p.n), lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    if (threadIdx.x == 0) listed = 0;
    __syncthreads();
    for (int c = threadIdx.x; c < n; c += SMALL_THREADS) {
        const int64_t begin = int64_t(cp[c]) - p.base;
        const int len = int(int64_t(cp[c + 1]) - p.base - begin);
        if (len == 1) place<W>(p, begin, mut_u32(p.perm)[begin], ptr_i32(p.csc_row_ind)[begin]);
        else if (len > 1 && len <= 4) sort_in_thread<W, 4>(p, begin, len);
        else if (len > 4 && len <= 8) sort_in_thread<W, 8>(p, begin, len);
        else if (len > 8 && len <= THREAD_SLOTS) sort_in_thread<W, THREAD_SLOTS>(p, begin, len);
        else if (len > WARP_SLOTS && len <= TILE) {
            const int at = atomicAdd(&listed, 1);
            listed_begin[at] = int32_t(begin);
            listed_len[at] = len;
        }
    }
    // The warps take the columns of THREAD_SLOTS + 1 to WARP_SLOTS slots, 32 columns' bounds a read.
    uint32_t* sk = reinterpret_cast<uint32_t*>(pool) + warp * 2 * WARP_SLOTS;
    uint32_t* sr = sk + WARP_SLOTS;
    for (int c0 = warp * WARP; c0 < n; c0 += SMALL_THREADS) {
        const int c = c0 + lane;
        const int32_t b = c < n ? cp[c] : 0, len = c < n ? cp[c + 1] - b : 0;
        for (unsigned todo = __ballot_sync(0xffffffffu, len > THREAD_SLOTS && len <= WARP_SLOTS); todo != 0; todo &= todo - 1) {
            const int from = __ffs(todo) - 1;
            const int64_t begin = int64_t(__shfl_sync(0xffffffffu, b, from)) - p.base;
            const int l = __shfl_sync(0xffffffffu, len, from);
            if (l <= 32) sort_in_warp<W, 1>(p, sk, sr, begin, l, lane);
            else if (l <= 64) sort_in_warp<W, 2>(p, sk, sr, begin, l, lane);
            else if (l <= 128) sort_in_warp<W, 4>(p, sk, sr, begin, l, lane);
            else sort_in_warp<W, WARP_SLOTS / WARP>(p, sk, sr, begin, l, lane);
        }
    }
    __syncthreads();
    auto block_sync = [] { __syncthreads(); };
    for (int i = 0; i < listed; ++i) sort_in_shared<W>(p, pool, listed_begin[i], listed_len[i], threadIdx.x, SMALL_THREADS, block_sync);
}

template <typename W>
__device__ void small_transpose(const Csr2cscParams& p) {
    __shared__ __align__(16) uint64_t pool[TILE];
    __shared__ SmallLong l;
    int32_t* cursor = reinterpret_cast<int32_t*>(pool);
    small_count_and_scan(p, cursor, l);
    int32_t mine[SMALL_LONG];
#pragma unroll
    for (int i = 0; i < SMALL_LONG; ++i) mine[i] = 0;
    small_scatter(p, cursor, l, mine);
    __syncthreads();  // the cursors are done with: the pool holds the long counts, then the sorts
    if (l.count > 0) {
        small_place_long<W>(p, reinterpret_cast<int32_t*>(pool), l, mine);
        __syncthreads();
    }
    small_sort<W>(p, pool);
}
