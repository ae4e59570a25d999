//! The SR-BCRS object's rows: creation from an int8 CSR over the fixture's 8 x 6 pattern, its
//! getters, the SpMM's three entry points (B 6 x 4 int8, C 8 x 4 int32, both row-major), the row
//! scale's setter (last: it leaves the object scaled) and Destroy;
//! each argument's automatic bad values, and the object's own rows: vector lengths other than 2, 4
//! or 8, FP32 values, shapes that disagree, B, C and compute types it does not take. The SDDMM's
//! three entry points on the object (A 8 x 4 int8 row-major, B 4 x 6 int8 column-major, vecC of
//! int32 over the object's slots): shapes and sizes that disagree, types it does not take (B
//! wider than A), an object of int16 values (made over the same pattern: its slots are ordered as
//! int8's). `oxsparseCreateSrBcrsFromArrays` over the object's own arrays: sizes, vector length,
//! value type, vector count, offsets and columns that break the layout. Its arrays and
//! descriptors are a `Part` of the GPU fixture, watched like the rest.

use super::descriptors::{COL, I32, R32F, ROW};
use super::gpu::Operands;
use super::table::*;
use crate::common::DevBuf;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::srbcrs::*;
use oxsparse::types::DataType;
use std::os::raw::c_int;
use std::ptr::null_mut;
use std::rc::Rc;
use Arg::*;
use Kind::{DnMat, DnVec, SpMat, SrBcrs};

const R8I: i32 = DataType::CUDA_R_8I as i32;
const R16I: i32 = DataType::CUDA_R_16I as i32;
const R32I: i32 = DataType::CUDA_R_32I as i32;

/// The object (V = 4) of `a8`; A of int8 (8 x 6) and of FP32 (the fixture's); B of int8 (6 x 4)
/// and of 5 rows; C of int32 (8 x 4) and of 7 rows; the fixture's FP32 B and C stand for the
/// wrong types.
#[derive(Clone, Copy)]
pub struct SrBcrsOperands {
    pub obj: u64,
    pub a8: u64,
    pub b8: u64,
    pub b8_5: u64,
    pub c32: u64,
    pub c32_7: u64,
    /// 8 FP32 row scales.
    pub scale: u64,
    /// SDDMM: A (8 x 4) and of 7 rows, B (4 x 6) and of 3 rows, vecC over the object's slots (int32)
    /// and one shorter.
    pub sa: u64,
    pub sa_7: u64,
    pub sb: u64,
    pub sb_3: u64,
    pub vc: u64,
    pub vc_short: u64,
    /// An object of int16 values over the same pattern (its CSR `a16`).
    pub a16: u64,
    pub obj16: u64,
    /// SDDMM: B of int16 (4 x 6, column-major), wider than A.
    pub sb16: u64,
    /// The object's own arrays (`oxsparseSrBcrsGetInfo`) and stored vectors, for
    /// `oxsparseCreateSrBcrsFromArrays`.
    pub offsets: u64,
    pub columns: u64,
    pub values: u64,
    pub vectors: i64,
}

impl SrBcrsOperands {
    /// Without a GPU: the host fixture's descriptors stand in (no object can be made).
    pub fn stand_ins(a: u64, b: u64, c: u64) -> SrBcrsOperands {
        SrBcrsOperands {
            obj: NEVER_ISSUED,
            a8: a,
            b8: b,
            b8_5: b,
            c32: c,
            c32_7: c,
            scale: b,
            sa: b,
            sa_7: b,
            sb: b,
            sb_3: b,
            vc: c,
            vc_short: c,
            a16: a,
            obj16: NEVER_ISSUED,
            sb16: b,
            offsets: b,
            columns: b,
            values: b,
            vectors: 32,
        }
    }
}

pub fn rows(t: &mut Table, o: &Operands) {
    let s = o.srbcrs;
    let args = [("handle", Handle(o.h)), ("matA", Obj(SpMat, s.a8)), ("vectorLength", Plain(4)), ("srBcrs", Made(o.slots[0], SrBcrs))];
    t.func("oxsparseCreateSrBcrs", &args, |a| unsafe { oxsparseCreateSrBcrs(ptr(a[0]), cptr(a[1]), int(a[2]), ptr(a[3])) })
        .bad("vectorLength 3", &[("vectorLength", 3)], INVALID)
        .bad("vectorLength 0", &[("vectorLength", 0)], INVALID)
        .bad("vectorLength 16", &[("vectorLength", 16)], INVALID)
        .bad("vectorLength -1", &[("vectorLength", -1i64 as u64)], INVALID)
        .bad("vectorLength 8", &[("vectorLength", 8)], SUCCESS)
        .bad("A of FP32 values", &[("matA", o.a)], UNSUPPORTED);
    let outs = ["rows", "cols", "nnz", "vectorLength", "stride", "vectors", "vectorOffsets", "vectorColumns", "values"];
    let mut args = vec![("srBcrs", Obj(SrBcrs, s.obj))];
    args.extend(outs.iter().zip(0..).map(|(&n, i)| (n, OptOut(o.slots[0] + 8 * i))));
    let nulls: Vec<(&str, u64)> = outs.iter().map(|&n| (n, 0)).collect();
    t.func("oxsparseSrBcrsGetInfo", &args, |a| unsafe {
        oxsparseSrBcrsGetInfo(cptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6]), ptr(a[7]), ptr(a[8]), ptr(a[9]))
    })
    .bad("every output NULL", &nulls, SUCCESS);
    let args = [("srBcrs", Obj(SrBcrs, s.obj)), ("valueType", Out(o.slots[0]))];
    t.func("oxsparseSrBcrsGetValueType", &args, |a| unsafe { oxsparseSrBcrsGetValueType(cptr(a[0]), ptr(a[1])) });
    type Entry = fn(&[u64]) -> c_int;
    let calls: [(&'static str, (&'static str, Arg), Entry); 3] = [
        ("oxsparseSpMM_srBcrs_bufferSize", ("bufferSize", Out(o.slots[0])), |a| unsafe {
            oxsparseSpMM_srBcrs_bufferSize(ptr(a[0]), cptr(a[1]), cptr(a[2]), cptr(a[3]), cptr(a[4]), cptr(a[5]), int(a[6]), ptr(a[7]))
        }),
        ("oxsparseSpMM_srBcrs_preprocess", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSpMM_srBcrs_preprocess(ptr(a[0]), cptr(a[1]), cptr(a[2]), cptr(a[3]), cptr(a[4]), ptr(a[5]), int(a[6]), ptr(a[7]))
        }),
        ("oxsparseSpMM_srBcrs", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSpMM_srBcrs(ptr(a[0]), cptr(a[1]), cptr(a[2]), cptr(a[3]), cptr(a[4]), ptr(a[5]), int(a[6]), ptr(a[7]))
        }),
    ];
    for (func, last, call) in calls {
        let args = [
            ("handle", Handle(o.h)),
            ("alpha", In(o.one)),
            ("srBcrs", Obj(SrBcrs, s.obj)),
            ("matB", Obj(DnMat, s.b8)),
            ("beta", In(o.zero)),
            ("matC", Obj(DnMat, s.c32)),
            ("computeType", Enum(R32I, &[])),
            last,
        ];
        let mut f = t.func(func, &args, call);
        f.bad("B has 5 rows for A's 6 columns", &[("matB", s.b8_5)], INVALID)
            .bad("C has 7 rows for A's 8", &[("matC", s.c32_7)], INVALID)
            .bad("B of FP32", &[("matB", o.b)], UNSUPPORTED)
            .bad("C of FP32 for int32 compute", &[("matC", o.c)], UNSUPPORTED)
            .bad("computeType R_32F for int32 C", &[("computeType", R32F as u64)], UNSUPPORTED)
            .bad("computeType R_8I", &[("computeType", R8I as u64)], UNSUPPORTED);
        if func != "oxsparseSpMM_srBcrs_bufferSize" {
            f.bad("externalBuffer NULL (none needed)", &[("externalBuffer", 0)], SUCCESS);
        }
    }
    sddmm_rows(t, o);
    from_arrays_rows(t, o);
    let args = [("handle", Handle(o.h)), ("srBcrs", Obj(SrBcrs, s.obj)), ("rowScale", Data(s.scale, 4))];
    t.func("oxsparseSrBcrsSetRowScale", &args, |a| unsafe { oxsparseSrBcrsSetRowScale(ptr(a[0]), ptr(a[1]), cptr(a[2])) }).bad(
        "rowScale NULL (no scale)",
        &[("rowScale", 0)],
        SUCCESS,
    );
    t.destroy_rows("oxsparseDestroySrBcrs", SrBcrs, SUCCESS, o.fresh_srbcrs.clone());
}

/// The SDDMM's entry points over the object (the fixture's C, FP32 8 x 4, stands for an A of the
/// wrong type).
fn sddmm_rows(t: &mut Table, o: &Operands) {
    let s = o.srbcrs;
    type Entry = fn(&[u64]) -> c_int;
    let calls: [(&'static str, (&'static str, Arg), Entry); 3] = [
        ("oxsparseSDDMM_srBcrs_bufferSize", ("bufferSize", Out(o.slots[0])), |a| unsafe {
            oxsparseSDDMM_srBcrs_bufferSize(
                ptr(a[0]),
                cptr(a[1]),
                cptr(a[2]),
                cptr(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                int(a[7]),
                ptr(a[8]),
            )
        }),
        ("oxsparseSDDMM_srBcrs_preprocess", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSDDMM_srBcrs_preprocess(
                ptr(a[0]),
                cptr(a[1]),
                cptr(a[2]),
                cptr(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                ptr(a[6]),
                int(a[7]),
                ptr(a[8]),
            )
        }),
        ("oxsparseSDDMM_srBcrs", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSDDMM_srBcrs(ptr(a[0]), cptr(a[1]), cptr(a[2]), cptr(a[3]), cptr(a[4]), cptr(a[5]), ptr(a[6]), int(a[7]), ptr(a[8]))
        }),
    ];
    for (func, last, call) in calls {
        let args = [
            ("handle", Handle(o.h)),
            ("alpha", In(o.one)),
            ("matA", Obj(DnMat, s.sa)),
            ("matB", Obj(DnMat, s.sb)),
            ("beta", In(o.zero)),
            ("srBcrs", Obj(SrBcrs, s.obj)),
            ("vecC", Obj(DnVec, s.vc)),
            ("computeType", Enum(R32I, &[])),
            last,
        ];
        let mut f = t.func(func, &args, call);
        f.bad("A has 7 rows for the object's 8", &[("matA", s.sa_7)], INVALID)
            .bad("B has 3 rows for A's 4 columns", &[("matB", s.sb_3)], INVALID)
            .bad("vecC one shorter than the slots", &[("vecC", s.vc_short)], INVALID)
            .bad("an object of int16 values (slots in int8's order)", &[("srBcrs", s.obj16)], SUCCESS)
            .bad("B of int16, wider than A", &[("matB", s.sb16)], UNSUPPORTED)
            .bad("A of FP32", &[("matA", o.c)], UNSUPPORTED)
            .bad("computeType R_32F for int32 vecC", &[("computeType", R32F as u64)], UNSUPPORTED)
            .bad("computeType R_8I", &[("computeType", R8I as u64)], UNSUPPORTED);
        if func != "oxsparseSDDMM_srBcrs_bufferSize" {
            f.bad("externalBuffer NULL (none needed)", &[("externalBuffer", 0)], SUCCESS);
        }
    }
}

/// `oxsparseCreateSrBcrsFromArrays` over the object's own arrays (8 x 6, V = 4, int8).
fn from_arrays_rows(t: &mut Table, o: &Operands) {
    let s = o.srbcrs;
    let args = [
        ("handle", Handle(o.h)),
        ("rows", Size(8)),
        ("cols", Size(6)),
        ("vectorLength", Plain(4)),
        ("vectors", Size(s.vectors)),
        ("vectorOffsets", Data(s.offsets, 4)),
        ("vectorColumns", Data(s.columns, 4)),
        ("values", Data(s.values, 1)),
        ("valueType", Enum(R8I, &[])),
        ("srBcrs", Made(o.slots[0], SrBcrs)),
    ];
    t.func("oxsparseCreateSrBcrsFromArrays", &args, |a| unsafe {
        oxsparseCreateSrBcrsFromArrays(
            ptr(a[0]),
            a[1] as i64,
            a[2] as i64,
            int(a[3]),
            a[4] as i64,
            cptr(a[5]),
            cptr(a[6]),
            cptr(a[7]),
            int(a[8]),
            ptr(a[9]),
        )
    })
    .bad("vectorLength 3", &[("vectorLength", 3)], INVALID)
    .bad("valueType R_32F", &[("valueType", R32F as u64)], UNSUPPORTED)
    .bad("vectors not a multiple of the stride", &[("vectors", s.vectors as u64 - 1)], INVALID)
    .bad("vectors past the offsets' last", &[("vectors", s.vectors as u64 + 32)], INVALID)
    .bad("vectorOffsets NULL", &[("vectorOffsets", 0)], INVALID)
    .bad("values NULL", &[("values", 0)], INVALID)
    .bad("cols 1: columns past it", &[("cols", 1)], INVALID)
    .bad("vectorColumns as vectorOffsets: not 0 .. vectors", &[("vectorOffsets", s.columns)], INVALID);
}

fn ok(s: c_int, what: &str) {
    assert_eq!(s, SUCCESS, "SR-BCRS fixture: {what} returned {}", status_name(s));
}

fn dn(rows: i64, cols: i64, values: u64, vt: c_int) -> u64 {
    let mut d = null_mut();
    ok(unsafe { oxsparseCreateDnMat(&mut d, rows, cols, cols, ptr(values), vt, ROW) }, "CreateDnMat");
    d as u64
}

/// A column-major matrix of `vt` (leading dimension `rows`).
fn dn_col(rows: i64, cols: i64, values: u64, vt: c_int) -> u64 {
    let mut d = null_mut();
    ok(unsafe { oxsparseCreateDnMat(&mut d, rows, cols, rows, ptr(values), vt, COL) }, "CreateDnMat");
    d as u64
}

fn dn_vec(size: i64, values: u64) -> u64 {
    let mut d = null_mut();
    ok(unsafe { oxsparseCreateDnVec(&mut d, size, ptr(values), R32I) }, "CreateDnVec");
    d as u64
}

/// The object's slots: its stored vectors times the vector length.
fn slots(obj: u64) -> i64 {
    let (mut v, mut vectors) = (0, 0i64);
    let n = null_mut();
    ok(
        unsafe { oxsparseSrBcrsGetInfo(cptr(obj), n, n, n, &mut v, null_mut(), &mut vectors, null_mut(), null_mut(), null_mut()) },
        "SrBcrsGetInfo",
    );
    vectors * v as i64
}

/// An SR-BCRS object (V = 4) of `a`.
pub fn new_object(h: u64, a: u64) -> u64 {
    let mut s = null_mut();
    ok(unsafe { oxsparseCreateSrBcrs(ptr(h), cptr(a), 4, &mut s) }, "CreateSrBcrs");
    s as u64
}

/// The SR-BCRS part of the GPU fixture: its inputs (A's and B's int8 values), its output (C's
/// int32 values, 0xFF before every row), its descriptors and its object.
pub struct Part {
    pub operands: SrBcrsOperands,
    pub inputs: Vec<(&'static str, DevBuf)>,
    pub outputs: Vec<(&'static str, DevBuf)>,
    pub descriptors: Vec<(Kind, u64)>,
    pub fresh: Rc<dyn Fn() -> u64>,
}

impl Part {
    /// Over the fixture's CSR pattern: 9 row offsets and 10 column indices (32-bit, from 0) at
    /// `offsets` and `columns`, made with the handle `h`.
    pub fn new(h: u64, offsets: u64, columns: u64) -> Part {
        let a_values = DevBuf::from_slice(&[3i8, -1, 4, -1, 5, -9, 2, -6, 5, 3]);
        let b_values = DevBuf::from_slice(&(0..24).map(|v| (v * 7 % 23) as i8 - 11).collect::<Vec<_>>());
        let c = DevBuf::zeroed(32 * 4);
        let scale = DevBuf::from_slice(&(0..8).flat_map(|i| (0.5f32 + i as f32).to_le_bytes()).collect::<Vec<_>>());
        let sa_values = DevBuf::from_slice(&(0..32).map(|v| (v * 5 % 17) as i8 - 8).collect::<Vec<_>>());
        let sb_values = DevBuf::from_slice(&(0..24).map(|v| (v * 3 % 13) as i8 - 6).collect::<Vec<_>>());
        let a16_values = DevBuf::from_slice(&[300i16, -1, 4, -1000, 5, -9, 2, -6, 5, 3]);
        let mut a8 = null_mut();
        let s = unsafe { oxsparseCreateCsr(&mut a8, 8, 6, 10, ptr(offsets), ptr(columns), ptr(a_values.ptr), I32, I32, 0, R8I) };
        ok(s, "CreateCsr");
        let a8 = a8 as u64;
        let obj = new_object(h, a8);
        let mut a16 = null_mut();
        let s = unsafe { oxsparseCreateCsr(&mut a16, 8, 6, 10, ptr(offsets), ptr(columns), ptr(a16_values.ptr), I32, I32, 0, R16I) };
        ok(s, "CreateCsr (int16)");
        let a16 = a16 as u64;
        let obj16 = new_object(h, a16);
        let n = slots(obj);
        let vc = DevBuf::zeroed(4 * n as usize);
        let sb16_values = DevBuf::from_slice(&(0..24).map(|v| (v * 301 % 4001) as i16 - 2000).collect::<Vec<_>>());
        let (mut offsets, mut columns, mut values, mut vectors) = (std::ptr::null(), std::ptr::null(), std::ptr::null(), 0i64);
        let z = null_mut();
        let info = unsafe {
            oxsparseSrBcrsGetInfo(cptr(obj), z, z, z, null_mut(), null_mut(), &mut vectors, &mut offsets, &mut columns, &mut values)
        };
        ok(info, "SrBcrsGetInfo");
        let operands = SrBcrsOperands {
            obj,
            a8,
            b8: dn(6, 4, b_values.ptr, R8I),
            b8_5: dn(5, 4, b_values.ptr, R8I),
            c32: dn(8, 4, c.ptr, R32I),
            c32_7: dn(7, 4, c.ptr, R32I),
            scale: scale.ptr,
            sa: dn(8, 4, sa_values.ptr, R8I),
            sa_7: dn(7, 4, sa_values.ptr, R8I),
            sb: dn_col(4, 6, sb_values.ptr, R8I),
            sb_3: dn_col(3, 6, sb_values.ptr, R8I),
            vc: dn_vec(n, vc.ptr),
            vc_short: dn_vec(n - 1, vc.ptr),
            a16,
            obj16,
            sb16: dn_col(4, 6, sb16_values.ptr, R16I),
            offsets: offsets as u64,
            columns: columns as u64,
            values: values as u64,
            vectors,
        };
        let o = operands;
        Part {
            operands,
            inputs: vec![
                ("SR-BCRS A's values", a_values),
                ("SR-BCRS B", b_values),
                ("SR-BCRS row scale", scale),
                ("SR-BCRS SDDMM A", sa_values),
                ("SR-BCRS SDDMM B", sb_values),
                ("SR-BCRS int16 A's values", a16_values),
                ("SR-BCRS SDDMM int16 B", sb16_values),
            ],
            outputs: vec![("SR-BCRS C", c), ("SR-BCRS SDDMM vecC", vc)],
            descriptors: vec![
                (SpMat, o.a8),
                (DnMat, o.b8),
                (DnMat, o.b8_5),
                (DnMat, o.c32),
                (DnMat, o.c32_7),
                (DnMat, o.sa),
                (DnMat, o.sa_7),
                (DnMat, o.sb),
                (DnMat, o.sb_3),
                (DnVec, o.vc),
                (DnVec, o.vc_short),
                (SrBcrs, o.obj),
                (SpMat, o.a16),
                (SrBcrs, o.obj16),
                (DnMat, o.sb16),
            ],
            fresh: Rc::new(move || new_object(h, a8)),
        }
    }
}
