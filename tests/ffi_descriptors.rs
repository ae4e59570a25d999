//! The descriptor half of the C ABI, exercised through the exported functions themselves. None of
//! this needs a GPU: descriptors record addresses and never dereference them, so fake, aligned
//! device addresses are enough.

use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::descr_sparse_access::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType::*, IndexBase::*, IndexType::*, Order::*, Status::*, *};
use std::ffi::CStr;
use std::os::raw::{c_int, c_void};
use std::ptr::{null, null_mut};

const SUCCESS: c_int = OXSPARSE_STATUS_SUCCESS as c_int;
const INVALID: c_int = OXSPARSE_STATUS_INVALID_VALUE as c_int;
const NOT_INIT: c_int = OXSPARSE_STATUS_NOT_INITIALIZED as c_int;

fn addr(a: usize) -> *mut c_void {
    a as *mut c_void
}

#[test]
fn error_names_and_strings() {
    for &s in Status::ALL {
        let name = unsafe { CStr::from_ptr(oxsparseGetErrorName(s as c_int)) };
        assert_eq!(name.to_str().unwrap(), s.name());
        let text = unsafe { CStr::from_ptr(oxsparseGetErrorString(s as c_int)) };
        assert_eq!(text.to_str().unwrap(), s.description());
    }
    let unknown = unsafe { CStr::from_ptr(oxsparseGetErrorName(99)) };
    assert_eq!(unknown.to_str().unwrap(), "unrecognized error code");
}

#[test]
fn get_property_reports_the_crate_version() {
    let mut v = -1;
    unsafe {
        assert_eq!(oxsparseGetProperty(0, &mut v), SUCCESS);
        assert_eq!(v, 0);
        assert_eq!(oxsparseGetProperty(1, &mut v), SUCCESS);
        assert_eq!(v, 1);
        assert_eq!(oxsparseGetProperty(3, &mut v), INVALID);
        assert_eq!(oxsparseGetProperty(0, null_mut()), INVALID);
    }
}

/// Without a driver or GPU, Create must refuse cleanly; with one it must succeed.
#[test]
fn create_reports_not_initialized_without_gpu() {
    let mut h: oxsparseHandle_t = null_mut();
    let s = unsafe { oxsparseCreate(&mut h) };
    if oxsparse::context::driver_present() && s == SUCCESS {
        let mut v = 0;
        unsafe {
            assert_eq!(oxsparseGetVersion(h, &mut v), SUCCESS);
            assert_eq!(v, oxsparse::VERSION_NUMBER);
            let mut mode = -1;
            assert_eq!(oxsparseGetPointerMode(h, &mut mode), SUCCESS);
            assert_eq!(mode, 0, "host pointer mode by default");
            assert_eq!(oxsparseSetPointerMode(h, 1), SUCCESS);
            assert_eq!(oxsparseSetPointerMode(h, 2), INVALID);
            let mut math = -1;
            assert_eq!(oxsparseGetMathMode(h, &mut math), SUCCESS);
            assert_eq!(
                Some(math),
                oxsparse::settings::Settings::from_env().math_mode.map(|m| m as c_int).or(Some(0)),
                "new handles start in OXSPARSE_MATH_MODE's mode"
            );
            for m in
                [MathMode::OXSPARSE_TF32_TENSOR_OP_MATH, MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH, MathMode::OXSPARSE_DEFAULT_MATH]
            {
                assert_eq!(oxsparseSetMathMode(h, m as c_int), SUCCESS);
                assert_eq!(oxsparseGetMathMode(h, &mut math), SUCCESS);
                assert_eq!(math, m as c_int);
            }
            for bad in [1, 2, 5, 99, -1] {
                assert_eq!(oxsparseSetMathMode(h, bad), INVALID, "math mode {bad}");
            }
            assert_eq!(oxsparseGetMathMode(h, &mut math), SUCCESS);
            assert_eq!(math, MathMode::OXSPARSE_DEFAULT_MATH as c_int, "a refused mode leaves the mode as it was");
            assert_eq!(oxsparseGetMathMode(h, null_mut()), INVALID);
            assert_eq!(oxsparseDestroy(h), SUCCESS);
            assert_eq!(oxsparseDestroy(h), NOT_INIT, "double destroy is refused, not a crash");
        }
    } else {
        println!("SKIP: handle tests with a GPU (no GPU here: Create returned {s})");
        assert_eq!(s, NOT_INIT);
        assert!(h.is_null(), "the out pointer is untouched on failure");
    }
    unsafe {
        assert_eq!(oxsparseCreate(null_mut()), INVALID);
        assert_eq!(oxsparseDestroy(null_mut()), NOT_INIT);
        let mut v = 0;
        assert_eq!(oxsparseGetVersion(null_mut(), &mut v), NOT_INIT);
        // The handle is checked first, as for the pointer mode: a NULL one is NOT_INITIALIZED
        // whatever the other arguments are, and the out-pointer is left alone.
        let mut math = -1;
        assert_eq!(oxsparseSetMathMode(null_mut(), MathMode::OXSPARSE_TF32_TENSOR_OP_MATH as c_int), NOT_INIT);
        assert_eq!(oxsparseSetMathMode(null_mut(), 99), NOT_INIT);
        assert_eq!(oxsparseGetMathMode(null_mut(), &mut math), NOT_INIT);
        assert_eq!(math, -1);
        assert_eq!(oxsparseGetMathMode(null_mut(), null_mut()), NOT_INIT);
        assert_eq!(oxsparseSetPointerMode(null_mut(), 0), NOT_INIT);
    }
}

#[test]
fn dense_vector_round_trip_and_errors() {
    unsafe {
        let mut d: oxsparseDnVecDescr_t = null_mut();
        assert_eq!(oxsparseCreateDnVec(&mut d, 10, addr(0x1000), CUDA_R_64F as c_int), SUCCESS);
        let (mut size, mut vals, mut vt) = (0i64, null_mut(), -1);
        assert_eq!(oxsparseDnVecGet(d, &mut size, &mut vals, &mut vt), SUCCESS);
        assert_eq!((size, vals, vt), (10, addr(0x1000), CUDA_R_64F as c_int));
        assert_eq!(oxsparseDnVecSetValues(d, addr(0x2000)), SUCCESS);
        assert_eq!(oxsparseDnVecSetValues(d, addr(0x2004)), INVALID, "misaligned for double");
        assert_eq!(oxsparseDnVecGetValues(d, &mut vals), SUCCESS);
        assert_eq!(vals, addr(0x2000));
        assert_eq!(oxsparseDnVecGet(d, null_mut(), &mut vals, &mut vt), INVALID);
        assert_eq!(oxsparseDestroyDnVec(d), SUCCESS);
        assert_eq!(oxsparseDestroyDnVec(d), NOT_INIT);
        assert_eq!(oxsparseDestroyDnVec(null()), SUCCESS);

        let mut c: oxsparseConstDnVecDescr_t = null();
        assert_eq!(oxsparseCreateConstDnVec(&mut c, -1, addr(0x1000), CUDA_R_32F as c_int), INVALID);
        assert!(c.is_null());
        assert_eq!(oxsparseCreateConstDnVec(&mut c, 4, addr(0x1000), 28), INVALID, "FP8 is not a cuSPARSE type");
        assert_eq!(oxsparseCreateConstDnVec(&mut c, 4, null(), CUDA_R_32F as c_int), INVALID);
        assert_eq!(oxsparseCreateConstDnVec(&mut c, 0, null(), CUDA_R_32F as c_int), SUCCESS);
        assert_eq!(oxsparseDestroyDnVec(c), SUCCESS);
    }
}

#[test]
fn dense_matrix_round_trip_batch_and_errors() {
    unsafe {
        let mut m: oxsparseDnMatDescr_t = null_mut();
        let order = OXSPARSE_ORDER_ROW as c_int;
        assert_eq!(oxsparseCreateDnMat(&mut m, 3, 5, 4, addr(0x1000), CUDA_R_32F as c_int, order), INVALID, "ld < cols");
        assert_eq!(oxsparseCreateDnMat(&mut m, 3, 5, 6, addr(0x1000), CUDA_R_32F as c_int, 0), INVALID, "order 0");
        assert_eq!(oxsparseCreateDnMat(&mut m, 3, 5, 6, addr(0x1000), CUDA_R_32F as c_int, order), SUCCESS);
        let (mut r, mut c, mut ld, mut v, mut t, mut o) = (0, 0, 0, null_mut(), 0, 0);
        assert_eq!(oxsparseDnMatGet(m, &mut r, &mut c, &mut ld, &mut v, &mut t, &mut o), SUCCESS);
        assert_eq!((r, c, ld, v, t, o), (3, 5, 6, addr(0x1000), CUDA_R_32F as c_int, order));
        assert_eq!(oxsparseDnMatSetStridedBatch(m, 4, 17), INVALID, "stride below ld * rows");
        assert_eq!(oxsparseDnMatSetStridedBatch(m, 4, 18), SUCCESS);
        let (mut count, mut stride) = (0, 0);
        assert_eq!(oxsparseDnMatGetStridedBatch(m, &mut count, &mut stride), SUCCESS);
        assert_eq!((count, stride), (4, 18));
        // A dense matrix is not a dense vector: the registry knows the kind.
        assert_eq!(oxsparseDestroyDnVec(m as *const _ as oxsparseConstDnVecDescr_t), INVALID);
        assert_eq!(oxsparseDestroyDnMat(m), SUCCESS);
    }
}

fn csr(rows: i64, cols: i64, nnz: i64, it: IndexType, base: IndexBase) -> (c_int, oxsparseSpMatDescr_t) {
    let mut d = null_mut();
    let s = unsafe {
        oxsparseCreateCsr(
            &mut d,
            rows,
            cols,
            nnz,
            addr(0x1000),
            addr(0x2000),
            addr(0x3000),
            it as c_int,
            it as c_int,
            base as c_int,
            CUDA_R_32F as c_int,
        )
    };
    (s, d)
}

#[test]
fn csr_parameter_matrix() {
    for it in [OXSPARSE_INDEX_32I, OXSPARSE_INDEX_64I] {
        for base in [OXSPARSE_INDEX_BASE_ZERO, OXSPARSE_INDEX_BASE_ONE] {
            for (rows, cols, nnz) in [(0, 0, 0), (1, 1, 1), (7, 33, 20), (1000, 1200, 5000)] {
                let (s, d) = csr(rows, cols, nnz, it, base);
                assert_eq!(s, SUCCESS, "{it:?} {base:?} {rows}x{cols}");
                unsafe {
                    let (mut r, mut c, mut n) = (0, 0, 0);
                    let (mut o, mut ci, mut v) = (null_mut(), null_mut(), null_mut());
                    let (mut ot, mut ct, mut b, mut vt) = (0, 0, 0, 0);
                    assert_eq!(
                        oxsparseCsrGet(d, &mut r, &mut c, &mut n, &mut o, &mut ci, &mut v, &mut ot, &mut ct, &mut b, &mut vt),
                        SUCCESS
                    );
                    assert_eq!((r, c, n), (rows, cols, nnz));
                    assert_eq!((o, ci, v), (addr(0x1000), addr(0x2000), addr(0x3000)));
                    assert_eq!((ot, ct, b, vt), (it as c_int, it as c_int, base as c_int, CUDA_R_32F as c_int));
                    let mut f = 0;
                    assert_eq!(oxsparseSpMatGetFormat(d, &mut f), SUCCESS);
                    assert_eq!(f, Format::OXSPARSE_FORMAT_CSR as c_int);
                    // A CSR is not a COO.
                    let mut x = null_mut();
                    assert_eq!(oxsparseCooGet(d, &mut r, &mut c, &mut n, &mut x, &mut x, &mut x, &mut ot, &mut b, &mut vt), INVALID);
                    assert_eq!(oxsparseDestroySpMat(d), SUCCESS);
                }
            }
        }
    }
}

#[test]
fn csr_bad_arguments_leave_output_untouched() {
    let sentinel = 0xdead0 as oxsparseSpMatDescr_t;
    type Create = Box<dyn Fn(*mut oxsparseSpMatDescr_t) -> c_int>;
    let cases: Vec<(&str, Create)> = vec![
        ("negative rows", Box::new(|d| unsafe { oxsparseCreateCsr(d, -1, 3, 0, addr(0x1000), null_mut(), null_mut(), 2, 2, 0, 0) })),
        ("NULL offsets", Box::new(|d| unsafe { oxsparseCreateCsr(d, 3, 3, 1, null_mut(), addr(0x2000), addr(0x3000), 2, 2, 0, 0) })),
        ("NULL values", Box::new(|d| unsafe { oxsparseCreateCsr(d, 3, 3, 1, addr(0x1000), addr(0x2000), null_mut(), 2, 2, 0, 0) })),
        ("bad index type", Box::new(|d| unsafe { oxsparseCreateCsr(d, 3, 3, 1, addr(0x1000), addr(0x2000), addr(0x3000), 4, 2, 0, 0) })),
        ("bad base", Box::new(|d| unsafe { oxsparseCreateCsr(d, 3, 3, 1, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 7, 0) })),
        ("bad value type", Box::new(|d| unsafe { oxsparseCreateCsr(d, 3, 3, 1, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 0, 99) })),
        (
            "misaligned offsets",
            Box::new(|d| unsafe { oxsparseCreateCsr(d, 3, 3, 1, addr(0x1002), addr(0x2000), addr(0x3000), 2, 2, 0, 0) }),
        ),
        (
            "nnz too large for 32-bit",
            Box::new(|d| unsafe { oxsparseCreateCsr(d, 3, 3, 1 << 31, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 0, 0) }),
        ),
    ];
    for (what, call) in cases {
        let mut d = sentinel;
        assert_eq!(call(&mut d), INVALID, "{what}");
        assert_eq!(d, sentinel, "{what}: output written on error");
    }
    assert_eq!(unsafe { oxsparseCreateCsr(null_mut(), 3, 3, 1, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 0, 0) }, INVALID);
}

#[test]
fn other_formats_round_trip() {
    unsafe {
        let mut d = null_mut();
        assert_eq!(oxsparseCreateCsc(&mut d, 4, 6, 5, addr(0x1000), addr(0x2000), addr(0x3000), 3, 3, 1, CUDA_C_64F as c_int), SUCCESS);
        let (mut r, mut c, mut n) = (0, 0, 0);
        let (mut o, mut i, mut v) = (null_mut(), null_mut(), null_mut());
        let (mut ot, mut it, mut b, mut vt) = (0, 0, 0, 0);
        assert_eq!(oxsparseCscGet(d, &mut r, &mut c, &mut n, &mut o, &mut i, &mut v, &mut ot, &mut it, &mut b, &mut vt), SUCCESS);
        assert_eq!((r, c, n, ot, b, vt), (4, 6, 5, 3, 1, CUDA_C_64F as c_int));
        assert_eq!(oxsparseCscSetPointers(d, addr(0x4000), addr(0x5000), addr(0x6000)), SUCCESS);
        assert_eq!(oxsparseCsrSetPointers(d, addr(0x4000), addr(0x5000), addr(0x6000)), INVALID, "CSR setter on CSC");
        assert_eq!(oxsparseDestroySpMat(d), SUCCESS);

        assert_eq!(oxsparseCreateCoo(&mut d, 4, 6, 5, addr(0x1000), addr(0x2000), addr(0x3000), 2, 0, CUDA_R_16F as c_int), SUCCESS);
        assert_eq!(oxsparseCooSetStridedBatch(d, 3, 5), SUCCESS);
        let mut count = 0;
        assert_eq!(oxsparseSpMatGetStridedBatch(d, &mut count), SUCCESS);
        assert_eq!(count, 3);
        assert_eq!(oxsparseCsrSetStridedBatch(d, 3, 0, 5), INVALID);
        assert_eq!(oxsparseDestroySpMat(d), SUCCESS);

        assert_eq!(
            oxsparseCreateBsr(&mut d, 2, 3, 4, 2, 2, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 0, CUDA_R_32F as c_int, 2),
            SUCCESS
        );
        assert_eq!(oxsparseSpMatGetSize(d, &mut r, &mut c, &mut n), SUCCESS);
        assert_eq!((r, c, n), (4, 6, 16));
        assert_eq!(oxsparseBsrSetStridedBatch(d, 2, 3, 4, 16), SUCCESS);
        assert_eq!(oxsparseDestroySpMat(d), SUCCESS);
        assert_eq!(
            oxsparseCreateBsr(&mut d, 2, 3, 4, 2, 2, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 0, CUDA_R_32F as c_int, 0),
            INVALID,
            "order 0"
        );

        assert_eq!(oxsparseCreateBlockedEll(&mut d, 8, 8, 2, 4, addr(0x1000), addr(0x2000), 2, 0, CUDA_R_16F as c_int), SUCCESS);
        let (mut bs, mut ec) = (0, 0);
        assert_eq!(oxsparseBlockedEllGet(d, &mut r, &mut c, &mut bs, &mut ec, &mut i, &mut v, &mut it, &mut b, &mut vt), SUCCESS);
        assert_eq!((r, c, bs, ec, i, v), (8, 8, 2, 4, addr(0x1000), addr(0x2000)));
        assert_eq!(oxsparseDestroySpMat(d), SUCCESS);

        assert_eq!(
            oxsparseCreateSlicedEll(&mut d, 5, 5, 7, 8, 2, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 0, CUDA_R_32F as c_int),
            SUCCESS
        );
        let mut f = 0;
        assert_eq!(oxsparseSpMatGetFormat(d, &mut f), SUCCESS);
        assert_eq!(f, Format::OXSPARSE_FORMAT_SLICED_ELLPACK as c_int);
        assert_eq!(oxsparseDestroySpMat(d), SUCCESS);
        assert_eq!(
            oxsparseCreateSlicedEll(&mut d, 5, 5, 7, 6, 2, addr(0x1000), addr(0x2000), addr(0x3000), 2, 2, 0, CUDA_R_32F as c_int),
            INVALID,
            "values size < nnz"
        );
    }
}

#[test]
fn attributes_and_sparse_vectors() {
    unsafe {
        let (s, d) = csr(4, 4, 3, OXSPARSE_INDEX_32I, OXSPARSE_INDEX_BASE_ZERO);
        assert_eq!(s, SUCCESS);
        let mut fill: c_int = FillMode::OXSPARSE_FILL_MODE_UPPER as c_int;
        let sz = std::mem::size_of::<c_int>();
        assert_eq!(oxsparseSpMatSetAttribute(d, 0, &mut fill as *mut _ as *mut c_void, sz), SUCCESS);
        let mut got: c_int = -1;
        assert_eq!(oxsparseSpMatGetAttribute(d, 0, &mut got as *mut _ as *mut c_void, sz), SUCCESS);
        assert_eq!(got, fill);
        assert_eq!(oxsparseSpMatGetAttribute(d, 1, &mut got as *mut _ as *mut c_void, sz), SUCCESS);
        assert_eq!(got, DiagType::OXSPARSE_DIAG_TYPE_NON_UNIT as c_int);
        assert_eq!(oxsparseSpMatGetAttribute(d, 2, &mut got as *mut _ as *mut c_void, sz), INVALID);
        assert_eq!(oxsparseSpMatGetAttribute(d, 0, &mut got as *mut _ as *mut c_void, 8), INVALID);
        let mut bad: c_int = 5;
        assert_eq!(oxsparseSpMatSetAttribute(d, 0, &mut bad as *mut _ as *mut c_void, sz), INVALID);
        assert_eq!(oxsparseDestroySpMat(d), SUCCESS);

        let mut v = null_mut();
        assert_eq!(oxsparseCreateSpVec(&mut v, 100, 3, addr(0x1000), addr(0x2000), 3, 1, CUDA_C_32F as c_int), SUCCESS);
        let (mut size, mut nnz, mut i, mut x, mut it, mut b, mut vt) = (0, 0, null_mut(), null_mut(), 0, 0, 0);
        assert_eq!(oxsparseSpVecGet(v, &mut size, &mut nnz, &mut i, &mut x, &mut it, &mut b, &mut vt), SUCCESS);
        assert_eq!((size, nnz, i, x, it, b, vt), (100, 3, addr(0x1000), addr(0x2000), 3, 1, CUDA_C_32F as c_int));
        assert_eq!(oxsparseSpVecGetIndexBase(v, &mut b), SUCCESS);
        assert_eq!(oxsparseSpVecSetValues(v, addr(0x2004)), INVALID, "misaligned complex float");
        assert_eq!(oxsparseDestroySpVec(v), SUCCESS);
        assert_eq!(oxsparseCreateSpVec(&mut v, 2, 3, addr(0x1000), addr(0x2000), 2, 0, 0), INVALID, "nnz > size");
    }
}

/// A destroyed descriptor stays refused however many objects are made after it: the allocator
/// hands its memory to new descriptors of the same kind (it did, before objects got names of their
/// own), and the dead pointer must not reach one of them.
#[test]
fn destroyed_descriptors_stay_refused_after_their_memory_is_reused() {
    let make = |size: i64| {
        let mut v: oxsparseDnVecDescr_t = null_mut();
        assert_eq!(unsafe { oxsparseCreateDnVec(&mut v, size, addr(0x1000), CUDA_R_32F as c_int) }, SUCCESS);
        v
    };
    let dead = make(7);
    assert_eq!(unsafe { oxsparseDestroyDnVec(dead) }, SUCCESS);
    let fresh: Vec<oxsparseDnVecDescr_t> = (0..1000).map(|i| make(100 + i)).collect();
    assert!(!fresh.contains(&dead), "a name is never handed out twice");
    let mut size = -1i64;
    let (mut values, mut t) = (null_mut(), -1);
    assert_eq!(unsafe { oxsparseDnVecGet(dead, &mut size, &mut values, &mut t) }, NOT_INIT);
    assert_eq!(size, -1, "a refused call writes nothing");
    assert_eq!(unsafe { oxsparseDestroyDnVec(dead) }, NOT_INIT, "destroyed twice");
    for (i, v) in fresh.into_iter().enumerate() {
        assert_eq!(unsafe { oxsparseDnVecGet(v, &mut size, &mut values, &mut t) }, SUCCESS);
        assert_eq!(size, 100 + i as i64);
        assert_eq!(unsafe { oxsparseDestroyDnVec(v) }, SUCCESS);
    }
}
