//! The index helpers on the GPU equal the CPU reference (src/reference/coo_csr.rs), through the C
//! ABI: `oxsparseXcoo2csr`, `oxsparseXcsr2coo` and `oxsparseCreateIdentityPermutation`.
//!
//! Row patterns: empty, 1 x 1, odd sizes, uniform, runs of empty rows (millions of rows for a few
//! entries; runs of 1 to 600 rows between short ones; runs up to 9,000 rows between dense ones),
//! hub rows of 10,000 to 300,000 entries among short ones, all entries in the last row; both index
//! bases; arrays on 16 bytes and shifted off them; each conversion under each of its kernels.
//! Outputs are poisoned (0xFF, i.e. -1) with poison before and past their ends that must come back
//! untouched; every status and the synchronisation after each call are checked.

mod common;

use common::capi::{expect, CHandle};
use common::{gpu, sync, DevBuf, Rng};
use oxsparse::ffi::coo_csr::*;
use oxsparse::reference::coo_csr as reference;
use std::os::raw::c_int;

/// Ints of poison past every output, which no call may write.
const SLACK: usize = 64;

/// Sorted row indices (zero-based) of one pattern: (name, m, rows).
fn patterns(rng: &mut Rng) -> Vec<(String, usize, Vec<i32>)> {
    let mut out = Vec::new();
    let mut add = |name: &str, m: usize, mut rows: Vec<i32>| {
        rows.sort_unstable();
        out.push((format!("{name} (m {m}, nnz {})", rows.len()), m, rows));
    };
    add("1 x 1, one entry", 1, vec![0]);
    add("one row, no entry", 1, vec![]);
    add("7 rows, no entry", 7, vec![]);
    add("odd: 33 rows", 33, (0..101).map(|_| rng.below(33) as i32).collect());
    add("odd: 1000 rows", 1000, (0..2999).map(|_| rng.below(1000) as i32).collect());
    add("every row one entry", 4097, (0..4097).collect());
    add("all in the last row", 5000, vec![4999; 3001]);
    add("all in the first row", 5000, vec![0; 3001]);
    add("uniform", 100_003, (0..1_000_003).map(|_| rng.below(100_003) as i32).collect());
    // A few entries among millions of rows: long runs of empty rows.
    add("sparse rows", 3_000_001, (0..10).map(|_| rng.below(3_000_001) as i32).collect());
    // Hubs among short rows.
    let mut hubs: Vec<i32> = (0..50_000).map(|_| rng.below(20_000) as i32).collect();
    hubs.extend(std::iter::repeat_n(7, 10_000));
    hubs.extend(std::iter::repeat_n(12_345, 300_000));
    hubs.extend(std::iter::repeat_n(19_999, 20_001));
    add("hub rows", 20_000, hubs);
    // Rows of random lengths 0 to 64, every length crossing block boundaries somewhere.
    let mut mixed = Vec::new();
    for r in 0..30_011i32 {
        let len = if r % 97 == 0 { 4096 + rng.below(3000) } else { rng.below(65) };
        mixed.extend(std::iter::repeat_n(r, len as usize));
    }
    add("mixed lengths", 30_011, mixed);
    // Short rows between runs of empty rows of every length from 1 to past two chunks of coo2csr's
    // offsets (runs inside a chunk, runs crossing chunk edges, runs holding whole chunks).
    let (mut gaps, mut r) = (Vec::new(), 0i32);
    while gaps.len() < 40_000 {
        gaps.extend(std::iter::repeat_n(r, 1 + rng.below(4) as usize));
        r += 1 + if rng.below(3) == 0 { rng.below(600) } else { rng.below(6) } as i32;
    }
    add("runs of empty rows", r as usize, gaps);
    // Runs up to several of the tile form's 2048-offset chunks and tiles, between dense rows.
    let (mut long, mut r) = (Vec::new(), 0i32);
    while long.len() < 60_000 {
        long.extend(std::iter::repeat_n(r, 1 + rng.below(40) as usize));
        r += 1 + if rng.below(8) == 0 { rng.below(9000) } else { rng.below(3) } as i32;
    }
    add("long runs of empty rows", r as usize, long);
    out
}

/// A poisoned output of `len` ints starting `skew` ints into its buffer (16-byte alignment
/// shifted), and its slack.
fn output(len: usize, skew: usize) -> DevBuf {
    DevBuf::poisoned((skew + len + SLACK) * 4, 0xFF)
}

/// The output's `len` ints, after checking the poison before and after them is untouched.
fn read(buf: &DevBuf, len: usize, skew: usize, what: &str) -> Result<Vec<i32>, String> {
    let all: Vec<i32> = buf.to_vec();
    if all[..skew].iter().any(|&v| v != -1) {
        return Err(format!("{what}: wrote before the start of its {len} ints"));
    }
    if all[skew + len..].iter().any(|&v| v != -1) {
        return Err(format!("{what}: wrote past the end of its {len} ints"));
    }
    Ok(all[skew..skew + len].to_vec())
}

/// `values` on the device, `skew` ints into a poisoned buffer.
fn input(values: &[i32], skew: usize) -> DevBuf {
    let mut all = vec![-1; skew];
    all.extend_from_slice(values);
    DevBuf::from_slice(&all)
}

fn first_difference(got: &[i32], want: &[i32]) -> Option<String> {
    let at = got.iter().zip(want).position(|(g, w)| g != w)?;
    Some(format!(
        "first difference at {at}: got {}, want {} ({} of {} differ)",
        got[at],
        want[at],
        got.iter().zip(want).filter(|(g, w)| g != w).count(),
        want.len()
    ))
}

/// Each conversion's kernels, forced on a handle of their own, and the library's choice:
/// (coo2csr's, csr2coo's).
const FORMS: [(Option<&str>, Option<&str>); 3] = [(None, None), (Some("tile"), Some("probe")), (Some("thread"), Some("stream"))];

fn check_pattern(handles: &[CHandle], name: &str, m: usize, rows: &[i32], base: i32, skew: usize) -> Result<(), String> {
    let based: Vec<i32> = rows.iter().map(|r| r + base).collect();
    let want_offsets = reference::coo2csr(&based, m, base);
    let rows_in = input(&based, skew);
    let at = |buf: &DevBuf| buf.ptr + 4 * skew as u64;
    for (h, (form, _)) in handles.iter().zip(FORMS) {
        let offsets = output(m + 1, skew);
        let s = unsafe {
            oxsparseXcoo2csr(h.0, at(&rows_in) as *const c_int, rows.len() as c_int, m as c_int, at(&offsets) as *mut c_int, base)
        };
        expect(s, "oxsparseXcoo2csr")?;
        sync();
        let got = read(&offsets, m + 1, skew, "coo2csr")?;
        if let Some(d) = first_difference(&got, &want_offsets) {
            return Err(format!("{name}, base {base}, skew {skew}, kernel {}: coo2csr: {d}", form.unwrap_or("chosen")));
        }
    }

    // csr2coo from the reference's offsets (independent of coo2csr's result), then back.
    let want = reference::csr2coo(&want_offsets, base);
    assert_eq!(want, based, "the reference round-trips");
    let offsets_in = input(&want_offsets, skew);
    for (h, (_, form)) in handles.iter().zip(FORMS) {
        let rows_out = output(rows.len(), skew);
        let s = unsafe {
            oxsparseXcsr2coo(h.0, at(&offsets_in) as *const c_int, rows.len() as c_int, m as c_int, at(&rows_out) as *mut c_int, base)
        };
        expect(s, "oxsparseXcsr2coo")?;
        sync();
        let got = read(&rows_out, rows.len(), skew, "csr2coo")?;
        if let Some(d) = first_difference(&got, &want) {
            return Err(format!("{name}, base {base}, skew {skew}, kernel {}: csr2coo: {d}", form.unwrap_or("chosen")));
        }
    }
    Ok(())
}

/// Every pattern in both bases, the arrays 16-byte aligned or shifted by 1 or 3 ints, each
/// conversion under each of its kernels.
#[test]
fn coo2csr_and_csr2coo_equal_the_reference() {
    let Some(_gpu) = gpu("coo2csr / csr2coo") else { return };
    let handles: Vec<CHandle> = FORMS
        .iter()
        .map(|(coo2csr, csr2coo)| {
            let h = CHandle::unforced();
            h.set_tuning("OXSPARSE_COO2CSR_KERNEL", *coo2csr);
            h.set_tuning("OXSPARSE_CSR2COO_KERNEL", *csr2coo);
            h
        })
        .collect();
    let mut rng = Rng::new(0x57_c00c);
    let mut failures = Vec::new();
    let cases = patterns(&mut rng);
    let mut checked = 0;
    for (name, m, rows) in &cases {
        for (base, skew) in [(0, 0), (1, 0), (0, 1), (1, 3)] {
            checked += 1;
            if let Err(e) = check_pattern(&handles, name, *m, rows, base, skew) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{} of {checked} cases failed:\n{}", failures.len(), failures.join("\n"));
    println!("coo2csr / csr2coo: {} patterns x 4 (base, alignment), each under 3 kernel choices, equal the reference", cases.len());
}

/// The same conversion twice gives the same bits (no atomics, no races), under each of coo2csr's
/// kernels.
#[test]
fn conversions_are_deterministic() {
    let Some(_gpu) = gpu("coo2csr / csr2coo determinism") else { return };
    let mut rng = Rng::new(7);
    let (_, m, rows) = patterns(&mut rng).pop().unwrap();
    let rows_in = DevBuf::from_slice(&rows);
    for form in ["tile", "thread"] {
        let h = CHandle::unforced();
        h.set_tuning("OXSPARSE_COO2CSR_KERNEL", Some(form));
        let runs: Vec<Vec<i32>> = (0..3)
            .map(|_| {
                let out = output(m + 1, 0);
                let s = unsafe {
                    oxsparseXcoo2csr(h.0, rows_in.ptr as *const c_int, rows.len() as c_int, m as c_int, out.ptr as *mut c_int, 0)
                };
                expect(s, "oxsparseXcoo2csr").unwrap();
                sync();
                out.to_vec()
            })
            .collect();
        assert!(runs.windows(2).all(|w| w[0] == w[1]), "{form}");
    }
}

/// Empty problems write nothing: m = 0 for both, nnz = 0 for csr2coo (NULL arrays accepted); and
/// coo2csr with no entries writes m + 1 offsets equal to the base.
#[test]
fn empty_problems() {
    let Some(_gpu) = gpu("coo2csr / csr2coo empty") else { return };
    let h = CHandle::new();
    let out = output(4, 0);
    let null = std::ptr::null_mut();
    unsafe {
        expect(oxsparseXcoo2csr(h.0, null, 0, 0, null, 0), "coo2csr m = 0, NULL arrays").unwrap();
        expect(oxsparseXcoo2csr(h.0, null, 0, 0, out.ptr as *mut c_int, 1), "coo2csr m = 0").unwrap();
        expect(oxsparseXcsr2coo(h.0, null, 0, 0, null, 0), "csr2coo m = 0").unwrap();
        expect(oxsparseXcsr2coo(h.0, out.ptr as *const c_int, 0, 3, null, 0), "csr2coo nnz = 0").unwrap();
        expect(oxsparseCreateIdentityPermutation(h.0, 0, null), "identity n = 0").unwrap();
    }
    sync();
    assert!(out.to_vec::<i32>().iter().all(|&v| v == -1), "empty calls wrote");
    for base in [0, 1] {
        unsafe { expect(oxsparseXcoo2csr(h.0, null, 0, 3, out.ptr as *mut c_int, base), "coo2csr nnz = 0").unwrap() };
        sync();
        assert_eq!(read(&out, 4, 0, "coo2csr nnz = 0").unwrap(), [base; 4]);
        out.poison(0xFF);
    }
}

#[test]
fn identity_permutation_equals_the_reference() {
    let Some(_gpu) = gpu("identity permutation") else { return };
    let h = CHandle::new();
    // Sizes around the four-value stores, and starts at each of the four ints of 16 bytes.
    let sizes = [1usize, 2, 3, 4, 5, 7, 8, 9, 1023, 4096, 65_537, (1 << 22) + 3];
    for n in sizes {
        for skew in 0..4usize {
            let buf = DevBuf::poisoned((skew + n + SLACK) * 4, 0xFF);
            let p = buf.ptr + 4 * skew as u64;
            let s = unsafe { oxsparseCreateIdentityPermutation(h.0, n as c_int, p as *mut c_int) };
            expect(s, "oxsparseCreateIdentityPermutation").unwrap();
            sync();
            let all: Vec<i32> = buf.to_vec();
            assert!(all[..skew].iter().all(|&v| v == -1), "n {n}, skew {skew}: wrote before p");
            assert!(all[skew + n..].iter().all(|&v| v == -1), "n {n}, skew {skew}: wrote past p[n - 1]");
            let got = &all[skew..skew + n];
            if let Some(d) = first_difference(got, &reference::identity(n)) {
                panic!("n {n}, skew {skew}: {d}");
            }
        }
    }
}
