//! The SR-BCRS object's tests' helpers: the integer type of a width, an object read back to the
//! host as the CPU reference lays it out, and the time of a call for the ignored throughput tests.

use super::capi::OK;
use super::sync;
use oxsparse::ffi::srbcrs::*;
use oxsparse::ffi::*;
use oxsparse::reference::srbcrs::SrBcrsHost;
use oxsparse::types::DataType;
use std::ffi::c_void;
use std::ptr::null;

/// The integer type of `bits` bits (4, 8 or 16).
pub fn int_type(bits: usize) -> DataType {
    match bits {
        4 => DataType::CUDA_R_4I,
        8 => DataType::CUDA_R_8I,
        _ => DataType::CUDA_R_16I,
    }
}

/// The object's arrays as `SrBcrsHost` (checked against its stride and value type), and its nnz.
pub fn download_object(s: oxsparseSrBcrs_t, bits: usize) -> (SrBcrsHost, i64) {
    let (mut rows, mut cols, mut nnz, mut v, mut stride, mut vectors) = (0i64, 0i64, 0i64, 0, 0, 0i64);
    let (mut offs, mut colp, mut valp) = (null(), null(), null());
    let st = unsafe {
        oxsparseSrBcrsGetInfo(s, &mut rows, &mut cols, &mut nnz, &mut v, &mut stride, &mut vectors, &mut offs, &mut colp, &mut valp)
    };
    assert_eq!(st, OK, "oxsparseSrBcrsGetInfo");
    assert_eq!(stride as usize, oxsparse::reference::srbcrs::stride(bits));
    let mut vt = -1;
    assert_eq!(unsafe { oxsparseSrBcrsGetValueType(s, &mut vt) }, OK, "oxsparseSrBcrsGetValueType");
    assert_eq!(vt, int_type(bits) as i32);
    let groups = (rows as usize).div_ceil(v as usize);
    let read = |p: *const c_void, bytes: usize| -> Vec<u8> {
        let mut out = vec![0u8; bytes];
        sync();
        if bytes > 0 {
            unsafe { cudarc::driver::result::memcpy_dtoh_sync(&mut out, p as u64) }.expect("cuMemcpyDtoH");
        }
        out
    };
    let words = |b: Vec<u8>| b.chunks_exact(4).map(|w| i32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect::<Vec<_>>();
    let host = SrBcrsHost {
        rows: rows as usize,
        cols: cols as usize,
        vector_length: v as usize,
        value_bits: bits,
        vec_ptr: words(read(offs, 4 * (groups + 1))),
        vec_col: words(read(colp, 4 * vectors as usize)),
        vec_val: read(valp, vectors as usize * v as usize * bits / 8),
    };
    (host, nnz)
}

/// Seconds per call of `call` (a C entry point that must succeed): 3 untimed calls, then the mean
/// over 20 back to back, the device synchronised on both sides.
pub fn seconds_per_call(call: impl Fn() -> i32) -> f64 {
    for _ in 0..3 {
        assert_eq!(call(), OK);
    }
    sync();
    let reps = 20;
    let start = std::time::Instant::now();
    for _ in 0..reps {
        call();
    }
    sync();
    start.elapsed().as_secs_f64() / reps as f64
}
