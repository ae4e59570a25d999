//! The legacy index sorts, on every matrix of the sets with its order broken: `Xcsrsort` (column
//! indices shuffled within each row, P the identity) and `XcoosortByRow` (all entries shuffled).
//!
//! Both sort in place, so every copy keeps a pristine input that a reset copies back before each
//! call, outside the timed region (`Prepared::resets`). The minimum traffic is reading and writing
//! the index arrays and P once (csrsort also reads the row offsets): 16 bytes an entry for
//! csrsort, 24 for coosort. The check wants the sorted indices exactly and P to map every sorted
//! entry back to an input entry of the same coordinates (a tie order of its own is allowed).

use super::{MatrixOp, OpConfig};
use crate::api::Lib;
use crate::case::{Call, Case, Checker, Info, Prepared, Variant};
use crate::device::{sync, DevBuf};
use crate::matrix::{Matrix, Rng};
use crate::report::Check;
use crate::Result;

pub const CSRSORT: MatrixOp = MatrixOp { name: "Xcsrsort", skip, cases: csr_cases };
pub const COOSORT: MatrixOp = MatrixOp { name: "XcoosortByRow", skip, cases: coo_cases };

fn skip(rows: u64, cols: u64, max_nnz: u64, _cfg: &OpConfig) -> Option<String> {
    let int = i32::MAX as u64;
    (rows > int || cols > int || max_nnz > int).then(|| "beyond the 32-bit indices of the legacy sorts".into())
}

fn csr_cases<'m>(m: &'m Matrix, _cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    vec![Box::new(SortCase::new(m, false))]
}

fn coo_cases<'m>(m: &'m Matrix, _cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    vec![Box::new(SortCase::new(m, true))]
}

/// The shuffles are seeded by the matrix's shape, so every run sorts the same input.
fn rng_for(m: &Matrix) -> Rng {
    Rng::new(0x5047_05e7 ^ ((m.csr.rows as u64) << 20) ^ m.csr.col_idx.len() as u64)
}

fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// The unsorted input: csrsort's column indices (shuffled within rows), or coosort's row and
/// column indices (all entries shuffled); P is the identity either way.
struct Input {
    rows: Vec<i32>,
    cols: Vec<i32>,
    perm: Vec<i32>,
}

fn input(m: &Matrix, coo: bool) -> Input {
    let a = &m.csr;
    let mut rng = rng_for(m);
    let nnz = a.col_idx.len();
    if coo {
        let mut order: Vec<usize> = (0..nnz).collect();
        for i in (1..nnz).rev() {
            order.swap(i, below(&mut rng, i + 1));
        }
        let mut row_of = vec![0i32; nnz];
        for r in 0..a.rows {
            row_of[a.row_ptr[r] as usize..a.row_ptr[r + 1] as usize].fill(r as i32);
        }
        let rows = order.iter().map(|&k| row_of[k]).collect();
        let cols = order.iter().map(|&k| a.col_idx[k]).collect();
        Input { rows, cols, perm: (0..nnz as i32).collect() }
    } else {
        let mut cols = a.col_idx.clone();
        for r in 0..a.rows {
            let row = &mut cols[a.row_ptr[r] as usize..a.row_ptr[r + 1] as usize];
            for i in (1..row.len()).rev() {
                row.swap(i, below(&mut rng, i + 1));
            }
        }
        Input { rows: Vec::new(), cols, perm: (0..nnz as i32).collect() }
    }
}

struct SortCase<'m> {
    m: &'m Matrix,
    coo: bool,
    input: Input,
    copies: Vec<Operands>,
}

/// One copy: the arrays a call sorts, and the pristine input a reset restores them from.
struct Operands {
    offsets: DevBuf,
    work: [DevBuf; 3],
    pristine: [DevBuf; 3],
}

impl Operands {
    /// rows (coosort only; csrsort leaves it empty), columns, P.
    fn reset(&self) -> Result<()> {
        for (w, p) in self.work.iter().zip(&self.pristine) {
            w.copy_from(p)?;
        }
        Ok(())
    }
}

impl<'m> SortCase<'m> {
    fn new(m: &'m Matrix, coo: bool) -> SortCase<'m> {
        SortCase { m, coo, input: input(m, coo), copies: Vec::new() }
    }

    fn dims(&self) -> (i32, i32, i32) {
        let a = &self.m.csr;
        (a.rows as i32, a.cols as i32, a.col_idx.len() as i32)
    }
}

impl Case for SortCase<'_> {
    fn info(&self) -> Info {
        let a = &self.m.csr;
        let nnz = a.col_idx.len() as u64;
        let (traffic, variant) = if self.coo {
            (24 * nnz, "coo i32, entries shuffled, by row")
        } else {
            (4 * (a.rows as u64 + 1) + 16 * nnz, "csr i32, columns shuffled within rows")
        };
        Info {
            op: if self.coo { COOSORT.name } else { CSRSORT.name },
            variant: variant.into(),
            input: self.m.name.clone(),
            group: self.m.group.clone(),
            rows: a.rows as u64,
            cols: a.cols as u64,
            nnz,
            traffic_bytes: traffic,
            // The arrays sorted and their pristine twins.
            copy_bytes: 2 * traffic,
            set: self.m.set,
            ..Info::default()
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let i = &self.input;
        for _ in 0..copies {
            let arrays = || -> Result<[DevBuf; 3]> { Ok([DevBuf::upload(&i.rows)?, DevBuf::upload(&i.cols)?, DevBuf::upload(&i.perm)?]) };
            let offsets = if self.coo { DevBuf::new(0)? } else { DevBuf::upload(&self.m.csr.row_ptr)? };
            self.copies.push(Operands { offsets, work: arrays()?, pristine: arrays()? });
        }
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, _variant: Variant) -> Result<Prepared<'s>> {
        let dims = self.dims();
        let o = &self.copies[0];
        let bytes = if self.coo {
            lib.coosort_buffer_size(dims, o.work[0].ptr, o.work[1].ptr)?
        } else {
            lib.csrsort_buffer_size(dims, o.offsets.ptr, o.work[1].ptr)?
        };
        // One workspace serves every copy: the calls run one after another.
        let work = if bytes > 0 { Some(DevBuf::new(bytes)?) } else { None };
        let wp = work.as_ref().map_or(0, |w| w.ptr);
        let descr = if self.coo { None } else { Some(lib.create_mat_descr()?) };
        let descr = std::rc::Rc::new(descr);
        let mut calls: Vec<Call> = Vec::new();
        let mut resets: Vec<Call> = Vec::new();
        for o in &self.copies {
            let [rows, cols, perm] = [o.work[0].ptr, o.work[1].ptr, o.work[2].ptr];
            let offsets = o.offsets.ptr;
            let d = descr.clone();
            calls.push(if self.coo {
                Box::new(move || lib.coosort_by_row(dims, rows, cols, perm, wp))
            } else {
                Box::new(move || lib.csrsort(dims, d.as_ref().as_ref().expect("csrsort's descriptor"), offsets, cols, perm, wp))
            });
            resets.push(Box::new(move || o.reset()));
        }
        Ok(Prepared { calls, resets, keep: vec![Box::new(work), Box::new(descr)], preprocess_ms: None })
    }

    /// The sorts write their input: copy 0 gets it back (there is no output to poison).
    fn poison(&self) -> Result<()> {
        self.copies[0].reset()?;
        sync("the reset of the sort's input")
    }

    fn check(&self, _lib: Lib) -> Result<Check> {
        let nnz = self.dims().2 as usize;
        let o = &self.copies[0];
        let cols: Vec<i32> = o.work[1].download(nnz)?;
        let perm: Vec<i32> = o.work[2].download(nnz)?;
        let rows: Vec<i32> = if self.coo { o.work[0].download(nnz)? } else { Vec::new() };
        Ok(compare(&self.m.csr.row_ptr, &self.input, self.coo, (&rows, &cols, &perm)))
    }
}

/// The sorted arrays against the CSR order (rows ascending, columns ascending within a row), and P
/// against the input: entry k must have come from input entry P[k], of the same coordinates.
fn compare(row_ptr: &[i32], input: &Input, coo: bool, (rows, cols, perm): (&[i32], &[i32], &[i32])) -> Check {
    let mut c = Checker::new();
    let nnz = input.cols.len();
    // The reference: the input's entries in order, from the CSR offsets and a sort per row.
    let mut want_cols = vec![0i32; nnz];
    let mut want_rows = vec![0i32; nnz];
    let mut by_row: Vec<Vec<i32>> = vec![Vec::new(); row_ptr.len().saturating_sub(1)];
    if coo {
        for (&r, &col) in input.rows.iter().zip(&input.cols) {
            by_row[r as usize].push(col);
        }
    } else {
        for (r, row) in by_row.iter_mut().enumerate() {
            row.extend_from_slice(&input.cols[row_ptr[r] as usize..row_ptr[r + 1] as usize]);
        }
    }
    for (r, row) in by_row.iter_mut().enumerate() {
        row.sort_unstable();
        let at = row_ptr[r] as usize;
        want_cols[at..at + row.len()].copy_from_slice(row);
        want_rows[at..at + row.len()].fill(r as i32);
    }
    for k in 0..nnz {
        c.value(cols[k], want_cols[k] as f64, 0.0, || format!("column index {k}"));
        if coo {
            c.value(rows[k], want_rows[k] as f64, 0.0, || format!("row index {k}"));
        }
        let p = perm[k];
        let from_ok = p >= 0
            && (p as usize) < nnz
            && input.cols[p as usize] == cols[k]
            && if coo {
                input.rows[p as usize] == rows[k]
            } else {
                // csrsort permutes within rows only.
                p >= row_ptr[want_rows[k] as usize] && p < row_ptr[want_rows[k] as usize + 1]
            };
        c.value(if from_ok { 0.0 } else { 1.0 }, 0.0, 0.0, || format!("P[{k}] = {p} names another entry"));
    }
    c.finish(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Csr;

    fn matrix() -> Matrix {
        let t = vec![(0, 1, 1.0), (0, 3, 1.0), (0, 4, 1.0), (2, 0, 1.0), (2, 2, 1.0), (3, 4, 1.0)];
        Matrix { name: "t".into(), group: "g".into(), set: "generated", csr: Csr::from_triplets(4, 5, t).unwrap() }
    }

    #[test]
    fn traffic_is_indices_and_p_read_and_written_once() {
        let m = matrix();
        let csr = csr_cases(&m, &OpConfig::with_cap(1 << 30))[0].info();
        assert_eq!((csr.op, csr.traffic_bytes), ("Xcsrsort", 4 * 5 + 16 * 6));
        let coo = coo_cases(&m, &OpConfig::with_cap(1 << 30))[0].info();
        assert_eq!((coo.op, coo.traffic_bytes), ("XcoosortByRow", 24 * 6));
    }

    #[test]
    fn the_input_is_a_shuffle_of_the_matrix() {
        let m = matrix();
        let i = input(&m, false);
        let mut row0 = i.cols[0..3].to_vec();
        row0.sort();
        assert_eq!(row0, [1, 3, 4]);
        let c = input(&m, true);
        let mut e: Vec<_> = c.rows.iter().zip(&c.cols).map(|(&r, &c)| (r, c)).collect();
        e.sort();
        assert_eq!(e, [(0, 1), (0, 3), (0, 4), (2, 0), (2, 2), (3, 4)]);
    }

    #[test]
    fn compare_accepts_the_sorted_answer_and_catches_bad_p() {
        let m = matrix();
        let i = input(&m, true);
        let mut k: Vec<usize> = (0..6).collect();
        k.sort_by_key(|&j| (i.rows[j], i.cols[j]));
        let rows: Vec<i32> = k.iter().map(|&j| i.rows[j]).collect();
        let cols: Vec<i32> = k.iter().map(|&j| i.cols[j]).collect();
        let mut perm: Vec<i32> = k.iter().map(|&j| j as i32).collect();
        assert!(compare(&m.csr.row_ptr, &i, true, (&rows, &cols, &perm)).ok());
        perm.swap(0, 1);
        assert_eq!(compare(&m.csr.row_ptr, &i, true, (&rows, &cols, &perm)).mismatches, 2);
    }
}
