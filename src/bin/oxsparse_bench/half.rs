//! IEEE half precision (binary16) on the host, for the FP16 SpMM operands: conversions with
//! round-to-nearest-even, as the GPU's own conversions do.

/// The binary16 bits nearest to `x` (ties to even; overflow to infinity; NaN stays NaN).
pub fn from_f32(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // A subnormal half (or zero): the value is m * 2^(e - 15 - 23) with the implicit bit in m,
        // and a subnormal half counts units of 2^-24, so shift m right by 14 - e.
        if e < -10 {
            return sign; // below half the smallest subnormal: zero
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        return sign | round_shift(m, shift) as u16;
    }
    // A carry out of the mantissa rightly bumps the exponent (up to infinity).
    sign | (((e as u32) << 10) + round_shift(man, 13)) as u16
}

/// `m >> shift` rounded to nearest, ties to even (shift in 1..=24).
fn round_shift(m: u32, shift: u32) -> u32 {
    let (q, rem, half) = (m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1));
    q + u32::from(rem > half || (rem == half && q & 1 == 1))
}

/// The value of binary16 bits (exact).
pub fn to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let (exp, man) = (((h >> 10) & 0x1f) as u32, (h & 0x3ff) as u32);
    match exp {
        0 => {
            let v = man as f32 * f32::from_bits(0x3380_0000); // 2^-24
            f32::from_bits(v.to_bits() | sign)
        }
        0x1f => f32::from_bits(sign | 0x7f80_0000 | (man << 13)),
        _ => f32::from_bits(sign | ((exp + 112) << 23) | (man << 13)),
    }
}

/// The smallest positive subnormal half, 2^-24: the resolution of results near zero.
pub const MIN_SUBNORMAL: f64 = 5.960_464_477_539_063e-8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(from_f32(1.0), 0x3c00);
        assert_eq!(from_f32(-2.0), 0xc000);
        assert_eq!(from_f32(65504.0), 0x7bff);
        assert_eq!(from_f32(65520.0), 0x7c00, "the tie above the largest half rounds to infinity");
        assert_eq!(from_f32(0.1), 0x2e66);
        assert_eq!(from_f32(MIN_SUBNORMAL as f32), 0x0001);
        assert_eq!(from_f32(MIN_SUBNORMAL as f32 / 2.0), 0x0000, "a tie rounds to even (zero)");
        assert_eq!(from_f32(MIN_SUBNORMAL as f32 * 0.75), 0x0001);
        assert_eq!(from_f32(1.0 + 1.0 / 2048.0), 0x3c00, "ties to even");
        assert_eq!(from_f32(1.0 + 3.0 / 2048.0), 0x3c02);
        assert!(to_f32(from_f32(f32::NAN)).is_nan());
        assert_eq!(to_f32(0x7c00), f32::INFINITY);
        assert_eq!(to_f32(0x3555), 0.333_251_95);
    }

    #[test]
    fn every_half_survives_a_round_trip() {
        for h in 0..=u16::MAX {
            let x = to_f32(h);
            if x.is_nan() {
                continue;
            }
            assert_eq!(from_f32(x), h, "{h:#06x} = {x:e}");
        }
    }

    #[test]
    fn rounding_picks_the_nearest_half() {
        // Midpoints between neighbouring halves go to the even one; just off them, to the nearer.
        for h in [0x0001u16, 0x03ff, 0x0400, 0x3c00, 0x3c01, 0x7bfe] {
            let (lo, hi) = (to_f32(h) as f64, to_f32(h + 1) as f64);
            let mid = ((lo + hi) / 2.0) as f32;
            let even = if h & 1 == 0 { h } else { h + 1 };
            assert_eq!(from_f32(mid), even, "midpoint above {h:#06x}");
            assert_eq!(from_f32(f32::from_bits(mid.to_bits() - 1)), h);
            assert_eq!(from_f32(f32::from_bits(mid.to_bits() + 1)), h + 1);
        }
    }
}
