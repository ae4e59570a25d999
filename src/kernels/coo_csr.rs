//! Launchers for `kernels/coo_csr.cu`: COO row indices to CSR offsets and back (merge-path
//! kernels, ITEMS steps of the path a block), and the identity permutation.

use super::params::coo_csr::*;
use super::{grid_for, launch, BLOCK};
use crate::context::Handle;
use crate::error::Result;

const FAMILY: &str = "coo_csr";
/// Steps of the merge path a block of the conversion kernels takes (BLOCK x STEPS in the .cu).
pub const ITEMS: i64 = 256 * 8;
const CONVERSION_BLOCK: u32 = 256;

fn blocks(steps: i64) -> (u32, u32, u32) {
    ((steps as u64).div_ceil(ITEMS as u64).max(1) as u32, 1, 1)
}

/// `m + 1` offsets from `nnz` sorted row indices (m > 0).
pub fn coo2csr(h: &Handle, coo_rows: u64, nnz: i64, m: i64, csr_offsets: u64, base: i64) -> Result<()> {
    let p = Coo2CsrParams { coo_rows, csr_offsets, nnz, m, base };
    launch(h, FAMILY, "oxs_coo2csr_i32", blocks(m + 1 + nnz), CONVERSION_BLOCK, 0, &p)
}

/// `nnz` row indices from `m + 1` offsets (m, nnz > 0).
pub fn csr2coo(h: &Handle, csr_offsets: u64, nnz: i64, m: i64, coo_rows: u64, base: i64) -> Result<()> {
    let p = Csr2CooParams { csr_offsets, coo_rows, nnz, m, base };
    launch(h, FAMILY, "oxs_csr2coo_i32", blocks(m + nnz), CONVERSION_BLOCK, 0, &p)
}

/// `p[i] = i` for `i < n` (n > 0): four values a thread's store.
pub fn identity(h: &Handle, p: u64, n: i64) -> Result<()> {
    let params = IdentityParams { p, n };
    launch(h, FAMILY, "oxs_identity_permutation_i32", (grid_for((n as u64).div_ceil(4), BLOCK), 1, 1), BLOCK, 0, &params)
}
