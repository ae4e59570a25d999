//! Attention-like masks, SDDMM's inputs beside the matrix sets: L x L patterns of which
//! query-key pairs a sparse attention computes. Each is a pure function of its parameters and
//! seed, values uniform in [-1, 1) as every generated matrix (`gen.rs`, which two of them reuse):
//!
//! * sliding windows: (i, j) iff |i - j| <= w / 2, a band (`gen::banded`);
//! * block-sparse: 64 x 64 blocks, each block row keeping about 10% of its blocks at random
//!   (`gen::uniform` picks them) plus its diagonal block;
//! * random: each row about a density of the columns at random (`gen::uniform`).
//!
//! [`ATTENTION_SET`] is what `--attention-set all` measures; a mask of more than
//! [`MAX_MASK_NNZ`] entries is refused.

use crate::gen;
use crate::matrix::{Csr, Rng, MAX_I32};
use crate::Result;

/// The most entries a mask may have: 64M (the set's largest, block-sparse at L = 16384, has
/// about 28M), so that its CSR (8 bytes an entry) and the float64 check stay within a few GB.
pub const MAX_MASK_NNZ: u64 = 1 << 26;

/// Mixed into the seed of the block-sparse values (the block pattern takes the seed itself).
const BLOCK_VALUES_SEED: u64 = 0xB10C_5EED;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mask {
    /// Entry (i, j) iff |i - j| <= width / 2.
    Window { len: usize, width: usize },
    /// Blocks of `block` x `block` (the last ones smaller when `block` does not divide `len`):
    /// each block row keeps floor(keep * blocks) or one more of its blocks, at random, and its
    /// diagonal block.
    Block { len: usize, block: usize, keep: f64 },
    /// Each row stores floor(density * len) or one more distinct columns, at random.
    Random { len: usize, density: f64 },
}

/// Sliding windows of 64 and 256 at L = 4096, 16384 and 65536; block-sparse (64 x 64 blocks,
/// 10% kept, plus the diagonal) and random masks of 1% and 5% at L = 4096 and 16384 (at 65536
/// they would hold 430M, 43M and 215M entries).
pub const ATTENTION_SET: [Mask; 12] = [
    Mask::Window { len: 4096, width: 64 },
    Mask::Window { len: 4096, width: 256 },
    Mask::Window { len: 16384, width: 64 },
    Mask::Window { len: 16384, width: 256 },
    Mask::Window { len: 65536, width: 64 },
    Mask::Window { len: 65536, width: 256 },
    Mask::Block { len: 4096, block: 64, keep: 0.1 },
    Mask::Block { len: 16384, block: 64, keep: 0.1 },
    Mask::Random { len: 4096, density: 0.01 },
    Mask::Random { len: 4096, density: 0.05 },
    Mask::Random { len: 16384, density: 0.01 },
    Mask::Random { len: 16384, density: 0.05 },
];

impl Mask {
    /// The sequence length L: the mask is L x L.
    pub fn len(&self) -> usize {
        match *self {
            Mask::Window { len, .. } | Mask::Block { len, .. } | Mask::Random { len, .. } => len,
        }
    }

    /// e.g. "window_L4096_w64", "block_L16384_b64_k0.1", "random_L4096_d0.01".
    pub fn name(&self) -> String {
        match self {
            Mask::Window { len, width } => format!("window_L{len}_w{width}"),
            Mask::Block { len, block, keep } => format!("block_L{len}_b{block}_k{keep}"),
            Mask::Random { len, density } => format!("random_L{len}_d{density}"),
        }
    }

    /// The kind, reported as the matrix's group.
    pub fn group(&self) -> &'static str {
        match self {
            Mask::Window { .. } => "window",
            Mask::Block { .. } => "block-sparse",
            Mask::Random { .. } => "random",
        }
    }

    /// An upper bound of the entries, known before generating.
    pub fn max_nnz(&self) -> u64 {
        let len = self.len() as u64;
        // Entries per row at most; floor(x * n) or one more of n (clipped to n).
        let per_row = match *self {
            Mask::Window { width, .. } => 2 * (width as u64 / 2) + 1,
            Mask::Block { block, keep, .. } => {
                let blocks = len.div_ceil(block.max(1) as u64);
                ((keep * blocks as f64).floor() as u64 + 2).min(blocks) * block as u64
            }
            Mask::Random { density, .. } => (density * len as f64).floor() as u64 + 1,
        };
        len.saturating_mul(per_row.min(len))
    }

    /// Sizes in range, and at most [`MAX_MASK_NNZ`] entries.
    pub fn check(&self) -> Result<()> {
        let fraction_ok = match *self {
            Mask::Window { .. } => true,
            Mask::Block { block, keep, .. } => block > 0 && (0.0..=1.0).contains(&keep),
            Mask::Random { density, .. } => (0.0..=1.0).contains(&density),
        };
        if self.len() == 0 || self.len() > MAX_I32 || !fraction_ok {
            return Err(format!("mask {}: L in 1..=2^31-1, a block of at least 1, fractions in [0, 1]", self.name()));
        }
        if self.max_nnz() > MAX_MASK_NNZ {
            return Err(format!("mask {}: up to {} entries, over the cap of {MAX_MASK_NNZ}", self.name(), self.max_nnz()));
        }
        Ok(())
    }

    pub fn generate(&self, seed: u64) -> Result<Csr> {
        self.check()?;
        match *self {
            Mask::Window { len, width } => gen::banded(len, width / 2, seed),
            Mask::Block { len, block, keep } => block_sparse(len, block, keep, seed),
            Mask::Random { len, density } => gen::uniform(len, len, density, seed),
        }
    }
}

/// See [`Mask::Block`]: the blocks kept are the pattern of an nb x nb `gen::uniform` matrix
/// (nb blocks a side) with the diagonal added; every row of a block row stores its kept blocks'
/// columns in full.
fn block_sparse(len: usize, block: usize, keep: f64, seed: u64) -> Result<Csr> {
    let nb = len.div_ceil(block);
    let pattern = gen::uniform(nb, nb, keep, seed)?;
    let mut rng = Rng::new(seed ^ BLOCK_VALUES_SEED);
    let mut m = Csr { rows: len, cols: len, row_ptr: Vec::with_capacity(len + 1), col_idx: Vec::new(), values: Vec::new() };
    m.row_ptr.push(0);
    for bi in 0..nb {
        let span = pattern.row_ptr[bi] as usize..pattern.row_ptr[bi + 1] as usize;
        let mut kept: Vec<usize> = pattern.col_idx[span].iter().map(|&c| c as usize).collect();
        if let Err(at) = kept.binary_search(&bi) {
            kept.insert(at, bi);
        }
        for _ in bi * block..((bi + 1) * block).min(len) {
            for &bj in &kept {
                for c in bj * block..((bj + 1) * block).min(len) {
                    m.col_idx.push(c as i32);
                    m.values.push(rng.value());
                }
            }
            // At most MAX_MASK_NNZ entries (checked): the offsets fit 32 bits.
            m.row_ptr.push(m.col_idx.len() as i32);
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::tests::well_formed;

    fn row(m: &Csr, r: usize) -> &[i32] {
        &m.col_idx[m.row_ptr[r] as usize..m.row_ptr[r + 1] as usize]
    }

    #[test]
    fn windows_store_the_band_of_half_their_width() {
        let m = Mask::Window { len: 50, width: 6 }.generate(1).unwrap();
        assert!(well_formed(&m));
        for r in 0..50 {
            let want: Vec<i32> = (0..50).filter(|&c: &i32| (c - r as i32).abs() <= 3).collect();
            assert_eq!(row(&m, r), &want[..], "row {r}");
        }
        // L (w + 1) entries but for the corners: h (h + 1) with h = w / 2.
        let w = Mask::Window { len: 1000, width: 64 };
        let m = w.generate(1).unwrap();
        assert_eq!(m.nnz(), 1000 * 65 - 32 * 33);
        assert!(m.nnz() as u64 <= w.max_nnz());
        assert_eq!((w.name().as_str(), w.group()), ("window_L1000_w64", "window"));
    }

    #[test]
    fn block_sparse_keeps_whole_blocks_and_the_diagonal() {
        // 16 block rows (the last of 40 rows); 1.6 blocks a block row kept, plus the diagonal.
        let mask = Mask::Block { len: 1000, block: 64, keep: 0.1 };
        let m = mask.generate(7).unwrap();
        assert!(well_formed(&m));
        assert_eq!((m.rows, m.cols), (1000, 1000));
        let width = |b: usize| if b == 15 { 40 } else { 64 };
        let mut blocks = 0;
        for bi in 0..16 {
            let first = row(&m, bi * 64);
            let mut kept: Vec<usize> = first.iter().map(|&c| c as usize / 64).collect();
            kept.dedup();
            assert!(kept.contains(&bi), "block row {bi} keeps its diagonal block");
            assert!((1..=3).contains(&kept.len()), "block row {bi}: {kept:?}");
            for &b in &kept {
                assert_eq!(first.iter().filter(|&&c| c as usize / 64 == b).count(), width(b), "block {b} whole");
            }
            for r in bi * 64..((bi + 1) * 64).min(1000) {
                assert_eq!(row(&m, r), first, "every row of block row {bi} alike");
            }
            blocks += kept.len();
        }
        // 25 or 26 blocks of 256 drawn (1 or 2 a block row) and the 16 diagonal ones, some twice.
        assert!((16..=16 + 32).contains(&blocks), "{blocks} blocks");
        assert!(m.nnz() as u64 <= mask.max_nnz());
        assert_eq!(m, mask.generate(7).unwrap(), "deterministic");
        assert_ne!(m.values, mask.generate(8).unwrap().values);
        assert_eq!(mask.name(), "block_L1000_b64_k0.1");
    }

    #[test]
    fn random_masks_have_their_density() {
        let mask = Mask::Random { len: 2000, density: 0.05 };
        let m = mask.generate(3).unwrap();
        assert!(well_formed(&m));
        let want = 0.05 * 2000.0 * 2000.0;
        assert!((m.nnz() as f64 - want).abs() < 0.01 * want, "nnz {}", m.nnz());
        assert!(m.nnz() as u64 <= mask.max_nnz());
        assert_eq!(mask.name(), "random_L2000_d0.05");
    }

    #[test]
    fn the_set_stays_under_the_cap_and_its_bounds_hold() {
        for mask in &ATTENTION_SET {
            assert!(mask.check().is_ok(), "{}", mask.name());
        }
        // The largest: the widest window at 65536, block-sparse at 16384 (about 28M).
        assert_eq!(ATTENTION_SET[5].max_nnz(), 65536 * 257);
        assert!(ATTENTION_SET[7].max_nnz() < MAX_MASK_NNZ);
        for mask in ATTENTION_SET.iter().filter(|m| m.len() == 4096) {
            let m = mask.generate(11).unwrap();
            assert!(well_formed(&m) && m.nnz() as u64 <= mask.max_nnz(), "{}", mask.name());
        }
        // Block-sparse at 65536 would hold about 430M entries.
        assert!(Mask::Block { len: 65536, block: 64, keep: 0.1 }.check().unwrap_err().contains("cap"));
        assert!(Mask::Random { len: 10, density: 1.5 }.check().is_err());
        assert!(Mask::Block { len: 10, block: 0, keep: 0.5 }.check().is_err());
        assert!(Mask::Window { len: 0, width: 4 }.check().is_err());
    }
}
