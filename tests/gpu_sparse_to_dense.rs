//! SparseToDense on the GPU equals the CPU reference, for every format x value type x index type x
//! index base x B order x leading-dimension padding x shape; and the C path through the FFI.
//!
//! The conversion copies values, so "equal" is exact: every value type converts to f64 without
//! rounding, and the per-type tolerance is 0. B is poisoned (0xFF) before every run; its padding
//! between the logical matrix and `ld` must come back still poisoned.

mod common;

use common::bytes::decode_element as decode;
use common::descr::upload_arrays;
use common::gen::{bsr, from_entries};
use common::values::shuffle;
use common::{gpu, DevBuf, Rng};
use oxsparse::context::Handle;
use oxsparse::descr::{DnMat, FormatInfo, SpArrays, SpMat};
use oxsparse::ops::sparse_to_dense::sparse_to_dense;
use oxsparse::reference::sparse_to_dense::{self as reference, HostSparse};
use oxsparse::types::{DataType, DataType::*, IndexBase, IndexType, Order, SparseToDenseAlg};
use std::collections::HashSet;

const TYPES: [DataType; 9] = [CUDA_R_8I, CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F, CUDA_R_64F, CUDA_C_16F, CUDA_C_16BF, CUDA_C_32F, CUDA_C_64F];
const INDEX_TYPES: [IndexType; 2] = [IndexType::OXSPARSE_INDEX_32I, IndexType::OXSPARSE_INDEX_64I];
const BASES: [IndexBase; 2] = [IndexBase::OXSPARSE_INDEX_BASE_ZERO, IndexBase::OXSPARSE_INDEX_BASE_ONE];
const ORDERS: [Order; 2] = [Order::OXSPARSE_ORDER_ROW, Order::OXSPARSE_ORDER_COL];
const ALG: SparseToDenseAlg = SparseToDenseAlg::OXSPARSE_SPARSETODENSE_ALG_DEFAULT;

// ---- values (stored with common::bytes) -----------------------------------------------------

/// A nonzero value exact in `t`: an integer in [-127, 127] for int8, else k/64 with 0 < |k| < 256.
fn random_value(rng: &mut Rng, t: DataType) -> (f64, f64) {
    let mut part = || {
        let magnitude = (rng.below(if t == CUDA_R_8I { 127 } else { 255 }) + 1) as f64;
        let x = if rng.below(2) == 0 { -magnitude } else { magnitude };
        if t == CUDA_R_8I {
            x
        } else {
            x / 64.0
        }
    };
    let re = part();
    (re, if t.is_complex() { part() } else { 0.0 })
}

// ---- matrices -------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Variant {
    Coo,
    Csr,
    Csc,
    Bsr(Order),
    Bell,
}

/// How full a test matrix is: no stored entries, about a third, or ~3000 entries plus a dense row.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fill {
    Empty,
    Third,
    Big,
}

/// (rows, cols, fill); blocked formats round rows and cols up to whole blocks.
const SHAPES: [(i64, i64, Fill); 8] = [
    (0, 0, Fill::Third),
    (0, 5, Fill::Third),
    (5, 0, Fill::Third),
    (1, 1, Fill::Third),
    (4, 6, Fill::Empty),
    (7, 33, Fill::Third),
    (33, 7, Fill::Third),
    (1000, 1200, Fill::Big),
];

/// Distinct (row, col) positions in random order. Rows r % 5 == 3 stay empty; `Big` adds a dense row.
fn positions(rng: &mut Rng, m: i64, n: i64, fill: Fill) -> Vec<(i64, i64)> {
    if m == 0 || n == 0 || fill == Fill::Empty {
        return vec![];
    }
    let mut seen = HashSet::new();
    let mut out = vec![];
    if fill == Fill::Big {
        out.extend((0..n).map(|c| (m / 2, c)));
        seen.extend(out.iter().copied());
    }
    let target = out.len() + if fill == Fill::Big { 3000 } else { (m * n / 3).max(1) as usize };
    for _ in 0..20 * target {
        let p = (rng.below(m as u64) as i64, rng.below(n as u64) as i64);
        if out.len() == target {
            break;
        }
        if p.0 % 5 != 3 && seen.insert(p) {
            out.push(p);
        }
    }
    shuffle(rng, &mut out);
    out
}

fn build(rng: &mut Rng, v: Variant, (m, n, fill): (i64, i64, Fill), base: i64, t: DataType) -> HostSparse {
    let tiny = m.max(n) <= 1;
    match v {
        Variant::Coo | Variant::Csr | Variant::Csc => {
            let format = match v {
                Variant::Csr => FormatInfo::Csr,
                Variant::Csc => FormatInfo::Csc,
                _ => FormatInfo::Coo,
            };
            // Values are drawn in stored order, after the pattern is laid out.
            let pattern = positions(rng, m, n, fill).into_iter().map(|(r, c)| (r, c, (0.0, 0.0))).collect();
            let mut a = from_entries(format, (m, n), base, pattern, false);
            a.values = a.values.iter().map(|_| random_value(rng, t)).collect();
            a
        }
        Variant::Bsr(block_order) => {
            let (rb, cb) = if tiny { (1, 1) } else { (2, 3) };
            let (brows, bcols) = ((m + rb - 1) / rb, (n + cb - 1) / cb);
            let blocks = positions(rng, brows, bcols, fill);
            let values = (0..blocks.len() as i64 * rb * cb).map(|_| random_value(rng, t)).collect();
            bsr((brows * rb, bcols * cb), (rb, cb), block_order, base, &blocks, values)
        }
        Variant::Bell => {
            let bs = if tiny {
                1
            } else if fill == Fill::Big {
                4
            } else {
                2
            };
            let (brows, bcols) = ((m + bs - 1) / bs, (n + bs - 1) / bs);
            let slots = if fill == Fill::Empty { 0 } else { bcols.min(if fill == Fill::Big { 5 } else { 3 }) };
            let mut indices = vec![];
            for br in 0..brows {
                for bc in rng.distinct(bcols as u64, slots as usize) {
                    // Empty slots (-1) in every 4th slot on average and in whole block rows.
                    let empty = br % 5 == 3 || rng.below(4) == 0;
                    indices.push(if empty { -1 } else { bc as i64 + base });
                }
            }
            // Values of empty slots are garbage that must not reach B.
            let values = (0..brows * bs * slots * bs).map(|_| random_value(rng, t)).collect();
            let format = FormatInfo::BlockedEll { block_size: bs, ell_cols: slots * bs };
            HostSparse { format, rows: brows * bs, cols: bcols * bs, base, offsets: vec![], indices, values }
        }
    }
}

/// Uploads `a` and describes it with a core descriptor; the buffers must outlive the descriptor's use.
fn upload(a: &HostSparse, t: DataType, it: IndexType, base: IndexBase) -> (SpMat, [DevBuf; 3]) {
    let bufs = upload_arrays(a, t, it);
    let arrays = SpArrays { offsets: bufs[0].ptr, indices: bufs[1].ptr, values: bufs[2].ptr };
    let nnz = a.values.len() as i64;
    let d = match a.format {
        FormatInfo::Coo => SpMat::coo(a.rows, a.cols, nnz, arrays, it, base, t),
        FormatInfo::Csr | FormatInfo::Csc => SpMat::compressed(a.format == FormatInfo::Csc, a.rows, a.cols, nnz, arrays, it, it, base, t),
        FormatInfo::Bsr { brows, bcols, bnnz, row_block, col_block, block_order } => {
            SpMat::bsr((brows, bcols, bnnz), (row_block, col_block), arrays, it, it, base, t, block_order)
        }
        FormatInfo::BlockedEll { block_size, ell_cols } => {
            SpMat::blocked_ell(a.rows, a.cols, block_size, ell_cols, arrays.indices, arrays.values, it, base, t)
        }
        FormatInfo::SlicedEll { .. } => unreachable!(),
    };
    (d.expect("test descriptor"), bufs)
}

/// Converts on the GPU into a poisoned B and compares with the reference, padding included.
fn check(h: &Handle, a: &HostSparse, d: &SpMat, order: Order, pad: i64) -> Result<(), String> {
    let t = d.value_type;
    let size = t.size_bytes() as usize;
    let (len, lines) = if order == Order::OXSPARSE_ORDER_ROW { (a.cols, a.rows) } else { (a.rows, a.cols) };
    let ld = len + pad;
    let span = (ld * lines) as usize;
    let bbuf = DevBuf::zeroed(span * size);
    bbuf.poison(0xFF);
    let b = DnMat::new(a.rows, a.cols, ld, bbuf.ptr, t, order).map_err(|e| format!("DnMat: {e}"))?;
    sparse_to_dense(h, d, &b, ALG, 0).map_err(|e| format!("sparse_to_dense: {e}"))?;
    let got: Vec<u8> = bbuf.to_vec();

    let mut want = vec![(f64::NAN, f64::NAN); span];
    reference::sparse_to_dense(a, order, ld, &mut want);
    for line in 0..lines {
        for i in 0..ld {
            let off = (line * ld + i) as usize;
            let bytes = &got[off * size..(off + 1) * size];
            if i >= len {
                if bytes.iter().any(|&x| x != 0xFF) {
                    return Err(format!("padding at line {line}, slot {i} was overwritten: {bytes:?}"));
                }
            } else if decode(t, bytes) != want[off] {
                return Err(format!("line {line}, entry {i}: got {:?}, want {:?}", decode(t, bytes), want[off]));
            }
        }
    }
    Ok(())
}

/// Every value type x index type x base x B order x padding x shape for one format.
fn sweep(v: Variant) {
    let Some(h) = gpu(&format!("sparse_to_dense {v:?}")) else { return };
    let seed = format!("{v:?}").bytes().fold(0x5D_2D00u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    let mut rng = Rng::new(seed);
    let (mut cases, mut failures) = (0, Vec::new());
    for shape in SHAPES {
        for t in TYPES {
            for it in INDEX_TYPES {
                for base in BASES {
                    let a = build(&mut rng, v, shape, base.offset(), t);
                    let (d, _bufs) = upload(&a, t, it, base);
                    let pads: &[i64] = if shape.2 == Fill::Big { &[5] } else { &[0, 3] };
                    for order in ORDERS {
                        for &pad in pads {
                            cases += 1;
                            if let Err(e) = check(&h, &a, &d, order, pad) {
                                failures.push(format!("{v:?} {}x{} {t:?} {it:?} {base:?} {order:?} pad {pad}: {e}", a.rows, a.cols));
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
    println!("{v:?}: {cases} cases passed");
}

#[test]
fn coo_equals_reference() {
    sweep(Variant::Coo);
}
#[test]
fn csr_equals_reference() {
    sweep(Variant::Csr);
}
#[test]
fn csc_equals_reference() {
    sweep(Variant::Csc);
}
#[test]
fn bsr_row_major_blocks_equal_reference() {
    sweep(Variant::Bsr(Order::OXSPARSE_ORDER_ROW));
}
#[test]
fn bsr_column_major_blocks_equal_reference() {
    sweep(Variant::Bsr(Order::OXSPARSE_ORDER_COL));
}
#[test]
fn blocked_ell_equals_reference() {
    sweep(Variant::Bell);
}

// ---- the C path -------------------------------------------------------------------------------

mod c_api {
    use super::*;
    use oxsparse::ffi::descr_dense::{oxsparseCreateDnMat, oxsparseDestroyDnMat};
    use oxsparse::ffi::descr_sparse::{oxsparseCreateCsr, oxsparseDestroySpMat};
    use oxsparse::ffi::handle::{oxsparseCreate, oxsparseDestroy};
    use oxsparse::ffi::sparse_to_dense::{oxsparseSparseToDense, oxsparseSparseToDense_bufferSize};
    use oxsparse::ffi::{oxsparseDnMatDescr_t, oxsparseHandle_t, oxsparseSpMatDescr_t};
    use oxsparse::types::Status::*;
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};

    const OK: i32 = OXSPARSE_STATUS_SUCCESS as i32;

    #[test]
    fn null_handle_is_not_initialized() {
        let mut size = 7usize;
        unsafe {
            let s = oxsparseSparseToDense_bufferSize(null_mut(), null(), null_mut(), 0, &mut size);
            assert_eq!(s, OXSPARSE_STATUS_NOT_INITIALIZED as i32);
            let s = oxsparseSparseToDense(null_mut(), null(), null_mut(), 0, null_mut());
            assert_eq!(s, OXSPARSE_STATUS_NOT_INITIALIZED as i32);
        }
    }

    unsafe fn dn_mat(rows: i64, cols: i64, ld: i64, values: u64, t: DataType) -> oxsparseDnMatDescr_t {
        let mut d: oxsparseDnMatDescr_t = null_mut();
        let s = oxsparseCreateDnMat(&mut d, rows, cols, ld, values as *mut c_void, t as i32, Order::OXSPARSE_ORDER_ROW as i32);
        assert_eq!(s, OK, "oxsparseCreateDnMat");
        d
    }

    /// A 4 x 5 CSR matrix, base 1, unsorted columns and an empty row, into a row-major B with ld 6.
    #[test]
    fn csr_base_one_to_row_major_through_the_c_api() {
        let Some(_h) = gpu("sparse_to_dense C API") else { return };
        let offsets = DevBuf::from_slice(&[1i32, 3, 3, 6, 7]);
        let columns = DevBuf::from_slice(&[4i32, 1, 3, 2, 5, 1]);
        let values = DevBuf::from_slice(&[-2.0f32, 1.5, 3.0, 0.25, -1.0, 7.0]);
        let want: [[f32; 5]; 4] = [[1.5, 0.0, 0.0, -2.0, 0.0], [0.0; 5], [0.0, 0.25, 3.0, 0.0, -1.0], [7.0, 0.0, 0.0, 0.0, 0.0]];
        let bbuf = DevBuf::zeroed(4 * 6 * 4);
        bbuf.poison(0xFF);
        unsafe {
            let mut h: oxsparseHandle_t = null_mut();
            assert_eq!(oxsparseCreate(&mut h), OK);
            let mut a: oxsparseSpMatDescr_t = null_mut();
            let i32t = IndexType::OXSPARSE_INDEX_32I as i32;
            let s = oxsparseCreateCsr(
                &mut a,
                4,
                5,
                6,
                offsets.ptr as _,
                columns.ptr as _,
                values.ptr as _,
                i32t,
                i32t,
                IndexBase::OXSPARSE_INDEX_BASE_ONE as i32,
                CUDA_R_32F as i32,
            );
            assert_eq!(s, OK, "oxsparseCreateCsr");
            let b = dn_mat(4, 5, 6, bbuf.ptr, CUDA_R_32F);

            let mut size = 99usize;
            assert_eq!(oxsparseSparseToDense_bufferSize(h, a, b, 0, &mut size), OK);
            assert_eq!(size, 0);
            assert_eq!(oxsparseSparseToDense_bufferSize(h, a, b, 0, null_mut()), OXSPARSE_STATUS_INVALID_VALUE as i32);
            assert_eq!(oxsparseSparseToDense(h, a, b, 1, null_mut()), OXSPARSE_STATUS_INVALID_VALUE as i32, "unknown alg");
            assert_eq!(oxsparseSparseToDense(h, a, b, 0, null_mut()), OK, "NULL buffer with bufferSize 0");

            let got: Vec<f32> = bbuf.to_vec();
            for r in 0..4 {
                assert_eq!(&got[r * 6..r * 6 + 5], &want[r], "row {r}");
                assert_eq!(got[r * 6 + 5].to_bits(), u32::MAX, "padding of row {r} was written");
            }

            let wrong_shape = dn_mat(5, 4, 4, bbuf.ptr, CUDA_R_32F);
            assert_eq!(oxsparseSparseToDense(h, a, wrong_shape, 0, null_mut()), OXSPARSE_STATUS_INVALID_VALUE as i32);
            let wrong_type = dn_mat(4, 5, 6, bbuf.ptr, CUDA_R_64F);
            assert_eq!(oxsparseSparseToDense(h, a, wrong_type, 0, null_mut()), OXSPARSE_STATUS_NOT_SUPPORTED as i32);
            assert_eq!(oxsparseSparseToDense(h, null(), b, 0, null_mut()), OXSPARSE_STATUS_INVALID_VALUE as i32);

            for d in [b, wrong_shape, wrong_type] {
                assert_eq!(oxsparseDestroyDnMat(d), OK);
            }
            assert_eq!(oxsparseDestroySpMat(a), OK);
            assert_eq!(oxsparseDestroy(h), OK);
        }
    }
}
