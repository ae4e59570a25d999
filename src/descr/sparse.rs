//! Sparse vector and sparse matrix descriptors, one struct for every format.
//!
//! cuSPARSE has a single `SpMatDescr` for CSR, CSC, COO, BSR, Blocked-ELL and Sliced-ELL, so do we:
//! the three arrays every format has (offsets or row indices, column or row indices, values) live in
//! `arrays`, and what only some formats have lives in `FormatInfo`.

use crate::error::{invalid, Result};
use crate::types::{DataType, DiagType, FillMode, Format, IndexBase, IndexType, Order};

use super::check_aligned;

/// `oxsparseSpVecDescr`: `nnz` (index, value) pairs of a vector of length `size`.
#[derive(Clone, Debug, PartialEq)]
pub struct SpVec {
    pub size: i64,
    pub nnz: i64,
    pub indices: u64,
    pub values: u64,
    pub index_type: IndexType,
    pub index_base: IndexBase,
    pub value_type: DataType,
}

impl SpVec {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        size: i64,
        nnz: i64,
        indices: u64,
        values: u64,
        index_type: IndexType,
        index_base: IndexBase,
        value_type: DataType,
    ) -> Result<Self> {
        if size < 0 || nnz < 0 {
            invalid!("size ({size}) and nnz ({nnz}) must be >= 0");
        }
        if nnz > size {
            invalid!("nnz ({nnz}) must be <= size ({size})");
        }
        if nnz > 0 && (indices == 0 || values == 0) {
            invalid!("indices and values must be non-NULL when nnz > 0");
        }
        check_index_range("size", size, index_type, index_base)?;
        check_aligned("indices", indices, index_type.size_bytes())?;
        check_aligned("values", values, value_type.size_bytes())?;
        Ok(SpVec { size, nnz, indices, values, index_type, index_base, value_type })
    }
}

/// The three device arrays of a sparse matrix. Their meaning depends on the format:
///
/// | format      | `offsets`                | `indices`             | `values`                 |
/// |-------------|--------------------------|-----------------------|--------------------------|
/// | CSR         | row offsets (rows+1)     | column indices (nnz)  | nnz                      |
/// | CSC         | column offsets (cols+1)  | row indices (nnz)     | nnz                      |
/// | COO         | row indices (nnz)        | column indices (nnz)  | nnz                      |
/// | BSR         | block-row offsets        | block-column indices  | bnnz * block area        |
/// | Blocked-ELL | (unused, 0)              | block-column indices  | rows x ellCols row-major |
/// | Sliced-ELL  | slice offsets            | column indices        | sellValuesSize           |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SpArrays {
    pub offsets: u64,
    pub indices: u64,
    pub values: u64,
}

/// What only some formats carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatInfo {
    Csr,
    Csc,
    Coo,
    /// `brows x bcols` blocks of `row_block x col_block`, `bnnz` stored blocks laid out in `block_order`.
    Bsr {
        brows: i64,
        bcols: i64,
        bnnz: i64,
        row_block: i64,
        col_block: i64,
        block_order: Order,
    },
    /// Square blocks of `block_size`; each block row stores `ell_cols / block_size` blocks.
    BlockedEll {
        block_size: i64,
        ell_cols: i64,
    },
    /// Slices of `slice_size` rows stored column by column; `values_size` slots including padding.
    SlicedEll {
        slice_size: i64,
        values_size: i64,
    },
}

/// Strided-batch layout of a sparse matrix (strides in elements; 0 shares the array across batches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpBatch {
    pub count: i32,
    pub offsets_stride: i64,
    pub indices_stride: i64,
    pub values_stride: i64,
}

/// `oxsparseSpMatDescr`.
#[derive(Clone, Debug, PartialEq)]
pub struct SpMat {
    pub format: FormatInfo,
    /// Rows and columns in elements (for BSR: block rows times the row block size).
    pub rows: i64,
    pub cols: i64,
    /// Stored entries (for BSR: stored blocks times the block area; for Blocked-ELL: rows x ellCols).
    pub nnz: i64,
    pub arrays: SpArrays,
    pub offset_type: IndexType,
    pub index_type: IndexType,
    pub index_base: IndexBase,
    pub value_type: DataType,
    pub batch: SpBatch,
    pub fill_mode: FillMode,
    pub diag_type: DiagType,
}

impl SpMat {
    /// The C enum for this matrix's format.
    pub fn format_enum(&self) -> Format {
        match self.format {
            FormatInfo::Csr => Format::OXSPARSE_FORMAT_CSR,
            FormatInfo::Csc => Format::OXSPARSE_FORMAT_CSC,
            FormatInfo::Coo => Format::OXSPARSE_FORMAT_COO,
            FormatInfo::Bsr { .. } => Format::OXSPARSE_FORMAT_BSR,
            FormatInfo::BlockedEll { .. } => Format::OXSPARSE_FORMAT_BLOCKED_ELL,
            FormatInfo::SlicedEll { .. } => Format::OXSPARSE_FORMAT_SLICED_ELLPACK,
        }
    }

    fn base(
        format: FormatInfo,
        (rows, cols, nnz): (i64, i64, i64),
        arrays: SpArrays,
        (offset_type, index_type): (IndexType, IndexType),
        index_base: IndexBase,
        value_type: DataType,
    ) -> Result<Self> {
        check_aligned("offsets", arrays.offsets, offset_type.size_bytes())?;
        check_aligned("indices", arrays.indices, index_type.size_bytes())?;
        check_aligned("values", arrays.values, value_type.size_bytes())?;
        let extents = IndexExtents::of(&format, rows, cols, nnz);
        check_index_range(extents.offsets.0, extents.offsets.1, offset_type, index_base)?;
        check_index_range(extents.indices.0, extents.indices.1, index_type, index_base)?;
        Ok(SpMat {
            format,
            rows,
            cols,
            nnz,
            arrays,
            offset_type,
            index_type,
            index_base,
            value_type,
            batch: SpBatch { count: 1, offsets_stride: 0, indices_stride: 0, values_stride: 0 },
            fill_mode: FillMode::OXSPARSE_FILL_MODE_LOWER,
            diag_type: DiagType::OXSPARSE_DIAG_TYPE_NON_UNIT,
        })
    }

    /// CSR (`compressed_rows == true`) or CSC: `major + 1` offsets, `nnz` minor indices and values.
    #[allow(clippy::too_many_arguments)]
    pub fn compressed(
        csc: bool,
        rows: i64,
        cols: i64,
        nnz: i64,
        arrays: SpArrays,
        offset_type: IndexType,
        index_type: IndexType,
        index_base: IndexBase,
        value_type: DataType,
    ) -> Result<Self> {
        check_sizes(rows, cols, nnz)?;
        let (major, name) = if csc { (cols, "cscColOffsets") } else { (rows, "csrRowOffsets") };
        if arrays.offsets == 0 && major > 0 {
            invalid!("{name} must be non-NULL when the matrix has {} > 0", if csc { "cols" } else { "rows" });
        }
        let format = if csc { FormatInfo::Csc } else { FormatInfo::Csr };
        Self::base(format, (rows, cols, nnz), arrays, (offset_type, index_type), index_base, value_type)
    }

    pub fn coo(
        rows: i64,
        cols: i64,
        nnz: i64,
        arrays: SpArrays,
        index_type: IndexType,
        index_base: IndexBase,
        value_type: DataType,
    ) -> Result<Self> {
        check_sizes(rows, cols, nnz)?;
        Self::base(FormatInfo::Coo, (rows, cols, nnz), arrays, (index_type, index_type), index_base, value_type)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn bsr(
        (brows, bcols, bnnz): (i64, i64, i64),
        (row_block, col_block): (i64, i64),
        arrays: SpArrays,
        offset_type: IndexType,
        index_type: IndexType,
        index_base: IndexBase,
        value_type: DataType,
        block_order: Order,
    ) -> Result<Self> {
        check_sizes(brows, bcols, bnnz)?;
        if row_block <= 0 || col_block <= 0 {
            invalid!("block sizes ({row_block} x {col_block}) must be > 0");
        }
        if arrays.offsets == 0 && brows > 0 {
            invalid!("bsrRowOffsets must be non-NULL when brows > 0");
        }
        let overflow = || -> Option<(i64, i64, i64)> {
            Some((brows.checked_mul(row_block)?, bcols.checked_mul(col_block)?, bnnz.checked_mul(row_block)?.checked_mul(col_block)?))
        };
        let Some((rows, cols, nnz)) = overflow() else { invalid!("BSR sizes overflow int64") };
        let format = FormatInfo::Bsr { brows, bcols, bnnz, row_block, col_block, block_order };
        Self::base(format, (rows, cols, nnz), arrays, (offset_type, index_type), index_base, value_type)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn blocked_ell(
        rows: i64,
        cols: i64,
        block_size: i64,
        ell_cols: i64,
        col_ind: u64,
        values: u64,
        index_type: IndexType,
        index_base: IndexBase,
        value_type: DataType,
    ) -> Result<Self> {
        check_sizes(rows, cols, 0)?;
        if ell_cols < 0 || block_size < 0 {
            invalid!("ellBlockSize ({block_size}) and ellCols ({ell_cols}) must be >= 0");
        }
        if ell_cols > 0 && block_size == 0 {
            invalid!("ellBlockSize must be > 0 when ellCols > 0");
        }
        if block_size > 0 && (ell_cols % block_size != 0 || rows % block_size != 0) {
            invalid!("ellCols ({ell_cols}) and rows ({rows}) must be multiples of ellBlockSize ({block_size})");
        }
        if ell_cols > cols {
            invalid!("ellCols ({ell_cols}) must be <= cols ({cols})");
        }
        let Some(nnz) = rows.checked_mul(ell_cols) else { invalid!("rows x ellCols overflows int64") };
        let arrays = SpArrays { offsets: 0, indices: col_ind, values };
        let format = FormatInfo::BlockedEll { block_size, ell_cols };
        Self::base(format, (rows, cols, nnz), arrays, (index_type, index_type), index_base, value_type)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn sliced_ell(
        rows: i64,
        cols: i64,
        nnz: i64,
        values_size: i64,
        slice_size: i64,
        arrays: SpArrays,
        offset_type: IndexType,
        index_type: IndexType,
        index_base: IndexBase,
        value_type: DataType,
    ) -> Result<Self> {
        check_sizes(rows, cols, nnz)?;
        if slice_size <= 0 {
            invalid!("sliceSize ({slice_size}) must be > 0");
        }
        if values_size < nnz {
            invalid!("sellValuesSize ({values_size}) must be >= nnz ({nnz})");
        }
        if arrays.offsets == 0 && rows > 0 {
            invalid!("sellSliceOffsets must be non-NULL when rows > 0");
        }
        let format = FormatInfo::SlicedEll { slice_size, values_size };
        Self::base(format, (rows, cols, nnz), arrays, (offset_type, index_type), index_base, value_type)
    }

    /// `CsrSetStridedBatch` / `CooSetStridedBatch` / `BsrSetStridedBatch`.
    pub fn set_strided_batch(&mut self, count: i32, offsets_stride: i64, indices_stride: i64, values_stride: i64) -> Result<()> {
        if count <= 0 {
            invalid!("batchCount ({count}) must be > 0");
        }
        if offsets_stride < 0 || indices_stride < 0 || values_stride < 0 {
            invalid!("batch strides must be >= 0");
        }
        self.batch = SpBatch { count, offsets_stride, indices_stride, values_stride };
        Ok(())
    }

    /// `CsrSetPointers` and friends: new arrays, same shape and types.
    pub fn set_arrays(&mut self, arrays: SpArrays) -> Result<()> {
        check_aligned("offsets", arrays.offsets, self.offset_type.size_bytes())?;
        check_aligned("indices", arrays.indices, self.index_type.size_bytes())?;
        check_aligned("values", arrays.values, self.value_type.size_bytes())?;
        let major = match self.format {
            FormatInfo::Csr => self.rows,
            FormatInfo::Csc => self.cols,
            _ => 0,
        };
        if arrays.offsets == 0 && major > 0 {
            invalid!("offsets must be non-NULL for a matrix with {major} > 0 compressed lines");
        }
        self.arrays = arrays;
        Ok(())
    }

    pub fn set_values(&mut self, values: u64) -> Result<()> {
        check_aligned("values", values, self.value_type.size_bytes())?;
        self.arrays.values = values;
        Ok(())
    }
}

fn check_sizes(rows: i64, cols: i64, nnz: i64) -> Result<()> {
    if rows < 0 || cols < 0 || nnz < 0 {
        invalid!("rows ({rows}), cols ({cols}) and nnz ({nnz}) must be >= 0");
    }
    Ok(())
}

/// The largest values a matrix's two index arrays must hold, before the base: the offsets count
/// entries (BSR: blocks; Sliced-ELL: slots, padding included; COO and Blocked-ELL, which have no
/// offsets, still number their entries with them), the indices name rows and columns (BSR and
/// Blocked-ELL: block rows and block columns). One rule for every format, checked where every
/// descriptor is made.
struct IndexExtents {
    offsets: (&'static str, i64),
    indices: (&'static str, i64),
}

impl IndexExtents {
    fn of(format: &FormatInfo, rows: i64, cols: i64, nnz: i64) -> IndexExtents {
        let (offsets, indices) = match *format {
            FormatInfo::Csr | FormatInfo::Csc | FormatInfo::Coo => (("nnz", nnz), ("rows or cols", rows.max(cols))),
            FormatInfo::Bsr { brows, bcols, bnnz, .. } => (("bnnz", bnnz), ("brows or bcols", brows.max(bcols))),
            FormatInfo::SlicedEll { values_size, .. } => (("sellValuesSize", values_size), ("rows or cols", rows.max(cols))),
            FormatInfo::BlockedEll { block_size, ell_cols } => {
                let block = block_size.max(1);
                let (block_rows, block_cols) = (rows / block, (cols.max(0) as u64).div_ceil(block as u64) as i64);
                (("stored blocks", block_rows * (ell_cols / block)), ("block rows or block columns", block_rows.max(block_cols)))
            }
        };
        IndexExtents { offsets, indices }
    }
}

/// A `what` of `value` must be representable in `index_type` once the base is added.
fn check_index_range(what: &str, value: i64, index_type: IndexType, base: IndexBase) -> Result<()> {
    if value.saturating_add(base.offset()) > index_type.max_value() {
        invalid!("{what} ({value}) does not fit in {index_type:?} with {base:?}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType::*;
    use crate::types::IndexBase::*;
    use crate::types::IndexType::*;

    fn arrays() -> SpArrays {
        SpArrays { offsets: 0x1000, indices: 0x2000, values: 0x3000 }
    }

    #[test]
    fn csr_requires_offsets_unless_empty() {
        let mut a = arrays();
        assert!(SpMat::compressed(false, 4, 5, 7, a, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_ok());
        a.offsets = 0;
        assert!(SpMat::compressed(false, 4, 5, 7, a, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_err());
        assert!(SpMat::compressed(false, 0, 5, 0, a, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_ok());
        // CSC only needs column offsets when cols > 0.
        assert!(SpMat::compressed(true, 4, 0, 0, a, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_ok());
    }

    #[test]
    fn thirty_two_bit_indices_must_hold_nnz_plus_base() {
        let a = arrays();
        let big = i32::MAX as i64;
        assert!(
            SpMat::compressed(false, 4, 5, big, a, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_ok()
        );
        assert!(
            SpMat::compressed(false, 4, 5, big, a, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ONE, CUDA_R_32F).is_err()
        );
        assert!(SpMat::compressed(false, 4, 5, big, a, OXSPARSE_INDEX_64I, OXSPARSE_INDEX_64I, OXSPARSE_INDEX_BASE_ONE, CUDA_R_32F).is_ok());
    }

    #[test]
    fn bsr_reports_element_sizes() {
        let m = SpMat::bsr(
            (3, 4, 5),
            (2, 3),
            arrays(),
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_BASE_ZERO,
            CUDA_R_64F,
            Order::OXSPARSE_ORDER_ROW,
        )
        .unwrap();
        assert_eq!((m.rows, m.cols, m.nnz), (6, 12, 30));
        assert_eq!(m.format_enum(), Format::OXSPARSE_FORMAT_BSR);
        assert!(SpMat::bsr(
            (3, 4, 5),
            (0, 3),
            arrays(),
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_32I,
            OXSPARSE_INDEX_BASE_ZERO,
            CUDA_R_64F,
            Order::OXSPARSE_ORDER_ROW
        )
        .is_err());
    }

    #[test]
    fn every_format_refuses_what_32_bit_indices_cannot_address() {
        use IndexType::{OXSPARSE_INDEX_32I as I32, OXSPARSE_INDEX_64I as I64};
        let b0 = OXSPARSE_INDEX_BASE_ZERO;
        let t = CUDA_R_32F;
        let big = (1i64 << 31) + 5;
        // Blocked-ELL: 2^32 block columns of 1.
        assert!(SpMat::blocked_ell(8, 1 << 32, 1, 4, 0x2000, 0x3000, I32, b0, t).is_err());
        assert!(SpMat::blocked_ell(8, 1 << 32, 1, 4, 0x2000, 0x3000, I64, b0, t).is_ok());
        assert!(SpMat::blocked_ell(8, 1 << 32, 4, 4, 0x2000, 0x3000, I32, b0, t).is_ok(), "2^30 block columns of 4");
        // Sliced-ELL: 2^31 + 5 columns.
        assert!(SpMat::sliced_ell(4, big, 4, 8, 2, arrays(), I32, I32, b0, t).is_err());
        assert!(SpMat::sliced_ell(4, big, 4, 8, 2, arrays(), I32, I64, b0, t).is_ok());
        // COO: rows beyond 32 bits, and more entries than 32-bit positions number.
        assert!(SpMat::coo(big, 4, 4, arrays(), I32, b0, t).is_err());
        assert!(SpMat::coo(4, 4, big, arrays(), I32, b0, t).is_err());
        assert!(SpMat::coo(4, 4, big, arrays(), I64, b0, t).is_ok());
        // CSR, CSC and BSR as before.
        assert!(SpMat::compressed(false, big, 4, 4, arrays(), I32, I32, b0, t).is_err());
        assert!(SpMat::compressed(true, 4, big, 4, arrays(), I64, I32, b0, t).is_err());
        assert!(SpMat::bsr((4, big, 4), (2, 2), arrays(), I32, I32, b0, t, Order::OXSPARSE_ORDER_ROW).is_err());
    }

    #[test]
    fn blocked_ell_shape_rules() {
        let ok = SpMat::blocked_ell(8, 8, 2, 4, 0x2000, 0x3000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_16F).unwrap();
        assert_eq!(ok.nnz, 32);
        assert!(SpMat::blocked_ell(8, 8, 3, 4, 0x2000, 0x3000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_16F).is_err());
        assert!(SpMat::blocked_ell(8, 4, 2, 6, 0x2000, 0x3000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_16F).is_err());
        assert!(SpMat::blocked_ell(8, 8, 0, 4, 0x2000, 0x3000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_16F).is_err());
    }

    #[test]
    fn spvec_rules() {
        assert!(SpVec::new(10, 3, 0x1000, 0x2000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_ok());
        assert!(SpVec::new(2, 3, 0x1000, 0x2000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_err());
        assert!(SpVec::new(10, 3, 0, 0x2000, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_err());
        assert!(SpVec::new(10, 0, 0, 0, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO, CUDA_R_32F).is_ok());
    }
}
