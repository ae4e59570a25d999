//! Test-only models of the integer tensor-core pieces the SR-BCRS kernels share
//! (`kernels/common/int_mma.cuh`): byte permutes, int4 widening, int16 byte splits, and the PTX
//! fragment layouts of mma.m16n8k32 s8/u8 and mma.m16n8k64 s4. The warp models of the SpMM and
//! SDDMM kernels build on them.
#![allow(clippy::needless_range_loop)] // lanes and registers indexed as the kernels number them

/// `__byte_perm(x, y, s)`: byte i of the result is byte (nibble i of s) of y:x.
pub fn byte_perm(x: u32, y: u32, s: u32) -> u32 {
    let both = (y as u64) << 32 | x as u64;
    (0..4).map(|i| (((both >> (8 * ((s >> (4 * i)) & 7))) & 0xff) as u32) << (8 * i)).sum()
}

/// Eight int4 (nibble i) as eight bytes of 16 times their values (byte i).
pub fn widen_nibbles_scaled(w: u32) -> [u32; 2] {
    let (even, odd) = ((w << 4) & 0xF0F0F0F0, w & 0xF0F0F0F0);
    [byte_perm(even, odd, 0x5140), byte_perm(even, odd, 0x7362)]
}

/// Eight int4 (nibble i) as eight sign-extended bytes (byte i).
pub fn widen_nibbles(w: u32) -> [u32; 2] {
    let sign = |x: u32| ((x ^ 0x08080808).wrapping_add(0x78787878)) ^ 0x80808080;
    let (even, odd) = (sign(w & 0x0F0F0F0F), sign((w >> 4) & 0x0F0F0F0F));
    [byte_perm(even, odd, 0x5140), byte_perm(even, odd, 0x7362)]
}

/// The signed high bytes and the unsigned low bytes of the four int16 in x, y.
pub fn high_bytes(x: u32, y: u32) -> u32 {
    byte_perm(x, y, 0x7531)
}
pub fn low_bytes(x: u32, y: u32) -> u32 {
    byte_perm(x, y, 0x6420)
}

/// Element i of a register of `bits`-bit elements (4 or 8), signed or not.
pub fn element(w: u32, i: usize, bits: usize, signed: bool) -> i64 {
    let x = (w >> (bits * i)) & ((1u32 << bits) - 1);
    if signed && x >> (bits - 1) == 1 {
        x as i64 - (1i64 << bits)
    } else {
        x as i64
    }
}

/// D += A B over the 32 lanes' fragments as the PTX ISA lays them out: m16n8k32 with 8-bit
/// elements (bits = 8) or m16n8k64 with 4-bit ones (bits = 4). Register r of a lane holds
/// 32 / bits consecutive k's: A's a0 row g, a1 row g + 8, a2 and a3 the same k's + k / 2; B's
/// b0 and b1 column g, the second k / 2 further.
pub fn mma(d: &mut [[i64; 4]; 32], a: &[[u32; 4]; 32], b: &[[u32; 2]; 32], bits: usize, signed: (bool, bool)) {
    let (per, k) = (32 / bits, 256 / bits);
    let (mut am, mut bm) = (vec![[0i64; 64]; 16], vec![[0i64; 8]; 64]);
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..per {
            am[g][per * t + i] = element(a[lane][0], i, bits, signed.0);
            am[g + 8][per * t + i] = element(a[lane][1], i, bits, signed.0);
            am[g][k / 2 + per * t + i] = element(a[lane][2], i, bits, signed.0);
            am[g + 8][k / 2 + per * t + i] = element(a[lane][3], i, bits, signed.0);
            bm[per * t + i][g] = element(b[lane][0], i, bits, signed.1);
            bm[k / 2 + per * t + i][g] = element(b[lane][1], i, bits, signed.1);
        }
    }
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for (i, (m, n)) in [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1)].into_iter().enumerate() {
            d[lane][i] += (0..k).map(|kk| am[m][kk] * bm[kk][n]).sum::<i64>();
        }
    }
}
