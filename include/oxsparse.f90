!> Fortran 2008 interface to liboxsparse, the cuSPARSE-style generic sparse API.
!>
!>   use oxsparse
!>
!> One bind(C) interface per C function of include/oxsparse.h, under the C name,
!> and every enumerator of the header as a named constant with the C value.
!> Kinds follow the C prototypes exactly:
!>   int64_t -> integer(c_int64_t), size_t -> integer(c_size_t),
!>   int and every enum (also cudaDataType, libraryPropertyType) -> integer(c_int),
!>   handles, descriptors, streams, device and scalar pointers -> type(c_ptr), value,
!>   C out-parameters (T*) -> the Fortran kind of T, by reference, intent(out),
!>   const char* results -> type(c_ptr) (use c_f_pointer to read them).
!> Host scalars such as alpha and beta are passed as c_loc(x), with x a target.
!> scripts/check_fortran_module.py checks all of this against the header and the
!> exported symbols; keep it passing when either side changes.
module oxsparse
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_size_t, c_ptr, c_funptr, c_float, c_double, &
    c_float_complex, c_double_complex
  implicit none

  ! Version of the library this module was written for.
  integer(c_int), parameter :: OXSPARSE_VER_MAJOR = 0
  integer(c_int), parameter :: OXSPARSE_VER_MINOR = 1
  integer(c_int), parameter :: OXSPARSE_VER_PATCH = 0
  integer(c_int), parameter :: OXSPARSE_VERSION = &
      OXSPARSE_VER_MAJOR * 1000 + OXSPARSE_VER_MINOR * 100 + OXSPARSE_VER_PATCH

  ! oxsparseStatus_t
  enum, bind(c)
    enumerator :: OXSPARSE_STATUS_SUCCESS = 0
    enumerator :: OXSPARSE_STATUS_NOT_INITIALIZED = 1
    enumerator :: OXSPARSE_STATUS_ALLOC_FAILED = 2
    enumerator :: OXSPARSE_STATUS_INVALID_VALUE = 3
    enumerator :: OXSPARSE_STATUS_ARCH_MISMATCH = 4
    enumerator :: OXSPARSE_STATUS_MAPPING_ERROR = 5
    enumerator :: OXSPARSE_STATUS_EXECUTION_FAILED = 6
    enumerator :: OXSPARSE_STATUS_INTERNAL_ERROR = 7
    enumerator :: OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8
    enumerator :: OXSPARSE_STATUS_ZERO_PIVOT = 9
    enumerator :: OXSPARSE_STATUS_NOT_SUPPORTED = 10
    enumerator :: OXSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
  end enum

  ! oxsparsePointerMode_t
  enum, bind(c)
    enumerator :: OXSPARSE_POINTER_MODE_HOST = 0
    enumerator :: OXSPARSE_POINTER_MODE_DEVICE = 1
  end enum

  ! oxsparseMath_t (as cuBLAS's math modes: 0 and 3 are cuBLAS's numbers; 1 and 2 unused)
  enum, bind(c)
    enumerator :: OXSPARSE_DEFAULT_MATH = 0
    enumerator :: OXSPARSE_TF32_TENSOR_OP_MATH = 3
    enumerator :: OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH = 4
  end enum

  ! oxsparseReorder_t (SpMM preprocess's data-affinity row reordering for tensor cores)
  enum, bind(c)
    enumerator :: OXSPARSE_REORDER_NONE = 0
    enumerator :: OXSPARSE_REORDER_DATA_AFFINITY = 1
  end enum

  ! oxsparseOperation_t
  enum, bind(c)
    enumerator :: OXSPARSE_OPERATION_NON_TRANSPOSE = 0
    enumerator :: OXSPARSE_OPERATION_TRANSPOSE = 1
    enumerator :: OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
  end enum

  ! oxsparseDirection_t (legacy block routines: the order of each block's values)
  enum, bind(c)
    enumerator :: OXSPARSE_DIRECTION_ROW = 0
    enumerator :: OXSPARSE_DIRECTION_COLUMN = 1
  end enum

  ! oxsparseIndexBase_t
  enum, bind(c)
    enumerator :: OXSPARSE_INDEX_BASE_ZERO = 0
    enumerator :: OXSPARSE_INDEX_BASE_ONE = 1
  end enum

  ! oxsparseMatrixType_t (legacy matrix descriptor)
  enum, bind(c)
    enumerator :: OXSPARSE_MATRIX_TYPE_GENERAL = 0
    enumerator :: OXSPARSE_MATRIX_TYPE_SYMMETRIC = 1
    enumerator :: OXSPARSE_MATRIX_TYPE_HERMITIAN = 2
    enumerator :: OXSPARSE_MATRIX_TYPE_TRIANGULAR = 3
  end enum

  ! oxsparseFillMode_t
  enum, bind(c)
    enumerator :: OXSPARSE_FILL_MODE_LOWER = 0
    enumerator :: OXSPARSE_FILL_MODE_UPPER = 1
  end enum

  ! oxsparseDiagType_t
  enum, bind(c)
    enumerator :: OXSPARSE_DIAG_TYPE_NON_UNIT = 0
    enumerator :: OXSPARSE_DIAG_TYPE_UNIT = 1
  end enum

  ! oxsparseFormat_t (4 was COO_AOS, removed in cuSPARSE 12.0)
  enum, bind(c)
    enumerator :: OXSPARSE_FORMAT_CSR = 1
    enumerator :: OXSPARSE_FORMAT_CSC = 2
    enumerator :: OXSPARSE_FORMAT_COO = 3
    enumerator :: OXSPARSE_FORMAT_BLOCKED_ELL = 5
    enumerator :: OXSPARSE_FORMAT_BSR = 6
    enumerator :: OXSPARSE_FORMAT_SLICED_ELLPACK = 7
  end enum

  ! oxsparseOrder_t (1-based, as in cuSPARSE)
  enum, bind(c)
    enumerator :: OXSPARSE_ORDER_COL = 1
    enumerator :: OXSPARSE_ORDER_ROW = 2
  end enum

  ! oxsparseIndexType_t
  enum, bind(c)
    enumerator :: OXSPARSE_INDEX_16U = 1
    enumerator :: OXSPARSE_INDEX_32I = 2
    enumerator :: OXSPARSE_INDEX_64I = 3
  end enum

  ! oxsparseSpMatAttribute_t
  enum, bind(c)
    enumerator :: OXSPARSE_SPMAT_FILL_MODE = 0
    enumerator :: OXSPARSE_SPMAT_DIAG_TYPE = 1
  end enum

  ! oxsparseSpMVAlg_t
  enum, bind(c)
    enumerator :: OXSPARSE_SPMV_ALG_DEFAULT = 0
    enumerator :: OXSPARSE_SPMV_COO_ALG1 = 1
    enumerator :: OXSPARSE_SPMV_CSR_ALG1 = 2
    enumerator :: OXSPARSE_SPMV_CSR_ALG2 = 3
    enumerator :: OXSPARSE_SPMV_COO_ALG2 = 4
    enumerator :: OXSPARSE_SPMV_SELL_ALG1 = 5
    enumerator :: OXSPARSE_SPMV_BSR_ALG1 = 6
  end enum

  ! oxsparseSpMMAlg_t
  enum, bind(c)
    enumerator :: OXSPARSE_SPMM_ALG_DEFAULT = 0
    enumerator :: OXSPARSE_SPMM_COO_ALG1 = 1
    enumerator :: OXSPARSE_SPMM_COO_ALG2 = 2
    enumerator :: OXSPARSE_SPMM_COO_ALG3 = 3
    enumerator :: OXSPARSE_SPMM_CSR_ALG1 = 4
    enumerator :: OXSPARSE_SPMM_COO_ALG4 = 5
    enumerator :: OXSPARSE_SPMM_CSR_ALG2 = 6
    enumerator :: OXSPARSE_SPMM_CSR_ALG3 = 12
    enumerator :: OXSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13
    enumerator :: OXSPARSE_SPMM_BSR_ALG1 = 14
  end enum

  ! oxsparseSDDMMAlg_t
  enum, bind(c)
    enumerator :: OXSPARSE_SDDMM_ALG_DEFAULT = 0
  end enum

  ! oxsparseSparseToDenseAlg_t
  enum, bind(c)
    enumerator :: OXSPARSE_SPARSETODENSE_ALG_DEFAULT = 0
  end enum

  ! oxsparseDenseToSparseAlg_t
  enum, bind(c)
    enumerator :: OXSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0
  end enum

  ! oxsparseAction_t
  enum, bind(c)
    enumerator :: OXSPARSE_ACTION_SYMBOLIC = 0
    enumerator :: OXSPARSE_ACTION_NUMERIC = 1
  end enum

  ! oxsparseCsr2CscAlg_t (ALG1 is ALG_DEFAULT's other name, as in cuSPARSE 12)
  enum, bind(c)
    enumerator :: OXSPARSE_CSR2CSC_ALG_DEFAULT = 1
    enumerator :: OXSPARSE_CSR2CSC_ALG1 = 1
    enumerator :: OXSPARSE_CSR2CSC_ALG2 = 2
  end enum

  ! cudaDataType (CUDA's library_types.h), for the valueType/computeType arguments
  enum, bind(c)
    enumerator :: CUDA_R_32F = 0
    enumerator :: CUDA_R_64F = 1
    enumerator :: CUDA_R_16F = 2
    enumerator :: CUDA_R_8I = 3
    enumerator :: CUDA_C_32F = 4
    enumerator :: CUDA_C_64F = 5
    enumerator :: CUDA_C_16F = 6
    enumerator :: CUDA_C_8I = 7
    enumerator :: CUDA_R_8U = 8
    enumerator :: CUDA_C_8U = 9
    enumerator :: CUDA_R_32I = 10
    enumerator :: CUDA_C_32I = 11
    enumerator :: CUDA_R_32U = 12
    enumerator :: CUDA_C_32U = 13
    enumerator :: CUDA_R_16BF = 14
    enumerator :: CUDA_C_16BF = 15
    enumerator :: CUDA_R_4I = 16
    enumerator :: CUDA_C_4I = 17
    enumerator :: CUDA_R_4U = 18
    enumerator :: CUDA_C_4U = 19
    enumerator :: CUDA_R_16I = 20
    enumerator :: CUDA_C_16I = 21
    enumerator :: CUDA_R_16U = 22
    enumerator :: CUDA_C_16U = 23
    enumerator :: CUDA_R_64I = 24
    enumerator :: CUDA_C_64I = 25
    enumerator :: CUDA_R_64U = 26
    enumerator :: CUDA_C_64U = 27
    enumerator :: CUDA_R_8F_E4M3 = 28
    enumerator :: CUDA_R_8F_UE4M3 = 28
    enumerator :: CUDA_R_8F_E5M2 = 29
    enumerator :: CUDA_R_8F_UE8M0 = 30
    enumerator :: CUDA_R_6F_E2M3 = 31
    enumerator :: CUDA_R_6F_E3M2 = 32
    enumerator :: CUDA_R_4F_E2M1 = 33
  end enum

  ! libraryPropertyType (CUDA's library_types.h), for oxsparseGetProperty
  enum, bind(c)
    enumerator :: MAJOR_VERSION = 0
    enumerator :: MINOR_VERSION = 1
    enumerator :: PATCH_LEVEL = 2
  end enum

  interface

    ! ------------------------------------------------------------------------------------
    ! Handle and library management

    function oxsparseCreate(handle) &
        bind(C, name="oxsparseCreate") result(res)
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
      integer(c_int) :: res
    end function oxsparseCreate

    function oxsparseDestroy(handle) &
        bind(C, name="oxsparseDestroy") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int) :: res
    end function oxsparseDestroy

    function oxsparseGetVersion(handle, version) &
        bind(C, name="oxsparseGetVersion") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: version
      integer(c_int) :: res
    end function oxsparseGetVersion

    function oxsparseGetProperty(propertyType, propertyValue) &
        bind(C, name="oxsparseGetProperty") result(res)
      import :: c_int
      integer(c_int), value :: propertyType
      integer(c_int), intent(out) :: propertyValue
      integer(c_int) :: res
    end function oxsparseGetProperty

    function oxsparseGetErrorName(status) &
        bind(C, name="oxsparseGetErrorName") result(res)
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: res
    end function oxsparseGetErrorName

    function oxsparseGetErrorString(status) &
        bind(C, name="oxsparseGetErrorString") result(res)
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: res
    end function oxsparseGetErrorString

    function oxsparseSetStream(handle, streamId) &
        bind(C, name="oxsparseSetStream") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, streamId
      integer(c_int) :: res
    end function oxsparseSetStream

    function oxsparseGetStream(handle, streamId) &
        bind(C, name="oxsparseGetStream") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: streamId
      integer(c_int) :: res
    end function oxsparseGetStream

    function oxsparseGetPointerMode(handle, mode) &
        bind(C, name="oxsparseGetPointerMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: mode
      integer(c_int) :: res
    end function oxsparseGetPointerMode

    function oxsparseSetPointerMode(handle, mode) &
        bind(C, name="oxsparseSetPointerMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: mode
      integer(c_int) :: res
    end function oxsparseSetPointerMode

    function oxsparseGetMathMode(handle, mode) &
        bind(C, name="oxsparseGetMathMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: mode
      integer(c_int) :: res
    end function oxsparseGetMathMode

    function oxsparseSetMathMode(handle, mode) &
        bind(C, name="oxsparseSetMathMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: mode
      integer(c_int) :: res
    end function oxsparseSetMathMode

    function oxsparseGetReorderMode(handle, mode) &
        bind(C, name="oxsparseGetReorderMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: mode
      integer(c_int) :: res
    end function oxsparseGetReorderMode

    function oxsparseSetReorderMode(handle, mode) &
        bind(C, name="oxsparseSetReorderMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: mode
      integer(c_int) :: res
    end function oxsparseSetReorderMode

    ! Sets one of the handle's tuning settings by its variable's name (docs/tuning.md): pass
    ! c_loc of NUL-terminated character arrays ("OXSPARSE_SPMV_KERNEL"//c_null_char), and
    ! c_null_ptr as val to give the choice back to the library.
    function oxsparseSetTuning(handle, name, val) &
        bind(C, name="oxsparseSetTuning") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      type(c_ptr), value :: name
      type(c_ptr), value :: val
      integer(c_int) :: res
    end function oxsparseSetTuning

    ! ------------------------------------------------------------------------------------
    ! Sparse vector descriptor (SpVec)

    function oxsparseCreateSpVec(spVecDescr, size, nnz, indices, values, idxType, idxBase, &
            valueType) &
        bind(C, name="oxsparseCreateSpVec") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spVecDescr
      integer(c_int64_t), value :: size, nnz
      type(c_ptr), value :: indices, values
      integer(c_int), value :: idxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateSpVec

    function oxsparseCreateConstSpVec(spVecDescr, size, nnz, indices, values, idxType, &
            idxBase, valueType) &
        bind(C, name="oxsparseCreateConstSpVec") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spVecDescr
      integer(c_int64_t), value :: size, nnz
      type(c_ptr), value :: indices, values
      integer(c_int), value :: idxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateConstSpVec

    function oxsparseDestroySpVec(spVecDescr) &
        bind(C, name="oxsparseDestroySpVec") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spVecDescr
      integer(c_int) :: res
    end function oxsparseDestroySpVec

    function oxsparseSpVecGet(spVecDescr, size, nnz, indices, values, idxType, idxBase, &
            valueType) &
        bind(C, name="oxsparseSpVecGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spVecDescr
      integer(c_int64_t), intent(out) :: size, nnz
      type(c_ptr), intent(out) :: indices, values
      integer(c_int), intent(out) :: idxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseSpVecGet

    function oxsparseConstSpVecGet(spVecDescr, size, nnz, indices, values, idxType, idxBase, &
            valueType) &
        bind(C, name="oxsparseConstSpVecGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spVecDescr
      integer(c_int64_t), intent(out) :: size, nnz
      type(c_ptr), intent(out) :: indices, values
      integer(c_int), intent(out) :: idxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseConstSpVecGet

    function oxsparseSpVecGetIndexBase(spVecDescr, idxBase) &
        bind(C, name="oxsparseSpVecGetIndexBase") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spVecDescr
      integer(c_int), intent(out) :: idxBase
      integer(c_int) :: res
    end function oxsparseSpVecGetIndexBase

    function oxsparseSpVecGetValues(spVecDescr, values) &
        bind(C, name="oxsparseSpVecGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spVecDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseSpVecGetValues

    function oxsparseConstSpVecGetValues(spVecDescr, values) &
        bind(C, name="oxsparseConstSpVecGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spVecDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseConstSpVecGetValues

    function oxsparseSpVecSetValues(spVecDescr, values) &
        bind(C, name="oxsparseSpVecSetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spVecDescr, values
      integer(c_int) :: res
    end function oxsparseSpVecSetValues

    ! ------------------------------------------------------------------------------------
    ! Dense vector descriptor (DnVec)

    function oxsparseCreateDnVec(dnVecDescr, size, values, valueType) &
        bind(C, name="oxsparseCreateDnVec") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnVecDescr
      integer(c_int64_t), value :: size
      type(c_ptr), value :: values
      integer(c_int), value :: valueType
      integer(c_int) :: res
    end function oxsparseCreateDnVec

    function oxsparseCreateConstDnVec(dnVecDescr, size, values, valueType) &
        bind(C, name="oxsparseCreateConstDnVec") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnVecDescr
      integer(c_int64_t), value :: size
      type(c_ptr), value :: values
      integer(c_int), value :: valueType
      integer(c_int) :: res
    end function oxsparseCreateConstDnVec

    function oxsparseDestroyDnVec(dnVecDescr) &
        bind(C, name="oxsparseDestroyDnVec") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr
      integer(c_int) :: res
    end function oxsparseDestroyDnVec

    function oxsparseDnVecGet(dnVecDescr, size, values, valueType) &
        bind(C, name="oxsparseDnVecGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnVecDescr
      integer(c_int64_t), intent(out) :: size
      type(c_ptr), intent(out) :: values
      integer(c_int), intent(out) :: valueType
      integer(c_int) :: res
    end function oxsparseDnVecGet

    function oxsparseConstDnVecGet(dnVecDescr, size, values, valueType) &
        bind(C, name="oxsparseConstDnVecGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnVecDescr
      integer(c_int64_t), intent(out) :: size
      type(c_ptr), intent(out) :: values
      integer(c_int), intent(out) :: valueType
      integer(c_int) :: res
    end function oxsparseConstDnVecGet

    function oxsparseDnVecGetValues(dnVecDescr, values) &
        bind(C, name="oxsparseDnVecGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseDnVecGetValues

    function oxsparseConstDnVecGetValues(dnVecDescr, values) &
        bind(C, name="oxsparseConstDnVecGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseConstDnVecGetValues

    function oxsparseDnVecSetValues(dnVecDescr, values) &
        bind(C, name="oxsparseDnVecSetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr, values
      integer(c_int) :: res
    end function oxsparseDnVecSetValues

    ! ------------------------------------------------------------------------------------
    ! Sparse matrix descriptor, all formats (SpMat)

    function oxsparseDestroySpMat(spMatDescr) &
        bind(C, name="oxsparseDestroySpMat") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int) :: res
    end function oxsparseDestroySpMat

    function oxsparseSpMatGetFormat(spMatDescr, format) &
        bind(C, name="oxsparseSpMatGetFormat") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), intent(out) :: format
      integer(c_int) :: res
    end function oxsparseSpMatGetFormat

    function oxsparseSpMatGetIndexBase(spMatDescr, idxBase) &
        bind(C, name="oxsparseSpMatGetIndexBase") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), intent(out) :: idxBase
      integer(c_int) :: res
    end function oxsparseSpMatGetIndexBase

    function oxsparseSpMatGetValues(spMatDescr, values) &
        bind(C, name="oxsparseSpMatGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseSpMatGetValues

    function oxsparseConstSpMatGetValues(spMatDescr, values) &
        bind(C, name="oxsparseConstSpMatGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseConstSpMatGetValues

    function oxsparseSpMatSetValues(spMatDescr, values) &
        bind(C, name="oxsparseSpMatSetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr, values
      integer(c_int) :: res
    end function oxsparseSpMatSetValues

    function oxsparseSpMatGetSize(spMatDescr, rows, cols, nnz) &
        bind(C, name="oxsparseSpMatGetSize") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      integer(c_int) :: res
    end function oxsparseSpMatGetSize

    function oxsparseSpMatGetStridedBatch(spMatDescr, batchCount) &
        bind(C, name="oxsparseSpMatGetStridedBatch") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), intent(out) :: batchCount
      integer(c_int) :: res
    end function oxsparseSpMatGetStridedBatch

    function oxsparseCooSetStridedBatch(spMatDescr, batchCount, batchStride) &
        bind(C, name="oxsparseCooSetStridedBatch") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), value :: batchCount
      integer(c_int64_t), value :: batchStride
      integer(c_int) :: res
    end function oxsparseCooSetStridedBatch

    function oxsparseCsrSetStridedBatch(spMatDescr, batchCount, offsetsBatchStride, &
            columnsValuesBatchStride) &
        bind(C, name="oxsparseCsrSetStridedBatch") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), value :: batchCount
      integer(c_int64_t), value :: offsetsBatchStride, columnsValuesBatchStride
      integer(c_int) :: res
    end function oxsparseCsrSetStridedBatch

    function oxsparseBsrSetStridedBatch(spMatDescr, batchCount, offsetsBatchStride, &
            columnsBatchStride, ValuesBatchStride) &
        bind(C, name="oxsparseBsrSetStridedBatch") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), value :: batchCount
      integer(c_int64_t), value :: offsetsBatchStride, columnsBatchStride, ValuesBatchStride
      integer(c_int) :: res
    end function oxsparseBsrSetStridedBatch

    function oxsparseSpMatGetAttribute(spMatDescr, attribute, data, dataSize) &
        bind(C, name="oxsparseSpMatGetAttribute") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: spMatDescr
      integer(c_int), value :: attribute
      type(c_ptr), value :: data
      integer(c_size_t), value :: dataSize
      integer(c_int) :: res
    end function oxsparseSpMatGetAttribute

    function oxsparseSpMatSetAttribute(spMatDescr, attribute, data, dataSize) &
        bind(C, name="oxsparseSpMatSetAttribute") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: spMatDescr
      integer(c_int), value :: attribute
      type(c_ptr), value :: data
      integer(c_size_t), value :: dataSize
      integer(c_int) :: res
    end function oxsparseSpMatSetAttribute

    ! ------------------------------------------------------------------------------------
    ! CSR / CSC

    function oxsparseCreateCsr(spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, &
            csrValues, csrRowOffsetsType, csrColIndType, idxBase, valueType) &
        bind(C, name="oxsparseCreateCsr") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: csrRowOffsets, csrColInd, csrValues
      integer(c_int), value :: csrRowOffsetsType, csrColIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateCsr

    function oxsparseCreateConstCsr(spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, &
            csrValues, csrRowOffsetsType, csrColIndType, idxBase, valueType) &
        bind(C, name="oxsparseCreateConstCsr") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: csrRowOffsets, csrColInd, csrValues
      integer(c_int), value :: csrRowOffsetsType, csrColIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateConstCsr

    function oxsparseCreateCsc(spMatDescr, rows, cols, nnz, cscColOffsets, cscRowInd, &
            cscValues, cscColOffsetsType, cscRowIndType, idxBase, valueType) &
        bind(C, name="oxsparseCreateCsc") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: cscColOffsets, cscRowInd, cscValues
      integer(c_int), value :: cscColOffsetsType, cscRowIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateCsc

    function oxsparseCreateConstCsc(spMatDescr, rows, cols, nnz, cscColOffsets, cscRowInd, &
            cscValues, cscColOffsetsType, cscRowIndType, idxBase, valueType) &
        bind(C, name="oxsparseCreateConstCsc") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: cscColOffsets, cscRowInd, cscValues
      integer(c_int), value :: cscColOffsetsType, cscRowIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateConstCsc

    function oxsparseCsrGet(spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues, &
            csrRowOffsetsType, csrColIndType, idxBase, valueType) &
        bind(C, name="oxsparseCsrGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      type(c_ptr), intent(out) :: csrRowOffsets, csrColInd, csrValues
      integer(c_int), intent(out) :: csrRowOffsetsType, csrColIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCsrGet

    function oxsparseConstCsrGet(spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, &
            csrValues, csrRowOffsetsType, csrColIndType, idxBase, valueType) &
        bind(C, name="oxsparseConstCsrGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      type(c_ptr), intent(out) :: csrRowOffsets, csrColInd, csrValues
      integer(c_int), intent(out) :: csrRowOffsetsType, csrColIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseConstCsrGet

    function oxsparseCscGet(spMatDescr, rows, cols, nnz, cscColOffsets, cscRowInd, cscValues, &
            cscColOffsetsType, cscRowIndType, idxBase, valueType) &
        bind(C, name="oxsparseCscGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      type(c_ptr), intent(out) :: cscColOffsets, cscRowInd, cscValues
      integer(c_int), intent(out) :: cscColOffsetsType, cscRowIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCscGet

    function oxsparseConstCscGet(spMatDescr, rows, cols, nnz, cscColOffsets, cscRowInd, &
            cscValues, cscColOffsetsType, cscRowIndType, idxBase, valueType) &
        bind(C, name="oxsparseConstCscGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      type(c_ptr), intent(out) :: cscColOffsets, cscRowInd, cscValues
      integer(c_int), intent(out) :: cscColOffsetsType, cscRowIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseConstCscGet

    function oxsparseCsrSetPointers(spMatDescr, csrRowOffsets, csrColInd, csrValues) &
        bind(C, name="oxsparseCsrSetPointers") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr, csrRowOffsets, csrColInd, csrValues
      integer(c_int) :: res
    end function oxsparseCsrSetPointers

    function oxsparseCscSetPointers(spMatDescr, cscColOffsets, cscRowInd, cscValues) &
        bind(C, name="oxsparseCscSetPointers") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr, cscColOffsets, cscRowInd, cscValues
      integer(c_int) :: res
    end function oxsparseCscSetPointers

    ! ------------------------------------------------------------------------------------
    ! BSR

    function oxsparseCreateBsr(spMatDescr, brows, bcols, bnnz, rowBlockSize, colBlockSize, &
            bsrRowOffsets, bsrColInd, bsrValues, bsrRowOffsetsType, bsrColIndType, idxBase, &
            valueType, order) &
        bind(C, name="oxsparseCreateBsr") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: brows, bcols, bnnz, rowBlockSize, colBlockSize
      type(c_ptr), value :: bsrRowOffsets, bsrColInd, bsrValues
      integer(c_int), value :: bsrRowOffsetsType, bsrColIndType, idxBase, valueType, order
      integer(c_int) :: res
    end function oxsparseCreateBsr

    function oxsparseCreateConstBsr(spMatDescr, brows, bcols, bnnz, rowBlockDim, colBlockDim, &
            bsrRowOffsets, bsrColInd, bsrValues, bsrRowOffsetsType, bsrColIndType, idxBase, &
            valueType, order) &
        bind(C, name="oxsparseCreateConstBsr") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: brows, bcols, bnnz, rowBlockDim, colBlockDim
      type(c_ptr), value :: bsrRowOffsets, bsrColInd, bsrValues
      integer(c_int), value :: bsrRowOffsetsType, bsrColIndType, idxBase, valueType, order
      integer(c_int) :: res
    end function oxsparseCreateConstBsr

    ! ------------------------------------------------------------------------------------
    ! COO

    function oxsparseCreateCoo(spMatDescr, rows, cols, nnz, cooRowInd, cooColInd, cooValues, &
            cooIdxType, idxBase, valueType) &
        bind(C, name="oxsparseCreateCoo") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: cooRowInd, cooColInd, cooValues
      integer(c_int), value :: cooIdxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateCoo

    function oxsparseCreateConstCoo(spMatDescr, rows, cols, nnz, cooRowInd, cooColInd, &
            cooValues, cooIdxType, idxBase, valueType) &
        bind(C, name="oxsparseCreateConstCoo") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: cooRowInd, cooColInd, cooValues
      integer(c_int), value :: cooIdxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateConstCoo

    function oxsparseCooGet(spMatDescr, rows, cols, nnz, cooRowInd, cooColInd, cooValues, &
            idxType, idxBase, valueType) &
        bind(C, name="oxsparseCooGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      type(c_ptr), intent(out) :: cooRowInd, cooColInd, cooValues
      integer(c_int), intent(out) :: idxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCooGet

    function oxsparseConstCooGet(spMatDescr, rows, cols, nnz, cooRowInd, cooColInd, cooValues, &
            idxType, idxBase, valueType) &
        bind(C, name="oxsparseConstCooGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      type(c_ptr), intent(out) :: cooRowInd, cooColInd, cooValues
      integer(c_int), intent(out) :: idxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseConstCooGet

    function oxsparseCooSetPointers(spMatDescr, cooRows, cooColumns, cooValues) &
        bind(C, name="oxsparseCooSetPointers") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr, cooRows, cooColumns, cooValues
      integer(c_int) :: res
    end function oxsparseCooSetPointers

    ! ------------------------------------------------------------------------------------
    ! Blocked-ELL

    function oxsparseCreateBlockedEll(spMatDescr, rows, cols, ellBlockSize, ellCols, &
            ellColInd, ellValue, ellIdxType, idxBase, valueType) &
        bind(C, name="oxsparseCreateBlockedEll") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, ellBlockSize, ellCols
      type(c_ptr), value :: ellColInd, ellValue
      integer(c_int), value :: ellIdxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateBlockedEll

    function oxsparseCreateConstBlockedEll(spMatDescr, rows, cols, ellBlockSize, ellCols, &
            ellColInd, ellValue, ellIdxType, idxBase, valueType) &
        bind(C, name="oxsparseCreateConstBlockedEll") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, ellBlockSize, ellCols
      type(c_ptr), value :: ellColInd, ellValue
      integer(c_int), value :: ellIdxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateConstBlockedEll

    function oxsparseBlockedEllGet(spMatDescr, rows, cols, ellBlockSize, ellCols, ellColInd, &
            ellValue, ellIdxType, idxBase, valueType) &
        bind(C, name="oxsparseBlockedEllGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, ellBlockSize, ellCols
      type(c_ptr), intent(out) :: ellColInd, ellValue
      integer(c_int), intent(out) :: ellIdxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseBlockedEllGet

    function oxsparseConstBlockedEllGet(spMatDescr, rows, cols, ellBlockSize, ellCols, &
            ellColInd, ellValue, ellIdxType, idxBase, valueType) &
        bind(C, name="oxsparseConstBlockedEllGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, ellBlockSize, ellCols
      type(c_ptr), intent(out) :: ellColInd, ellValue
      integer(c_int), intent(out) :: ellIdxType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseConstBlockedEllGet

    ! ------------------------------------------------------------------------------------
    ! Sliced-ELL

    function oxsparseCreateSlicedEll(spMatDescr, rows, cols, nnz, sellValuesSize, sliceSize, &
            sellSliceOffsets, sellColInd, sellValues, sellSliceOffsetsType, sellColIndType, &
            idxBase, valueType) &
        bind(C, name="oxsparseCreateSlicedEll") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz, sellValuesSize, sliceSize
      type(c_ptr), value :: sellSliceOffsets, sellColInd, sellValues
      integer(c_int), value :: sellSliceOffsetsType, sellColIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateSlicedEll

    function oxsparseCreateConstSlicedEll(spMatDescr, rows, cols, nnz, sellValuesSize, &
            sliceSize, sellSliceOffsets, sellColInd, sellValues, sellSliceOffsetsType, &
            sellColIndType, idxBase, valueType) &
        bind(C, name="oxsparseCreateConstSlicedEll") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz, sellValuesSize, sliceSize
      type(c_ptr), value :: sellSliceOffsets, sellColInd, sellValues
      integer(c_int), value :: sellSliceOffsetsType, sellColIndType, idxBase, valueType
      integer(c_int) :: res
    end function oxsparseCreateConstSlicedEll

    ! ------------------------------------------------------------------------------------
    ! Dense matrix descriptor (DnMat)

    function oxsparseCreateDnMat(dnMatDescr, rows, cols, ld, values, valueType, order) &
        bind(C, name="oxsparseCreateDnMat") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnMatDescr
      integer(c_int64_t), value :: rows, cols, ld
      type(c_ptr), value :: values
      integer(c_int), value :: valueType, order
      integer(c_int) :: res
    end function oxsparseCreateDnMat

    function oxsparseCreateConstDnMat(dnMatDescr, rows, cols, ld, values, valueType, order) &
        bind(C, name="oxsparseCreateConstDnMat") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnMatDescr
      integer(c_int64_t), value :: rows, cols, ld
      type(c_ptr), value :: values
      integer(c_int), value :: valueType, order
      integer(c_int) :: res
    end function oxsparseCreateConstDnMat

    function oxsparseDestroyDnMat(dnMatDescr) &
        bind(C, name="oxsparseDestroyDnMat") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnMatDescr
      integer(c_int) :: res
    end function oxsparseDestroyDnMat

    function oxsparseDnMatGet(dnMatDescr, rows, cols, ld, values, valueType, order) &
        bind(C, name="oxsparseDnMatGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, ld
      type(c_ptr), intent(out) :: values
      integer(c_int), intent(out) :: valueType, order
      integer(c_int) :: res
    end function oxsparseDnMatGet

    function oxsparseConstDnMatGet(dnMatDescr, rows, cols, ld, values, valueType, order) &
        bind(C, name="oxsparseConstDnMatGet") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, ld
      type(c_ptr), intent(out) :: values
      integer(c_int), intent(out) :: valueType, order
      integer(c_int) :: res
    end function oxsparseConstDnMatGet

    function oxsparseDnMatGetValues(dnMatDescr, values) &
        bind(C, name="oxsparseDnMatGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnMatDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseDnMatGetValues

    function oxsparseConstDnMatGetValues(dnMatDescr, values) &
        bind(C, name="oxsparseConstDnMatGetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnMatDescr
      type(c_ptr), intent(out) :: values
      integer(c_int) :: res
    end function oxsparseConstDnMatGetValues

    function oxsparseDnMatSetValues(dnMatDescr, values) &
        bind(C, name="oxsparseDnMatSetValues") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: dnMatDescr, values
      integer(c_int) :: res
    end function oxsparseDnMatSetValues

    function oxsparseDnMatSetStridedBatch(dnMatDescr, batchCount, batchStride) &
        bind(C, name="oxsparseDnMatSetStridedBatch") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnMatDescr
      integer(c_int), value :: batchCount
      integer(c_int64_t), value :: batchStride
      integer(c_int) :: res
    end function oxsparseDnMatSetStridedBatch

    function oxsparseDnMatGetStridedBatch(dnMatDescr, batchCount, batchStride) &
        bind(C, name="oxsparseDnMatGetStridedBatch") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnMatDescr
      integer(c_int), intent(out) :: batchCount
      integer(c_int64_t), intent(out) :: batchStride
      integer(c_int) :: res
    end function oxsparseDnMatGetStridedBatch

    ! ------------------------------------------------------------------------------------
    ! Vector-vector: Axpby, Gather, Scatter, Rot, SpVV

    function oxsparseAxpby(handle, alpha, vecX, beta, vecY) &
        bind(C, name="oxsparseAxpby") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, vecX, beta, vecY
      integer(c_int) :: res
    end function oxsparseAxpby

    function oxsparseGather(handle, vecY, vecX) &
        bind(C, name="oxsparseGather") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, vecY, vecX
      integer(c_int) :: res
    end function oxsparseGather

    function oxsparseScatter(handle, vecX, vecY) &
        bind(C, name="oxsparseScatter") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, vecX, vecY
      integer(c_int) :: res
    end function oxsparseScatter

    function oxsparseRot(handle, c_coeff, s_coeff, vecX, vecY) &
        bind(C, name="oxsparseRot") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, c_coeff, s_coeff, vecX, vecY
      integer(c_int) :: res
    end function oxsparseRot

    function oxsparseSpVV_bufferSize(handle, opX, vecX, vecY, resultValue, computeType, &
            bufferSize) &
        bind(C, name="oxsparseSpVV_bufferSize") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opX
      type(c_ptr), value :: vecX, vecY, resultValue
      integer(c_int), value :: computeType
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseSpVV_bufferSize

    function oxsparseSpVV(handle, opX, vecX, vecY, resultValue, computeType, externalBuffer) &
        bind(C, name="oxsparseSpVV") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opX
      type(c_ptr), value :: vecX, vecY, resultValue
      integer(c_int), value :: computeType
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSpVV

    ! ------------------------------------------------------------------------------------
    ! SpMM: C = alpha * op(A) * op(B) + beta * C
    ! ------------------------------------------------------------------------------------
    function oxsparseSpMM_bufferSize(handle, opA, opB, alpha, matA, matB, beta, matC, &
            computeType, alg, bufferSize) &
        bind(C, name="oxsparseSpMM_bufferSize") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseSpMM_bufferSize

    function oxsparseSpMM_preprocess(handle, opA, opB, alpha, matA, matB, beta, matC, &
            computeType, alg, externalBuffer) &
        bind(C, name="oxsparseSpMM_preprocess") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSpMM_preprocess

    function oxsparseSpMM(handle, opA, opB, alpha, matA, matB, beta, matC, &
            computeType, alg, externalBuffer) &
        bind(C, name="oxsparseSpMM") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSpMM

    ! ------------------------------------------------------------------------------------
    ! SDDMM: C = alpha * (op(A) * op(B)) o spy(C) + beta * C, C sparse (CSR or BSR)
    ! ------------------------------------------------------------------------------------
    function oxsparseSDDMM_bufferSize(handle, opA, opB, alpha, matA, matB, beta, matC, &
            computeType, alg, bufferSize) &
        bind(C, name="oxsparseSDDMM_bufferSize") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseSDDMM_bufferSize

    function oxsparseSDDMM_preprocess(handle, opA, opB, alpha, matA, matB, beta, matC, &
            computeType, alg, externalBuffer) &
        bind(C, name="oxsparseSDDMM_preprocess") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSDDMM_preprocess

    function oxsparseSDDMM(handle, opA, opB, alpha, matA, matB, beta, matC, &
            computeType, alg, externalBuffer) &
        bind(C, name="oxsparseSDDMM") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSDDMM

    ! ------------------------------------------------------------------------------------
    ! BitTCF: a sparse matrix in the tensor cores' tiles, optionally reordered (oxsparse only)
    ! ------------------------------------------------------------------------------------
    function oxsparseCreateBitTcf(handle, opA, opB, matA, matB, matC, computeType, reorder, &
            tcf, rowOrder) &
        bind(C, name="oxsparseCreateBitTcf") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: matA, matB, matC
      integer(c_int), value :: computeType, reorder
      type(c_ptr), intent(out) :: tcf
      integer(c_int64_t), intent(out) :: rowOrder(*)
      integer(c_int) :: res
    end function oxsparseCreateBitTcf

    function oxsparseBitTcfGetInfo(tcf, rows, cols, nnz, reordered, tensorCores) &
        bind(C, name="oxsparseBitTcfGetInfo") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: tcf
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      integer(c_int), intent(out) :: reordered, tensorCores
      integer(c_int) :: res
    end function oxsparseBitTcfGetInfo

    function oxsparseSpMM_bitTcf(handle, alpha, tcf, matB, beta, matC) &
        bind(C, name="oxsparseSpMM_bitTcf") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, tcf, matB, beta, matC
      integer(c_int) :: res
    end function oxsparseSpMM_bitTcf

    function oxsparseDestroyBitTcf(tcf) &
        bind(C, name="oxsparseDestroyBitTcf") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: tcf
      integer(c_int) :: res
    end function oxsparseDestroyBitTcf

    ! ------------------------------------------------------------------------------------
    ! BRCV: a sparse matrix in bands of dense diagonals per row block (oxsparse only)
    ! ------------------------------------------------------------------------------------
    function oxsparseCreateBrcv(handle, matA, brcv) &
        bind(C, name="oxsparseCreateBrcv") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, matA
      type(c_ptr), intent(out) :: brcv
      integer(c_int) :: res
    end function oxsparseCreateBrcv

    function oxsparseBrcvGetInfo(brcv, rows, cols, nnz, bandValues, farNnz, widestBand) &
        bind(C, name="oxsparseBrcvGetInfo") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: brcv
      integer(c_int64_t), intent(out) :: rows, cols, nnz, bandValues, farNnz, widestBand
      integer(c_int) :: res
    end function oxsparseBrcvGetInfo

    function oxsparseSpMM_brcv(handle, opA, opB, alpha, brcv, matB, beta, matC, computeType) &
        bind(C, name="oxsparseSpMM_brcv") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, brcv, matB, beta, matC
      integer(c_int), value :: computeType
      integer(c_int) :: res
    end function oxsparseSpMM_brcv

    function oxsparseDestroyBrcv(brcv) &
        bind(C, name="oxsparseDestroyBrcv") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: brcv
      integer(c_int) :: res
    end function oxsparseDestroyBrcv

    ! SR-BCRS: int4/int8/int16 vectors of 2, 4 or 8 rows for integer tensor cores (oxsparse only)
    ! ------------------------------------------------------------------------------------
    function oxsparseCreateSrBcrs(handle, matA, vectorLength, srBcrs) &
        bind(C, name="oxsparseCreateSrBcrs") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, matA
      integer(c_int), value :: vectorLength
      type(c_ptr), intent(out) :: srBcrs
      integer(c_int) :: res
    end function oxsparseCreateSrBcrs

    function oxsparseCreateSrBcrsFromArrays(handle, rows, cols, vectorLength, vectors, vectorOffsets, &
            vectorColumns, values, valueType, srBcrs) &
        bind(C, name="oxsparseCreateSrBcrsFromArrays") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: handle
      integer(c_int64_t), value :: rows, cols
      integer(c_int), value :: vectorLength
      integer(c_int64_t), value :: vectors
      type(c_ptr), value :: vectorOffsets, vectorColumns, values
      integer(c_int), value :: valueType
      type(c_ptr), intent(out) :: srBcrs
      integer(c_int) :: res
    end function oxsparseCreateSrBcrsFromArrays

    function oxsparseSrBcrsGetInfo(srBcrs, rows, cols, nnz, vectorLength, stride, vectors, &
            vectorOffsets, vectorColumns, values) &
        bind(C, name="oxsparseSrBcrsGetInfo") result(res)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: srBcrs
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      integer(c_int), intent(out) :: vectorLength, stride
      integer(c_int64_t), intent(out) :: vectors
      type(c_ptr), intent(out) :: vectorOffsets, vectorColumns, values
      integer(c_int) :: res
    end function oxsparseSrBcrsGetInfo

    function oxsparseSpMM_srBcrs_bufferSize(handle, alpha, srBcrs, matB, beta, matC, computeType, &
            bufferSize) &
        bind(C, name="oxsparseSpMM_srBcrs_bufferSize") result(res)
      import :: c_int, c_size_t, c_ptr
      type(c_ptr), value :: handle, alpha, srBcrs, matB, beta, matC
      integer(c_int), value :: computeType
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseSpMM_srBcrs_bufferSize

    function oxsparseSpMM_srBcrs_preprocess(handle, alpha, srBcrs, matB, beta, matC, computeType, &
            externalBuffer) &
        bind(C, name="oxsparseSpMM_srBcrs_preprocess") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, srBcrs, matB, beta, matC
      integer(c_int), value :: computeType
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSpMM_srBcrs_preprocess

    function oxsparseSpMM_srBcrs(handle, alpha, srBcrs, matB, beta, matC, computeType, &
            externalBuffer) &
        bind(C, name="oxsparseSpMM_srBcrs") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, srBcrs, matB, beta, matC
      integer(c_int), value :: computeType
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSpMM_srBcrs

    function oxsparseDestroySrBcrs(srBcrs) &
        bind(C, name="oxsparseDestroySrBcrs") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: srBcrs
      integer(c_int) :: res
    end function oxsparseDestroySrBcrs

    function oxsparseSrBcrsGetValueType(srBcrs, valueType) &
        bind(C, name="oxsparseSrBcrsGetValueType") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: srBcrs
      integer(c_int), intent(out) :: valueType
      integer(c_int) :: res
    end function oxsparseSrBcrsGetValueType

    function oxsparseSrBcrsSetRowScale(handle, srBcrs, rowScale) &
        bind(C, name="oxsparseSrBcrsSetRowScale") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, srBcrs, rowScale
      integer(c_int) :: res
    end function oxsparseSrBcrsSetRowScale

    function oxsparseSDDMM_srBcrs_bufferSize(handle, alpha, matA, matB, beta, srBcrs, vecC, &
            computeType, bufferSize) &
        bind(C, name="oxsparseSDDMM_srBcrs_bufferSize") result(res)
      import :: c_int, c_size_t, c_ptr
      type(c_ptr), value :: handle, alpha, matA, matB, beta, srBcrs, vecC
      integer(c_int), value :: computeType
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseSDDMM_srBcrs_bufferSize

    function oxsparseSDDMM_srBcrs_preprocess(handle, alpha, matA, matB, beta, srBcrs, vecC, &
            computeType, externalBuffer) &
        bind(C, name="oxsparseSDDMM_srBcrs_preprocess") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, matA, matB, beta, srBcrs, vecC
      integer(c_int), value :: computeType
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSDDMM_srBcrs_preprocess

    function oxsparseSDDMM_srBcrs(handle, alpha, matA, matB, beta, srBcrs, vecC, computeType, &
            externalBuffer) &
        bind(C, name="oxsparseSDDMM_srBcrs") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, matA, matB, beta, srBcrs, vecC
      integer(c_int), value :: computeType
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSDDMM_srBcrs

    ! ------------------------------------------------------------------------------------
    ! SpMV: y = alpha * op(A) * x + beta * y
    ! ------------------------------------------------------------------------------------
    function oxsparseSpMV_bufferSize(handle, opA, alpha, matA, vecX, beta, vecY, &
            computeType, alg, bufferSize) &
        bind(C, name="oxsparseSpMV_bufferSize") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA
      type(c_ptr), value :: alpha, matA, vecX, beta, vecY
      integer(c_int), value :: computeType, alg
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseSpMV_bufferSize

    function oxsparseSpMV_preprocess(handle, opA, alpha, matA, vecX, beta, vecY, &
            computeType, alg, externalBuffer) &
        bind(C, name="oxsparseSpMV_preprocess") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA
      type(c_ptr), value :: alpha, matA, vecX, beta, vecY
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSpMV_preprocess

    function oxsparseSpMV(handle, opA, alpha, matA, vecX, beta, vecY, &
            computeType, alg, externalBuffer) &
        bind(C, name="oxsparseSpMV") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA
      type(c_ptr), value :: alpha, matA, vecX, beta, vecY
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSpMV

    ! ------------------------------------------------------------------------------------
    ! Legacy BSR products (deprecated in cuSPARSE, still exported): y = alpha * A * x + beta * y
    ! (bsrxmv: on the block rows a mask lists) and C = alpha * A * op(B) + beta * C, A in BSR with
    ! square blocks, B and C column-major
    ! ------------------------------------------------------------------------------------
    function oxsparseSbsrmv(handle, dirA, transA, mb, nb, nnzb, alpha, descrA, &
            bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseSbsrmv") result(res)
      import :: c_int, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, mb, nb, nnzb
      real(c_float) :: alpha
      type(c_ptr), value :: descrA
      real(c_float) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      real(c_float) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseSbsrmv

    function oxsparseDbsrmv(handle, dirA, transA, mb, nb, nnzb, alpha, descrA, &
            bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseDbsrmv") result(res)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, mb, nb, nnzb
      real(c_double) :: alpha
      type(c_ptr), value :: descrA
      real(c_double) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      real(c_double) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseDbsrmv

    function oxsparseCbsrmv(handle, dirA, transA, mb, nb, nnzb, alpha, descrA, &
            bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseCbsrmv") result(res)
      import :: c_int, c_ptr, c_float_complex
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, mb, nb, nnzb
      complex(c_float_complex) :: alpha
      type(c_ptr), value :: descrA
      complex(c_float_complex) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      complex(c_float_complex) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseCbsrmv

    function oxsparseZbsrmv(handle, dirA, transA, mb, nb, nnzb, alpha, descrA, &
            bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseZbsrmv") result(res)
      import :: c_int, c_ptr, c_double_complex
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, mb, nb, nnzb
      complex(c_double_complex) :: alpha
      type(c_ptr), value :: descrA
      complex(c_double_complex) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      complex(c_double_complex) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseZbsrmv

    function oxsparseSbsrxmv(handle, dirA, transA, sizeOfMask, mb, nb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedMaskPtrA, bsrSortedRowPtrA, bsrSortedEndPtrA, &
            bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseSbsrxmv") result(res)
      import :: c_int, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, sizeOfMask, mb, nb, nnzb
      real(c_float) :: alpha
      type(c_ptr), value :: descrA
      real(c_float) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedMaskPtrA(*), bsrSortedRowPtrA(*), bsrSortedEndPtrA(*)
      integer(c_int) :: bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      real(c_float) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseSbsrxmv

    function oxsparseDbsrxmv(handle, dirA, transA, sizeOfMask, mb, nb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedMaskPtrA, bsrSortedRowPtrA, bsrSortedEndPtrA, &
            bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseDbsrxmv") result(res)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, sizeOfMask, mb, nb, nnzb
      real(c_double) :: alpha
      type(c_ptr), value :: descrA
      real(c_double) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedMaskPtrA(*), bsrSortedRowPtrA(*), bsrSortedEndPtrA(*)
      integer(c_int) :: bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      real(c_double) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseDbsrxmv

    function oxsparseCbsrxmv(handle, dirA, transA, sizeOfMask, mb, nb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedMaskPtrA, bsrSortedRowPtrA, bsrSortedEndPtrA, &
            bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseCbsrxmv") result(res)
      import :: c_int, c_ptr, c_float_complex
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, sizeOfMask, mb, nb, nnzb
      complex(c_float_complex) :: alpha
      type(c_ptr), value :: descrA
      complex(c_float_complex) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedMaskPtrA(*), bsrSortedRowPtrA(*), bsrSortedEndPtrA(*)
      integer(c_int) :: bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      complex(c_float_complex) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseCbsrxmv

    function oxsparseZbsrxmv(handle, dirA, transA, sizeOfMask, mb, nb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedMaskPtrA, bsrSortedRowPtrA, bsrSortedEndPtrA, &
            bsrSortedColIndA, blockDim, x, beta, y) &
        bind(C, name="oxsparseZbsrxmv") result(res)
      import :: c_int, c_ptr, c_double_complex
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, sizeOfMask, mb, nb, nnzb
      complex(c_double_complex) :: alpha
      type(c_ptr), value :: descrA
      complex(c_double_complex) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedMaskPtrA(*), bsrSortedRowPtrA(*), bsrSortedEndPtrA(*)
      integer(c_int) :: bsrSortedColIndA(*)
      integer(c_int), value :: blockDim
      complex(c_double_complex) :: x(*), beta, y(*)
      integer(c_int) :: res
    end function oxsparseZbsrxmv

    function oxsparseSbsrmm(handle, dirA, transA, transB, mb, n, kb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockSize, B, ldb, &
            beta, C, ldc) &
        bind(C, name="oxsparseSbsrmm") result(res)
      import :: c_int, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, transB, mb, n, kb, nnzb
      real(c_float) :: alpha
      type(c_ptr), value :: descrA
      real(c_float) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockSize
      real(c_float) :: B(*)
      integer(c_int), value :: ldb
      real(c_float) :: beta, C(*)
      integer(c_int), value :: ldc
      integer(c_int) :: res
    end function oxsparseSbsrmm

    function oxsparseDbsrmm(handle, dirA, transA, transB, mb, n, kb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockSize, B, ldb, &
            beta, C, ldc) &
        bind(C, name="oxsparseDbsrmm") result(res)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, transB, mb, n, kb, nnzb
      real(c_double) :: alpha
      type(c_ptr), value :: descrA
      real(c_double) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockSize
      real(c_double) :: B(*)
      integer(c_int), value :: ldb
      real(c_double) :: beta, C(*)
      integer(c_int), value :: ldc
      integer(c_int) :: res
    end function oxsparseDbsrmm

    function oxsparseCbsrmm(handle, dirA, transA, transB, mb, n, kb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockSize, B, ldb, &
            beta, C, ldc) &
        bind(C, name="oxsparseCbsrmm") result(res)
      import :: c_int, c_ptr, c_float_complex
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, transB, mb, n, kb, nnzb
      complex(c_float_complex) :: alpha
      type(c_ptr), value :: descrA
      complex(c_float_complex) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockSize
      complex(c_float_complex) :: B(*)
      integer(c_int), value :: ldb
      complex(c_float_complex) :: beta, C(*)
      integer(c_int), value :: ldc
      integer(c_int) :: res
    end function oxsparseCbsrmm

    function oxsparseZbsrmm(handle, dirA, transA, transB, mb, n, kb, nnzb, alpha, &
            descrA, bsrSortedValA, bsrSortedRowPtrA, bsrSortedColIndA, blockSize, B, ldb, &
            beta, C, ldc) &
        bind(C, name="oxsparseZbsrmm") result(res)
      import :: c_int, c_ptr, c_double_complex
      type(c_ptr), value :: handle
      integer(c_int), value :: dirA, transA, transB, mb, n, kb, nnzb
      complex(c_double_complex) :: alpha
      type(c_ptr), value :: descrA
      complex(c_double_complex) :: bsrSortedValA(*)
      integer(c_int) :: bsrSortedRowPtrA(*), bsrSortedColIndA(*)
      integer(c_int), value :: blockSize
      complex(c_double_complex) :: B(*)
      integer(c_int), value :: ldb
      complex(c_double_complex) :: beta, C(*)
      integer(c_int), value :: ldc
      integer(c_int) :: res
    end function oxsparseZbsrmm

    ! ------------------------------------------------------------------------------------
    ! SparseToDense

    function oxsparseSparseToDense_bufferSize(handle, matA, matB, alg, bufferSize) &
        bind(C, name="oxsparseSparseToDense_bufferSize") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, matA, matB
      integer(c_int), value :: alg
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseSparseToDense_bufferSize

    function oxsparseSparseToDense(handle, matA, matB, alg, externalBuffer) &
        bind(C, name="oxsparseSparseToDense") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, matA, matB
      integer(c_int), value :: alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseSparseToDense

    ! ------------------------------------------------------------------------------------
    ! Index sorts (32-bit indices, device arrays; P is permuted alongside)

    function oxsparseXcsrsort_bufferSizeExt(handle, m, n, nnz, csrRowPtrA, csrColIndA, pBufferSizeInBytes) &
        bind(C, name="oxsparseXcsrsort_bufferSizeExt") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      integer(c_int), intent(in) :: csrRowPtrA(*), csrColIndA(*)
      integer(c_size_t), intent(out) :: pBufferSizeInBytes
      integer(c_int) :: res
    end function oxsparseXcsrsort_bufferSizeExt

    function oxsparseXcsrsort(handle, m, n, nnz, descrA, csrRowPtrA, csrColIndA, P, pBuffer) &
        bind(C, name="oxsparseXcsrsort") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      type(c_ptr), value :: descrA, pBuffer
      integer(c_int), intent(in) :: csrRowPtrA(*)
      integer(c_int), intent(inout) :: csrColIndA(*), P(*)
      integer(c_int) :: res
    end function oxsparseXcsrsort

    function oxsparseXcscsort_bufferSizeExt(handle, m, n, nnz, cscColPtrA, cscRowIndA, pBufferSizeInBytes) &
        bind(C, name="oxsparseXcscsort_bufferSizeExt") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      integer(c_int), intent(in) :: cscColPtrA(*), cscRowIndA(*)
      integer(c_size_t), intent(out) :: pBufferSizeInBytes
      integer(c_int) :: res
    end function oxsparseXcscsort_bufferSizeExt

    function oxsparseXcscsort(handle, m, n, nnz, descrA, cscColPtrA, cscRowIndA, P, pBuffer) &
        bind(C, name="oxsparseXcscsort") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      type(c_ptr), value :: descrA, pBuffer
      integer(c_int), intent(in) :: cscColPtrA(*)
      integer(c_int), intent(inout) :: cscRowIndA(*), P(*)
      integer(c_int) :: res
    end function oxsparseXcscsort

    function oxsparseXcoosort_bufferSizeExt(handle, m, n, nnz, cooRowsA, cooColsA, pBufferSizeInBytes) &
        bind(C, name="oxsparseXcoosort_bufferSizeExt") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      integer(c_int), intent(in) :: cooRowsA(*), cooColsA(*)
      integer(c_size_t), intent(out) :: pBufferSizeInBytes
      integer(c_int) :: res
    end function oxsparseXcoosort_bufferSizeExt

    function oxsparseXcoosortByRow(handle, m, n, nnz, cooRowsA, cooColsA, P, pBuffer) &
        bind(C, name="oxsparseXcoosortByRow") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      type(c_ptr), value :: pBuffer
      integer(c_int), intent(inout) :: cooRowsA(*), cooColsA(*), P(*)
      integer(c_int) :: res
    end function oxsparseXcoosortByRow

    function oxsparseXcoosortByColumn(handle, m, n, nnz, cooRowsA, cooColsA, P, pBuffer) &
        bind(C, name="oxsparseXcoosortByColumn") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      type(c_ptr), value :: pBuffer
      integer(c_int), intent(inout) :: cooRowsA(*), cooColsA(*), P(*)
      integer(c_int) :: res
    end function oxsparseXcoosortByColumn

    ! ------------------------------------------------------------------------------------
    ! Logger: where the library's messages go (FILE* and const char* as type(c_ptr); the
    ! callback as c_funloc of a bind(C) subroutine(logLevel, functionName, message))
    ! ------------------------------------------------------------------------------------
    function oxsparseLoggerSetCallback(callback) &
        bind(C, name="oxsparseLoggerSetCallback") result(res)
      import :: c_int, c_funptr
      type(c_funptr), value :: callback
      integer(c_int) :: res
    end function oxsparseLoggerSetCallback

    function oxsparseLoggerSetFile(file) &
        bind(C, name="oxsparseLoggerSetFile") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: file
      integer(c_int) :: res
    end function oxsparseLoggerSetFile

    function oxsparseLoggerOpenFile(logFile) &
        bind(C, name="oxsparseLoggerOpenFile") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: logFile
      integer(c_int) :: res
    end function oxsparseLoggerOpenFile

    function oxsparseLoggerSetLevel(level) &
        bind(C, name="oxsparseLoggerSetLevel") result(res)
      import :: c_int
      integer(c_int), value :: level
      integer(c_int) :: res
    end function oxsparseLoggerSetLevel

    function oxsparseLoggerSetMask(mask) &
        bind(C, name="oxsparseLoggerSetMask") result(res)
      import :: c_int
      integer(c_int), value :: mask
      integer(c_int) :: res
    end function oxsparseLoggerSetMask

    function oxsparseLoggerForceDisable() &
        bind(C, name="oxsparseLoggerForceDisable") result(res)
      import :: c_int
      integer(c_int) :: res
    end function oxsparseLoggerForceDisable

    ! ------------------------------------------------------------------------------------
    ! Legacy matrix descriptor (the getters return the field, 0 for a descriptor not live)
    ! ------------------------------------------------------------------------------------
    function oxsparseCreateMatDescr(descrA) &
        bind(C, name="oxsparseCreateMatDescr") result(res)
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: descrA
      integer(c_int) :: res
    end function oxsparseCreateMatDescr

    function oxsparseDestroyMatDescr(descrA) &
        bind(C, name="oxsparseDestroyMatDescr") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int) :: res
    end function oxsparseDestroyMatDescr

    function oxsparseSetMatType(descrA, type_) &
        bind(C, name="oxsparseSetMatType") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int), value :: type_
      integer(c_int) :: res
    end function oxsparseSetMatType

    function oxsparseGetMatType(descrA) &
        bind(C, name="oxsparseGetMatType") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int) :: res
    end function oxsparseGetMatType

    function oxsparseSetMatFillMode(descrA, fillMode) &
        bind(C, name="oxsparseSetMatFillMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int), value :: fillMode
      integer(c_int) :: res
    end function oxsparseSetMatFillMode

    function oxsparseGetMatFillMode(descrA) &
        bind(C, name="oxsparseGetMatFillMode") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int) :: res
    end function oxsparseGetMatFillMode

    function oxsparseSetMatDiagType(descrA, diagType) &
        bind(C, name="oxsparseSetMatDiagType") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int), value :: diagType
      integer(c_int) :: res
    end function oxsparseSetMatDiagType

    function oxsparseGetMatDiagType(descrA) &
        bind(C, name="oxsparseGetMatDiagType") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int) :: res
    end function oxsparseGetMatDiagType

    function oxsparseSetMatIndexBase(descrA, base) &
        bind(C, name="oxsparseSetMatIndexBase") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int), value :: base
      integer(c_int) :: res
    end function oxsparseSetMatIndexBase

    function oxsparseGetMatIndexBase(descrA) &
        bind(C, name="oxsparseGetMatIndexBase") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: descrA
      integer(c_int) :: res
    end function oxsparseGetMatIndexBase

    ! ------------------------------------------------------------------------------------
    ! Index helpers: COO rows <-> CSR offsets, identity permutation. The arrays are device
    ! memory, passed by address (a CUDA Fortran device array, or c_f_pointer of a device
    ! c_ptr); the host never reads them.
    ! ------------------------------------------------------------------------------------
    function oxsparseCreateIdentityPermutation(handle, n, p) &
        bind(C, name="oxsparseCreateIdentityPermutation") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: n
      integer(c_int) :: p(*)
      integer(c_int) :: res
    end function oxsparseCreateIdentityPermutation

    function oxsparseXcoo2csr(handle, cooRowInd, nnz, m, csrRowPtr, idxBase) &
        bind(C, name="oxsparseXcoo2csr") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int) :: cooRowInd(*)
      integer(c_int), value :: nnz, m
      integer(c_int) :: csrRowPtr(*)
      integer(c_int), value :: idxBase
      integer(c_int) :: res
    end function oxsparseXcoo2csr

    function oxsparseXcsr2coo(handle, csrRowPtr, nnz, m, cooRowInd, idxBase) &
        bind(C, name="oxsparseXcsr2coo") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int) :: csrRowPtr(*)
      integer(c_int), value :: nnz, m
      integer(c_int) :: cooRowInd(*)
      integer(c_int), value :: idxBase
      integer(c_int) :: res
    end function oxsparseXcsr2coo
    ! DenseToSparse

    function oxsparseDenseToSparse_bufferSize(handle, matA, matB, alg, bufferSize) &
        bind(C, name="oxsparseDenseToSparse_bufferSize") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, matA, matB
      integer(c_int), value :: alg
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseDenseToSparse_bufferSize

    function oxsparseDenseToSparse_analysis(handle, matA, matB, alg, externalBuffer) &
        bind(C, name="oxsparseDenseToSparse_analysis") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, matA, matB
      integer(c_int), value :: alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseDenseToSparse_analysis

    function oxsparseDenseToSparse_convert(handle, matA, matB, alg, externalBuffer) &
        bind(C, name="oxsparseDenseToSparse_convert") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, matA, matB
      integer(c_int), value :: alg
      type(c_ptr), value :: externalBuffer
      integer(c_int) :: res
    end function oxsparseDenseToSparse_convert

    ! ------------------------------------------------------------------------------------
    ! Csr2cscEx2 (values by c_ptr; the int index arrays by reference, as device arrays)

    function oxsparseCsr2cscEx2_bufferSize(handle, m, n, nnz, csrVal, csrRowPtr, csrColInd, &
        cscVal, cscColPtr, cscRowInd, valType, copyValues, idxBase, alg, bufferSize) &
        bind(C, name="oxsparseCsr2cscEx2_bufferSize") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      type(c_ptr), value :: csrVal, cscVal
      integer(c_int) :: csrRowPtr(*), csrColInd(*), cscColPtr(*), cscRowInd(*)
      integer(c_int), value :: valType, copyValues, idxBase, alg
      integer(c_size_t), intent(out) :: bufferSize
      integer(c_int) :: res
    end function oxsparseCsr2cscEx2_bufferSize

    function oxsparseCsr2cscEx2(handle, m, n, nnz, csrVal, csrRowPtr, csrColInd, &
        cscVal, cscColPtr, cscRowInd, valType, copyValues, idxBase, alg, buffer) &
        bind(C, name="oxsparseCsr2cscEx2") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, nnz
      type(c_ptr), value :: csrVal, cscVal
      integer(c_int) :: csrRowPtr(*), csrColInd(*), cscColPtr(*), cscRowInd(*)
      integer(c_int), value :: valType, copyValues, idxBase, alg
      type(c_ptr), value :: buffer
      integer(c_int) :: res
    end function oxsparseCsr2cscEx2

  end interface

end module oxsparse
