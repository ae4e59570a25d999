// SDDMM's kernels for CSR C whose lines of A and B start on 16 bytes and hold whole 16-byte vectors
// (k * element size a multiple of 16): the common case, with the general kernel's bookkeeping cut
// to what it needs. G lanes share a value; each reads V of a line's 16-byte vectors (sub, sub + G,
// ..., the order the general kernel sums in, so all give the same bits). Three forms, by V:
// chunked (V <= 2): a warp takes its run of C's values in chunks of 32, one value per lane:
//   1. per chunk, each lane's row and column: the ends of the 32 rows from the chunk's first row
//      in one load (the run's first chunk's: in the window the search for its row loads last),
//      each lane's row by a search over them with shuffles (a longer span, from empty rows, by a
//      search of the offsets), the columns loaded with the rows' ends;
//   2. groups of G lanes take G consecutive values of the chunk, one per round, the A and B
//      vectors of several rounds loaded at once, none of the loads predicated;
//   3. the G partial sums of each lane are summed over the group by recursive halving, which
//      pairs the same lanes as the general kernel's butterfly (the same bits) with G - 1 shuffles
//      instead of G log2 G, and leaves each lane with its own value;
//   4. each lane writes its value as alpha * dot + beta * C (C unread when beta is 0), coalesced.
// stepped (V = 4): chunks as above, their columns and rows' ends loaded a chunk ahead, during the
// products of the chunk before (measured slower in the chunked form, whose 48 registers it raised
// to a thread block a multiprocessor fewer); a group takes one value a step (up to the run's last
// value) and sums its products by a butterfly; per value (V = 8): a group takes one value a step
// (its row followed from the last), its B loads unpredicated as above, and sums its products by a
// butterfly.
#include "common/sddmm.cuh"
#include <type_traits>

namespace {

using namespace sddmm_shared;

// Vectors a lane loads before any is used: 8 (32 registers) in flight, half of A and half of B.
constexpr int vectors_in_flight = 8;

template <typename I>
__device__ __forceinline__ I shfl_index(I v, int src) {
    return __shfl_sync(0xffffffffu, v, src);
}

// What a chunk of 32 values needs before its products, in two loads issued together: each lane's
// column (at position q, the last value's for a lane past the run) and the end of row `row + lane`
// (the last row's for a lane past the rows), as stored. Neither load is predicated (a predicated
// load made the compiler copy its result into place, which waits for it), so the stepped form can
// load the next chunk's during this chunk's products.
template <typename I>
struct ChunkFetch {
    I col, end;
    template <typename O>
    __device__ __forceinline__ void load(const O& o, I chunk, I row, int lane) {
        const I q = chunk + I(lane), r = row + I(lane);
        col = o.cols[q < o.last ? q : I(o.last - 1)];
        end = o.offsets[(r < o.rows ? r : I(o.rows - 1)) + 1];
    }
};

// Where the rows stand at a warp's first value: the row holding value `first` (values counted from
// 0 in the batch; `offsets` as stored, `base` their index base; first < the values) and, in each
// lane, the stored end of row `row + lane` (the last row's end for a lane past the rows). Rounds of
// 32 evenly spaced probes (one memory round trip, a probe a lane) narrow the row to at most
// WINDOW - 32 candidates; then WINDOW consecutive offsets from there, loaded at once (8 a lane,
// a few cache lines), hold both the row and the ends of the 32 rows from it. One round trip on
// fewer than 225 rows, two on fewer than 7,169, where a search to the row and a load of the ends
// took three to four. (Four probes a lane took fewer rounds but 128 cache lines a warp, each a
// wavefront of L1: on the masks of 4,096 rows every warp searching at once ran 1.2x slower.)
template <typename I>
struct RowWindow {
    I row;  // the row holding value `first`
    I end;  // the stored end of row `row + lane`
};

template <typename I>
__device__ __forceinline__ RowWindow<I> warp_row_window(const I* offsets, I base, I rows, I first) {
    using U = typename std::make_unsigned<I>::type;  // probes run to rows + WINDOW: no overflow
    constexpr int PER_LANE = 8;
    constexpr U WINDOW = PER_LANE * WARP;
    const U lane = threadIdx.x % WARP;
    const I target = I(first + 1 + base);  // the answer R: the first row whose stored start reaches it
    U lo = 0, hi = U(rows);                // R lies in [lo, hi] (offsets[rows] >= target)
    while (hi - lo > WINDOW - WARP) {
        const U step = (hi - lo + WARP - 1) / WARP;
        const U probe = lo + lane * step;
        const bool below = probe < hi && offsets[probe < hi ? probe : hi] < target;
        const int n = __popc(__ballot_sync(0xffffffffu, below));
        // Probes 0 .. n-1 lie before R, probe n (if any) at or after it.
        const U next = n == 0 ? lo : lo + U(n - 1) * step + 1;
        hi = min(hi, lo + U(n) * step);
        lo = next;
    }
    // The window: offsets[lo + j], j < WINDOW (those past the rows read as offsets[rows]), lane l
    // holding j = l, l + 32, ... The j with offsets[lo + j] < target are those below R - lo.
    I seen[PER_LANE];
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        const U r = lo + i * WARP + lane;
        seen[i] = offsets[r < U(rows) ? r : U(rows)];
    }
    int n = 0;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) n += __popc(__ballot_sync(0xffffffffu, seen[i] < target));
    // Row R - 1 + lane ends at offsets[R + lane], window place n + lane (below WINDOW).
    const int at = n + int(lane);
    I end = seen[0];
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        const I got = __shfl_sync(0xffffffffu, seen[i], at % WARP);
        if (at / WARP == i) end = got;
    }
    return RowWindow<I>{I(lo + U(n) - 1), end};
}

// The row of value `q` of a chunk whose first value lies in `row`, from the ends of rows row ..
// row + 31 fetched one per lane (`fetched`): each lane finds the first end past its value by a
// five-step search over them with shuffles; a value past row + 31 (a run of empty rows) searches
// the offsets.
template <typename I, typename End>
__device__ __forceinline__ I row_in_chunk(const End& end, I rows, I row, I q, int lane, I fetched, I base) {
    const I r = row + I(lane);
    const I largest = sizeof(I) == 8 ? I(INT64_MAX) : I(INT32_MAX);
    const I my_end = r < rows ? I(fetched - base) : largest;
    int pos = 0;
#pragma unroll
    for (int step = WARP / 2; step > 0; step /= 2)
        if (shfl_index(my_end, pos + step - 1) <= q) pos += step;
    if (shfl_index(my_end, pos) > q) return row + I(pos);
    return advance(end, rows, I(row + WARP - 1), q);
}

// The sums over a group of G lanes of G values at once: `d[u]` is this lane's part of the group's
// value u; the result is the whole of value `sub` (the lane's place in the group). Each step pairs
// lanes `m` apart as group_sum does, so every value gets the bits group_sum would give it.
template <typename C, int G>
__device__ __forceinline__ C transposed_group_sum(C (&d)[G], int sub) {
#pragma unroll
    for (int m = G / 2; m > 0; m /= 2) {
        const bool upper = (sub & m) != 0;
#pragma unroll
        for (int u = 0; u < m; ++u) {
            const C send = upper ? d[u] : d[u + m];
            const C keep = upper ? d[u + m] : d[u];
            d[u] = keep + shfl_xor(send, m);
        }
    }
    return d[0];
}

// What the forms read from the parameter block for one warp: its run of C's values [first, last)
// in batch blockIdx.y, the arrays of that batch (A's and B's as 16-byte vectors), the scalars, the
// row of the run's first value, and its first chunk's columns and rows' ends (ChunkFetch, which
// the stepped form takes), loaded with the search for that row (warp_row_window: the rows' ends
// are in the window it loads last). `live` is false for a warp past the last value.
template <typename T, typename TC, typename C, typename I>
struct LeanOperands {
    bool live;
    I first, last, base, rows, n, row;
    const I* offsets;
    const I* cols;
    TC* out;
    const uint4* a;
    const uint4* b;
    int vectors;  // a line's length in 16-byte vectors
    C alpha, beta;
    bool products, read_c;
    ChunkFetch<I> first_fetch;  // the first chunk's, loaded with the search for its row

    __device__ explicit LeanOperands(const SddmmParams& p) {
        const int64_t warp = (int64_t(blockIdx.x) * BLOCK + threadIdx.x) / WARP;
        live = warp * p.entries_per_warp < p.stored;
        if (!live) return;
        first = I(warp * p.entries_per_warp);
        last = I(min(int64_t(first) + p.entries_per_warp, p.stored));
        const int64_t batch = blockIdx.y;
        offsets = reinterpret_cast<const I*>(p.c.offsets) + batch * p.c.offsets_batch_stride;
        cols = reinterpret_cast<const I*>(p.c.cols) + batch * p.c.cols_batch_stride;
        out = reinterpret_cast<TC*>(p.c.values) + batch * p.c.values_batch_stride;
        a = reinterpret_cast<const uint4*>(reinterpret_cast<const T*>(p.a.values) + batch * p.a.batch_stride);
        b = reinterpret_cast<const uint4*>(reinterpret_cast<const T*>(p.b.values) + batch * p.b.batch_stride);
        vectors = int(p.k * int64_t(sizeof(T)) / VECTOR_BYTES);
        base = I(p.c.base);
        rows = I(p.rows);
        n = I(p.n);
        alpha = load_scalar<C>(p.alpha);
        beta = load_scalar<C>(p.beta);
        products = p.k > 0 && !is_zero(alpha);
        read_c = !is_zero(beta);
        const int lane = threadIdx.x % WARP;
        const I q = first + I(lane);
        first_fetch.col = cols[q < last ? q : I(last - 1)];
        const RowWindow<I> w = warp_row_window(offsets, base, rows, first);
        row = w.row;
        first_fetch.end = w.end;
    }
    // Where row r ends, as a position among this batch's values.
    __device__ I end(I r) const { return I(offsets[r + 1] - base); }
    // The value to write at position q, given its dot product.
    __device__ void write(I q, C dot) const {
        C v = products ? alpha * dot : zero<C>();
        if (read_c) v = v + beta * to_compute<C>(out[q]);
        out[q] = from_compute<TC>(v);
    }
};

// A lane's vectors of a line: vector t is at `at[t]` (sub + t G where `has[t]`, the line's first
// vector otherwise), so that every load reads a valid vector unpredicated and only the `has[t]`
// ones are summed. Unsigned, with line offsets counted in 32 bits (the plan runs the lean kernel
// only where every line starts within 2^31 vectors of its operand, lines_within_u32_vectors): a
// vector's address is then one widening multiply-add from its line's, where signed 64-bit
// offsets took six instructions.
template <int G, int V>
struct LaneVectors {
    bool has[V];
    uint32_t at[V];
    __device__ LaneVectors(int sub, int vectors) {
#pragma unroll
        for (int t = 0; t < V; ++t) {
            has[t] = sub + t * G < vectors;
            at[t] = uint32_t(has[t] ? sub + t * G : 0);
        }
    }
};

// T: A's and B's storage type; TC: C's; C: the compute type; I: C's index type (positions are
// counted in it: nnz + base fits); G: lanes per value; V: 16-byte vectors a lane reads per line.
template <typename T, typename TC, typename C, typename I, int G, int V>
__device__ void sddmm_lean_chunked(const SddmmParams& p) {
    using U = typename std::make_unsigned<I>::type;
    constexpr int ROUNDS = vectors_in_flight / (2 * V);
    constexpr int IN_FLIGHT = ROUNDS < 1 ? 1 : (ROUNDS < G ? ROUNDS : G);
    const int lane = threadIdx.x % WARP, sub = lane % G, group_first = lane - sub;
    const LeanOperands<T, TC, C, I> o(p);
    if (!o.live) return;  // the whole warp
    // Lines' offsets in 16-byte vectors, in 32 bits (LaneVectors says why).
    const uint32_t lda32 = uint32_t(p.a.ld * int64_t(sizeof(T)) / VECTOR_BYTES);
    const uint32_t ldb32 = uint32_t(p.b.ld * int64_t(sizeof(T)) / VECTOR_BYTES);
    const auto end = [&](I r) { return o.end(r); };
    // This lane's vectors of a line: v < V where sub + v G < vectors. Loads are never predicated
    // (a vector past the line reads the line's first instead and is not summed): a predicated load
    // made the compiler copy each result into place, which waited for the load and serialised the
    // rounds.
    const LaneVectors<G, V> lv(sub, o.vectors);
    const auto& has = lv.has;
    const auto& at = lv.at;
    const I rows = o.rows;
    const U n = U(o.n);
    I row = o.row;

    for (I chunk = o.first; chunk < o.last; chunk += WARP) {
        const I q = chunk + I(lane);
        const bool live = q < o.last;
        C sum = zero<C>();
        if (o.products) {
            // 1. This lane's value: its row and column (-1 where the lane has none); the first
            //    chunk's rows' ends from L1, where the search's window left them (taking them
            //    from the window's registers instead held 4 more, a thread block fewer).
            ChunkFetch<I> f;
            f.load(o, chunk, row, lane);
            const I my_row = row_in_chunk(end, rows, row, live ? q : I(chunk), lane, f.end, o.base);
            const I my_col = live ? I(f.col - o.base) : I(-1);
            row = shfl_index(my_row, WARP - 1);  // the next chunk starts in or after it

            // 2. The group's values, IN_FLIGHT rounds at a time: the A and B vectors of every
            //    round of the batch loaded, then the products. A's vectors are loaded each round
            //    (mostly from L1), not kept across rounds: a load that only happened when the row
            //    changed made the compiler copy its result into place and serialise the rounds.
            C d[G];
#pragma unroll
            for (int t = 0; t < G; ++t) d[t] = zero<C>();
#pragma unroll
            for (int t0 = 0; t0 < G; t0 += IN_FLIGHT) {
                uint4 av[IN_FLIGHT][V], bv[IN_FLIGHT][V];
                bool ok[IN_FLIGHT];
#pragma unroll
                for (int u = 0; u < IN_FLIGHT; ++u) {
                    const I j = shfl_index(my_col, group_first + t0 + u);
                    const I r = shfl_index(my_row, group_first + t0 + u);
                    ok[u] = U(j) < n;
                    const uint32_t al = uint32_t(r) * lda32;
                    const uint32_t bl = (ok[u] ? uint32_t(j) : 0u) * ldb32;
#pragma unroll
                    for (int v = 0; v < V; ++v) {
                        av[u][v] = __ldg(o.a + (al + at[v]));
                        bv[u][v] = __ldg(o.b + (bl + at[v]));
                    }
                }
#pragma unroll
                for (int u = 0; u < IN_FLIGHT; ++u)
#pragma unroll
                    for (int v = 0; v < V; ++v)
                        if (ok[u] && has[v]) d[t0 + u] = dot16<T, C>(d[t0 + u], av[u][v], bv[u][v]);
            }
            // 3. Each lane's own value, summed over its group.
            sum = transposed_group_sum<C, G>(d, sub);
        }
        // 4. The value.
        if (live) o.write(q, sum);
    }
}

// The kernel for lanes of 4 vectors: a warp takes its run in chunks of 32 values, their rows and
// columns found as in the chunked form; then a group takes one value a step (G steps),
// loads its B vectors (unpredicated, as there), A's again only when the row changes, sums its
// products by a butterfly, and hands the sum to the lane that writes it, so that each lane
// writes its own value of the chunk, coalesced. Template parameters as for sddmm_lean_chunked.
template <typename T, typename TC, typename C, typename I, int G, int V>
__device__ void sddmm_lean_stepped(const SddmmParams& p) {
    using U = typename std::make_unsigned<I>::type;
    constexpr int PER_STEP = WARP / G;
    const int lane = threadIdx.x % WARP, sub = lane % G, slot = lane / G;
    // 1. The warp's run and the row of its first value.
    const LeanOperands<T, TC, C, I> o(p);
    if (!o.live) return;  // the whole warp
    // Lines' strides in 16-byte vectors.
    const uint32_t lda32 = uint32_t(p.a.ld * int64_t(sizeof(T)) / VECTOR_BYTES);
    const uint32_t ldb32 = uint32_t(p.b.ld * int64_t(sizeof(T)) / VECTOR_BYTES);
    const auto end = [&](I r) { return o.end(r); };
    const LaneVectors<G, V> lv(sub, o.vectors);
    const auto& has = lv.has;
    const auto& at = lv.at;
    const U n = U(o.n);
    I row = o.row;
    I a_row = -1;
    uint4 av[V];
    ChunkFetch<I> next = o.first_fetch;

    for (I chunk = o.first; chunk < o.last; chunk += WARP) {
        const I q = chunk + I(lane);
        const bool live = q < o.last;
        C mine = zero<C>();  // this lane's value of the chunk
        if (o.products) {
            // 2. Each lane's value: its row and column (-1 where the lane has none), fetched a
            //    chunk ahead; then the next chunk's fetch, as soon as its first row is known.
            const ChunkFetch<I> f = next;
            const I my_row = row_in_chunk(end, o.rows, row, live ? q : I(chunk), lane, f.end, o.base);
            const I my_col = live ? I(f.col - o.base) : I(-1);
            row = shfl_index(my_row, WARP - 1);
            next.load(o, I(chunk + WARP), row, lane);
            // 3. This group's value of step s: value s PER_STEP + slot of the chunk.
            const auto step = [&](int s) {
                const int src = s * PER_STEP + slot;
                const I j = shfl_index(my_col, src);
                const I r = shfl_index(my_row, src);
                const bool ok = U(j) < n;
                if (r != a_row) {
                    const uint4* al = o.a + uint32_t(r) * lda32;
#pragma unroll
                    for (int t = 0; t < V; ++t) av[t] = __ldg(al + at[t]);
                    a_row = r;
                }
                const uint4* bl = o.b + (ok ? uint32_t(j) : 0u) * ldb32;
                uint4 bv[V];
#pragma unroll
                for (int t = 0; t < V; ++t) bv[t] = __ldg(bl + at[t]);
                C dot = zero<C>();
#pragma unroll
                for (int t = 0; t < V; ++t)
                    if (ok && has[t]) dot = dot16<T, C>(dot, av[t], bv[t]);
                // 4. The group's sum, handed to the lane of its value (lanes s PER_STEP .. take
                //    the sums of groups 0 .. PER_STEP - 1).
                dot = group_sum(dot, G);
                const C got = shfl_from(dot, (lane % PER_STEP) * G);
                if (lane / PER_STEP == s) mine = got;
            };
            // A run shorter than a chunk (a small C: runs of a few values spread over every warp
            // the device holds) stops at the step of its last value; a whole chunk keeps the
            // loop without exits, which schedules better.
            const I values = o.last - chunk;
            if (values >= I(WARP)) {
#pragma unroll
                for (int s = 0; s < G; ++s) step(s);
            } else {
#pragma unroll
                for (int s = 0; s < G; ++s) {
                    if (I(s * PER_STEP) >= values) break;
                    step(s);
                }
            }
        }
        // 5. The value.
        if (live) o.write(q, mine);
    }
}

// The kernel for lanes of 8 vectors: a group takes one value a step, loads its B vectors,
// and sums them by a butterfly (group_sum). Template parameters as for sddmm_lean_chunked.
template <typename T, typename TC, typename C, typename I, int G, int V>
__device__ void sddmm_lean_per_value(const SddmmParams& p) {
    constexpr int PER_STEP = WARP / G;
    const int lane = threadIdx.x % WARP, sub = lane % G, slot = lane / G;
    // 1. The warp's run and the row of its first value.
    const LeanOperands<T, TC, C, I> o(p);
    if (!o.live) return;  // the whole warp
    // Lines' strides in 16-byte vectors.
    const uint32_t lda32 = uint32_t(p.a.ld * int64_t(sizeof(T)) / VECTOR_BYTES);
    const uint32_t ldb32 = uint32_t(p.b.ld * int64_t(sizeof(T)) / VECTOR_BYTES);
    const auto end = [&](I r) { return o.end(r); };
    using U = typename std::make_unsigned<I>::type;
    const U n = U(o.n);
    const LaneVectors<G, V> lv(sub, o.vectors);
    const auto& has = lv.has;
    const auto& at = lv.at;
    I row = o.row;
    I a_row = -1;
    uint4 av[V];

    for (I step = o.first; step < o.last; step += PER_STEP) {
        // 2. This group's value, its row and column.
        const I q = step + slot;
        const bool live = q < o.last;
        C dot = zero<C>();
        if (live && o.products) {
            row = advance(end, o.rows, row, q);
            const I j = o.cols[q] - o.base;
            const bool ok = U(j) < n;
            if (row != a_row) {
                const uint4* al = o.a + uint32_t(row) * lda32;
#pragma unroll
                for (int t = 0; t < V; ++t) av[t] = __ldg(al + at[t]);
                a_row = row;
            }
            // 3. The products (a column out of range reads line 0 and sums nothing).
            const uint4* bl = o.b + (ok ? uint32_t(j) : 0u) * ldb32;
            uint4 bv[V];
#pragma unroll
            for (int t = 0; t < V; ++t) bv[t] = __ldg(bl + at[t]);
#pragma unroll
            for (int t = 0; t < V; ++t)
                if (ok && has[t]) dot = dot16<T, C>(dot, av[t], bv[t]);
        }
        dot = group_sum(dot, G);
        if (live && sub == 0) o.write(q, dot);
    }
}

// The form by vectors a lane: each measured fastest at its V (docs/design/sddmm.md; the chunked
// form's registers cost it from V = 4). All give the same bits.
template <typename T, typename TC, typename C, typename I, int G, int V>
__device__ void sddmm_lean(const SddmmParams& p) {
    if (tiles_run(p)) return;  // kernels/sddmm_tiles.cu runs instead
    if constexpr (V <= 2)
        sddmm_lean_chunked<T, TC, C, I, G, V>(p);
    else if constexpr (V == 4)
        sddmm_lean_stepped<T, TC, C, I, G, V>(p);
    else
        sddmm_lean_per_value<T, TC, C, I, G, V>(p);
}

}  // namespace

// ---- instantiations: oxs_sddmm_lean_<ab>_<c>_<index>_g<G>v<V> -------------------------------------
// The shapes src/ops/sddmm/plan.rs `lean_shape` may choose: G lanes of V vectors each.
#define OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, G, V)                                                             \
    extern "C" __global__ void __launch_bounds__(BLOCK) oxs_sddmm_lean_##AB##_##CN##_##IS##_g##G##v##V(const SddmmParams p) { \
        sddmm_lean<T, TC, C, I, G, V>(p);                                                                      \
    }

#define OXS_LEAN_SHAPES(AB, CN, T, TC, C, IS, I)                                                                       \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 1, 1)                                                                        \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 2, 1) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 2, 2) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 2, 4) \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 4, 1) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 4, 2) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 4, 4) \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 1) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 2) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 4) \
    OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 8, 8) OXS_LEAN_ONE(AB, CN, T, TC, C, IS, I, 16, 4)

#define OXS_LEAN(AB, CN, T, TC, C)                \
    OXS_LEAN_SHAPES(AB, CN, T, TC, C, i32, int32_t) \
    OXS_LEAN_SHAPES(AB, CN, T, TC, C, i64, int64_t)

OXS_LEAN(f32, f32, float, float, float)
OXS_LEAN(f64, f64, double, double, double)
OXS_LEAN(c32, c32, float2, float2, float2)
OXS_LEAN(c64, c64, double2, double2, double2)
OXS_LEAN(f16, f32, __half, float, float)
OXS_LEAN(f16, f16, __half, __half, float)
OXS_LEAN(bf16, f32, __nv_bfloat16, float, float)
OXS_LEAN(bf16, bf16, __nv_bfloat16, __nv_bfloat16, float)
