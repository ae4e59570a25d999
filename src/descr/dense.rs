//! Dense vector and dense matrix descriptors.
//!
//! A descriptor only records where the user's device data lives and how to read it; it never
//! dereferences the pointers, so creating one needs no GPU. Device addresses are kept as `u64`
//! (a `CUdeviceptr`), since they are opaque numbers to the host.

use crate::error::{invalid, Result};
use crate::types::{DataType, Order};

use super::check_aligned;

/// `oxsparseDnVecDescr`: `size` contiguous elements of `value_type`.
#[derive(Clone, Debug, PartialEq)]
pub struct DnVec {
    pub size: i64,
    pub values: u64,
    pub value_type: DataType,
}

impl DnVec {
    pub fn new(size: i64, values: u64, value_type: DataType) -> Result<Self> {
        if size < 0 {
            invalid!("size ({size}) must be >= 0");
        }
        check_aligned("values", values, value_type.size_bytes())?;
        Ok(DnVec { size, values, value_type })
    }

    pub fn set_values(&mut self, values: u64) -> Result<()> {
        check_aligned("values", values, self.value_type.size_bytes())?;
        self.values = values;
        Ok(())
    }
}

/// `oxsparseDnMatDescr`: a `rows x cols` matrix with leading dimension `ld`, optionally a strided
/// batch of `batch_count` such matrices `batch_stride` elements apart.
#[derive(Clone, Debug, PartialEq)]
pub struct DnMat {
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
    pub values: u64,
    pub value_type: DataType,
    pub order: Order,
    pub batch_count: i32,
    pub batch_stride: i64,
}

impl DnMat {
    pub fn new(rows: i64, cols: i64, ld: i64, values: u64, value_type: DataType, order: Order) -> Result<Self> {
        if rows < 0 || cols < 0 {
            invalid!("rows ({rows}) and cols ({cols}) must be >= 0");
        }
        let min_ld = match order {
            Order::OXSPARSE_ORDER_COL => rows,
            Order::OXSPARSE_ORDER_ROW => cols,
        };
        if ld < min_ld.max(1) && !(rows == 0 || cols == 0) {
            invalid!("ld ({ld}) must be >= {} for {order:?} order", min_ld.max(1));
        }
        if ld < 0 {
            invalid!("ld ({ld}) must be >= 0");
        }
        if rows.checked_mul(cols).is_none() || ld.checked_mul(rows.max(cols)).is_none() {
            invalid!("matrix size {rows} x {cols} (ld {ld}) overflows int64");
        }
        check_aligned("values", values, value_type.size_bytes())?;
        Ok(DnMat { rows, cols, ld, values, value_type, order, batch_count: 1, batch_stride: 0 })
    }

    /// Number of elements one matrix spans in memory (`ld` times the number of major-order lines).
    pub fn span(&self) -> i64 {
        match self.order {
            Order::OXSPARSE_ORDER_COL => self.ld * self.cols,
            Order::OXSPARSE_ORDER_ROW => self.ld * self.rows,
        }
    }

    pub fn set_strided_batch(&mut self, batch_count: i32, batch_stride: i64) -> Result<()> {
        if batch_count <= 0 {
            invalid!("batchCount ({batch_count}) must be > 0");
        }
        if batch_count > 1 && batch_stride < self.span() {
            invalid!("batchStride ({batch_stride}) must be >= ld * major dimension ({})", self.span());
        }
        if batch_stride < 0 {
            invalid!("batchStride ({batch_stride}) must be >= 0");
        }
        self.batch_count = batch_count;
        self.batch_stride = batch_stride;
        Ok(())
    }

    pub fn set_values(&mut self, values: u64) -> Result<()> {
        check_aligned("values", values, self.value_type.size_bytes())?;
        self.values = values;
        Ok(())
    }

    /// Element offset of entry (r, c) inside one matrix.
    pub fn offset_of(&self, r: i64, c: i64) -> i64 {
        match self.order {
            Order::OXSPARSE_ORDER_COL => c * self.ld + r,
            Order::OXSPARSE_ORDER_ROW => r * self.ld + c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType::*;
    use crate::types::Order::*;

    #[test]
    fn dnmat_checks_leading_dimension_per_order() {
        assert!(DnMat::new(5, 3, 5, 0x1000, CUDA_R_32F, OXSPARSE_ORDER_COL).is_ok());
        assert!(DnMat::new(5, 3, 4, 0x1000, CUDA_R_32F, OXSPARSE_ORDER_COL).is_err());
        assert!(DnMat::new(5, 3, 3, 0x1000, CUDA_R_32F, OXSPARSE_ORDER_ROW).is_ok());
        assert!(DnMat::new(5, 3, 2, 0x1000, CUDA_R_32F, OXSPARSE_ORDER_ROW).is_err());
        assert!(DnMat::new(0, 0, 0, 0, CUDA_R_32F, OXSPARSE_ORDER_ROW).is_ok(), "empty matrix");
        assert!(DnMat::new(-1, 3, 3, 0x1000, CUDA_R_32F, OXSPARSE_ORDER_ROW).is_err());
        assert!(DnMat::new(2, 2, 2, 0x1002, CUDA_R_32F, OXSPARSE_ORDER_ROW).is_err(), "misaligned");
    }

    #[test]
    fn dnmat_batch_stride_must_not_overlap() {
        let mut m = DnMat::new(4, 3, 4, 0x1000, CUDA_R_64F, OXSPARSE_ORDER_COL).unwrap();
        assert!(m.set_strided_batch(2, 11).is_err());
        assert!(m.set_strided_batch(2, 12).is_ok());
        assert!(m.set_strided_batch(0, 12).is_err());
        assert_eq!((m.batch_count, m.batch_stride), (2, 12));
        assert_eq!(m.offset_of(1, 2), 9);
    }

    #[test]
    fn dnvec_rejects_negative_size_and_misalignment() {
        assert!(DnVec::new(-1, 0x1000, CUDA_R_32F).is_err());
        assert!(DnVec::new(3, 0x1008, CUDA_C_64F).is_err());
        assert!(DnVec::new(3, 0x1010, CUDA_C_64F).is_ok());
        assert!(DnVec::new(0, 0, CUDA_R_32F).is_ok());
    }
}
