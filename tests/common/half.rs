//! Bit-level conversions between f64 and the 16-bit float storage types (f16, bf16).
//!
//! Encoding is exact or fails: test values must be representable, so `f16_bits` and `bf16_bits`
//! assert that `x` converts without rounding (normal f16 values or zero; bf16 values whose f32
//! form has a zero low half). Decoding is always exact.

/// Bits of an f16 holding `x` exactly; panics unless `x` is zero or a normal f16 value (e.g. test
/// values that are small multiples of 1/64, or multiples of 2^-10 in [-1, 1]).
pub fn f16_bits(x: f64) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let b = (x as f32).to_bits();
    let exp = ((b >> 23) & 0xFF) as i32 - 127 + 15;
    assert!((1..31).contains(&exp) && b & 0x1FFF == 0, "{x} is not exact in f16");
    (((b >> 16) & 0x8000) | ((exp as u32) << 10) | ((b & 0x7F_FFFF) >> 13)) as u16
}

/// The value of the f16 with bits `h` (subnormals, infinities and NaN included).
pub fn f16_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (exp, mant) = (((h >> 10) & 0x1F) as i32, (h & 0x3FF) as f64);
    match exp {
        0 => sign * mant * 2f64.powi(-24),
        31 if mant == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (1.0 + mant / 1024.0) * 2f64.powi(exp - 15),
    }
}

/// Bits of a bf16 holding `x` exactly; panics if `x` is not exact in bf16.
pub fn bf16_bits(x: f64) -> u16 {
    let b = (x as f32).to_bits();
    assert!(b & 0xFFFF == 0, "{x} is not exact in bf16");
    (b >> 16) as u16
}

/// The value of the bf16 with bits `h`.
pub fn bf16_value(h: u16) -> f64 {
    f32::from_bits((h as u32) << 16) as f64
}
