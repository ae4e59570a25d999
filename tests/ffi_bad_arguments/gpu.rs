//! The functions that take a handle (and the BitTCF object's): their rows, from one set of
//! operands (`Operands`), and the fixture that gives them real ones on a GPU. Without a GPU the same
//! rows are built with the host fixture's descriptors in `Mode::FirstArgOnly`: only the first
//! argument's bad values (a NULL, never issued, destroyed or wrong-kind handle, or `Create`'s NULL
//! output), which are refused before anything needs a device.

use super::conversions::ConversionOperands;
use super::descriptors::{dead, new_csr, new_dn_mat, new_dn_vec, new_mat_descr, new_sp_vec, HostInputs, I32, R32F, R64F, ROW};
use super::sddmm::SddmmOperands;
use super::snapshot::{describe, Sentinels};
use super::table::*;
use crate::common::{sync, DevBuf};
use oxsparse::ffi::bittcf::*;
use oxsparse::ffi::brcv::*;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::sddmm::oxsparseSDDMM_bufferSize;
use oxsparse::ffi::sparse_to_dense::*;
use oxsparse::ffi::spmm::*;
use oxsparse::ffi::spmv::*;
use oxsparse::ffi::vector_ops::*;
use std::os::raw::c_int;
use std::ptr::null_mut;
use std::rc::Rc;
use Arg::*;
use Kind::{BitTcf, Brcv, DnMat, DnVec, SpMat, SpVec};

const OP_GAPS: &[i32] = &[3];
const SPMM_ALG_GAPS: &[i32] = &[7, 8, 9, 10, 11, 15];
const SPMV_ALG_GAPS: &[i32] = &[7];
const COO_ALG1: u64 = 1;
const T: u64 = 1;

/// Everything the rows pass: a handle and descriptors (CSR A 8 x 6; B 6 x 4, C 8 x 4 and D 8 x 6
/// row-major; x of 6, y of 8; the sparse vector X of 8 with 3 entries), descriptors of other shapes
/// over the same memory (B of 5 rows, B of 2 batches, C of 7 rows, of 3 columns, of 65,536
/// batches, D of 7 rows, x of 5, y of 7), a BitTCF of A for B and C, a workspace, host scalars and
/// output slots; and what makes a fresh handle or BitTCF for the Destroy rows.
pub struct Operands {
    pub h: u64,
    pub math: i32,
    pub reorder: i32,
    pub a: u64,
    pub b: u64,
    pub b5: u64,
    pub b2: u64,
    pub c: u64,
    pub c7: u64,
    pub c83: u64,
    pub cbig: u64,
    pub d: u64,
    pub d7: u64,
    pub x: u64,
    pub x5: u64,
    pub y: u64,
    pub y7: u64,
    pub sx: u64,
    pub tcf: u64,
    /// A BRCV of A.
    pub brcv: u64,
    pub ws: u64,
    pub one: u64,
    pub zero: u64,
    pub slots: [u64; 2],
    /// SDDMM's own descriptors (super::sddmm).
    pub sddmm: SddmmOperands,
    /// The index sorts' arrays and descriptors (super::sort).
    pub sort: super::sort::SortOperands,
    /// The index helpers' arrays (super::legacy).
    pub index: super::legacy::IndexArrays,
    /// The conversions' arrays and targets (super::conversions).
    pub conversions: ConversionOperands,
    /// The legacy BSR products' arrays and descriptors (super::legacy_bsr).
    pub bsr: super::legacy_bsr::BsrOperands,
    /// The SR-BCRS object's arrays, descriptors and object (super::srbcrs).
    pub srbcrs: super::srbcrs::SrBcrsOperands,
    pub fresh_handle: Option<Rc<dyn Fn() -> u64>>,
    pub fresh_tcf: Option<Rc<dyn Fn() -> u64>>,
    pub fresh_brcv: Option<Rc<dyn Fn() -> u64>>,
    pub fresh_srbcrs: Option<Rc<dyn Fn() -> u64>>,
}

/// Every row of the functions that need a GPU (in `Mode::FirstArgOnly`, those that do not).
pub fn rows(t: &mut Table, o: &Operands) {
    handle(t, o);
    spmm(t, o);
    super::sddmm::rows(t, o);
    super::sort::rows(t, o);
    spmv(t, o);
    sparse_to_dense(t, o);
    super::conversions::rows(t, o);
    vector_ops(t, o);
    bittcf(t, o);
    brcv(t, o);
    super::srbcrs::rows(t, o);
    super::legacy::gpu_rows(t, o);
    super::legacy_bsr::rows(t, o);
}

fn handle(t: &mut Table, o: &Operands) {
    let (h, out) = (("handle", Handle(o.h)), o.slots[0]);
    t.func("oxsparseCreate", &[("handle", Made(out, Kind::Handle))], |a| unsafe { oxsparseCreate(ptr(a[0])) });
    t.destroy_rows("oxsparseDestroy", Kind::Handle, NOT_INIT, o.fresh_handle.clone());
    t.func("oxsparseGetVersion", &[h, ("version", Out(out))], |a| unsafe { oxsparseGetVersion(ptr(a[0]), ptr(a[1])) });
    // The legacy default stream (NULL), which a new handle has: the baseline changes nothing. (A
    // bogus stream is not tried: the driver would be handed a wild pointer.)
    t.func("oxsparseSetStream", &[h, ("streamId", Plain(0))], |a| unsafe { oxsparseSetStream(ptr(a[0]), ptr(a[1])) });
    t.func("oxsparseGetStream", &[h, ("streamId", Out(out))], |a| unsafe { oxsparseGetStream(ptr(a[0]), ptr(a[1])) });
    t.func("oxsparseSetPointerMode", &[h, ("mode", Enum(0, &[2]))], |a| unsafe { oxsparseSetPointerMode(ptr(a[0]), int(a[1])) });
    t.func("oxsparseGetPointerMode", &[h, ("mode", Out(out))], |a| unsafe { oxsparseGetPointerMode(ptr(a[0]), ptr(a[1])) });
    t.func("oxsparseSetMathMode", &[h, ("mode", Enum(o.math, &[1, 2, 5]))], |a| unsafe { oxsparseSetMathMode(ptr(a[0]), int(a[1])) });
    t.func("oxsparseGetMathMode", &[h, ("mode", Out(out))], |a| unsafe { oxsparseGetMathMode(ptr(a[0]), ptr(a[1])) });
    t.func("oxsparseSetReorderMode", &[h, ("mode", Enum(o.reorder, &[2]))], |a| unsafe { oxsparseSetReorderMode(ptr(a[0]), int(a[1])) });
    t.func("oxsparseGetReorderMode", &[h, ("mode", Out(out))], |a| unsafe { oxsparseGetReorderMode(ptr(a[0]), ptr(a[1])) });
    // Settings by name: NULL value gives the choice back (the baseline changes nothing a test
    // reads); an unknown name, a value the variable does not take and the modes' own names are refused.
    let text = |s: &'static std::ffi::CStr| s.as_ptr() as u64;
    t.func("oxsparseSetTuning", &[h, ("name", In(text(c"OXSPARSE_PRINT_PLAN"))), ("value", Plain(0))], |a| unsafe {
        oxsparseSetTuning(ptr(a[0]), cptr(a[1]), cptr(a[2]))
    })
    .bad("an unknown name", &[("name", text(c"NO_SUCH_SETTING"))], INVALID)
    .bad("a math mode by name", &[("name", text(c"OXSPARSE_MATH_MODE")), ("value", text(c"tf32"))], INVALID)
    .bad("a kernel it does not know", &[("name", text(c"OXSPARSE_SPMV_KERNEL")), ("value", text(c"fastest"))], INVALID)
    .bad("a tile of no entries", &[("name", text(c"OXSPARSE_SPMM_TILE")), ("value", text(c"0"))], INVALID);
}

fn spmm(t: &mut Table, o: &Operands) {
    type Spmm = fn(&[u64]) -> c_int;
    let calls: [(&'static str, (&'static str, Arg), Spmm); 3] = [
        ("oxsparseSpMM_bufferSize", ("bufferSize", Out(o.slots[0])), |a| unsafe {
            oxsparseSpMM_bufferSize(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                cptr(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                int(a[8]),
                int(a[9]),
                ptr(a[10]),
            )
        }),
        ("oxsparseSpMM_preprocess", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSpMM_preprocess(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                cptr(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                int(a[8]),
                int(a[9]),
                ptr(a[10]),
            )
        }),
        ("oxsparseSpMM", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSpMM(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                cptr(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                int(a[8]),
                int(a[9]),
                ptr(a[10]),
            )
        }),
    ];
    for (func, last, call) in calls {
        let args = [
            ("handle", Handle(o.h)),
            ("opA", Enum(0, OP_GAPS)),
            ("opB", Enum(0, OP_GAPS)),
            ("alpha", In(o.one)),
            ("matA", Obj(SpMat, o.a)),
            ("matB", Obj(DnMat, o.b)),
            ("beta", In(o.zero)),
            ("matC", Obj(DnMat, o.c)),
            ("computeType", Enum(R32F, &[])),
            ("alg", Enum(0, SPMM_ALG_GAPS)),
            last,
        ];
        t.func(func, &args, call)
            .bad("B has 5 rows for k = 6", &[("matB", o.b5)], INVALID)
            .bad("C has 7 rows for m = 8", &[("matC", o.c7)], INVALID)
            .bad("C has 3 columns for n = 4", &[("matC", o.c83)], INVALID)
            .bad("opA = T makes op(A) 6 x 8", &[("opA", T)], INVALID)
            .bad("opB = T makes op(B) 4 x 6", &[("opB", T)], INVALID)
            .bad("B has 2 batches, C 1", &[("matB", o.b2)], INVALID)
            .bad("C has 65,536 batches (the limit is 65,535)", &[("matC", o.cbig)], INVALID)
            .bad("computeType R_64F for R_32F operands", &[("computeType", R64F as u64)], UNSUPPORTED)
            .bad("alg COO_ALG1 for a CSR matrix", &[("alg", COO_ALG1)], UNSUPPORTED);
    }
}

fn spmv(t: &mut Table, o: &Operands) {
    type Spmv = fn(&[u64]) -> c_int;
    let calls: [(&'static str, (&'static str, Arg), Spmv); 3] = [
        ("oxsparseSpMV_bufferSize", ("bufferSize", Out(o.slots[0])), |a| unsafe {
            oxsparseSpMV_bufferSize(
                ptr(a[0]),
                int(a[1]),
                cptr(a[2]),
                cptr(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                ptr(a[6]),
                int(a[7]),
                int(a[8]),
                ptr(a[9]),
            )
        }),
        ("oxsparseSpMV_preprocess", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSpMV_preprocess(
                ptr(a[0]),
                int(a[1]),
                cptr(a[2]),
                cptr(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                ptr(a[6]),
                int(a[7]),
                int(a[8]),
                ptr(a[9]),
            )
        }),
        ("oxsparseSpMV", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseSpMV(ptr(a[0]), int(a[1]), cptr(a[2]), cptr(a[3]), cptr(a[4]), cptr(a[5]), ptr(a[6]), int(a[7]), int(a[8]), ptr(a[9]))
        }),
    ];
    for (func, last, call) in calls {
        let args = [
            ("handle", Handle(o.h)),
            ("opA", Enum(0, OP_GAPS)),
            ("alpha", In(o.one)),
            ("matA", Obj(SpMat, o.a)),
            ("vecX", Obj(DnVec, o.x)),
            ("beta", In(o.zero)),
            ("vecY", Obj(DnVec, o.y)),
            ("computeType", Enum(R32F, &[])),
            ("alg", Enum(0, SPMV_ALG_GAPS)),
            last,
        ];
        t.func(func, &args, call)
            .bad("x has 5 elements for k = 6", &[("vecX", o.x5)], INVALID)
            .bad("y has 7 elements for m = 8", &[("vecY", o.y7)], INVALID)
            .bad("opA = T makes op(A) 6 x 8", &[("opA", T)], INVALID)
            .bad("computeType R_64F for R_32F operands", &[("computeType", R64F as u64)], UNSUPPORTED)
            .bad("alg COO_ALG1 for a CSR matrix", &[("alg", COO_ALG1)], UNSUPPORTED);
    }
}

fn sparse_to_dense(t: &mut Table, o: &Operands) {
    let args = |last| [("handle", Handle(o.h)), ("matA", Obj(SpMat, o.a)), ("matB", Obj(DnMat, o.d)), ("alg", Enum(0, &[1])), last];
    t.func("oxsparseSparseToDense_bufferSize", &args(("bufferSize", Out(o.slots[0]))), |a| unsafe {
        oxsparseSparseToDense_bufferSize(ptr(a[0]), cptr(a[1]), ptr(a[2]), int(a[3]), ptr(a[4]))
    })
    .bad("B has 7 rows for A's 8", &[("matB", o.d7)], INVALID)
    .bad("B is 6 x 4 for an 8 x 6 A", &[("matB", o.b)], INVALID);
    // No workspace is needed (the size is 0), so NULL is the valid buffer.
    t.func("oxsparseSparseToDense", &args(("externalBuffer", Plain(0))), |a| unsafe {
        oxsparseSparseToDense(ptr(a[0]), cptr(a[1]), ptr(a[2]), int(a[3]), ptr(a[4]))
    })
    .bad("B has 7 rows for A's 8", &[("matB", o.d7)], INVALID)
    .bad("B is 6 x 4 for an 8 x 6 A", &[("matB", o.b)], INVALID);
}

fn vector_ops(t: &mut Table, o: &Operands) {
    let h = ("handle", Handle(o.h));
    let (sx, y) = (("vecX", Obj(SpVec, o.sx)), ("vecY", Obj(DnVec, o.y)));
    let short_y = "Y has 6 elements, X 8";
    t.func("oxsparseAxpby", &[h, ("alpha", In(o.one)), sx, ("beta", In(o.zero)), y], |a| unsafe {
        oxsparseAxpby(ptr(a[0]), cptr(a[1]), cptr(a[2]), cptr(a[3]), ptr(a[4]))
    })
    .bad(short_y, &[("vecY", o.x)], INVALID);
    t.func("oxsparseGather", &[h, y, sx], |a| unsafe { oxsparseGather(ptr(a[0]), cptr(a[1]), ptr(a[2])) }).bad(
        short_y,
        &[("vecY", o.x)],
        INVALID,
    );
    t.func("oxsparseScatter", &[h, sx, y], |a| unsafe { oxsparseScatter(ptr(a[0]), cptr(a[1]), ptr(a[2])) }).bad(
        short_y,
        &[("vecY", o.x)],
        INVALID,
    );
    t.func("oxsparseRot", &[h, ("c_coeff", In(o.one)), ("s_coeff", In(o.zero)), sx, y], |a| unsafe {
        oxsparseRot(ptr(a[0]), cptr(a[1]), cptr(a[2]), ptr(a[3]), ptr(a[4]))
    })
    .bad(short_y, &[("vecY", o.x)], INVALID);
    let compute = ("computeType", Enum(R32F, &[]));
    // bufferSize only checks that result is given; the result slot is what SpVV writes.
    let args = [h, ("opX", Enum(0, OP_GAPS)), sx, y, ("result", In(o.one)), compute, ("bufferSize", Out(o.slots[0]))];
    t.func("oxsparseSpVV_bufferSize", &args, |a| unsafe {
        oxsparseSpVV_bufferSize(ptr(a[0]), int(a[1]), cptr(a[2]), cptr(a[3]), cptr(a[4]), int(a[5]), ptr(a[6]))
    })
    .bad(short_y, &[("vecY", o.x)], INVALID)
    .bad("computeType R_64F for R_32F operands", &[("computeType", R64F as u64)], UNSUPPORTED);
    let args = [h, ("opX", Enum(0, OP_GAPS)), sx, y, ("result", Out(o.slots[0])), compute, ("externalBuffer", Plain(o.ws))];
    t.func("oxsparseSpVV", &args, |a| unsafe {
        oxsparseSpVV(ptr(a[0]), int(a[1]), cptr(a[2]), cptr(a[3]), ptr(a[4]), int(a[5]), ptr(a[6]))
    })
    .bad(short_y, &[("vecY", o.x)], INVALID)
    .bad("computeType R_64F for R_32F operands", &[("computeType", R64F as u64)], UNSUPPORTED)
    .bad("externalBuffer NULL though X stores 3 entries", &[("externalBuffer", 0)], INVALID)
    .bad("externalBuffer misaligned for FP32", &[("externalBuffer", o.ws + 2)], INVALID);
}

fn bittcf(t: &mut Table, o: &Operands) {
    let args = [
        ("handle", Handle(o.h)),
        ("opA", Enum(0, OP_GAPS)),
        ("opB", Enum(0, OP_GAPS)),
        ("matA", Obj(SpMat, o.a)),
        ("matB", Obj(DnMat, o.b)),
        ("matC", Obj(DnMat, o.c)),
        ("computeType", Enum(R32F, &[])),
        ("reorder", Enum(0, &[2])),
        ("tcf", Made(o.slots[0], BitTcf)),
        // op(A)'s 8 rows of int64: a whole slot.
        ("rowOrder", Plain(o.slots[1])),
    ];
    t.func("oxsparseCreateBitTcf", &args, |a| unsafe {
        oxsparseCreateBitTcf(
            ptr(a[0]),
            int(a[1]),
            int(a[2]),
            cptr(a[3]),
            cptr(a[4]),
            cptr(a[5]),
            int(a[6]),
            int(a[7]),
            ptr(a[8]),
            ptr(a[9]),
        )
    })
    .bad("B has 5 rows for k = 6", &[("matB", o.b5)], INVALID)
    .bad("C has 7 rows for m = 8", &[("matC", o.c7)], INVALID)
    .bad("opA = T makes op(A) 6 x 8", &[("opA", T)], INVALID)
    .bad("computeType R_64F for R_32F operands", &[("computeType", R64F as u64)], UNSUPPORTED)
    .bad("rowOrder NULL (optional)", &[("rowOrder", 0)], SUCCESS);
    let args = [
        ("handle", Handle(o.h)),
        ("alpha", In(o.one)),
        ("tcf", Obj(BitTcf, o.tcf)),
        ("matB", Obj(DnMat, o.b)),
        ("beta", In(o.zero)),
        ("matC", Obj(DnMat, o.c)),
    ];
    t.func("oxsparseSpMM_bitTcf", &args, |a| unsafe {
        oxsparseSpMM_bitTcf(ptr(a[0]), cptr(a[1]), cptr(a[2]), cptr(a[3]), cptr(a[4]), ptr(a[5]))
    })
    .bad("B has 5 rows for k = 6", &[("matB", o.b5)], INVALID)
    .bad("C has 7 rows for m = 8", &[("matC", o.c7)], INVALID)
    .bad("C has 3 columns, the object was made for 4", &[("matC", o.c83)], INVALID);
    // Every output of GetInfo may be NULL.
    let outs = ["rows", "cols", "nnz", "reordered", "tensorCores"];
    let mut args = vec![("tcf", Obj(BitTcf, o.tcf))];
    args.extend(outs.iter().zip(0..).map(|(&n, i)| (n, OptOut(o.slots[0] + 8 * i))));
    let nulls: Vec<(&str, u64)> = outs.iter().map(|&n| (n, 0)).collect();
    t.func("oxsparseBitTcfGetInfo", &args, |a| unsafe {
        oxsparseBitTcfGetInfo(cptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]))
    })
    .bad("every output NULL", &nulls, SUCCESS);
    t.destroy_rows("oxsparseDestroyBitTcf", BitTcf, SUCCESS, o.fresh_tcf.clone());
}

fn brcv(t: &mut Table, o: &Operands) {
    t.func("oxsparseCreateBrcv", &[("handle", Handle(o.h)), ("matA", Obj(SpMat, o.a)), ("brcv", Made(o.slots[0], Brcv))], |a| unsafe {
        oxsparseCreateBrcv(ptr(a[0]), cptr(a[1]), ptr(a[2]))
    });
    let args = [
        ("handle", Handle(o.h)),
        ("opA", Enum(0, OP_GAPS)),
        ("opB", Enum(0, OP_GAPS)),
        ("alpha", In(o.one)),
        ("brcv", Obj(Brcv, o.brcv)),
        ("matB", Obj(DnMat, o.b)),
        ("beta", In(o.zero)),
        ("matC", Obj(DnMat, o.c)),
        ("computeType", Enum(R32F, &[])),
    ];
    t.func("oxsparseSpMM_brcv", &args, |a| unsafe {
        oxsparseSpMM_brcv(ptr(a[0]), int(a[1]), int(a[2]), cptr(a[3]), cptr(a[4]), cptr(a[5]), cptr(a[6]), ptr(a[7]), int(a[8]))
    })
    .bad("B has 5 rows for k = 6", &[("matB", o.b5)], INVALID)
    .bad("C has 7 rows for m = 8", &[("matC", o.c7)], INVALID)
    .bad("C has 3 columns, B 4", &[("matC", o.c83)], INVALID)
    .bad("B of 2 batches, C of 1", &[("matB", o.b2)], INVALID)
    .bad("opA = T", &[("opA", T)], UNSUPPORTED)
    .bad("computeType R_64F for R_32F operands", &[("computeType", R64F as u64)], UNSUPPORTED);
    let outs = ["rows", "cols", "nnz", "bandValues", "farNnz", "widestBand"];
    let mut args = vec![("brcv", Obj(Brcv, o.brcv))];
    args.extend(outs.iter().zip(0..).map(|(&n, i)| (n, OptOut(o.slots[0] + 8 * i))));
    let nulls: Vec<(&str, u64)> = outs.iter().map(|&n| (n, 0)).collect();
    t.func("oxsparseBrcvGetInfo", &args, |a| unsafe {
        oxsparseBrcvGetInfo(cptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6]))
    })
    .bad("every output NULL", &nulls, SUCCESS);
    t.destroy_rows("oxsparseDestroyBrcv", Brcv, SUCCESS, o.fresh_brcv.clone());
}

impl Operands {
    /// The host fixture's descriptors in the GPU rows' places, for `Mode::FirstArgOnly` (only the
    /// first argument is varied, and it is refused before the others are read) and for counting
    /// the GPU tier's rows where there is no GPU.
    pub fn without_gpu(fx: &super::descriptors::HostFixture) -> Operands {
        let (a, b, c, x, y, sx) = (fx.csr, fx.b, fx.c, fx.x, fx.y, fx.sx);
        Operands {
            h: NEVER_ISSUED,
            math: 0,
            reorder: 0,
            a,
            b,
            b5: b,
            b2: b,
            c,
            c7: c,
            c83: c,
            cbig: c,
            d: c,
            d7: c,
            x,
            x5: x,
            y,
            y7: y,
            sx,
            tcf: NEVER_ISSUED,
            brcv: NEVER_ISSUED,
            ws: 0,
            one: fx.one(),
            zero: fx.zero(),
            slots: [fx.s(0), fx.s(1)],
            sddmm: SddmmOperands::stand_ins(c, a),
            sort: super::sort::SortOperands::stand_ins(),
            index: super::legacy::IndexArrays::stand_ins(),
            conversions: ConversionOperands::stand_ins(a),
            bsr: super::legacy_bsr::BsrOperands::stand_ins(),
            srbcrs: super::srbcrs::SrBcrsOperands::stand_ins(a, b, c),
            fresh_handle: None,
            fresh_tcf: None,
            fresh_brcv: None,
            fresh_srbcrs: None,
        }
    }
}

/// The GPU tier's fixture: device arrays (inputs never written; outputs poisoned with 0xFF before
/// every row, which a refused call must leave so), the descriptors over them, a handle and a
/// BitTCF. Descriptors, handle and object are read through their getters after every row.
pub struct GpuFixture {
    pub operands: Operands,
    pub objects: Objects,
    sentinels: Sentinels,
    _inputs: Box<HostInputs>,
    inputs: Vec<(&'static str, DevBuf)>,
    outputs: Vec<(&'static str, DevBuf)>,
    _workspace: DevBuf,
    all: Vec<(Kind, u64)>,
}

fn ok(s: c_int, what: &str) {
    assert_eq!(s, SUCCESS, "GPU fixture: {what} returned {}", status_name(s));
}

fn dn_mat(rows: i64, cols: i64, ld: i64, values: &DevBuf, batches: Option<(c_int, i64)>) -> u64 {
    let mut d = null_mut();
    ok(unsafe { oxsparseCreateDnMat(&mut d, rows, cols, ld, ptr(values.ptr), R32F, ROW) }, "CreateDnMat");
    if let Some((count, stride)) = batches {
        ok(unsafe { oxsparseDnMatSetStridedBatch(d, count, stride) }, "DnMatSetStridedBatch");
    }
    d as u64
}

fn dn_vec(size: i64, values: &DevBuf) -> u64 {
    let mut d = null_mut();
    ok(unsafe { oxsparseCreateDnVec(&mut d, size, ptr(values.ptr), R32F) }, "CreateDnVec");
    d as u64
}

fn new_handle() -> u64 {
    let mut h = null_mut();
    ok(unsafe { oxsparseCreate(&mut h) }, "oxsparseCreate");
    h as u64
}

/// A BitTCF of `a` for SpMMs with operands shaped as `b` and `c`.
fn new_tcf(h: u64, a: u64, b: u64, c: u64) -> u64 {
    let mut t = null_mut();
    ok(unsafe { oxsparseCreateBitTcf(ptr(h), 0, 0, cptr(a), cptr(b), cptr(c), R32F, 0, &mut t, null_mut()) }, "CreateBitTcf");
    t as u64
}

/// A BRCV of `a`.
fn new_brcv(h: u64, a: u64) -> u64 {
    let mut b = null_mut();
    ok(unsafe { oxsparseCreateBrcv(ptr(h), cptr(a), &mut b) }, "CreateBrcv");
    b as u64
}

const WORKSPACE: usize = 1 << 20;

impl GpuFixture {
    /// Needs a current CUDA context (`common::gpu` makes one).
    pub fn new() -> GpuFixture {
        let f32s = |v: &[f32]| DevBuf::from_slice(v);
        // A: rows {0}, {1, 5}, {2}, {3}, {4}, {0}, {1, 3}, {5}.
        let offsets = DevBuf::from_slice(&[0i32, 1, 3, 4, 5, 6, 7, 9, 10]);
        let columns = DevBuf::from_slice(&[0i32, 1, 5, 2, 3, 4, 0, 1, 3, 5]);
        let values = f32s(&(1..=10).map(|v| v as f32).collect::<Vec<_>>());
        let b = f32s(&(0..48).map(|v| (v + 1) as f32 * 0.25).collect::<Vec<_>>()); // 6 x 4, room for 2 batches
        let x = f32s(&[1.0, -2.0, 3.0, -4.0, 5.0, -6.0]);
        let sx_indices = DevBuf::from_slice(&[1i32, 4, 6]);
        let (c, cbig) = (DevBuf::zeroed(32 * 4), DevBuf::zeroed(65_536 * 32 * 4));
        let (y, sx_values, d) = (DevBuf::zeroed(8 * 4), DevBuf::zeroed(3 * 4), DevBuf::zeroed(48 * 4));
        let workspace = DevBuf::zeroed(WORKSPACE);

        let mut a = null_mut();
        let s = unsafe { oxsparseCreateCsr(&mut a, 8, 6, 10, ptr(offsets.ptr), ptr(columns.ptr), ptr(values.ptr), I32, I32, 0, R32F) };
        ok(s, "CreateCsr");
        let a = a as u64;
        let mut sx = null_mut();
        ok(unsafe { oxsparseCreateSpVec(&mut sx, 8, 3, ptr(sx_indices.ptr), ptr(sx_values.ptr), I32, 0, R32F) }, "CreateSpVec");
        let sx = sx as u64;
        let (bm, b5, b2) = (dn_mat(6, 4, 4, &b, None), dn_mat(5, 4, 4, &b, None), dn_mat(6, 4, 4, &b, Some((2, 24))));
        let (cm, c7, c83) = (dn_mat(8, 4, 4, &c, None), dn_mat(7, 4, 4, &c, None), dn_mat(8, 3, 4, &c, None));
        let cbm = dn_mat(8, 4, 4, &cbig, Some((65_536, 32)));
        let (dm, d7) = (dn_mat(8, 6, 6, &d, None), dn_mat(7, 6, 6, &d, None));
        let (xv, x5, yv, y7) = (dn_vec(6, &x), dn_vec(5, &x), dn_vec(8, &y), dn_vec(7, &y));

        let sddmm = super::sddmm::Part::new(offsets.ptr, columns.ptr);
        let sort = super::sort::Part::new();
        // A's rows as COO row indices (sorted), for coo2csr; A's offsets serve csr2coo.
        let coo_rows = DevBuf::from_slice(&[0i32, 1, 1, 2, 3, 4, 5, 6, 6, 7]);
        let (csr_out, coo_out, perm) = (DevBuf::zeroed(9 * 4), DevBuf::zeroed(10 * 4), DevBuf::zeroed(8 * 4));
        let index = super::legacy::IndexArrays {
            coo_rows: coo_rows.ptr,
            offsets: offsets.ptr,
            csr_out: csr_out.ptr,
            coo_out: coo_out.ptr,
            perm: perm.ptr,
        };
        let conversions = super::conversions::Part::new([offsets.ptr, columns.ptr, values.ptr]);
        let bsr = super::legacy_bsr::Part::new(offsets.ptr, columns.ptr);
        let h = new_handle();
        let (mut math, mut reorder) = (-1, -1);
        ok(unsafe { oxsparseGetMathMode(ptr(h), &mut math) }, "GetMathMode");
        ok(unsafe { oxsparseGetReorderMode(ptr(h), &mut reorder) }, "GetReorderMode");
        let tcf = new_tcf(h, a, bm, cm);
        let brcv = new_brcv(h, a);
        let srbcrs = super::srbcrs::Part::new(h, offsets.ptr, columns.ptr);
        let inputs_host = Box::new(HostInputs { one: [1.0; 4], zero: [0.0; 4], fill_lower: 0, fill_bad: 5, diag_bad: 7 });
        let sentinels = Sentinels::new();
        let (one, zero) = (inputs_host.one.as_ptr() as u64, inputs_host.zero.as_ptr() as u64);
        let dead = [
            dead(new_handle, Kind::Handle),
            dead(|| new_sp_vec(0x1000, 0x2000), SpVec),
            dead(|| new_dn_vec(6, 0x1000), DnVec),
            dead(new_csr, SpMat),
            dead(|| new_dn_mat(6, 4, 0x1000), DnMat),
            dead(|| new_tcf(h, a, bm, cm), BitTcf),
            dead(|| new_brcv(h, a), Brcv),
            dead(new_mat_descr, Kind::MatDescr),
            dead(|| super::srbcrs::new_object(h, srbcrs.operands.a8), Kind::SrBcrs),
        ];
        let descr_a = new_mat_descr();
        let operands = Operands {
            h,
            math,
            reorder,
            a,
            b: bm,
            b5,
            b2,
            c: cm,
            c7,
            c83,
            cbig: cbm,
            d: dm,
            d7,
            x: xv,
            x5,
            y: yv,
            y7,
            sx,
            tcf,
            brcv,
            ws: workspace.ptr,
            one,
            zero,
            slots: [sentinels.slot(0), sentinels.slot(1)],
            sddmm: sddmm.operands,
            sort: sort.operands,
            index,
            conversions: conversions.operands,
            bsr: bsr.operands,
            srbcrs: srbcrs.operands,
            fresh_handle: Some(Rc::new(new_handle)),
            fresh_tcf: Some(Rc::new(move || new_tcf(h, a, bm, cm))),
            fresh_brcv: Some(Rc::new(move || new_brcv(h, a))),
            fresh_srbcrs: Some(srbcrs.fresh.clone()),
        };
        let mut all = vec![
            (Kind::Handle, h),
            (SpMat, a),
            (DnMat, bm),
            (DnMat, b5),
            (DnMat, b2),
            (DnMat, cm),
            (DnMat, c7),
            (DnMat, c83),
            (DnMat, cbm),
            (DnMat, dm),
            (DnMat, d7),
            (DnVec, xv),
            (DnVec, x5),
            (DnVec, yv),
            (DnVec, y7),
            (SpVec, sx),
            (BitTcf, tcf),
            (Brcv, brcv),
            (Kind::MatDescr, descr_a),
        ];
        all.extend(sddmm.descriptors);
        all.extend(conversions.descriptors);
        all.extend(bsr.descriptors);
        all.extend(srbcrs.descriptors);
        let mut inputs = vec![
            ("A's offsets", offsets),
            ("A's columns", columns),
            ("A's values", values),
            ("B", b),
            ("x", x),
            ("X's indices", sx_indices),
            ("COO row indices", coo_rows),
        ];
        inputs.extend(sddmm.inputs);
        inputs.extend(sort.inputs);
        inputs.extend(conversions.inputs);
        inputs.extend(bsr.inputs);
        inputs.extend(srbcrs.inputs);
        let mut outputs = vec![
            ("C", c),
            ("C of 65,536 batches", cbig),
            ("y", y),
            ("X's values", sx_values),
            ("D", d),
            ("coo2csr's offsets", csr_out),
            ("csr2coo's rows", coo_out),
            ("the permutation", perm),
        ];
        outputs.extend(sddmm.outputs);
        outputs.extend(conversions.outputs);
        outputs.extend(sort.outputs);
        outputs.extend(bsr.outputs);
        outputs.extend(srbcrs.outputs);
        let fx = GpuFixture {
            operands,
            objects: Objects { dead, live: [h, sx, xv, a, bm, tcf, brcv, descr_a, srbcrs.operands.obj] },
            sentinels,
            _inputs: inputs_host,
            inputs,
            outputs,
            _workspace: workspace,
            all,
        };
        fx.check_workspace();
        fx
    }

    /// The valid calls' workspaces fit the one allocated.
    fn check_workspace(&self) {
        let o = &self.operands;
        let mut sizes = [0usize; 7];
        unsafe {
            let (h, one, zero) = (ptr(o.h), cptr(o.one), cptr(o.zero));
            ok(oxsparseSpMM_bufferSize(h, 0, 0, one, cptr(o.a), cptr(o.b), zero, ptr(o.c), R32F, 0, &mut sizes[0]), "SpMM_bufferSize");
            ok(oxsparseSpMV_bufferSize(h, 0, one, cptr(o.a), cptr(o.x), zero, ptr(o.y), R32F, 0, &mut sizes[1]), "SpMV_bufferSize");
            ok(oxsparseSpVV_bufferSize(h, 0, cptr(o.sx), cptr(o.y), one, R32F, &mut sizes[2]), "SpVV_bufferSize");
            // SDDMM: the valid call, and the one that copies A.
            let (s, b) = (o.sddmm, cptr(o.b));
            ok(oxsparseSDDMM_bufferSize(h, 0, 1, one, cptr(s.a), b, zero, ptr(s.c), R32F, 0, &mut sizes[3]), "SDDMM_bufferSize");
            ok(oxsparseSDDMM_bufferSize(h, 1, 1, one, cptr(s.a_t), b, zero, ptr(s.c), R32F, 0, &mut sizes[4]), "SDDMM_bufferSize");
            let ([rp, ci, cv], [cp, ri, cscv]) = (o.conversions.csr, o.conversions.csc);
            let s = oxsparse::ffi::csr2csc::oxsparseCsr2cscEx2_bufferSize(
                h,
                8,
                6,
                10,
                cptr(cv),
                cptr(rp),
                cptr(ci),
                ptr(cscv),
                ptr(cp),
                ptr(ri),
                R32F,
                1,
                0,
                1,
                &mut sizes[5],
            );
            ok(s, "Csr2cscEx2_bufferSize");
            let s =
                oxsparse::ffi::dense_to_sparse::oxsparseDenseToSparse_bufferSize(h, cptr(o.d), ptr(o.conversions.target), 0, &mut sizes[6]);
            ok(s, "DenseToSparse_bufferSize");
        }
        assert!(sizes.iter().all(|&s| s <= WORKSPACE), "workspaces {sizes:?} exceed the {WORKSPACE} bytes allocated");
    }
}

impl Drop for GpuFixture {
    fn drop(&mut self) {
        sync();
        for &(kind, v) in self.all.iter().rev() {
            destroy(kind, v);
        }
    }
}

impl Watch for GpuFixture {
    fn state(&self) -> Snapshot {
        let mut v: Vec<_> = self.all.iter().map(|&(kind, d)| (format!("{kind:?} {d:#x}"), describe(kind, d).into_bytes())).collect();
        v.extend(self.inputs.iter().map(|(name, buf)| (name.to_string(), buf.to_vec::<u8>())));
        Snapshot(v)
    }
    fn outputs(&self) -> Snapshot {
        let mut v = vec![("the sentinel area".to_string(), self.sentinels.bytes())];
        v.extend(self.outputs.iter().map(|(name, buf)| (name.to_string(), buf.to_vec::<u8>())));
        Snapshot(v)
    }
    fn reset(&self) {
        sync();
        self.sentinels.refill();
        for (_, buf) in &self.outputs {
            buf.poison(0xFF);
        }
    }
}
