//! The legacy matrix descriptor through the C ABI: cuSPARSE's defaults, every field's every value
//! set and read back independently of the others, refused values leaving the field as it was, and
//! the getters' defaults for descriptors that are not live.

use oxsparse::ffi::mat_descr::*;
use oxsparse::ffi::oxsparseMatDescr_t;
use oxsparse::types::Status;
use std::os::raw::c_int;
use std::ptr::null_mut;

const SUCCESS: c_int = Status::OXSPARSE_STATUS_SUCCESS as c_int;
const INVALID: c_int = Status::OXSPARSE_STATUS_INVALID_VALUE as c_int;
const NOT_INIT: c_int = Status::OXSPARSE_STATUS_NOT_INITIALIZED as c_int;

type Set = unsafe extern "C" fn(oxsparseMatDescr_t, c_int) -> c_int;
type Get = unsafe extern "C" fn(oxsparseMatDescr_t) -> c_int;

/// Each field: its setter, getter, and the values it takes (cuSPARSE's enumerators).
const FIELDS: [(&str, Set, Get, &[c_int]); 4] = [
    ("type", oxsparseSetMatType, oxsparseGetMatType, &[0, 1, 2, 3]),
    ("fill mode", oxsparseSetMatFillMode, oxsparseGetMatFillMode, &[0, 1]),
    ("diag type", oxsparseSetMatDiagType, oxsparseGetMatDiagType, &[0, 1]),
    ("index base", oxsparseSetMatIndexBase, oxsparseGetMatIndexBase, &[0, 1]),
];

fn fields(d: oxsparseMatDescr_t) -> [c_int; 4] {
    FIELDS.map(|(_, _, get, _)| unsafe { get(d) })
}

fn create() -> oxsparseMatDescr_t {
    let mut d = null_mut();
    assert_eq!(unsafe { oxsparseCreateMatDescr(&mut d) }, SUCCESS);
    assert!(!d.is_null());
    d
}

#[test]
fn defaults_are_cusparses() {
    let d = create();
    // GENERAL, LOWER, NON_UNIT, ZERO.
    assert_eq!(fields(d), [0, 0, 0, 0]);
    assert_eq!(unsafe { oxsparseDestroyMatDescr(d) }, SUCCESS);
}

#[test]
fn every_value_of_every_field_round_trips_alone() {
    let d = create();
    for (i, (name, set, _, values)) in FIELDS.iter().enumerate() {
        for &v in values.iter().rev() {
            let before = fields(d);
            assert_eq!(unsafe { set(d, v) }, SUCCESS, "{name} = {v}");
            let mut want = before;
            want[i] = v;
            assert_eq!(fields(d), want, "{name} = {v} changed only {name}");
        }
        // A refused value leaves every field as it was.
        for bad in [-1, values.len() as c_int, 12345, c_int::MIN] {
            let before = fields(d);
            assert_eq!(unsafe { set(d, bad) }, INVALID, "{name} = {bad}");
            assert_eq!(fields(d), before, "refused {name} = {bad}");
        }
    }
    // A second descriptor is independent of the first.
    let e = create();
    assert_eq!(unsafe { oxsparseSetMatType(d, 3) }, SUCCESS);
    assert_eq!(fields(e), [0, 0, 0, 0]);
    for x in [d, e] {
        assert_eq!(unsafe { oxsparseDestroyMatDescr(x) }, SUCCESS);
    }
}

#[test]
fn descriptors_that_are_not_live_are_refused() {
    let d = create();
    assert_eq!(unsafe { oxsparseSetMatFillMode(d, 1) }, SUCCESS);
    assert_eq!(unsafe { oxsparseDestroyMatDescr(d) }, SUCCESS);
    assert_eq!(unsafe { oxsparseCreateMatDescr(null_mut()) }, INVALID);
    for (what, bad, want) in
        [("NULL", null_mut(), INVALID), ("destroyed", d, NOT_INIT), ("never issued", 0x7e57_0008 as oxsparseMatDescr_t, NOT_INIT)]
    {
        for (name, set, get, _) in FIELDS {
            assert_eq!(unsafe { set(bad, 1) }, want, "{name}: {what}");
            assert_eq!(unsafe { get(bad) }, 0, "{name} of a {what} descriptor reads as the default");
        }
    }
    // Destroying twice is refused; NULL is a no-op, as free(NULL).
    assert_eq!(unsafe { oxsparseDestroyMatDescr(d) }, NOT_INIT);
    assert_eq!(unsafe { oxsparseDestroyMatDescr(null_mut()) }, SUCCESS);
}
