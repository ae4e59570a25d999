//! An SR-BCRS object given directly (issue 60): the caller's device arrays in the object's layout
//! (docs/design/srbcrs.md, "Layout"), read back, checked on the host and copied into a new
//! object, as `oxsparseSrBcrsGetInfo` would describe it.

use super::srbcrs::{stride_of, value_bits, SrBcrs};
use crate::context::Handle;
use crate::error::{invalid, unsupported, Result};
use crate::kernels::vector_ops::{copy_to_device_and_wait, copy_to_host_and_wait};
use crate::reference::srbcrs::decode;
use crate::types::DataType;

/// The caller's arrays: device addresses of `vectorOffsets` (int32, vector rows + 1),
/// `vectorColumns` (int32, one per vector) and `values` (`vectors x vectorLength` of the type).
pub struct SrBcrsArrays {
    pub offsets: u64,
    pub columns: u64,
    pub values: u64,
}

fn words(bytes: &[u8]) -> Vec<i32> {
    bytes.chunks_exact(4).map(|w| i32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect()
}

impl SrBcrs {
    /// Makes an object of `rows x cols` from arrays already in its layout. Checked, in this order:
    /// the sizes, the vector length, the value type, the vector count (a multiple of the stride),
    /// the arrays' presence and alignment; then their contents: offsets from 0 to `vectors` in
    /// steps of whole stride blocks; each vector row's columns in `[0, cols)`, strictly increasing
    /// and then repeating the last one (padding, whose values must be zero). A refused call makes
    /// nothing.
    pub fn from_arrays(
        h: &Handle,
        (rows, cols): (i64, i64),
        vector_length: i32,
        value_type: DataType,
        vectors: i64,
        arrays: &SrBcrsArrays,
    ) -> Result<SrBcrs> {
        if rows < 0 || cols < 0 || vectors < 0 {
            invalid!("rows ({rows}), cols ({cols}) and vectors ({vectors}) must be >= 0");
        }
        if cols > i32::MAX as i64 {
            unsupported!("an SR-BCRS object stores 32-bit columns: {cols} columns");
        }
        if ![2, 4, 8].contains(&vector_length) {
            invalid!("vectorLength ({vector_length}) must be 2, 4 or 8");
        }
        let Some(bits) = value_bits(value_type) else {
            unsupported!("an SR-BCRS object holds int4, int8 or int16 values (CUDA_R_4I, CUDA_R_8I, CUDA_R_16I), not {value_type:?}")
        };
        let (v, stride) = (vector_length as i64, stride_of(bits));
        if vectors % stride != 0 || vectors > i32::MAX as i64 {
            invalid!("vectors ({vectors}) must be a multiple of the stride ({stride}) below 2^31");
        }
        let vector_rows = crate::ops::ceil_div(rows, v);
        if arrays.offsets == 0 || (vectors > 0 && (arrays.columns == 0 || arrays.values == 0)) {
            invalid!("vectorOffsets, vectorColumns and values must not be NULL");
        }
        if arrays.offsets % 4 != 0 || arrays.columns % 4 != 0 || (bits == 16 && arrays.values % 2 != 0) {
            invalid!("vectorOffsets and vectorColumns must be 4-byte aligned, int16 values 2-byte aligned");
        }
        if crate::kernels::capturing(h)? {
            unsupported!("an SR-BCRS object is made outside stream capture (its arrays are read back)");
        }

        let mut bytes = vec![0u8; 4 * (vector_rows as usize + 1)];
        copy_to_host_and_wait(h, arrays.offsets, &mut bytes)?;
        let vec_ptr = words(&bytes);
        if vec_ptr[0] != 0 || vec_ptr[vector_rows as usize] as i64 != vectors {
            invalid!("vectorOffsets must run from 0 to vectors ({vectors}), not {} to {}", vec_ptr[0], vec_ptr[vector_rows as usize]);
        }
        if let Some(g) = vec_ptr.windows(2).position(|w| w[1] < w[0] || (w[1] - w[0]) as i64 % stride != 0) {
            invalid!("vectorOffsets must grow by whole stride blocks of {stride} vectors (vector row {g})");
        }
        let mut bytes = vec![0u8; 4 * vectors as usize];
        copy_to_host_and_wait(h, arrays.columns, &mut bytes)?;
        let vec_col = words(&bytes);
        let mut values = vec![0u8; (vectors * v * bits as i64 / 8) as usize];
        copy_to_host_and_wait(h, arrays.values, &mut values)?;

        // Each vector row: real columns strictly increasing, then padding repeating the last with
        // zero values (vector p's row r at (p / S) S V + r S + p % S).
        let mut nnz = 0i64;
        for g in 0..vector_rows as usize {
            let (start, end) = (vec_ptr[g] as usize, vec_ptr[g + 1] as usize);
            let mut padding = false;
            for p in start..end {
                let c = vec_col[p];
                if c < 0 || c as i64 >= cols {
                    invalid!("vectorColumns[{p}] ({c}) lies outside [0, {cols})");
                }
                let repeat = p > start && c == vec_col[p - 1];
                if p > start && (c < vec_col[p - 1] || (padding && !repeat)) {
                    invalid!("vector row {g}'s columns must increase, then repeat the last as padding (vectorColumns[{p}] = {c})");
                }
                padding |= repeat;
                if padding {
                    let (s, v) = (stride as usize, v as usize);
                    let slots = (0..v).map(|r| (p / s) * s * v + r * s + p % s);
                    if let Some(e) = slots.into_iter().find(|&e| decode(&values, e, bits as usize) != 0) {
                        invalid!("padding vector {p} (a repeated column) must hold zeros (values[{e}])");
                    }
                } else {
                    // The vector's rows inside the matrix (a partial last vector row has fewer).
                    nnz += v.min(rows - g as i64 * v);
                }
            }
        }

        let object = Self::allocate(h, (rows, cols, nnz), vector_length, value_type, &vec_ptr)?;
        if vectors > 0 {
            let bytes: Vec<u8> = vec_col.iter().flat_map(|x| x.to_le_bytes()).collect();
            copy_to_device_and_wait(h, object.vec_col, &bytes)?;
            copy_to_device_and_wait(h, object.vec_val, &values)?;
        }
        Ok(object)
    }
}
