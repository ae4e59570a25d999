//! CPU twin of the BRCV build (kernels/brcv.cu `extent` and `scatter`, and the transparent path's
//! `screen`): which entries of a CSR
//! matrix a row block's band holds and which are far, by the same rules, so that tests can check
//! the GPU's totals and the format's invariants (docs/design/brcv.md).

use crate::kernels::params::brcv::{BRCV_FAR_COST, BRCV_MAX_WIDTH, BRCV_ROWS, BRCV_WINDOWS};

/// One row block's band: diagonal offsets `lo .. lo + width` (width 0: no band).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Band {
    pub lo: i64,
    pub width: i64,
}

impl Band {
    pub fn holds(&self, offset: i64) -> bool {
        offset >= self.lo && offset < self.lo + self.width
    }
}

/// The build's outcome: a band per row block, far entries per row, and the totals
/// `oxsparseBrcvGetInfo` reports (band values stored, far entries, widest band).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub bands: Vec<Band>,
    pub far_per_row: Vec<u64>,
    pub values: u64,
    pub far: u64,
    pub widest: u64,
}

/// The layout of an m x k CSR matrix (`offsets` and `cols` with the index base `base` added).
/// Columns outside [0, k) are ignored, as the kernels ignore them. Per block, the cheapest band
/// of the build's candidates (`BRCV_WINDOWS`, `BRCV_FAR_COST`), the earliest on a tie.
pub fn layout(m: i64, k: i64, offsets: &[i64], cols: &[i64], base: i64) -> Layout {
    let rows = BRCV_ROWS as i64;
    let max_width = BRCV_MAX_WIDTH as i64;
    let far_cost = BRCV_FAR_COST as u64;
    let blocks = (m.max(0) as u64).div_ceil(rows as u64) as i64;
    let range = |r: i64| ((offsets[r as usize] - base) as usize, (offsets[r as usize + 1] - base) as usize);
    let row_offsets = |r: i64| -> Vec<i64> {
        let (b, e) = range(r);
        cols[b..e].iter().map(|&c| c - base).filter(|&c| c >= 0 && c < k).map(|c| c - r).collect()
    };
    let mut out = Layout { far_per_row: vec![0; m.max(0) as usize], ..Default::default() };
    for blk in 0..blocks {
        let (r0, r1) = (blk * rows, ((blk + 1) * rows).min(m));
        let rows_here = r1 - r0;
        let per_row: Vec<Vec<i64>> = (r0..r1).map(row_offsets).collect();
        let offsets_of_block = || per_row.iter().flatten().copied();
        // The centre: the middle entry (in stored order, valid or not) of the middle row.
        let mid = r0 + (rows / 2).min(rows_here - 1);
        let (b, e) = range(mid);
        let centre = match (b < e).then(|| cols[b + (e - b) / 2] - base) {
            Some(c) if c >= 0 && c < k => c - mid,
            _ => 0,
        };
        let valid = offsets_of_block().count() as u64;
        let mut best = (Band::default(), u64::MAX);
        for cand in 0..=BRCV_WINDOWS as i64 {
            let (from, to) = if cand == 0 {
                (i64::MIN, i64::MAX)
            } else {
                let half = (max_width / 2) >> (cand - 1);
                (centre - half, centre + half)
            };
            let inside: Vec<i64> = offsets_of_block().filter(|&d| d >= from && d <= to).collect();
            let (Some(&lo), Some(&hi)) = (inside.iter().min(), inside.iter().max()) else { continue };
            let width = hi - lo + 1;
            let cost = (rows_here * width) as u64 + far_cost * (valid - inside.len() as u64);
            if width <= max_width && cost < best.1 {
                best = (Band { lo, width }, cost);
            }
        }
        let band = if far_cost * valid < best.1 { Band::default() } else { best.0 };
        for (i, offs) in per_row.iter().enumerate() {
            out.far_per_row[r0 as usize + i] = offs.iter().filter(|&&d| !band.holds(d)).count() as u64;
        }
        out.values += (rows * band.width) as u64;
        out.widest = out.widest.max(band.width as u64);
        out.bands.push(band);
    }
    out.far = out.far_per_row.iter().sum();
    out
}

/// CPU twin of the transparent path's screen (kernels/brcv.cu `screen`): per row block, its valid
/// entries less those any band of `layout`'s candidates could hold (all where the block's span is
/// at most `BRCV_MAX_WIDTH` wide, else those within `BRCV_MAX_WIDTH / 2` of its centre), summed:
/// a lower bound on `layout(..).far`.
pub fn far_floor(m: i64, k: i64, offsets: &[i64], cols: &[i64], base: i64) -> u64 {
    let (rows, max_width) = (BRCV_ROWS as i64, BRCV_MAX_WIDTH as i64);
    let range = |r: i64| ((offsets[r as usize] - base) as usize, (offsets[r as usize + 1] - base) as usize);
    let mut floor = 0;
    for r0 in (0..m.max(0)).step_by(rows as usize) {
        let rows_here = (m - r0).min(rows);
        let mid = r0 + (rows / 2).min(rows_here - 1);
        let (b, e) = range(mid);
        let centre = match (b < e).then(|| cols[b + (e - b) / 2] - base) {
            Some(c) if c >= 0 && c < k => c - mid,
            _ => 0,
        };
        let block: Vec<i64> = (r0..r0 + rows_here)
            .flat_map(|r| {
                let (b, e) = range(r);
                cols[b..e].iter().map(|&c| c - base).filter(|&c| c >= 0 && c < k).map(move |c| c - r)
            })
            .collect();
        let (Some(&lo), Some(&hi)) = (block.iter().min(), block.iter().max()) else { continue };
        let near = block.iter().filter(|&&d| (d - centre).abs() <= max_width / 2).count();
        let held = if hi - lo < max_width { block.len() } else { near };
        floor += (block.len() - held) as u64;
    }
    floor
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CSR (base 0) of an m x m band of half-width `b`, holes where `keep(r, c)` is false.
    fn band(m: i64, b: i64, keep: impl Fn(i64, i64) -> bool) -> (Vec<i64>, Vec<i64>) {
        let (mut offsets, mut cols) = (vec![0], vec![]);
        for r in 0..m {
            cols.extend(((r - b).max(0)..=(r + b).min(m - 1)).filter(|&c| keep(r, c)));
            offsets.push(cols.len() as i64);
        }
        (offsets, cols)
    }

    #[test]
    fn the_screen_bounds_the_far_entries_from_below() {
        let (o, c) = band(2000, 16, |_, _| true);
        assert_eq!(far_floor(2000, 2000, &o, &c, 0), 0, "a band: nothing surely far");
        // Every row's entries spread over 100 000 columns: nearly all surely far.
        let (mut o, mut c) = (vec![0i64], vec![]);
        let mut x = 12345u64;
        for _ in 0..2000 {
            for _ in 0..20 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                c.push(((x >> 33) % 100_000) as i64);
            }
            o.push(c.len() as i64);
        }
        let (floor, far) = (far_floor(2000, 100_000, &o, &c, 0), layout(2000, 100_000, &o, &c, 0).far);
        assert!(floor <= far && floor > 38_000, "floor {floor}, far {far} of 40000");
        // A band plus one far entry a row, base 1.
        let (o, c) = band(3000, 8, |_, _| true);
        let mut with_far = (vec![1i64], vec![]);
        for r in 0..3000usize {
            with_far.1.extend(c[o[r] as usize..o[r + 1] as usize].iter().map(|&x| x + 1));
            with_far.1.push(((r * 7919 + 2000) % 3000) as i64 + 1);
            with_far.0.push(with_far.1.len() as i64 + 1);
        }
        let floor = far_floor(3000, 3000, &with_far.0, &with_far.1, 1);
        let far = layout(3000, 3000, &with_far.0, &with_far.1, 1).far;
        assert!(floor <= far && far >= 2000, "floor {floor}, far {far}");
    }

    #[test]
    fn a_full_band_is_stored_without_far_entries() {
        for b in [0, 1, 16, 64, 256] {
            let (o, c) = band(1024, b, |_, _| true);
            let l = layout(1024, 1024, &o, &c, 0);
            assert_eq!(l.far, 0, "half-width {b}");
            assert_eq!(l.widest, (2 * b + 1) as u64, "half-width {b}");
            assert_eq!(l.bands.len(), 16);
            // The first block starts at the diagonal's left edge: rows near 0 have no offsets below -r,
            // but rows further down do.
            assert!(l.bands.iter().all(|x| x.lo >= -b && x.lo + x.width <= b + 1));
            assert_eq!(l.values, l.bands.iter().map(|x| 64 * x.width as u64).sum::<u64>());
        }
        // A short last block may leave a few corner entries far, where that costs less than
        // widening its band.
        let (o, c) = band(1000, 64, |_, _| true);
        let l = layout(1000, 1000, &o, &c, 0);
        assert_eq!((l.far, l.widest), (6, 129));
    }

    #[test]
    fn far_entries_leave_the_band_narrow() {
        // A band of half-width 8 plus one entry in the last column of rows 3 and 700.
        let m = 1000;
        let (mut o, mut c) = (vec![0], vec![]);
        for r in 0..m {
            c.extend((r - 8).max(0)..=(r + 8).min(m - 1));
            if r == 3 || r == 700 {
                c.push(m - 1);
            }
            o.push(c.len() as i64);
        }
        let l = layout(m, m, &o, &c, 0);
        assert_eq!(l.far, 2);
        assert_eq!((l.far_per_row[3], l.far_per_row[700], l.far_per_row[4]), (1, 1, 0));
        assert_eq!(l.widest, 17);
    }

    #[test]
    fn holes_are_kept_until_the_band_is_too_empty() {
        // 10% fill of a half-width 32 band: kept (above 1/16).
        let (o, c) = band(640, 32, |r, c| (r * 7 + c * 13) % 10 == 0);
        let l = layout(640, 640, &o, &c, 0);
        assert_eq!(l.far, 0);
        assert!(l.widest >= 60);
        // A random matrix over 100k columns: every block too sparse, everything far.
        let m = 256;
        let (mut o, mut cols) = (vec![0], vec![]);
        for r in 0..m {
            cols.extend((0..5).map(|i| (r * 7919 + i * 20_011) % 100_000));
            o.push(cols.len() as i64);
        }
        let l = layout(m, 100_000, &o, &cols, 0);
        assert_eq!((l.far, l.values, l.widest), (5 * m as u64, 0, 0));
    }

    #[test]
    fn base_one_empty_and_invalid_columns() {
        let l = layout(0, 0, &[1], &[], 1);
        assert_eq!((l.bands.len(), l.far, l.values), (0, 0, 0));
        // Rows of no entries: no band.
        let l = layout(70, 70, &[1; 71], &[], 1);
        assert_eq!((l.bands.len(), l.values, l.widest), (2, 0, 0));
        // A column outside [0, k) is neither band nor far.
        let l = layout(2, 2, &[0, 2, 2], &[0, 5], 0);
        assert_eq!((l.far, l.widest), (0, 1));
    }

    #[test]
    fn blocks_of_block_tridiagonal_matrices_span_their_neighbours() {
        // Blocks of 16: row r couples with the columns of its own block and the two beside it.
        let (o, c) = band(256, 47, |r, c| (c / 16 - r / 16).abs() <= 1);
        let l = layout(256, 256, &o, &c, 0);
        assert_eq!(l.far, 0);
        assert_eq!(l.widest, 2 * 31 + 1, "offsets -31 ..= 31");
    }
}
