//! The cuSPARSE face of oxsparse: the 423 functions of `libcusparse.so.12` (cuSPARSE 12.6.3), each
//! running oxsparse's implementation, forwarded to a real cuSPARSE, or refused with
//! CUSPARSE_STATUS_NOT_SUPPORTED (docs/design/dropin.md). build.rs generates the functions;
//! scripts/build_dropin.sh links this staticlib into `libcusparse.so.12` with cuSPARSE's version node.

#![allow(non_snake_case)] // the exported names are cuSPARSE's
#![allow(clippy::missing_safety_doc)] // the contract is cuSPARSE's, stated once in src/ffi/mod.rs
#![allow(clippy::too_many_arguments)] // cuSPARSE's parameter lists

// The native routes call oxsparse's exported functions by symbol: linking the crate brings them in.
extern crate oxsparse;

pub mod forward;
pub mod header;
pub mod report;
pub mod shadow;
pub mod special;

use std::os::raw::c_int;

/// How an exported name is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Written in src/special.rs (version, error texts, Destroy).
    Face,
    /// Calls the `oxsparse*` twin with the same arguments.
    Native,
    /// Calls the real cuSPARSE when one is found, else NOT_SUPPORTED.
    Forwarded,
    /// Returns CUSPARSE_STATUS_NOT_SUPPORTED.
    NotSupported,
}

/// CUSPARSE_STATUS_NOT_SUPPORTED.
pub const STATUS_NOT_SUPPORTED: c_int = 10;
/// CUSPARSE_STATUS_INVALID_VALUE.
pub const STATUS_INVALID_VALUE: c_int = 3;
/// CUSPARSE_STATUS_INTERNAL_ERROR.
pub const STATUS_INTERNAL_ERROR: c_int = 7;

/// The generated functions and tables (build.rs).
#[allow(non_upper_case_globals)] // ID_<name> constants keep the cuSPARSE name readable
pub mod face {
    use crate::Route;
    use std::os::raw::c_int;
    include!(concat!(env!("OUT_DIR"), "/face.rs"));
}

/// Writes one line to stderr; a failed write is ignored (never a panic at the C boundary).
pub(crate) fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "oxsparse: {line}");
}

#[cfg(test)]
mod tests;
