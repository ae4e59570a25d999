//! coosortByRow and coosortByColumn against the CPU reference.

use crate::cases::{coo, first_difference, Coo, Order};
use crate::common::capi::{buffer_size, expect, workspace, ws_ptr, CHandle};
use crate::common::{gpu, DevBuf, Rng};
use oxsparse::ffi::sort::*;

/// Sorts `c` by row or by column twice from the same input; both runs must equal the reference.
fn check(h: &CHandle, by_row: bool, c: &Coo) -> Result<(), String> {
    let (m, n, nnz) = (c.m as i32, c.n as i32, c.rows.len() as i32);
    let what = if by_row { "oxsparseXcoosortByRow" } else { "oxsparseXcoosortByColumn" };
    let (want_rows, want_cols, want_perm) = c.sorted(by_row);
    let probe = (DevBuf::from_slice(&c.rows), DevBuf::from_slice(&c.cols));
    let size = buffer_size("oxsparseXcoosort_bufferSizeExt", |out| unsafe {
        oxsparseXcoosort_bufferSizeExt(h.0, m, n, nnz, probe.0.ptr as *const i32, probe.1.ptr as *const i32, out)
    })?;
    let ws = workspace(size);
    for run in 0..2 {
        let rows = DevBuf::from_slice(&c.rows);
        let cols = DevBuf::from_slice(&c.cols);
        let perm = DevBuf::from_slice(&c.perm);
        if let Some(w) = &ws {
            w.poison(0xFF);
        }
        let status = unsafe {
            let (r, cc, p) = (rows.ptr as *mut i32, cols.ptr as *mut i32, perm.ptr as *mut i32);
            if by_row {
                oxsparseXcoosortByRow(h.0, m, n, nnz, r, cc, p, ws_ptr(&ws))
            } else {
                oxsparseXcoosortByColumn(h.0, m, n, nnz, r, cc, p, ws_ptr(&ws))
            }
        };
        expect(status, what)?;
        let k = c.rows.len();
        let tag = |a: &str| format!("{what} run {run}: {a} [{} x {}, {k} entries]", c.m, c.n);
        first_difference(&tag("rows"), &rows.to_vec::<i32>()[..k], &want_rows)?;
        first_difference(&tag("cols"), &cols.to_vec::<i32>()[..k], &want_cols)?;
        first_difference(&tag("P"), &perm.to_vec::<i32>()[..k], &want_perm)?;
    }
    Ok(())
}

fn run(test: &str, cases: Vec<Coo>) {
    if gpu(test).is_none() {
        return;
    }
    let h = CHandle::new();
    let mut failures = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        for by_row in [true, false] {
            if let Err(e) = check(&h, by_row, c) {
                failures.push(format!("case {k}: {e}"));
            }
        }
    }
    println!("{test}: {} cases x by row and by column", cases.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn coo_small_and_odd_shapes() {
    let mut rng = Rng::new(0x5047_0101);
    let mut cases = vec![
        coo(&mut rng, 0, 5, 0, None, 0, Order::Shuffled, true),
        coo(&mut rng, 5, 0, 0, None, 0, Order::Shuffled, true),
        coo(&mut rng, 5, 5, 0, None, 0, Order::Shuffled, true),
        coo(&mut rng, 1, 1, 1, None, 0, Order::Shuffled, true),
        coo(&mut rng, 1, 1, 5, None, 0, Order::Shuffled, false),
        coo(&mut rng, 1, 1, 3, None, 1, Order::Shuffled, true),
    ];
    for (m, n, nnz) in [(7, 33, 100), (33, 7, 100), (3, 3, 1000), (257, 255, 5000)] {
        for (base, order, identity) in [(0, Order::Shuffled, true), (1, Order::Reversed, false), (0, Order::Sorted, false)] {
            cases.push(coo(&mut rng, m, n, nnz, None, base, order, identity));
        }
    }
    run("coo_small_and_odd_shapes", cases);
}

/// Larger inputs: 100k entries (many duplicates), all in one row or a few rows, and 2M entries
/// over 2^20 x 2^20 (three passes per coordinate).
#[test]
fn coo_large() {
    let mut rng = Rng::new(0x5047_0102);
    let cases = vec![
        coo(&mut rng, 1000, 1000, 100_000, None, 0, Order::Shuffled, true),
        coo(&mut rng, 1000, 1000, 100_000, Some(3), 1, Order::Shuffled, false),
        coo(&mut rng, 1, 100_000, 50_000, None, 0, Order::Reversed, true),
        coo(&mut rng, 100_000, 1, 50_000, None, 0, Order::Sorted, true),
        coo(&mut rng, 1 << 20, 1 << 20, 2_000_000, None, 0, Order::Shuffled, true),
        coo(&mut rng, 70_000, (1 << 24) + 3, 300_000, None, 1, Order::Shuffled, false),
    ];
    run("coo_large", cases);
}

/// m, n or nnz of 0 is a quick return that reads no array and needs no buffer.
#[test]
fn coo_quick_returns() {
    if gpu("coo_quick_returns").is_none() {
        return;
    }
    let h = CHandle::new();
    let null = std::ptr::null_mut();
    for (m, n, nnz) in [(0, 4, 3), (4, 0, 3), (4, 4, 0)] {
        let mut size = usize::MAX;
        assert_eq!(unsafe { oxsparseXcoosort_bufferSizeExt(h.0, m, n, nnz, null, null, &mut size) }, 0);
        assert_eq!(size, 0);
        assert_eq!(unsafe { oxsparseXcoosortByRow(h.0, m, n, nnz, null, null, null, std::ptr::null_mut()) }, 0);
        assert_eq!(unsafe { oxsparseXcoosortByColumn(h.0, m, n, nnz, null, null, null, std::ptr::null_mut()) }, 0);
    }
}
