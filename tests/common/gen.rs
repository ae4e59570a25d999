//! Sparse matrices assembled from the entries a test generator drew: CSR, CSC or COO arrays that
//! keep each line's entries in the order given (generators shuffle them, so columns come unsorted
//! within rows), and BSR over a CSR pattern of blocks; random FP32 CSR matrices of given row
//! lengths, with their dense form and float64 products, for the hand-written C-ABI tests; and
//! dense operands with padding and batch gaps (SpMM's B and C, SDDMM's A and B).

use super::bytes::encode;
use super::{DevBuf, Rng};
use oxsparse::descr::FormatInfo;
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::spmm::BatchedDense;
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::{DataType, Order};

/// The CSR, CSC or COO arrays (`format`) of entries `e` (row, column, value) of a `rows x cols`
/// matrix, indices counted from `base`. A stable sort by line keeps each line's order; COO
/// entries are sorted by row only when `coo_sorted`, else kept entirely in the order given.
pub fn from_entries(
    format: FormatInfo,
    (rows, cols): (i64, i64),
    base: i64,
    mut e: Vec<(i64, i64, Value)>,
    coo_sorted: bool,
) -> HostSparse {
    let (by_col, coo) = (format == FormatInfo::Csc, format == FormatInfo::Coo);
    assert!(coo || by_col || format == FormatInfo::Csr, "from_entries makes CSR, CSC or COO, not {format:?}");
    let key = |x: &(i64, i64, Value)| if by_col { x.1 } else { x.0 };
    if !coo || coo_sorted {
        e.sort_by_key(key);
    }
    let offsets = if coo {
        e.iter().map(|x| x.0 + base).collect()
    } else {
        let lines = if by_col { cols } else { rows };
        let mut o = vec![0i64; lines as usize + 1];
        for x in &e {
            o[key(x) as usize + 1] += 1;
        }
        for i in 0..lines as usize {
            o[i + 1] += o[i];
        }
        o.iter().map(|v| v + base).collect()
    };
    let indices = e.iter().map(|x| if by_col { x.0 } else { x.1 } + base).collect();
    HostSparse { format, rows, cols, base, offsets, indices, values: e.iter().map(|x| x.2).collect() }
}

/// BSR of a `rows x cols` matrix in blocks of `rb x cb` stored in `order`: `blocks` holds the
/// (block row, block column) of each stored block, kept in the order given within block rows;
/// `values` holds rb * cb values a block, in stored order.
pub fn bsr(
    (rows, cols): (i64, i64),
    (rb, cb): (i64, i64),
    order: Order,
    base: i64,
    blocks: &[(i64, i64)],
    values: Vec<Value>,
) -> HostSparse {
    let (brows, bcols) = (rows / rb, cols / cb);
    let pattern = blocks.iter().map(|p| (p.0, p.1, ZERO)).collect();
    let mut m = from_entries(FormatInfo::Csr, (brows, bcols), base, pattern, true);
    let bnnz = blocks.len() as i64;
    assert_eq!(values.len() as i64, bnnz * rb * cb, "values for every block");
    m.values = values;
    m.format = FormatInfo::Bsr { brows, bcols, bnnz, row_block: rb, col_block: cb, block_order: order };
    (m.rows, m.cols) = (rows, cols);
    m
}

/// An FP32 CSR matrix with 32-bit indices from 0, as the hand-written C-ABI tests hold it.
pub struct CsrF32 {
    pub rows: usize,
    pub cols: usize,
    pub offsets: Vec<i32>,
    pub indices: Vec<i32>,
    /// Empty when the values were not drawn with the pattern.
    pub values: Vec<f32>,
}

/// A random `rows x cols` CSR matrix: row r holds `len(rng, r)` distinct columns in random order
/// (`Rng::distinct`), each row's values (`Rng::value` as FP32) drawn right after its columns when
/// `with_values`.
pub fn random_csr(rng: &mut Rng, (rows, cols): (usize, usize), mut len: impl FnMut(&mut Rng, usize) -> u64, with_values: bool) -> CsrF32 {
    let mut a = CsrF32 { rows, cols, offsets: vec![0], indices: vec![], values: vec![] };
    for r in 0..rows {
        let n = len(rng, r) as usize;
        for c in rng.distinct(cols as u64, n) {
            a.indices.push(c as i32);
            if with_values {
                a.values.push(rng.value() as f32);
            }
        }
        a.offsets.push(a.indices.len() as i32);
    }
    a
}

impl CsrF32 {
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Offsets, indices and values on the device, in that order.
    pub fn upload(&self) -> [DevBuf; 3] {
        [DevBuf::from_slice(&self.offsets), DevBuf::from_slice(&self.indices), DevBuf::from_slice(&self.values)]
    }

    /// The matrix dense, row-major.
    pub fn dense(&self) -> Vec<f32> {
        let mut d = vec![0f32; self.rows * self.cols];
        for r in 0..self.rows {
            let line = self.offsets[r] as usize..self.offsets[r + 1] as usize;
            for (&c, &v) in self.indices[line.clone()].iter().zip(&self.values[line]) {
                d[r * self.cols + c as usize] = v;
            }
        }
        d
    }

    /// The float64 product with `values` (this pattern's) and the row-major `cols x w` matrix `b`
    /// (a vector when w == 1): each element's sum in stored order, and its error scale (the sum of
    /// the terms' magnitudes).
    pub fn product(&self, values: &[f32], b: &[f32], w: usize) -> (Vec<f64>, Vec<f64>) {
        let (mut sums, mut scales) = (vec![0f64; self.rows * w], vec![0f64; self.rows * w]);
        for r in 0..self.rows {
            let line = self.offsets[r] as usize..self.offsets[r + 1] as usize;
            for (&c, &v) in self.indices[line.clone()].iter().zip(&values[line]) {
                let (c, v) = (c as usize, v as f64);
                for j in 0..w {
                    let p = v * b[c * w + j] as f64;
                    sums[r * w + j] += p;
                    scales[r * w + j] += p.abs();
                }
            }
        }
        (sums, scales)
    }
}

/// A dense operand: `count` matrices of `rows x cols` in `order` with leading dimension `ld`,
/// `stride` elements apart (ignored for one), as the reference holds it and as its bytes. Every
/// element outside the matrices (padding, gaps between batches) holds 0xFF bytes (NaN on the
/// host); the matrices hold random values of `t` (`values::random`), or the same poison when not
/// `fill` (an output that beta == 0 must never read).
#[allow(clippy::too_many_arguments)]
pub fn dense(
    rng: &mut Rng,
    (rows, cols): (i64, i64),
    order: Order,
    ld: i64,
    count: i32,
    stride: i64,
    t: DataType,
    fill: bool,
) -> (BatchedDense, Vec<u8>) {
    let lines = if order == Order::OXSPARSE_ORDER_COL { cols } else { rows };
    let (count, span) = (count as i64, ld * lines);
    let stride = if count > 1 { stride } else { 0 };
    assert!(count == 1 || stride >= span, "batches {stride} apart overlap matrices of {span}");
    let total = (stride * (count - 1) + span) as usize;
    let nan = (f64::NAN, f64::NAN);
    let mut d = BatchedDense { rows, cols, ld, order, count, stride, values: vec![nan; total] };
    let width = t.size_bytes() as usize;
    let mut bytes = vec![0xFFu8; total * width];
    if fill {
        let fresh = super::values::random(rng, t, (count * rows * cols) as usize);
        let encoded = encode(t, &fresh);
        let mut next = 0;
        for b in 0..count {
            for r in 0..rows {
                for c in 0..cols {
                    let at = d.index(b, r, c);
                    d.values[at] = fresh[next];
                    bytes[at * width..(at + 1) * width].copy_from_slice(&encoded[next * width..(next + 1) * width]);
                    next += 1;
                }
            }
        }
    }
    (d, bytes)
}
