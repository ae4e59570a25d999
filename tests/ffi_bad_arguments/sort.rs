//! The index sorts' rows (csrsort, cscsort, coosort and their bufferSizeExt, arguments in
//! cuSPARSE's order) and the minimal legacy matrix descriptor's (Create, Destroy, SetMatIndexBase).
//!
//! The valid calls sort a 4 x 4 matrix of 8 entries: CSR / CSC offsets {0, 2, 4, 6, 8} (an input),
//! their minor indices, P, and COO rows and columns (outputs: poisoned before every row, sorted in
//! place by the calls that succeed); every sort takes the fixture's workspace. Sizes are `int`, so -1 is each one's own row; the
//! descriptor (not yet a kind of the table) gets its NULL, never issued and destroyed rows here.

use super::gpu::Operands;
use super::table::*;
use crate::common::DevBuf;
use oxsparse::ffi::mat_descr::*;
use oxsparse::ffi::oxsparseMatDescr_t;
use oxsparse::ffi::sort::*;
use std::os::raw::c_int;
use std::ptr::null_mut;
use Arg::*;

/// The sorts' device arrays and descriptors (base 0, and one destroyed).
#[derive(Clone, Copy)]
pub struct SortOperands {
    pub descr: u64,
    pub descr_dead: u64,
    pub offsets: u64,
    pub indices: u64,
    pub perm: u64,
    pub rows: u64,
    pub cols: u64,
}

impl SortOperands {
    /// Without a GPU (only the handle's rows run): stand-in addresses.
    pub fn stand_ins() -> SortOperands {
        SortOperands {
            descr: NEVER_ISSUED,
            descr_dead: NEVER_ISSUED,
            offsets: 0x1000,
            indices: 0x2000,
            perm: 0x3000,
            rows: 0x4000,
            cols: 0x5000,
        }
    }
}

pub struct Part {
    pub operands: SortOperands,
    pub inputs: Vec<(&'static str, DevBuf)>,
    pub outputs: Vec<(&'static str, DevBuf)>,
}

fn new_descr() -> u64 {
    let mut d = null_mut();
    assert_eq!(unsafe { oxsparseCreateMatDescr(&mut d) }, SUCCESS, "oxsparseCreateMatDescr");
    d as u64
}

fn destroy_descr(d: u64) -> c_int {
    unsafe { oxsparseDestroyMatDescr(ptr(d)) }
}

impl Part {
    pub fn new() -> Part {
        let offsets = DevBuf::from_slice(&[0i32, 2, 4, 6, 8]);
        let (indices, perm) = (DevBuf::zeroed(8 * 4), DevBuf::zeroed(8 * 4));
        let (rows, cols) = (DevBuf::zeroed(8 * 4), DevBuf::zeroed(8 * 4));
        let descr_dead = new_descr();
        assert_eq!(destroy_descr(descr_dead), SUCCESS);
        let operands = SortOperands {
            descr: new_descr(),
            descr_dead,
            offsets: offsets.ptr,
            indices: indices.ptr,
            perm: perm.ptr,
            rows: rows.ptr,
            cols: cols.ptr,
        };
        Part {
            operands,
            inputs: vec![("the sorts' offsets", offsets)],
            outputs: vec![("the sorts' indices", indices), ("the sorts' P", perm), ("coosort's rows", rows), ("coosort's columns", cols)],
        }
    }
}

/// m, n and nnz as `int`s: -1 is refused (the automatic size rows assume i64).
fn sizes() -> [(&'static str, Arg); 3] {
    [("m", Plain(4)), ("n", Plain(4)), ("nnz", Plain(8))]
}

fn negative_sizes(f: &mut Func<'_>) {
    for name in ["m", "n", "nnz"] {
        f.bad(&format!("{name} = -1"), &[(name, -1i64 as u64)], INVALID);
    }
}

type BufferSizeExt = unsafe extern "C" fn(CHandle, c_int, c_int, c_int, *const c_int, *const c_int, *mut usize) -> c_int;
type Compressed = unsafe extern "C" fn(
    CHandle,
    c_int,
    c_int,
    c_int,
    oxsparseMatDescr_t,
    *const c_int,
    *mut c_int,
    *mut c_int,
    *mut std::ffi::c_void,
) -> c_int;
type CooSort = unsafe extern "C" fn(CHandle, c_int, c_int, c_int, *mut c_int, *mut c_int, *mut c_int, *mut std::ffi::c_void) -> c_int;
use oxsparse::ffi::oxsparseHandle_t as CHandle;

pub fn rows(t: &mut Table, o: &Operands) {
    let s = o.sort;
    let h = ("handle", Handle(o.h));
    let [m, n, nnz] = sizes();

    let size_queries: [(&'static str, BufferSizeExt, [&'static str; 2]); 3] = [
        ("oxsparseXcsrsort_bufferSizeExt", oxsparseXcsrsort_bufferSizeExt, ["csrRowPtrA", "csrColIndA"]),
        ("oxsparseXcscsort_bufferSizeExt", oxsparseXcscsort_bufferSizeExt, ["cscColPtrA", "cscRowIndA"]),
        ("oxsparseXcoosort_bufferSizeExt", oxsparseXcoosort_bufferSizeExt, ["cooRowsA", "cooColsA"]),
    ];
    for (func, f, [first, second]) in size_queries {
        let (a, b) = if func.contains("coo") { (s.rows, s.cols) } else { (s.offsets, s.indices) };
        let args = [h, m, n, nnz, (first, In(a)), (second, In(b)), ("pBufferSizeInBytes", Out(o.slots[0]))];
        let mut rows =
            t.func(func, &args, move |a| unsafe { f(ptr(a[0]), int(a[1]), int(a[2]), int(a[3]), cptr(a[4]), cptr(a[5]), ptr(a[6])) });
        negative_sizes(&mut rows);
        rows.bad("no entries: the arrays are not read", &[("nnz", 0), (first, 0), (second, 0)], SUCCESS);
    }

    let compressed: [(&'static str, Compressed, [&'static str; 2]); 2] = [
        ("oxsparseXcsrsort", oxsparseXcsrsort, ["csrRowPtrA", "csrColIndA"]),
        ("oxsparseXcscsort", oxsparseXcscsort, ["cscColPtrA", "cscRowIndA"]),
    ];
    for (func, f, [offsets, indices]) in compressed {
        let args = [
            h,
            m,
            n,
            nnz,
            ("descrA", Plain(s.descr)),
            (offsets, In(s.offsets)),
            (indices, In(s.indices)),
            ("P", In(s.perm)),
            ("pBuffer", Plain(o.ws)),
        ];
        let mut rows = t.func(func, &args, move |a| unsafe {
            f(ptr(a[0]), int(a[1]), int(a[2]), int(a[3]), ptr(a[4]), cptr(a[5]), ptr(a[6]), ptr(a[7]), ptr(a[8]))
        });
        negative_sizes(&mut rows);
        rows.bad("descrA: NULL", &[("descrA", 0)], INVALID)
            .bad("descrA: never issued", &[("descrA", NEVER_ISSUED)], NOT_INIT)
            .bad("descrA: destroyed", &[("descrA", s.descr_dead)], NOT_INIT)
            .bad("descrA: a live handle (wrong kind)", &[("descrA", o.h)], INVALID)
            .bad("pBuffer: NULL where a workspace is needed", &[("pBuffer", 0)], INVALID)
            .bad("no entries: nothing is read or written", &[("nnz", 0), (offsets, 0), (indices, 0), ("P", 0), ("pBuffer", 0)], SUCCESS);
    }

    let coo: [(&'static str, CooSort); 2] =
        [("oxsparseXcoosortByRow", oxsparseXcoosortByRow), ("oxsparseXcoosortByColumn", oxsparseXcoosortByColumn)];
    for (func, f) in coo {
        let args = [h, m, n, nnz, ("cooRowsA", In(s.rows)), ("cooColsA", In(s.cols)), ("P", In(s.perm)), ("pBuffer", Plain(o.ws))];
        let mut rows = t.func(func, &args, move |a| unsafe {
            f(ptr(a[0]), int(a[1]), int(a[2]), int(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6]), ptr(a[7]))
        });
        negative_sizes(&mut rows);
        rows.bad("pBuffer: NULL where a workspace is needed", &[("pBuffer", 0)], INVALID).bad(
            "no entries: nothing is read or written",
            &[("nnz", 0), ("cooRowsA", 0), ("cooColsA", 0), ("P", 0), ("pBuffer", 0)],
            SUCCESS,
        );
    }
}
