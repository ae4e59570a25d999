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

// BYTES (4, 8 or 16) from src into shared memory at dst, the bytes from src_bytes on zeros (no
// byte of src read when src_bytes is 0). Through L1 (.ca: the only form for 4 and 8 bytes).
template <int BYTES>
__device__ __forceinline__ void copy_part(void* dst, const void* src, int src_bytes) {
    static_assert(BYTES == 4 || BYTES == 8 || BYTES == 16, "cp.async copies 4, 8 or 16 bytes");
    const uint32_t at = uint32_t(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(at), "l"(src), "n"(BYTES), "r"(src_bytes) : "memory");
}

// Closes the group of copies issued since the last commit.
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits until at most PENDING of the calling thread's committed groups are still in flight.
template <int PENDING>
__device__ __forceinline__ void wait_groups() {
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

}  // namespace cp_async
