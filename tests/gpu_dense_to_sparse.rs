//! DenseToSparse on the GPU through the C ABI, in the CUDALibrarySamples pattern (a target made
//! with no entries, `_analysis`, `SpMatGetSize` for nnz, arrays allocated and set, `_convert`),
//! equals a CPU reference for every target (CSR, CSC, COO, Blocked-ELL) x value type x index type
//! x index base x A order x leading-dimension padding x shape x convert kernel, and gives the same
//! bytes twice.
//!
//! Values are copied, so "equal" is exact. A's padding between the logical matrix and `ld` holds
//! nonzero bytes, so reading it would show as extra entries; negative zeros must be dropped like
//! zeros. Outputs are poisoned (0xFF) with one element more than needed, which must stay poisoned.

mod common;

use common::bytes::{decode_element, encode};
use common::capi::{buffer_size, expect, workspace, ws_ptr, CHandle};
use common::values::{encode_indices, random};
use common::{gpu, sync, DevBuf, Rng};
use oxsparse::ffi::dense_to_sparse::{oxsparseDenseToSparse_analysis, oxsparseDenseToSparse_bufferSize, oxsparseDenseToSparse_convert};
use oxsparse::ffi::descr_dense::{oxsparseCreateDnMat, oxsparseDestroyDnMat};
use oxsparse::ffi::descr_sparse::{
    oxsparseCreateBlockedEll, oxsparseCreateCoo, oxsparseCreateCsc, oxsparseCreateCsr, oxsparseDestroySpMat,
};
use oxsparse::ffi::descr_sparse_access::{oxsparseCooSetPointers, oxsparseCscSetPointers, oxsparseCsrSetPointers, oxsparseSpMatGetSize};
use oxsparse::ffi::{oxsparseDnMatDescr_t, oxsparseSpMatDescr_t};
use oxsparse::types::{DataType, DataType::*, IndexType, Order, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

const TYPES: [DataType; 9] = [CUDA_R_8I, CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F, CUDA_R_64F, CUDA_C_16F, CUDA_C_16BF, CUDA_C_32F, CUDA_C_64F];
const INDEX_TYPES: [IndexType; 2] = [IndexType::OXSPARSE_INDEX_32I, IndexType::OXSPARSE_INDEX_64I];
const ORDERS: [Order; 2] = [Order::OXSPARSE_ORDER_ROW, Order::OXSPARSE_ORDER_COL];
const ALG: i32 = 0;
/// Blocked-ELL targets use 2 x 2 blocks.
const BLOCK: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    Csr,
    Csc,
    Coo,
    BlockedEll,
}

/// (rows, cols, hub): `hub` makes row rows / 2 and column cols / 3 fully nonzero. 48 x 96 and
/// 40 x 4608 with no padding take the analysis's 16-byte loads for every type and both orders;
/// lines longer than 4096 (40 x 4608's rows, 5000 x 24's columns) are counted in segments.
const SHAPES: [(usize, usize, bool); 13] = [
    (0, 0, false),
    (0, 5, false),
    (6, 0, false),
    (1, 1, false),
    (4, 6, false),
    (7, 33, false),
    (34, 7, false),
    (64, 64, true),
    (300, 2001, true),
    (2000, 301, true),
    (48, 96, true),
    (40, 4608, true),
    (5000, 24, true),
];

/// A as values (f64 pairs) in logical (r, c) order, row by row: about a third nonzero (a few of
/// them negative zeros; in 32- and 64-bit types a few NaN, which is not zero), every fifth row empty unless it is the hub
/// row, every seventh about 1 in 200 nonzero, and A's element count of zeros when `all_zero`.
/// Shapes of more than 500,000 elements have every row at about 1 in 200 (but the hub's): under
/// 1 in 40 overall, the library's choice is the words kernel there and the vectors kernel elsewhere;
/// every case also runs with each kernel forced.
fn dense_values(rng: &mut Rng, (m, n, hub): (usize, usize, bool), t: DataType, all_zero: bool) -> Vec<(f64, f64)> {
    let draws = random(rng, t, m * n);
    (0..m * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            let hub_entry = hub && (r == m / 2 || c == n / 3);
            let sparse_row = r % 7 == 2 || m * n > 500_000;
            let drawn_zero = if sparse_row { rng.below(200) != 0 } else { rng.below(3) != 0 };
            if all_zero || (!hub_entry && (r % 5 == 3 || drawn_zero)) {
                return if t != CUDA_R_8I && rng.below(7) == 0 { (-0.0, 0.0) } else { (0.0, 0.0) };
            }
            if matches!(t, CUDA_R_32F | CUDA_R_64F | CUDA_C_32F | CUDA_C_64F) && rng.below(40) == 0 {
                return (f64::NAN, 0.0);
            }
            // A drawn zero stays a zero: the reference decides from the stored value.
            if hub_entry && draws[i] == (0.0, 0.0) {
                (1.0, 0.0)
            } else {
                draws[i]
            }
        })
        .collect()
}

/// A as stored, element by element in logical (r, c) order, row by row, and which elements are zero:
/// encoded once per matrix and type, shared by all its cases.
struct Stored {
    bytes: Vec<u8>,
    zero: Vec<bool>,
    w: usize,
}

impl Stored {
    fn new(vals: &[(f64, f64)], t: DataType) -> Stored {
        let w = t.size_bytes() as usize;
        let bytes = encode(t, vals);
        let zero = bytes.chunks(w).map(|e| is_zero(t, e)).collect();
        Stored { bytes, zero, w }
    }
    fn at(&self, i: usize) -> &[u8] {
        &self.bytes[i * self.w..(i + 1) * self.w]
    }
}

/// A's bytes in `order` with `pad` extra elements a line, the padding nonzero (0x3C bytes).
fn lay_out(a: &Stored, (m, n): (usize, usize), order: Order, pad: usize) -> (Vec<u8>, usize) {
    let w = a.w;
    let row_major = order == Order::OXSPARSE_ORDER_ROW;
    let ld = (if row_major { n } else { m }) + pad;
    let lines = if row_major { m } else { n };
    let mut bytes = vec![0x3Cu8; (lines * ld).max(1) * w];
    for r in 0..m {
        for c in 0..n {
            let at = if row_major { r * ld + c } else { c * ld + r };
            bytes[at * w..(at + 1) * w].copy_from_slice(a.at(r * n + c));
        }
    }
    (bytes, ld.max(1))
}

/// Whether the stored element is zero (negative zero included), as the conversion decides.
fn is_zero(t: DataType, stored: &[u8]) -> bool {
    let (re, im) = decode_element(t, stored);
    re == 0.0 && im == 0.0
}

/// The expected arrays: (offsets or COO rows, minor indices, values), indices with `base`.
fn reference(a: &Stored, (m, n): (usize, usize), target: Target, base: i64) -> (Vec<i64>, Vec<i64>, Vec<u8>) {
    let (lines, len) = if target == Target::Csc { (n, m) } else { (m, n) };
    let (mut major, mut minor, mut vals) = (vec![], vec![], vec![]);
    let mut offsets = vec![base];
    for l in 0..lines {
        for j in 0..len {
            let (r, c) = if target == Target::Csc { (j, l) } else { (l, j) };
            if !a.zero[r * n + c] {
                major.push(l as i64 + base);
                minor.push(j as i64 + base);
                vals.extend_from_slice(a.at(r * n + c));
            }
        }
        offsets.push(minor.len() as i64 + base);
    }
    (if target == Target::Coo { major } else { offsets }, minor, vals)
}

fn decode_indices(it: IndexType, bytes: &[u8]) -> Vec<i64> {
    match it {
        IndexType::OXSPARSE_INDEX_64I => bytes.chunks(8).map(|b| i64::from_le_bytes(b.try_into().unwrap())).collect(),
        _ => bytes.chunks(4).map(|b| i32::from_le_bytes(b.try_into().unwrap()) as i64).collect(),
    }
}

struct Case {
    shape: (usize, usize),
    t: DataType,
    it: IndexType,
    base: i64,
    order: Order,
    pad: usize,
    target: Target,
}

/// The outputs of one run, as bytes: (offsets or COO rows, minor indices, values).
type Outputs = (Vec<u8>, Vec<u8>, Vec<u8>);

/// The samples' sequence for a CSR, CSC or COO target.
unsafe fn run_lines(h: &CHandle, c: &Case, a: oxsparseDnMatDescr_t) -> Result<(i64, Outputs), String> {
    let (m, n) = c.shape;
    let (isz, w) = (c.it.size_bytes() as usize, c.t.size_bytes() as usize);
    let lines = if c.target == Target::Csc { n } else { m };
    let (it, base, t) = (c.it as i32, c.base as i32, c.t as i32);
    let offsets = DevBuf::poisoned((lines + 2) * isz, 0xFF);
    let mut b: oxsparseSpMatDescr_t = null_mut();
    let (rows, cols) = (m as i64, n as i64);
    let s = match c.target {
        Target::Csr => oxsparseCreateCsr(&mut b, rows, cols, 0, offsets.ptr as _, null_mut(), null_mut(), it, it, base, t),
        Target::Csc => oxsparseCreateCsc(&mut b, rows, cols, 0, offsets.ptr as _, null_mut(), null_mut(), it, it, base, t),
        _ => oxsparseCreateCoo(&mut b, rows, cols, 0, null_mut(), null_mut(), null_mut(), it, base, t),
    };
    expect(s, "create the target")?;
    let result = (|| {
        let size = buffer_size("oxsparseDenseToSparse_bufferSize", |s| oxsparseDenseToSparse_bufferSize(h.0, a, b, ALG, s))?;
        let ws = workspace(size);
        expect(oxsparseDenseToSparse_analysis(h.0, a, b, ALG, ws_ptr(&ws)), "oxsparseDenseToSparse_analysis")?;
        let (mut r, mut cc, mut nnz) = (0i64, 0i64, -1i64);
        expect(oxsparseSpMatGetSize(b, &mut r, &mut cc, &mut nnz), "oxsparseSpMatGetSize")?;
        let nz = nnz.max(0) as usize;
        let major = DevBuf::poisoned((nz + 1) * isz, 0xFF);
        let minor = DevBuf::poisoned((nz + 1) * isz, 0xFF);
        let vals = DevBuf::poisoned((nz + 1) * w, 0xFF);
        let s = match c.target {
            Target::Csr => oxsparseCsrSetPointers(b, offsets.ptr as _, minor.ptr as _, vals.ptr as _),
            Target::Csc => oxsparseCscSetPointers(b, offsets.ptr as _, minor.ptr as _, vals.ptr as _),
            _ => oxsparseCooSetPointers(b, major.ptr as _, minor.ptr as _, vals.ptr as _),
        };
        expect(s, "set the pointers")?;
        expect(oxsparseDenseToSparse_convert(h.0, a, b, ALG, ws_ptr(&ws)), "oxsparseDenseToSparse_convert")?;
        sync();
        let first = if c.target == Target::Coo { major.to_vec() } else { offsets.to_vec() };
        Ok((nnz, (first, minor.to_vec(), vals.to_vec())))
    })();
    expect(oxsparseDestroySpMat(b), "oxsparseDestroySpMat")?;
    result
}

/// Blocked-ELL: the user's block columns (some -1), then bufferSize, analysis, convert.
unsafe fn run_bell(h: &CHandle, c: &Case, a: oxsparseDnMatDescr_t, bcols: &[i64], ell_cols: usize) -> Result<Outputs, String> {
    let (m, n) = c.shape;
    let w = c.t.size_bytes() as usize;
    let ind = DevBuf::from_slice(&encode_indices(c.it, bcols));
    let vals = DevBuf::poisoned((m * ell_cols + 1) * w, 0xFF);
    let mut b: oxsparseSpMatDescr_t = null_mut();
    let s = oxsparseCreateBlockedEll(
        &mut b,
        m as i64,
        n as i64,
        BLOCK as i64,
        ell_cols as i64,
        ind.ptr as _,
        vals.ptr as _,
        c.it as i32,
        c.base as i32,
        c.t as i32,
    );
    expect(s, "oxsparseCreateBlockedEll")?;
    let result = (|| {
        let size = buffer_size("oxsparseDenseToSparse_bufferSize", |s| oxsparseDenseToSparse_bufferSize(h.0, a, b, ALG, s))?;
        let ws = workspace(size);
        expect(oxsparseDenseToSparse_analysis(h.0, a, b, ALG, ws_ptr(&ws)), "oxsparseDenseToSparse_analysis")?;
        expect(oxsparseDenseToSparse_convert(h.0, a, b, ALG, ws_ptr(&ws)), "oxsparseDenseToSparse_convert")?;
        sync();
        Ok((vec![], vec![], vals.to_vec()))
    })();
    expect(oxsparseDestroySpMat(b), "oxsparseDestroySpMat")?;
    result
}

fn check(h: &CHandle, rng: &mut Rng, c: &Case, stored: &Stored) -> Result<(), String> {
    let (m, n) = c.shape;
    let w = c.t.size_bytes() as usize;
    let (bytes, ld) = lay_out(stored, c.shape, c.order, c.pad);
    let abuf = DevBuf::from_slice(&bytes);
    let mut a: oxsparseDnMatDescr_t = null_mut();
    expect(
        unsafe { oxsparseCreateDnMat(&mut a, m as i64, n as i64, ld as i64, abuf.ptr as *mut c_void, c.t as i32, c.order as i32) },
        "oxsparseCreateDnMat",
    )?;
    let result = (|| {
        if c.target == Target::BlockedEll {
            let ell_cols = (n / BLOCK).min(3) * BLOCK;
            let (brows, bcols_a, slots) = (m / BLOCK, n.div_ceil(BLOCK), ell_cols / BLOCK);
            let bcols: Vec<i64> =
                (0..brows * slots).map(|_| if rng.below(4) == 0 { -1 } else { rng.below(bcols_a as u64) as i64 + c.base }).collect();
            let got = unsafe { run_bell(h, c, a, &bcols, ell_cols) }?.2;
            for r in 0..m {
                for e in 0..ell_cols {
                    let bc = bcols[(r / BLOCK) * slots + e / BLOCK];
                    let col = (bc - c.base) * BLOCK as i64 + (e % BLOCK) as i64;
                    let want = if bc == -1 || col >= n as i64 { vec![0u8; w] } else { stored.at(r * n + col as usize).to_vec() };
                    let at = r * ell_cols + e;
                    // Padding and a zero element may come back as +0 of any zero encoding; compare values then.
                    if got[at * w..(at + 1) * w] != want[..] && !(is_zero(c.t, &want) && is_zero(c.t, &got[at * w..(at + 1) * w])) {
                        return Err(format!("ellValue[{r}][{e}] differs"));
                    }
                }
            }
            return if got[m * ell_cols * w..].iter().all(|&b| b == 0xFF) { Ok(()) } else { Err("wrote past the values".into()) };
        }
        let (nnz, (first, minor, vals)) = unsafe { run_lines(h, c, a) }?;
        let (want_first, want_minor, want_vals) = reference(stored, c.shape, c.target, c.base);
        if nnz != want_minor.len() as i64 {
            return Err(format!("SpMatGetSize nnz {nnz} want {}", want_minor.len()));
        }
        let (got_first, got_minor) = (decode_indices(c.it, &first), decode_indices(c.it, &minor));
        if got_first[..want_first.len()] != want_first[..] || got_first[want_first.len()] != -1 {
            return Err(format!("{} differ", if c.target == Target::Coo { "row indices" } else { "offsets" }));
        }
        if got_minor[..want_minor.len()] != want_minor[..] || got_minor[want_minor.len()] != -1 {
            return Err("minor indices differ".into());
        }
        if vals[..want_vals.len()] != want_vals[..] || vals[want_vals.len()..].iter().any(|&b| b != 0xFF) {
            return Err("values differ".into());
        }
        Ok(())
    })();
    expect(unsafe { oxsparseDestroyDnMat(a) }, "oxsparseDestroyDnMat")?;
    result
}

fn sweep(target: Target) {
    let Some(_h) = gpu(&format!("dense_to_sparse {target:?}")) else { return };
    // Every case through each convert kernel (`OXSPARSE_D2S_CONVERT`) and the library's choice;
    // Blocked-ELL has one kernel.
    let kernels: &[Option<&str>] = if target == Target::BlockedEll { &[None] } else { &[None, Some("words"), Some("vectors")] };
    let handles: Vec<(Option<&str>, CHandle)> = kernels
        .iter()
        .map(|k| {
            let h = CHandle::unforced();
            h.set_tuning("OXSPARSE_D2S_CONVERT", *k);
            (*k, h)
        })
        .collect();
    let mut rng = Rng::new(0xD25_0000 + target as u64);
    let (mut cases, mut failures) = (0, vec![]);
    for (m, n, hub) in SHAPES {
        if target == Target::BlockedEll && m % BLOCK != 0 {
            continue;
        }
        for t in TYPES {
            let stored = Stored::new(&dense_values(&mut rng, (m, n, hub), t, m == 4), t);
            for it in INDEX_TYPES {
                for base in [0, 1] {
                    for order in ORDERS {
                        let pads: &[usize] = if m * n > 10_000 { &[0, 5] } else { &[0, 3] };
                        for &pad in pads {
                            for (kernel, h) in &handles {
                                cases += 1;
                                let c = Case { shape: (m, n), t, it, base, order, pad, target };
                                if let Err(e) = check(h, &mut rng, &c, &stored) {
                                    failures.push(format!(
                                        "{target:?} {m}x{n} {t:?} {it:?} base {base} {order:?} pad {pad} convert {kernel:?}: {e}"
                                    ));
                                }
                            }
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
    println!("dense_to_sparse {target:?}: {cases} cases passed");
}

#[test]
fn csr_equals_reference() {
    sweep(Target::Csr);
}
#[test]
fn csc_equals_reference() {
    sweep(Target::Csc);
}
#[test]
fn coo_equals_reference() {
    sweep(Target::Coo);
}
#[test]
fn blocked_ell_equals_reference() {
    sweep(Target::BlockedEll);
}

/// Two runs on a large matrix give the same bytes, in either order of A (a row-major A's rows are
/// read 16 bytes a lane and, at this density, converted by the vectors kernel).
#[test]
fn dense_to_sparse_is_deterministic() {
    let Some(_h) = gpu("dense_to_sparse determinism") else { return };
    let h = CHandle::new();
    let mut rng = Rng::new(0xD25_DE7);
    let shape = (1500, 1300);
    let values = dense_values(&mut rng, (shape.0, shape.1, true), CUDA_R_32F, false);
    for order in ORDERS {
        // No padding in the row-major case, so that its rows are whole 16-byte vectors.
        let pad = if order == Order::OXSPARSE_ORDER_ROW { 0 } else { 1 };
        let (bytes, ld) = lay_out(&Stored::new(&values, CUDA_R_32F), shape, order, pad);
        let abuf = DevBuf::from_slice(&bytes);
        let mut a: oxsparseDnMatDescr_t = null_mut();
        unsafe {
            assert_eq!(oxsparseCreateDnMat(&mut a, 1500, 1300, ld as i64, abuf.ptr as _, CUDA_R_32F as i32, order as i32), 0);
            let c = Case { shape, t: CUDA_R_32F, it: IndexType::OXSPARSE_INDEX_64I, base: 1, order, pad, target: Target::Csr };
            let first = run_lines(&h, &c, a).unwrap();
            for _ in 0..2 {
                assert!(run_lines(&h, &c, a).unwrap() == first, "a second run differs ({order:?})");
            }
            assert_eq!(oxsparseDestroyDnMat(a), 0);
        }
    }
}

/// Refusals write nothing and leave nnz alone; the analysis needs the target's offsets.
#[test]
fn dense_to_sparse_refusals_change_nothing() {
    let Some(_h) = gpu("dense_to_sparse refusals") else { return };
    let h = CHandle::new();
    let abuf = DevBuf::from_slice(&[1.0f32, 0.0, 2.0, 0.0, 0.0, 3.0]);
    let offsets = DevBuf::poisoned(3 * 4, 0xFF);
    let i32t = IndexType::OXSPARSE_INDEX_32I as i32;
    unsafe {
        let mut a: oxsparseDnMatDescr_t = null_mut();
        assert_eq!(oxsparseCreateDnMat(&mut a, 2, 3, 3, abuf.ptr as _, CUDA_R_32F as i32, Order::OXSPARSE_ORDER_ROW as i32), 0);
        let mut b: oxsparseSpMatDescr_t = null_mut();
        assert_eq!(oxsparseCreateCsr(&mut b, 2, 3, 0, offsets.ptr as _, null_mut(), null_mut(), i32t, i32t, 0, CUDA_R_32F as i32), 0);
        let mut wrong: oxsparseSpMatDescr_t = null_mut();
        assert_eq!(oxsparseCreateCsr(&mut wrong, 2, 3, 0, offsets.ptr as _, null_mut(), null_mut(), i32t, i32t, 0, CUDA_R_64F as i32), 0);
        let mut size = 0usize;
        assert_eq!(oxsparseDenseToSparse_bufferSize(h.0, a, b, ALG, &mut size), 0);
        let ws = DevBuf::zeroed(size.max(1));
        let invalid = Status::OXSPARSE_STATUS_INVALID_VALUE as i32;
        assert_eq!(oxsparseDenseToSparse_analysis(h.0, a, b, 1, ws.ptr as _), invalid, "alg 1");
        assert_eq!(oxsparseDenseToSparse_analysis(h.0, a, b, ALG, null_mut()), invalid, "NULL buffer");
        assert_eq!(oxsparseDenseToSparse_analysis(h.0, a, wrong, ALG, ws.ptr as _), Status::OXSPARSE_STATUS_NOT_SUPPORTED as i32);
        sync();
        assert!(offsets.to_vec::<u8>().iter().all(|&x| x == 0xFF), "a refused analysis wrote the offsets");
        let (mut r, mut c, mut nnz) = (0, 0, -1);
        assert_eq!(oxsparseSpMatGetSize(b, &mut r, &mut c, &mut nnz), 0);
        assert_eq!(nnz, 0);
        assert_eq!(oxsparseDenseToSparse_analysis(h.0, a, b, ALG, ws.ptr as _), 0);
        assert_eq!(oxsparseSpMatGetSize(b, &mut r, &mut c, &mut nnz), 0);
        assert_eq!((r, c, nnz), (2, 3, 3));
        assert_eq!(offsets.to_vec::<i32>(), [0, 2, 3]);
        assert_eq!(oxsparseDenseToSparse_convert(h.0, a, b, ALG, ws.ptr as _), invalid, "columns and values not set yet");
        for d in [b, wrong] {
            assert_eq!(oxsparseDestroySpMat(d), 0);
        }
        assert_eq!(oxsparseDestroyDnMat(a), 0);
    }
}
