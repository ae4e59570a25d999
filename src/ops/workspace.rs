//! What every operation's workspace and plan reporting share: the alignment of the workspace's
//! sub-arrays, the user's buffer checked against the bytes a plan asks for, and the
//! `OXSPARSE_PRINT_PLAN` line.

use crate::error::{invalid, Result};

/// Sub-arrays of a workspace start on this boundary.
pub const ALIGN: usize = 256;

pub fn align_up(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

/// The aligned start of `buffer` for a plan that needs `bytes` of workspace (0 when it needs none:
/// the buffer may then be NULL); INVALID_VALUE naming `routine`'s bufferSize when it is NULL.
pub fn start(buffer: u64, bytes: usize, routine: &str) -> Result<u64> {
    if bytes == 0 {
        return Ok(0);
    }
    if buffer == 0 {
        invalid!("externalBuffer is NULL but {routine} needs {bytes} bytes (see oxsparse{routine}_bufferSize)");
    }
    Ok(align_up(buffer as usize) as u64)
}

/// Prints `routine`'s plan for `what` (a call, a preprocess) when the handle's `print` setting
/// (`OXSPARSE_PRINT_PLAN`) is on.
pub fn report(print: bool, routine: &str, what: &str, plan: &dyn std::fmt::Display) {
    if print {
        eprintln!("oxsparse: {routine} {what} plan: {plan}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_needed_buffer_must_be_given_and_is_aligned() {
        assert_eq!(start(0, 0, "SpMV").unwrap(), 0, "no workspace: NULL is fine");
        assert!(start(0, 1, "SpMV").is_err());
        assert_eq!(start(0x1001, 100, "SpMM").unwrap(), 0x1100);
        assert_eq!(start(0x1100, 100, "SpMM").unwrap(), 0x1100);
        assert_eq!([align_up(0), align_up(1), align_up(256), align_up(257)], [0, 256, 256, 512]);
    }
}
