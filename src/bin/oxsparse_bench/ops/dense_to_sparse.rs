//! DenseToSparse on generated square dense matrices (FP32, row-major) into CSR (32-bit indices,
//! base 0): n = 4096, 8192, 16384 (4096 only with `--quick`), 1% and 10% of the entries nonzero
//! at random distinct columns of every row.
//!
//! A call is what a user runs for every conversion: `_analysis` (both libraries wait for the
//! stream to read nnz back) then `_convert`; B's arrays are set once, in prepare, after a first
//! analysis. Bandwidth is against the minimum traffic: A read once, the CSR written once. The
//! check compares the offsets, column indices and values exactly, each row in column order (rows
//! written in another order are sorted first and counted in the scope line: cuSPARSE's are), and
//! its scope line records the workspace each library asked for.

use super::VectorOp;
use crate::api::{Lib, BASE_ZERO, INDEX_32I, ORDER_ROW, R_32F};
use crate::case::{Call, Case, Checker, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::Rng;
use crate::report::Check;
use crate::Result;
use std::cell::RefCell;

pub const OP: VectorOp = VectorOp { name: "DenseToSparse", cases };

const SIZES: [usize; 3] = [4096, 8192, 16384];
const PERCENT_NONZERO: [usize; 2] = [1, 10];

fn cases(quick: bool) -> Vec<Box<dyn Case>> {
    let sizes = if quick { &SIZES[..1] } else { &SIZES[..] };
    let mut v: Vec<Box<dyn Case>> = Vec::new();
    for &n in sizes {
        for &pct in &PERCENT_NONZERO {
            v.push(Box::new(DenseToSparse {
                n,
                per_row: n * pct / 100,
                pct,
                host: None,
                copies: Vec::new(),
                workspace: RefCell::new(vec![]),
            }));
        }
    }
    v
}

struct DenseToSparse {
    n: usize,
    per_row: usize,
    pct: usize,
    /// The expected CSR: (offsets, columns, values).
    host: Option<(Vec<i32>, Vec<i32>, Vec<f32>)>,
    copies: Vec<Operands>,
    /// (library, workspace bytes) as each library's prepare asked.
    workspace: RefCell<Vec<(&'static str, usize)>>,
}

struct Operands {
    dense: DevBuf,
    offsets: DevBuf,
    columns: DevBuf,
    values: DevBuf,
}

impl DenseToSparse {
    fn nnz(&self) -> usize {
        self.n * self.per_row
    }

    /// The CSR of A: `per_row` distinct sorted columns a row, nonzero values.
    fn make_host(&self) -> (Vec<i32>, Vec<i32>, Vec<f32>) {
        let mut rng = Rng::new(0xD25 ^ ((self.n as u64) << 8) ^ self.pct as u64);
        let mut columns = Vec::with_capacity(self.nnz());
        for _ in 0..self.n {
            columns.extend(rng.distinct_sorted(self.n as u64, self.per_row as u64).into_iter().map(|c| c as i32));
        }
        let values = (0..self.nnz()).map(|_| Some(rng.value()).filter(|v| *v != 0.0).unwrap_or(0.5)).collect();
        let offsets = (0..=self.n).map(|r| (r * self.per_row) as i32).collect();
        (offsets, columns, values)
    }
}

impl Case for DenseToSparse {
    fn info(&self) -> Info {
        let (n, nnz) = (self.n as u64, self.nnz() as u64);
        let csr = 4 * (n + 1) + 8 * nnz;
        Info {
            op: OP.name,
            variant: "dense f32 row-major -> csr i32".into(),
            input: format!("n={} {}% nonzero", self.n, self.pct),
            group: "generated".into(),
            rows: n,
            cols: n,
            nnz,
            traffic_bytes: 4 * n * n + csr,
            copy_bytes: 4 * n * n + csr,
            set: "generated",
            ..Info::default()
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let (offsets, columns, values) = self.make_host();
        let mut dense = vec![0f32; self.n * self.n];
        for r in 0..self.n {
            for k in offsets[r] as usize..offsets[r + 1] as usize {
                dense[r * self.n + columns[k] as usize] = values[k];
            }
        }
        for _ in 0..copies {
            self.copies.push(Operands {
                dense: DevBuf::upload(&dense)?,
                offsets: DevBuf::new(4 * (self.n + 1))?,
                columns: DevBuf::new(4 * self.nnz())?,
                values: DevBuf::new(4 * self.nnz())?,
            });
        }
        self.host = Some((offsets, columns, values));
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, _variant: Variant) -> Result<Prepared<'s>> {
        let n = self.n as i64;
        let mut descrs = Vec::new();
        let mut work_bytes = 0;
        for o in &self.copies {
            let a = lib.create_dn_mat(n, n, n, o.dense.ptr, R_32F, ORDER_ROW)?;
            let b = lib.create_csr(n, n, 0, o.offsets.ptr, 0, 0, INDEX_32I, INDEX_32I, BASE_ZERO, R_32F)?;
            work_bytes = work_bytes.max(lib.dense_to_sparse_buffer_size(&a, &b)?);
            descrs.push((a, b, o));
        }
        self.workspace.borrow_mut().push((lib.name(), work_bytes));
        let work = if work_bytes > 0 { Some(DevBuf::new(work_bytes)?) } else { None };
        let wp = work.as_ref().map_or(0, |w| w.ptr);
        // The samples' sequence once: analysis, nnz, the arrays set.
        for (a, b, o) in &descrs {
            lib.dense_to_sparse_analysis(a, b, wp)?;
            let (_, _, nnz) = lib.sp_mat_get_size(b)?;
            if nnz != self.nnz() as i64 {
                return Err(format!("{}: the analysis found {nnz} nonzeros, not {}", lib.name(), self.nnz()));
            }
            lib.csr_set_pointers(b, o.offsets.ptr, o.columns.ptr, o.values.ptr)?;
        }
        let calls = descrs
            .into_iter()
            .map(|(a, b, _)| {
                Box::new(move || {
                    lib.dense_to_sparse_analysis(&a, &b, wp)?;
                    lib.dense_to_sparse_convert(&a, &b, wp)
                }) as Call
            })
            .collect();
        Ok(Prepared { calls, resets: Vec::new(), keep: vec![Box::new(work)], preprocess_ms: None })
    }

    fn poison(&self) -> Result<()> {
        let o = &self.copies[0];
        o.offsets.fill(0xFF)?;
        o.columns.fill(0xFF)?;
        o.values.fill(0xFF)
    }

    fn check(&self, lib: Lib) -> Result<Check> {
        let (offsets, columns, values) = self.host.as_ref().expect("alloc runs before check");
        let o = &self.copies[0];
        let got_offsets = o.offsets.download::<i32>(self.n + 1)?;
        let (got_columns, got_values) = in_column_order(offsets, o.columns.download(self.nnz())?, o.values.download(self.nnz())?);
        let mut c = Checker::new();
        for (i, (&g, &w)) in got_offsets.iter().zip(offsets).enumerate() {
            c.value(g, w as f64, 0.0, || format!("offsets[{i}]"));
        }
        for (i, (&g, &w)) in got_columns.0.iter().zip(columns).enumerate() {
            c.value(g, w as f64, 0.0, || format!("columns[{i}]"));
        }
        for (i, (&g, &w)) in got_values.iter().zip(values).enumerate() {
            c.value(g, w as f64, 0.0, || format!("values[{i}]"));
        }
        let bytes = self.workspace.borrow().iter().rev().find(|(l, _)| *l == lib.name()).map_or(0, |w| w.1);
        let unsorted = got_columns.1;
        let order = if unsorted > 0 {
            format!("; {unsorted} of {} rows came out of column order, compared as sets", self.n)
        } else {
            String::new()
        };
        Ok(c.finish(Some(format!("workspace {bytes} B{order}"))))
    }
}

/// The rows (at the expected `offsets`) of a result sorted by column, values with their columns,
/// and how many rows needed it: a CSR whose rows hold the right entries in another order is a
/// valid conversion (cuSPARSE's DenseToSparse writes rows out of column order), reported apart.
fn in_column_order(offsets: &[i32], mut columns: Vec<i32>, mut values: Vec<f32>) -> ((Vec<i32>, usize), Vec<f32>) {
    let mut unsorted = 0;
    for w in offsets.windows(2) {
        let (a, b) = (w[0] as usize, (w[1] as usize).min(columns.len()));
        if a >= b || columns[a..b].windows(2).all(|p| p[0] < p[1]) {
            continue;
        }
        unsorted += 1;
        let mut row: Vec<(i32, f32)> = columns[a..b].iter().copied().zip(values[a..b].iter().copied()).collect();
        row.sort_by_key(|e| e.0);
        for (k, (col, v)) in row.into_iter().enumerate() {
            columns[a + k] = col;
            values[a + k] = v;
        }
    }
    ((columns, unsorted), values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_cover_the_sizes_and_densities() {
        assert_eq!(cases(true).len(), 2);
        let all = cases(false);
        assert_eq!(all.len(), 6);
        let i = all[5].info();
        assert_eq!((i.rows, i.nnz), (16384, 16384 * 1638));
        assert_eq!(i.traffic_bytes, 4 * 16384 * 16384 + 4 * 16385 + 8 * 16384 * 1638);
    }

    #[test]
    fn rows_out_of_column_order_are_sorted_and_counted() {
        let ((cols, unsorted), vals) = in_column_order(&[0, 3, 3, 5], vec![4, 1, 2, 0, 7], vec![40.0, 10.0, 20.0, 0.5, 70.0]);
        assert_eq!((cols, unsorted, vals), (vec![1, 2, 4, 0, 7], 1, vec![10.0, 20.0, 40.0, 0.5, 70.0]));
    }

    #[test]
    fn the_host_csr_is_sorted_and_nonzero() {
        let c = DenseToSparse { n: 4096, per_row: 40, pct: 1, host: None, copies: vec![], workspace: RefCell::new(vec![]) };
        let (offsets, columns, values) = c.make_host();
        assert_eq!(offsets.len(), 4097);
        assert!(columns.chunks(40).all(|r| r.windows(2).all(|w| w[0] < w[1])));
        assert!(values.iter().all(|&v| v != 0.0));
    }
}
