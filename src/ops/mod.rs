//! Operations over descriptors: argument checks that need more than one operand, quick returns for
//! empty problems, the choice of kernel, and the launch. One file per routine family.

pub mod sparse_to_dense;
pub mod spmm;
pub mod spmv;
pub mod vector_ops;

/// What the last `*_preprocess` call on a sparse matrix left in the user's buffer. A new
/// preprocess call (of either routine) replaces it, as in cuSPARSE.
#[derive(Clone, Debug, PartialEq)]
pub enum ActiveBuffer {
    SpMM(spmm::ActiveBuffer),
    SpMV(spmv::ActiveBuffer),
}

/// A fresh token for what preprocess writes into a buffer: unique within the process, unlikely to
/// match stale bytes.
pub fn new_token() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut rng = crate::reference::rng::SplitMix64::new(nanos ^ NEXT.fetch_add(1, Ordering::Relaxed).rotate_left(32));
    rng.next_u64() | 1
}
