// Ready flags between the tiles of one launch (the look-back of the SpMV and SpMM tile kernels):
// a tile writes its partial sums, then raises its flag to the call's epoch; a later tile polls the
// flag, clears it, and then reads the partials from L2 (ld.cg). Epochs are never 0.
//
// No __threadfence: it compiles to MEMBAR.SC.GPU plus CCTL.IVALL, which invalidates the whole L1
// of the multiprocessor, and a fence per tile threw away the lines of x (SpMV) or B (SpMM) that
// every other warp of the SM had cached. A release fence or store orders the partials before the
// flag without touching L1 (MEMBAR.ALL.GPU only). The reader needs no acquire fence (which would
// invalidate L1 too): it reads the partials from L2, the point of coherence, only after its poll
// has seen the flag there.
#pragma once
#include <cstdint>

namespace flags {

// Orders this thread's earlier writes before any later write seen GPU-wide (no L1 invalidation).
__device__ __forceinline__ void release_fence() { asm volatile("fence.release.gpu;" ::: "memory"); }

// Writes `epoch` to `flag` after every earlier write of this thread.
__device__ __forceinline__ void raise(uint64_t* flag, uint64_t epoch) {
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(flag), "l"(epoch) : "memory");
}

// Returns once `flag` holds `epoch`, and clears it. Every flag has one consumer (the tile where
// the row open at its producer's end closes), so clearing it leaves nothing for a later launch to
// mistake for its own: a launch whose epoch repeats (a captured graph replayed, whose parameters
// are fixed) then still waits for this launch's producers instead of reading the partials of the
// last one. Flags no tile consumes keep the epoch; no tile of a launch with the same structure
// waits on them.
__device__ __forceinline__ void consume(uint64_t* flag, uint64_t epoch) {
    uint64_t v;
    while (true) {
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(flag) : "memory");
        if (v == epoch) break;
        __nanosleep(64);
    }
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(flag), "l"(uint64_t(0)) : "memory");
}

}  // namespace flags
