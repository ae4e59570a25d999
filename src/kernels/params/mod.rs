//! Kernel parameter blocks, shared with CUDA.
//!
//! build.rs runs cbindgen on every file of this folder to write `oxsparse_kernel_params.h`, which every `.cu`
//! includes. So each block is defined once: a field added here appears in the kernel's view of
//! the struct at the next build. Keep to `u64`/`i64`/`i32`/`u32` and nested blocks; device addresses
//! are `u64`. Every `pub struct` here is exported to the header (build.rs lists them).

pub mod brcv;
pub mod coo_csr;
pub mod csr2csc;
pub mod dense_to_sparse;
pub mod row_view;
pub mod sddmm;
pub mod sort;
pub mod sparse_to_dense;
pub mod spmm;
pub mod spmm_tc;
pub mod spmv;
pub mod spmv_columns;
pub mod srbcrs;
pub mod srbcrs_sddmm;
pub mod vector_ops;

/// A scalar (alpha, beta, ...) of the operation's compute type: either its bytes, read on the host
/// at call time (host pointer mode), or the device address to read it from in stream order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scalar {
    /// Value bytes, up to a double complex.
    pub host: [u64; 2],
    /// Device address of the value; 0 when `host` holds it.
    pub device: u64,
}
