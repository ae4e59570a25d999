//! Launchers for `kernels/csr2csc_radix.cu`: the transpose as a stable LSD radix sort of the entry
//! numbers by column, then the rows, values and column offsets from the sorted order.

use super::params::csr2csc::{Csr2cscRadixParams, CSR2CSC_RADIX_SCAN_IN_SCATTER_TILES};
use super::{grid_for, launch, BLOCK};
use crate::context::Handle;
use crate::error::Result;
use crate::kernel_name;

const FAMILY: &str = "csr2csc_radix";
/// Digit bits a pass (`BITS`), and the digits.
const BITS: u32 = 8;
const RADIX: i64 = 1 << BITS;
/// Entries a pass's block takes (`TILE`: 256 threads, 8 rounds).
const TILE: i64 = 2048;

/// Passes for `n` columns: enough digits for every key, 0 to n (n stands for a column outside
/// the matrix).
pub fn passes(n: i64) -> u32 {
    key_bits(n).div_ceil(BITS)
}

/// Tiles a pass cuts `nnz` entries into.
pub fn tiles(nnz: i64) -> i64 {
    crate::ops::ceil_div(nnz, TILE)
}

/// Whether a pass over `nnz` entries has so few tiles that each scatter block sums the digit
/// counts it needs itself: no totals to clear, no scan kernel (a launch each costs more).
pub fn scan_in_scatter(nnz: i64) -> bool {
    tiles(nnz) <= i64::from(CSR2CSC_RADIX_SCAN_IN_SCATTER_TILES)
}

/// Digit counts of a pass: a count per digit per tile (i32 each).
pub fn counts(nnz: i64) -> i64 {
    tiles(nnz) * RADIX
}

/// i32 words a pass's counts take in the array that holds them: a count per digit per tile, then
/// two sets of the digits' totals (a pass uses the set of its parity).
pub fn room(nnz: i64) -> i64 {
    counts(nnz) + 2 * RADIX
}

/// Bits of a column key (0 to n, n standing for a column outside the matrix), as the kernels count
/// them.
fn key_bits(n: i64) -> u32 {
    64 - (n.max(1) as u64).leading_zeros()
}

/// Whether the first pass writes the column's digits above its own as a u16 side array (one an
/// entry) for the second pass to read: where they do not fit above the entry numbers (the first
/// pass cannot carry them, so the second would gather every column twice) and do fit 16 bits.
pub fn needs_side(nnz: i64, n: i64) -> bool {
    let entry_bits = 64 - ((nnz - 1).max(1) as u64).leading_zeros();
    let rest = key_bits(n).saturating_sub(BITS);
    passes(n) >= 2 && rest <= 16 && entry_bits + rest > 32
}

/// i32 words of the side array ([`needs_side`]).
pub fn side_words(nnz: i64) -> i64 {
    (nnz + 1) / 2
}

/// Entries between row hints, so that the hints fit cscColPtr's `n + 1` words.
pub fn hint_stride(nnz: i64, n: i64) -> i64 {
    crate::ops::ceil_div(nnz, n + 1).max(1)
}

/// Where a transpose keeps what it sorts (device addresses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrays {
    /// `nnz` u32 of the workspace: the last pass writes the sorted entry numbers here.
    pub perm: u64,
    /// Room for a pass's counts while both `perm` and cscRowInd hold entry numbers (passes after
    /// the first): cscVal or cscColPtr, neither written before the passes end.
    pub later_counts: u64,
    /// The first two passes' side array (u16 an entry, [`needs_side`]), 0 for none.
    pub side: u64,
}

/// Enqueues the whole transpose. `p` holds the matrix, the outputs and the sizes (the launcher
/// sets the rest: each pass's arrays and digit, the row hints); the passes
/// alternate between `arrays.perm` and cscRowInd so that the last ends in `perm`, and keep their
/// counts and totals in [`room`] words of the other one (the first pass) or of
/// `arrays.later_counts`. Three launches a pass (two with few tiles).
pub fn transpose(h: &Handle, p: &Csr2cscRadixParams, arrays: Arrays, value_bytes: u64) -> Result<()> {
    let passes = passes(p.n);
    let tiles = tiles(p.nnz);
    let pass_grid = (tiles as u32, 1, 1);
    let dst_of = |pass: u32| if (passes - 1 - pass) % 2 == 0 { arrays.perm } else { p.csc_row_ind };
    let counts_of = |pass: u32| match pass {
        0 if dst_of(0) == arrays.perm => p.csc_row_ind,
        0 => arrays.perm,
        _ => arrays.later_counts,
    };
    // Where pass `pass` keeps its totals (the kernels' `totals`).
    let totals_of = |pass: u32| counts_of(pass) + 4 * (counts(p.nnz) + i64::from(pass % 2) * RADIX) as u64;
    // Few tiles: no digit totals and no scan kernel (the scatter sums the counts it needs).
    let scanned = !scan_in_scatter(p.nnz);
    if scanned {
        let first = Csr2cscRadixParams { next_totals: totals_of(0), ..*p };
        launch(h, FAMILY, "oxs_c2cr_clear_totals", (1, 1, 1), BLOCK, 0, &first)?;
    }
    let hint_stride = hint_stride(p.nnz, p.n);
    let hints = crate::ops::ceil_div(p.nnz, hint_stride);
    // The row hints go to cscColPtr: in the first histogram unless the later passes keep their
    // counts there (the hints must outlive the passes).
    let hints_first = (0..passes).all(|pass| counts_of(pass) != p.csc_col_ptr);
    let mut src = 0;
    for pass in 0..passes {
        let dst = dst_of(pass);
        let next_totals = if pass + 1 < passes { totals_of(pass + 1) } else { 0 };
        let side = if pass < 2 { arrays.side } else { 0 };
        let mut q = Csr2cscRadixParams { src, dst, counts: counts_of(pass), tiles, next_totals, side, shift: (pass * BITS) as i32, ..*p };
        if pass == 0 && hints_first {
            (q.hint_stride, q.hints) = (hint_stride, hints);
        }
        launch(h, FAMILY, "oxs_c2cr_histogram", pass_grid, BLOCK, 0, &q)?;
        if scanned {
            launch(h, FAMILY, "oxs_c2cr_scan", (RADIX as u32, 1, 1), BLOCK, 0, &q)?;
        }
        launch(h, FAMILY, "oxs_c2cr_scatter", pass_grid, BLOCK, 0, &q)?;
        src = dst;
    }
    let q = Csr2cscRadixParams { src: arrays.perm, tiles, hint_stride, hints, ..*p };
    if !hints_first {
        launch(h, FAMILY, "oxs_c2cr_row_hints", (grid_for(p.m as u64, BLOCK), 1, 1), BLOCK, 0, &q)?;
    }
    let entries = (grid_for(p.nnz as u64, BLOCK), 1, 1);
    launch(h, FAMILY, "oxs_c2cr_rows", entries, BLOCK, 0, &q)?;
    launch(h, FAMILY, kernel_name!("oxs_c2cr_finish_{}", super::csr2csc::width(value_bytes)).as_str(), entries, BLOCK, 0, &q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_cover_every_column_and_the_outside_one() {
        let got: Vec<u32> = [0, 1, 255, 256, 65_535, 65_536, 1_138_499, i32::MAX as i64].iter().map(|&n| passes(n)).collect();
        assert_eq!(got, [1, 1, 1, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn hints_fit_the_column_offsets() {
        for (nnz, n) in [(5_890_944, 1_138_499), (998_905, 4267), (10, 1000), (4096, 0)] {
            let s = hint_stride(nnz, n);
            assert!(crate::ops::ceil_div(nnz, s) <= n + 1, "{nnz} {n}");
        }
        assert_eq!(counts(2049), 512);
    }

    #[test]
    fn a_side_array_where_the_first_pass_cannot_carry() {
        assert!(needs_side(5_890_944, 1_138_499), "youtube_like: 23-bit entries, 13 more column bits");
        assert!(!needs_side(2_118_662, 156_317), "wave: 22 + 10 bits fit");
        assert!(!needs_side(5_890_944, 200), "one pass");
        assert!(!needs_side(1 << 30, 1 << 30), "the column's rest over 16 bits");
        assert_eq!(side_words(5), 3);
    }

    #[test]
    fn few_tiles_scan_in_the_scatter() {
        assert!(scan_in_scatter(2048 * 40));
        assert!(!scan_in_scatter(2048 * 40 + 1));
    }
}
