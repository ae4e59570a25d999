//! SpMM-blocked's matrices: FEM-like BSR (a block per pair of neighbouring nodes of a 3D mesh) and
//! banded Blocked-ELL, their CSR twin (cuSPARSE's CSR side), and the float64 reference of sampled
//! rows of C = A B.

use crate::matrix::Rng;
use crate::par;

/// A block matrix of `brows x bcols` blocks of `rb x cb`. BSR: `offsets` over block rows, blocks
/// row-major one after another. Blocked-ELL (square blocks, `offsets` empty): `slots` block
/// columns a block row, the values `rows x (slots * cb)` row-major. Values are already rounded to
/// the precision uploaded.
pub struct Blocks {
    pub rb: usize,
    pub cb: usize,
    pub brows: usize,
    pub bcols: usize,
    pub offsets: Vec<i32>,
    pub cols: Vec<i32>,
    pub slots: usize,
    pub values: Vec<f32>,
}

impl Blocks {
    pub fn ell(&self) -> bool {
        self.offsets.is_empty()
    }

    pub fn rows(&self) -> usize {
        self.brows * self.rb
    }

    pub fn cols_total(&self) -> usize {
        self.bcols * self.cb
    }

    /// Stored blocks.
    pub fn bnnz(&self) -> usize {
        self.cols.len()
    }

    /// Stored scalar entries.
    pub fn nnz(&self) -> usize {
        self.bnnz() * self.rb * self.cb
    }

    /// Block row br's blocks.
    fn blocks(&self, br: usize) -> std::ops::Range<usize> {
        if self.ell() {
            br * self.slots..(br + 1) * self.slots
        } else {
            self.offsets[br] as usize..self.offsets[br + 1] as usize
        }
    }

    /// Value (r, c) of block q in block row br.
    fn value(&self, br: usize, q: usize, r: usize, c: usize) -> f32 {
        if self.ell() {
            self.values[(br * self.rb + r) * self.slots * self.cb + (q - br * self.slots) * self.cb + c]
        } else {
            self.values[(q * self.rb + r) * self.cb + c]
        }
    }

    /// Row r's entries (column, value) in block order.
    pub fn row(&self, r: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let (br, rr) = (r / self.rb, r % self.rb);
        self.blocks(br).flat_map(move |q| {
            let col0 = self.cols[q] as usize * self.cb;
            (0..self.cb).map(move |c| (col0 + c, self.value(br, q, rr, c)))
        })
    }

    /// The same matrix as 32-bit CSR (row offsets, columns, values), for cuSPARSE's CSR SpMM.
    pub fn to_csr(&self) -> (Vec<i32>, Vec<i32>, Vec<f32>) {
        let m = self.rows();
        let mut offsets = Vec::with_capacity(m + 1);
        offsets.push(0i32);
        let (mut cols, mut values) = (Vec::with_capacity(self.nnz()), Vec::with_capacity(self.nnz()));
        for r in 0..m {
            for (c, v) in self.row(r) {
                cols.push(c as i32);
                values.push(v);
            }
            offsets.push(cols.len() as i32);
        }
        (offsets, cols, values)
    }
}

/// Values uniform in [-1, 1), each rounded by `round` (to the precision uploaded), on every core.
fn values(len: usize, seed: u64, round: impl Fn(f32) -> f32 + Sync) -> Vec<f32> {
    let mut v = vec![0f32; len];
    par::fill(&mut v, |i| round(Rng::at(seed, i as u64).value()));
    v
}

/// A `nx x ny x nz` mesh of nodes with `block x block` unknowns each: block row i holds a block
/// for every node of i's 3 x 3 x 3 neighbourhood (27 inside), in ascending order.
pub fn fem(nx: usize, ny: usize, nz: usize, block: usize, seed: u64, round: impl Fn(f32) -> f32 + Sync) -> Blocks {
    let nodes = nx * ny * nz;
    let mut offsets = Vec::with_capacity(nodes + 1);
    let mut cols = Vec::with_capacity(nodes * 27);
    offsets.push(0i32);
    let near = |x: usize, n: usize| x.saturating_sub(1)..(x + 2).min(n);
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                for zz in near(z, nz) {
                    for yy in near(y, ny) {
                        for xx in near(x, nx) {
                            cols.push((xx + nx * (yy + ny * zz)) as i32);
                        }
                    }
                }
                offsets.push(cols.len() as i32);
            }
        }
    }
    let len = cols.len() * block * block;
    Blocks { rb: block, cb: block, brows: nodes, bcols: nodes, offsets, cols, slots: 0, values: values(len, seed, round) }
}

/// A square Blocked-ELL matrix of `rows` rows in `block x block` blocks, `slots` distinct block
/// columns a block row within 32 block columns of the diagonal, ascending.
pub fn banded_ell(rows: usize, block: usize, slots: usize, seed: u64, round: impl Fn(f32) -> f32 + Sync) -> Blocks {
    const REACH: usize = 32;
    let brows = rows / block;
    let mut rng = Rng::new(seed ^ 0xB10C);
    let mut cols = Vec::with_capacity(brows * slots);
    for br in 0..brows {
        let first = br.saturating_sub(REACH);
        let width = (br + REACH + 1).min(brows) - first;
        cols.extend(rng.distinct_sorted(width as u64, slots.min(width) as u64).into_iter().map(|c| (first + c as usize) as i32));
    }
    assert_eq!(cols.len(), brows * slots, "every block row has room for its slots");
    let len = rows * slots * block;
    Blocks { rb: block, cb: block, brows, bcols: brows, offsets: Vec::new(), cols, slots, values: values(len, seed, round) }
}

/// The float64 reference of C = A B on `rows` (B row-major k x n, read by `b`): per row, the n
/// values and their error scales sum |a b|, on every core.
pub fn reference(a: &Blocks, b: &(dyn Fn(usize) -> f64 + Sync), n: usize, rows: &[usize]) -> (Vec<f64>, Vec<f64>) {
    let per_row = par::map(rows.len(), |i| {
        let (mut want, mut bound) = (vec![0f64; n], vec![0f64; n]);
        for (c, v) in a.row(rows[i]) {
            for j in 0..n {
                let t = v as f64 * b(c * n + j);
                want[j] += t;
                bound[j] += t.abs();
            }
        }
        (want, bound)
    });
    per_row.into_iter().fold((Vec::new(), Vec::new()), |(mut w, mut s), (want, bound)| {
        w.extend(want);
        s.extend(bound);
        (w, s)
    })
}

/// The rows a check compares: about 2048 evenly spaced, and the last.
pub fn sample_rows(m: usize) -> Vec<usize> {
    let stride = (m / 2048).max(1);
    let mut rows: Vec<usize> = (0..m).step_by(stride).collect();
    if rows.last() != Some(&(m - 1)) {
        rows.push(m - 1);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_mesh_has_27_neighbours_inside_and_its_csr_twin_agrees() {
        let a = fem(3, 3, 3, 2, 5, |v| v);
        assert_eq!((a.brows, a.rows(), a.bnnz()), (27, 54, 8 * 8 + 12 * 12 + 6 * 18 + 27));
        assert_eq!(a.offsets[14] - a.offsets[13], 27, "the centre node sees all 27");
        let (offsets, cols, values) = a.to_csr();
        assert_eq!((offsets.len(), cols.len(), values.len()), (55, a.nnz(), a.nnz()));
        let r = 27;
        let row: Vec<(usize, f32)> = a.row(r).collect();
        let span = offsets[r] as usize..offsets[r + 1] as usize;
        assert_eq!(row.iter().map(|e| e.0 as i32).collect::<Vec<_>>(), cols[span.clone()]);
        assert_eq!(row.iter().map(|e| e.1).collect::<Vec<_>>(), values[span]);
    }

    #[test]
    fn a_banded_ell_keeps_its_slots_near_the_diagonal() {
        let a = banded_ell(64 * 16, 16, 4, 3, |v| v);
        assert_eq!((a.brows, a.bnnz(), a.nnz(), a.values.len()), (64, 256, 256 * 256, 1024 * 64));
        for br in 0..64 {
            let c = &a.cols[br * 4..br * 4 + 4];
            assert!(c.windows(2).all(|w| w[0] < w[1]) && c.iter().all(|&x| (x as i64 - br as i64).abs() <= 32));
        }
        // Row 17 (block row 1, its row 1) reads the values of its slots in order.
        let row: Vec<(usize, f32)> = a.row(17).collect();
        assert_eq!(row.len(), 64);
        assert_eq!(row[16], (a.cols[5] as usize * 16, a.values[17 * 64 + 16]));
    }

    #[test]
    fn the_reference_sums_products_and_magnitudes() {
        let a = fem(2, 1, 1, 1, 7, |v| v);
        let b = |i: usize| [1.0, -2.0, 0.5, 4.0][i];
        let (want, bound) = reference(&a, &b, 2, &[1]);
        let (x, y) = (a.values[2] as f64, a.values[3] as f64);
        assert_eq!(want, vec![x * 1.0 + y * 0.5, x * -2.0 + y * 4.0]);
        assert_eq!(bound, vec![(x * 1.0).abs() + (y * 0.5).abs(), (x * 2.0).abs() + (y * 4.0).abs()]);
        assert_eq!(sample_rows(5), vec![0, 1, 2, 3, 4]);
        assert_eq!(sample_rows(4097).len(), 2049);
    }
}
