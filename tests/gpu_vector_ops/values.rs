//! Test values: f64 pairs <-> the bytes of each storage type, seeded random data that every type
//! holds exactly, and the unit roundoff that sets each type's tolerance.

use crate::common::half::{bf16_bits, bf16_value, f16_bits, f16_value};
use crate::common::Rng;
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, DataType::*, IndexType};

/// The bytes of `vals` stored as `t` (the imaginary parts of real types are dropped).
pub fn encode(t: DataType, vals: &[Value]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vals.len() * t.size_bytes() as usize);
    for &(re, im) in vals {
        match t {
            CUDA_R_8I => out.push(re as i8 as u8),
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

/// The values of `t` stored in `bytes`.
pub fn decode(t: DataType, bytes: &[u8]) -> Vec<Value> {
    bytes.chunks_exact(t.size_bytes() as usize).map(|e| decode_one(t, e)).collect()
}

fn decode_one(t: DataType, e: &[u8]) -> Value {
    let u16_at = |i: usize| u16::from_le_bytes([e[i], e[i + 1]]);
    let f32_at = |i: usize| f32::from_le_bytes(e[i..i + 4].try_into().unwrap()) as f64;
    let f64_at = |i: usize| f64::from_le_bytes(e[i..i + 8].try_into().unwrap());
    match t {
        CUDA_R_8I => (e[0] as i8 as f64, 0.0),
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

/// One random component that `t` holds exactly: int8 over its whole range, 16-bit types on a grid
/// of their precision in [-1, 1], wider types anywhere in [-1, 1).
fn component(rng: &mut Rng, t: DataType) -> f64 {
    let grid = |rng: &mut Rng, steps: i64| (rng.below(2 * steps as u64 + 1) as i64 - steps) as f64 / steps as f64;
    match t {
        CUDA_R_8I | CUDA_R_32I => rng.below(256) as f64 - 128.0,
        CUDA_R_16F | CUDA_C_16F => grid(rng, 1024),
        CUDA_R_16BF | CUDA_C_16BF => grid(rng, 128),
        CUDA_R_32F | CUDA_C_32F => rng.value() as f32 as f64,
        CUDA_R_64F | CUDA_C_64F => rng.value(),
    }
}

/// `n` random values of type `t` (imaginary parts 0 for real types).
pub fn random(rng: &mut Rng, t: DataType, n: usize) -> Vec<Value> {
    (0..n)
        .map(|_| {
            let re = component(rng, t);
            (re, if t.is_complex() { component(rng, t) } else { 0.0 })
        })
        .collect()
}

/// Unit roundoff of arithmetic results stored as `t` (0 for integers: they must be exact).
pub fn roundoff(t: DataType) -> f64 {
    match t {
        CUDA_R_8I | CUDA_R_32I => 0.0,
        CUDA_R_16F | CUDA_C_16F => 2f64.powi(-11),
        CUDA_R_16BF | CUDA_C_16BF => 2f64.powi(-8),
        CUDA_R_32F | CUDA_C_32F => 2f64.powi(-24),
        CUDA_R_64F | CUDA_C_64F => 2f64.powi(-53),
    }
}

/// |re| + |im|: an upper bound of the modulus that also bounds each component.
pub fn abs1(v: Value) -> f64 {
    v.0.abs() + v.1.abs()
}

pub fn encode_indices(t: IndexType, v: &[i64]) -> Vec<u8> {
    match t {
        IndexType::OXSPARSE_INDEX_32I => v.iter().flat_map(|&i| (i as i32).to_le_bytes()).collect(),
        IndexType::OXSPARSE_INDEX_64I => v.iter().flat_map(|&i| i.to_le_bytes()).collect(),
        IndexType::OXSPARSE_INDEX_16U => v.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect(),
    }
}
