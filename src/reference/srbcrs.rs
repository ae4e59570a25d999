//! SR-BCRS references (docs/design/srbcrs.md): the layout built on the CPU from CSR, the twin of
//! `oxsparseCreateSrBcrs`'s GPU build (compared array for array), for int4, int8 and int16
//! values, and integer SpMM products in exact i64, from CSR directly and from the layout, with the
//! API's int32 and FP32 (row-scaled) epilogues.

/// Vectors per stride block for values of `bits` bits: the k depth of the mma they feed (64 for
/// int4's m16n8k64; 32 for int8's m16n8k32, which int16 is split into bytes for).
pub fn stride(bits: usize) -> usize {
    if bits == 4 {
        64
    } else {
        32
    }
}

/// `values` (each within `bits` signed bits) as stored: int4 two to a byte, the lower-indexed in
/// the low nibble; int8 bytes; int16 little-endian.
pub fn encode(values: &[i16], bits: usize) -> Vec<u8> {
    match bits {
        4 => values.chunks(2).map(|p| (p[0] as u8 & 0xF) | (p.get(1).map_or(0, |&x| x as u8 & 0xF) << 4)).collect(),
        8 => values.iter().map(|&x| x as u8).collect(),
        _ => values.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

/// Element `i` of `bytes` stored as `encode` does.
pub fn decode(bytes: &[u8], i: usize, bits: usize) -> i64 {
    match bits {
        4 => (((bytes[i / 2] >> (4 * (i % 2))) as i8) << 4 >> 4) as i64,
        8 => bytes[i] as i8 as i64,
        _ => i16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]) as i64,
    }
}

/// An SR-BCRS matrix on the host: the arrays `oxsparseSrBcrsGetInfo` points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrBcrsHost {
    pub rows: usize,
    pub cols: usize,
    pub vector_length: usize,
    /// 4, 8 or 16.
    pub value_bits: usize,
    /// Per vector row plus one: where its vectors start (multiples of the stride).
    pub vec_ptr: Vec<i32>,
    /// Per vector: its column (padding repeats the vector row's last column, 0 when it has none).
    pub vec_col: Vec<i32>,
    /// `vector_length` values per vector, as `encode` stores them: each stride block a
    /// `vector_length x stride` row-major tile.
    pub vec_val: Vec<u8>,
}

/// A CSR matrix of integer values (0-based, columns strictly increasing within each row), each
/// within the object's value bits.
pub struct CsrInt<'a> {
    pub rows: usize,
    pub cols: usize,
    pub row_ptr: &'a [i64],
    pub col_ind: &'a [i64],
    pub values: &'a [i16],
}

impl SrBcrsHost {
    pub fn from_csr(a: &CsrInt, vector_length: usize, value_bits: usize) -> SrBcrsHost {
        let (v, stride) = (vector_length, stride(value_bits));
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
            vec_ptr.push(vec_ptr.last().unwrap() + (c.len().div_ceil(stride) * stride) as i32);
        }
        let total = *vec_ptr.last().unwrap() as usize;
        let mut vec_col = vec![0i32; total];
        let mut values = vec![0i16; total * v];
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
                    values[(at / stride) * stride * v + r * stride + at % stride] = a.values[e];
                }
            }
        }
        let vec_val = encode(&values, value_bits);
        SrBcrsHost { rows: a.rows, cols: a.cols, vector_length: v, value_bits, vec_ptr, vec_col, vec_val }
    }

    /// A's entry (row, vector) as stored: vector `at`'s value in row `r` of its group.
    pub fn value(&self, at: usize, r: usize) -> i64 {
        let (v, stride) = (self.vector_length, stride(self.value_bits));
        decode(&self.vec_val, (at / stride) * stride * v + r * stride + at % stride, self.value_bits)
    }
}

/// A dense integer operand: element (i, j) at `i * row_stride + j * col_stride`.
pub struct DenseInt<'a> {
    pub values: &'a [i16],
    pub row_stride: usize,
    pub col_stride: usize,
}

impl DenseInt<'_> {
    pub fn at(&self, i: usize, j: usize) -> i64 {
        self.values[i * self.row_stride + j * self.col_stride] as i64
    }
}

/// A * B (rows x n) in exact i64, row-major, from CSR.
pub fn csr_times_dense(a: &CsrInt, b: &DenseInt, n: usize) -> Vec<i64> {
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
pub fn srbcrs_times_dense(a: &SrBcrsHost, b: &DenseInt, n: usize) -> Vec<i64> {
    let v = a.vector_length;
    let mut out = vec![0i64; a.rows * n];
    for g in 0..a.vec_ptr.len() - 1 {
        for at in a.vec_ptr[g] as usize..a.vec_ptr[g + 1] as usize {
            let k = a.vec_col[at] as usize;
            for r in (0..v).filter(|r| g * v + r < a.rows) {
                let x = a.value(at, r);
                for j in 0..n {
                    out[(g * v + r) * n + j] += x * b.at(k, j);
                }
            }
        }
    }
    out
}

/// The int32 epilogue: alpha * acc + beta * old, wrapping as two's complement int32 (the exact
/// product taken modulo 2^32).
pub fn epilogue_i32(alpha: i32, acc: i64, beta: i32, old: i32) -> i32 {
    let acc = acc as i32;
    let v = alpha.wrapping_mul(acc);
    if beta == 0 {
        v
    } else {
        v.wrapping_add(beta.wrapping_mul(old))
    }
}

/// The FP32 epilogue: (alpha * scale) * acc + beta * old in FP32, each operation rounded once;
/// `scale` is the row's scale (1 without one), acc the product modulo 2^32 as int32.
pub fn epilogue_f32(alpha: f32, scale: f32, acc: i64, beta: f32, old: f32) -> f32 {
    let v = (alpha * scale) * acc as i32 as f32;
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

    /// A random CSR of nonzero values of `bits` bits (the full range), `density` per mille.
    fn random(rng: &mut SplitMix64, rows: usize, cols: usize, density: u64, bits: usize) -> (Vec<i64>, Vec<i64>, Vec<i16>) {
        let (mut ptr, mut ind, mut val) = (vec![0i64], vec![], vec![]);
        for _ in 0..rows {
            for c in 0..cols {
                if rng.next_u64() % 1000 < density {
                    ind.push(c as i64);
                    let x = ((rng.next_u64() as i64) << (64 - bits) >> (64 - bits)) as i16;
                    val.push(if x == 0 { 1 } else { x });
                }
            }
            ptr.push(ind.len() as i64);
        }
        (ptr, ind, val)
    }

    #[test]
    fn layout_of_a_small_matrix() {
        // Rows 0 and 1 form a vector row (V = 2); row 2 is a partial one.
        let (ptr, ind, val) = (vec![0i64, 2, 3, 4], vec![1i64, 5, 5, 0], vec![3i16, -4, 7, -2]);
        let a = CsrInt { rows: 3, cols: 6, row_ptr: &ptr, col_ind: &ind, values: &val };
        for bits in [4, 8, 16] {
            let s = SrBcrsHost::from_csr(&a, 2, bits);
            let st = stride(bits) as i32;
            assert_eq!(s.vec_ptr, vec![0, st, 2 * st]);
            assert_eq!(&s.vec_col[..3], &[1, 5, 5]);
            assert_eq!(s.vec_col[st as usize], 0);
            assert!(s.vec_col[st as usize + 1..].iter().all(|&c| c == 0));
            assert_eq!((s.value(0, 0), s.value(0, 1), s.value(1, 0), s.value(1, 1)), (3, 0, -4, 7));
            assert_eq!((s.value(st as usize, 0), s.value(st as usize, 1)), (-2, 0));
            assert_eq!(s.vec_val.len(), 2 * st as usize * 2 * bits / 8);
        }
        // int4: row 0's values at vectors 0 and 1 share byte 0, low nibble first.
        assert_eq!(SrBcrsHost::from_csr(&a, 2, 4).vec_val[0], 0xC3);
    }

    #[test]
    fn encode_and_decode_are_inverse() {
        let values: Vec<i16> = vec![-8, 7, 0, -1, 5, -3, 1];
        for bits in [4, 8, 16] {
            let bytes = encode(&values, bits);
            assert_eq!(
                (0..values.len()).map(|i| decode(&bytes, i, bits)).collect::<Vec<_>>(),
                values.iter().map(|&x| x as i64).collect::<Vec<_>>()
            );
        }
        assert_eq!(encode(&[-32768, 32767], 16), vec![0x00, 0x80, 0xFF, 0x7F]);
        assert_eq!(encode(&[1, -2, 3], 4), vec![0xE1, 0x03]);
    }

    #[test]
    fn the_layout_multiplies_as_csr_does() {
        let mut rng = SplitMix64::new(7);
        for bits in [4, 8, 16] {
            for (rows, cols, n, density) in [(1, 1, 1, 1000), (13, 70, 5, 300), (37, 200, 9, 40), (64, 33, 3, 500)] {
                let (ptr, ind, val) = random(&mut rng, rows, cols, density, bits);
                let a = CsrInt { rows, cols, row_ptr: &ptr, col_ind: &ind, values: &val };
                let b: Vec<i16> = (0..cols * n).map(|_| rng.next_u64() as i16).collect();
                let dense = DenseInt { values: &b, row_stride: 1, col_stride: cols };
                let want = csr_times_dense(&a, &dense, n);
                for v in [2, 4, 8] {
                    let s = SrBcrsHost::from_csr(&a, v, bits);
                    assert!(s.vec_ptr.iter().all(|p| *p as usize % stride(bits) == 0));
                    assert_eq!(srbcrs_times_dense(&s, &dense, n), want, "{rows}x{cols} V = {v}, {bits} bits");
                }
            }
        }
    }

    #[test]
    fn epilogues_wrap_and_round_like_the_kernel() {
        assert_eq!(epilogue_i32(2, i32::MAX as i64, 0, 123), -2);
        assert_eq!(epilogue_i32(3, -5, -1, 7), -22);
        assert_eq!(epilogue_i32(1, (1i64 << 32) + 5, 0, 0), 5);
        assert_eq!(epilogue_f32(0.5, 1.0, 7, 2.0, -1.0), 1.5);
        assert_eq!(epilogue_f32(1.0, 1.0, 3, 0.0, f32::NAN), 3.0);
        assert_eq!(epilogue_f32(2.0, 0.25, 6, 0.0, 0.0), 3.0);
    }
}
