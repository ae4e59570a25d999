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
