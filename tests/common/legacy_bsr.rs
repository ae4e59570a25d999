//! The legacy BSR tests' shared pieces (tests/gpu_legacy_bsr.rs, tests/gpu_legacy_bsrxmv.rs): a
//! legacy matrix descriptor, a random BSR matrix and its device copy, poisoned outputs read back
//! with their slack checked, and the tolerance of a sum of products.

use super::compare::Tolerance;
use super::values::random;
use super::{DevBuf, Rng};
use oxsparse::ffi::mat_descr::*;
use oxsparse::ffi::oxsparseMatDescr_t;
use oxsparse::reference::legacy_bsr::LegacyBsr;
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, DataType::*};
use std::ptr::null_mut;

pub const TYPES: [DataType; 4] = [CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F];

/// Elements of poison past every output, which no call may write.
pub const SLACK: usize = 16;

/// A legacy matrix descriptor of index base `base`, destroyed on drop.
pub struct Descr(pub oxsparseMatDescr_t);

impl Descr {
    pub fn new(base: i32) -> Descr {
        let mut d = null_mut();
        assert_eq!(unsafe { oxsparseCreateMatDescr(&mut d) }, 0);
        assert_eq!(unsafe { oxsparseSetMatIndexBase(d, base) }, 0);
        Descr(d)
    }
}

impl Drop for Descr {
    fn drop(&mut self) {
        unsafe { oxsparseDestroyMatDescr(self.0) };
    }
}

/// A random BSR matrix: `mb x nb` blocks of `block`, about `per_row` distinct blocks a block row
/// (0 for none), values random in `t`.
pub struct Matrix {
    pub mb: usize,
    pub block: usize,
    pub row_ptr: Vec<i32>,
    pub col_ind: Vec<i32>,
    pub values: Vec<Value>,
}

impl Matrix {
    pub fn random(rng: &mut Rng, t: DataType, (mb, nb, block): (usize, usize, usize), per_row: usize, base: i32) -> Matrix {
        let (mut row_ptr, mut col_ind) = (vec![base], Vec::new());
        for _ in 0..mb {
            let count = if nb == 0 || per_row == 0 { 0 } else { rng.below(2 * per_row as u64 + 1).min(nb as u64) as usize };
            let mut cols = rng.distinct(nb as u64, count);
            cols.sort_unstable();
            col_ind.extend(cols.iter().map(|&c| c as i32 + base));
            row_ptr.push(col_ind.len() as i32 + base);
        }
        let values = random(rng, t, col_ind.len() * block * block);
        Matrix { mb, block, row_ptr, col_ind, values }
    }

    pub fn legacy(&self, column_blocks: bool, base: i32) -> LegacyBsr<'_> {
        LegacyBsr {
            mb: self.mb,
            block: self.block,
            column_blocks,
            base: base as i64,
            row_ptr: &self.row_ptr,
            col_ind: &self.col_ind,
            values: &self.values,
        }
    }
}

/// The device copies of a matrix's arrays.
pub struct DevMatrix {
    pub row_ptr: DevBuf,
    pub col_ind: DevBuf,
    pub values: DevBuf,
}

impl DevMatrix {
    pub fn upload(a: &Matrix, t: DataType) -> DevMatrix {
        let encoded = super::bytes::encode(t, &a.values);
        DevMatrix {
            row_ptr: DevBuf::from_slice(&a.row_ptr),
            col_ind: DevBuf::from_slice(if a.col_ind.is_empty() { &[0i32][..] } else { &a.col_ind }),
            values: DevBuf::from_slice(if encoded.is_empty() { &[0u8; 16][..] } else { &encoded }),
        }
    }
}

/// `len` values of `t` followed by SLACK poisoned ones: `init` (encoded) or, if None, all poison.
pub fn output(t: DataType, len: usize, init: Option<&[Value]>) -> DevBuf {
    let size = t.size_bytes() as usize;
    let buf = DevBuf::poisoned((len + SLACK) * size, 0xFF);
    if let Some(v) = init {
        super::capi::write(&buf, &super::bytes::encode(t, v));
    }
    buf
}

/// The first `len` values of `buf`, after checking its slack is still poison.
pub fn read(buf: &DevBuf, t: DataType, len: usize) -> Result<Vec<Value>, String> {
    let size = t.size_bytes() as usize;
    let bytes: Vec<u8> = buf.to_vec();
    if bytes[len * size..].iter().any(|&b| b != 0xFF) {
        return Err(format!("wrote past the end of its {len} values"));
    }
    Ok(bytes[..len * size].chunks(size).map(|e| super::bytes::decode_element(t, e)).collect())
}

/// |v| summed over components' magnitudes, for the error scale.
pub fn abs1(v: Value) -> Value {
    (v.0.abs() + v.1.abs(), 0.0)
}

/// The relative tolerance of `t` for sums of `terms` products.
pub fn tolerance(t: DataType, terms: usize) -> Tolerance {
    let eps = match t {
        CUDA_R_32F | CUDA_C_32F => 2f64.powi(-24),
        _ => 2f64.powi(-53),
    };
    Tolerance::new(4.0 * eps * (terms as f64 + 2.0), t)
}
