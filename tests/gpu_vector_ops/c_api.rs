//! The C path: the exported functions, with descriptors made by the exported descriptor functions,
//! on the data of NVIDIA's CUDALibrarySamples (size 8, X indices {0, 3, 4, 7}, X values {1, 2, 3, 4},
//! Y = {1, ..., 8}); and the statuses of refused calls.

use super::*;
use oxsparse::ffi::descr_dense::{oxsparseCreateDnVec, oxsparseDestroyDnVec};
use oxsparse::ffi::descr_sparse::{oxsparseCreateSpVec, oxsparseDestroySpVec};
use oxsparse::ffi::handle::{oxsparseCreate, oxsparseDestroy, oxsparseSetPointerMode};
use oxsparse::ffi::vector_ops::*;
use oxsparse::ffi::{oxsparseDnVecDescr_t, oxsparseHandle_t, oxsparseSpVecDescr_t};
use oxsparse::types::Status::{self, *};
use std::ptr::{null, null_mut};

const OK: i32 = OXSPARSE_STATUS_SUCCESS as i32;
const NON_T: i32 = Operation::OXSPARSE_OPERATION_NON_TRANSPOSE as i32;
const R32F: i32 = CUDA_R_32F as i32;

fn st(s: Status) -> i32 {
    s as i32
}

#[test]
fn null_handle_is_not_initialized() {
    let mut size = 7usize;
    let one = 1.0f32;
    let p = &one as *const f32 as *const c_void;
    let ni = st(OXSPARSE_STATUS_NOT_INITIALIZED);
    unsafe {
        assert_eq!(oxsparseAxpby(null_mut(), p, null(), p, null_mut()), ni);
        assert_eq!(oxsparseGather(null_mut(), null(), null_mut()), ni);
        assert_eq!(oxsparseScatter(null_mut(), null(), null_mut()), ni);
        assert_eq!(oxsparseRot(null_mut(), p, p, null_mut(), null_mut()), ni);
        assert_eq!(oxsparseSpVV_bufferSize(null_mut(), NON_T, null(), null(), p, R32F, &mut size), ni);
        assert_eq!(oxsparseSpVV(null_mut(), NON_T, null(), null(), null_mut(), R32F, null_mut()), ni);
    }
    assert_eq!(size, 7, "bufferSize written on failure");
}

unsafe fn sp_vec(size: i64, nnz: i64, indices: u64, values: u64, t: DataType) -> oxsparseSpVecDescr_t {
    let mut d: oxsparseSpVecDescr_t = null_mut();
    let (i32t, zero) = (IndexType::OXSPARSE_INDEX_32I as i32, IndexBase::OXSPARSE_INDEX_BASE_ZERO as i32);
    assert_eq!(oxsparseCreateSpVec(&mut d, size, nnz, indices as _, values as _, i32t, zero, t as i32), OK, "oxsparseCreateSpVec");
    d
}

unsafe fn dn_vec(size: i64, values: u64, t: DataType) -> oxsparseDnVecDescr_t {
    let mut d: oxsparseDnVecDescr_t = null_mut();
    assert_eq!(oxsparseCreateDnVec(&mut d, size, values as _, t as i32), OK, "oxsparseCreateDnVec");
    d
}

const Y: [f32; 8] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
const X: [f32; 4] = [1.0, 2.0, 3.0, 4.0];

#[test]
fn cuda_library_samples_through_the_c_api() {
    let Some(_h) = gpu("vector_ops C API") else { return };
    let indices = DevBuf::from_slice(&[0i32, 3, 4, 7]);
    let xbuf = DevBuf::from_slice(&X);
    let ybuf = DevBuf::from_slice(&Y);
    unsafe {
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        let x = sp_vec(8, 4, indices.ptr, xbuf.ptr, CUDA_R_32F);
        let y = dn_vec(8, ybuf.ptr, CUDA_R_32F);
        let (two, three) = (2.0f32, 3.0f32);
        let scalar = |v: &f32| v as *const f32 as *const c_void;

        assert_eq!(oxsparseAxpby(h, scalar(&two), x, scalar(&three), y), OK);
        assert_eq!(ybuf.to_vec::<f32>(), [5.0, 6.0, 9.0, 16.0, 21.0, 18.0, 21.0, 32.0]);

        ybuf.poison(0xFF);
        let ybuf2 = DevBuf::from_slice(&Y);
        let y2 = dn_vec(8, ybuf2.ptr, CUDA_R_32F);
        xbuf.poison(0xFF);
        assert_eq!(oxsparseGather(h, y2, x), OK);
        assert_eq!(xbuf.to_vec::<f32>(), [1.0, 4.0, 5.0, 8.0]);

        let zeros = DevBuf::zeroed(8 * 4);
        let y3 = dn_vec(8, zeros.ptr, CUDA_R_32F);
        assert_eq!(oxsparseScatter(h, x, y3), OK);
        assert_eq!(zeros.to_vec::<f32>(), [1.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0, 8.0]);

        // SpVV of X = {1, 4, 5, 8} (after the gather) with Y = 1..8: 1 + 16 + 25 + 64.
        let mut result = f32::NAN;
        let rp = &mut result as *mut f32 as *mut c_void;
        let mut size = usize::MAX;
        assert_eq!(oxsparseSpVV_bufferSize(h, NON_T, x, y2, rp, R32F, &mut size), OK);
        let buffer = DevBuf::zeroed(size);
        assert_eq!(oxsparseSpVV(h, NON_T, x, y2, rp, R32F, buffer.ptr as _), OK);
        assert_eq!(result, 106.0);

        // Device pointer mode: the result lands in device memory.
        assert_eq!(oxsparseSetPointerMode(h, PointerMode::OXSPARSE_POINTER_MODE_DEVICE as i32), OK);
        let dres = DevBuf::zeroed(4);
        dres.poison(0xFF);
        assert_eq!(oxsparseSpVV(h, NON_T, x, y2, dres.ptr as _, R32F, buffer.ptr as _), OK);
        assert_eq!(dres.to_vec::<f32>(), [106.0]);

        // Rot with device scalars c = 0.5, s = 2 on X = {1, 4, 5, 8} and Y2 = 1..8.
        let (c, s) = (DevBuf::from_slice(&[0.5f32]), DevBuf::from_slice(&[2.0f32]));
        assert_eq!(oxsparseRot(h, c.ptr as _, s.ptr as _, x, y2), OK);
        assert_eq!(xbuf.to_vec::<f32>(), [2.5, 10.0, 12.5, 20.0]);
        assert_eq!(ybuf2.to_vec::<f32>(), [-1.5, 2.0, 3.0, -6.0, -7.5, 6.0, 7.0, -12.0]);
        assert_eq!(oxsparseSetPointerMode(h, PointerMode::OXSPARSE_POINTER_MODE_HOST as i32), OK);

        let invalid = st(OXSPARSE_STATUS_INVALID_VALUE);
        let unsupported = st(OXSPARSE_STATUS_NOT_SUPPORTED);
        assert_eq!(oxsparseGather(h, y2, null_mut()), invalid, "NULL vecX");
        assert_eq!(oxsparseAxpby(h, null(), x, scalar(&three), y), invalid, "NULL alpha");
        assert_eq!(oxsparseSpVV_bufferSize(h, NON_T, x, y2, rp, R32F, null_mut()), invalid, "NULL bufferSize");
        assert_eq!(oxsparseSpVV_bufferSize(h, 3, x, y2, rp, R32F, &mut size), invalid, "unknown opX");
        assert_eq!(oxsparseSpVV_bufferSize(h, NON_T, x, y2, rp, 99, &mut size), invalid, "unknown computeType");
        assert_eq!(oxsparseSpVV_bufferSize(h, NON_T, x, y2, rp, CUDA_R_64F as i32, &mut size), unsupported, "R_32F data, R_64F compute");
        assert_eq!(oxsparseSpVV(h, NON_T, x, y2, null_mut(), R32F, buffer.ptr as _), invalid, "NULL result");
        let short = dn_vec(7, ybuf.ptr, CUDA_R_32F);
        assert_eq!(oxsparseScatter(h, x, short), invalid, "sizes differ");
        let dbuf = DevBuf::zeroed(8 * 8);
        let wrong_type = dn_vec(8, dbuf.ptr, CUDA_R_64F);
        assert_eq!(oxsparseScatter(h, x, wrong_type), unsupported, "value types differ");
        let ibuf = DevBuf::zeroed(8 * 4);
        let ints = dn_vec(8, ibuf.ptr, CUDA_R_32I);
        let xi = sp_vec(8, 4, indices.ptr, ibuf.ptr, CUDA_R_32I);
        assert_eq!(oxsparseScatter(h, xi, ints), unsupported, "R_32I values");

        for d in [y, y2, y3, short, wrong_type, ints] {
            assert_eq!(oxsparseDestroyDnVec(d), OK);
        }
        for d in [x, xi] {
            assert_eq!(oxsparseDestroySpVec(d), OK);
        }
        assert_eq!(oxsparseDestroy(h), OK);
    }
}
