// Integer tensor-core pieces shared by the SR-BCRS kernels (docs/design/srbcrs.md): int4 widened
// to bytes, int16 split into a signed high and an unsigned low byte, and mma.m16n8k32 on any mix
// of signed and unsigned bytes.
#pragma once
#include <stdint.h>

// Eight int4 (nibble i = element i) as eight sign-extended bytes (byte i = element i).
__device__ __forceinline__ uint2 widen_nibbles(uint32_t w) {
    // Per byte, 0..15 -> -8..7: flip the sign bit, add 0x78 (no carry out of a byte), flip bit 7.
    const auto sign = [](uint32_t x) { return ((x ^ 0x08080808u) + 0x78787878u) ^ 0x80808080u; };
    const uint32_t even = sign(w & 0x0F0F0F0Fu), odd = sign((w >> 4) & 0x0F0F0F0Fu);
    return make_uint2(__byte_perm(even, odd, 0x5140), __byte_perm(even, odd, 0x7362));
}

// Eight int4 as eight bytes of 16 times their values (each nibble in its byte's high half): exact
// and cheaper than sign extension; the sums come out 16 (or, both operands so, 256) times too
// large and are shifted back after the loop, exact while they stay under 2^31.
__device__ __forceinline__ uint2 widen_nibbles_scaled(uint32_t w) {
    const uint32_t even = (w << 4) & 0xF0F0F0F0u, odd = w & 0xF0F0F0F0u;
    return make_uint2(__byte_perm(even, odd, 0x5140), __byte_perm(even, odd, 0x7362));
}

template <bool SCALED>
__device__ __forceinline__ uint2 widen(uint32_t w) {
    if constexpr (SCALED) return widen_nibbles_scaled(w);
    else return widen_nibbles(w);
}

// The signed high bytes and the unsigned low bytes of four int16 (in two words).
__device__ __forceinline__ uint32_t high_bytes(uint32_t x, uint32_t y) { return __byte_perm(x, y, 0x7531); }
__device__ __forceinline__ uint32_t low_bytes(uint32_t x, uint32_t y) { return __byte_perm(x, y, 0x6420); }

template <bool A_SIGNED, bool B_SIGNED>
__device__ __forceinline__ void mma_k32(int32_t d[4], const uint32_t a[4], const uint32_t b[2]) {
#define OXS_MMA_K32(AT, BT)                                                                                          \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32." AT "." BT ".s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, " \
                 "{%0,%1,%2,%3};"                                                                                    \
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                                    \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
    if constexpr (A_SIGNED && B_SIGNED) OXS_MMA_K32("s8", "s8");
    else if constexpr (A_SIGNED) OXS_MMA_K32("s8", "u8");
    else if constexpr (B_SIGNED) OXS_MMA_K32("u8", "s8");
    else OXS_MMA_K32("u8", "u8");
#undef OXS_MMA_K32
}
