//! A fast, non-cryptographic hasher for the maps a call looks up on its host path (the registry
//! of live objects, the kernel function cache): keys are our own addresses and kernel names, so
//! the standard library's DoS-resistant SipHash buys nothing and costs tens of nanoseconds a
//! lookup on a path whose whole host time is a few microseconds (bench/notes/launch-path.md).
//! The mixing step is the multiply-rotate one of rustc's FxHasher.

use std::hash::{BuildHasher, Hasher};

/// Builds [`FastHasher`]s; the `S` parameter of the maps on the call path.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHash;

impl BuildHasher for FastHash {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

/// Folds each 8-byte word into the state by rotate, xor and multiply.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("chunks of 8")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// SplitMix64's output step for the state `z` (the state already advanced by its increment): a
/// bijection that spreads every input bit over all 64. The one copy behind the reference
/// generator (`reference::rng::SplitMix64`) and preprocess's tokens (`ops::new_token`).
pub fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64's state increment (the golden ratio's 64-bit fraction).
pub const SPLITMIX64_INCREMENT: u64 = 0x9E37_79B9_7F4A_7C15;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn maps_keyed_by_addresses_and_names_find_what_they_hold() {
        let mut by_address: HashMap<usize, u32, FastHash> = HashMap::default();
        for i in 0..10_000usize {
            by_address.insert(0x7f00_0000_0000 + 64 * i, i as u32);
        }
        assert!((0..10_000usize).all(|i| by_address.get(&(0x7f00_0000_0000 + 64 * i)) == Some(&(i as u32))));
        assert_eq!(by_address.get(&0x7f00_0000_0008), None);

        let names = [
            "oxs_spmm_split_rows_packed_f16_f16_f32_i32",
            "oxs_spmm_split_rows_packed_f16_f16_f32_i64",
            "oxs_spmv_tiles_f32_f32_f32_f32_i32",
            "a",
            "",
        ];
        let by_name: HashMap<String, usize, FastHash> = names.iter().enumerate().map(|(i, n)| (n.to_string(), i)).collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(by_name.get(*n), Some(&i));
        }
        assert_eq!(by_name.get("oxs_spmm_split_rows_packed_f16_f16_f32_i3"), None);
    }

    #[test]
    fn names_differing_in_one_byte_hash_apart() {
        let h = |s: &str| {
            let mut f = FastHash.build_hasher();
            f.write(s.as_bytes());
            f.finish()
        };
        assert_ne!(h("oxs_spmv_tiles_f32_f32_f32_f32_i32"), h("oxs_spmv_tiles_f32_f32_f32_f32_i64"));
        assert_ne!(h("abcdefgh"), h("abcdefgi"));
    }
}
