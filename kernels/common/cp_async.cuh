// Asynchronous copies from global into shared memory (cp.async, sm_80 and later): 16 bytes a
// copy, grouped by commit and waited for by group (the asynchronous tensor-core SpMM and SDDMM's
// dense tiles).
#pragma once
#include <stdint.h>

namespace cp_async {

// 16 bytes from src into shared memory at dst, or 16 zeros when !valid (no byte of src is read).
__device__ __forceinline__ void copy16(void* dst, const void* src, bool valid) {
    const uint32_t at = uint32_t(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(at), "l"(src), "r"(valid ? 16 : 0) : "memory");
}

// Closes the group of copies issued since the last commit.
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits until at most PENDING of the calling thread's committed groups are still in flight.
template <int PENDING>
__device__ __forceinline__ void wait_groups() {
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

}  // namespace cp_async
