//! CPU reference implementations: plain, obviously correct loops in float64 (complex as (re, im)
//! pairs), used as the oracle by the GPU tests. Every fast kernel has its twin here.

pub mod brcv;
pub mod coo_csr;
pub mod legacy_bsr;
pub mod rng;
pub mod sddmm;
pub mod sparse_to_dense;
pub mod spmm;
pub mod spmv;
pub mod srbcrs;
pub mod srbcrs_sddmm;
pub mod vector_ops;
