//! Parameter blocks of the index helpers (`kernels/coo_csr.cu`): COO row indices to CSR row
//! offsets and back, and the identity permutation. Indices are 32-bit, as in cuSPARSE's
//! `Xcoo2csr` / `Xcsr2coo`; `base` (0 or 1) is in every index read and written.

/// `Xcoo2csr`: `nnz` row indices sorted by row into `m + 1` offsets.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Coo2CsrParams {
    pub coo_rows: u64,
    pub csr_offsets: u64,
    pub nnz: i64,
    pub m: i64,
    pub base: i64,
}

/// `Xcsr2coo`: `m + 1` offsets expanded into `nnz` row indices.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Csr2CooParams {
    pub csr_offsets: u64,
    pub coo_rows: u64,
    pub nnz: i64,
    pub m: i64,
    pub base: i64,
}

/// `CreateIdentityPermutation`: `p[i] = i` for `i < n`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct IdentityParams {
    pub p: u64,
    pub n: i64,
}
