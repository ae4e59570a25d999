//! The legacy helpers' rows: the matrix descriptor and the logger (host tier).
//!
//! The descriptor's getters return the field, not a status: their rows report SUCCESS when the
//! value is the one expected (the field of a live descriptor; the default, 0, for a NULL, never
//! issued, destroyed or foreign one). The setters' valid calls store the value the fixture's
//! descriptor already has, so the snapshot taken after every row still matches.

use super::descriptors::HostFixture;
use super::table::*;
use oxsparse::ffi::logger::*;
use oxsparse::ffi::mat_descr::*;
use std::os::raw::c_int;
use Arg::*;

/// The functions that cannot refuse anything, so have no refusing row: the getters that return a
/// field (not a status), a callback (NULL included: it removes the callback) and ForceDisable.
pub const CANNOT_REFUSE: &[&str] = &[
    "oxsparseGetMatType",
    "oxsparseGetMatFillMode",
    "oxsparseGetMatDiagType",
    "oxsparseGetMatIndexBase",
    "oxsparseLoggerSetCallback",
    "oxsparseLoggerForceDisable",
];

pub fn host_rows(t: &mut Table, fx: &HostFixture) {
    mat_descr(t, fx);
    logger(t);
}

fn mat_descr(t: &mut Table, fx: &HostFixture) {
    let o = fx.objects;
    let d = o.live[Kind::MatDescr.index()];
    t.func("oxsparseCreateMatDescr", &[("descrA", Made(fx.s(0), Kind::MatDescr))], |a| unsafe { oxsparseCreateMatDescr(ptr(a[0])) });
    t.destroy_rows("oxsparseDestroyMatDescr", Kind::MatDescr, SUCCESS, Some(std::rc::Rc::new(super::descriptors::new_mat_descr)));

    type Set = unsafe extern "C" fn(oxsparse::ffi::oxsparseMatDescr_t, c_int) -> c_int;
    type Get = unsafe extern "C" fn(oxsparse::ffi::oxsparseMatDescr_t) -> c_int;
    /// Setter, getter, the setter's enum argument and its gaps.
    type Field = (&'static str, Set, &'static str, Get, &'static str, &'static [i32]);
    let fields: [Field; 4] = [
        ("oxsparseSetMatType", oxsparseSetMatType, "oxsparseGetMatType", oxsparseGetMatType, "type", &[4]),
        ("oxsparseSetMatFillMode", oxsparseSetMatFillMode, "oxsparseGetMatFillMode", oxsparseGetMatFillMode, "fillMode", &[2]),
        ("oxsparseSetMatDiagType", oxsparseSetMatDiagType, "oxsparseGetMatDiagType", oxsparseGetMatDiagType, "diagType", &[2]),
        ("oxsparseSetMatIndexBase", oxsparseSetMatIndexBase, "oxsparseGetMatIndexBase", oxsparseGetMatIndexBase, "base", &[2]),
    ];
    for (set_name, set, get_name, get, arg, gaps) in fields {
        t.func(set_name, &[("descrA", Obj(Kind::MatDescr, d)), (arg, Enum(0, gaps))], move |a| unsafe { set(ptr(a[0]), int(a[1])) });
        // Every field of the fixture's descriptor holds its default, 0.
        let gives = move |v: u64| move || if unsafe { get(ptr(v)) } == 0 { SUCCESS } else { INVALID };
        t.row(get_name, "a live descriptor gives its field (the default, 0)", SUCCESS, gives(d));
        t.row(get_name, "NULL gives the default (0)", SUCCESS, gives(0));
        t.row(get_name, "never issued gives the default (0)", SUCCESS, gives(NEVER_ISSUED));
        t.row(get_name, "destroyed gives the default (0)", SUCCESS, gives(o.dead[Kind::MatDescr.index()]));
        t.row(get_name, "a live SpMat (wrong kind) gives the default (0)", SUCCESS, gives(o.live[Kind::SpMat.index()]));
    }
}

/// The logger's rows leave it as the table found it: off (level and mask 0), no callback, output
/// to /dev/null or stderr. ForceDisable's row comes last: nothing of this binary logs after it.
fn logger(t: &mut Table) {
    let text = |s: &'static std::ffi::CStr| s.as_ptr() as u64;
    t.func("oxsparseLoggerSetLevel", &[("level", Plain(0))], |a| oxsparseLoggerSetLevel(int(a[0])))
        .bad("-1", &[("level", -1i64 as u64)], INVALID)
        .bad("6 (above API trace)", &[("level", 6)], INVALID);
    t.func("oxsparseLoggerSetMask", &[("mask", Plain(0))], |a| oxsparseLoggerSetMask(int(a[0])))
        .bad("-1", &[("mask", -1i64 as u64)], INVALID)
        .bad("32 (no such bit)", &[("mask", 32)], INVALID);
    // The valid call removes the callback (none is set): a value is a function or NULL, none refused.
    t.func("oxsparseLoggerSetCallback", &[("callback", Plain(0))], |_| unsafe { oxsparseLoggerSetCallback(None) });
    t.func("oxsparseLoggerOpenFile", &[("logFile", In(text(c"/dev/null")))], |a| unsafe { oxsparseLoggerOpenFile(cptr(a[0])) })
        .bad("a directory", &[("logFile", text(c"/"))], INVALID)
        .bad("in a folder that does not exist", &[("logFile", text(c"/no/such/folder/oxsparse.log"))], INVALID);
    // A FILE of its own on a copy of stderr, kept open for the process (the logger may write it).
    let stderr_copy = unsafe { libc::fdopen(libc::dup(2), c"w".as_ptr()) } as u64;
    t.func("oxsparseLoggerSetFile", &[("file", In(stderr_copy))], |a| unsafe { oxsparseLoggerSetFile(ptr(a[0])) });
    t.row("oxsparseLoggerForceDisable", "no arguments", SUCCESS, || oxsparseLoggerForceDisable());
}

/// The index helpers' device arrays (32-bit): A's rows as sorted COO row indices (10), A's CSR
/// offsets (9), and outputs for coo2csr (9), csr2coo (10) and the permutation (8).
#[derive(Clone, Copy, Debug)]
pub struct IndexArrays {
    pub coo_rows: u64,
    pub offsets: u64,
    pub csr_out: u64,
    pub coo_out: u64,
    pub perm: u64,
}

impl IndexArrays {
    /// Fake aligned addresses for the rows built but not run (or only their handle varied).
    pub fn stand_ins() -> IndexArrays {
        IndexArrays { coo_rows: 0xa0_0000, offsets: 0xb0_0000, csr_out: 0xc0_0000, coo_out: 0xd0_0000, perm: 0xe0_0000 }
    }
}

/// Sizes are C ints: their bad values are negative ints (not the table's 64-bit sizes).
const NEGATIVE: [(&str, i64); 2] = [("-1", -1), ("INT_MIN", i32::MIN as i64)];

/// Xcoo2csr, Xcsr2coo, CreateIdentityPermutation: A is 8 x 6 with 10 entries.
pub fn gpu_rows(t: &mut Table, o: &super::gpu::Operands) {
    let a = o.index;
    let h = ("handle", Handle(o.h));
    let mut f = t.func("oxsparseCreateIdentityPermutation", &[h, ("n", Plain(8)), ("p", Data(a.perm, 4))], |v| unsafe {
        oxsparse::ffi::coo_csr::oxsparseCreateIdentityPermutation(ptr(v[0]), int(v[1]), ptr(v[2]))
    });
    for (what, n) in NEGATIVE {
        f.bad(&format!("n {what}"), &[("n", n as u64)], INVALID);
    }
    f.bad("p NULL for 8 values", &[("p", 0)], INVALID).bad("n 0, p NULL (nothing to do)", &[("n", 0), ("p", 0)], SUCCESS);

    let args = [
        h,
        ("cooRowInd", Data(a.coo_rows, 4)),
        ("nnz", Plain(10)),
        ("m", Plain(8)),
        ("csrRowPtr", Data(a.csr_out, 4)),
        ("idxBase", Enum(0, &[2])),
    ];
    let mut f = t.func("oxsparseXcoo2csr", &args, |v| unsafe {
        oxsparse::ffi::coo_csr::oxsparseXcoo2csr(ptr(v[0]), cptr(v[1]), int(v[2]), int(v[3]), ptr(v[4]), int(v[5]))
    });
    for (what, n) in NEGATIVE {
        f.bad(&format!("nnz {what}"), &[("nnz", n as u64)], INVALID).bad(&format!("m {what}"), &[("m", n as u64)], INVALID);
    }
    f.bad("cooRowInd NULL for 10 entries", &[("cooRowInd", 0)], INVALID)
        .bad("csrRowPtr NULL for 8 rows", &[("csrRowPtr", 0)], INVALID)
        .bad("nnz -1 and cooRowInd NULL (the size is checked first)", &[("nnz", -1i64 as u64), ("cooRowInd", 0)], INVALID)
        .bad("m 0, both arrays NULL (nothing to do)", &[("m", 0), ("cooRowInd", 0), ("csrRowPtr", 0)], SUCCESS)
        .bad("nnz 0, cooRowInd NULL (empty rows)", &[("nnz", 0), ("cooRowInd", 0)], SUCCESS)
        .bad("base one", &[("idxBase", 1)], SUCCESS);

    let args = [
        h,
        ("csrRowPtr", Data(a.offsets, 4)),
        ("nnz", Plain(10)),
        ("m", Plain(8)),
        ("cooRowInd", Data(a.coo_out, 4)),
        ("idxBase", Enum(0, &[2])),
    ];
    let mut f = t.func("oxsparseXcsr2coo", &args, |v| unsafe {
        oxsparse::ffi::coo_csr::oxsparseXcsr2coo(ptr(v[0]), cptr(v[1]), int(v[2]), int(v[3]), ptr(v[4]), int(v[5]))
    });
    for (what, n) in NEGATIVE {
        f.bad(&format!("nnz {what}"), &[("nnz", n as u64)], INVALID).bad(&format!("m {what}"), &[("m", n as u64)], INVALID);
    }
    f.bad("csrRowPtr NULL for 8 rows", &[("csrRowPtr", 0)], INVALID)
        .bad("cooRowInd NULL for 10 entries", &[("cooRowInd", 0)], INVALID)
        .bad("nnz 0, both arrays NULL (nothing to do)", &[("nnz", 0), ("csrRowPtr", 0), ("cooRowInd", 0)], SUCCESS)
        .bad("m 0, both arrays NULL (nothing to do)", &[("m", 0), ("csrRowPtr", 0), ("cooRowInd", 0)], SUCCESS);
}
