// Ready flags between the tiles of one launch (the look-back of the SpMV and SpMM tile kernels):
// a tile writes its partial sums, then raises its flag to the call's epoch; a later tile polls the
// flag and then reads the partials from L2 (ld.cg).
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

// Returns once `flag` holds `epoch`.
__device__ __forceinline__ void wait(const uint64_t* flag, uint64_t epoch) {
    uint64_t v;
    while (true) {
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(flag) : "memory");
        if (v == epoch) return;
        __nanosleep(64);
    }
}

}  // namespace flags
