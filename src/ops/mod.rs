//! Operations over descriptors: argument checks that need more than one operand, quick returns for
//! empty problems, the choice of kernel, and the launch. One file per routine family.

pub mod coo_csr;
pub mod csr2csc;
pub mod dense_to_sparse;
pub mod legacy_bsr;
pub mod reorder;
pub mod sddmm;
pub mod sort;
pub mod sparse_to_dense;
pub mod spmm;
pub mod spmv;
pub mod srbcrs;
pub mod srbcrs_arrays;
pub mod srbcrs_sddmm;
pub mod vector_ops;
pub mod workspace;

use crate::descr::{FormatInfo, SpMat};
use crate::kernels::row_view::{Major, RowViewSource};

/// The row view that presents op(A) (`m x k`) as rows where A does not store them: CSR with opA =
/// T/H, CSC with N, COO with any opA. None where it does (CSR with N, CSC with T/H) and for the
/// blocked formats. SpMM and SpMV plan their views from it.
pub fn row_view_source(a: &SpMat, transposed: bool, m: i64, k: i64) -> Option<RowViewSource> {
    let view = |major: Major, key_is_minor: bool| RowViewSource {
        major,
        minor: a.arrays.indices,
        nnz: a.nnz,
        base: a.index_base.offset(),
        index_type: a.index_type,
        key_is_minor,
        out_rows: m,
        out_cols: k,
    };
    match a.format {
        FormatInfo::Csr if transposed => Some(view(Major::Offsets { ptr: a.arrays.offsets, lines: a.rows }, true)),
        FormatInfo::Csc if !transposed => Some(view(Major::Offsets { ptr: a.arrays.offsets, lines: a.cols }, true)),
        FormatInfo::Coo => Some(view(Major::Indices { ptr: a.arrays.offsets }, transposed)),
        _ => None,
    }
}

/// The most elements one extent of a call may count (stored entries, or the elements of one dense
/// operand over its batches): 2^42, beyond any device's memory. Every workspace layout is a sum of
/// a few arrays of at most a few hundred bytes per such element, so below this bound its sizes stay
/// under 2^56 and the plain arithmetic of the planners cannot wrap. Checked once, before planning.
pub const MAX_ELEMENTS: u128 = 1 << 42;

/// Refuses a call whose extents (name, element count, computed without overflow in u128) exceed
/// [`MAX_ELEMENTS`]: its workspace size would not be representable (INSUFFICIENT_RESOURCES).
pub fn check_extents(extents: &[(&str, u128)]) -> crate::error::Result<()> {
    for &(what, count) in extents {
        if count > MAX_ELEMENTS {
            return Err(crate::error::Error::InsufficientResources(format!(
                "{what} counts {count} elements, more than {MAX_ELEMENTS}: the buffer size is not representable"
            )));
        }
    }
    Ok(())
}

/// a / b rounded up, for a >= 0, b > 0.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The product of `factors` over the unsigned 128-bit integers, saturating (negative sizes count as 0;
/// they are refused before).
pub fn product(factors: &[i64]) -> u128 {
    factors.iter().fold(1u128, |p, &f| p.saturating_mul(f.max(0) as u128))
}

/// Refuses a sparse operand `name` whose stored entries would be read through a NULL array (the
/// offsets too, except for Blocked-ELL, which has none).
pub fn stored_arrays(a: &SpMat, name: &str) -> crate::error::Result<()> {
    let needs_offsets = !matches!(a.format, FormatInfo::BlockedEll { .. });
    if (needs_offsets && a.arrays.offsets == 0) || a.arrays.indices == 0 || a.arrays.values == 0 {
        crate::error::invalid!("{name} stores {} entries but an index or value array is NULL", a.nnz);
    }
    Ok(())
}

/// What the last `*_preprocess` call on a sparse matrix left in the user's buffer. A new
/// preprocess call (of either routine) replaces it, as in cuSPARSE.
#[derive(Clone, Debug, PartialEq)]
pub enum ActiveBuffer {
    SpMM(Box<spmm::ActiveBuffer>),
    SpMV(Box<spmv::ActiveBuffer>),
    SDDMM(Box<sddmm::ActiveBuffer>),
}

/// The driver's process-wide unique ID of the allocation holding `ptr` (None when the driver does
/// not know the address). A buffer freed and allocated again at the same address gets a new ID,
/// so a preprocessed format is never trusted in memory it no longer owns.
pub fn allocation_id(h: &crate::context::Handle, ptr: u64) -> Option<u64> {
    use cudarc::driver::sys;
    let _bound = h.bind().ok()?;
    let mut id: u64 = 0;
    // SAFETY: the driver writes an unsigned long long for BUFFER_ID; a bad pointer is an error return.
    let r = unsafe {
        sys::cuPointerGetAttribute(
            &mut id as *mut u64 as *mut std::ffi::c_void,
            sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_BUFFER_ID,
            ptr,
        )
    };
    (r == sys::CUresult::CUDA_SUCCESS).then_some(id)
}

/// A fresh token for what preprocess writes into a buffer: unique within the process, unlikely to
/// match stale bytes.
pub fn new_token() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    scramble(nanos ^ NEXT.fetch_add(1, Ordering::Relaxed).rotate_left(32)) | 1
}

/// SplitMix64's first output from `seed`: a bijection that spreads a counter and a clock over all
/// 64 bits, so that a token looks like no data a buffer held before.
fn scramble(seed: u64) -> u64 {
    crate::fast_hash::splitmix64_mix(seed.wrapping_add(crate::fast_hash::SPLITMIX64_INCREMENT))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extents_beyond_any_device_are_refused_not_wrapped() {
        assert!(check_extents(&[("nnz", 1 << 40), ("C", product(&[1 << 20, 1 << 20, 4]))]).is_ok());
        let e = check_extents(&[("nnz", product(&[1 << 62]))]).unwrap_err();
        assert_eq!(e.status(), crate::types::Status::OXSPARSE_STATUS_INSUFFICIENT_RESOURCES);
        assert!(check_extents(&[("C", product(&[1 << 30, 1 << 30, 1 << 30]))]).is_err(), "2^90 without wrapping");
        assert_eq!(product(&[i64::MAX, i64::MAX, i64::MAX]), u128::MAX, "saturates");
    }

    /// Tokens are drawn as they were from the reference generator: its first output, odd.
    #[test]
    fn tokens_scramble_as_splitmix64_does() {
        for seed in [0, 1, 0x1234_5678_9abc_def0, u64::MAX, 1 << 32] {
            assert_eq!(scramble(seed), crate::reference::rng::SplitMix64::new(seed).next_u64());
        }
        assert_eq!(new_token() & 1, 1);
    }
}
