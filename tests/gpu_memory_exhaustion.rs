//! Device memory exhausted: with every free byte taken by the test, each call either fails with
//! ALLOC_FAILED (or another clean status) and leaves its outputs untouched, or succeeds with the
//! right result; nothing leaks; once the memory is freed every call works again.
//!
//! The library allocates no device memory on its call path (the caller's buffer holds its
//! workspace); what it may need there is driver memory for launch graphs and module loads. A
//! call that cannot get it must say so, never crash or answer wrongly.

mod common;

use common::descr::{csr_f32, dn_mat_f32, dn_vec_f32};
use common::gen::random_csr;
use common::hubs::hub;
use common::{gpu, DevBuf, Rng};
use cudarc::driver::result;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::sparse_to_dense::*;
use oxsparse::ffi::spmm::*;
use oxsparse::ffi::spmv::*;
use oxsparse::ffi::*;
use oxsparse::types::{DataType::CUDA_R_32F, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;

/// A small CSR problem with its operands and descriptors, and the float64 references.
struct Problem {
    _arrays: [DevBuf; 3],
    _b: DevBuf,
    c: DevBuf,
    _x: DevBuf,
    y: DevBuf,
    dense: DevBuf,
    a: oxsparseSpMatDescr_t,
    bd: oxsparseDnMatDescr_t,
    cd: oxsparseDnMatDescr_t,
    xd: oxsparseDnVecDescr_t,
    yd: oxsparseDnVecDescr_t,
    dd: oxsparseDnMatDescr_t,
    want_c: Vec<f64>,
    want_y: Vec<f64>,
    want_dense: Vec<f64>,
}

const N: i64 = 16;

impl Problem {
    fn new(seed: u64) -> Problem {
        let mut rng = Rng::new(seed);
        let (rows, cols) = (3000i64, 2000i64);
        let csr = random_csr(&mut rng, (rows as usize, cols as usize), |rng, r| if hub(r) { 400 } else { 1 + rng.below(12) }, true);
        let b_host: Vec<f32> = (0..cols * N).map(|_| rng.value() as f32).collect();
        let x_host: Vec<f32> = (0..cols).map(|_| rng.value() as f32).collect();
        let (want_c, _) = csr.product(&csr.values, &b_host, N as usize);
        let (want_y, _) = csr.product(&csr.values, &x_host, 1);
        let want_dense: Vec<f64> = csr.dense().into_iter().map(f64::from).collect();
        let arrays = csr.upload();
        let (b, x) = (DevBuf::from_slice(&b_host), DevBuf::from_slice(&x_host));
        let (c, y, dense) =
            (DevBuf::zeroed((rows * N) as usize * 4), DevBuf::zeroed(rows as usize * 4), DevBuf::zeroed(want_dense.len() * 4));
        unsafe {
            Problem {
                a: csr_f32(rows, cols, csr.nnz() as i64, &arrays),
                bd: dn_mat_f32(cols, N, &b),
                cd: dn_mat_f32(rows, N, &c),
                xd: dn_vec_f32(cols, &x),
                yd: dn_vec_f32(rows, &y),
                dd: dn_mat_f32(rows, cols, &dense),
                _arrays: arrays,
                _b: b,
                c,
                _x: x,
                y,
                dense,
                want_c,
                want_y,
                want_dense,
            }
        }
    }

    /// Runs every call once on `h` with buffers `ws` (SpMM, SpMV; preprocessed when asked) and
    /// checks each: SUCCESS with the right result, or a clean failure with the output untouched.
    /// Returns how many calls failed cleanly.
    fn run(&self, h: oxsparseHandle_t, ws: &[DevBuf; 2], preprocess: bool, may_fail: bool) -> usize {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (al, be) = (&alpha as *const f32 as *const c_void, &beta as *const f32 as *const c_void);
        let f32t = CUDA_R_32F as i32;
        let mut refused = 0;
        let mut check = |what: &str, status: i32, out: &DevBuf, want: &[f64]| {
            let got = out.to_vec::<f32>();
            if status == OK {
                let scale = want.iter().fold(1.0f64, |m, w| m.max(w.abs()));
                let bad = got.iter().zip(want).filter(|(g, w)| (**g as f64 - **w).abs() > 1e-4 * scale).count();
                assert_eq!(bad, 0, "{what}: {bad} of {} wrong", want.len());
            } else {
                assert!(may_fail, "{what} failed with plenty of memory: status {status}");
                assert!(
                    [Status::OXSPARSE_STATUS_ALLOC_FAILED as i32, Status::OXSPARSE_STATUS_INSUFFICIENT_RESOURCES as i32].contains(&status),
                    "{what}: unexpected status {status} when memory is exhausted"
                );
                assert!(got.iter().all(|v| v.to_bits() == u32::MAX), "{what}: a failed call wrote its output");
                refused += 1;
            }
        };
        unsafe {
            let pre = |status: i32, what: &str| {
                if status != OK {
                    assert!(may_fail, "{what} failed with plenty of memory: status {status}");
                }
            };
            if preprocess {
                pre(oxsparseSpMM_preprocess(h, 0, 0, al, self.a, self.bd, be, self.cd, f32t, 0, ws[0].ptr as _), "SpMM_preprocess");
                pre(oxsparseSpMV_preprocess(h, 0, al, self.a, self.xd, be, self.yd, f32t, 0, ws[1].ptr as _), "SpMV_preprocess");
            }
            self.c.poison(0xFF);
            let s = oxsparseSpMM(h, 0, 0, al, self.a, self.bd, be, self.cd, f32t, 0, ws[0].ptr as _);
            check("SpMM", s, &self.c, &self.want_c);
            self.y.poison(0xFF);
            let s = oxsparseSpMV(h, 0, al, self.a, self.xd, be, self.yd, f32t, 0, ws[1].ptr as _);
            check("SpMV", s, &self.y, &self.want_y);
            self.dense.poison(0xFF);
            let s = oxsparseSparseToDense(h, self.a, self.dd, 0, null_mut());
            check("SparseToDense", s, &self.dense, &self.want_dense);
        }
        refused
    }

    fn buffers(&self, h: oxsparseHandle_t) -> [DevBuf; 2] {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (al, be) = (&alpha as *const f32 as *const c_void, &beta as *const f32 as *const c_void);
        let f32t = CUDA_R_32F as i32;
        let (mut s0, mut s1) = (0usize, 0usize);
        unsafe {
            assert_eq!(oxsparseSpMM_bufferSize(h, 0, 0, al, self.a, self.bd, be, self.cd, f32t, 0, &mut s0), OK);
            assert_eq!(oxsparseSpMV_bufferSize(h, 0, al, self.a, self.xd, be, self.yd, f32t, 0, &mut s1), OK);
        }
        [DevBuf::zeroed(s0), DevBuf::zeroed(s1)]
    }
}

impl Drop for Problem {
    fn drop(&mut self) {
        unsafe {
            oxsparseDestroySpMat(self.a);
            for d in [self.bd, self.cd, self.dd] {
                oxsparseDestroyDnMat(d);
            }
            oxsparseDestroyDnVec(self.xd);
            oxsparseDestroyDnVec(self.yd);
        }
    }
}

/// Takes device memory in halving chunks until not even a megabyte is left.
fn exhaust() -> (Vec<u64>, usize) {
    let (mut taken, mut bytes) = (Vec::new(), 0);
    let mut chunk: usize = 1 << 34;
    while chunk >= 1 << 20 {
        match unsafe { result::malloc_sync(chunk) } {
            Ok(p) => {
                taken.push(p);
                bytes += chunk;
            }
            Err(_) => chunk /= 2,
        }
    }
    (taken, bytes)
}

#[test]
fn calls_fail_cleanly_when_device_memory_is_exhausted_and_recover() {
    let Some(_gpu) = gpu("device memory exhausted") else { return };
    let p = Problem::new(51);
    let mut h: oxsparseHandle_t = null_mut();
    assert_eq!(unsafe { oxsparseCreate(&mut h) }, OK);
    let ws = p.buffers(h);
    // Warm: modules loaded, graphs made, with memory to spare.
    assert_eq!(p.run(h, &ws, true, false), 0);
    result::ctx::synchronize().expect("sync");
    let (free_before, _) = result::mem_get_info().expect("cuMemGetInfo");

    let (taken, taken_bytes) = exhaust();
    let (free_full, _) = result::mem_get_info().expect("cuMemGetInfo");
    // Every call, on the warm handle, plain and preprocessed (new graphs for a new argument set);
    // then a new handle, which must be made or refused cleanly.
    let mut refused = p.run(h, &ws, false, true) + p.run(h, &ws, true, true);
    let mut h2: oxsparseHandle_t = null_mut();
    let s = unsafe { oxsparseCreate(&mut h2) };
    if s == OK {
        refused += p.run(h2, &ws, true, true);
        assert_eq!(unsafe { oxsparseDestroy(h2) }, OK);
    } else {
        assert!(h2.is_null(), "a refused Create wrote its handle");
        refused += 1;
    }
    for ptr in taken.iter().rev() {
        unsafe { result::free_sync(*ptr) }.expect("cuMemFree");
    }
    // Memory back: everything works again, on both a warm and a new handle.
    assert_eq!(p.run(h, &ws, true, false), 0);
    let mut h3: oxsparseHandle_t = null_mut();
    assert_eq!(unsafe { oxsparseCreate(&mut h3) }, OK);
    assert_eq!(p.run(h3, &ws, true, false), 0);
    assert_eq!(unsafe { oxsparseDestroy(h3) }, OK);
    result::ctx::synchronize().expect("sync");
    let (free_after, _) = result::mem_get_info().expect("cuMemGetInfo");
    // Graphs and modules of the warm handle may hold a little driver memory; a leak per call
    // would show as more.
    let lost = free_before.saturating_sub(free_after);
    assert!(lost <= 64 << 20, "{lost} bytes of device memory not given back");
    assert_eq!(unsafe { oxsparseDestroy(h) }, OK);
    println!(
        "memory exhausted: {} MiB taken ({} MiB left free), {refused} of 9 calls refused cleanly, the rest right; {} KiB not back",
        taken_bytes >> 20,
        free_full >> 20,
        lost >> 10
    );
}

/// Sizes near the 64-bit limit: a COO matrix of 2^62 entries (64-bit indices) is refused by both
/// bufferSize calls with INSUFFICIENT_RESOURCES (its workspace size is not representable), never
/// answered with a wrapped size; the size output keeps what it held.
#[test]
fn buffer_sizes_beyond_the_64_bit_range_are_refused_not_wrapped() {
    let Some(_gpu) = gpu("buffer sizes near the 64-bit limit") else { return };
    let insufficient = Status::OXSPARSE_STATUS_INSUFFICIENT_RESOURCES as i32;
    let (f32t, i64t) = (CUDA_R_32F as i32, 3);
    let fake = |a: u64| a as *mut c_void;
    unsafe {
        let mut h: oxsparseHandle_t = null_mut();
        assert_eq!(oxsparseCreate(&mut h), OK);
        let (mut a, mut bd, mut cd, mut xd, mut yd) = (null_mut(), null_mut(), null_mut(), null_mut(), null_mut());
        let (m, k, nnz) = (1i64 << 31, 1i64 << 31, 1i64 << 62);
        assert_eq!(oxsparseCreateCoo(&mut a, m, k, nnz, fake(0x1000), fake(0x2000), fake(0x3000), i64t, 0, f32t), OK);
        assert_eq!(oxsparseCreateDnMat(&mut bd, k, 8, 8, fake(0x4000), f32t, 2), OK);
        assert_eq!(oxsparseCreateDnMat(&mut cd, m, 8, 8, fake(0x5000), f32t, 2), OK);
        assert_eq!(oxsparseCreateDnVec(&mut xd, k, fake(0x6000), f32t), OK);
        assert_eq!(oxsparseCreateDnVec(&mut yd, m, fake(0x7000), f32t), OK);
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (al, be) = (&alpha as *const f32 as *const c_void, &beta as *const f32 as *const c_void);
        let mut size = 12345usize;
        assert_eq!(oxsparseSpMM_bufferSize(h, 0, 0, al, a, bd, be, cd, f32t, 0, &mut size), insufficient, "SpMM_bufferSize");
        assert_eq!(oxsparseSpMV_bufferSize(h, 0, al, a, xd, be, yd, f32t, 0, &mut size), insufficient, "SpMV_bufferSize");
        assert_eq!(size, 12345, "a refused bufferSize wrote its output");
        for d in [bd, cd] {
            assert_eq!(oxsparseDestroyDnMat(d), OK);
        }
        for d in [xd, yd] {
            assert_eq!(oxsparseDestroyDnVec(d), OK);
        }
        assert_eq!(oxsparseDestroySpMat(a), OK);
        assert_eq!(oxsparseDestroy(h), OK);
    }
}
