//! Descriptors: what the user told us about their data (shapes, types, device addresses).
//!
//! This layer is plain safe Rust and knows nothing of C: the FFI layer decodes arguments into these
//! types and hands them on. Validation that needs only the arguments (sizes, alignment, index
//! ranges) happens here, at creation, so every later call can trust a descriptor.

pub mod dense;
pub mod legacy;
pub mod sparse;

pub use dense::{DnMat, DnVec};
pub use legacy::MatDescr;
pub use sparse::{FormatInfo, SpArrays, SpBatch, SpMat, SpVec};

use crate::error::{invalid, Result};

/// cuSPARSE requires every data pointer to be aligned to its element size.
pub(crate) fn check_aligned(what: &str, addr: u64, align: u64) -> Result<()> {
    if addr % align != 0 {
        invalid!("{what} pointer {addr:#x} is not aligned to {align} bytes");
    }
    Ok(())
}
