//! Whether SpMV reads op(A)'s column indices as 16-bit offsets from their row (the band offsets,
//! `SpmvVector::band`).
//!
//! Why it pays: a large SpMV is a stream of A. Per entry, FP32 reads a 4-byte value and a 4-byte
//! index (8-byte in 64-bit), FP64 an 8-byte value and the index. In a banded matrix (stencils,
//! meshes numbered along a sweep) every column lies near its row, so column - row fits in 16 bits:
//! kept once by preprocess, the offsets make the stream 6 bytes per entry instead of 8 in FP32
//! (10 instead of 12 in FP64). The values still come from the user's array, so new values after
//! preprocess are honoured; the pattern may not change after preprocess (the API's contract).
//!
//! Where: real FP32 and FP64 (`kernels::spmv::band_types`), op(A) stored as rows, the vector
//! kernel's lean schedule (no huge rows), the natural column order, and matrices large enough for
//! their stream to matter (`MIN_NNZ`; below, a call's time is its latency). Preprocess writes the
//! offsets, counts the entries whose offset does not fit (one more stream synchronisation) and
//! keeps them only if none. The offsets share the column order's space when the plan reserves
//! it (one or the other is used), else take 2 bytes per entry of their own.
//!
//! `OXSPARSE_SPMV_BAND=on` tries them for every eligible plan whatever its size (tests run every
//! case through it); `off` never does.

use crate::kernels::spmv::{band_types, Types};

/// A must have at least this many entries for the plan to reserve the offsets.
pub const MIN_NNZ: i64 = 1_000_000;

/// Whether a plan of stored rows with these types and entries reserves the band offsets.
/// `forced` (`OXSPARSE_SPMV_BAND`): Some(true) `on`, Some(false) `off`.
pub fn eligible(types: Types, nnz: i64, forced: Option<bool>) -> bool {
    if !band_types(types) || nnz <= 0 {
        return false;
    }
    match forced {
        Some(on) => on,
        None => nnz >= MIN_NNZ,
    }
}

/// Bytes of the offsets of `nnz` entries.
pub fn bytes(nnz: i64) -> usize {
    nnz.max(0) as usize * 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType::*;

    const F32: Types = Types { a: CUDA_R_32F, x: CUDA_R_32F, y: CUDA_R_32F, compute: CUDA_R_32F };

    #[test]
    fn only_large_real_single_type_matrices() {
        let eligible = |t, nnz| eligible(t, nnz, None);
        assert!(super::eligible(F32, 1, Some(true)) && !super::eligible(F32, MIN_NNZ, Some(false)), "forced");
        assert!(eligible(F32, MIN_NNZ));
        assert!(!eligible(F32, MIN_NNZ - 1));
        let f64s = Types { a: CUDA_R_64F, x: CUDA_R_64F, y: CUDA_R_64F, compute: CUDA_R_64F };
        assert!(eligible(f64s, 20_000_000));
        assert!(!eligible(Types { x: CUDA_R_64F, y: CUDA_R_64F, compute: CUDA_R_64F, ..F32 }, 20_000_000), "mixed");
        assert!(!eligible(Types { a: CUDA_C_32F, x: CUDA_C_32F, y: CUDA_C_32F, compute: CUDA_C_32F }, 20_000_000), "complex");
        assert!(!eligible(Types { a: CUDA_R_16F, x: CUDA_R_16F, y: CUDA_R_32F, compute: CUDA_R_32F }, 20_000_000), "16-bit");
    }

    #[test]
    fn two_bytes_per_entry() {
        assert_eq!(bytes(0), 0);
        assert_eq!(bytes(13_481_272), 26_962_544);
        assert_eq!(bytes(-1), 0);
    }
}
