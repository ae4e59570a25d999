//! Operations over descriptors: argument checks that need more than one operand, quick returns for
//! empty problems, the choice of kernel, and the launch. One file per routine family.

pub mod sparse_to_dense;
pub mod spmm;

pub use spmm::ActiveBuffer;
pub mod vector_ops;
