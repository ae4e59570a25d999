//! An object as its getters see it, every getter of its kind with the status each returned, and
//! the sentinel area output pointers point into.

use super::table::{cptr, ptr, Kind};
use oxsparse::ffi::bittcf::*;
use oxsparse::ffi::brcv::*;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::descr_sparse_access::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::mat_descr::*;
use oxsparse::ffi::srbcrs::*;
use std::os::raw::{c_int, c_void};
use std::ptr::null_mut;

/// What every getter of `kind` reports for `v`, as text (statuses included, so a destroyed object
/// reads differently from a live one).
pub fn describe(kind: Kind, v: u64) -> String {
    // SAFETY: the getters refuse what is not a live object of their kind; the outputs are locals.
    unsafe {
        match kind {
            Kind::Handle => handle(v),
            Kind::SpVec => sp_vec(v),
            Kind::DnVec => dn_vec(v),
            Kind::SpMat => sp_mat(v),
            Kind::DnMat => dn_mat(v),
            Kind::BitTcf => bit_tcf(v),
            Kind::Brcv => brcv(v),
            Kind::MatDescr => mat_descr(v),
            Kind::SrBcrs => sr_bcrs(v),
        }
    }
}

unsafe fn handle(v: u64) -> String {
    let h = ptr(v);
    let mut stream = null_mut();
    let (mut pointer, mut math, mut reorder) = (-1, -1, -1);
    let s = [
        oxsparseGetStream(h, &mut stream),
        oxsparseGetPointerMode(h, &mut pointer),
        oxsparseGetMathMode(h, &mut math),
        oxsparseGetReorderMode(h, &mut reorder),
    ];
    format!("{s:?} stream {stream:?} pointer mode {pointer} math {math} reorder {reorder}")
}

unsafe fn sp_vec(v: u64) -> String {
    let d = ptr(v);
    let (mut size, mut nnz, mut indices, mut values, mut it, mut base, mut vt) = (0i64, 0i64, null_mut(), null_mut(), -1, -1, -1);
    let s = oxsparseSpVecGet(d, &mut size, &mut nnz, &mut indices, &mut values, &mut it, &mut base, &mut vt);
    let mut base2 = -1;
    let s2 = oxsparseSpVecGetIndexBase(d, &mut base2);
    format!("{s} {size} {nnz} {indices:?} {values:?} {it} {base} {vt}; {s2} {base2}")
}

unsafe fn dn_vec(v: u64) -> String {
    let (mut size, mut values, mut vt) = (0i64, null_mut(), -1);
    let s = oxsparseDnVecGet(ptr(v), &mut size, &mut values, &mut vt);
    format!("{s} {size} {values:?} {vt}")
}

unsafe fn dn_mat(v: u64) -> String {
    let d = ptr(v);
    let (mut rows, mut cols, mut ld, mut values, mut vt, mut order) = (0i64, 0i64, 0i64, null_mut(), -1, -1);
    let s = oxsparseDnMatGet(d, &mut rows, &mut cols, &mut ld, &mut values, &mut vt, &mut order);
    let (mut count, mut stride) = (0, 0i64);
    let s2 = oxsparseDnMatGetStridedBatch(d, &mut count, &mut stride);
    format!("{s} {rows} {cols} {ld} {values:?} {vt} {order}; {s2} {count} {stride}")
}

unsafe fn sp_mat(v: u64) -> String {
    let d = ptr(v);
    let mut out = String::new();
    let (mut rows, mut cols, mut nnz) = (0i64, 0i64, 0i64);
    let s = oxsparseSpMatGetSize(d, &mut rows, &mut cols, &mut nnz);
    out += &format!("size {s} {rows} {cols} {nnz}; ");
    let (mut format, mut base, mut count) = (-1, -1, -1);
    let s = [oxsparseSpMatGetFormat(d, &mut format), oxsparseSpMatGetIndexBase(d, &mut base), oxsparseSpMatGetStridedBatch(d, &mut count)];
    out += &format!("{s:?} format {format} base {base} batches {count}; ");
    let (mut fill, mut diag) = (-1 as c_int, -1 as c_int);
    let sz = std::mem::size_of::<c_int>();
    let s = [
        oxsparseSpMatGetAttribute(d, 0, &mut fill as *mut c_int as *mut c_void, sz),
        oxsparseSpMatGetAttribute(d, 1, &mut diag as *mut c_int as *mut c_void, sz),
    ];
    let mut values = null_mut();
    let s2 = oxsparseSpMatGetValues(d, &mut values);
    out += &format!("attributes {s:?} {fill} {diag}; values {s2} {values:?}; ");
    // The per-format getters: the descriptor's own answers, the others refuse.
    let (mut a, mut b, mut c) = (null_mut(), null_mut(), null_mut());
    let (mut t1, mut t2, mut base, mut vt) = (-1, -1, -1, -1);
    let csr = oxsparseCsrGet(d, &mut rows, &mut cols, &mut nnz, &mut a, &mut b, &mut c, &mut t1, &mut t2, &mut base, &mut vt);
    out += &format!("csr {csr} {rows} {cols} {nnz} {a:?} {b:?} {c:?} {t1} {t2} {base} {vt}; ");
    let csc = oxsparseCscGet(d, &mut rows, &mut cols, &mut nnz, &mut a, &mut b, &mut c, &mut t1, &mut t2, &mut base, &mut vt);
    out += &format!("csc {csc} {rows} {cols} {nnz} {a:?} {b:?} {c:?} {t1} {t2} {base} {vt}; ");
    let coo = oxsparseCooGet(d, &mut rows, &mut cols, &mut nnz, &mut a, &mut b, &mut c, &mut t1, &mut base, &mut vt);
    out += &format!("coo {coo} {rows} {cols} {nnz} {a:?} {b:?} {c:?} {t1} {base} {vt}; ");
    let (mut block, mut ell_cols) = (0i64, 0i64);
    let bell = oxsparseBlockedEllGet(d, &mut rows, &mut cols, &mut block, &mut ell_cols, &mut b, &mut c, &mut t1, &mut base, &mut vt);
    out += &format!("blocked-ell {bell} {rows} {cols} {block} {ell_cols} {b:?} {c:?} {t1} {base} {vt}");
    out
}

unsafe fn bit_tcf(v: u64) -> String {
    let (mut m, mut k, mut nnz, mut reordered, mut tc) = (0i64, 0i64, 0i64, -1, -2);
    let s = oxsparseBitTcfGetInfo(cptr(v), &mut m, &mut k, &mut nnz, &mut reordered, &mut tc);
    format!("{s} {m} {k} {nnz} {reordered} {tc}")
}

unsafe fn brcv(v: u64) -> String {
    let mut info = [-1i64; 6];
    let [m, k, nnz, values, far, widest] = info.each_mut();
    let s = oxsparseBrcvGetInfo(cptr(v), m, k, nnz, values, far, widest);
    format!("{s} {info:?}")
}

unsafe fn sr_bcrs(v: u64) -> String {
    let (mut m, mut k, mut nnz, mut vl, mut stride, mut vectors) = (0i64, 0i64, 0i64, -1, -1, -1i64);
    let (mut offsets, mut columns, mut values) = (std::ptr::null(), std::ptr::null(), std::ptr::null());
    let s = oxsparseSrBcrsGetInfo(
        cptr(v),
        &mut m,
        &mut k,
        &mut nnz,
        &mut vl,
        &mut stride,
        &mut vectors,
        &mut offsets,
        &mut columns,
        &mut values,
    );
    format!("{s} {m} {k} {nnz} {vl} {stride} {vectors} {offsets:?} {columns:?} {values:?}")
}

/// The four fields; a descriptor that is not live reads as the defaults, so its liveness is read
/// through a setter that changes nothing on a live one (the default type again).
unsafe fn mat_descr(v: u64) -> String {
    let d = ptr(v);
    let fields = [oxsparseGetMatType(d), oxsparseGetMatFillMode(d), oxsparseGetMatDiagType(d), oxsparseGetMatIndexBase(d)];
    let live = oxsparseSetMatType(d, fields[0]);
    format!("{live} {fields:?}")
}

/// Host memory that output pointers point into: 64 slots of 64 bytes, filled with 0xAB, which a
/// refused call must leave as they are.
pub struct Sentinels {
    /// Owned (a leaked `Box<[u64; 512]>`, freed on drop); written only through raw pointers.
    area: *mut u8,
}

impl Sentinels {
    const BYTES: usize = 4096;

    pub fn new() -> Sentinels {
        let s = Sentinels { area: Box::into_raw(Box::new([0u64; Self::BYTES / 8])) as *mut u8 };
        s.refill();
        s
    }

    /// Slot `i`: 64 bytes, aligned to 64.
    pub fn slot(&self, i: usize) -> u64 {
        assert!(i < Self::BYTES / 64);
        self.area as u64 + (i * 64) as u64
    }

    pub fn refill(&self) {
        // SAFETY: the area is ours and BYTES long.
        unsafe { std::ptr::write_bytes(self.area, 0xAB, Self::BYTES) };
    }

    pub fn bytes(&self) -> Vec<u8> {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts(self.area, Self::BYTES).to_vec() }
    }
}

impl Drop for Sentinels {
    fn drop(&mut self) {
        // SAFETY: made by Box::into_raw in `new`.
        drop(unsafe { Box::from_raw(self.area as *mut [u64; Self::BYTES / 8]) });
    }
}
