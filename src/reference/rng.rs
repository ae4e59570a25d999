//! SplitMix64: the one seeded generator behind test and benchmark data, so that a seed means the
//! same values everywhere (the GPU tests and oxsparse-bench build their own helpers on top).

#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(crate::fast_hash::SPLITMIX64_INCREMENT);
        crate::fast_hash::splitmix64_mix(self.0)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_first_outputs() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut r = super::SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
