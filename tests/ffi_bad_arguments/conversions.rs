//! The conversions' rows: Csr2cscEx2 (bufferSize and the call) of the fixture's 8 x 6 CSR A into
//! CSC arrays of their own, and DenseToSparse (bufferSize, analysis, convert) of the fixture's 8 x 6
//! row-major D into an 8 x 6 CSR target. D is an output of other rows, so it holds 0xFF (NaN, all
//! nonzero) before every row: the target is made with its 48 entries and the offsets the analysis
//! writes ([0, 6, ..., 48], an input that must read the same after every row), so the valid calls
//! change nothing the table watches but the target's column and value arrays (outputs).

use super::descriptors::{I32, R32F, R64F};
use super::gpu::Operands;
use super::table::*;
use crate::common::DevBuf;
use oxsparse::ffi::csr2csc::*;
use oxsparse::ffi::dense_to_sparse::*;
use oxsparse::ffi::descr_sparse::oxsparseCreateCsr;
use std::os::raw::c_int;
use std::ptr::null_mut;
use Arg::*;
use Kind::{DnMat, SpMat};

/// The conversions' operands: A's CSR arrays (the fixture's), the CSC outputs, and the DenseToSparse
/// targets (FP32, and FP64 for the type row).
#[derive(Clone, Copy)]
pub struct ConversionOperands {
    pub csr: [u64; 3],
    pub csc: [u64; 3],
    pub target: u64,
    pub target64: u64,
}

impl ConversionOperands {
    /// Without a GPU: stand-in addresses and the host fixture's CSR as the targets.
    pub fn stand_ins(csr: u64) -> ConversionOperands {
        ConversionOperands { csr: [0x1000, 0x2000, 0x3000], csc: [0x4000, 0x5000, 0x6000], target: csr, target64: csr }
    }
}

pub fn rows(t: &mut Table, o: &Operands) {
    csr2csc(t, o);
    dense_to_sparse(t, o);
}

fn csr2csc(t: &mut Table, o: &Operands) {
    let c = o.conversions;
    let [offsets, columns, values] = c.csr;
    let [col_ptr, row_ind, csc_values] = c.csc;
    // m, n and nnz are C ints: their negative rows are below (Size's i64::MIN would wrap to 0).
    type Call = fn(&[u64]) -> c_int;
    let calls: [(&'static str, (&'static str, Arg), Call); 2] = [
        ("oxsparseCsr2cscEx2_bufferSize", ("bufferSize", Out(o.slots[0])), |a| unsafe {
            oxsparseCsr2cscEx2_bufferSize(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
                int(a[10]),
                int(a[11]),
                int(a[12]),
                int(a[13]),
                ptr(a[14]),
            )
        }),
        ("oxsparseCsr2cscEx2", ("buffer", Plain(o.ws)), |a| unsafe {
            oxsparseCsr2cscEx2(
                ptr(a[0]),
                int(a[1]),
                int(a[2]),
                int(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
                int(a[10]),
                int(a[11]),
                int(a[12]),
                int(a[13]),
                ptr(a[14]),
            )
        }),
    ];
    for (func, last, call) in calls {
        let args = [
            ("handle", Handle(o.h)),
            ("m", Plain(8)),
            ("n", Plain(6)),
            ("nnz", Plain(10)),
            ("csrVal", Data(values, 4)),
            ("csrRowPtr", Data(offsets, 4)),
            ("csrColInd", Data(columns, 4)),
            ("cscVal", Data(csc_values, 4)),
            ("cscColPtr", Data(col_ptr, 4)),
            ("cscRowInd", Data(row_ind, 4)),
            ("valType", Enum(R32F, &[7, 8, 9])),
            ("copyValues", Enum(1, &[])),
            ("idxBase", Enum(0, &[])),
            ("alg", Enum(1, &[0, 3])),
            last,
        ];
        let minus_one = -1i64 as u64;
        let mut f = t.func(func, &args, call);
        f.bad("m = -1", &[("m", minus_one)], INVALID)
            .bad("n = -1", &[("n", minus_one)], INVALID)
            .bad("nnz = -1", &[("nnz", minus_one)], INVALID)
            .bad("csrRowPtr NULL", &[("csrRowPtr", 0)], INVALID)
            .bad("cscColPtr NULL", &[("cscColPtr", 0)], INVALID)
            .bad("csrColInd NULL with entries", &[("csrColInd", 0)], INVALID)
            .bad("cscRowInd NULL with entries", &[("cscRowInd", 0)], INVALID)
            .bad("csrVal NULL with NUMERIC", &[("csrVal", 0)], INVALID)
            .bad("cscVal NULL with NUMERIC", &[("cscVal", 0)], INVALID)
            .bad("valType R_32I", &[("valType", 10)], UNSUPPORTED)
            .bad("csrVal and cscVal NULL with SYMBOLIC", &[("copyValues", 0), ("csrVal", 0), ("cscVal", 0)], SUCCESS)
            .bad("alg 2 (ALG2 of CUDA 11)", &[("alg", 2)], SUCCESS)
            .bad("m = 0: nothing to do, no pointer read", &[("m", 0), ("csrRowPtr", 0), ("cscColPtr", 0)], SUCCESS)
            .bad("nnz = 0: the offsets alone", &[("nnz", 0), ("csrColInd", 0), ("cscRowInd", 0), ("csrVal", 0), ("cscVal", 0)], SUCCESS);
        if func == "oxsparseCsr2cscEx2" {
            f.bad("buffer NULL with entries to transpose", &[("buffer", 0)], INVALID);
        }
    }
}

fn dense_to_sparse(t: &mut Table, o: &Operands) {
    let c = o.conversions;
    type Call = fn(&[u64]) -> c_int;
    let calls: [(&'static str, (&'static str, Arg), Call); 3] = [
        ("oxsparseDenseToSparse_bufferSize", ("bufferSize", Out(o.slots[0])), |a| unsafe {
            oxsparseDenseToSparse_bufferSize(ptr(a[0]), cptr(a[1]), ptr(a[2]), int(a[3]), ptr(a[4]))
        }),
        ("oxsparseDenseToSparse_analysis", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseDenseToSparse_analysis(ptr(a[0]), cptr(a[1]), ptr(a[2]), int(a[3]), ptr(a[4]))
        }),
        ("oxsparseDenseToSparse_convert", ("externalBuffer", Plain(o.ws)), |a| unsafe {
            oxsparseDenseToSparse_convert(ptr(a[0]), cptr(a[1]), ptr(a[2]), int(a[3]), ptr(a[4]))
        }),
    ];
    for (func, last, call) in calls {
        let args = [("handle", Handle(o.h)), ("matA", Obj(DnMat, o.d)), ("matB", Obj(SpMat, c.target)), ("alg", Enum(0, &[])), last];
        let mut f = t.func(func, &args, call);
        f.bad("A has 7 rows for B's 8", &[("matA", o.d7)], INVALID).bad("A is 6 x 4 for an 8 x 6 B", &[("matA", o.b)], INVALID).bad(
            "B of R_64F, A of R_32F",
            &[("matB", c.target64)],
            UNSUPPORTED,
        );
        if func == "oxsparseDenseToSparse_analysis" {
            f.bad("externalBuffer NULL (the scan needs it)", &[("externalBuffer", 0)], INVALID);
        }
    }
}

fn ok(s: c_int, what: &str) {
    assert_eq!(s, SUCCESS, "conversions fixture: {what} returned {}", status_name(s));
}

/// The conversions' part of the GPU fixture.
pub struct Part {
    pub operands: ConversionOperands,
    pub inputs: Vec<(&'static str, DevBuf)>,
    pub outputs: Vec<(&'static str, DevBuf)>,
    pub descriptors: Vec<(Kind, u64)>,
}

impl Part {
    /// Over the fixture's CSR A (8 x 6, 10 entries, 32-bit, base 0) at `csr` (offsets, columns, values).
    pub fn new(csr: [u64; 3]) -> Part {
        let (col_ptr, row_ind, csc_values) = (DevBuf::zeroed(7 * 4), DevBuf::zeroed(10 * 4), DevBuf::zeroed(10 * 4));
        let offsets = DevBuf::from_slice(&(0..=8).map(|r| r * 6).collect::<Vec<i32>>());
        let (columns, values) = (DevBuf::zeroed(48 * 4), DevBuf::zeroed(48 * 8));
        let target = |vt: c_int| {
            let mut d = null_mut();
            let s = unsafe { oxsparseCreateCsr(&mut d, 8, 6, 48, ptr(offsets.ptr), ptr(columns.ptr), ptr(values.ptr), I32, I32, 0, vt) };
            ok(s, "CreateCsr");
            d as u64
        };
        let operands =
            ConversionOperands { csr, csc: [col_ptr.ptr, row_ind.ptr, csc_values.ptr], target: target(R32F), target64: target(R64F) };
        Part {
            operands,
            inputs: vec![("DenseToSparse's target offsets", offsets)],
            outputs: vec![
                ("CSC column offsets", col_ptr),
                ("CSC row indices", row_ind),
                ("CSC values", csc_values),
                ("DenseToSparse's columns", columns),
                ("DenseToSparse's values", values),
            ],
            descriptors: vec![(SpMat, operands.target), (SpMat, operands.target64)],
        }
    }
}
