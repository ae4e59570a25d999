//! Xcoo2csr and Xcsr2coo on every matrix: the CSR row offsets from the sorted COO row indices and
//! back (32-bit, base 0). Traffic is the indices read plus the indices written, nothing else.

use super::{MatrixOp, OpConfig};
use crate::api::{Lib, BASE_ZERO};
use crate::case::{Call, Case, Checker, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::Matrix;
use crate::report::Check;
use crate::Result;

pub const COO2CSR: MatrixOp = MatrixOp { name: "Xcoo2csr", skip, cases: coo2csr_cases };
pub const CSR2COO: MatrixOp = MatrixOp { name: "Xcsr2coo", skip, cases: csr2coo_cases };

fn skip(_rows: u64, _cols: u64, _max_nnz: u64, _cfg: &OpConfig) -> Option<String> {
    None
}

fn coo2csr_cases<'m>(m: &'m Matrix, _cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    vec![Box::new(Conversion { m, to_csr: true, copies: Vec::new() })]
}

fn csr2coo_cases<'m>(m: &'m Matrix, _cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    vec![Box::new(Conversion { m, to_csr: false, copies: Vec::new() })]
}

/// The COO row indices of a CSR matrix: row r once per entry of the row.
fn coo_rows(row_ptr: &[i32]) -> Vec<i32> {
    let mut rows = Vec::with_capacity(*row_ptr.last().unwrap_or(&0) as usize);
    for (r, w) in row_ptr.windows(2).enumerate() {
        rows.extend(std::iter::repeat_n(r as i32, (w[1] - w[0]) as usize));
    }
    rows
}

struct Conversion<'m> {
    m: &'m Matrix,
    /// Xcoo2csr (true) or Xcsr2coo.
    to_csr: bool,
    copies: Vec<Operands>,
}

/// The input and the output of one copy.
struct Operands {
    input: DevBuf,
    output: DevBuf,
}

impl Conversion<'_> {
    fn op(&self) -> &'static str {
        if self.to_csr {
            COO2CSR.name
        } else {
            CSR2COO.name
        }
    }

    /// The expected output: the offsets, or the row indices.
    fn want(&self) -> Vec<i32> {
        let a = &self.m.csr;
        if self.to_csr {
            a.row_ptr.clone()
        } else {
            coo_rows(&a.row_ptr)
        }
    }
}

impl Case for Conversion<'_> {
    fn info(&self) -> Info {
        let a = &self.m.csr;
        let bytes = 4 * (a.rows as u64 + 1) + 4 * a.nnz() as u64;
        Info {
            op: self.op(),
            variant: if self.to_csr { "coo rows i32 -> csr offsets".into() } else { "csr offsets i32 -> coo rows".into() },
            input: self.m.name.clone(),
            group: self.m.group.clone(),
            rows: a.rows as u64,
            cols: a.cols as u64,
            nnz: a.nnz() as u64,
            traffic_bytes: bytes,
            copy_bytes: bytes,
            set: self.m.set,
            ..Info::default()
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let a = &self.m.csr;
        let (input, out_len) = if self.to_csr { (coo_rows(&a.row_ptr), a.rows + 1) } else { (a.row_ptr.clone(), a.nnz()) };
        for _ in 0..copies {
            self.copies.push(Operands { input: DevBuf::upload(&input)?, output: DevBuf::new(4 * out_len)? });
        }
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, _variant: Variant) -> Result<Prepared<'s>> {
        let a = &self.m.csr;
        let (nnz, m, to_csr) = (a.nnz() as i32, a.rows as i32, self.to_csr);
        let calls =
            self.copies
                .iter()
                .map(|o| {
                    let (input, output) = (o.input.ptr, o.output.ptr);
                    Box::new(move || {
                        if to_csr {
                            lib.coo2csr(input, nnz, m, output, BASE_ZERO)
                        } else {
                            lib.csr2coo(input, nnz, m, output, BASE_ZERO)
                        }
                    }) as Call
                })
                .collect();
        Ok(Prepared { calls, resets: Vec::new(), keep: Vec::new(), preprocess_ms: None })
    }

    fn poison(&self) -> Result<()> {
        self.copies[0].output.fill(0xFF)
    }

    fn check(&self, _lib: Lib) -> Result<Check> {
        let want = self.want();
        Ok(compare(&self.copies[0].output.download::<i32>(want.len())?, &want))
    }
}

/// Exact comparison of index arrays.
fn compare(got: &[i32], want: &[i32]) -> Check {
    let mut c = Checker::new();
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        c.value(g as f64, w as f64, 0.0, || format!("[{i}]"));
    }
    c.finish(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Csr;

    const CFG: OpConfig = OpConfig::with_cap(8 << 30);

    #[test]
    fn rows_expand_offsets_and_traffic_counts_both_arrays() {
        assert_eq!(coo_rows(&[0, 2, 2, 3]), [0, 0, 2]);
        assert_eq!(coo_rows(&[0]), Vec::<i32>::new());
        let m = Matrix {
            name: "t".into(),
            group: "g".into(),
            set: "generated",
            csr: Csr::from_triplets(3, 5, vec![(0, 1, 1.0), (0, 3, 1.0), (2, 4, 2.0)]).unwrap(),
        };
        for (cases, op, want) in
            [(coo2csr_cases(&m, &CFG), "Xcoo2csr", vec![0, 2, 2, 3]), (csr2coo_cases(&m, &CFG), "Xcsr2coo", vec![0, 0, 2])]
        {
            let i = cases[0].info();
            assert_eq!((i.op, i.rows, i.nnz, i.traffic_bytes), (op, 3, 3, 4 * 4 + 4 * 3));
            let c = Conversion { m: &m, to_csr: op == "Xcoo2csr", copies: Vec::new() };
            assert_eq!(c.want(), want);
            assert!(compare(&want, &want).ok());
            let mut bad = want.clone();
            bad[0] = -1;
            assert_eq!(compare(&bad, &want).mismatches, 1);
        }
    }
}
