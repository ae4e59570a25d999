//! The shared vocabulary: every enumeration of the C API, with cuSPARSE 12.6's exact numbers.
//!
//! These enums are the single source of the numbers. cbindgen writes them into `include/oxsparse.h`
//! (renamed to `oxsparseOperation_t` and so on, see `cbindgen.toml`), and the Rust core uses them
//! directly. Values arriving from C are never transmuted: the FFI layer receives a plain `c_int` and
//! decodes it with `from_raw`, so an out-of-range value becomes `INVALID_VALUE` instead of
//! undefined behaviour.
#![allow(non_camel_case_types)]

/// Implements `from_raw(i32) -> Option<Self>` for a fieldless enum, listing its variants once.
macro_rules! decodable {
    ($t:ident { $($v:ident),+ $(,)? }) => {
        impl $t {
            /// Decodes a value received from C; `None` for a number that is not a variant.
            pub fn from_raw(v: i32) -> Option<Self> {
                $( if v == $t::$v as i32 { return Some($t::$v); } )+
                None
            }
            /// Every variant, for tests that walk the enum.
            pub const ALL: &'static [$t] = &[$($t::$v),+];
        }
    };
}

/// Status returned by every function (`oxsparseStatus_t`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    OXSPARSE_STATUS_SUCCESS = 0,
    OXSPARSE_STATUS_NOT_INITIALIZED = 1,
    OXSPARSE_STATUS_ALLOC_FAILED = 2,
    OXSPARSE_STATUS_INVALID_VALUE = 3,
    OXSPARSE_STATUS_ARCH_MISMATCH = 4,
    OXSPARSE_STATUS_MAPPING_ERROR = 5,
    OXSPARSE_STATUS_EXECUTION_FAILED = 6,
    OXSPARSE_STATUS_INTERNAL_ERROR = 7,
    OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
    OXSPARSE_STATUS_ZERO_PIVOT = 9,
    OXSPARSE_STATUS_NOT_SUPPORTED = 10,
    OXSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11,
}
decodable!(Status {
    OXSPARSE_STATUS_SUCCESS,
    OXSPARSE_STATUS_NOT_INITIALIZED,
    OXSPARSE_STATUS_ALLOC_FAILED,
    OXSPARSE_STATUS_INVALID_VALUE,
    OXSPARSE_STATUS_ARCH_MISMATCH,
    OXSPARSE_STATUS_MAPPING_ERROR,
    OXSPARSE_STATUS_EXECUTION_FAILED,
    OXSPARSE_STATUS_INTERNAL_ERROR,
    OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
    OXSPARSE_STATUS_ZERO_PIVOT,
    OXSPARSE_STATUS_NOT_SUPPORTED,
    OXSPARSE_STATUS_INSUFFICIENT_RESOURCES,
});

impl Status {
    /// `oxsparseGetErrorName`: the enumerator's own name.
    pub fn name(self) -> &'static str {
        use Status::*;
        match self {
            OXSPARSE_STATUS_SUCCESS => "OXSPARSE_STATUS_SUCCESS",
            OXSPARSE_STATUS_NOT_INITIALIZED => "OXSPARSE_STATUS_NOT_INITIALIZED",
            OXSPARSE_STATUS_ALLOC_FAILED => "OXSPARSE_STATUS_ALLOC_FAILED",
            OXSPARSE_STATUS_INVALID_VALUE => "OXSPARSE_STATUS_INVALID_VALUE",
            OXSPARSE_STATUS_ARCH_MISMATCH => "OXSPARSE_STATUS_ARCH_MISMATCH",
            OXSPARSE_STATUS_MAPPING_ERROR => "OXSPARSE_STATUS_MAPPING_ERROR",
            OXSPARSE_STATUS_EXECUTION_FAILED => "OXSPARSE_STATUS_EXECUTION_FAILED",
            OXSPARSE_STATUS_INTERNAL_ERROR => "OXSPARSE_STATUS_INTERNAL_ERROR",
            OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED => "OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
            OXSPARSE_STATUS_ZERO_PIVOT => "OXSPARSE_STATUS_ZERO_PIVOT",
            OXSPARSE_STATUS_NOT_SUPPORTED => "OXSPARSE_STATUS_NOT_SUPPORTED",
            OXSPARSE_STATUS_INSUFFICIENT_RESOURCES => "OXSPARSE_STATUS_INSUFFICIENT_RESOURCES",
        }
    }

    /// `oxsparseGetErrorString`: cuSPARSE's wording for the same code.
    pub fn description(self) -> &'static str {
        use Status::*;
        match self {
            OXSPARSE_STATUS_SUCCESS => "success",
            OXSPARSE_STATUS_NOT_INITIALIZED => "initialization error",
            OXSPARSE_STATUS_ALLOC_FAILED => "out of memory",
            OXSPARSE_STATUS_INVALID_VALUE => "invalid value",
            OXSPARSE_STATUS_ARCH_MISMATCH => "architecture mismatch",
            OXSPARSE_STATUS_MAPPING_ERROR => "texture memory mapping error",
            OXSPARSE_STATUS_EXECUTION_FAILED => "kernel launch failure",
            OXSPARSE_STATUS_INTERNAL_ERROR => "internal error",
            OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED => "matrix type not supported",
            OXSPARSE_STATUS_ZERO_PIVOT => "zero pivot",
            OXSPARSE_STATUS_NOT_SUPPORTED => "operation not supported",
            OXSPARSE_STATUS_INSUFFICIENT_RESOURCES => "insufficient resources",
        }
    }
}

/// Whether SpMM's preprocess may reorder A's rows for the tensor cores (`oxsparseReorder_t`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReorderMode {
    /// Rows in the user's order.
    OXSPARSE_REORDER_NONE = 0,
    /// Data-affinity clustering of rows (src/ops/reorder.rs), kept where it lowers the B rows the
    /// tiles read; C keeps the user's row order.
    OXSPARSE_REORDER_DATA_AFFINITY = 1,
}
decodable!(ReorderMode { OXSPARSE_REORDER_NONE, OXSPARSE_REORDER_DATA_AFFINITY });

impl ReorderMode {
    /// `OXSPARSE_REORDER`'s spellings: `none`, `affinity` (or `data_affinity`), 0, 1.
    pub fn parse(v: &str) -> Option<ReorderMode> {
        match v.trim().to_ascii_lowercase().as_str() {
            "none" | "0" => Some(ReorderMode::OXSPARSE_REORDER_NONE),
            "affinity" | "data_affinity" | "1" => Some(ReorderMode::OXSPARSE_REORDER_DATA_AFFINITY),
            _ => None,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerMode {
    OXSPARSE_POINTER_MODE_HOST = 0,
    OXSPARSE_POINTER_MODE_DEVICE = 1,
}
decodable!(PointerMode { OXSPARSE_POINTER_MODE_HOST, OXSPARSE_POINTER_MODE_DEVICE });

/// How FP32 products may be computed (`oxsparseMath_t`), as cuBLAS's math modes. 0 and 3 have
/// cuBLAS's numbers (`CUBLAS_DEFAULT_MATH`, `CUBLAS_TF32_TENSOR_OP_MATH`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathMode {
    /// FP32 accuracy on CUDA cores: cuSPARSE's contract for `CUDA_R_32F`.
    OXSPARSE_DEFAULT_MATH = 0,
    /// FP32 inputs rounded to TF32 (10-bit mantissa) for tensor cores; FP32 accumulation.
    OXSPARSE_TF32_TENSOR_OP_MATH = 3,
    /// Tensor cores at FP32 accuracy: each FP32 value split into a TF32 head and tail, three
    /// products per pair (3xTF32).
    OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH = 4,
}
decodable!(MathMode { OXSPARSE_DEFAULT_MATH, OXSPARSE_TF32_TENSOR_OP_MATH, OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH });

impl MathMode {
    /// `OXSPARSE_MATH_MODE`'s spellings: `default`, `tf32`, `fp32_accurate` (or `3xtf32`), 0, 3, 4.
    pub fn parse(v: &str) -> Option<MathMode> {
        match v.trim().to_ascii_lowercase().as_str() {
            "default" | "0" => Some(MathMode::OXSPARSE_DEFAULT_MATH),
            "tf32" | "3" => Some(MathMode::OXSPARSE_TF32_TENSOR_OP_MATH),
            "fp32_accurate" | "3xtf32" | "4" => Some(MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH),
            _ => None,
        }
    }

    /// Whether FP32 products may run on tensor cores.
    pub fn tensor_ops(self) -> bool {
        self != MathMode::OXSPARSE_DEFAULT_MATH
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    OXSPARSE_OPERATION_NON_TRANSPOSE = 0,
    OXSPARSE_OPERATION_TRANSPOSE = 1,
    OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2,
}
decodable!(Operation { OXSPARSE_OPERATION_NON_TRANSPOSE, OXSPARSE_OPERATION_TRANSPOSE, OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE });

/// How the legacy block routines lay out each block's values (`oxsparseDirection_t`): row by
/// row or column by column.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    OXSPARSE_DIRECTION_ROW = 0,
    OXSPARSE_DIRECTION_COLUMN = 1,
}
decodable!(Direction { OXSPARSE_DIRECTION_ROW, OXSPARSE_DIRECTION_COLUMN });

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexBase {
    OXSPARSE_INDEX_BASE_ZERO = 0,
    OXSPARSE_INDEX_BASE_ONE = 1,
}
decodable!(IndexBase { OXSPARSE_INDEX_BASE_ZERO, OXSPARSE_INDEX_BASE_ONE });

impl IndexBase {
    pub fn offset(self) -> i64 {
        self as i64
    }
}

/// What a legacy matrix descriptor says of the matrix's structure (`oxsparseMatrixType_t`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixType {
    OXSPARSE_MATRIX_TYPE_GENERAL = 0,
    OXSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
    OXSPARSE_MATRIX_TYPE_HERMITIAN = 2,
    OXSPARSE_MATRIX_TYPE_TRIANGULAR = 3,
}
decodable!(MatrixType {
    OXSPARSE_MATRIX_TYPE_GENERAL,
    OXSPARSE_MATRIX_TYPE_SYMMETRIC,
    OXSPARSE_MATRIX_TYPE_HERMITIAN,
    OXSPARSE_MATRIX_TYPE_TRIANGULAR,
});

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillMode {
    OXSPARSE_FILL_MODE_LOWER = 0,
    OXSPARSE_FILL_MODE_UPPER = 1,
}
decodable!(FillMode { OXSPARSE_FILL_MODE_LOWER, OXSPARSE_FILL_MODE_UPPER });

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagType {
    OXSPARSE_DIAG_TYPE_NON_UNIT = 0,
    OXSPARSE_DIAG_TYPE_UNIT = 1,
}
decodable!(DiagType { OXSPARSE_DIAG_TYPE_NON_UNIT, OXSPARSE_DIAG_TYPE_UNIT });

/// Sparse storage format. Value 4 (COO AoS) was removed in cuSPARSE 12.0 and stays unused.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    OXSPARSE_FORMAT_CSR = 1,
    OXSPARSE_FORMAT_CSC = 2,
    OXSPARSE_FORMAT_COO = 3,
    OXSPARSE_FORMAT_BLOCKED_ELL = 5,
    OXSPARSE_FORMAT_BSR = 6,
    OXSPARSE_FORMAT_SLICED_ELLPACK = 7,
}
decodable!(Format {
    OXSPARSE_FORMAT_CSR,
    OXSPARSE_FORMAT_CSC,
    OXSPARSE_FORMAT_COO,
    OXSPARSE_FORMAT_BLOCKED_ELL,
    OXSPARSE_FORMAT_BSR,
    OXSPARSE_FORMAT_SLICED_ELLPACK,
});

/// Dense layout. Note: not 0-based, as in cuSPARSE.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    OXSPARSE_ORDER_COL = 1,
    OXSPARSE_ORDER_ROW = 2,
}
decodable!(Order { OXSPARSE_ORDER_COL, OXSPARSE_ORDER_ROW });

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexType {
    OXSPARSE_INDEX_16U = 1,
    OXSPARSE_INDEX_32I = 2,
    OXSPARSE_INDEX_64I = 3,
}
decodable!(IndexType { OXSPARSE_INDEX_16U, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_64I });

impl IndexType {
    pub fn size_bytes(self) -> u64 {
        match self {
            IndexType::OXSPARSE_INDEX_16U => 2,
            IndexType::OXSPARSE_INDEX_32I => 4,
            IndexType::OXSPARSE_INDEX_64I => 8,
        }
    }
    /// Largest value an index of this type can hold.
    pub fn max_value(self) -> i64 {
        match self {
            IndexType::OXSPARSE_INDEX_16U => u16::MAX as i64,
            IndexType::OXSPARSE_INDEX_32I => i32::MAX as i64,
            IndexType::OXSPARSE_INDEX_64I => i64::MAX,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpMatAttribute {
    OXSPARSE_SPMAT_FILL_MODE = 0,
    OXSPARSE_SPMAT_DIAG_TYPE = 1,
}
decodable!(SpMatAttribute { OXSPARSE_SPMAT_FILL_MODE, OXSPARSE_SPMAT_DIAG_TYPE });

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpMVAlg {
    OXSPARSE_SPMV_ALG_DEFAULT = 0,
    OXSPARSE_SPMV_COO_ALG1 = 1,
    OXSPARSE_SPMV_CSR_ALG1 = 2,
    OXSPARSE_SPMV_CSR_ALG2 = 3,
    OXSPARSE_SPMV_COO_ALG2 = 4,
    OXSPARSE_SPMV_SELL_ALG1 = 5,
    OXSPARSE_SPMV_BSR_ALG1 = 6,
}
decodable!(SpMVAlg {
    OXSPARSE_SPMV_ALG_DEFAULT,
    OXSPARSE_SPMV_COO_ALG1,
    OXSPARSE_SPMV_CSR_ALG1,
    OXSPARSE_SPMV_CSR_ALG2,
    OXSPARSE_SPMV_COO_ALG2,
    OXSPARSE_SPMV_SELL_ALG1,
    OXSPARSE_SPMV_BSR_ALG1,
});

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpMMAlg {
    OXSPARSE_SPMM_ALG_DEFAULT = 0,
    OXSPARSE_SPMM_COO_ALG1 = 1,
    OXSPARSE_SPMM_COO_ALG2 = 2,
    OXSPARSE_SPMM_COO_ALG3 = 3,
    OXSPARSE_SPMM_CSR_ALG1 = 4,
    OXSPARSE_SPMM_COO_ALG4 = 5,
    OXSPARSE_SPMM_CSR_ALG2 = 6,
    OXSPARSE_SPMM_CSR_ALG3 = 12,
    OXSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13,
    OXSPARSE_SPMM_BSR_ALG1 = 14,
}
decodable!(SpMMAlg {
    OXSPARSE_SPMM_ALG_DEFAULT,
    OXSPARSE_SPMM_COO_ALG1,
    OXSPARSE_SPMM_COO_ALG2,
    OXSPARSE_SPMM_COO_ALG3,
    OXSPARSE_SPMM_CSR_ALG1,
    OXSPARSE_SPMM_COO_ALG4,
    OXSPARSE_SPMM_CSR_ALG2,
    OXSPARSE_SPMM_CSR_ALG3,
    OXSPARSE_SPMM_BLOCKED_ELL_ALG1,
    OXSPARSE_SPMM_BSR_ALG1,
});

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SDDMMAlg {
    OXSPARSE_SDDMM_ALG_DEFAULT = 0,
}
decodable!(SDDMMAlg { OXSPARSE_SDDMM_ALG_DEFAULT });

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SparseToDenseAlg {
    OXSPARSE_SPARSETODENSE_ALG_DEFAULT = 0,
}
decodable!(SparseToDenseAlg { OXSPARSE_SPARSETODENSE_ALG_DEFAULT });

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenseToSparseAlg {
    OXSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0,
}
decodable!(DenseToSparseAlg { OXSPARSE_DENSETOSPARSE_ALG_DEFAULT });

/// `cusparseAction_t`: whether a conversion moves values (NUMERIC) or builds the structure alone.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    OXSPARSE_ACTION_SYMBOLIC = 0,
    OXSPARSE_ACTION_NUMERIC = 1,
}
decodable!(Action { OXSPARSE_ACTION_SYMBOLIC, OXSPARSE_ACTION_NUMERIC });

/// `cusparseCsr2CscAlg_t`. cuSPARSE 12 spells 1 both `ALG_DEFAULT` and `ALG1` (the header adds the
/// alias); 2 (`ALG2`, removed from the 12.0 header) is still accepted, as callers built on 11.x pass it.
/// Both run the same stable transpose.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Csr2CscAlg {
    OXSPARSE_CSR2CSC_ALG_DEFAULT = 1,
    OXSPARSE_CSR2CSC_ALG2 = 2,
}
decodable!(Csr2CscAlg { OXSPARSE_CSR2CSC_ALG_DEFAULT, OXSPARSE_CSR2CSC_ALG2 });

/// CUDA's `cudaDataType` (library_types.h). Not written into our header: users get it from CUDA.
/// Only the types cuSPARSE accepts anywhere are listed; anything else decodes to `None`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataType {
    CUDA_R_32F = 0,
    CUDA_R_64F = 1,
    CUDA_R_16F = 2,
    CUDA_R_8I = 3,
    CUDA_C_32F = 4,
    CUDA_C_64F = 5,
    CUDA_C_16F = 6,
    CUDA_R_32I = 10,
    CUDA_R_16BF = 14,
    CUDA_C_16BF = 15,
    /// Signed 4-bit integers, two to a byte, the lower-addressed element in the low nibble (only
    /// the SR-BCRS object and its SpMM accept them).
    CUDA_R_4I = 16,
    /// Signed 16-bit integers (only the SR-BCRS object and its SpMM accept them).
    CUDA_R_16I = 20,
}
decodable!(DataType {
    CUDA_R_32F,
    CUDA_R_64F,
    CUDA_R_16F,
    CUDA_R_8I,
    CUDA_C_32F,
    CUDA_C_64F,
    CUDA_C_16F,
    CUDA_R_32I,
    CUDA_R_16BF,
    CUDA_C_16BF,
    CUDA_R_4I,
    CUDA_R_16I,
});

impl DataType {
    /// Bytes per element; also the alignment cuSPARSE requires of pointers to this type
    /// (complex types align to their component pair, as `float2`/`double2` do).
    pub fn size_bytes(self) -> u64 {
        use DataType::*;
        match self {
            // int4 packs two elements to a byte; a pointer to them needs byte alignment.
            CUDA_R_4I | CUDA_R_8I => 1,
            CUDA_R_16F | CUDA_R_16BF | CUDA_R_16I => 2,
            CUDA_R_32F | CUDA_R_32I | CUDA_C_16F | CUDA_C_16BF => 4,
            CUDA_R_64F | CUDA_C_32F => 8,
            CUDA_C_64F => 16,
        }
    }
    pub fn is_complex(self) -> bool {
        use DataType::*;
        matches!(self, CUDA_C_32F | CUDA_C_64F | CUDA_C_16F | CUDA_C_16BF)
    }
    /// Short lowercase name used in kernel symbol names (`oxs_gather_f32_i32`).
    pub fn kernel_suffix(self) -> &'static str {
        use DataType::*;
        match self {
            CUDA_R_32F => "f32",
            CUDA_R_64F => "f64",
            CUDA_R_16F => "f16",
            CUDA_R_16BF => "bf16",
            CUDA_R_4I => "i4",
            CUDA_R_8I => "i8",
            CUDA_R_16I => "i16",
            CUDA_R_32I => "i32",
            CUDA_C_32F => "c32",
            CUDA_C_64F => "c64",
            CUDA_C_16F => "c16",
            CUDA_C_16BF => "cbf16",
        }
    }
}

/// CUDA's `libraryPropertyType` (library_types.h).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibraryProperty {
    MAJOR_VERSION = 0,
    MINOR_VERSION = 1,
    PATCH_LEVEL = 2,
}
decodable!(LibraryProperty { MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL });

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_round_trips_every_variant_and_rejects_neighbours() {
        for &s in Status::ALL {
            assert_eq!(Status::from_raw(s as i32), Some(s));
        }
        assert_eq!(Status::from_raw(12), None);
        assert_eq!(Status::from_raw(-1), None);
        assert_eq!(Format::from_raw(4), None, "COO AoS was removed in 12.0");
        assert_eq!(Order::from_raw(0), None, "orders start at 1");
        assert_eq!(SpMMAlg::from_raw(7), None);
        assert_eq!(SpMMAlg::from_raw(12), Some(SpMMAlg::OXSPARSE_SPMM_CSR_ALG3));
        assert_eq!(DataType::from_raw(14), Some(DataType::CUDA_R_16BF));
        assert_eq!(DataType::from_raw(28), None);
    }

    #[test]
    fn reorder_modes_decode_and_parse() {
        use ReorderMode::*;
        assert_eq!(ReorderMode::from_raw(0), Some(OXSPARSE_REORDER_NONE));
        assert_eq!(ReorderMode::from_raw(1), Some(OXSPARSE_REORDER_DATA_AFFINITY));
        assert_eq!(ReorderMode::from_raw(2), None);
        assert_eq!(ReorderMode::from_raw(-1), None);
        for (text, want) in [
            ("none", Some(OXSPARSE_REORDER_NONE)),
            (" Affinity ", Some(OXSPARSE_REORDER_DATA_AFFINITY)),
            ("data_affinity", Some(OXSPARSE_REORDER_DATA_AFFINITY)),
            ("1", Some(OXSPARSE_REORDER_DATA_AFFINITY)),
            ("rcm", None),
            ("", None),
        ] {
            assert_eq!(ReorderMode::parse(text), want, "{text:?}");
        }
    }

    #[test]
    fn math_modes_decode_and_parse() {
        use MathMode::*;
        assert_eq!(MathMode::from_raw(0), Some(OXSPARSE_DEFAULT_MATH));
        assert_eq!(MathMode::from_raw(3), Some(OXSPARSE_TF32_TENSOR_OP_MATH));
        assert_eq!(MathMode::from_raw(4), Some(OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH));
        for bad in [1, 2, 5, 99, -1] {
            assert_eq!(MathMode::from_raw(bad), None, "{bad}: cuBLAS's 1 and 2 are not ours");
        }
        for (text, want) in [
            ("tf32", Some(OXSPARSE_TF32_TENSOR_OP_MATH)),
            ("TF32", Some(OXSPARSE_TF32_TENSOR_OP_MATH)),
            (" 3 ", Some(OXSPARSE_TF32_TENSOR_OP_MATH)),
            ("3xtf32", Some(OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH)),
            ("fp32_accurate", Some(OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH)),
            ("4", Some(OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH)),
            ("0", Some(OXSPARSE_DEFAULT_MATH)),
            ("default", Some(OXSPARSE_DEFAULT_MATH)),
            ("bogus", None),
            ("", None),
            ("1", None),
        ] {
            assert_eq!(MathMode::parse(text), want, "{text:?}");
        }
        assert!(!OXSPARSE_DEFAULT_MATH.tensor_ops() && OXSPARSE_TF32_TENSOR_OP_MATH.tensor_ops());
    }

    #[test]
    fn names_and_strings_follow_cusparse() {
        assert_eq!(Status::OXSPARSE_STATUS_INVALID_VALUE.description(), "invalid value");
        assert_eq!(Status::OXSPARSE_STATUS_NOT_INITIALIZED.description(), "initialization error");
        for &s in Status::ALL {
            assert!(s.name().starts_with("OXSPARSE_STATUS_"));
            assert_eq!(format!("{s:?}"), s.name());
        }
    }
}
