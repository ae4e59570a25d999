//! Whether a preprocessed call that the plan gives to the tile kernel runs the short-row kernel
//! (kernels/spmm_short_rows.cu) instead: when every row of op(A) is short, which preprocess
//! measures (the longest row, read back once).
//!
//! Why: the short-row kernel lasts as long as its slowest group, whose row is a chain of memory
//! round trips (one per UNROLL = 8 entries, plus one per 32 entries read), while the tile kernel
//! pays about ten per block whatever the rows but cuts long rows evenly. So short rows win where
//! every row is short against the mean (1.1-2.2x the tiles with the longest row at most 128 entries
//! and 8 times the mean) and lose where a few rows are long (0.1-1.0x with 168+ entries at 9-185
//! times the mean): rows up to LONG may be 16 times the mean, longer ones 8, and a long row only
//! where other rows' work hides it (measurements: bench/notes/spmm-kernels.md, "Short rows").
//!
//! A plain call cannot read its longest row back without waiting for the GPU; where the work is
//! large enough it lets the GPU apply this same rule (plain_choice.rs: the verdict, then both
//! kernels, one of which returns at once; the verdict remembered for later calls), elsewhere it
//! keeps the tile kernel. A preprocessed call may differ from a plain one in rounding where they
//! run different kernels (each is bitwise reproducible run to run).
//! `OXSPARSE_SPMM_KERNEL=short_rows` sends every such call to the short-row kernel, plain ones too
//! (for tests and comparisons); `=tiles` none.

use super::plan::ForcedKernel;
use crate::device::DeviceModel;
use crate::kernels::spmm::{RowShape, Types, SHORT_ROWS_RESIDENT};
use crate::settings::Spmm as Settings;

/// Rows of at most this many entries never make a matrix skewed enough for the tiles.
pub const ALWAYS: i64 = 32;
/// Rows up to this long are fine when not too far above the mean...
pub const LONG: i64 = 128;
/// ...and up to this long when the matrix has at least HIDDEN times as many entries.
pub const LONGEST: i64 = 256;
pub const HIDDEN: i64 = 64;
/// A longest row of up to LONG entries may be at most this many times the mean row...
pub const SKEW: i64 = 16;
/// ...a longer one at most this many times.
pub const SKEW_LONGEST: i64 = 8;

/// The short-row kernel's preferred shape for these types and n columns (`Narrow`, which always
/// fits, when no other does), for rows one group each (`split` false) or over the split-row table
/// (where split_rows/mod.rs `shape` may take another for the matrix's longest row).
/// Two vectors a lane spread each entry's shuffles, address and load over twice the columns but
/// halve the entries in flight and the groups at work, so they pay where chains are short or
/// groups many: whole short rows run 1.10-1.18x faster on `NarrowX2` than narrow at N = 64 and on
/// either x2 shape at N >= 128; over split-row tables `NarrowX2` lost at N = 64 and `WideX2` won at
/// N >= 128 (measurements: bench/notes/spmm-kernels.md, "Row shapes").
/// 16-bit A, B and C take the packed shapes (16-byte vectors) before the others of their columns:
/// 0-3% faster than the x2 shapes, and through preprocess's piece rule they take the small
/// matrices to split rows, 15-30% faster there.
/// `forced` (`OXSPARSE_SPMM_ROW_SHAPE`: narrow, wide, x2, wide_x2, half, packed, packed_wide) puts
/// a shape first where it fits (for comparisons).
pub fn shape(types: Types, n: i64, split: bool, forced: Option<RowShape>) -> RowShape {
    use RowShape::*;
    let preferred: &[RowShape] = if split { &[PackedWide, WideX2, Packed] } else { &[PackedWide, WideX2, Packed, NarrowX2] };
    forced.iter().chain(preferred).copied().find(|s| s.fits(types, n)).unwrap_or(Narrow)
}

/// Blocks of the short-row kernel the device holds at once: one wave.
pub fn wave(device: &DeviceModel) -> u64 {
    device.wave(SHORT_ROWS_RESIDENT)
}

/// Column slices each block of the short-row kernel takes one after another: as many as keep four
/// waves of blocks, so that matrices of many tiny rows (mdual: 258K rows of 4) do not pay a
/// block's latency over a hundred waves (one slice per block ran 0.75x the tiles at N = 256).
/// `OXSPARSE_SPMM_SHORT_SLICES` forces it (for comparisons). The launcher caps it at the slices.
pub fn slices_per_block(device: &DeviceModel, s: &Settings, row_blocks: u64, slices: u64) -> u64 {
    s.short_slices.filter(|&v| v > 0).unwrap_or(row_blocks * slices / (4 * wave(device)))
}

/// What `OXSPARSE_SPMM_KERNEL` forces: Some(true) for `short_rows`, Some(false) for `tiles`.
pub fn forced(s: &Settings) -> Option<bool> {
    match s.kernel {
        Some(ForcedKernel::ShortRows) => Some(true),
        Some(ForcedKernel::Tiles) => Some(false),
        _ => None,
    }
}

/// The choice for a matrix of `m` rows and `nnz` entries whose longest row has `longest` entries.
pub fn takes(longest: i64, m: i64, nnz: i64, s: &Settings) -> bool {
    forced(s).unwrap_or(takes_by_rule(longest, m, nnz))
}

/// The rule itself, whatever `OXSPARSE_SPMM_KERNEL` forces (plain_choice.rs inverts it).
pub fn takes_by_rule(longest: i64, m: i64, nnz: i64) -> bool {
    let skew_at_most = |times: i64| longest * m <= times * nnz;
    let long = longest <= LONG && skew_at_most(SKEW);
    let longest_hidden = longest <= LONGEST && skew_at_most(SKEW_LONGEST) && HIDDEN * longest <= nnz;
    longest <= ALWAYS || long || longest_hidden
}

#[cfg(test)]
mod tests {
    use super::*;

    fn takes(longest: i64, m: i64, nnz: i64) -> bool {
        super::takes(longest, m, nnz, &Default::default())
    }

    #[test]
    fn shapes_follow_types_and_columns() {
        use crate::types::DataType::*;
        use RowShape::*;
        let t = |ab, c| Types { ab, c, compute: if ab == CUDA_R_64F { CUDA_R_64F } else { CUDA_R_32F } };
        let f32 = t(CUDA_R_32F, CUDA_R_32F);
        let shape = |t, n, split| super::shape(t, n, split, None);
        assert_eq!(shape(f32, 256, true), WideX2);
        assert_eq!(shape(f32, 64, true), Narrow);
        assert_eq!(shape(f32, 128, false), WideX2);
        assert_eq!(shape(f32, 192, false), NarrowX2);
        assert_eq!(super::shape(f32, 128, false, Some(Narrow)), Narrow, "a forced shape first");
        assert_eq!(super::shape(f32, 96, false, Some(Wide)), Narrow, "where it fits");
        assert_eq!(shape(f32, 96, false), Narrow, "n not a multiple of 64 keeps narrow slices");
        assert_eq!(shape(t(CUDA_R_16F, CUDA_R_32F), 256, false), Narrow, "16-bit A and B, FP32 C");
        let (f16, bf16) = (t(CUDA_R_16F, CUDA_R_16F), t(CUDA_R_16BF, CUDA_R_16BF));
        assert_eq!([64, 128, 256, 96].map(|n| shape(f16, n, true)), [Packed, PackedWide, PackedWide, Narrow]);
        assert_eq!([64, 192].map(|n| shape(bf16, n, false)), [Packed, Packed]);
    }

    #[test]
    fn slices_per_block_keep_four_waves_of_the_device() {
        use crate::device::models::*;
        let unset = Settings::default();
        // mdual at N = 256 (8 runs of 32 columns): 8080 row blocks; 528 blocks a wave on 132 SMs.
        assert_eq!(slices_per_block(&hbm3e_132(), &unset, 8080, 8), 30);
        assert_eq!(slices_per_block(&hbm2e_108(), &unset, 8080, 8), 37, "fewer multiprocessors, more slices a block");
        let forced = Settings { short_slices: Some(2), ..Settings::default() };
        assert_eq!(slices_per_block(&hbm3e_132(), &forced, 8080, 8), 2);
    }

    #[test]
    fn forcing_decides_whatever_the_rows() {
        use crate::settings::{ForcedKernel, Spmm};
        let forced = |kernel| Spmm { kernel: Some(kernel), ..Spmm::default() };
        assert!(super::takes(5000, 10, 5000, &forced(ForcedKernel::ShortRows)));
        assert!(!super::takes(5, 2500, 12_349, &forced(ForcedKernel::Tiles)));
    }

    /// The matrices the rule was measured on (longest row, rows, entries) fall on their measured
    /// side.
    #[test]
    fn measured_matrices_fall_on_their_measured_side() {
        let short = [
            (5, 2500, 12_349),
            (19, 4941, 13_188),
            (48, 6545, 295_680),
            (31, 39_082, 559_722),
            (35, 7962, 203_084),
            (95, 2003, 83_883),
            (150, 10_974, 428_650),
            (124, 4000, 196_305),
            (4, 62_032, 243_088),
            (53, 2405, 16_523),
            (80, 131, 2077),
            (240, 156_317, 10_973_239),
            (53, 67_578, 336_352),
            (74, 48_837, 234_550),
        ];
        for (longest, m, nnz) in short {
            assert!(takes(longest, m, nnz), "{longest} of {nnz}/{m}");
        }
        let tiles = [
            (168, 2708, 10_556),
            (171, 19_717, 88_651),
            (1303, 7600, 53_411),
            (709, 22_470, 341_825),
            (708, 6440, 502_504),
            (3992, 10_312, 667_966),
            (360, 16_706, 242_502),
            (276, 1200, 122_713),
            (202, 399, 11_988),
        ];
        for (longest, m, nnz) in tiles {
            assert!(!takes(longest, m, nnz), "{longest} of {nnz}/{m}");
        }
    }

    #[test]
    fn bounds() {
        assert!(takes(32, 1_000_000, 1000), "rows of 32 entries are short whatever the mean");
        assert!(!takes(33, 1_000_000, 1000));
        assert!(takes(0, 10, 0));
        assert!(takes(128, 100, 1600));
        assert!(!takes(129, 100, 1612), "longer than LONG needs HIDDEN x its length in entries");
        assert!(takes(256, 100, 256 * 64));
        assert!(!takes(257, 100, 257 * 64));
    }
}
