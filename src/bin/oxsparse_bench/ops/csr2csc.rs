//! Csr2csc: `Csr2cscEx2` (FP32 values, NUMERIC, base 0, the default algorithm) on every matrix.
//! Bandwidth is against the minimum traffic: the CSR read once, the CSC written once. The check
//! compares all three output arrays with a stable CPU transpose, exactly, and its scope line
//! records the workspace each library asked for (bytes and bytes per entry).

use super::{MatrixOp, OpConfig};
use crate::api::{Csr2cscArgs, Lib, R_32F};
use crate::case::{Call, Case, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::{Csr, Matrix};
use crate::report::Check;
use crate::Result;
use oxsparse::types::{Action, Csr2CscAlg, IndexBase};
use std::cell::RefCell;
use std::ffi::c_int;

pub const OP: MatrixOp = MatrixOp { name: "Csr2csc", skip, cases };

const NUMERIC: c_int = Action::OXSPARSE_ACTION_NUMERIC as c_int;
const BASE_ZERO: c_int = IndexBase::OXSPARSE_INDEX_BASE_ZERO as c_int;
const ALG_DEFAULT: c_int = Csr2CscAlg::OXSPARSE_CSR2CSC_ALG_DEFAULT as c_int;

fn skip(_rows: u64, _cols: u64, max_nnz: u64, _cfg: &OpConfig) -> Option<String> {
    (max_nnz > i32::MAX as u64).then(|| "more than 2^31 - 1 entries: Csr2cscEx2 counts in int".into())
}

fn cases<'m>(m: &'m Matrix, _cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    vec![Box::new(Csr2csc { m, copies: Vec::new(), workspace: RefCell::new(Vec::new()) })]
}

struct Csr2csc<'m> {
    m: &'m Matrix,
    copies: Vec<Operands>,
    /// (library, workspace bytes) as each library's prepare asked.
    workspace: RefCell<Vec<(&'static str, usize)>>,
}

struct Operands {
    row_ptr: DevBuf,
    col_idx: DevBuf,
    values: DevBuf,
    col_ptr: DevBuf,
    row_idx: DevBuf,
    csc_values: DevBuf,
}

impl Operands {
    fn args(&self, a: &Csr) -> Csr2cscArgs {
        Csr2cscArgs {
            shape: (a.rows as c_int, a.cols as c_int, a.nnz() as c_int),
            arrays: [self.values.ptr, self.row_ptr.ptr, self.col_idx.ptr, self.csc_values.ptr, self.col_ptr.ptr, self.row_idx.ptr],
            modes: (R_32F, NUMERIC, BASE_ZERO, ALG_DEFAULT),
        }
    }
}

/// Bytes of the smallest possible call: CSR read once, CSC written once (f32 values, i32 indices).
fn minimum_traffic(a: &Csr) -> u64 {
    let nnz = a.nnz() as u64;
    4 * (a.rows as u64 + 1) + 8 * nnz + 4 * (a.cols as u64 + 1) + 8 * nnz
}

impl Case for Csr2csc<'_> {
    fn info(&self) -> Info {
        let a = &self.m.csr;
        Info {
            op: OP.name,
            variant: "csr f32 i32 -> csc numeric".into(),
            input: self.m.name.clone(),
            group: self.m.group.clone(),
            rows: a.rows as u64,
            cols: a.cols as u64,
            nnz: a.nnz() as u64,
            traffic_bytes: minimum_traffic(a),
            copy_bytes: minimum_traffic(a),
            set: self.m.set,
            ..Info::default()
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let a = &self.m.csr;
        for _ in 0..copies {
            self.copies.push(Operands {
                row_ptr: DevBuf::upload(&a.row_ptr)?,
                col_idx: DevBuf::upload(&a.col_idx)?,
                values: DevBuf::upload(&a.values)?,
                col_ptr: DevBuf::new(4 * (a.cols + 1))?,
                row_idx: DevBuf::new(4 * a.nnz().max(1))?,
                csc_values: DevBuf::new(4 * a.nnz().max(1))?,
            });
        }
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, _variant: Variant) -> Result<Prepared<'s>> {
        let a = &self.m.csr;
        let mut work_bytes = 0;
        for o in &self.copies {
            work_bytes = work_bytes.max(lib.csr2csc_buffer_size(&o.args(a))?);
        }
        self.workspace.borrow_mut().push((lib.name(), work_bytes));
        // One workspace serves every copy: the calls run one after another.
        let work = if work_bytes > 0 { Some(DevBuf::new(work_bytes)?) } else { None };
        let wp = work.as_ref().map_or(0, |w| w.ptr);
        let calls = self
            .copies
            .iter()
            .map(|o| {
                let args = o.args(a);
                Box::new(move || lib.csr2csc(&args, wp)) as Call
            })
            .collect();
        Ok(Prepared { calls, resets: Vec::new(), keep: vec![Box::new(work)], preprocess_ms: None })
    }

    fn poison(&self) -> Result<()> {
        let o = &self.copies[0];
        o.col_ptr.fill(0xFF)?;
        o.row_idx.fill(0xFF)?;
        o.csc_values.fill(0xFF)
    }

    fn check(&self, lib: Lib) -> Result<Check> {
        let a = &self.m.csr;
        let o = &self.copies[0];
        let got = (o.col_ptr.download::<i32>(a.cols + 1)?, o.row_idx.download::<i32>(a.nnz())?, o.csc_values.download::<f32>(a.nnz())?);
        let bytes = self.workspace.borrow().iter().rev().find(|(l, _)| *l == lib.name()).map_or(0, |w| w.1);
        let scope = format!("workspace {bytes} B ({:.2} B/entry)", bytes as f64 / a.nnz().max(1) as f64);
        Ok(compare(a, got, scope))
    }
}

/// The stable transpose of `a`: (colPtr, rowInd, values).
fn transpose(a: &Csr) -> (Vec<i32>, Vec<i32>, Vec<f32>) {
    let mut ptr = vec![0i32; a.cols + 1];
    for &c in &a.col_idx {
        ptr[c as usize + 1] += 1;
    }
    for c in 0..a.cols {
        ptr[c + 1] += ptr[c];
    }
    let mut next: Vec<i32> = ptr[..a.cols].to_vec();
    let (mut rows, mut vals) = (vec![0i32; a.nnz()], vec![0f32; a.nnz()]);
    for r in 0..a.rows {
        for k in a.row_ptr[r] as usize..a.row_ptr[r + 1] as usize {
            let slot = &mut next[a.col_idx[k] as usize];
            rows[*slot as usize] = r as i32;
            vals[*slot as usize] = a.values[k];
            *slot += 1;
        }
    }
    (ptr, rows, vals)
}

/// Exact comparison of every output word with the stable transpose.
fn compare(a: &Csr, (ptr, rows, vals): (Vec<i32>, Vec<i32>, Vec<f32>), scope: String) -> Check {
    let (want_ptr, want_rows, want_vals) = transpose(a);
    let mut c = crate::case::Checker::new();
    for (i, (&g, &w)) in ptr.iter().zip(&want_ptr).enumerate() {
        c.value(g, w as f64, 0.0, || format!("cscColPtr[{i}]"));
    }
    for (i, (&g, &w)) in rows.iter().zip(&want_rows).enumerate() {
        c.value(g, w as f64, 0.0, || format!("cscRowInd[{i}]"));
    }
    for (i, (&g, &w)) in vals.iter().zip(&want_vals).enumerate() {
        c.value(g, w as f64, 0.0, || format!("cscVal[{i}]"));
    }
    c.finish(Some(scope))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_is_a_stable_transpose() {
        let a = Csr::from_triplets(3, 4, vec![(0, 2, 1.0), (0, 0, 2.0), (1, 2, 3.0), (2, 1, 4.0), (2, 2, 5.0)]).unwrap();
        let (ptr, rows, vals) = transpose(&a);
        assert_eq!(ptr, [0, 1, 2, 5, 5]);
        assert_eq!(rows, [0, 2, 0, 1, 2]);
        assert_eq!(vals, [2.0, 4.0, 1.0, 3.0, 5.0]);
        let good = compare(&a, (ptr.clone(), rows.clone(), vals.clone()), String::new());
        assert!(good.ok());
        let mut bad_rows = rows;
        bad_rows.swap(2, 3);
        assert_eq!(compare(&a, (ptr, bad_rows, vals), String::new()).mismatches, 2);
    }

    #[test]
    fn traffic_is_the_csr_read_and_the_csc_written() {
        let a = Csr::from_triplets(3, 5, vec![(0, 1, 1.0), (2, 4, 2.0)]).unwrap();
        assert_eq!(minimum_traffic(&a), 4 * 4 + 8 * 2 + 4 * 6 + 8 * 2);
    }
}
