//! The legacy index sorts: csrsort / cscsort (minor indices within each row / column) and coosort
//! (all entries by row then column, or by column then row), each carrying the permutation P.
//!
//! Arguments are 32-bit (`int`), as in cuSPARSE. Every sort is stable: equal keys keep their input
//! order, so P maps the sorted order back to the input and the values follow with Gather. The work
//! is enqueued on the handle's stream as one batch (src/kernels/sort.rs has the stages and the
//! workspace), with no host synchronisation; `m`, `n` or `nnz` of 0 enqueue nothing.

use crate::context::Handle;
use crate::error::{invalid, Result};
use crate::kernels::sort as k;
use crate::ops::workspace;
use crate::types::IndexBase;

/// Which coordinate a coosort orders by first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CooOrder {
    ByRow,
    ByColumn,
}

/// The compressed formats' sorts: CSR (segments are rows) or CSC (columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compressed {
    Csr,
    Csc,
}

impl Compressed {
    fn name(self) -> &'static str {
        match self {
            Compressed::Csr => "Xcsrsort",
            Compressed::Csc => "Xcscsort",
        }
    }
    /// (segments, the minor dimension) of an m x n matrix.
    fn lines_and_minor(self, m: i32, n: i32) -> (i64, i64) {
        match self {
            Compressed::Csr => (m as i64, n as i64),
            Compressed::Csc => (n as i64, m as i64),
        }
    }
}

fn check_sizes(m: i32, n: i32, nnz: i32) -> Result<()> {
    if m < 0 || n < 0 || nnz < 0 {
        invalid!("m ({m}), n ({n}) and nnz ({nnz}) must be non-negative");
    }
    Ok(())
}

/// Nothing to sort: an empty matrix or no entries.
fn empty(m: i32, n: i32, nnz: i32) -> bool {
    m == 0 || n == 0 || nnz == 0
}

/// Pointers an entry-holding call reads and writes: each must be non-NULL.
fn check_pointers(arrays: &[(u64, &str)]) -> Result<()> {
    for &(p, what) in arrays {
        if p == 0 {
            invalid!("{what} is NULL");
        }
    }
    Ok(())
}

/// `oxsparseXcsrsort_bufferSizeExt` / `oxsparseXcscsort_bufferSizeExt`: the tiers' lists (at
/// most 20 bytes per segment and 2.3 per entry), plus, when a segment can exceed the block tiers (nnz > 4096), about 24
/// bytes per entry and 8 per segment (src/kernels/sort.rs); 0 for fewer than 2 entries. The
/// arrays are not read.
pub fn compressed_buffer_size(format: Compressed, m: i32, n: i32, nnz: i32, offsets: u64, indices: u64) -> Result<usize> {
    check_sizes(m, n, nnz)?;
    if empty(m, n, nnz) {
        return Ok(0);
    }
    check_pointers(&[(offsets, "the offsets"), (indices, "the indices")])?;
    let (lines, _) = format.lines_and_minor(m, n);
    Ok(k::segments_workspace_bytes(lines, nnz as i64))
}

/// `oxsparseXcsrsort` / `oxsparseXcscsort`: sorts the minor indices of every segment in place and
/// applies the same permutation to `perm`.
#[allow(clippy::too_many_arguments)]
pub fn compressed_sort(
    h: &Handle,
    format: Compressed,
    m: i32,
    n: i32,
    nnz: i32,
    base: IndexBase,
    offsets: u64,
    indices: u64,
    perm: u64,
    buffer: u64,
) -> Result<()> {
    check_sizes(m, n, nnz)?;
    if empty(m, n, nnz) {
        return Ok(());
    }
    let names = match format {
        Compressed::Csr => ["csrRowPtrA", "csrColIndA"],
        Compressed::Csc => ["cscColPtrA", "cscRowIndA"],
    };
    check_pointers(&[(offsets, names[0]), (indices, names[1]), (perm, "P")])?;
    let (lines, minor_dim) = format.lines_and_minor(m, n);
    let bytes = k::segments_workspace_bytes(lines, nnz as i64);
    let ws = workspace::start(buffer, bytes, format.name())?;
    let s = k::Segments { lines, minor_dim, nnz: nnz as i64, base: base.offset(), offsets, indices, perm };
    workspace::report(h.settings.print_plan, format.name(), "call", &format_args!("{s:?}, {bytes} bytes of workspace"));
    crate::kernels::graph::batched(h, || k::sort_segments(h, &s, ws))
}

/// `oxsparseXcoosort_bufferSizeExt`: about 24 bytes per entry (src/kernels/sort.rs). The arrays
/// are not read.
pub fn coo_buffer_size(m: i32, n: i32, nnz: i32, rows: u64, cols: u64) -> Result<usize> {
    check_sizes(m, n, nnz)?;
    if empty(m, n, nnz) {
        return Ok(0);
    }
    check_pointers(&[(rows, "cooRowsA"), (cols, "cooColsA")])?;
    Ok(k::coo_workspace_bytes(nnz as i64))
}

/// `oxsparseXcoosortByRow` / `oxsparseXcoosortByColumn`: sorts the entries stably by (row,
/// column) or (column, row), permuting both index arrays and `perm` alike.
#[allow(clippy::too_many_arguments)]
pub fn coo_sort(h: &Handle, order: CooOrder, m: i32, n: i32, nnz: i32, rows: u64, cols: u64, perm: u64, buffer: u64) -> Result<()> {
    check_sizes(m, n, nnz)?;
    if empty(m, n, nnz) {
        return Ok(());
    }
    check_pointers(&[(rows, "cooRowsA"), (cols, "cooColsA"), (perm, "P")])?;
    let routine = match order {
        CooOrder::ByRow => "XcoosortByRow",
        CooOrder::ByColumn => "XcoosortByColumn",
    };
    let bytes = k::coo_workspace_bytes(nnz as i64);
    let ws = workspace::start(buffer, bytes, routine)?;
    let c = match order {
        CooOrder::ByRow => k::Coo { major_dim: m as i64, minor_dim: n as i64, nnz: nnz as i64, major: rows, minor: cols, perm },
        CooOrder::ByColumn => k::Coo { major_dim: n as i64, minor_dim: m as i64, nnz: nnz as i64, major: cols, minor: rows, perm },
    };
    workspace::report(h.settings.print_plan, routine, "call", &format_args!("{c:?}, {bytes} bytes of workspace"));
    crate::kernels::graph::batched(h, || k::sort_coo(h, &c, ws))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn is_invalid<T: std::fmt::Debug>(r: Result<T>) -> bool {
        matches!(r, Err(Error::InvalidValue(_)))
    }

    #[test]
    fn sizes_are_checked_before_pointers() {
        assert!(is_invalid(compressed_buffer_size(Compressed::Csr, -1, 4, 4, 0, 0)));
        assert!(is_invalid(compressed_buffer_size(Compressed::Csr, 4, -1, 4, 0x100, 0x200)));
        assert!(is_invalid(coo_buffer_size(4, 4, -1, 0x100, 0x200)));
        assert!(is_invalid(compressed_buffer_size(Compressed::Csc, 4, 4, 4, 0x100, 0)));
        assert!(is_invalid(coo_buffer_size(4, 4, 4, 0, 0x200)));
    }

    #[test]
    fn empty_problems_need_nothing_and_read_nothing() {
        for (m, n, nnz) in [(0, 5, 3), (5, 0, 3), (5, 5, 0), (0, 0, 0)] {
            assert_eq!(compressed_buffer_size(Compressed::Csr, m, n, nnz, 0, 0), Ok(0));
            assert_eq!(coo_buffer_size(m, n, nnz, 0, 0), Ok(0));
        }
    }

    #[test]
    fn buffer_sizes_follow_the_plan() {
        assert_eq!(compressed_buffer_size(Compressed::Csr, 10, 10, 1, 0x100, 0x200), Ok(0), "one entry: nothing to sort");
        assert!(compressed_buffer_size(Compressed::Csr, 10, 10, 4096, 0x100, 0x200).unwrap() < 2048, "the tiers' lists only");
        let csr = compressed_buffer_size(Compressed::Csr, 10, 7, 5000, 0x100, 0x200).unwrap();
        let csc = compressed_buffer_size(Compressed::Csc, 7, 10, 5000, 0x100, 0x200).unwrap();
        assert_eq!(csr, csc, "CSR of m x n and CSC of n x m have the same segments");
        assert_eq!(csr, k::segments_workspace_bytes(10, 5000));
        assert_eq!(coo_buffer_size(3, 3, 9, 0x100, 0x200), Ok(k::coo_workspace_bytes(9)));
    }
}
