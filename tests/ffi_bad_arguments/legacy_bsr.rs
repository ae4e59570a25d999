//! The legacy BSR products' rows: `oxsparse[SDCZ]bsrmv`, `oxsparse[SDCZ]bsrxmv` and
//! `oxsparse[SDCZ]bsrmm`, arguments in cuSPARSE's order.
//!
//! The valid calls read the fixture's A (8 x 6, 10 entries) as BSR with blockDim 1, over arrays of
//! their own sized for the widest type: values (an input, zero), x (6) and B (6 x 6), and the
//! outputs y (8) and C (8 x 4). bsrxmv's mask lists the 8 block rows (an input), each reading
//! `offsets[i] .. offsets[i + 1]` (the end pointers are the offsets from their second entry).
//! Scalars are the fixture's host one and zero. Sizes are `int`: -1 and INT_MIN are each one's own
//! row.

use super::gpu::Operands;
use super::table::*;
use crate::common::DevBuf;
use oxsparse::ffi::legacy_bsr::*;
use oxsparse::ffi::mat_descr::*;
use std::os::raw::c_int;
use std::ptr::null_mut;
use Arg::*;

const MATRIX_TYPE: c_int = oxsparse::types::Status::OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED as c_int;
const NEGATIVE: [(&str, i64); 2] = [("-1", -1), ("INT_MIN", i32::MIN as i64)];
/// The widest element (cuDoubleComplex), which every array is sized for.
const WIDEST: usize = 16;

/// The arrays and descriptors of the rows: A's offsets and columns (the fixture's), values,
/// bsrxmv's mask, x, y, B, C, a general descriptor and a symmetric one.
#[derive(Clone, Copy)]
pub struct BsrOperands {
    pub offsets: u64,
    pub columns: u64,
    pub values: u64,
    pub mask: u64,
    pub x: u64,
    pub y: u64,
    pub b: u64,
    pub c: u64,
    pub descr: u64,
    pub symmetric: u64,
}

impl BsrOperands {
    /// Without a GPU (only the handle's rows run): stand-in addresses.
    pub fn stand_ins() -> BsrOperands {
        let (offsets, columns, values, x, y, b, c) = (0x1_0000, 0x2_0000, 0x3_0000, 0x4_0000, 0x5_0000, 0x6_0000, 0x7_0000);
        BsrOperands { offsets, columns, values, mask: 0x8_0000, x, y, b, c, descr: NEVER_ISSUED, symmetric: NEVER_ISSUED }
    }
}

pub struct Part {
    pub operands: BsrOperands,
    pub descriptors: Vec<(Kind, u64)>,
    pub inputs: Vec<(&'static str, DevBuf)>,
    pub outputs: Vec<(&'static str, DevBuf)>,
}

fn new_descr(matrix_type: c_int) -> u64 {
    let mut d = null_mut();
    assert_eq!(unsafe { oxsparseCreateMatDescr(&mut d) }, SUCCESS, "oxsparseCreateMatDescr");
    assert_eq!(unsafe { oxsparseSetMatType(d, matrix_type) }, SUCCESS, "oxsparseSetMatType");
    d as u64
}

impl Part {
    /// Over the fixture's A offsets and columns (32-bit, base 0).
    pub fn new(offsets: u64, columns: u64) -> Part {
        let (values, x, b) = (DevBuf::zeroed(10 * WIDEST), DevBuf::zeroed(6 * WIDEST), DevBuf::zeroed(36 * WIDEST));
        let (y, c) = (DevBuf::zeroed(8 * WIDEST), DevBuf::zeroed(32 * WIDEST));
        let mask = DevBuf::from_slice(&[3i32, 0, 7, 1, 6, 2, 5, 4]);
        let (descr, symmetric) = (new_descr(0), new_descr(1));
        let operands =
            BsrOperands { offsets, columns, values: values.ptr, mask: mask.ptr, x: x.ptr, y: y.ptr, b: b.ptr, c: c.ptr, descr, symmetric };
        Part {
            operands,
            descriptors: vec![(Kind::MatDescr, descr), (Kind::MatDescr, symmetric)],
            inputs: vec![("bsr values", values), ("bsrxmv mask", mask), ("bsr x", x), ("bsrmm B", b)],
            outputs: vec![("bsrmv y", y), ("bsrmm C", c)],
        }
    }
}

type Mv = fn(&[u64]) -> c_int;
type Xmv = fn(&[u64]) -> c_int;
type Mm = fn(&[u64]) -> c_int;

pub fn rows(t: &mut Table, o: &Operands) {
    let mv: [(&'static str, usize, Mv); 4] = [
        ("oxsparseSbsrmv", 4, |a| unsafe {
            oxsparseSbsrmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                cptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                int(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                ptr(a[14]),
            )
        }),
        ("oxsparseDbsrmv", 8, |a| unsafe {
            oxsparseDbsrmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                cptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                int(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                ptr(a[14]),
            )
        }),
        ("oxsparseCbsrmv", 8, |a| unsafe {
            oxsparseCbsrmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                cptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                int(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                ptr(a[14]),
            )
        }),
        ("oxsparseZbsrmv", 16, |a| unsafe {
            oxsparseZbsrmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                cptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                int(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                ptr(a[14]),
            )
        }),
    ];
    let b = o.bsr;
    for (func, align, call) in mv {
        let align = align as u64;
        let args = [
            ("handle", Handle(o.h)),
            ("dirA", Enum(0, &[2])),
            ("transA", Enum(0, &[3])),
            ("mb", Plain(8)),
            ("nb", Plain(6)),
            ("nnzb", Plain(10)),
            ("alpha", In(o.one)),
            ("descrA", Obj(Kind::MatDescr, b.descr)),
            ("bsrSortedValA", Data(b.values, align)),
            ("bsrSortedRowPtrA", Data(b.offsets, 4)),
            ("bsrSortedColIndA", Data(b.columns, 4)),
            ("blockDim", Plain(1)),
            ("x", Data(b.x, align)),
            ("beta", In(o.zero)),
            ("y", Data(b.y, align)),
        ];
        let mut f = t.func(func, &args, call);
        for (what, n) in NEGATIVE {
            for name in ["mb", "nb", "nnzb", "blockDim"] {
                f.bad(&format!("{name} {what}"), &[(name, n as u64)], INVALID);
            }
        }
        f.bad("blockDim 0", &[("blockDim", 0)], INVALID)
            .bad("transA TRANSPOSE", &[("transA", 1)], UNSUPPORTED)
            .bad("transA CONJUGATE_TRANSPOSE", &[("transA", 2)], UNSUPPORTED)
            .bad("a symmetric descrA", &[("descrA", b.symmetric)], MATRIX_TYPE)
            .bad("mb -1 with a symmetric descrA (sizes first)", &[("mb", -1i64 as u64), ("descrA", b.symmetric)], INVALID)
            .bad("dirA COLUMN", &[("dirA", 1)], SUCCESS)
            .bad("mb 0 (nothing to do)", &[("mb", 0)], SUCCESS);
    }

    let xmv: [(&'static str, usize, Xmv); 4] = [
        ("oxsparseSbsrxmv", 4, |a| unsafe {
            oxsparseSbsrxmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                cptr(a[7]),
                ptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                int(a[14]),
                cptr(a[15]),
                cptr(a[16]),
                ptr(a[17]),
            )
        }),
        ("oxsparseDbsrxmv", 8, |a| unsafe {
            oxsparseDbsrxmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                cptr(a[7]),
                ptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                int(a[14]),
                cptr(a[15]),
                cptr(a[16]),
                ptr(a[17]),
            )
        }),
        ("oxsparseCbsrxmv", 8, |a| unsafe {
            oxsparseCbsrxmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                cptr(a[7]),
                ptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                int(a[14]),
                cptr(a[15]),
                cptr(a[16]),
                ptr(a[17]),
            )
        }),
        ("oxsparseZbsrxmv", 16, |a| unsafe {
            oxsparseZbsrxmv(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                cptr(a[7]),
                ptr(a[8]),
                cptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                cptr(a[13]),
                int(a[14]),
                cptr(a[15]),
                cptr(a[16]),
                ptr(a[17]),
            )
        }),
    ];
    for (func, align, call) in xmv {
        let align = align as u64;
        let args = [
            ("handle", Handle(o.h)),
            ("dirA", Enum(0, &[2])),
            ("transA", Enum(0, &[3])),
            ("sizeOfMask", Plain(8)),
            ("mb", Plain(8)),
            ("nb", Plain(6)),
            ("nnzb", Plain(10)),
            ("alpha", In(o.one)),
            ("descrA", Obj(Kind::MatDescr, b.descr)),
            ("bsrSortedValA", Data(b.values, align)),
            ("bsrSortedMaskPtrA", Data(b.mask, 4)),
            ("bsrSortedRowPtrA", Data(b.offsets, 4)),
            ("bsrSortedEndPtrA", Data(b.offsets + 4, 4)),
            ("bsrSortedColIndA", Data(b.columns, 4)),
            ("blockDim", Plain(1)),
            ("x", Data(b.x, align)),
            ("beta", In(o.zero)),
            ("y", Data(b.y, align)),
        ];
        let mut f = t.func(func, &args, call);
        for (what, n) in NEGATIVE {
            for name in ["sizeOfMask", "mb", "nb", "nnzb", "blockDim"] {
                f.bad(&format!("{name} {what}"), &[(name, n as u64)], INVALID);
            }
        }
        f.bad("blockDim 0", &[("blockDim", 0)], INVALID)
            .bad("sizeOfMask 9 above mb 8", &[("sizeOfMask", 9)], INVALID)
            .bad("mb 0 under sizeOfMask 8", &[("mb", 0)], INVALID)
            .bad("bsrSortedMaskPtrA NULL", &[("bsrSortedMaskPtrA", 0)], INVALID)
            .bad("bsrSortedEndPtrA NULL", &[("bsrSortedEndPtrA", 0)], INVALID)
            .bad("y NULL", &[("y", 0)], INVALID)
            .bad("transA TRANSPOSE", &[("transA", 1)], UNSUPPORTED)
            .bad("transA CONJUGATE_TRANSPOSE", &[("transA", 2)], UNSUPPORTED)
            .bad("a symmetric descrA", &[("descrA", b.symmetric)], MATRIX_TYPE)
            .bad("sizeOfMask 9 with a symmetric descrA (sizes first)", &[("sizeOfMask", 9), ("descrA", b.symmetric)], INVALID)
            .bad("dirA COLUMN", &[("dirA", 1)], SUCCESS)
            .bad("sizeOfMask 3 (the first three listed)", &[("sizeOfMask", 3)], SUCCESS)
            .bad("sizeOfMask 0 with NULL arrays (nothing to do)", &[("sizeOfMask", 0), ("bsrSortedMaskPtrA", 0), ("y", 0)], SUCCESS)
            .bad("mb 0 and sizeOfMask 0 (nothing to do)", &[("mb", 0), ("sizeOfMask", 0)], SUCCESS);
    }

    let mm: [(&'static str, usize, Mm); 4] = [
        ("oxsparseSbsrmm", 4, |a| unsafe {
            oxsparseSbsrmm(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                int(a[7]),
                cptr(a[8]),
                ptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                int(a[13]),
                cptr(a[14]),
                int(a[15]),
                cptr(a[16]),
                ptr(a[17]),
                int(a[18]),
            )
        }),
        ("oxsparseDbsrmm", 8, |a| unsafe {
            oxsparseDbsrmm(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                int(a[7]),
                cptr(a[8]),
                ptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                int(a[13]),
                cptr(a[14]),
                int(a[15]),
                cptr(a[16]),
                ptr(a[17]),
                int(a[18]),
            )
        }),
        ("oxsparseCbsrmm", 8, |a| unsafe {
            oxsparseCbsrmm(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                int(a[7]),
                cptr(a[8]),
                ptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                int(a[13]),
                cptr(a[14]),
                int(a[15]),
                cptr(a[16]),
                ptr(a[17]),
                int(a[18]),
            )
        }),
        ("oxsparseZbsrmm", 16, |a| unsafe {
            oxsparseZbsrmm(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                int(a[4]),
                int(a[5]),
                int(a[6]),
                int(a[7]),
                cptr(a[8]),
                ptr(a[9]),
                cptr(a[10]),
                cptr(a[11]),
                cptr(a[12]),
                int(a[13]),
                cptr(a[14]),
                int(a[15]),
                cptr(a[16]),
                ptr(a[17]),
                int(a[18]),
            )
        }),
    ];
    for (func, align, call) in mm {
        let align = align as u64;
        let args = [
            ("handle", Handle(o.h)),
            ("dirA", Enum(0, &[2])),
            ("transA", Enum(0, &[3])),
            ("transB", Enum(0, &[3])),
            ("mb", Plain(8)),
            ("n", Plain(4)),
            ("kb", Plain(6)),
            ("nnzb", Plain(10)),
            ("alpha", In(o.one)),
            ("descrA", Obj(Kind::MatDescr, b.descr)),
            ("bsrSortedValA", Data(b.values, align)),
            ("bsrSortedRowPtrA", Data(b.offsets, 4)),
            ("bsrSortedColIndA", Data(b.columns, 4)),
            ("blockSize", Plain(1)),
            ("B", Data(b.b, align)),
            ("ldb", Plain(6)),
            ("beta", In(o.zero)),
            ("C", Data(b.c, align)),
            ("ldc", Plain(8)),
        ];
        let mut f = t.func(func, &args, call);
        for (what, n) in NEGATIVE {
            for name in ["mb", "n", "kb", "nnzb", "blockSize"] {
                f.bad(&format!("{name} {what}"), &[(name, n as u64)], INVALID);
            }
        }
        f.bad("blockSize 0", &[("blockSize", 0)], INVALID)
            .bad("ldb 5 for B of 6 rows", &[("ldb", 5)], INVALID)
            .bad("ldc 7 for C of 8 rows", &[("ldc", 7)], INVALID)
            .bad("ldb 3 for B^T of 4 rows (transB TRANSPOSE)", &[("transB", 1), ("ldb", 3)], INVALID)
            .bad("transA TRANSPOSE", &[("transA", 1)], UNSUPPORTED)
            .bad("transB CONJUGATE_TRANSPOSE", &[("transB", 2)], UNSUPPORTED)
            .bad("a symmetric descrA", &[("descrA", b.symmetric)], MATRIX_TYPE)
            .bad("transB TRANSPOSE (B is 4 x 6, ldb 6)", &[("transB", 1)], SUCCESS)
            .bad("dirA COLUMN", &[("dirA", 1)], SUCCESS)
            .bad("n 0 (nothing to do)", &[("n", 0)], SUCCESS)
            .bad("mb 0 (nothing to do)", &[("mb", 0)], SUCCESS);
    }
}
