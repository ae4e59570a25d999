//! The logger API through the C ABI: refused calls reach a callback with level 1, the function's
//! name and the reason; the mask and level filter them; a file opened by path and a caller's
//! `FILE*` receive them; ForceDisable silences everything after it. One test, in order: the
//! logger is process-wide state.

use oxsparse::ffi::logger::*;
use oxsparse::ffi::mat_descr::oxsparseCreateMatDescr;
use oxsparse::types::Status;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};
use std::ptr::null_mut;
use std::sync::Mutex;

const SUCCESS: c_int = Status::OXSPARSE_STATUS_SUCCESS as c_int;
const INVALID: c_int = Status::OXSPARSE_STATUS_INVALID_VALUE as c_int;

static HEARD: Mutex<Vec<(c_int, String, String)>> = Mutex::new(Vec::new());

unsafe extern "C" fn listen(level: c_int, func: *const c_char, message: *const c_char) {
    let text = |p: *const c_char| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    HEARD.lock().unwrap().push((level, text(func), text(message)));
}

fn heard() -> Vec<(c_int, String, String)> {
    std::mem::take(&mut *HEARD.lock().unwrap())
}

/// A call refused with INVALID_VALUE (a NULL output pointer).
fn refused_call() {
    assert_eq!(unsafe { oxsparseCreateMatDescr(null_mut()) }, INVALID);
}

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("oxsparse-logger-{}-{name}", std::process::id()))
}

#[test]
fn the_logger_routes_the_librarys_messages() {
    unsafe {
        // Callback, level 1: the refusal arrives whole.
        assert_eq!(oxsparseLoggerSetCallback(Some(listen)), SUCCESS);
        assert_eq!(oxsparseLoggerSetLevel(1), SUCCESS);
        refused_call();
        let got = heard();
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!((got[0].0, got[0].1.as_str()), (1, "oxsparseCreateMatDescr"));
        assert!(got[0].2.contains("NULL") && got[0].2.contains("OXSPARSE_STATUS_INVALID_VALUE"), "{}", got[0].2);

        // Level 0, or a mask without the error bit: nothing. Mask 1 alone: heard again.
        assert_eq!(oxsparseLoggerSetLevel(0), SUCCESS);
        refused_call();
        assert_eq!(oxsparseLoggerSetMask(2 | 4 | 8 | 16), SUCCESS);
        refused_call();
        assert!(heard().is_empty());
        assert_eq!(oxsparseLoggerSetMask(1), SUCCESS);
        refused_call();
        assert_eq!(heard().len(), 1);

        // Refused settings are logged themselves and change nothing.
        for (status, what) in
            [(oxsparseLoggerSetLevel(6), "level 6"), (oxsparseLoggerSetLevel(-1), "level -1"), (oxsparseLoggerSetMask(32), "mask 32")]
        {
            assert_eq!(status, INVALID, "{what}");
        }
        let got = heard();
        let funcs: Vec<&str> = got.iter().map(|h| h.1.as_str()).collect();
        assert_eq!(funcs, ["oxsparseLoggerSetLevel", "oxsparseLoggerSetLevel", "oxsparseLoggerSetMask"]);
        refused_call();
        assert_eq!(heard().len(), 1, "mask 1 still in force");

        // A file by path: with the callback removed, lines go there.
        let path = temp_path("open.log");
        let cpath = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        assert_eq!(oxsparseLoggerOpenFile(cpath.as_ptr()), SUCCESS);
        refused_call();
        assert!(heard().len() == 1, "the callback still takes the messages while set");
        assert_eq!(oxsparseLoggerSetCallback(None), SUCCESS);
        refused_call();
        refused_call();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.lines().all(|l| l.starts_with("oxsparse: oxsparseCreateMatDescr: ")), "{text}");
        assert_eq!(oxsparseLoggerOpenFile(null_mut()), INVALID);
        assert_eq!(oxsparseLoggerOpenFile(c"/no/such/folder/x.log".as_ptr()), INVALID);
        refused_call();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().lines().count(),
            5,
            "the two refused opens are logged there, and the call after them"
        );

        // The caller's FILE*.
        let path2 = temp_path("set.log");
        let cpath2 = std::ffi::CString::new(path2.to_str().unwrap()).unwrap();
        let file = libc::fopen(cpath2.as_ptr(), c"w".as_ptr());
        assert!(!file.is_null());
        assert_eq!(oxsparseLoggerSetFile(null_mut()), INVALID);
        assert_eq!(oxsparseLoggerSetFile(file), SUCCESS);
        refused_call();
        let text = std::fs::read_to_string(&path2).unwrap();
        assert_eq!(text.lines().count(), 1, "written and flushed before the call returned: {text}");

        // ForceDisable: nothing more, whatever is set after.
        assert_eq!(oxsparseLoggerSetCallback(Some(listen)), SUCCESS);
        assert_eq!(oxsparseLoggerForceDisable(), SUCCESS);
        assert_eq!(oxsparseLoggerSetLevel(5), SUCCESS);
        refused_call();
        assert_eq!(oxsparseLoggerSetMask(7), SUCCESS);
        refused_call();
        assert!(heard().is_empty());
        assert_eq!(oxsparseLoggerSetCallback(None), SUCCESS);
        refused_call();
        assert_eq!(std::fs::read_to_string(&path2).unwrap().lines().count(), 1);
        libc::fclose(released(file));
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&path2);
    }
}

/// Hands the FILE back for closing: the logger is disabled, so it will not write it again, and
/// OpenFile on /dev/null makes it stop holding it.
unsafe fn released(file: *mut libc::FILE) -> *mut libc::FILE {
    assert_eq!(unsafe { oxsparseLoggerOpenFile(c"/dev/null".as_ptr()) }, SUCCESS);
    file
}
