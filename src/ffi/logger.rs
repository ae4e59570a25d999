//! The logger API (cuSPARSE's `cusparseLogger*`): where the library's messages go, and which.
//! The state and its rules are in src/logger.rs.

use super::*;
use crate::logger;
use std::os::raw::c_char;

/// Sends every message the mask lets through to `callback` instead of the output file; NULL
/// removes the callback (messages go to the output again).
///
/// # Safety
/// `callback` is NULL or a function of this signature, callable from any thread until replaced.
#[no_mangle]
pub unsafe extern "C" fn oxsparseLoggerSetCallback(callback: oxsparseLoggerCallback_t) -> oxsparseStatus_t {
    guard("oxsparseLoggerSetCallback", || {
        logger::set_callback(callback);
        Ok(())
    })
}

/// Sends the output to `file`, an open `FILE*` with write permission, which must not be closed
/// while it is the output (until another `SetFile` or `OpenFile`). NULL is INVALID_VALUE.
///
/// # Safety
/// `file` is NULL or an open `FILE*`, kept open as above.
#[no_mangle]
pub unsafe extern "C" fn oxsparseLoggerSetFile(file: *mut libc::FILE) -> oxsparseStatus_t {
    guard("oxsparseLoggerSetFile", || {
        if file.is_null() {
            return Err(Error::InvalidValue("file is NULL".into()));
        }
        logger::set_file(file);
        Ok(())
    })
}

/// Makes (or truncates) the file at `logFile` and sends the output there. NULL, and a path that
/// cannot be opened for writing, are INVALID_VALUE and leave the output as it was.
///
/// # Safety
/// `logFile` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn oxsparseLoggerOpenFile(logFile: *const c_char) -> oxsparseStatus_t {
    guard("oxsparseLoggerOpenFile", || {
        if logFile.is_null() {
            return Err(Error::InvalidValue("logFile is NULL".into()));
        }
        let path = std::ffi::CStr::from_ptr(logFile).to_string_lossy().into_owned();
        logger::open_file(std::path::Path::new(&path)).map_err(|e| Error::InvalidValue(format!("cannot open {path:?} for writing: {e}")))
    })
}

/// Sets the level: 0 off, 1 errors, 2 also calls that launch kernels, 3 also hints, 4 also
/// information, 5 also every API call. Its mask (`2^level - 1`) replaces the mask in force.
/// Another value is INVALID_VALUE.
#[no_mangle]
pub extern "C" fn oxsparseLoggerSetLevel(level: c_int) -> oxsparseStatus_t {
    guard("oxsparseLoggerSetLevel", || match logger::set_level(level) {
        true => Ok(()),
        false => Err(Error::InvalidValue(format!("level {level} is not in 0..=5"))),
    })
}

/// Sets the mask, a combination of 1 error, 2 trace, 4 hints, 8 info, 16 API trace; it replaces
/// the level's. Another value (negative, or above 31) is INVALID_VALUE.
#[no_mangle]
pub extern "C" fn oxsparseLoggerSetMask(mask: c_int) -> oxsparseStatus_t {
    guard("oxsparseLoggerSetMask", || match logger::set_mask(mask) {
        true => Ok(()),
        false => Err(Error::InvalidValue(format!("mask {mask} is not a combination of the bits 1, 2, 4, 8 and 16"))),
    })
}

/// Turns the logger off for the rest of the process: later settings succeed but log nothing.
#[no_mangle]
pub extern "C" fn oxsparseLoggerForceDisable() -> oxsparseStatus_t {
    guard("oxsparseLoggerForceDisable", || {
        logger::force_disable();
        Ok(())
    })
}
