//! SparseToDense: CSR (FP32 values, 32-bit indices, base 0) to a row-major dense matrix, on every
//! matrix whose dense form is at most 256 MiB.

use super::{MatrixOp, OpConfig};
use crate::api::{Lib, BASE_ZERO, INDEX_32I, ORDER_ROW, R_32F, S2D_DEFAULT};
use crate::case::{Call, Case, Checker, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::matrix::{Csr, Matrix};
use crate::report::Check;
use crate::Result;

/// The largest dense form converted.
pub const MAX_DENSE_BYTES: u64 = 256 << 20;

pub const OP: MatrixOp = MatrixOp { name: "SparseToDense", skip, cases };

fn skip(rows: u64, cols: u64, _max_nnz: u64, _cfg: &OpConfig) -> Option<String> {
    match Csr::dense_bytes(rows, cols) {
        Some(b) if b <= MAX_DENSE_BYTES => None,
        Some(b) => Some(format!("dense form {:.2} GiB > 256 MiB", b as f64 / (1u64 << 30) as f64)),
        None => Some("dense form beyond 2^64 bytes".into()),
    }
}

fn cases<'m>(m: &'m Matrix, _cfg: &OpConfig) -> Vec<Box<dyn Case + 'm>> {
    vec![Box::new(SparseToDense { m, copies: Vec::new() })]
}

struct SparseToDense<'m> {
    m: &'m Matrix,
    copies: Vec<Operands>,
}

struct Operands {
    offsets: DevBuf,
    indices: DevBuf,
    values: DevBuf,
    dense: DevBuf,
}

impl SparseToDense<'_> {
    fn shape(&self) -> (i64, i64, i64) {
        let a = &self.m.csr;
        (a.rows as i64, a.cols as i64, a.nnz() as i64)
    }

    fn dense_bytes(&self) -> u64 {
        let a = &self.m.csr;
        Csr::dense_bytes(a.rows as u64, a.cols as u64).expect("skipped above 256 MiB")
    }
}

impl Case for SparseToDense<'_> {
    fn info(&self) -> Info {
        let a = &self.m.csr;
        let sparse = 4 * (a.rows as u64 + 1) + 8 * a.nnz() as u64;
        Info {
            op: OP.name,
            variant: "csr f32 i32 -> dense row-major".into(),
            input: self.m.name.clone(),
            group: self.m.group.clone(),
            rows: a.rows as u64,
            cols: a.cols as u64,
            nnz: a.nnz() as u64,
            traffic_bytes: sparse + self.dense_bytes(),
            copy_bytes: sparse + self.dense_bytes(),
            set: self.m.set,
            ..Info::default()
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let a = &self.m.csr;
        for _ in 0..copies {
            self.copies.push(Operands {
                offsets: DevBuf::upload(&a.row_ptr)?,
                indices: DevBuf::upload(&a.col_idx)?,
                values: DevBuf::upload(&a.values)?,
                dense: DevBuf::new(self.dense_bytes() as usize)?,
            });
        }
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, _variant: Variant) -> Result<Prepared<'s>> {
        let (rows, cols, nnz) = self.shape();
        let mut descrs = Vec::new();
        let mut work_bytes = 0;
        for o in &self.copies {
            let a = lib.create_csr(rows, cols, nnz, o.offsets.ptr, o.indices.ptr, o.values.ptr, INDEX_32I, INDEX_32I, BASE_ZERO, R_32F)?;
            let b = lib.create_dn_mat(rows, cols, cols.max(1), o.dense.ptr, R_32F, ORDER_ROW)?;
            work_bytes = work_bytes.max(lib.sparse_to_dense_buffer_size(&a, &b, S2D_DEFAULT)?);
            descrs.push((a, b));
        }
        // One workspace serves every copy: the calls run one after another.
        let work = if work_bytes > 0 { Some(DevBuf::new(work_bytes)?) } else { None };
        let wp = work.as_ref().map_or(0, |w| w.ptr);
        let calls = descrs.into_iter().map(|(a, b)| Box::new(move || lib.sparse_to_dense(&a, &b, S2D_DEFAULT, wp)) as Call).collect();
        Ok(Prepared { calls, resets: Vec::new(), keep: vec![Box::new(work)], preprocess_ms: None })
    }

    fn poison(&self) -> Result<()> {
        self.copies[0].dense.fill(0xFF)
    }

    fn check(&self, _lib: Lib) -> Result<Check> {
        let a = &self.m.csr;
        Ok(compare(a, &self.copies[0].dense.download(a.rows * a.cols)?))
    }
}

/// Compares a row-major dense matrix with A: the stored value where A stores one, else zero. Exact.
fn compare(a: &Csr, dense: &[f32]) -> Check {
    let mut c = Checker::new();
    for r in 0..a.rows {
        let (mut k, end) = (a.row_ptr[r] as usize, a.row_ptr[r + 1] as usize);
        for col in 0..a.cols {
            let want = if k < end && a.col_idx[k] as usize == col {
                k += 1;
                a.values[k - 1] as f64
            } else {
                0.0
            };
            c.value(dense[r * a.cols + col], want, 0.0, || format!("B[{r}][{col}]"));
        }
    }
    c.finish(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CFG: OpConfig = OpConfig::with_cap(8 << 30);

    #[test]
    fn dense_forms_up_to_256_mib_are_measured() {
        assert_eq!(skip(8192, 8192, 0, &CFG), None);
        assert_eq!(skip(1, 1 << 26, 0, &CFG), None);
        assert!(skip(8193, 8192, 0, &CFG).unwrap().contains("> 256 MiB"));
        assert!(skip(1 << 40, 1 << 40, 0, &CFG).is_some());
    }

    #[test]
    fn traffic_counts_the_csr_arrays_and_the_dense_matrix() {
        let m = Matrix {
            name: "t".into(),
            group: "g".into(),
            set: "generated",
            csr: Csr::from_triplets(3, 5, vec![(0, 1, 1.0), (2, 4, 2.0)]).unwrap(),
        };
        let cases = cases(&m, &CFG);
        let i = cases[0].info();
        assert_eq!((i.op, i.rows, i.cols, i.nnz), ("SparseToDense", 3, 5, 2));
        assert_eq!(i.traffic_bytes, 4 * 4 + 8 * 2 + 4 * 15);
    }

    #[test]
    fn compare_wants_exact_values_and_zeros() {
        let a = Csr::from_triplets(2, 3, vec![(0, 1, 1.5), (1, 0, -2.0), (1, 2, 0.25)]).unwrap();
        let good = [0.0, 1.5, 0.0, -2.0, 0.0, 0.25];
        assert!(compare(&a, &good).ok());
        let mut bad = good;
        bad[2] = f32::NAN; // a poisoned entry that was never written
        bad[5] = 0.2500001;
        let c = compare(&a, &bad);
        assert_eq!((c.compared, c.mismatches), (6, 2));
        assert!(c.first.unwrap().starts_with("B[0][2]"));
    }
}
