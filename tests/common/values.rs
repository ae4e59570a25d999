//! Random test values that every storage type holds exactly, index arrays in their stored width,
//! and a seeded shuffle: shared by the test generators.

use super::Rng;
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, DataType::*, IndexType};

/// One random component exact in `t`: int4, int8 and int16 over their whole range, int32 in [-1000, 1000], 16-bit
/// types on a grid of their precision in [-1, 1], wider types anywhere in [-1, 1).
pub fn component(rng: &mut Rng, t: DataType) -> f64 {
    let grid = |rng: &mut Rng, steps: i64| (rng.below(2 * steps as u64 + 1) as i64 - steps) as f64 / steps as f64;
    match t {
        CUDA_R_4I => rng.below(16) as f64 - 8.0,
        CUDA_R_8I => rng.below(256) as f64 - 128.0,
        CUDA_R_16I => rng.below(65536) as f64 - 32768.0,
        CUDA_R_32I => rng.below(2001) as f64 - 1000.0,
        CUDA_R_16F | CUDA_C_16F => grid(rng, 1024),
        CUDA_R_16BF | CUDA_C_16BF => grid(rng, 128),
        CUDA_R_32F | CUDA_C_32F => rng.value() as f32 as f64,
        CUDA_R_64F | CUDA_C_64F => rng.value(),
    }
}

/// `n` random values of `t` (imaginary parts 0 for real types).
pub fn random(rng: &mut Rng, t: DataType, n: usize) -> Vec<Value> {
    (0..n).map(|_| (component(rng, t), if t.is_complex() { component(rng, t) } else { 0.0 })).collect()
}

/// Indices as the device holds them, in their stored width (a value that does not fit is a test's
/// bug).
pub fn encode_indices(t: IndexType, v: &[i64]) -> Vec<u8> {
    match t {
        IndexType::OXSPARSE_INDEX_32I => v.iter().flat_map(|&i| i32::try_from(i).expect("a 32-bit index").to_le_bytes()).collect(),
        IndexType::OXSPARSE_INDEX_64I => v.iter().flat_map(|&i| i.to_le_bytes()).collect(),
        IndexType::OXSPARSE_INDEX_16U => v.iter().flat_map(|&i| u16::try_from(i).expect("a 16-bit index").to_le_bytes()).collect(),
    }
}

/// A uniformly random permutation of `v` in place (Fisher-Yates, from the end).
pub fn shuffle<T>(rng: &mut Rng, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
}
