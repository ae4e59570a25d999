//! SR-BCRS objects made other ways than from CSR. `oxsparseCreateSrBcrs` from a Blocked-ELL
//! matrix: the GPU build against the CPU layout of the same entries as CSR
//! (`oxsparse::reference::srbcrs`, array for array), where the entries are every element of every
//! stored block (zeros included: the blocks are the structure), and the refusals of malformed
//! block columns. `oxsparseCreateSrBcrsFromArrays`: an object's own arrays given back make an
//! equal object (and the same SpMM), and every malformed array or argument is refused.
//!
//! Cases cross int4, int8 and int16 values, V in {2, 4, 8}, block sizes 1 to 16 (dividing V,
//! equal to it, and larger, so that a vector row spans several block rows or lies inside one),
//! empty slots (-1) at the ends and between blocks, block rows without blocks, a last block column
//! past the matrix's columns (its columns beyond are not entries), 32- and 64-bit indices and
//! bases 0 and 1. Values are seeded random over each type's range.

mod common;
use common::srbcrs::{download_object, int_type};
use common::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::srbcrs::*;
use oxsparse::ffi::*;
use oxsparse::reference::srbcrs::{encode, CsrInt, SrBcrsHost};
use oxsparse::types::{DataType, IndexType, Order, Status};
use std::ffi::c_void;
use std::ptr::null_mut;

use common::capi::*;

/// A Blocked-ELL matrix on the host (0-based block columns, -1 for an empty slot) and the same
/// entries as CSR.
struct Bell {
    rows: usize,
    cols: usize,
    block: usize,
    /// Slots a block row: ellCols / block.
    slots: usize,
    col_ind: Vec<i64>,
    /// rows x ellCols, row-major.
    values: Vec<i16>,
}

impl Bell {
    /// `fill` percent of the block columns held by each block row (in increasing order), the
    /// empty slots spread among them.
    fn random(rng: &mut Rng, (rows, cols): (usize, usize), block: usize, slots: usize, fill: u64, bits: usize) -> Bell {
        let block_cols = cols.div_ceil(block);
        let mut col_ind = vec![];
        for _ in 0..rows / block {
            let mut held: Vec<i64> = (0..block_cols as i64).filter(|_| rng.below(100) < fill).take(slots).collect();
            // Empty slots anywhere in the row, the held ones still in increasing order.
            while held.len() < slots {
                let at = rng.below(held.len() as u64 + 1) as usize;
                held.insert(at, -1);
            }
            col_ind.extend(held);
        }
        let values = (0..rows * slots * block).map(|_| (rng.below(1 << bits) as i64 - (1 << (bits - 1))) as i16).collect();
        Bell { rows, cols, block, slots, col_ind, values }
    }

    /// Every element of every stored block inside the matrix, as CSR.
    fn csr(&self) -> (Vec<i64>, Vec<i64>, Vec<i16>) {
        let (b, ell_cols) = (self.block, self.slots * self.block);
        let (mut ptr, mut ind, mut val) = (vec![0i64], vec![], vec![]);
        for row in 0..self.rows {
            for slot in 0..self.slots {
                let bc = self.col_ind[(row / b) * self.slots + slot];
                for c in (0..b).filter(|&c| bc >= 0 && bc as usize * b + c < self.cols) {
                    ind.push((bc as usize * b + c) as i64);
                    val.push(self.values[row * ell_cols + slot * b + c]);
                }
            }
            ptr.push(ind.len() as i64);
        }
        (ptr, ind, val)
    }

    /// A Blocked-ELL descriptor over device copies (kept alive by the returned buffers).
    fn upload(&self, it: IndexType, base: i64, bits: usize) -> (oxsparseSpMatDescr_t, [DevBuf; 2]) {
        let ind: Vec<u8> = self
            .col_ind
            .iter()
            .flat_map(|&c| {
                let c = if c < 0 { -1 } else { c + base };
                if it == IndexType::OXSPARSE_INDEX_32I {
                    (c as i32).to_le_bytes().to_vec()
                } else {
                    c.to_le_bytes().to_vec()
                }
            })
            .collect();
        let bufs = [DevBuf::from_slice(&ind), DevBuf::from_slice(&encode(&self.values, bits))];
        let mut d = null_mut();
        let s = unsafe {
            oxsparseCreateBlockedEll(
                &mut d,
                self.rows as i64,
                self.cols as i64,
                self.block as i64,
                (self.slots * self.block) as i64,
                bufs[0].ptr as *mut c_void,
                bufs[1].ptr as *mut c_void,
                it as i32,
                base as i32,
                int_type(bits) as i32,
            )
        };
        assert_eq!(s, OK, "oxsparseCreateBlockedEll");
        (d, bufs)
    }
}

#[derive(Clone, Copy, Debug)]
struct Case {
    bits: usize,
    v: i32,
    rows: usize,
    cols: usize,
    block: usize,
    slots: usize,
    fill: u64,
    index: IndexType,
    base: i64,
}

fn cases() -> Vec<Case> {
    let mut all = vec![];
    let shapes = [(1, 1, 1), (2, 8, 2), (3, 30, 4), (4, 70, 9), (8, 64, 5), (16, 100, 3), (2, 1000, 40), (8, 257, 12), (16, 40, 3)];
    for (i, &(block, cols, slots)) in shapes.iter().enumerate() {
        for (j, v) in [2, 4, 8].into_iter().enumerate() {
            let t = i * 3 + j;
            all.push(Case {
                bits: [4, 8, 16][t % 3],
                v,
                rows: block * [1, 7, 12, 33][t % 4],
                cols,
                block,
                // ellCols <= cols: a block column may still run past the last column.
                slots: slots.min(cols / block),
                fill: [100, 60, 30, 0][t % 4],
                index: if t % 2 == 0 { IndexType::OXSPARSE_INDEX_32I } else { IndexType::OXSPARSE_INDEX_64I },
                base: (t % 5 == 1) as i64,
            });
        }
    }
    all
}

fn run(h: &CHandle, c: &Case, seed: u64) -> Result<(), String> {
    let mut rng = Rng::new(seed);
    let bell = Bell::random(&mut rng, (c.rows, c.cols), c.block, c.slots, c.fill, c.bits);
    let (d, bufs) = bell.upload(c.index, c.base, c.bits);
    let mut obj = null_mut();
    let made = unsafe { oxsparseCreateSrBcrs(h.0, d, c.v, &mut obj) };
    // The object owns its copy: the matrix's arrays and descriptor go before it is read.
    unsafe { oxsparseDestroySpMat(d) };
    drop(bufs);
    expect(made, "oxsparseCreateSrBcrs")?;
    let (got, nnz) = download_object(obj, c.bits);
    unsafe { oxsparseDestroySrBcrs(obj) };
    let (ptr, ind, val) = bell.csr();
    let want =
        SrBcrsHost::from_csr(&CsrInt { rows: c.rows, cols: c.cols, row_ptr: &ptr, col_ind: &ind, values: &val }, c.v as usize, c.bits);
    if nnz != (c.rows * c.slots * c.block) as i64 {
        return Err(format!("nnz {nnz}, the descriptor's {}", c.rows * c.slots * c.block));
    }
    if got != want {
        let first = (0..want.vec_col.len().min(got.vec_col.len())).find(|&p| got.vec_col[p] != want.vec_col[p]);
        return Err(format!(
            "the GPU build differs from the reference layout: vectors {} vs {}, first column difference at {first:?}, offsets equal {}, values equal {}",
            got.vec_col.len(),
            want.vec_col.len(),
            got.vec_ptr == want.vec_ptr,
            got.vec_val == want.vec_val
        ));
    }
    Ok(())
}

#[test]
fn srbcrs_from_blocked_ell_matches_the_reference() {
    let Some(_gpu) = gpu("SR-BCRS from Blocked-ELL") else { return };
    let h = CHandle::new();
    let mut failures = vec![];
    for (i, c) in cases().iter().enumerate() {
        if let Err(e) = run(&h, c, 900 + i as u64) {
            failures.push(format!("{c:?}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases().len(), failures.join("\n"));
}

/// Block columns out of order, repeated, or past the matrix: INVALID_VALUE, no object. (A
/// negative block column is an empty slot, as every Blocked-ELL kernel reads it.)
#[test]
fn srbcrs_from_blocked_ell_refuses_bad_block_columns() {
    let Some(_gpu) = gpu("SR-BCRS from Blocked-ELL, bad block columns") else { return };
    let h = CHandle::new();
    let inv = Status::OXSPARSE_STATUS_INVALID_VALUE as i32;
    let mut rng = Rng::new(91);
    let good = Bell::random(&mut rng, (8, 64), 4, 3, 100, 8);
    let mut wrong = vec![];
    for (what, block_row, slot, col) in [("unsorted", 1, 0, 9), ("repeated", 0, 1, 0), ("past the columns", 1, 2, 16)] {
        let mut bell = Bell { col_ind: good.col_ind.clone(), values: good.values.clone(), ..good };
        bell.col_ind[block_row * bell.slots + slot] = col;
        let (d, _bufs) = bell.upload(IndexType::OXSPARSE_INDEX_32I, 0, 8);
        let mut obj = null_mut();
        let s = unsafe { oxsparseCreateSrBcrs(h.0, d, 4, &mut obj) };
        unsafe { oxsparseDestroySpMat(d) };
        if s != inv || !obj.is_null() {
            wrong.push(format!("{what}: {} (object {:?})", status_name(s), obj));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// An object's arrays as `oxsparseSrBcrsGetInfo` gives them (device pointers) and its counts.
struct Info {
    rows: i64,
    cols: i64,
    v: i32,
    vectors: i64,
    offsets: *const c_void,
    columns: *const c_void,
    values: *const c_void,
}

fn info(obj: oxsparseSrBcrs_t) -> Info {
    let (mut rows, mut cols, mut nnz, mut v, mut stride, mut vectors) = (0i64, 0i64, 0i64, 0, 0, 0i64);
    let (mut offsets, mut columns, mut values) = (std::ptr::null(), std::ptr::null(), std::ptr::null());
    let s = unsafe {
        oxsparseSrBcrsGetInfo(
            obj,
            &mut rows,
            &mut cols,
            &mut nnz,
            &mut v,
            &mut stride,
            &mut vectors,
            &mut offsets,
            &mut columns,
            &mut values,
        )
    };
    assert_eq!(s, OK, "oxsparseSrBcrsGetInfo");
    Info { rows, cols, v, vectors, offsets, columns, values }
}

fn from_arrays(
    h: &CHandle,
    i: &Info,
    offsets: *const c_void,
    columns: *const c_void,
    values: *const c_void,
    bits: usize,
) -> (i32, oxsparseSrBcrs_t) {
    let mut obj = null_mut();
    let t = int_type(bits) as i32;
    let s = unsafe { oxsparseCreateSrBcrsFromArrays(h.0, i.rows, i.cols, i.v, i.vectors, offsets, columns, values, t, &mut obj) };
    (s, obj)
}

/// The number of real vectors' rows inside the matrix: the nnz an object given directly reports.
fn real_slots(s: &SrBcrsHost) -> i64 {
    let v = s.vector_length;
    (0..s.vec_ptr.len() - 1)
        .flat_map(|g| (s.vec_ptr[g] as usize..s.vec_ptr[g + 1] as usize).map(move |p| (g, p)))
        .filter(|&(g, p)| p == s.vec_ptr[g] as usize || s.vec_col[p] != s.vec_col[p - 1])
        .map(|(g, _)| v.min(s.rows - g * v) as i64)
        .sum()
}

/// The FP32 SpMM of an object by a fixed int8 B (k x 16, row-major), as bytes.
fn spmm_bytes(h: &CHandle, obj: oxsparseSrBcrs_t, k: usize, m: usize) -> Vec<u8> {
    let n = 16;
    let b_host: Vec<i16> = (0..k * n).map(|i| ((i * 37 % 255) as i64 - 127) as i16).collect();
    let b_buf = DevBuf::from_slice(&encode(&b_host, 8));
    let c_buf = DevBuf::zeroed((m * n * 4).max(4));
    let (mut b, mut c) = (null_mut(), null_mut());
    let row = Order::OXSPARSE_ORDER_ROW as i32;
    unsafe {
        use oxsparse::ffi::descr_dense::oxsparseCreateDnMat;
        assert_eq!(
            oxsparseCreateDnMat(&mut b, k as i64, n as i64, n as i64, b_buf.ptr as *mut c_void, DataType::CUDA_R_8I as i32, row),
            OK
        );
        assert_eq!(
            oxsparseCreateDnMat(&mut c, m as i64, n as i64, n as i64, c_buf.ptr as *mut c_void, DataType::CUDA_R_32F as i32, row),
            OK
        );
    }
    let (one, zero) = (1f32.to_le_bytes(), 0f32.to_le_bytes());
    let f32t = DataType::CUDA_R_32F as i32;
    let s = unsafe { oxsparseSpMM_srBcrs(h.0, one.as_ptr() as *const c_void, obj, b, zero.as_ptr() as *const c_void, c, f32t, null_mut()) };
    assert_eq!(s, OK, "oxsparseSpMM_srBcrs");
    unsafe {
        use oxsparse::ffi::descr_dense::oxsparseDestroyDnMat;
        oxsparseDestroyDnMat(b);
        oxsparseDestroyDnMat(c);
    }
    c_buf.to_vec::<u8>()
}

#[test]
fn srbcrs_from_its_own_arrays_is_the_same_object() {
    let Some(_gpu) = gpu("SR-BCRS from arrays") else { return };
    let h = CHandle::new();
    let mut failures = vec![];
    for (i, c) in cases().iter().enumerate() {
        let mut rng = Rng::new(1900 + i as u64);
        let bell = Bell::random(&mut rng, (c.rows, c.cols), c.block, c.slots, c.fill, c.bits);
        let (d, _bufs) = bell.upload(c.index, c.base, c.bits);
        let mut made = null_mut();
        assert_eq!(unsafe { oxsparseCreateSrBcrs(h.0, d, c.v, &mut made) }, OK, "oxsparseCreateSrBcrs");
        unsafe { oxsparseDestroySpMat(d) };
        let i = info(made);
        let (s, given) = from_arrays(&h, &i, i.offsets, i.columns, i.values, c.bits);
        if s != OK {
            failures.push(format!("{c:?}: {}", status_name(s)));
        } else {
            let ((want, _), (got, nnz)) = (download_object(made, c.bits), download_object(given, c.bits));
            if got != want || nnz != real_slots(&want) {
                failures.push(format!("{c:?}: arrays equal {}, nnz {nnz} (want {})", got == want, real_slots(&want)));
            } else if c.bits == 8 && spmm_bytes(&h, given, c.cols, c.rows) != spmm_bytes(&h, made, c.cols, c.rows) {
                failures.push(format!("{c:?}: the SpMM differs"));
            }
            unsafe { oxsparseDestroySrBcrs(given) };
        }
        unsafe { oxsparseDestroySrBcrs(made) };
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every argument and array rule: the status, and no object.
#[test]
fn srbcrs_from_arrays_refuses_bad_arguments() {
    let Some(_gpu) = gpu("SR-BCRS from arrays, bad arguments") else { return };
    let h = CHandle::new();
    let (inv, uns) = (Status::OXSPARSE_STATUS_INVALID_VALUE as i32, Status::OXSPARSE_STATUS_NOT_SUPPORTED as i32);
    // Two vector rows of V = 4 (rows 0..7), int8: row 0 holds columns 3, 9 and padding, row 1 none.
    let (rows, cols, v, vectors) = (7i64, 20i64, 4, 32i64);
    let mut columns = vec![9i32; 32];
    columns[0] = 3;
    let mut values = vec![0i8; 32 * 4];
    values[0] = 5; // row 0 at column 3
    values[32 + 1] = -7; // row 1 at column 9
    let offsets = [0i32, 32, 32];
    let good = (DevBuf::from_slice(&offsets), DevBuf::from_slice(&columns), DevBuf::from_slice(&values));
    let call = |rows: i64, cols: i64, v: i32, vectors: i64, o: &DevBuf, c: &DevBuf, val: &DevBuf, t: DataType| {
        let mut obj = null_mut();
        let s = unsafe {
            oxsparseCreateSrBcrsFromArrays(
                h.0,
                rows,
                cols,
                v,
                vectors,
                o.ptr as *const c_void,
                c.ptr as *const c_void,
                val.ptr as *const c_void,
                t as i32,
                &mut obj,
            )
        };
        if !obj.is_null() {
            unsafe { oxsparseDestroySrBcrs(obj) };
        }
        (s, obj.is_null())
    };
    let r8 = DataType::CUDA_R_8I;
    // The good arrays make an object (two real vectors, at columns 3 and 9).
    let (s, none) = call(rows, cols, v, vectors, &good.0, &good.1, &good.2, r8);
    assert!(s == OK && !none, "the good arrays: {}", status_name(s));
    let with_offsets = |o: &[i32]| DevBuf::from_slice(o);
    let with_columns = |f: &dyn Fn(&mut Vec<i32>)| {
        let mut c = columns.clone();
        f(&mut c);
        DevBuf::from_slice(&c)
    };
    let mut padded_value = values.clone();
    padded_value[5] = 1; // row 0 at vector 5, a padding vector
    let rows_table = vec![
        ("negative rows", call(-1, cols, v, vectors, &good.0, &good.1, &good.2, r8), inv),
        ("vector length 3", call(rows, cols, 3, vectors, &good.0, &good.1, &good.2, r8), inv),
        ("FP32 values", call(rows, cols, v, vectors, &good.0, &good.1, &good.2, DataType::CUDA_R_32F), uns),
        ("vectors not a stride multiple", call(rows, cols, v, 31, &good.0, &good.1, &good.2, r8), inv),
        ("offsets not from 0", call(rows, cols, v, vectors, &with_offsets(&[32, 32, 32]), &good.1, &good.2, r8), inv),
        ("offsets not ending at vectors", call(rows, cols, v, 64, &good.0, &good.1, &good.2, r8), inv),
        ("offsets by part of a stride", call(rows, cols, v, vectors, &with_offsets(&[0, 16, 32]), &good.1, &good.2, r8), inv),
        ("a column past cols", call(rows, 9, v, vectors, &good.0, &good.1, &good.2, r8), inv),
        ("a negative column", call(rows, cols, v, vectors, &good.0, &with_columns(&|c| c[0] = -1), &good.2, r8), inv),
        ("decreasing columns", call(rows, cols, v, vectors, &good.0, &with_columns(&|c| c[1] = 2), &good.2, r8), inv),
        ("a column after padding", call(rows, cols, v, vectors, &good.0, &with_columns(&|c| c[10] = 11), &good.2, r8), inv),
        ("a nonzero padding value", call(rows, cols, v, vectors, &good.0, &good.1, &DevBuf::from_slice(&padded_value), r8), inv),
    ];
    let mut wrong: Vec<String> = rows_table
        .iter()
        .filter(|(_, (got, none), want)| got != want || !none)
        .map(|(what, (got, none), want)| format!("{what}: {} (want {}), no object {none}", status_name(*got), status_name(*want)))
        .collect();
    let mut obj = null_mut();
    let null_offsets = unsafe {
        oxsparseCreateSrBcrsFromArrays(
            h.0,
            rows,
            cols,
            v,
            vectors,
            std::ptr::null(),
            good.1.ptr as *const c_void,
            good.2.ptr as *const c_void,
            r8 as i32,
            &mut obj,
        )
    };
    if null_offsets != inv || !obj.is_null() {
        wrong.push(format!("NULL offsets: {}", status_name(null_offsets)));
    }
    let misaligned = unsafe {
        oxsparseCreateSrBcrsFromArrays(
            h.0,
            rows,
            cols,
            v,
            vectors,
            good.0.ptr as *const c_void,
            (good.1.ptr + 2) as *const c_void,
            good.2.ptr as *const c_void,
            r8 as i32,
            &mut obj,
        )
    };
    if misaligned != inv || !obj.is_null() {
        wrong.push(format!("misaligned columns: {}", status_name(misaligned)));
    }
    let null_handle = unsafe {
        oxsparseCreateSrBcrsFromArrays(
            null_mut(),
            rows,
            cols,
            v,
            vectors,
            good.0.ptr as *const c_void,
            good.1.ptr as *const c_void,
            good.2.ptr as *const c_void,
            r8 as i32,
            &mut obj,
        )
    };
    if null_handle != Status::OXSPARSE_STATUS_NOT_INITIALIZED as i32 {
        wrong.push(format!("NULL handle: {}", status_name(null_handle)));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
