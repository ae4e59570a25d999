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

/// What `OXSPARSE_SPMM_KERNEL` forces: Some(true) for `short_rows`, Some(false) for `tiles`.
pub fn forced(s: &crate::settings::Spmm) -> Option<bool> {
    match s.kernel {
        Some(ForcedKernel::ShortRows) => Some(true),
        Some(ForcedKernel::Tiles) => Some(false),
        _ => None,
    }
}

/// The choice for a matrix of `m` rows and `nnz` entries whose longest row has `longest` entries.
pub fn takes(longest: i64, m: i64, nnz: i64, s: &crate::settings::Spmm) -> bool {
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
    fn takes(longest: i64, m: i64, nnz: i64) -> bool {
        super::takes(longest, m, nnz, &Default::default())
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
