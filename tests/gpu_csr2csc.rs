//! Csr2cscEx2 on the GPU through the C ABI equals a CPU stable transpose, byte for byte, for every
//! value type x index base x action x shape (empty, 1 x 1, no entries, odd sizes, a hub row, hub
//! columns of 10,000+ entries and of a million that take the long-column stages, many long
//! columns, the last column long, columns of every length class, duplicate entries, over 65,536
//! columns), under the library's choice of method and each method forced, and gives the same
//! bytes twice. Outputs are poisoned (0xFF) before every run; SYMBOLIC must leave
//! cscVal poisoned and slots past the entries are never written.

mod common;

use common::bytes::encode;
use common::capi::{buffer_size, expect, workspace, ws_ptr, CHandle};
use common::values::{random, shuffle};
use common::{gpu, sync, DevBuf, Rng};
use oxsparse::ffi::csr2csc::{oxsparseCsr2cscEx2, oxsparseCsr2cscEx2_bufferSize};
use oxsparse::types::{Action, DataType, DataType::*, Status};
use std::collections::HashSet;
use std::ffi::c_void;

const TYPES: [DataType; 9] = [CUDA_R_8I, CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F, CUDA_R_64F, CUDA_C_16F, CUDA_C_16BF, CUDA_C_32F, CUDA_C_64F];
const ACTIONS: [Action; 2] = [Action::OXSPARSE_ACTION_SYMBOLIC, Action::OXSPARSE_ACTION_NUMERIC];

/// A CSR matrix on the host (0-based), values as stored bytes.
struct Csr {
    m: usize,
    n: usize,
    row_ptr: Vec<i64>,
    col: Vec<i64>,
    vals: Vec<u8>,
    width: usize,
}

/// The expected CSC: (colPtr, rowInd, values), all with `base` applied to indices.
fn reference(a: &Csr, base: i64) -> (Vec<i32>, Vec<i32>, Vec<u8>) {
    let mut columns: Vec<Vec<(usize, usize)>> = vec![vec![]; a.n];
    for r in 0..a.m {
        for k in a.row_ptr[r] as usize..a.row_ptr[r + 1] as usize {
            columns[a.col[k] as usize].push((r, k));
        }
    }
    let mut ptr = vec![base as i32];
    let (mut rows, mut vals) = (vec![], vec![]);
    for c in &columns {
        for &(r, k) in c {
            rows.push(r as i32 + base as i32);
            vals.extend_from_slice(&a.vals[k * a.width..(k + 1) * a.width]);
        }
        ptr.push(base as i32 + rows.len() as i32);
    }
    (ptr, rows, vals)
}

/// How a test matrix is filled.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fill {
    Empty,
    /// About a third of the positions.
    Third,
    /// `count` random entries, plus a full row `m / 2` and full columns 0 and `n / 3`.
    Hubs(usize),
    /// Column c holds about `c * step` entries: every length class of the sort in one matrix.
    Ramp(usize),
    /// `count` random positions drawn with repeats kept: duplicate entries, which must keep their
    /// CSR order (cuSPARSE's transpose is stable).
    Repeats(usize),
}

/// The library's choice, then each method forced (`OXSPARSE_CSR2CSC_METHOD`; radix only where its
/// arrays allow, the atomic path elsewhere).
const METHODS: [Option<&str>; 3] = [None, Some("radix"), Some("atomic")];

const SHAPES: [(usize, usize, Fill); 20] = [
    (0, 0, Fill::Third),
    (0, 5, Fill::Third),
    (5, 0, Fill::Third),
    (1, 1, Fill::Third),
    (4, 6, Fill::Empty),
    (7, 33, Fill::Third),
    (33, 7, Fill::Third),
    (1000, 1200, Fill::Hubs(3000)),
    (12_003, 301, Fill::Hubs(20_000)),
    (301, 12_003, Fill::Hubs(20_000)),
    (9000, 40, Fill::Ramp(220)),
    // Columns of 0 to about 285 entries, near every length: around each warp tier bound (32, 64, 128,
    // 256), the last also where the long stages begin at this nnz.
    (3000, 300, Fill::Ramp(1)),
    (50, 20, Fill::Repeats(3000)),
    // 64 columns of about 6,700 entries, the last one too: all long, each in all 256 chunks.
    (20_000, 64, Fill::Third),
    // Long columns among short ones, with duplicates: the stable order of repeats in long columns.
    (12_000, 3, Fill::Repeats(30_000)),
    // Short columns on average, so a sort block takes 256, 128 and 64 columns at a time: most sorted
    // by their own thread (up to 12 slots), the rest by warps, two long hubs among the first.
    (40_000, 30_000, Fill::Hubs(100_000)),
    (60, 2000, Fill::Third),
    (300, 600, Fill::Third),
    // 15 long columns with repeats: every chunk of the long stages holds entries of each.
    (5000, 15, Fill::Repeats(65_000)),
    // Over 65,536 columns: three radix passes, runs of empty columns between the random entries.
    (2000, 70_000, Fill::Hubs(50_000)),
];

fn positions(rng: &mut Rng, m: usize, n: usize, fill: Fill) -> Vec<(usize, usize)> {
    if m == 0 || n == 0 {
        return vec![];
    }
    let mut seen = HashSet::new();
    let mut add = |p: (usize, usize), out: &mut Vec<(usize, usize)>| {
        if seen.insert(p) {
            out.push(p);
        }
    };
    let mut out = vec![];
    match fill {
        Fill::Empty => {}
        Fill::Third => {
            for _ in 0..(m * n / 3).max(1) {
                add((rng.below(m as u64) as usize, rng.below(n as u64) as usize), &mut out);
            }
        }
        Fill::Hubs(count) => {
            (0..n).for_each(|c| add((m / 2, c), &mut out));
            for c in [0, n / 3] {
                (0..m).for_each(|r| add((r, c), &mut out));
            }
            for _ in 0..count {
                add((rng.below(m as u64) as usize, rng.below(n as u64) as usize), &mut out);
            }
        }
        Fill::Repeats(count) => {
            for _ in 0..count {
                out.push((rng.below(m as u64) as usize, rng.below(n as u64) as usize));
            }
        }
        Fill::Ramp(step) => {
            for c in 0..n {
                for _ in 0..c * step {
                    add((rng.below(m as u64) as usize, c), &mut out);
                }
            }
        }
    }
    out
}

/// A CSR matrix over `positions`, columns in random order within each row (Csr2cscEx2 does not
/// need them sorted), values random in `t`.
fn build(rng: &mut Rng, (m, n, fill): (usize, usize, Fill), t: DataType) -> Csr {
    let mut by_row: Vec<Vec<i64>> = vec![vec![]; m];
    for (r, c) in positions(rng, m, n, fill) {
        by_row[r].push(c as i64);
    }
    let mut row_ptr = vec![0i64];
    let mut col = vec![];
    for row in &mut by_row {
        shuffle(rng, row);
        col.extend_from_slice(row);
        row_ptr.push(col.len() as i64);
    }
    let vals = encode(t, &random(rng, t, col.len()));
    Csr { m, n, row_ptr, col, vals, width: t.size_bytes() as usize }
}

/// The device outputs of one run.
struct Outputs {
    ptr: DevBuf,
    rows: DevBuf,
    vals: DevBuf,
}

/// Runs Csr2cscEx2 on `a` (uploaded with `base`) into poisoned outputs.
fn run(h: &CHandle, a: &Csr, t: DataType, action: Action, base: i64) -> Result<Outputs, String> {
    let nnz = a.col.len();
    let up = |v: &[i64]| DevBuf::from_slice(&v.iter().map(|&x| (x + base) as i32).collect::<Vec<_>>());
    let (row_ptr, col) = (up(&a.row_ptr), up(&a.col));
    let vals = DevBuf::from_slice(&a.vals);
    // One slot more than needed: it must stay poisoned.
    let out = Outputs {
        ptr: DevBuf::poisoned((a.n + 2) * 4, 0xFF),
        rows: DevBuf::poisoned((nnz + 1) * 4, 0xFF),
        vals: DevBuf::poisoned((nnz + 1) * a.width, 0xFF),
    };
    let (m, n, z) = (a.m as i32, a.n as i32, nnz as i32);
    let args = |f: &dyn Fn(*const c_void, *const i32, *const i32, *mut c_void, *mut i32, *mut i32) -> i32| {
        f(vals.ptr as _, row_ptr.ptr as _, col.ptr as _, out.vals.ptr as _, out.ptr.ptr as _, out.rows.ptr as _)
    };
    let size = buffer_size("oxsparseCsr2cscEx2_bufferSize", |size| {
        args(&|cv, rp, ci, ov, op, or| unsafe {
            oxsparseCsr2cscEx2_bufferSize(h.0, m, n, z, cv, rp, ci, ov, op, or, t as i32, action as i32, base as i32, 1, size)
        })
    })?;
    if size > ((nnz * 4).div_ceil(256) + (a.n + 1).div_ceil(2048) + 2) * 256 {
        return Err(format!("bufferSize {size} is more than 4 bytes an entry and the scan"));
    }
    let ws = workspace(size);
    let s = args(&|cv, rp, ci, ov, op, or| unsafe {
        oxsparseCsr2cscEx2(h.0, m, n, z, cv, rp, ci, ov, op, or, t as i32, action as i32, base as i32, 1, ws_ptr(&ws))
    });
    expect(s, "oxsparseCsr2cscEx2")?;
    sync();
    Ok(out)
}

fn check(h: &CHandle, a: &Csr, t: DataType, action: Action, base: i64) -> Result<(), String> {
    let out = run(h, a, t, action, base)?;
    let nnz = a.col.len();
    let (ptr, rows): (Vec<i32>, Vec<i32>) = (out.ptr.to_vec(), out.rows.to_vec());
    let vals: Vec<u8> = out.vals.to_vec();
    if a.m == 0 || a.n == 0 {
        // Nothing is written at all.
        return if ptr.iter().chain(&rows).all(|&x| x == -1) { Ok(()) } else { Err("an empty shape wrote its outputs".into()) };
    }
    let (want_ptr, want_rows, want_vals) = reference(a, base);
    if ptr[..=a.n] != want_ptr[..] {
        let at = (0..=a.n).find(|&i| ptr[i] != want_ptr[i]).unwrap();
        return Err(format!("cscColPtr[{at}] = {} want {}", ptr[at], want_ptr[at]));
    }
    if ptr[a.n + 1] != -1 {
        return Err("wrote past cscColPtr[n]".into());
    }
    if rows[..nnz] != want_rows[..] {
        let at = (0..nnz).find(|&i| rows[i] != want_rows[i]).unwrap();
        return Err(format!("cscRowInd[{at}] = {} want {}", rows[at], want_rows[at]));
    }
    if rows[nnz] != -1 {
        return Err("wrote past cscRowInd[nnz - 1]".into());
    }
    match action {
        Action::OXSPARSE_ACTION_SYMBOLIC if vals.iter().any(|&b| b != 0xFF) => Err("SYMBOLIC wrote cscVal".into()),
        Action::OXSPARSE_ACTION_NUMERIC if vals[..nnz * a.width] != want_vals[..] => {
            let at = (0..nnz).find(|&i| vals[i * a.width..(i + 1) * a.width] != want_vals[i * a.width..(i + 1) * a.width]).unwrap();
            Err(format!("cscVal[{at}] differs"))
        }
        Action::OXSPARSE_ACTION_NUMERIC if vals[nnz * a.width..].iter().any(|&b| b != 0xFF) => Err("wrote past cscVal[nnz - 1]".into()),
        _ => Ok(()),
    }
}

#[test]
fn csr2csc_equals_stable_transpose() {
    let Some(_h) = gpu("csr2csc") else { return };
    let handles = METHODS.map(|method| {
        let h = CHandle::unforced();
        h.set_tuning("OXSPARSE_CSR2CSC_METHOD", method);
        h
    });
    let mut rng = Rng::new(0xC5_2C5C);
    let (mut cases, mut failures) = (0, vec![]);
    for shape in SHAPES {
        for t in TYPES {
            let a = build(&mut rng, shape, t);
            for base in [0, 1] {
                for action in ACTIONS {
                    for (h, method) in handles.iter().zip(METHODS) {
                        cases += 1;
                        if let Err(e) = check(h, &a, t, action, base) {
                            failures.push(format!("{}x{} nnz {} {t:?} base {base} {action:?} {method:?}: {e}", a.m, a.n, a.col.len()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
    println!("csr2csc: {cases} cases passed");
}

/// Two hub columns of a million entries each (and a full row) among 2000 columns of about 400:
/// with 2.8M entries a column is long past 2048, so the hubs take the long stages (each chunk
/// holding hundreds of their entries) and the others the block's sort; a byte, a 4-byte and a
/// 16-byte value type.
#[test]
fn csr2csc_million_entry_columns() {
    let Some(_h) = gpu("csr2csc million-entry columns") else { return };
    one_large_shape(0x1E6, (1_000_003, 2000, Fill::Hubs(800_000)), [CUDA_R_8I, CUDA_R_32F, CUDA_C_64F]);
}

/// Eight million columns and 120,000 random entries (repeats kept): 17-bit entry numbers and the
/// column's 16 bits above the first digit do not fit one word, so the radix method's first pass
/// writes those bits to a side array in cscVal (NUMERIC, 4-byte values and wider) for the second
/// pass; SYMBOLIC and 2-byte values gather the columns instead.
#[test]
fn csr2csc_side_array_of_the_first_pass() {
    let Some(_h) = gpu("csr2csc side array") else { return };
    one_large_shape(0x51DE, (3000, 8_000_000, Fill::Repeats(120_000)), [CUDA_R_16F, CUDA_R_32F, CUDA_C_64F]);
}

/// One large shape in three value types, both bases and actions, through every method.
fn one_large_shape(seed: u64, shape: (usize, usize, Fill), types: [DataType; 3]) {
    let handles = METHODS.map(|method| {
        let h = CHandle::unforced();
        h.set_tuning("OXSPARSE_CSR2CSC_METHOD", method);
        h
    });
    let mut rng = Rng::new(seed);
    let mut failures = vec![];
    for t in types {
        let a = build(&mut rng, shape, t);
        for base in [0, 1] {
            for action in ACTIONS {
                for (h, method) in handles.iter().zip(METHODS) {
                    if let Err(e) = check(h, &a, t, action, base) {
                        failures.push(format!("nnz {} {t:?} base {base} {action:?} {method:?}: {e}", a.col.len()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The atomics claim slots in a different order each run; the output must not show it (nor the
/// radix method's, whose places are all counted).
#[test]
fn csr2csc_is_deterministic() {
    let Some(_h) = gpu("csr2csc determinism") else { return };
    let mut rng = Rng::new(0xDE7);
    let a = build(&mut rng, (20_000, 500, Fill::Hubs(200_000)), CUDA_R_32F);
    for method in ["atomic", "radix"] {
        let h = CHandle::unforced();
        h.set_tuning("OXSPARSE_CSR2CSC_METHOD", Some(method));
        let first = run(&h, &a, CUDA_R_32F, Action::OXSPARSE_ACTION_NUMERIC, 0).unwrap();
        let bytes = |o: &Outputs| (o.ptr.to_vec::<u8>(), o.rows.to_vec::<u8>(), o.vals.to_vec::<u8>());
        let want = bytes(&first);
        for _ in 0..3 {
            assert!(bytes(&run(&h, &a, CUDA_R_32F, Action::OXSPARSE_ACTION_NUMERIC, 0).unwrap()) == want, "{method}: a second run differs");
        }
    }
}

/// Columns outside [0, n) are the caller's error: the result is unspecified, but the call must
/// not fail or write outside the arrays (the slots past them stay poisoned), under either method.
#[test]
fn csr2csc_bad_columns_stay_inside_the_arrays() {
    let Some(_h) = gpu("csr2csc bad columns") else { return };
    let mut rng = Rng::new(0xBAD_C01);
    let mut a = build(&mut rng, (3000, 700, Fill::Third), CUDA_R_32F);
    let n = a.n as i64;
    for (i, bad) in [n, n + 7, -1, -3, i32::MAX as i64 - 1].iter().cycle().take(40).enumerate() {
        let k = (i * 7919) % a.col.len();
        a.col[k] = *bad;
    }
    for method in ["atomic", "radix"] {
        let h = CHandle::unforced();
        h.set_tuning("OXSPARSE_CSR2CSC_METHOD", Some(method));
        for base in [0, 1] {
            let out = run(&h, &a, CUDA_R_32F, Action::OXSPARSE_ACTION_NUMERIC, base).unwrap_or_else(|e| panic!("{method}: {e}"));
            let nnz = a.col.len();
            assert_eq!(out.ptr.to_vec::<i32>()[a.n + 1], -1, "{method} base {base}: wrote past cscColPtr[n]");
            assert_eq!(out.rows.to_vec::<i32>()[nnz], -1, "{method} base {base}: wrote past cscRowInd");
            assert!(out.vals.to_vec::<u8>()[nnz * 4..].iter().all(|&b| b == 0xFF), "{method} base {base}: wrote past cscVal");
        }
    }
}

/// The C path's refusals: a refused call writes nothing.
#[test]
fn csr2csc_refuses_bad_arguments_without_writing() {
    let Some(_h) = gpu("csr2csc refusals") else { return };
    let h = CHandle::new();
    let row_ptr = DevBuf::from_slice(&[0i32, 1, 2]);
    let col = DevBuf::from_slice(&[1i32, 0]);
    let vals = DevBuf::from_slice(&[1.5f32, -2.0]);
    let out_ptr = DevBuf::poisoned(3 * 4, 0xFF);
    let out_rows = DevBuf::poisoned(2 * 4, 0xFF);
    let out_vals = DevBuf::poisoned(2 * 4, 0xFF);
    let call = |m: i32, nnz: i32, t: DataType, action: i32, base: i32, alg: i32, buffer: *mut c_void| unsafe {
        oxsparseCsr2cscEx2(
            h.0,
            m,
            2,
            nnz,
            vals.ptr as _,
            row_ptr.ptr as _,
            col.ptr as _,
            out_vals.ptr as _,
            out_ptr.ptr as _,
            out_rows.ptr as _,
            t as i32,
            action,
            base,
            alg,
            buffer,
        )
    };
    let mut size = 0usize;
    let s = unsafe {
        oxsparseCsr2cscEx2_bufferSize(
            h.0,
            2,
            2,
            2,
            vals.ptr as _,
            row_ptr.ptr as _,
            col.ptr as _,
            out_vals.ptr as _,
            out_ptr.ptr as _,
            out_rows.ptr as _,
            CUDA_R_32F as i32,
            1,
            0,
            1,
            &mut size,
        )
    };
    assert_eq!(s, 0);
    assert!(size > 0);
    let ws = DevBuf::zeroed(size);
    let wsp = ws.ptr as *mut c_void;
    let invalid = Status::OXSPARSE_STATUS_INVALID_VALUE as i32;
    assert_eq!(call(-1, 2, CUDA_R_32F, 1, 0, 1, wsp), invalid, "m < 0");
    assert_eq!(call(2, 2, CUDA_R_32F, 2, 0, 1, wsp), invalid, "copyValues 2");
    assert_eq!(call(2, 2, CUDA_R_32F, 1, 2, 1, wsp), invalid, "idxBase 2");
    assert_eq!(call(2, 2, CUDA_R_32F, 1, 0, 0, wsp), invalid, "alg 0");
    assert_eq!(call(2, 2, CUDA_R_32F, 1, 0, 1, std::ptr::null_mut()), invalid, "NULL buffer");
    assert_eq!(call(2, 2, CUDA_R_32I, 1, 0, 1, wsp), Status::OXSPARSE_STATUS_NOT_SUPPORTED as i32, "R_32I");
    sync();
    for b in [&out_ptr, &out_rows, &out_vals] {
        assert!(b.to_vec::<u8>().iter().all(|&x| x == 0xFF), "a refused call wrote its output");
    }
    // Both algorithm values run and agree: [[0, 1.5], [-2, 0]] transposed.
    for alg in [1, 2] {
        assert_eq!(call(2, 2, CUDA_R_32F, 1, 0, alg, wsp), 0, "alg {alg}");
        assert_eq!(out_ptr.to_vec::<i32>(), [0, 1, 2]);
        assert_eq!(out_rows.to_vec::<i32>(), [1, 0]);
        assert_eq!(out_vals.to_vec::<f32>(), [-2.0, 1.5]);
    }
}
