//! csrsort and cscsort against the CPU reference.

use crate::cases::{first_difference, segments, Order, Segments};
use crate::common::capi::{buffer_size, expect, workspace, ws_ptr, CHandle};
use crate::common::{gpu, DevBuf, Rng};
use oxsparse::ffi::mat_descr::*;
use oxsparse::ffi::sort::*;
use oxsparse::types::IndexBase;
use std::ptr::null_mut;

/// Sorts `s` as CSR (segments are rows) or CSC (columns) twice from the same input; both runs
/// must equal the reference.
fn check(h: &CHandle, csc: bool, s: &Segments) -> Result<(), String> {
    let (m, n) = if csc { (s.minor_dim, s.lines) } else { (s.lines, s.minor_dim) };
    let (m, n, nnz) = (m as i32, n as i32, s.nnz() as i32);
    let (want_idx, want_perm) = s.sorted();
    let what = if csc { "oxsparseXcscsort" } else { "oxsparseXcsrsort" };
    let offsets = DevBuf::from_slice(&s.offsets);
    let probe = DevBuf::from_slice(&s.indices);
    let size = buffer_size(what, |out| unsafe {
        let (o, i) = (offsets.ptr as *const i32, probe.ptr as *const i32);
        if csc {
            oxsparseXcscsort_bufferSizeExt(h.0, m, n, nnz, o, i, out)
        } else {
            oxsparseXcsrsort_bufferSizeExt(h.0, m, n, nnz, o, i, out)
        }
    })?;
    let ws = workspace(size);
    let mut descr = null_mut();
    expect(unsafe { oxsparseCreateMatDescr(&mut descr) }, "oxsparseCreateMatDescr")?;
    let base = if s.base == 1 { IndexBase::OXSPARSE_INDEX_BASE_ONE } else { IndexBase::OXSPARSE_INDEX_BASE_ZERO };
    let result = (|| -> Result<(), String> {
        expect(unsafe { oxsparseSetMatIndexBase(descr, base as i32) }, "oxsparseSetMatIndexBase")?;
        for run in 0..2 {
            let idx = DevBuf::from_slice(&s.indices);
            let perm = DevBuf::from_slice(&s.perm);
            if let Some(w) = &ws {
                w.poison(0xFF);
            }
            let status = unsafe {
                let (o, i, p) = (offsets.ptr as *const i32, idx.ptr as *mut i32, perm.ptr as *mut i32);
                if csc {
                    oxsparseXcscsort(h.0, m, n, nnz, descr, o, i, p, ws_ptr(&ws))
                } else {
                    oxsparseXcsrsort(h.0, m, n, nnz, descr, o, i, p, ws_ptr(&ws))
                }
            };
            expect(status, what)?;
            let tag = |a: &str| format!("{what} run {run}: {a}");
            first_difference(&tag("indices"), &idx.to_vec::<i32>()[..s.nnz()], &want_idx)?;
            first_difference(&tag("P"), &perm.to_vec::<i32>()[..s.nnz()], &want_perm)?;
            first_difference(&tag("offsets (must not change)"), &offsets.to_vec::<i32>(), &s.offsets)?;
        }
        Ok(())
    })();
    expect(unsafe { oxsparseDestroyMatDescr(descr) }, "oxsparseDestroyMatDescr")?;
    result.map_err(|e| format!("{e} [{} segments over {} minor indices, {} entries, base {}]", s.lines, s.minor_dim, s.nnz(), s.base))
}

/// Runs every case on both formats; fails listing every failing case.
fn run(test: &str, cases: Vec<Segments>) {
    if gpu(test).is_none() {
        return;
    }
    let h = CHandle::new();
    let mut failures = Vec::new();
    for (k, s) in cases.iter().enumerate() {
        for csc in [false, true] {
            if let Err(e) = check(&h, csc, s) {
                failures.push(format!("case {k} ({}): {e}", if csc { "CSC" } else { "CSR" }));
            }
        }
    }
    println!("{test}: {} cases x CSR and CSC", cases.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn lengths(rng: &mut Rng, count: usize, max: usize) -> Vec<usize> {
    (0..count).map(|_| rng.below(max as u64 + 1) as usize).collect()
}

#[test]
fn empty_tiny_and_odd_shapes() {
    let mut rng = Rng::new(0x5047_0001);
    let mut cases = vec![
        segments(&mut rng, 5, &[], 0, Order::Shuffled, false, true),
        segments(&mut rng, 0, &[0, 0, 0], 0, Order::Shuffled, false, true),
        segments(&mut rng, 1, &[0], 0, Order::Shuffled, false, true),
        segments(&mut rng, 1, &[1], 0, Order::Shuffled, false, true),
        segments(&mut rng, 1, &[1], 1, Order::Shuffled, false, false),
        segments(&mut rng, 2, &[2], 0, Order::Reversed, false, true),
    ];
    for base in [0, 1] {
        let l = lengths(&mut rng, 7, 33);
        cases.push(segments(&mut rng, 33, &l, base, Order::Shuffled, false, true));
        let l = lengths(&mut rng, 33, 7);
        cases.push(segments(&mut rng, 7, &l, base, Order::Shuffled, false, base == 1));
    }
    run("empty_tiny_and_odd_shapes", cases);
}

#[test]
fn rows_of_up_to_100_entries() {
    let mut rng = Rng::new(0x5047_0002);
    let mut cases = Vec::new();
    for order in [Order::Shuffled, Order::Sorted, Order::Reversed] {
        for (base, dups, identity) in [(0, false, true), (1, false, false), (0, true, true), (1, true, false)] {
            let l = lengths(&mut rng, 1000, 100);
            cases.push(segments(&mut rng, 5000, &l, base, order, dups, identity));
        }
    }
    run("rows_of_up_to_100_entries", cases);
}

/// Every tier's longest segment and one past it (thread: 4, 8, 16; warp: 32, 64, 128; blocks: 512,
/// 4096), in random
/// order, plus empty and single rows.
#[test]
fn tier_edges() {
    let mut rng = Rng::new(0x5047_0003);
    let edges =
        [0, 1, 2, 3, 4, 5, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 511, 512, 513, 1000, 4095, 4096, 4097, 10_000];
    let mut cases = Vec::new();
    for (base, dups, order) in
        [(0, false, Order::Shuffled), (1, true, Order::Shuffled), (0, false, Order::Reversed), (1, false, Order::Sorted)]
    {
        let mut l: Vec<usize> = edges.iter().chain(edges.iter()).copied().collect();
        for i in (1..l.len()).rev() {
            l.swap(i, rng.below(i as u64 + 1) as usize);
        }
        cases.push(segments(&mut rng, 20_000, &l, base, order, dups, base == 0));
    }
    run("tier_edges", cases);
}

/// Short rows around hubs of 10,000 to 200,000 entries; the minor dimension needs 19 to 25 bits.
#[test]
fn hub_rows() {
    let mut rng = Rng::new(0x5047_0004);
    let mut cases = Vec::new();
    for (minor, base, dups) in [(300_000, 0, false), (1 << 24, 1, false), (300_000, 0, true)] {
        let mut l = lengths(&mut rng, 2000, 20);
        for hub in [10_000, 50_000, 200_000] {
            let at = rng.below(l.len() as u64) as usize;
            l[at] = hub;
        }
        cases.push(segments(&mut rng, minor, &l, base, Order::Shuffled, dups, base == 0));
    }
    run("hub_rows", cases);
}

#[test]
fn a_row_of_a_million_entries() {
    let mut rng = Rng::new(0x5047_0005);
    let mut l = lengths(&mut rng, 100, 50);
    l[37] = 1_000_000;
    let cases = vec![
        segments(&mut rng, 2_000_000, &l, 0, Order::Shuffled, false, true),
        segments(&mut rng, 2_000_000, &l, 1, Order::Reversed, true, false),
    ];
    run("a_row_of_a_million_entries", cases);
}

/// 300 rows of 5000 entries: more long segments than one rank pass covers (1.5M entries leave
/// room for 366, 9 bits).
#[test]
fn hundreds_of_long_rows() {
    let mut rng = Rng::new(0x5047_0006);
    let mut l = vec![5000; 300];
    l.extend(lengths(&mut rng, 300, 40));
    for i in (1..l.len()).rev() {
        l.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let cases = vec![
        segments(&mut rng, 10_000, &l, 0, Order::Shuffled, false, true),
        segments(&mut rng, 10_000, &l, 1, Order::Shuffled, true, false),
    ];
    run("hundreds_of_long_rows", cases);
}

/// bufferSizeExt: only the tiers' lists while no segment can outgrow the block tiers, the radix
/// arrays beyond; 0 (and a NULL buffer taken) for a single entry; m, n or nnz of 0 is a quick
/// return that reads no array.
#[test]
fn buffer_sizes_and_quick_returns() {
    if gpu("buffer_sizes_and_quick_returns").is_none() {
        return;
    }
    let h = CHandle::new();
    let one = DevBuf::from_slice(&[0i32; 2]);
    let mut size = usize::MAX;
    let p = one.ptr as *const i32;
    assert_eq!(unsafe { oxsparseXcsrsort_bufferSizeExt(h.0, 10, 10, 4096, p, p, &mut size) }, 0);
    assert!(size > 0 && size < 4096, "{size}");
    assert_eq!(unsafe { oxsparseXcsrsort_bufferSizeExt(h.0, 1, 1, 1, p, p, &mut size) }, 0);
    assert_eq!(size, 0);
    let mut descr = null_mut();
    assert_eq!(unsafe { oxsparseCreateMatDescr(&mut descr) }, 0);
    let (one_row, one_entry) = (DevBuf::from_slice(&[0i32, 1]), DevBuf::from_slice(&[0i32]));
    let (o, i) = (one_row.ptr as *const i32, one_entry.ptr as *mut i32);
    assert_eq!(unsafe { oxsparseXcsrsort(h.0, 1, 1, 1, descr, o, i, i, null_mut()) }, 0, "1 x 1: no workspace");
    assert_eq!(unsafe { oxsparseDestroyMatDescr(descr) }, 0);
    assert_eq!(unsafe { oxsparseXcscsort_bufferSizeExt(h.0, 10, 10, 4097, p, p, &mut size) }, 0);
    assert!(size >= 6 * 4 * 4097, "{size}");
    for (m, n, nnz) in [(0, 4, 3), (4, 0, 3), (4, 4, 0)] {
        let mut descr = null_mut();
        assert_eq!(unsafe { oxsparseCreateMatDescr(&mut descr) }, 0);
        assert_eq!(unsafe { oxsparseXcsrsort_bufferSizeExt(h.0, m, n, nnz, std::ptr::null(), std::ptr::null(), &mut size) }, 0);
        assert_eq!(size, 0);
        let status = unsafe { oxsparseXcsrsort(h.0, m, n, nnz, descr, std::ptr::null(), null_mut(), null_mut(), null_mut()) };
        assert_eq!(status, 0, "m {m} n {n} nnz {nnz}");
        assert_eq!(unsafe { oxsparseDestroyMatDescr(descr) }, 0);
    }
}
