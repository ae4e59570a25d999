//! Host tests of the face's tables and face functions (the linked library: scripts/check_dropin.sh).

use crate::face::{COUNT, NAMES, NATIVE_BUT_LISTED_AS_FORWARDED, ROUTES};
use crate::special::*;
use crate::Route;
use std::ffi::CStr;

#[test]
fn every_name_of_the_list_has_one_route() {
    let list = include_str!("../cusparse-12.6.3-exports.txt");
    let names: Vec<&str> = list.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(names.len(), 423);
    assert_eq!(COUNT, 423);
    assert_eq!(NAMES.as_slice(), names.as_slice());
    let native = ROUTES.iter().filter(|r| **r == Route::Native).count();
    assert!(native >= 100, "only {native} native names");
    for name in ["cusparseSpMM", "cusparseSpMV", "cusparseCreateCsr", "cusparseCreateMatDescr", "cusparseXcoo2csr"] {
        let id = NAMES.iter().position(|n| *n == name).unwrap();
        assert_eq!(ROUTES[id], Route::Native, "{name}");
    }
}

#[test]
fn version_and_properties_are_cusparse_12_6_3() {
    let mut value = 0;
    for (property, expected) in [(0, 12), (1, 6), (2, 3)] {
        assert_eq!(unsafe { cusparseGetProperty(property, &mut value) }, 0);
        assert_eq!(value, expected);
    }
    assert_eq!(unsafe { cusparseGetProperty(3, &mut value) }, 3);
    assert_eq!(unsafe { cusparseGetProperty(0, std::ptr::null_mut()) }, 3);
    assert_eq!(CUSPARSE_VERSION, 12603);
}

#[test]
fn error_names_and_texts_are_cusparse_ones() {
    let name = |s| unsafe { CStr::from_ptr(cusparseGetErrorName(s)) }.to_str().unwrap().to_string();
    let text = |s| unsafe { CStr::from_ptr(cusparseGetErrorString(s)) }.to_str().unwrap().to_string();
    assert_eq!(name(0), "CUSPARSE_STATUS_SUCCESS");
    assert_eq!(name(10), "CUSPARSE_STATUS_NOT_SUPPORTED");
    assert_eq!(name(11), "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES");
    assert_eq!(text(0), "success");
    assert_eq!(text(3), "invalid value");
    assert_eq!(text(10), "operation not supported");
    for s in 0..12 {
        assert!(!name(s).contains("OXSPARSE") && !text(s).contains("OXSPARSE"));
    }
}

#[test]
fn forwarded_txt_lists_no_native_name() {
    assert!(
        NATIVE_BUT_LISTED_AS_FORWARDED.is_empty(),
        "oxsparse implements these now: delete their lines from dropin/forwarded.txt: {NATIVE_BUT_LISTED_AS_FORWARDED:?}"
    );
}
