//! Test values as bytes: a value is an f64 (re, im) pair, stored as the bytes of any cuSPARSE
//! value type; and the bit-level conversions for the 16-bit float types (f16, bf16) beneath.
//!
//! Encoding is exact or fails: test values must be representable, so `f16_bits` and `bf16_bits`
//! assert that `x` converts without rounding (normal f16 values or zero; bf16 values whose f32
//! form has a zero low half). Decoding is always exact.

use oxsparse::types::{DataType, DataType::*};

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

/// The bytes of `vals` stored as `t` (16-bit values must be exact, see `f16_bits`).
pub fn encode(t: DataType, vals: &[(f64, f64)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vals.len() * t.size_bytes() as usize);
    for &(re, im) in vals {
        match t {
            CUDA_R_8I => out.push(re as i8 as u8),
            CUDA_R_16I => out.extend((re as i16).to_le_bytes()),
            CUDA_R_4I => panic!("int4 packs two values to a byte: use oxsparse::reference::srbcrs::encode"),
            CUDA_R_32I => out.extend((re as i32).to_le_bytes()),
            CUDA_R_16F => out.extend(f16_bits(re).to_le_bytes()),
            CUDA_R_16BF => out.extend(bf16_bits(re).to_le_bytes()),
            CUDA_R_32F => out.extend((re as f32).to_le_bytes()),
            CUDA_R_64F => out.extend(re.to_le_bytes()),
            CUDA_C_16F => [re, im].iter().for_each(|&v| out.extend(f16_bits(v).to_le_bytes())),
            CUDA_C_16BF => [re, im].iter().for_each(|&v| out.extend(bf16_bits(v).to_le_bytes())),
            CUDA_C_32F => [re, im].iter().for_each(|&v| out.extend((v as f32).to_le_bytes())),
            CUDA_C_64F => [re, im].iter().for_each(|&v| out.extend(v.to_le_bytes())),
        }
    }
    out
}

/// The value of one element of type `t` stored in `e`.
pub fn decode_element(t: DataType, e: &[u8]) -> (f64, f64) {
    let u16_at = |i: usize| u16::from_le_bytes([e[i], e[i + 1]]);
    let f32_at = |i: usize| f32::from_le_bytes(e[i..i + 4].try_into().unwrap()) as f64;
    let f64_at = |i: usize| f64::from_le_bytes(e[i..i + 8].try_into().unwrap());
    match t {
        CUDA_R_8I => (e[0] as i8 as f64, 0.0),
        CUDA_R_16I => (i16::from_le_bytes([e[0], e[1]]) as f64, 0.0),
        CUDA_R_4I => panic!("int4 packs two values to a byte: use oxsparse::reference::srbcrs::decode"),
        CUDA_R_32I => (i32::from_le_bytes(e[..4].try_into().unwrap()) as f64, 0.0),
        CUDA_R_16F => (f16_value(u16_at(0)), 0.0),
        CUDA_R_16BF => (bf16_value(u16_at(0)), 0.0),
        CUDA_R_32F => (f32_at(0), 0.0),
        CUDA_R_64F => (f64_at(0), 0.0),
        CUDA_C_16F => (f16_value(u16_at(0)), f16_value(u16_at(2))),
        CUDA_C_16BF => (bf16_value(u16_at(0)), bf16_value(u16_at(2))),
        CUDA_C_32F => (f32_at(0), f32_at(4)),
        CUDA_C_64F => (f64_at(0), f64_at(8)),
    }
}
