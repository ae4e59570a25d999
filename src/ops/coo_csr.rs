//! The index helpers of cuSPARSE's legacy API: `Xcoo2csr`, `Xcsr2coo` and
//! `CreateIdentityPermutation`, over 32-bit device arrays, asynchronous on the handle's stream.
//!
//! Checks in the house order: sizes (negative: INVALID_VALUE), pointers (NULL where entries are
//! read or written, or not 4-byte aligned: INVALID_VALUE), the index base. Empty problems return
//! at once and touch nothing: `m == 0` for both conversions (no offsets to write, no row can hold
//! an entry), `nnz == 0` for csr2coo, `n == 0` for the permutation. coo2csr with `nnz == 0` and
//! `m > 0` writes `m + 1` offsets equal to the base (a CSR matrix of empty rows).
//!
//! coo2csr needs the row indices sorted (as cuSPARSE); unsorted or out-of-range rows give
//! unspecified offsets but never a write outside `csrRowPtr[0..=m]`.

use crate::context::Handle;
use crate::error::{invalid, Result};
use crate::kernels::coo_csr as k;
use crate::types::IndexBase;

/// What a call enqueues: nothing, or one kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    Nothing,
    Launch,
}

fn size(what: &str, v: i32) -> Result<i64> {
    if v < 0 {
        invalid!("{what} ({v}) is negative");
    }
    Ok(v as i64)
}

/// A 32-bit array of `len` entries: it may be NULL only when empty, and is 4-byte aligned.
fn array(what: &str, p: u64, len: i64) -> Result<()> {
    if len > 0 && p == 0 {
        invalid!("{what} is NULL for {len} entries");
    }
    crate::descr::check_aligned(what, p, 4)
}

/// Checks of `Xcoo2csr(cooRowInd, nnz, m, csrRowPtr)` and what it enqueues.
pub fn plan_coo2csr(coo_rows: u64, nnz: i32, m: i32, csr_offsets: u64) -> Result<Plan> {
    let (nnz, m) = (size("nnz", nnz)?, size("m", m)?);
    array("cooRowInd", coo_rows, if m == 0 { 0 } else { nnz })?;
    array("csrRowPtr", csr_offsets, if m == 0 { 0 } else { m + 1 })?;
    Ok(if m == 0 { Plan::Nothing } else { Plan::Launch })
}

/// Checks of `Xcsr2coo(csrRowPtr, nnz, m, cooRowInd)` and what it enqueues.
pub fn plan_csr2coo(csr_offsets: u64, nnz: i32, m: i32, coo_rows: u64) -> Result<Plan> {
    let (nnz, m) = (size("nnz", nnz)?, size("m", m)?);
    let work = m > 0 && nnz > 0;
    array("csrRowPtr", csr_offsets, if work { m + 1 } else { 0 })?;
    array("cooRowInd", coo_rows, if work { nnz } else { 0 })?;
    Ok(if work { Plan::Launch } else { Plan::Nothing })
}

/// Checks of `CreateIdentityPermutation(n, p)` and what it enqueues.
pub fn plan_identity(n: i32, p: u64) -> Result<Plan> {
    let n = size("n", n)?;
    array("p", p, n)?;
    Ok(if n == 0 { Plan::Nothing } else { Plan::Launch })
}

/// `Xcoo2csr`: `csrRowPtr[r]` = base + the number of entries whose row is below r, for r <= m.
pub fn coo2csr(h: &Handle, coo_rows: u64, nnz: i32, m: i32, csr_offsets: u64, base: IndexBase) -> Result<()> {
    if plan_coo2csr(coo_rows, nnz, m, csr_offsets)? == Plan::Launch {
        let form = k::coo2csr_form(m as i64, nnz as i64, h.settings.convert.coo2csr_tile);
        k::coo2csr(h, form, coo_rows, nnz as i64, m as i64, csr_offsets, base.offset())?;
    }
    Ok(())
}

/// `Xcsr2coo`: `cooRowInd[k]` = base + the row whose offsets hold entry k.
pub fn csr2coo(h: &Handle, csr_offsets: u64, nnz: i32, m: i32, coo_rows: u64, base: IndexBase) -> Result<()> {
    if plan_csr2coo(csr_offsets, nnz, m, coo_rows)? == Plan::Launch {
        let form = k::csr2coo_form(m as i64, nnz as i64, h.settings.convert.csr2coo_probe);
        k::csr2coo(h, form, csr_offsets, nnz as i64, m as i64, coo_rows, base.offset())?;
    }
    Ok(())
}

/// `CreateIdentityPermutation`: `p[i] = i` for `i < n`.
pub fn identity_permutation(h: &Handle, n: i32, p: u64) -> Result<()> {
    if plan_identity(n, p)? == Plan::Launch {
        k::identity(h, p, n as i64)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Status;

    fn status<T>(r: Result<T>) -> Status {
        r.err().map_or(Status::OXSPARSE_STATUS_SUCCESS, |e| e.status())
    }

    const P: u64 = 0x1000;
    const Q: u64 = 0x2000;
    const INVALID: Status = Status::OXSPARSE_STATUS_INVALID_VALUE;

    #[test]
    fn coo2csr_checks_sizes_then_pointers() {
        assert_eq!(plan_coo2csr(P, 5, 3, Q).unwrap(), Plan::Launch);
        assert_eq!(plan_coo2csr(0, 0, 3, Q).unwrap(), Plan::Launch, "no entries: the offsets are still written");
        assert_eq!(plan_coo2csr(0, 7, 0, 0).unwrap(), Plan::Nothing, "no rows: nothing read or written");
        assert_eq!(status(plan_coo2csr(P, -1, 3, Q)), INVALID);
        assert_eq!(status(plan_coo2csr(P, 5, -1, Q)), INVALID);
        assert_eq!(status(plan_coo2csr(0, 5, 3, Q)), INVALID);
        assert_eq!(status(plan_coo2csr(P, 5, 3, 0)), INVALID);
        assert_eq!(status(plan_coo2csr(P + 2, 5, 3, Q)), INVALID, "misaligned");
        assert_eq!(status(plan_coo2csr(P, 5, 3, Q + 1)), INVALID, "misaligned");
        // Sizes before pointers: a negative size with a NULL pointer names the size.
        let e = plan_coo2csr(0, -1, 3, 0).unwrap_err();
        assert!(e.message().contains("nnz"), "{e}");
    }

    #[test]
    fn csr2coo_checks_sizes_then_pointers() {
        assert_eq!(plan_csr2coo(P, 5, 3, Q).unwrap(), Plan::Launch);
        assert_eq!(plan_csr2coo(P, 0, 3, 0).unwrap(), Plan::Nothing, "no entries: nothing to write");
        assert_eq!(plan_csr2coo(0, 0, 0, 0).unwrap(), Plan::Nothing);
        assert_eq!(status(plan_csr2coo(P, -1, 3, Q)), INVALID);
        assert_eq!(status(plan_csr2coo(P, 5, i32::MIN, Q)), INVALID);
        assert_eq!(status(plan_csr2coo(0, 5, 3, Q)), INVALID);
        assert_eq!(status(plan_csr2coo(P, 5, 3, 0)), INVALID);
        assert_eq!(status(plan_csr2coo(P, 5, 3, Q + 3)), INVALID, "misaligned");
    }

    #[test]
    fn identity_checks_size_then_pointer() {
        assert_eq!(plan_identity(10, P).unwrap(), Plan::Launch);
        assert_eq!(plan_identity(0, 0).unwrap(), Plan::Nothing);
        assert_eq!(status(plan_identity(-1, P)), INVALID);
        assert_eq!(status(plan_identity(10, 0)), INVALID);
        assert_eq!(status(plan_identity(10, P + 2)), INVALID);
    }
}
