//! The host tier: descriptor create / get / set / destroy, GetProperty and the error strings, over
//! descriptors with fake aligned device addresses (a descriptor records its pointers and never
//! dereferences them, so none of this needs a GPU).

use super::snapshot::{describe, Sentinels};
use super::table::*;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::handle::*;
use oxsparse::types::DataType::CUDA_R_32F;
use std::ffi::CStr;
use std::os::raw::c_int;
use std::ptr::null_mut;
use std::rc::Rc;
use Arg::*;
use Kind::*;

/// Fake device addresses, aligned to 64 KiB: A's three arrays (every format), dense B and C, x and
/// y, and the sparse vector's indices and values.
pub const OFFSETS: u64 = 0x10_0000;
pub const INDICES: u64 = 0x20_0000;
pub const VALUES: u64 = 0x30_0000;
pub const B_VALUES: u64 = 0x40_0000;
pub const C_VALUES: u64 = 0x50_0000;
pub const X_VALUES: u64 = 0x60_0000;
pub const Y_VALUES: u64 = 0x70_0000;
pub const SX_INDICES: u64 = 0x80_0000;
pub const SX_VALUES: u64 = 0x90_0000;

pub const R32F: i32 = CUDA_R_32F as i32;
pub const R64F: i32 = oxsparse::types::DataType::CUDA_R_64F as i32;
pub const I32: i32 = 2;
pub const I64: i32 = 3;
pub const ROW: i32 = 2;
pub const COL: i32 = 1;

/// Gaps between enumerators, refused like any value outside them.
pub const INDEX_TYPE_GAPS: &[i32] = &[0, 4];
pub const BASE_GAPS: &[i32] = &[2];
pub const ORDER_GAPS: &[i32] = &[0, 3];

/// Values the calls read through `In` pointers, at a fixed address.
#[repr(C)]
pub struct HostInputs {
    /// alpha and c_coeff: 1.0 in FP32, the rows' compute type (16 bytes, so a row that reads them
    /// as another type stays inside).
    pub one: [f32; 4],
    /// beta and s_coeff: 0.
    pub zero: [f32; 4],
    pub fill_lower: c_int,
    pub fill_bad: c_int,
    pub diag_bad: c_int,
}

/// Descriptors of every kind and format (8 x 6 matrices, B 6 x 4, C 8 x 4, vectors of 6 and 8),
/// one destroyed object of each descriptor kind, the sentinel area and the host inputs.
pub struct HostFixture {
    pub sentinels: Sentinels,
    pub inputs: Box<HostInputs>,
    pub csr: u64,
    pub csc: u64,
    pub coo: u64,
    pub bsr: u64,
    pub bell: u64,
    pub sell: u64,
    pub b: u64,
    pub c: u64,
    pub x: u64,
    pub y: u64,
    pub sx: u64,
    pub objects: Objects,
    all: Vec<(Kind, u64)>,
}

fn check(s: c_int, what: &str) {
    assert_eq!(s, SUCCESS, "fixture: {what} returned {}", status_name(s));
}

/// Fresh descriptors of each kind with the fixture's shapes and fake addresses.
pub fn new_csr() -> u64 {
    let mut d = null_mut();
    check(unsafe { oxsparseCreateCsr(&mut d, 8, 6, 10, ptr(OFFSETS), ptr(INDICES), ptr(VALUES), I32, I32, 0, R32F) }, "CreateCsr");
    d as u64
}
pub fn new_dn_mat(rows: i64, cols: i64, values: u64) -> u64 {
    let mut d = null_mut();
    check(unsafe { oxsparseCreateDnMat(&mut d, rows, cols, cols, ptr(values), R32F, ROW) }, "CreateDnMat");
    d as u64
}
pub fn new_dn_vec(size: i64, values: u64) -> u64 {
    let mut d = null_mut();
    check(unsafe { oxsparseCreateDnVec(&mut d, size, ptr(values), R32F) }, "CreateDnVec");
    d as u64
}
pub fn new_mat_descr() -> u64 {
    let mut d = null_mut();
    check(unsafe { oxsparse::ffi::mat_descr::oxsparseCreateMatDescr(&mut d) }, "CreateMatDescr");
    d as u64
}
pub fn new_sp_vec(indices: u64, values: u64) -> u64 {
    let mut d = null_mut();
    check(unsafe { oxsparseCreateSpVec(&mut d, 8, 3, ptr(indices), ptr(values), I32, 0, R32F) }, "CreateSpVec");
    d as u64
}

/// Makes an object and destroys it: its name is dead for good.
pub fn dead(make: impl Fn() -> u64, kind: Kind) -> u64 {
    let v = make();
    check(destroy(kind, v), "destroying a fixture object");
    v
}

impl HostFixture {
    pub fn new() -> HostFixture {
        let (o, i, v) = (ptr::<std::ffi::c_void>(OFFSETS), ptr(INDICES), ptr(VALUES));
        let mut m = [null_mut(); 5];
        unsafe {
            check(oxsparseCreateCsc(&mut m[0], 8, 6, 10, o, i, v, I32, I32, 0, R32F), "CreateCsc");
            check(oxsparseCreateCoo(&mut m[1], 8, 6, 10, o, i, v, I32, 0, R32F), "CreateCoo");
            check(oxsparseCreateBsr(&mut m[2], 4, 3, 5, 2, 2, o, i, v, I32, I32, 0, R32F, ROW), "CreateBsr");
            check(oxsparseCreateBlockedEll(&mut m[3], 8, 6, 2, 4, i, v, I32, 0, R32F), "CreateBlockedEll");
            check(oxsparseCreateSlicedEll(&mut m[4], 8, 6, 10, 16, 4, o, i, v, I32, I32, 0, R32F), "CreateSlicedEll");
        }
        let [csc, coo, bsr, bell, sell] = m.map(|d| d as u64);
        let (csr, b, c) = (new_csr(), new_dn_mat(6, 4, B_VALUES), new_dn_mat(8, 4, C_VALUES));
        let (x, y, sx) = (new_dn_vec(6, X_VALUES), new_dn_vec(8, Y_VALUES), new_sp_vec(SX_INDICES, SX_VALUES));
        let dead_dn_vec = dead(|| new_dn_vec(6, X_VALUES), DnVec);
        // No handle, BitTCF, BRCV or SR-BCRS can be made without a GPU: a destroyed descriptor's name stands in
        // (a dead name is refused whatever kind it had).
        let dead = [
            dead_dn_vec,
            dead(|| new_sp_vec(SX_INDICES, SX_VALUES), SpVec),
            dead_dn_vec,
            dead(new_csr, SpMat),
            dead(|| new_dn_mat(6, 4, B_VALUES), DnMat),
            dead_dn_vec,
            dead_dn_vec,
            dead(new_mat_descr, MatDescr),
            dead_dn_vec,
        ];
        let descr_a = new_mat_descr();
        // Live objects of each kind, for the wrong-kind rows (no handle, BitTCF, BRCV or SR-BCRS
        // here either).
        let live = [x, sx, x, csr, b, csr, csr, descr_a, csr];
        let all = vec![
            (SpMat, csr),
            (SpMat, csc),
            (SpMat, coo),
            (SpMat, bsr),
            (SpMat, bell),
            (SpMat, sell),
            (DnMat, b),
            (DnMat, c),
            (DnVec, x),
            (DnVec, y),
            (SpVec, sx),
            (DnVec, dead_dn_vec),
            (SpMat, dead[SpMat.index()]),
            (MatDescr, descr_a),
            (MatDescr, dead[MatDescr.index()]),
        ];
        let inputs = Box::new(HostInputs { one: [1.0; 4], zero: [0.0; 4], fill_lower: 0, fill_bad: 5, diag_bad: 7 });
        HostFixture {
            sentinels: Sentinels::new(),
            inputs,
            csr,
            csc,
            coo,
            bsr,
            bell,
            sell,
            b,
            c,
            x,
            y,
            sx,
            objects: Objects { dead, live },
            all,
        }
    }

    pub fn s(&self, i: usize) -> u64 {
        self.sentinels.slot(i)
    }

    pub fn one(&self) -> u64 {
        self.inputs.one.as_ptr() as u64
    }

    pub fn zero(&self) -> u64 {
        self.inputs.zero.as_ptr() as u64
    }
}

impl Drop for HostFixture {
    fn drop(&mut self) {
        for &(kind, v) in &self.all {
            destroy(kind, v);
        }
    }
}

impl Watch for HostFixture {
    fn state(&self) -> Snapshot {
        Snapshot(self.all.iter().map(|&(kind, v)| (format!("{kind:?} {v:#x}"), describe(kind, v).into_bytes())).collect())
    }
    fn outputs(&self) -> Snapshot {
        Snapshot(vec![("the sentinel area".into(), self.sentinels.bytes())])
    }
    fn reset(&self) {
        self.sentinels.refill();
    }
}

pub type Caller = fn(&[u64]) -> c_int;

/// Every row of the host tier's own functions.
pub fn rows(t: &mut Table, fx: &HostFixture) {
    library(t, fx);
    dense(t, fx);
    sparse_vector(t, fx);
    super::sparse_matrix::rows(t, fx);
    super::legacy::host_rows(t, fx);
}

fn library(t: &mut Table, fx: &HostFixture) {
    t.func("oxsparseGetProperty", &[("type", Enum(0, &[3])), ("value", Out(fx.s(0)))], |a| unsafe {
        oxsparseGetProperty(int(a[0]), ptr(a[1]))
    });
    type Text = extern "C" fn(c_int) -> *const std::os::raw::c_char;
    for (func, text, known) in [
        ("oxsparseGetErrorName", oxsparseGetErrorName as Text, "OXSPARSE_STATUS_INVALID_VALUE"),
        ("oxsparseGetErrorString", oxsparseGetErrorString as Text, "invalid value"),
    ] {
        // Not a status: the row's call reports SUCCESS when the text is the one expected.
        let says = move |status: c_int, want: &'static str| {
            move || {
                let got = unsafe { CStr::from_ptr(text(status)) }.to_str().unwrap_or("");
                if got == want {
                    SUCCESS
                } else {
                    INVALID
                }
            }
        };
        t.row(func, format!("status 3 gives \"{known}\""), SUCCESS, says(3, known));
        for bad in [-1, 12, 12345] {
            t.row(func, format!("status {bad} gives \"unrecognized error code\""), SUCCESS, says(bad, "unrecognized error code"));
        }
    }
}

fn dense(t: &mut Table, fx: &HostFixture) {
    let creates: [(&'static str, Caller); 2] = [
        ("oxsparseCreateDnVec", |a| unsafe { oxsparseCreateDnVec(ptr(a[0]), size(a[1]), ptr(a[2]), int(a[3])) }),
        ("oxsparseCreateConstDnVec", |a| unsafe { oxsparseCreateConstDnVec(ptr(a[0]), size(a[1]), cptr(a[2]), int(a[3])) }),
    ];
    for (func, call) in creates {
        let args = [("dnVecDescr", Made(fx.s(0), DnVec)), ("size", Size(6)), ("values", Data(X_VALUES, 4)), ("valueType", Enum(R32F, &[]))];
        t.func(func, &args, call)
            .bad("values NULL with size 6", &[("values", 0)], INVALID)
            .bad("values NULL with size 0 (an empty vector)", &[("values", 0), ("size", 0)], SUCCESS)
            .bad("values at 0x600004 for FP64", &[("values", X_VALUES + 4), ("valueType", R64F as u64)], INVALID);
    }
    let gets: [(&'static str, Caller); 2] = [
        ("oxsparseDnVecGet", |a| unsafe { oxsparseDnVecGet(ptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3])) }),
        ("oxsparseConstDnVecGet", |a| unsafe { oxsparseConstDnVecGet(cptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3])) }),
    ];
    for (func, call) in gets {
        t.func(
            func,
            &[("dnVecDescr", Obj(DnVec, fx.x)), ("size", Out(fx.s(0))), ("values", Out(fx.s(1))), ("valueType", Out(fx.s(2)))],
            call,
        );
    }
    let values: [(&'static str, Caller); 2] = [
        ("oxsparseDnVecGetValues", |a| unsafe { oxsparseDnVecGetValues(ptr(a[0]), ptr(a[1])) }),
        ("oxsparseConstDnVecGetValues", |a| unsafe { oxsparseConstDnVecGetValues(cptr(a[0]), ptr(a[1])) }),
    ];
    for (func, call) in values {
        t.func(func, &[("dnVecDescr", Obj(DnVec, fx.x)), ("values", Out(fx.s(0)))], call);
    }
    t.func("oxsparseDnVecSetValues", &[("dnVecDescr", Obj(DnVec, fx.x)), ("values", Data(X_VALUES, 4))], |a| unsafe {
        oxsparseDnVecSetValues(ptr(a[0]), ptr(a[1]))
    })
    .bad("values NULL with size 6", &[("values", 0)], INVALID);
    t.destroy_rows("oxsparseDestroyDnVec", DnVec, SUCCESS, Some(Rc::new(|| new_dn_vec(6, X_VALUES))));

    let creates: [(&'static str, Caller); 2] = [
        ("oxsparseCreateDnMat", |a| unsafe {
            oxsparseCreateDnMat(ptr(a[0]), size(a[1]), size(a[2]), size(a[3]), ptr(a[4]), int(a[5]), int(a[6]))
        }),
        ("oxsparseCreateConstDnMat", |a| unsafe {
            oxsparseCreateConstDnMat(ptr(a[0]), size(a[1]), size(a[2]), size(a[3]), cptr(a[4]), int(a[5]), int(a[6]))
        }),
    ];
    for (func, call) in creates {
        let args = [
            ("dnMatDescr", Made(fx.s(0), DnMat)),
            ("rows", Size(6)),
            ("cols", Size(4)),
            ("ld", Size(4)),
            ("values", Data(B_VALUES, 4)),
            ("valueType", Enum(R32F, &[])),
            ("order", Enum(ROW, ORDER_GAPS)),
        ];
        t.func(func, &args, call)
            .bad("ld 3 < cols 4 in row-major order", &[("ld", 3)], INVALID)
            .bad("ld 4 < rows 6 in column-major order", &[("order", COL as u64)], INVALID)
            .bad("values NULL for a 6 x 4 matrix", &[("values", 0)], INVALID)
            .bad("rows x cols overflows int64 (2^32 x 2^32)", &[("rows", 1 << 32), ("cols", 1 << 32), ("ld", 1 << 32)], INVALID)
            .bad("values NULL, ld 0 for a 0 x 4 matrix (empty)", &[("rows", 0), ("ld", 0), ("values", 0)], SUCCESS);
    }
    let gets: [(&'static str, Caller); 2] = [
        ("oxsparseDnMatGet", |a| unsafe { oxsparseDnMatGet(ptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6])) }),
        ("oxsparseConstDnMatGet", |a| unsafe {
            oxsparseConstDnMatGet(cptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6]))
        }),
    ];
    for (func, call) in gets {
        let args = [
            ("dnMatDescr", Obj(DnMat, fx.b)),
            ("rows", Out(fx.s(0))),
            ("cols", Out(fx.s(1))),
            ("ld", Out(fx.s(2))),
            ("values", Out(fx.s(3))),
            ("type", Out(fx.s(4))),
            ("order", Out(fx.s(5))),
        ];
        t.func(func, &args, call);
    }
    let values: [(&'static str, Caller); 2] = [
        ("oxsparseDnMatGetValues", |a| unsafe { oxsparseDnMatGetValues(ptr(a[0]), ptr(a[1])) }),
        ("oxsparseConstDnMatGetValues", |a| unsafe { oxsparseConstDnMatGetValues(cptr(a[0]), ptr(a[1])) }),
    ];
    for (func, call) in values {
        t.func(func, &[("dnMatDescr", Obj(DnMat, fx.b)), ("values", Out(fx.s(0)))], call);
    }
    t.func("oxsparseDnMatSetValues", &[("dnMatDescr", Obj(DnMat, fx.b)), ("values", Data(B_VALUES, 4))], |a| unsafe {
        oxsparseDnMatSetValues(ptr(a[0]), ptr(a[1]))
    })
    .bad("values NULL for a 6 x 4 matrix", &[("values", 0)], INVALID);
    t.func(
        "oxsparseDnMatSetStridedBatch",
        &[("dnMatDescr", Obj(DnMat, fx.b)), ("batchCount", Count(1)), ("batchStride", Size(0))],
        |a| unsafe { oxsparseDnMatSetStridedBatch(ptr(a[0]), int(a[1]), size(a[2])) },
    )
    .bad("2 batches 23 apart, less than ld x rows = 24", &[("batchCount", 2), ("batchStride", 23)], INVALID);
    t.func(
        "oxsparseDnMatGetStridedBatch",
        &[("dnMatDescr", Obj(DnMat, fx.b)), ("batchCount", Out(fx.s(0))), ("batchStride", Out(fx.s(1)))],
        |a| unsafe { oxsparseDnMatGetStridedBatch(cptr(a[0]), ptr(a[1]), ptr(a[2])) },
    );
    t.destroy_rows("oxsparseDestroyDnMat", DnMat, SUCCESS, Some(Rc::new(|| new_dn_mat(6, 4, B_VALUES))));
}

fn sparse_vector(t: &mut Table, fx: &HostFixture) {
    let creates: [(&'static str, Caller); 2] = [
        ("oxsparseCreateSpVec", |a| unsafe {
            oxsparseCreateSpVec(ptr(a[0]), size(a[1]), size(a[2]), ptr(a[3]), ptr(a[4]), int(a[5]), int(a[6]), int(a[7]))
        }),
        ("oxsparseCreateConstSpVec", |a| unsafe {
            oxsparseCreateConstSpVec(ptr(a[0]), size(a[1]), size(a[2]), cptr(a[3]), cptr(a[4]), int(a[5]), int(a[6]), int(a[7]))
        }),
    ];
    for (func, call) in creates {
        let args = [
            ("spVecDescr", Made(fx.s(0), SpVec)),
            ("size", Size(8)),
            ("nnz", Size(3)),
            ("indices", Data(SX_INDICES, 4)),
            ("values", Data(SX_VALUES, 4)),
            ("idxType", Enum(I32, INDEX_TYPE_GAPS)),
            ("idxBase", Enum(0, BASE_GAPS)),
            ("valueType", Enum(R32F, &[])),
        ];
        t.func(func, &args, call)
            .bad("nnz 9 > size 8", &[("nnz", 9)], INVALID)
            .bad("indices NULL with nnz 3", &[("indices", 0)], INVALID)
            .bad("values NULL with nnz 3", &[("values", 0)], INVALID)
            .bad("size 2^31 with 32-bit indices", &[("size", 1 << 31)], INVALID)
            .bad("indices at 0x800004 for 64-bit indices", &[("indices", SX_INDICES + 4), ("idxType", I64 as u64)], INVALID);
    }
    let gets: [(&'static str, Caller); 2] = [
        ("oxsparseSpVecGet", |a| unsafe {
            oxsparseSpVecGet(ptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6]), ptr(a[7]))
        }),
        ("oxsparseConstSpVecGet", |a| unsafe {
            oxsparseConstSpVecGet(cptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6]), ptr(a[7]))
        }),
    ];
    for (func, call) in gets {
        let args = [
            ("spVecDescr", Obj(SpVec, fx.sx)),
            ("size", Out(fx.s(0))),
            ("nnz", Out(fx.s(1))),
            ("indices", Out(fx.s(2))),
            ("values", Out(fx.s(3))),
            ("idxType", Out(fx.s(4))),
            ("idxBase", Out(fx.s(5))),
            ("valueType", Out(fx.s(6))),
        ];
        t.func(func, &args, call);
    }
    t.func("oxsparseSpVecGetIndexBase", &[("spVecDescr", Obj(SpVec, fx.sx)), ("idxBase", Out(fx.s(0)))], |a| unsafe {
        oxsparseSpVecGetIndexBase(cptr(a[0]), ptr(a[1]))
    });
    let values: [(&'static str, Caller); 2] = [
        ("oxsparseSpVecGetValues", |a| unsafe { oxsparseSpVecGetValues(ptr(a[0]), ptr(a[1])) }),
        ("oxsparseConstSpVecGetValues", |a| unsafe { oxsparseConstSpVecGetValues(cptr(a[0]), ptr(a[1])) }),
    ];
    for (func, call) in values {
        t.func(func, &[("spVecDescr", Obj(SpVec, fx.sx)), ("values", Out(fx.s(0)))], call);
    }
    t.func("oxsparseSpVecSetValues", &[("spVecDescr", Obj(SpVec, fx.sx)), ("values", Data(SX_VALUES, 4))], |a| unsafe {
        oxsparseSpVecSetValues(ptr(a[0]), ptr(a[1]))
    })
    .bad("values NULL with nnz 3", &[("values", 0)], INVALID);
    t.destroy_rows("oxsparseDestroySpVec", SpVec, SUCCESS, Some(Rc::new(|| new_sp_vec(SX_INDICES, SX_VALUES))));
}
