//! SpMM-int (issue 60): C = A B with A an int8 DLMC-like weight matrix (`dlmc.rs`: vectors of 8
//! consecutive rows share their nonzero columns; 70%, 90% and 98% sparse, each row keeping a
//! multiple of 16 columns) of the layer shapes of a Transformer and of ResNet-50, B int8 (K x 256,
//! a batch of tokens or pixels) and C int32, alpha = 1, beta = 0, in the same process:
//!
//! * oxsparse: its SR-BCRS format (`oxsparseCreateSrBcrs`, vector length 8; its creation from the
//!   CSR arrays is the preprocess, timed once per copy after one untimed creation) and
//!   `oxsparseSpMM_srBcrs`, B and C row-major, compute `CUDA_R_32I`;
//! * cuSPARSE: its int8 CSR SpMM (`CUDA_R_8I` A and B, `CUDA_R_32I` C and compute, B and C
//!   row-major) with DEFAULT, CSR_ALG1, CSR_ALG2 and CSR_ALG3 (`cusparseSpMM_preprocess` before
//!   ALG1 and ALG3; an algorithm it refuses for int8 is reported unsupported), and its int8
//!   Blocked-ELL SpMM (BLOCKED_ELL_ALG1) on another matrix of the same shape and the same count of
//!   entries in 16 x 16 blocks, B and C column-major (its int8 path takes op(B) = N only with a
//!   column-major B). The speedup is against cuSPARSE's fastest of these.
//! * cuSPARSE's FP16 Blocked-ELL SpMM on that Blocked-ELL matrix (its values and B as FP16,
//!   exact; C FP32, compute FP32), reported but not in the speedup (the target is against
//!   the fastest int8 path).
//! * cuBLAS's dense int8 GEMM of the same product (`cublasGemmEx`, A dense row-major, B
//!   column-major, C row-major int32, compute `CUBLAS_COMPUTE_32I`; `cublas.rs` loads it), a
//!   yardstick: its own column "x cuBLAS" is its time over SR-BCRS's (issue 60 asks SR-BCRS to
//!   win from 70% sparsity up), not in the speedup. Without cuBLAS it is reported unsupported.
//!
//! Every int8 result (cuBLAS's too) is compared exactly with the int32 product computed on the
//! host (the Blocked-ELL ones with their own matrix's); the FP16 one within 1e-5 of sum |a b| (FP32 sums of
//! more than 2^24 / 127^2 terms may round). GB/s are against A as int8 CSR, B and C once;
//! GFLOP/s count the 2 nnz N integer operations.
//!
//! SDDMM-int (`../sddmm_int.rs`) measures the same masks' SDDMM.

pub(super) mod dlmc;

use super::prepare::{self, Preprocess};
use super::VectorOp;
use crate::api::{
    Descr, Lib, MmArgs, MmDescrs, SrBcrs, BASE_ZERO, INDEX_32I, ORDER_COL, ORDER_ROW, R_16F, R_32F, R_32I, R_8I, SPMM_BLOCKED_ELL_ALG1,
    SPMM_CSR_ALG1, SPMM_CSR_ALG2, SPMM_CSR_ALG3, SPMM_DEFAULT,
};
use crate::case::{Call, Case, Checker, Info, Prepared, Variant};
use crate::cublas;
use crate::device::DevBuf;
use crate::half;
use crate::report::Check;
use crate::timing::{median, time_once};
use crate::Result;
use dlmc::{BlockedEll, IntCsr};
use oxsparse::ffi::oxsparseHandle_t;
use std::cell::Cell;
use std::ffi::{c_int, c_void};

pub const NAME: &str = "SpMM-int";
pub const OP: VectorOp = VectorOp { name: NAME, cases };

/// Rows sharing their columns (DLMC's vector length; SR-BCRS's too).
pub(super) const V: usize = 8;
/// cuSPARSE's Blocked-ELL block side, and what each row's kept columns are a multiple of.
pub(super) const BLOCK: usize = 16;
/// B's columns.
const N: usize = 256;
pub(super) const SPARSITIES: [usize; 3] = [70, 90, 98];
/// (layer, rows = output features, cols = input features; a 3 x 3 convolution's are 9 x its input
/// channels).
pub(super) const SHAPES: [(&str, usize, usize); 5] = [
    ("Transformer attention projection", 1024, 1024),
    ("Transformer FFN up", 4096, 1024),
    ("Transformer FFN down", 1024, 4096),
    ("ResNet-50 conv 3x3", 512, 4608),
    ("ResNet-50 conv 1x1", 2048, 512),
];
/// Written over C before a checked call: 0x7F7F7F7F, far above any product (|C| < 2^27 here).
const POISON_BYTE: u8 = 0x7F;

static ONE: i32 = 1;
static ZERO: i32 = 0;
static ONE_F32: f32 = 1.0;
static ZERO_F32: f32 = 0.0;

/// alpha = 1 and beta = 0 as int32 host scalars that outlive every call.
fn scalars() -> (*const c_void, *const c_void) {
    (&ONE as *const i32 as *const c_void, &ZERO as *const i32 as *const c_void)
}

/// The label of cuSPARSE's FP16 Blocked-ELL variant.
const ELL_FP16: &str = "BLOCKED_ELL FP16 16x16";
/// The label of cuBLAS's dense int8 GEMM (a report yardstick, `report::YARDSTICKS`).
const CUBLAS: &str = "cuBLAS int8 GEMM";

/// How a variant runs: over A's int8 CSR (oxsparse builds its SR-BCRS from it) with row-major B
/// and C, over the Blocked-ELL matrix in int8 or FP16 with column-major B and C, or dense (cuBLAS:
/// A dense row-major, B column-major, C row-major as the CSR path's).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Path {
    Csr,
    EllI8,
    EllF16,
    Dense,
}

fn path(lib: Lib, v: Variant) -> Path {
    match lib {
        Lib::Ox(_) => Path::Csr,
        Lib::Cu(_) if v.label == ELL_FP16 => Path::EllF16,
        Lib::Cu(_) if v.label == CUBLAS => Path::Dense,
        Lib::Cu(_) if v.code == SPMM_BLOCKED_ELL_ALG1 => Path::EllI8,
        Lib::Cu(_) => Path::Csr,
    }
}

/// cuSPARSE's arguments over one copy's descriptors: alpha = 1, beta = 0, int32 compute (FP32
/// for the FP16 path).
fn args<'d, 'a>(d: &'d MmDescrs<'a>, alg: c_int, fp16: bool) -> MmArgs<'d, 'a> {
    if fp16 {
        d.args((&ONE_F32 as *const f32 as *const c_void, &ZERO_F32 as *const f32 as *const c_void), R_32F, alg)
    } else {
        d.args(scalars(), R_32I, alg)
    }
}

const fn cu(label: &'static str, code: c_int) -> Variant {
    Variant { label, code, extra: false }
}

const CUSPARSE: [Variant; 7] = [
    cu("CSR DEFAULT", SPMM_DEFAULT),
    cu("CSR_ALG1", SPMM_CSR_ALG1),
    cu("CSR_ALG2", SPMM_CSR_ALG2),
    cu("CSR_ALG3", SPMM_CSR_ALG3),
    cu("BLOCKED_ELL 16x16", SPMM_BLOCKED_ELL_ALG1),
    Variant { label: ELL_FP16, code: SPMM_BLOCKED_ELL_ALG1, extra: true },
    Variant { label: CUBLAS, code: -1, extra: true },
];

/// Every shape at every sparsity; with `--quick` the first shape only.
fn cases(quick: bool) -> Vec<Box<dyn Case>> {
    let shapes = if quick { &SHAPES[..1] } else { &SHAPES[..] };
    let mut v: Vec<Box<dyn Case>> = Vec::new();
    for &(layer, m, k) in shapes {
        for &pct in &SPARSITIES {
            let keep = dlmc::kept_columns(k, pct, BLOCK);
            v.push(Box::new(SpmmInt { layer, m, k, pct, keep, host: None, copies: Vec::new(), current: Cell::new(None) }));
        }
    }
    v
}

struct SpmmInt {
    layer: &'static str,
    m: usize,
    k: usize,
    pct: usize,
    /// Columns kept by every row.
    keep: usize,
    host: Option<Host>,
    copies: Vec<Operands>,
    /// The variant last prepared: the one `check` reads the output of.
    current: Cell<Option<Variant>>,
}

struct Host {
    a: IntCsr,
    /// The exact products: A B, and the Blocked-ELL matrix's times B (row-major).
    want: Vec<i32>,
    want_ell: Vec<i32>,
    /// Sum |a b| of each entry of the Blocked-ELL product: the FP16 path's error scale.
    bound_ell: Vec<i32>,
}

struct Operands {
    /// A dense (m x k int8, row-major), for cuBLAS.
    a_dense: DevBuf,
    offsets: DevBuf,
    columns: DevBuf,
    values: DevBuf,
    ell_ind: DevBuf,
    ell_values: DevBuf,
    b_row: DevBuf,
    b_col: DevBuf,
    c: DevBuf,
    c_ell: DevBuf,
    /// The FP16 path's Blocked-ELL values and column-major B, and its FP32 column-major C.
    ell_values_h: DevBuf,
    b_col_h: DevBuf,
    c_f32: DevBuf,
}

impl SpmmInt {
    fn nnz(&self) -> usize {
        self.m * self.keep
    }

    fn seed(&self) -> u64 {
        0x1D1C ^ ((self.m as u64) << 40) ^ ((self.k as u64) << 16) ^ self.pct as u64
    }

    /// `lib`'s int8 CSR descriptor of A over copy `o`.
    fn csr<'a>(&self, lib: Lib<'a>, o: &Operands) -> Result<Descr<'a>> {
        let (m, k, nnz) = (self.m as i64, self.k as i64, self.nnz() as i64);
        lib.create_csr(m, k, nnz, o.offsets.ptr, o.columns.ptr, o.values.ptr, INDEX_32I, INDEX_32I, BASE_ZERO, R_8I)
    }

    /// B and C: row-major for CSR (and SR-BCRS), column-major for Blocked-ELL.
    fn dense<'a>(&self, lib: Lib<'a>, o: &Operands, path: Path) -> Result<(Descr<'a>, Descr<'a>)> {
        let (m, k, n) = (self.m as i64, self.k as i64, N as i64);
        Ok(match path {
            Path::Csr | Path::Dense => {
                (lib.create_dn_mat(k, n, n, o.b_row.ptr, R_8I, ORDER_ROW)?, lib.create_dn_mat(m, n, n, o.c.ptr, R_32I, ORDER_ROW)?)
            }
            Path::EllI8 => {
                (lib.create_dn_mat(k, n, k, o.b_col.ptr, R_8I, ORDER_COL)?, lib.create_dn_mat(m, n, m, o.c_ell.ptr, R_32I, ORDER_COL)?)
            }
            Path::EllF16 => {
                (lib.create_dn_mat(k, n, k, o.b_col_h.ptr, R_16F, ORDER_COL)?, lib.create_dn_mat(m, n, m, o.c_f32.ptr, R_32F, ORDER_COL)?)
            }
        })
    }

    /// oxsparse: an SR-BCRS object per copy (its creation timed as the preprocess), then its SpMM.
    fn prepare_ox<'s>(&'s self, lib: Lib<'s>, h: oxsparseHandle_t) -> Result<Prepared<'s>> {
        let vl = V as c_int;
        // Untimed first: module loading stays out of the times.
        drop(SrBcrs::create(h, &self.csr(lib, &self.copies[0])?, vl)?);
        let mut times = Vec::with_capacity(self.copies.len());
        let mut calls: Vec<Call<'s>> = Vec::with_capacity(self.copies.len());
        for o in &self.copies {
            let a = self.csr(lib, o)?;
            let (b, c) = self.dense(lib, o, Path::Csr)?;
            let mut made = None;
            times.push(time_once(|| {
                made = Some(SrBcrs::create(h, &a, vl)?);
                Ok(())
            })?);
            let object = made.ok_or("oxsparseCreateSrBcrs made nothing")?;
            object.prepare(h, scalars(), &b, &c, R_32I)?;
            if calls.is_empty() {
                let stored = object.vectors()? as usize * V;
                eprintln!("oxsparse-bench: {NAME}: SR-BCRS of {} entries stores {stored} values, padding included", self.nnz());
            }
            calls.push(Box::new(move || object.spmm(h, scalars(), &b, &c, R_32I)));
        }
        Ok(Prepared { calls, resets: Vec::new(), keep: Vec::new(), preprocess_ms: Some(median(&times)) })
    }

    /// cuBLAS's dense int8 GEMM of the same product, over each copy's dense A, column-major B and
    /// C; unsupported (with the places tried) where cuBLAS is not found.
    fn prepare_cublas<'s>(&'s self, cusparse_path: &str) -> Result<Prepared<'s>> {
        let gemm = cublas::get(cusparse_path)?;
        let shape = (self.m, N, self.k);
        let calls: Vec<Call<'s>> = self
            .copies
            .iter()
            .map(|o| {
                let gemm = gemm.clone();
                Box::new(move || gemm.gemm_i8(shape, o.a_dense.ptr, o.b_col.ptr, o.c.ptr)) as Call<'s>
            })
            .collect();
        Ok(Prepared { calls, resets: Vec::new(), keep: Vec::new(), preprocess_ms: None })
    }

    /// cuSPARSE: CSR with algorithm `alg`, or Blocked-ELL; one descriptor set per copy.
    fn prepare_cu<'s>(&'s self, lib: Lib<'s>, alg: c_int, path: Path) -> Result<Prepared<'s>> {
        let (m, k, block, ell_cols) = (self.m as i64, self.k as i64, BLOCK as i64, self.keep as i64);
        let mut sets = Vec::with_capacity(self.copies.len());
        for o in &self.copies {
            let a = match path {
                Path::Csr | Path::Dense => self.csr(lib, o)?,
                Path::EllI8 => lib.create_blocked_ell(m, k, block, ell_cols, o.ell_ind.ptr, o.ell_values.ptr, R_8I)?,
                Path::EllF16 => lib.create_blocked_ell(m, k, block, ell_cols, o.ell_ind.ptr, o.ell_values_h.ptr, R_16F)?,
            };
            let (b, c) = self.dense(lib, o, path)?;
            sets.push(MmDescrs { a, b, c });
        }
        let fp16 = path == Path::EllF16;
        let run = |d: &MmDescrs<'s>, buffer: u64| lib.spmm_preprocess(&args(d, alg, fp16), buffer);
        let preprocess = alg == SPMM_CSR_ALG1 || alg == SPMM_CSR_ALG3;
        prepare::with_workspaces(
            sets,
            |d| lib.spmm_buffer_size(&args(d, alg, fp16)),
            preprocess.then_some(Preprocess { run: &run, min_samples: 1 }),
            move |d, buffer| lib.spmm(&args(d, alg, fp16), buffer),
        )
    }
}

impl Case for SpmmInt {
    fn info(&self) -> Info {
        let (m, k, nnz, n) = (self.m as u64, self.k as u64, self.nnz() as u64, N as u64);
        let csr = 4 * (m + 1) + 5 * nnz;
        // cuBLAS's dense A.
        let dense = m * k;
        // Its block columns, int8 and FP16 values.
        let ell = 4 * (m / BLOCK as u64) * (self.keep / BLOCK) as u64 + 3 * nnz;
        Info {
            op: NAME,
            variant: format!("int8 -> int32, N={N}, {}% sparse, V={V}", self.pct),
            input: format!("{} {m}x{k}, {} of {k} columns a row", self.layer, self.keep),
            group: "DLMC-like".into(),
            rows: m,
            cols: k,
            nnz,
            traffic_bytes: csr + k * n + 4 * m * n,
            copy_bytes: csr + ell + dense + 4 * k * n + 12 * m * n,
            flops: 2 * nnz * n,
            set: "generated",
            summary_groups: vec![format!("int8 N={N}, 70/90/98% sparse"), format!("int8 N={N}, {}% sparse", self.pct)],
            chart_series: None,
        }
    }

    fn variants(&self, lib: Lib) -> Vec<Variant> {
        match lib {
            Lib::Ox(_) => vec![Variant { label: "SR-BCRS V=8", code: 0, extra: false }],
            Lib::Cu(_) => CUSPARSE.to_vec(),
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let (m, k, seed) = (self.m, self.k, self.seed());
        let a = dlmc::vector_sparse(m, k, V, self.keep, seed);
        let ell: BlockedEll = dlmc::blocked_ell(m, k, BLOCK, self.keep, seed ^ 0xE11);
        let b = dlmc::dense(k, N, seed ^ 0xB);
        let b_col = dlmc::column_major(&b, k, N);
        let ell_csr = ell.to_csr();
        let (want, want_ell) = (dlmc::product(&a, &b, N), dlmc::product(&ell_csr, &b, N));
        let abs = |v: &[i8]| v.iter().map(|x| x.abs()).collect::<Vec<i8>>();
        let bound_ell = dlmc::product(&IntCsr { values: abs(&ell_csr.values), ..ell_csr }, &abs(&b), N);
        let half = |v: &[i8]| v.iter().map(|&x| half::from_f32(x as f32)).collect::<Vec<u16>>();
        let (ell_values_h, b_col_h) = (half(&ell.values), half(&b_col));
        let mut a_dense = vec![0i8; m * k];
        for r in 0..m {
            for e in a.offsets[r] as usize..a.offsets[r + 1] as usize {
                a_dense[r * k + a.columns[e] as usize] = a.values[e];
            }
        }
        for _ in 0..copies {
            self.copies.push(Operands {
                a_dense: DevBuf::upload(&a_dense)?,
                offsets: DevBuf::upload(&a.offsets)?,
                columns: DevBuf::upload(&a.columns)?,
                values: DevBuf::upload(&a.values)?,
                ell_ind: DevBuf::upload(&ell.col_ind)?,
                ell_values: DevBuf::upload(&ell.values)?,
                b_row: DevBuf::upload(&b)?,
                b_col: DevBuf::upload(&b_col)?,
                c: DevBuf::new(4 * m * N)?,
                c_ell: DevBuf::new(4 * m * N)?,
                ell_values_h: DevBuf::upload(&ell_values_h)?,
                b_col_h: DevBuf::upload(&b_col_h)?,
                c_f32: DevBuf::new(4 * m * N)?,
            });
        }
        self.host = Some(Host { a, want, want_ell, bound_ell });
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, v: Variant) -> Result<Prepared<'s>> {
        self.current.set(Some(v));
        match lib {
            Lib::Ox(h) => self.prepare_ox(lib, h),
            Lib::Cu(c) if path(lib, v) == Path::Dense => self.prepare_cublas(&c.path),
            Lib::Cu(_) => self.prepare_cu(lib, v.code, path(lib, v)),
        }
    }

    /// cuBLAS not found: reported unsupported, not failed.
    fn refused(&self, _lib: &str, error: &str) -> bool {
        error.contains(cublas::NOT_LOADED)
    }

    fn poison(&self) -> Result<()> {
        self.copies[0].c.fill(POISON_BYTE)?;
        self.copies[0].c_ell.fill(POISON_BYTE)?;
        self.copies[0].c_f32.fill(POISON_BYTE)
    }

    fn check(&self, lib: Lib) -> Result<Check> {
        let host = self.host.as_ref().ok_or("SpMM-int checked before its inputs were made")?;
        let path = self.current.get().map_or(Path::Csr, |v| path(lib, v));
        let (m, o) = (self.m, &self.copies[0]);
        let mut checker = Checker::new();
        if path == Path::EllF16 {
            let got: Vec<f32> = o.c_f32.download(m * N)?;
            for r in 0..m {
                for j in 0..N {
                    let (want, bound) = (host.want_ell[r * N + j] as f64, host.bound_ell[r * N + j] as f64);
                    checker.summed(got[j * m + r], want, bound, 1e-5, 0.0, || format!("C[{r}][{j}]"));
                }
            }
        } else {
            let ell = path == Path::EllI8;
            let got: Vec<i32> = (if ell { &o.c_ell } else { &o.c }).download(m * N)?;
            let want = if ell { &host.want_ell } else { &host.want };
            for r in 0..m {
                for j in 0..N {
                    let g = if ell { got[j * m + r] } else { got[r * N + j] };
                    checker.value(g, want[r * N + j] as f64, 0.0, || format!("C[{r}][{j}]"));
                }
            }
        }
        let scope = matches!(path, Path::EllI8 | Path::EllF16).then(|| {
            format!(
                "Blocked-ELL: another matrix with the same {} entries in {BLOCK} x {BLOCK} blocks, against its own exact product",
                host.a.nnz()
            )
        });
        Ok(checker.finish(scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifteen_cases_of_small_operands() {
        let cs = cases(false);
        assert_eq!(cs.len(), SHAPES.len() * SPARSITIES.len());
        assert_eq!(cases(true).len(), SPARSITIES.len());
        let i = cs[1].info();
        assert_eq!((i.op, i.rows, i.cols, i.nnz), (NAME, 1024, 1024, 1024 * 96));
        assert_eq!(i.variant, "int8 -> int32, N=256, 90% sparse, V=8");
        assert_eq!(i.input, "Transformer attention projection 1024x1024, 96 of 1024 columns a row");
        assert_eq!(i.flops, 2 * 1024 * 96 * 256);
        assert_eq!(i.traffic_bytes, 4 * 1025 + 5 * 1024 * 96 + 1024 * 256 + 4 * 1024 * 256);
        assert_eq!(i.summary_groups, vec!["int8 N=256, 70/90/98% sparse", "int8 N=256, 90% sparse"]);
        let ell = 4 * 64 * 6 + 3 * 1024 * 96;
        assert_eq!(
            i.copy_bytes,
            4 * 1025 + 5 * 1024 * 96 + ell + 1024 * 1024 + 4 * 1024 * 256 + 12 * 1024 * 256,
            "A four times (CSR, Blocked-ELL in two precisions, dense), B three times, C three times"
        );
        for c in &cs {
            let i = c.info();
            assert!(i.rows % BLOCK as u64 == 0 && i.cols % BLOCK as u64 == 0 && (i.nnz / i.rows) % BLOCK as u64 == 0, "{}", i.input);
            assert!(i.copy_bytes < 64 << 20, "{}: small enough to rotate among many copies", i.input);
        }
    }

    #[test]
    fn the_variants_name_every_cusparse_path() {
        let labels: Vec<&str> = CUSPARSE.iter().map(|v| v.label).collect();
        assert_eq!(labels, ["CSR DEFAULT", "CSR_ALG1", "CSR_ALG2", "CSR_ALG3", "BLOCKED_ELL 16x16", ELL_FP16, CUBLAS]);
        assert_eq!((CUSPARSE[4].code, CUSPARSE[5].code), (13, 13));
        assert_eq!(CUSPARSE.iter().filter(|v| v.extra).count(), 2, "FP16 and cuBLAS are reported, not in the int8 speedup");
        assert!(crate::report::YARDSTICKS.iter().any(|(label, _)| *label == CUBLAS), "cuBLAS gets its ratio column");
        let paths: Vec<Path> = CUSPARSE.iter().map(|&v| path(Lib::Ox(std::ptr::null_mut()), v)).collect();
        assert!(paths.iter().all(|&p| p == Path::Csr), "oxsparse always runs over CSR");
    }
}
