//! SpMM-blocked (issue 59): C = A B with A in a block format, generated, against cuSPARSE's SpMM on
//! the same format in the same process, alpha = 1, beta = 0, B and C row-major, N = 32, 64, 128:
//!
//! * FEM-like BSR (`gen::fem`): a 3D mesh of nodes, a block of 3 x 3 or 4 x 4 unknowns per pair of
//!   neighbouring nodes (27 a block row inside), about 1.5M rows; FP32 and FP64. cuSPARSE:
//!   BSR_ALG1 (the speedup's), and its CSR SpMM of the same matrix (DEFAULT and CSR_ALG2),
//!   reported but not in the speedup.
//! * Banded Blocked-ELL (`gen::banded_ell`): 2^20 rows in blocks of 16 (8 a block row) or 32 (4),
//!   128 entries a row within 32 block columns of the diagonal; FP16 (C FP16, compute FP32) and
//!   FP32. cuSPARSE: BLOCKED_ELL_ALG1.
//!
//! oxsparse runs its plain SpMM (the block formats need no preprocess) in the handle's math mode
//! (`--math-mode`: FP32 Blocked-ELL takes tensor cores in the TF32 modes, FP16 always; cuSPARSE
//! decides its own). Every result is checked on ~2048 sampled rows against the float64 product
//! (`gen::reference`), within `Precision`'s tolerance of sum |a b| (oxsparse's FP32 in the TF32
//! mode within `tf32_tolerance`). GB/s are against the format's own bytes (A as stored, B and C
//! once); GFLOP/s count 2 nnz N.

mod gen;

use super::spmm::data::{dense_b, Layout, Precision, Values};
use super::spmm::POISON_BYTE;
use super::VectorOp;
use crate::api::{Descr, Lib, MmArgs, MmDescrs, ORDER_ROW, SPMM_BLOCKED_ELL_ALG1, SPMM_CSR_ALG2, SPMM_DEFAULT};
use crate::case::{Case, Checker, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::half;
use crate::ops::prepare;
use crate::report::Check;
use crate::Result;
use gen::Blocks;
use oxsparse::types::{MathMode, SpMMAlg};
use std::cell::Cell;
use std::ffi::c_int;

pub const NAME: &str = "SpMM-blocked";
pub const OP: VectorOp = VectorOp { name: NAME, cases };

const SPMM_BSR_ALG1: c_int = SpMMAlg::OXSPARSE_SPMM_BSR_ALG1 as c_int;
const NS: [usize; 3] = [32, 64, 128];

/// Which matrix a case multiplies.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// BSR blocks of `block` over a `mesh` of nodes.
    Fem { block: usize, mesh: (usize, usize, usize) },
    /// Blocked-ELL of `rows` rows, blocks of `block`, `slots` a block row.
    Ell { rows: usize, block: usize, slots: usize },
}

/// FEM meshes of ~1.5M rows (499,200 nodes of 3, 373,248 of 4) and Blocked-ELL of 2^20 rows;
/// with `--quick`, an eighth of each at N = 32 only.
fn cases(quick: bool) -> Vec<Box<dyn Case>> {
    let shapes = [
        (Shape::Fem { block: 3, mesh: (80, 80, 78) }, [Precision::F32, Precision::F64]),
        (Shape::Fem { block: 4, mesh: (72, 72, 72) }, [Precision::F32, Precision::F64]),
        (Shape::Ell { rows: 1 << 20, block: 16, slots: 8 }, [Precision::F16, Precision::F32]),
        (Shape::Ell { rows: 1 << 20, block: 32, slots: 4 }, [Precision::F16, Precision::F32]),
    ];
    let mut v: Vec<Box<dyn Case>> = Vec::new();
    for (shape, precisions) in shapes {
        let shape = if quick { smaller(shape) } else { shape };
        for p in precisions {
            for &n in if quick { &NS[..1] } else { &NS[..] } {
                v.push(Box::new(Blocked { shape, p, n, host: None, copies: Vec::new(), current: Cell::new(None) }));
            }
        }
    }
    v
}

fn smaller(s: Shape) -> Shape {
    match s {
        Shape::Fem { block, mesh: (x, y, z) } => Shape::Fem { block, mesh: (x / 2, y / 2, z / 2) },
        Shape::Ell { rows, block, slots } => Shape::Ell { rows: rows / 8, block, slots },
    }
}

struct Blocked {
    shape: Shape,
    p: Precision,
    n: usize,
    host: Option<Host>,
    copies: Vec<Operands>,
    /// The variant last prepared: the one `check` reads the output of.
    current: Cell<Option<Variant>>,
}

struct Host {
    a: Blocks,
    rows: Vec<usize>,
    want: Vec<f64>,
    bound: Vec<f64>,
}

struct Operands {
    offsets: Option<DevBuf>,
    cols: DevBuf,
    values: DevBuf,
    /// The CSR twin (BSR cases): offsets, columns, values.
    csr: Option<(DevBuf, DevBuf, DevBuf)>,
    b: DevBuf,
    c: DevBuf,
}

/// Rounds an FP32 value to what precision `p` holds (FP64 holds it exactly).
fn rounder(p: Precision) -> impl Fn(f32) -> f32 + Sync {
    move |v| if p == Precision::F16 { half::to_f32(half::from_f32(v)) } else { v }
}

/// Host values uploaded in precision `p`.
fn upload(v: &[f32], p: Precision) -> Result<DevBuf> {
    match p {
        Precision::F32 => DevBuf::upload(v),
        Precision::F64 => DevBuf::upload(&v.iter().map(|&x| x as f64).collect::<Vec<f64>>()),
        Precision::F16 => DevBuf::upload(&v.iter().map(|&x| half::from_f32(x)).collect::<Vec<u16>>()),
    }
}

/// The arguments over one copy's descriptors: alpha = 1, beta = 0 in `p`'s compute type.
fn args<'d, 'a>(d: &'d MmDescrs<'a>, p: Precision, alg: c_int) -> MmArgs<'d, 'a> {
    d.args(p.alpha_beta(), p.compute_type(), alg)
}

const fn variant(label: &'static str, code: c_int, extra: bool) -> Variant {
    Variant { label, code, extra }
}

impl Blocked {
    fn seed(&self) -> u64 {
        let s = match self.shape {
            Shape::Fem { block, mesh: (x, y, z) } => (block << 48 | x << 32 | y << 16 | z) as u64,
            Shape::Ell { rows, block, slots } => (rows << 16 | block << 8 | slots) as u64,
        };
        s ^ 0xB5E ^ ((self.p.bytes()) << 60)
    }

    fn dims(&self) -> (usize, usize, usize) {
        match self.shape {
            Shape::Fem { block, mesh: (x, y, z) } => {
                let nodes = x * y * z;
                let inside = |d: usize| 3 * d - 2;
                (nodes * block, nodes * block, inside(x) * inside(y) * inside(z) * block * block)
            }
            Shape::Ell { rows, block, slots } => (rows, rows, rows * slots * block),
        }
    }

    fn label(&self) -> String {
        match self.shape {
            Shape::Fem { block, .. } => format!("BSR {block}x{block}"),
            Shape::Ell { block, .. } => format!("BLOCKED_ELL {block}x{block}"),
        }
    }

    /// A's descriptor for `lib` over copy `o`: its own format, or (`csr`) the CSR twin.
    fn matrix<'a>(&self, lib: Lib<'a>, o: &Operands, csr: bool) -> Result<Descr<'a>> {
        let a = &self.host.as_ref().ok_or("SpMM-blocked prepared before its inputs were made")?.a;
        let (m, k, vt) = (a.rows() as i64, a.cols_total() as i64, self.p.value_type());
        if csr {
            let (offsets, cols, values) = o.csr.as_ref().ok_or("no CSR twin of a Blocked-ELL case")?;
            let idx = crate::api::INDEX_32I;
            return lib.create_csr(m, k, a.nnz() as i64, offsets.ptr, cols.ptr, values.ptr, idx, idx, crate::api::BASE_ZERO, vt);
        }
        match &o.offsets {
            Some(offsets) => {
                let dims = (a.brows as i64, a.bcols as i64, a.bnnz() as i64);
                lib.create_bsr(dims, (a.rb as i64, a.cb as i64), offsets.ptr, o.cols.ptr, o.values.ptr, vt, ORDER_ROW)
            }
            None => lib.create_blocked_ell(m, k, a.cb as i64, (a.slots * a.cb) as i64, o.cols.ptr, o.values.ptr, vt),
        }
    }

    /// Whether oxsparse's handle is in the TF32 math mode (its FP32 results get TF32's tolerance).
    fn tf32(lib: Lib) -> bool {
        let Lib::Ox(h) = lib else { return false };
        let mut mode = -1;
        // SAFETY: a live handle; out-pointer to a local.
        let s = unsafe { oxsparse::ffi::handle::oxsparseGetMathMode(h, &mut mode) };
        s == 0 && mode == MathMode::OXSPARSE_TF32_TENSOR_OP_MATH as c_int
    }
}

impl Case for Blocked {
    fn info(&self) -> Info {
        let (m, k, nnz) = self.dims();
        let (m, k, nnz, n, e) = (m as u64, k as u64, nnz as u64, self.n as u64, self.p.bytes());
        let (input, group, stored, twin) = match self.shape {
            Shape::Fem { block, mesh: (x, y, z) } => {
                let bnnz = nnz / (block * block) as u64;
                let bsr = 4 * (m / block as u64 + 1) + 4 * bnnz + e * nnz;
                (format!("FEM 3D mesh {x}x{y}x{z}, 27-point, {block}x{block} blocks"), "FEM-like", bsr, 4 * (m + 1) + (4 + e) * nnz)
            }
            Shape::Ell { block, slots, .. } => {
                let ell = 4 * (m / block as u64) * slots as u64 + e * nnz;
                (format!("banded Blocked-ELL {m}x{k}, {block}x{block} blocks, {slots} a block row"), "Blocked-ELL", ell, 0)
            }
        };
        let dense = e * (k + m) * n;
        Info {
            op: NAME,
            variant: format!("{} {}, row-major, N={}", self.label(), self.p.name(), self.n),
            input,
            group: group.into(),
            rows: m,
            cols: k,
            nnz,
            traffic_bytes: stored + dense,
            copy_bytes: stored + twin + dense,
            flops: 2 * nnz * n,
            set: "generated",
            summary_groups: vec![
                format!("{group} {} N=32/64/128", self.p.name()),
                format!("{} {} N={}", self.label(), self.p.name(), self.n),
            ],
            chart_series: None,
        }
    }

    fn variants(&self, lib: Lib) -> Vec<Variant> {
        match (lib, self.shape) {
            (Lib::Ox(_), Shape::Fem { .. }) => vec![variant("BSR_ALG1", SPMM_BSR_ALG1, false)],
            (Lib::Ox(_), Shape::Ell { .. }) => vec![variant("BLOCKED_ELL_ALG1", SPMM_BLOCKED_ELL_ALG1, false)],
            (Lib::Cu(_), Shape::Fem { .. }) => vec![
                variant("BSR_ALG1", SPMM_BSR_ALG1, false),
                variant("CSR DEFAULT", SPMM_DEFAULT, true),
                variant("CSR_ALG2", SPMM_CSR_ALG2, true),
            ],
            (Lib::Cu(_), Shape::Ell { .. }) => vec![variant("BLOCKED_ELL_ALG1", SPMM_BLOCKED_ELL_ALG1, false)],
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let (p, seed, n) = (self.p, self.seed(), self.n);
        let a = match self.shape {
            Shape::Fem { block, mesh: (x, y, z) } => gen::fem(x, y, z, block, seed, rounder(p)),
            Shape::Ell { rows, block, slots } => gen::banded_ell(rows, block, slots, seed, rounder(p)),
        };
        let k = a.cols_total();
        let Values::F32(b) = dense_b(k, n, Layout::Row, Precision::F32, seed ^ 0xB) else {
            return Err("FP32 B asked".into());
        };
        let b: Vec<f32> = b.iter().map(|&v| rounder(p)(v)).collect();
        let rows = gen::sample_rows(a.rows());
        let (want, bound) = gen::reference(&a, &|i| b[i] as f64, n, &rows);
        let csr = (!a.ell()).then(|| a.to_csr());
        for _ in 0..copies {
            self.copies.push(Operands {
                offsets: (!a.ell()).then(|| DevBuf::upload(&a.offsets)).transpose()?,
                cols: DevBuf::upload(&a.cols)?,
                values: upload(&a.values, p)?,
                csr: match &csr {
                    Some((o, c, v)) => Some((DevBuf::upload(o)?, DevBuf::upload(c)?, upload(v, p)?)),
                    None => None,
                },
                b: upload(&b, p)?,
                c: DevBuf::new(a.rows() * n * p.bytes() as usize)?,
            });
        }
        self.host = Some(Host { a, rows, want, bound });
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, v: Variant) -> Result<Prepared<'s>> {
        self.current.set(Some(v));
        let host = self.host.as_ref().ok_or("SpMM-blocked prepared before its inputs were made")?;
        let (m, k, n, vt) = (host.a.rows() as i64, host.a.cols_total() as i64, self.n as i64, self.p.value_type());
        let csr = v.code == SPMM_DEFAULT || v.code == SPMM_CSR_ALG2;
        let mut sets = Vec::with_capacity(self.copies.len());
        for o in &self.copies {
            let a = self.matrix(lib, o, csr)?;
            let b = lib.create_dn_mat(k, n, n, o.b.ptr, vt, ORDER_ROW)?;
            let c = lib.create_dn_mat(m, n, n, o.c.ptr, vt, ORDER_ROW)?;
            sets.push(MmDescrs { a, b, c });
        }
        let (p, alg) = (self.p, v.code);
        prepare::with_workspaces(
            sets,
            move |d| lib.spmm_buffer_size(&args(d, p, alg)),
            None,
            move |d, buffer| lib.spmm(&args(d, p, alg), buffer),
        )
    }

    /// SpMM's finite poison: cuSPARSE may compute beta * C with beta = 0.
    fn poison(&self) -> Result<()> {
        self.copies[0].c.fill(POISON_BYTE)
    }

    fn check(&self, lib: Lib) -> Result<Check> {
        let host = self.host.as_ref().ok_or("SpMM-blocked checked before its inputs were made")?;
        let (n, p, m) = (self.n, self.p, host.a.rows());
        let got: Vec<f64> = match p {
            Precision::F32 => self.copies[0].c.download::<f32>(m * n)?.into_iter().map(f64::from).collect(),
            Precision::F64 => self.copies[0].c.download::<f64>(m * n)?,
            Precision::F16 => self.copies[0].c.download::<u16>(m * n)?.into_iter().map(|h| half::to_f32(h) as f64).collect(),
        };
        let tol = if Self::tf32(lib) { p.tf32_tolerance() } else { p.tolerance() };
        let mut checker = Checker::new();
        for (i, &r) in host.rows.iter().enumerate() {
            for j in 0..n {
                let at = i * n + j;
                checker.summed(got[r * n + j], host.want[at], host.bound[at], tol, p.tiny(), || format!("C[{r}][{j}]"));
            }
        }
        let scope = format!("{} of {m} rows, evenly spaced", host.rows.len());
        Ok(checker.finish(Some(scope)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_four_cases_of_fem_bsr_and_banded_blocked_ell() {
        let cs = cases(false);
        assert_eq!(cs.len(), 24);
        assert_eq!(cases(true).len(), 8);
        let i = cs[0].info();
        assert_eq!((i.op, i.variant.as_str()), (NAME, "BSR 3x3 FP32, row-major, N=32"));
        assert_eq!((i.rows, i.cols), (3 * 499_200, 3 * 499_200));
        assert_eq!(i.nnz, 238 * 238 * 232 * 9, "27-point neighbourhoods counted over the mesh");
        assert_eq!(i.summary_groups, vec!["FEM-like FP32 N=32/64/128", "BSR 3x3 FP32 N=32"]);
        let e = cs[12].info();
        assert_eq!((e.variant.as_str(), e.rows, e.nnz), ("BLOCKED_ELL 16x16 FP16, row-major, N=32", 1 << 20, (1 << 20) * 128));
        assert_eq!(e.traffic_bytes, 4 * 65536 * 8 + 2 * (1 << 27) + 2 * (2 << 20) * 32);
        assert_eq!(cs[23].info().variant, "BLOCKED_ELL 32x32 FP32, row-major, N=128");
    }

    #[test]
    fn a_small_fem_count_matches_its_generated_blocks() {
        let b = Blocked {
            shape: Shape::Fem { block: 2, mesh: (3, 4, 5) },
            p: Precision::F32,
            n: 8,
            host: None,
            copies: Vec::new(),
            current: Cell::new(None),
        };
        assert_eq!(b.dims().2, gen::fem(3, 4, 5, 2, 1, |v| v).nnz());
    }
}
