! Fortran consumer test of the shipped module (include/oxsparse.f90).
! Host part: error names through c_f_pointer, library properties, a 1-based CSR
! descriptor built on host arrays (descriptors never dereference data) and read
! back, and invalid enum values. With a GPU: SparseToDense of a small 1-based CSR
! matrix into a column-major dense matrix, against a Fortran reference.
! Without one, oxsparseCreate returns NOT_INITIALIZED and the GPU part prints
! "SKIP: no GPU".
program fortran_api
  use, intrinsic :: iso_c_binding
  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
  use oxsparse
  implicit none

  ! The few CUDA runtime functions needed, by their C prototypes.
  interface
    function cudaGetDeviceCount(count) bind(C, name="cudaGetDeviceCount") result(res)
      import :: c_int
      integer(c_int), intent(out) :: count
      integer(c_int) :: res
    end function cudaGetDeviceCount
    function cudaMalloc(ptr, bytes) bind(C, name="cudaMalloc") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
      integer(c_int) :: res
    end function cudaMalloc
    function cudaFree(ptr) bind(C, name="cudaFree") result(res)
      import :: c_int, c_ptr
      type(c_ptr), value :: ptr
      integer(c_int) :: res
    end function cudaFree
    function cudaMemcpy(dst, src, bytes, kind) bind(C, name="cudaMemcpy") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
      integer(c_int) :: res
    end function cudaMemcpy
    function cudaMemset(ptr, byte, bytes) bind(C, name="cudaMemset") result(res)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: ptr
      integer(c_int), value :: byte
      integer(c_size_t), value :: bytes
      integer(c_int) :: res
    end function cudaMemset
  end interface
  integer(c_int), parameter :: cudaSuccess = 0
  integer(c_int), parameter :: cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2

  integer :: failures = 0

  call test_strings_and_properties()
  call test_csr_descriptor()
  call test_mat_descr()
  call test_gpu()

  if (failures > 0) then
    print '(a,i0,a)', 'fortran_api: ', failures, ' check(s) FAILED'
    error stop 1
  end if
  print '(a)', 'fortran_api: all checks passed'

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(2a)', 'check failed: ', what
    end if
  end subroutine check

  subroutine expect(status, want, what)
    integer(c_int), intent(in) :: status, want
    character(len=*), intent(in) :: what
    if (status /= want) then
      failures = failures + 1
      print '(3a,i0,2a)', 'check failed: ', what, ' returned ', status, ', expected ', &
          c_string(oxsparseGetErrorName(want))
    end if
  end subroutine expect

  !> The NUL-terminated C string at p, as a Fortran string.
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    if (.not. c_associated(p)) then
      s = '(null)'
      return
    end if
    call c_f_pointer(p, chars, [1024])
    n = 0
    do while (chars(n + 1) /= c_null_char)
      n = n + 1
    end do
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function c_string

  subroutine test_strings_and_properties()
    integer(c_int) :: value
    call check(c_string(oxsparseGetErrorName(OXSPARSE_STATUS_INVALID_VALUE)) == &
               'OXSPARSE_STATUS_INVALID_VALUE', 'GetErrorName(INVALID_VALUE)')
    call check(c_string(oxsparseGetErrorString(OXSPARSE_STATUS_NOT_INITIALIZED)) == &
               'initialization error', 'GetErrorString(NOT_INITIALIZED)')
    call check(c_string(oxsparseGetErrorName(99_c_int)) == 'unrecognized error code', &
               'GetErrorName(99)')
    value = -1
    call expect(oxsparseGetProperty(MAJOR_VERSION, value), OXSPARSE_STATUS_SUCCESS, 'GetProperty')
    call check(value == OXSPARSE_VER_MAJOR, 'major version')
    call expect(oxsparseGetProperty(MINOR_VERSION, value), OXSPARSE_STATUS_SUCCESS, 'GetProperty')
    call check(value == OXSPARSE_VER_MINOR, 'minor version')
    call expect(oxsparseGetProperty(PATCH_LEVEL, value), OXSPARSE_STATUS_SUCCESS, 'GetProperty')
    call check(value == OXSPARSE_VER_PATCH, 'patch level')
    call expect(oxsparseGetProperty(3_c_int, value), OXSPARSE_STATUS_INVALID_VALUE, &
                'GetProperty(3)')

    ! math mode: a NULL handle is refused before anything else is looked at
    value = -1
    call expect(oxsparseSetMathMode(c_null_ptr, OXSPARSE_TF32_TENSOR_OP_MATH), &
                OXSPARSE_STATUS_NOT_INITIALIZED, 'SetMathMode(NULL)')
    call expect(oxsparseGetMathMode(c_null_ptr, value), OXSPARSE_STATUS_NOT_INITIALIZED, &
                'GetMathMode(NULL)')
    call check(value == -1, 'GetMathMode(NULL) leaves its output alone')
    call check(OXSPARSE_DEFAULT_MATH == 0 .and. OXSPARSE_TF32_TENSOR_OP_MATH == 3 .and. &
               OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH == 4, 'math mode values')
  end subroutine test_strings_and_properties

  subroutine test_csr_descriptor()
    integer(c_int), target :: row_ptr(4), col_ind(5)
    real(c_double), target :: val(5)
    type(c_ptr) :: mat, p_rows, p_cols, p_vals
    integer(c_int64_t) :: rows, cols, nnz
    integer(c_int) :: row_type, col_type, base, value_type, format

    call expect(oxsparseCreateCsr(mat, 3_c_int64_t, 4_c_int64_t, 5_c_int64_t, c_loc(row_ptr), &
                                  c_loc(col_ind), c_loc(val), OXSPARSE_INDEX_32I, &
                                  OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ONE, CUDA_R_64F), &
                OXSPARSE_STATUS_SUCCESS, 'CreateCsr')
    call expect(oxsparseCsrGet(mat, rows, cols, nnz, p_rows, p_cols, p_vals, row_type, &
                               col_type, base, value_type), OXSPARSE_STATUS_SUCCESS, 'CsrGet')
    call check(rows == 3 .and. cols == 4 .and. nnz == 5, 'CsrGet sizes')
    call check(c_associated(p_rows, c_loc(row_ptr)) .and. c_associated(p_cols, c_loc(col_ind)) &
               .and. c_associated(p_vals, c_loc(val)), 'CsrGet pointers')
    call check(row_type == OXSPARSE_INDEX_32I .and. col_type == OXSPARSE_INDEX_32I, &
               'CsrGet index types')
    call check(base == OXSPARSE_INDEX_BASE_ONE .and. value_type == CUDA_R_64F, &
               'CsrGet base and value type')
    call expect(oxsparseSpMatGetFormat(mat, format), OXSPARSE_STATUS_SUCCESS, 'SpMatGetFormat')
    call check(format == OXSPARSE_FORMAT_CSR, 'format is CSR')
    call expect(oxsparseDestroySpMat(mat), OXSPARSE_STATUS_SUCCESS, 'DestroySpMat')
    call expect(oxsparseDestroySpMat(c_null_ptr), OXSPARSE_STATUS_SUCCESS, 'DestroySpMat(NULL)')

    ! out-of-range enums
    call expect(oxsparseCreateCsr(mat, 3_c_int64_t, 4_c_int64_t, 5_c_int64_t, c_loc(row_ptr), &
                                  c_loc(col_ind), c_loc(val), OXSPARSE_INDEX_32I, &
                                  OXSPARSE_INDEX_32I, 7_c_int, CUDA_R_64F), &
                OXSPARSE_STATUS_INVALID_VALUE, 'CreateCsr(idxBase=7)')
    call expect(oxsparseCreateDnMat(mat, 3_c_int64_t, 4_c_int64_t, 3_c_int64_t, c_loc(val), &
                                    CUDA_R_64F, 0_c_int), &
                OXSPARSE_STATUS_INVALID_VALUE, 'CreateDnMat(order=0)')
  end subroutine test_csr_descriptor

  ! The legacy matrix descriptor: defaults, a field set and read back, a refused value.
  subroutine test_mat_descr()
    type(c_ptr) :: d
    call expect(oxsparseCreateMatDescr(d), OXSPARSE_STATUS_SUCCESS, 'CreateMatDescr')
    call check(oxsparseGetMatType(d) == OXSPARSE_MATRIX_TYPE_GENERAL, 'default matrix type')
    call check(oxsparseGetMatIndexBase(d) == OXSPARSE_INDEX_BASE_ZERO, 'default index base')
    call expect(oxsparseSetMatIndexBase(d, OXSPARSE_INDEX_BASE_ONE), OXSPARSE_STATUS_SUCCESS, &
        'SetMatIndexBase')
    call expect(oxsparseSetMatFillMode(d, 5_c_int), OXSPARSE_STATUS_INVALID_VALUE, 'SetMatFillMode 5')
    call check(oxsparseGetMatIndexBase(d) == OXSPARSE_INDEX_BASE_ONE, 'index base set')
    call check(oxsparseGetMatFillMode(d) == OXSPARSE_FILL_MODE_LOWER, 'fill mode kept')
    call expect(oxsparseDestroyMatDescr(d), OXSPARSE_STATUS_SUCCESS, 'DestroyMatDescr')
  end subroutine test_mat_descr

  subroutine test_gpu()
    integer(c_int64_t), parameter :: m = 3, n = 4, nz = 5, ld = m + 1
    ! 1-based CSR:  [ 1 0 2 0 ; 0 0 0 3 ; 4 5 0 0 ]
    integer(c_int), target :: row_ptr(m + 1) = [1, 3, 4, 6]
    integer(c_int), target :: col_ind(nz) = [1, 3, 4, 1, 2]
    real(c_double), target :: val(nz) = [1.5_c_double, -2.0_c_double, 3.25_c_double, &
                                         4.0_c_double, -5.5_c_double]
    real(c_double), target :: dense(ld, n)
    real(c_double) :: want(ld, n)
    type(c_ptr) :: handle, mat_a, mat_b, d_rows, d_cols, d_vals, d_dense, d_buf
    integer(c_size_t) :: buffer_size, dense_bytes
    integer(c_int) :: status, devices, cuda_status, math
    integer :: i, j, k

    cuda_status = cudaGetDeviceCount(devices)
    if (cuda_status /= cudaSuccess) devices = 0
    status = oxsparseCreate(handle)
    if (status == OXSPARSE_STATUS_NOT_INITIALIZED) then
      print '(a)', 'SKIP: no GPU (oxsparseCreate returned OXSPARSE_STATUS_NOT_INITIALIZED): ' // &
          'SparseToDense skipped'
      call check(devices == 0, 'oxsparseCreate failed although cudaGetDeviceCount sees a GPU')
      return
    end if
    call expect(status, OXSPARSE_STATUS_SUCCESS, 'oxsparseCreate')
    if (status /= OXSPARSE_STATUS_SUCCESS) return

    ! math mode round trip and refusals (SparseToDense below does not depend on it)
    call expect(oxsparseSetMathMode(handle, OXSPARSE_TF32_TENSOR_OP_MATH), &
                OXSPARSE_STATUS_SUCCESS, 'SetMathMode(TF32)')
    call expect(oxsparseGetMathMode(handle, math), OXSPARSE_STATUS_SUCCESS, 'GetMathMode')
    call check(math == OXSPARSE_TF32_TENSOR_OP_MATH, 'math mode reads back as TF32')
    call expect(oxsparseSetMathMode(handle, 1_c_int), OXSPARSE_STATUS_INVALID_VALUE, &
                'SetMathMode(1)')
    call expect(oxsparseSetMathMode(handle, 99_c_int), OXSPARSE_STATUS_INVALID_VALUE, &
                'SetMathMode(99)')
    call expect(oxsparseSetMathMode(handle, OXSPARSE_DEFAULT_MATH), OXSPARSE_STATUS_SUCCESS, &
                'SetMathMode(DEFAULT)')
    call expect(oxsparseGetMathMode(handle, math), OXSPARSE_STATUS_SUCCESS, 'GetMathMode')
    call check(math == OXSPARSE_DEFAULT_MATH, 'math mode reads back as DEFAULT')

    ! reorder mode round trip and refusal
    call expect(oxsparseSetReorderMode(handle, OXSPARSE_REORDER_DATA_AFFINITY), &
                OXSPARSE_STATUS_SUCCESS, 'SetReorderMode(DATA_AFFINITY)')
    call expect(oxsparseGetReorderMode(handle, math), OXSPARSE_STATUS_SUCCESS, 'GetReorderMode')
    call check(math == OXSPARSE_REORDER_DATA_AFFINITY, 'reorder mode reads back as DATA_AFFINITY')
    call expect(oxsparseSetReorderMode(handle, 2_c_int), OXSPARSE_STATUS_INVALID_VALUE, &
                'SetReorderMode(2)')
    call expect(oxsparseSetReorderMode(handle, OXSPARSE_REORDER_NONE), OXSPARSE_STATUS_SUCCESS, &
                'SetReorderMode(NONE)')

    ! reference; the last row of each column is padding (ld = m + 1)
    want = 0.0_c_double
    want(ld, :) = ieee_value_nan()
    do i = 1, int(m)
      do k = row_ptr(i), row_ptr(i + 1) - 1
        want(i, col_ind(k)) = val(k)
      end do
    end do

    dense_bytes = int(ld * n, c_size_t) * c_sizeof(dense(1, 1))
    call cuda_check(cudaMalloc(d_rows, c_sizeof(row_ptr)))
    call cuda_check(cudaMalloc(d_cols, c_sizeof(col_ind)))
    call cuda_check(cudaMalloc(d_vals, c_sizeof(val)))
    call cuda_check(cudaMalloc(d_dense, dense_bytes))
    call cuda_check(cudaMemcpy(d_rows, c_loc(row_ptr), c_sizeof(row_ptr), cudaMemcpyHostToDevice))
    call cuda_check(cudaMemcpy(d_cols, c_loc(col_ind), c_sizeof(col_ind), cudaMemcpyHostToDevice))
    call cuda_check(cudaMemcpy(d_vals, c_loc(val), c_sizeof(val), cudaMemcpyHostToDevice))
    call cuda_check(cudaMemset(d_dense, 255_c_int, dense_bytes)) ! NaN poison

    call expect(oxsparseCreateCsr(mat_a, m, n, nz, d_rows, d_cols, d_vals, OXSPARSE_INDEX_32I, &
                                  OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ONE, CUDA_R_64F), &
                OXSPARSE_STATUS_SUCCESS, 'CreateCsr (device)')
    call expect(oxsparseCreateDnMat(mat_b, m, n, ld, d_dense, CUDA_R_64F, OXSPARSE_ORDER_COL), &
                OXSPARSE_STATUS_SUCCESS, 'CreateDnMat (device)')
    call expect(oxsparseSparseToDense_bufferSize(handle, mat_a, mat_b, &
                                                 OXSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer_size), &
                OXSPARSE_STATUS_SUCCESS, 'SparseToDense_bufferSize')
    call cuda_check(cudaMalloc(d_buf, buffer_size))
    call expect(oxsparseSparseToDense(handle, mat_a, mat_b, OXSPARSE_SPARSETODENSE_ALG_DEFAULT, &
                                      d_buf), OXSPARSE_STATUS_SUCCESS, 'SparseToDense')
    call cuda_check(cudaMemcpy(c_loc(dense), d_dense, dense_bytes, cudaMemcpyDeviceToHost))

    do j = 1, int(n)
      do i = 1, int(ld)
        if (i == ld) then
          call check(ieee_is_nan(dense(i, j)), 'padding row must keep its poison')
        else
          call check(abs(dense(i, j) - want(i, j)) <= 0.0_c_double, 'dense value')
        end if
      end do
    end do

    call expect(oxsparseDestroySpMat(mat_a), OXSPARSE_STATUS_SUCCESS, 'DestroySpMat')
    call expect(oxsparseDestroyDnMat(mat_b), OXSPARSE_STATUS_SUCCESS, 'DestroyDnMat')
    call expect(oxsparseDestroy(handle), OXSPARSE_STATUS_SUCCESS, 'oxsparseDestroy')
    call cuda_check(cudaFree(d_buf))
    call cuda_check(cudaFree(d_rows))
    call cuda_check(cudaFree(d_cols))
    call cuda_check(cudaFree(d_vals))
    call cuda_check(cudaFree(d_dense))
    print '(a)', 'SparseToDense (1-based CSR, column-major, on the GPU) checked'
  end subroutine test_gpu

  function ieee_value_nan() result(x)
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    real(c_double) :: x
    x = ieee_value(x, ieee_quiet_nan)
  end function ieee_value_nan

  subroutine cuda_check(status)
    integer(c_int), intent(in) :: status
    if (status /= cudaSuccess) then
      print '(a,i0)', 'CUDA runtime call failed with error ', status
      error stop 1
    end if
  end subroutine cuda_check

end program fortran_api
