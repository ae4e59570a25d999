//! Test values: f64 pairs <-> the bytes of each storage type, seeded random data that every type
//! holds exactly, and the unit roundoff that sets each type's tolerance.

use crate::common::bytes::decode_element;
pub use crate::common::bytes::encode;
use crate::common::Rng;
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, DataType::*, IndexType};

/// The values of `t` stored in `bytes`.
pub fn decode(t: DataType, bytes: &[u8]) -> Vec<Value> {
    bytes.chunks_exact(t.size_bytes() as usize).map(|e| decode_element(t, e)).collect()
}

/// One random component that `t` holds exactly: int8 over its whole range, 16-bit types on a grid
/// of their precision in [-1, 1], wider types anywhere in [-1, 1).
fn component(rng: &mut Rng, t: DataType) -> f64 {
    let grid = |rng: &mut Rng, steps: i64| (rng.below(2 * steps as u64 + 1) as i64 - steps) as f64 / steps as f64;
    match t {
        CUDA_R_8I | CUDA_R_32I => rng.below(256) as f64 - 128.0,
        CUDA_R_4I => rng.below(16) as f64 - 8.0,
        CUDA_R_16I => rng.below(65536) as f64 - 32768.0,
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
        CUDA_R_4I | CUDA_R_8I | CUDA_R_16I | CUDA_R_32I => 0.0,
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
