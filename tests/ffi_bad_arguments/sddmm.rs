//! SDDMM's rows (bufferSize, preprocess, SDDMM alike, arguments in cuSPARSE's order): the valid
//! call C = A op(B) o spy(C) with A 8 x 4 row-major (read in place), B the fixture's 6 x 4 row-major
//! with opB = T (op(B) 4 x 6, read in place: no workspace), C an 8 x 6 CSR over the fixture's
//! sparse pattern with values of its own (an output); then each argument's automatic bad values,
//! and SDDMM's own rows: shapes that disagree, batches that do not match, overlap or exceed 65,535,
//! CONJUGATE_TRANSPOSE, formats, index and value types it does not take, a NULL workspace where A
//! must be copied. The descriptors here are over memory of their own (`Part`), watched like the
//! rest of the fixture.

use super::descriptors::{I32, I64, R32F, R64F, ROW};
use super::gpu::Operands;
use super::table::*;
use crate::common::DevBuf;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::descr_sparse_access::oxsparseCsrSetStridedBatch;
use oxsparse::ffi::sddmm::*;
use oxsparse::ffi::{oxsparseConstDnMatDescr_t, oxsparseHandle_t, oxsparseSpMatDescr_t};
use std::os::raw::{c_int, c_void};
use std::ptr::null_mut;
use Arg::*;
use Kind::{DnMat, SpMat};

const OP_GAPS: &[i32] = &[3];
const N: u64 = 0;
const T: u64 = 1;
const H: u64 = 2;

/// SDDMM's operands: A (8 x 4 row-major), A given transposed (4 x 8 row-major, read with
/// opA = T: copied), A of FP64, A of 2 batches; C (8 x 6 CSR, 10 entries), C of 7 rows, C as COO,
/// C of 64-bit column indices with 32-bit offsets, C of FP64 values, C of 2 batches 5 values
/// apart (overlapping), C of 65,536 batches (no entries: nothing to reach even if accepted).
#[derive(Clone, Copy)]
pub struct SddmmOperands {
    pub a: u64,
    pub a_t: u64,
    pub a64: u64,
    pub a2: u64,
    pub c: u64,
    pub c7: u64,
    pub coo: u64,
    pub c_i64: u64,
    pub c64: u64,
    pub c_overlap: u64,
    pub c_many: u64,
}

impl SddmmOperands {
    /// Without a GPU: the host fixture's dense C (8 x 4) and CSR (8 x 6) stand in.
    pub fn stand_ins(a: u64, c: u64) -> SddmmOperands {
        SddmmOperands { a, a_t: a, a64: a, a2: a, c, c7: c, coo: c, c_i64: c, c64: c, c_overlap: c, c_many: c }
    }
}

/// One of the three entry points: they differ only in their last argument, a pointer either way
/// (bufferSize's output, or the workspace).
type Entry<L> = unsafe extern "C" fn(
    oxsparseHandle_t,
    c_int,
    c_int,
    *const c_void,
    oxsparseConstDnMatDescr_t,
    oxsparseConstDnMatDescr_t,
    *const c_void,
    oxsparseSpMatDescr_t,
    c_int,
    c_int,
    *mut L,
) -> c_int;

/// `f` called with the table's raw argument values.
fn call<L>(f: Entry<L>, a: &[u64]) -> c_int {
    // SAFETY: the table passes NULL, live objects, never-issued or destroyed names (refused), and
    // pointers into the fixture's memory.
    unsafe {
        f(ptr(a[0]), int(a[1]), int(a[2]), cptr(a[3]), cptr(a[4]), cptr(a[5]), cptr(a[6]), ptr(a[7]), int(a[8]), int(a[9]), ptr(a[10]))
    }
}

pub fn rows(t: &mut Table, o: &Operands) {
    let s = o.sddmm;
    type Sddmm = fn(&[u64]) -> c_int;
    let calls: [(&'static str, (&'static str, Arg), Sddmm); 3] = [
        ("oxsparseSDDMM_bufferSize", ("bufferSize", Out(o.slots[0])), |a| call(oxsparseSDDMM_bufferSize, a)),
        ("oxsparseSDDMM_preprocess", ("externalBuffer", Plain(o.ws)), |a| call(oxsparseSDDMM_preprocess, a)),
        ("oxsparseSDDMM", ("externalBuffer", Plain(o.ws)), |a| call(oxsparseSDDMM, a)),
    ];
    for (func, last, call) in calls {
        let args = [
            ("handle", Handle(o.h)),
            ("opA", Enum(N as i32, OP_GAPS)),
            ("opB", Enum(T as i32, OP_GAPS)),
            ("alpha", In(o.one)),
            ("matA", Obj(DnMat, s.a)),
            ("matB", Obj(DnMat, o.b)),
            ("beta", In(o.zero)),
            ("matC", Obj(SpMat, s.c)),
            ("computeType", Enum(R32F, &[])),
            ("alg", Enum(0, &[])),
            last,
        ];
        let mut f = t.func(func, &args, call);
        f.bad("opA = T makes op(A) 4 x 8", &[("opA", T)], INVALID)
            .bad("opB = N makes op(B) 6 x 4", &[("opB", N)], INVALID)
            .bad("opB = CONJUGATE_TRANSPOSE", &[("opB", H)], UNSUPPORTED)
            .bad("opA = CONJUGATE_TRANSPOSE of A given transposed", &[("opA", H), ("matA", s.a_t)], UNSUPPORTED)
            .bad("opA = T of A given transposed (copied)", &[("opA", T), ("matA", s.a_t)], SUCCESS)
            .bad("C has 7 rows for m = 8", &[("matC", s.c7)], INVALID)
            .bad("A has 6 rows (the fixture's B) for C's 8", &[("matA", o.b)], INVALID)
            .bad("A has 2 batches, C 1", &[("matA", s.a2)], INVALID)
            .bad("C's 2 batches overlap (values 5 apart, 10 entries)", &[("matC", s.c_overlap)], INVALID)
            .bad("C has 65,536 batches (the limit is 65,535)", &[("matC", s.c_many)], INVALID)
            .bad("A of R_64F, B of R_32F", &[("matA", s.a64)], UNSUPPORTED)
            .bad("C is COO", &[("matC", s.coo)], UNSUPPORTED)
            .bad("C's offsets 32-bit, columns 64-bit", &[("matC", s.c_i64)], UNSUPPORTED)
            .bad("C of R_64F for R_32F A, B and compute", &[("matC", s.c64)], UNSUPPORTED)
            .bad("computeType R_64F for R_32F operands", &[("computeType", R64F as u64)], UNSUPPORTED)
            .bad("alg 1 (SDDMM has only the default)", &[("alg", 1)], INVALID);
        if func != "oxsparseSDDMM_bufferSize" {
            f.bad("externalBuffer NULL where A must be copied", &[("opA", T), ("matA", s.a_t), ("externalBuffer", 0)], INVALID).bad(
                "externalBuffer NULL, nothing to copy (not needed)",
                &[("externalBuffer", 0)],
                SUCCESS,
            );
        }
    }
}

fn ok(s: c_int, what: &str) {
    assert_eq!(s, SUCCESS, "SDDMM fixture: {what} returned {}", status_name(s));
}

fn dn(rows: i64, cols: i64, values: u64, vt: c_int, batches: c_int) -> u64 {
    let mut d = null_mut();
    ok(unsafe { oxsparseCreateDnMat(&mut d, rows, cols, cols, ptr(values), vt, ROW) }, "CreateDnMat");
    if batches > 1 {
        ok(unsafe { oxsparseDnMatSetStridedBatch(d, batches, rows * cols) }, "DnMatSetStridedBatch");
    }
    d as u64
}

/// An 8 x 6 (or `rows` x 6) CSR of `nnz` entries over these arrays, of these types.
fn csr(rows: i64, nnz: i64, (offsets, columns, values): (u64, u64, u64), (ot, it, vt): (c_int, c_int, c_int)) -> u64 {
    let mut d = null_mut();
    ok(unsafe { oxsparseCreateCsr(&mut d, rows, 6, nnz, ptr(offsets), ptr(columns), ptr(values), ot, it, 0, vt) }, "CreateCsr");
    d as u64
}

/// SDDMM's part of the GPU fixture: its input (A's values, and zero offsets for the C of no
/// entries), its output (C's values, 0xFF before every row), and its descriptors.
pub struct Part {
    pub operands: SddmmOperands,
    pub inputs: Vec<(&'static str, DevBuf)>,
    pub outputs: Vec<(&'static str, DevBuf)>,
    pub descriptors: Vec<(Kind, u64)>,
}

impl Part {
    /// Over the fixture's CSR pattern: 9 row offsets and 10 column indices (32-bit, from 0) at
    /// `offsets` and `columns`.
    pub fn new(offsets: u64, columns: u64) -> Part {
        // 64 floats: A (32), A of 2 batches (64), A of FP64 (32 doubles).
        let values = DevBuf::from_slice(&(0..64).map(|v| (v % 13) as f32 * 0.5 - 3.0).collect::<Vec<_>>());
        let zeros = DevBuf::zeroed(16 * 4);
        let out = DevBuf::zeroed(32 * 8);
        let (v, z, c) = (values.ptr, zeros.ptr, out.ptr);
        let f32s = (I32, I32, R32F);
        let operands = SddmmOperands {
            a: dn(8, 4, v, R32F, 1),
            a_t: dn(4, 8, v, R32F, 1),
            a64: dn(8, 4, v, R64F, 1),
            a2: dn(8, 4, v, R32F, 2),
            c: csr(8, 10, (offsets, columns, c), f32s),
            c7: csr(7, 9, (offsets, columns, c), f32s),
            coo: {
                let mut d = null_mut();
                // The column indices (0 to 5) serve as row indices too.
                ok(unsafe { oxsparseCreateCoo(&mut d, 8, 6, 10, ptr(columns), ptr(columns), ptr(c), I32, 0, R32F) }, "CreateCoo");
                d as u64
            },
            c_i64: csr(8, 5, (offsets, columns, c), (I32, I64, R32F)),
            c64: csr(8, 10, (offsets, columns, c), (I32, I32, R64F)),
            c_overlap: csr(8, 10, (offsets, columns, c), f32s),
            c_many: csr(8, 0, (z, 0, 0), f32s),
        };
        ok(unsafe { oxsparseCsrSetStridedBatch(ptr(operands.c_overlap), 2, 0, 5) }, "CsrSetStridedBatch");
        ok(unsafe { oxsparseCsrSetStridedBatch(ptr(operands.c_many), 65_536, 0, 0) }, "CsrSetStridedBatch");
        let o = operands;
        let descriptors = [(DnMat, o.a), (DnMat, o.a_t), (DnMat, o.a64), (DnMat, o.a2)]
            .into_iter()
            .chain([o.c, o.c7, o.coo, o.c_i64, o.c64, o.c_overlap, o.c_many].map(|d| (SpMat, d)))
            .collect();
        Part {
            operands,
            inputs: vec![("SDDMM's A", values), ("SDDMM's zero offsets", zeros)],
            outputs: vec![("SDDMM's C values", out)],
            descriptors,
        }
    }
}
