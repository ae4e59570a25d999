//! The SR-BCRS int8 SDDMM reference (docs/design/srbcrs.md, "SDDMM"): the exact i64 dot product at
//! every stored slot of the object, in its value order, and the object's mask as CSR (every row of
//! a vector row at every real vector's column), the pattern a CSR SDDMM computes the same slots on.

use super::srbcrs::{stride, DenseInt, SrBcrsHost};

/// Whether stored vector `at` of vector row `g` is real: padding repeats the row's last column,
/// a real vector's column is larger than the one before it.
pub fn is_real(s: &SrBcrsHost, g: usize, at: usize) -> bool {
    at == s.vec_ptr[g] as usize || s.vec_col[at] != s.vec_col[at - 1]
}

/// Where slot (vector `at`, row `r` of its vector row) lies in the object's value order.
pub fn slot(s: &SrBcrsHost, at: usize, r: usize) -> usize {
    let stride = stride(s.value_bits);
    (at / stride) * stride * s.vector_length + r * stride + at % stride
}

/// A (rows x k) times B (k x cols) at every slot, in the object's value order: `Some(dot)` at the
/// real vectors' rows inside the matrix, `None` where the SDDMM writes 0 (padding vectors, rows
/// past the last).
pub fn srbcrs_sddmm(s: &SrBcrsHost, a: &DenseInt, b: &DenseInt, k: usize) -> Vec<Option<i64>> {
    let v = s.vector_length;
    let mut out = vec![None; s.vec_col.len() * v];
    for g in 0..s.vec_ptr.len() - 1 {
        for at in s.vec_ptr[g] as usize..s.vec_ptr[g + 1] as usize {
            let col = s.vec_col[at] as usize;
            for r in (0..v).filter(|r| g * v + r < s.rows) {
                if is_real(s, g, at) {
                    out[slot(s, at, r)] = Some((0..k).map(|i| a.at(g * v + r, i) * b.at(i, col)).sum());
                }
            }
        }
    }
    out
}

/// The object's mask as a 0-based CSR pattern, and each entry's slot in the value order.
pub struct MaskCsr {
    pub row_ptr: Vec<i64>,
    pub col_ind: Vec<i64>,
    pub slot: Vec<usize>,
}

pub fn mask_csr(s: &SrBcrsHost) -> MaskCsr {
    let v = s.vector_length;
    let mut m = MaskCsr { row_ptr: vec![0], col_ind: vec![], slot: vec![] };
    for row in 0..s.rows {
        let g = row / v;
        for at in (s.vec_ptr[g] as usize..s.vec_ptr[g + 1] as usize).filter(|&at| is_real(s, g, at)) {
            m.col_ind.push(s.vec_col[at] as i64);
            m.slot.push(slot(s, at, row % v));
        }
        m.row_ptr.push(m.col_ind.len() as i64);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::srbcrs::CsrInt;

    #[test]
    fn slots_of_a_small_matrix() {
        // V = 2: rows 0 and 1 hold columns {1, 5}, row 2 (a partial vector row) column 0.
        let (ptr, ind, val) = (vec![0i64, 2, 3, 4], vec![1i64, 5, 5, 0], vec![3i16, -4, 7, -2]);
        let s = SrBcrsHost::from_csr(&CsrInt { rows: 3, cols: 6, row_ptr: &ptr, col_ind: &ind, values: &val }, 2, 8);
        // A: row i is (i + 1, -(i + 1)) over k = 2; B: column j is (j, 2 j).
        let a_val = [1i16, -1, 2, -2, 3, -3];
        let b_val: Vec<i16> = (0..6).flat_map(|j| [j as i16, 2 * j as i16]).collect();
        let a = DenseInt { values: &a_val, row_stride: 2, col_stride: 1 };
        let b = DenseInt { values: &b_val, row_stride: 1, col_stride: 2 };
        let out = srbcrs_sddmm(&s, &a, &b, 2);
        assert_eq!(out.len(), 64 * 2);
        // Dot of row i and column j: (i + 1) j - 2 (i + 1) j = -(i + 1) j.
        assert_eq!((out[0], out[1], out[32], out[33]), (Some(-1), Some(-5), Some(-2), Some(-10)));
        assert_eq!(out[2], None, "padding vector");
        assert_eq!((out[64], out[96]), (Some(0), None), "row 2 at column 0; row 3 is past the matrix");
        let m = mask_csr(&s);
        assert_eq!((m.row_ptr, m.col_ind, m.slot), (vec![0, 2, 4, 5], vec![1, 5, 1, 5, 0], vec![0, 1, 32, 33, 64]));
    }
}
