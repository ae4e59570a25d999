//! SR-BCRS references (docs/design/srbcrs.md): the layout built on the CPU from CSR, the twin of
//! `oxsparseCreateSrBcrs`'s GPU build (compared array for array), and int8 SpMM products in exact
//! i64, from CSR directly and from the layout, with the API's int32 and FP32 epilogues.

/// Vectors per stride block: the k depth of the int8 mma.
pub const STRIDE: usize = 32;

/// An SR-BCRS matrix on the host: the arrays `oxsparseSrBcrsGetInfo` points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrBcrsHost {
    pub rows: usize,
    pub cols: usize,
    pub vector_length: usize,
    /// Per vector row plus one: where its vectors start (multiples of the stride).
    pub vec_ptr: Vec<i32>,
    /// Per vector: its column (padding repeats the vector row's last column, 0 when it has none).
    pub vec_col: Vec<i32>,
    /// `vector_length` per vector: each stride block a `vector_length x STRIDE` row-major tile.
    pub vec_val: Vec<i8>,
}

/// A CSR matrix of int8 values (0-based, columns strictly increasing within each row).
pub struct CsrI8<'a> {
    pub rows: usize,
    pub cols: usize,
    pub row_ptr: &'a [i64],
    pub col_ind: &'a [i64],
    pub values: &'a [i8],
}

impl SrBcrsHost {
    pub fn from_csr(a: &CsrI8, vector_length: usize) -> SrBcrsHost {
        let v = vector_length;
        let groups = a.rows.div_ceil(v);
        // Each vector row's distinct columns, in increasing order.
        let columns: Vec<Vec<i64>> = (0..groups)
            .map(|g| {
                let mut c: Vec<i64> = (g * v..((g + 1) * v).min(a.rows))
                    .flat_map(|r| a.col_ind[a.row_ptr[r] as usize..a.row_ptr[r + 1] as usize].iter().copied())
                    .collect();
                c.sort_unstable();
                c.dedup();
                c
            })
            .collect();
        let mut vec_ptr = vec![0i32];
        for c in &columns {
            vec_ptr.push(vec_ptr.last().unwrap() + (c.len().div_ceil(STRIDE) * STRIDE) as i32);
        }
        let total = *vec_ptr.last().unwrap() as usize;
        let mut vec_col = vec![0i32; total];
        let mut vec_val = vec![0i8; total * v];
        for (g, c) in columns.iter().enumerate() {
            let first = vec_ptr[g] as usize;
            let last = c.last().copied().unwrap_or(0) as i32;
            vec_col[first..vec_ptr[g + 1] as usize].fill(last);
            for (s, &col) in c.iter().enumerate() {
                vec_col[first + s] = col as i32;
            }
            for r in 0..v {
                let row = g * v + r;
                if row >= a.rows {
                    break;
                }
                for e in a.row_ptr[row] as usize..a.row_ptr[row + 1] as usize {
                    let at = first + c.binary_search(&a.col_ind[e]).unwrap();
                    vec_val[(at / STRIDE) * STRIDE * v + r * STRIDE + at % STRIDE] = a.values[e];
                }
            }
        }
        SrBcrsHost { rows: a.rows, cols: a.cols, vector_length: v, vec_ptr, vec_col, vec_val }
    }

    /// A's entry (row, vector) as stored: vector `at`'s value in row `r` of its group.
    pub fn value(&self, at: usize, r: usize) -> i8 {
        let v = self.vector_length;
        self.vec_val[(at / STRIDE) * STRIDE * v + r * STRIDE + at % STRIDE]
    }
}

/// A dense int8 operand: element (i, j) at `i * row_stride + j * col_stride`.
pub struct DenseI8<'a> {
    pub values: &'a [i8],
    pub row_stride: usize,
    pub col_stride: usize,
}

impl DenseI8<'_> {
    pub fn at(&self, i: usize, j: usize) -> i64 {
        self.values[i * self.row_stride + j * self.col_stride] as i64
    }
}

/// A * B (rows x n) in exact i64, row-major, from CSR.
pub fn csr_times_dense(a: &CsrI8, b: &DenseI8, n: usize) -> Vec<i64> {
    let mut out = vec![0i64; a.rows * n];
    for i in 0..a.rows {
        for e in a.row_ptr[i] as usize..a.row_ptr[i + 1] as usize {
            let (k, x) = (a.col_ind[e] as usize, a.values[e] as i64);
            for j in 0..n {
                out[i * n + j] += x * b.at(k, j);
            }
        }
    }
    out
}

/// A * B (rows x n) in exact i64, row-major, from the SR-BCRS layout (padding included).
pub fn srbcrs_times_dense(a: &SrBcrsHost, b: &DenseI8, n: usize) -> Vec<i64> {
    let v = a.vector_length;
    let mut out = vec![0i64; a.rows * n];
    for g in 0..a.vec_ptr.len() - 1 {
        for at in a.vec_ptr[g] as usize..a.vec_ptr[g + 1] as usize {
            let k = a.vec_col[at] as usize;
            for r in (0..v).filter(|r| g * v + r < a.rows) {
                let x = a.value(at, r) as i64;
                for j in 0..n {
                    out[(g * v + r) * n + j] += x * b.at(k, j);
                }
            }
        }
    }
    out
}

/// The int32 epilogue: alpha * acc + beta * old, wrapping as two's complement int32.
pub fn epilogue_i32(alpha: i32, acc: i64, beta: i32, old: i32) -> i32 {
    let acc = acc as i32;
    let v = alpha.wrapping_mul(acc);
    if beta == 0 {
        v
    } else {
        v.wrapping_add(beta.wrapping_mul(old))
    }
}

/// The FP32 epilogue: alpha * acc + beta * old in FP32, each operation rounded once.
pub fn epilogue_f32(alpha: f32, acc: i64, beta: f32, old: f32) -> f32 {
    let v = alpha * acc as i32 as f32;
    if beta == 0.0 {
        v
    } else {
        v + beta * old
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::rng::SplitMix64;

    /// A random CSR of int8 values in [-8, 8] without zeros, `density` per mille of the entries.
    fn random(rng: &mut SplitMix64, rows: usize, cols: usize, density: u64) -> (Vec<i64>, Vec<i64>, Vec<i8>) {
        let (mut ptr, mut ind, mut val) = (vec![0i64], vec![], vec![]);
        for _ in 0..rows {
            for c in 0..cols {
                if rng.next_u64() % 1000 < density {
                    ind.push(c as i64);
                    val.push(((rng.next_u64() % 16) as i8 - 8) | 1);
                }
            }
            ptr.push(ind.len() as i64);
        }
        (ptr, ind, val)
    }

    #[test]
    fn layout_of_a_small_matrix() {
        // Rows 0 and 1 form a vector row (V = 2); row 2 is a partial one.
        let (ptr, ind, val) = (vec![0i64, 2, 3, 4], vec![1i64, 5, 5, 0], vec![3i8, -4, 7, -2]);
        let a = CsrI8 { rows: 3, cols: 6, row_ptr: &ptr, col_ind: &ind, values: &val };
        let s = SrBcrsHost::from_csr(&a, 2);
        assert_eq!(s.vec_ptr, vec![0, 32, 64]);
        assert_eq!(&s.vec_col[..3], &[1, 5, 5]);
        assert_eq!(s.vec_col[32], 0);
        assert!(s.vec_col[33..].iter().all(|&c| c == 0));
        assert_eq!((s.value(0, 0), s.value(0, 1), s.value(1, 0), s.value(1, 1)), (3, 0, -4, 7));
        assert_eq!((s.value(32, 0), s.value(32, 1)), (-2, 0));
        assert_eq!(s.vec_val.iter().filter(|&&x| x != 0).count(), 4);
    }

    #[test]
    fn the_layout_multiplies_as_csr_does() {
        let mut rng = SplitMix64::new(7);
        for (rows, cols, n, density) in [(1, 1, 1, 1000), (13, 70, 5, 300), (37, 200, 9, 40), (64, 33, 3, 500)] {
            let (ptr, ind, val) = random(&mut rng, rows, cols, density);
            let a = CsrI8 { rows, cols, row_ptr: &ptr, col_ind: &ind, values: &val };
            let b: Vec<i8> = (0..cols * n).map(|_| (rng.next_u64() % 255) as u8 as i8).collect();
            let dense = DenseI8 { values: &b, row_stride: 1, col_stride: cols };
            let want = csr_times_dense(&a, &dense, n);
            for v in [2, 4, 8] {
                let s = SrBcrsHost::from_csr(&a, v);
                assert!(s.vec_ptr.iter().all(|p| *p as usize % STRIDE == 0));
                assert_eq!(srbcrs_times_dense(&s, &dense, n), want, "{rows}x{cols} V = {v}");
            }
        }
    }

    #[test]
    fn epilogues_wrap_and_round_like_the_kernel() {
        assert_eq!(epilogue_i32(2, i32::MAX as i64, 0, 123), -2);
        assert_eq!(epilogue_i32(3, -5, -1, 7), -22);
        assert_eq!(epilogue_f32(0.5, 7, 2.0, -1.0), 1.5);
        assert_eq!(epilogue_f32(1.0, 3, 0.0, f32::NAN), 3.0);
    }
}
