// Addresses from 32-bit factors: one IMAD.WIDE where the compiler's own 64-bit product of two
// widened ints costs several instructions (shared by the SpMM and SR-BCRS kernels).
#pragma once
#include <stdint.h>

// a * b as 64 bits from two 32-bit factors: one IMAD.WIDE.
__device__ __forceinline__ int64_t mul_wide(int a, int b) {
    int64_t r;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
    return r;
}

// Row `row` of a dense operand whose rows lie `ld_bytes` apart (the plans keep that under 2^31)
// from `base`: one IMAD.WIDE. The compiler's own product of the two ints widened to 64 bits took
// eight instructions a B load in the short-row kernel.
template <typename T>
__device__ __forceinline__ const T* row_at(const T* base, int row, int ld_bytes) {
    unsigned long long at;
    asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(at) : "r"(row), "r"(ld_bytes), "l"(reinterpret_cast<unsigned long long>(base)));
    return reinterpret_cast<const T*>(at);
}

// The same for an unsigned row and row stride, up to 2^32 - 1 each (the warp-row kernel's plan keeps
// them there, src/ops/spmm/warp_rows/mod.rs `b_offsets_fit`). The C++ 64-bit product of the two widened
// made ptxas add a zero high word to every address.
template <typename T>
__device__ __forceinline__ const T* row_at(const T* base, uint32_t row, uint32_t ld_bytes) {
    unsigned long long at;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(at) : "r"(row), "r"(ld_bytes), "l"(reinterpret_cast<unsigned long long>(base)));
    return reinterpret_cast<const T*>(at);
}
