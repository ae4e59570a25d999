//! The command line: options, their defaults and the usage text.

use crate::masks::Mask;
use crate::ops;
use crate::sources::{MaskSet, RmatSet, Source};
use crate::Result;
use oxsparse::types::{MathMode, ReorderMode};
use std::path::PathBuf;

pub const USAGE: &str = "usage: oxsparse-bench [options]
Inputs (naming any replaces the default set: ../shared/matrices plus the R-MAT set, plus for SpMV
the stencil of --spmv-stencil and for SDDMM the attention masks):
  --matrices DIR|FILE...   Matrix Market files (.mtx or .mtx.gz); a DIR means its MANIFEST.tsv, or
                           every .mtx[.gz] in it
  --rmat-set none|small|all  the R-MAT graphs sized like ogbl-ddi, ogbn-arxiv and YouTube (small:
                           up to 6M nnz), then ogbn-proteins, Reddit and ogbn-products (all, the
                           default; generating those takes several GiB of host memory)
  --rmat NODES:EDGES       an R-MAT graph (a=0.57 b=0.19 c=0.19, duplicates summed); repeatable
  --uniform ROWS:COLS:DENSITY   a uniform random matrix; repeatable
  --banded N:HALF_WIDTH    a banded matrix; repeatable
                           (SpMM-brcv measures banded matrices only: these, and its band set of
                           2^20 rows, half-width 16 and 64, full and half full, which joins a
                           default run and any run whose --ops names SpMM-brcv)
  --blockdiag N:BLOCK:DENSITY   N rows of diagonal BLOCK x BLOCK blocks, DENSITY inside them
  --stencil NX             the 27-point stencil of an NX^3 grid (NX^3 rows); repeatable
  --attention-set none|all the attention masks, measured by SDDMM alone: sliding windows (L = 4096,
                           16384, 65536; w = 64, 256), block-sparse (64 x 64 blocks, 10% kept plus
                           the diagonal) and random (1%, 5%) at L = 4096 and 16384; in the default
                           set when SDDMM runs; all names inputs (the default set is then left out)
  --window L:W             an L x L sliding-window mask, (i, j) iff |i - j| <= W/2; repeatable
  --block-mask L:B:KEEP    a block-sparse mask: B x B blocks, about KEEP of each block row's kept,
                           and the diagonal block; repeatable
  --random-mask L:DENSITY  a random mask, DENSITY of each row; repeatable (every mask: at most 64M
                           entries, measured by SDDMM alone)
  --spmv-stencil NX|none   the 27-point stencil that SpMV alone measures, reported as the set
                           \"stencil\" (default 80: 512,000 rows, 13.5M nnz, in the default set;
                           none when inputs are named or with --quick)
  --quick                  a smoke test: five small generated matrices, 2^20-long vectors, and 5
                           runs after 1 warm-up unless --runs / --warmup say otherwise
Measuring:
  --ops NAME,...           only these operations (SparseToDense, Csr2csc, DenseToSparse, SpMM, SpMM-brcv, SpMV, SDDMM, Gather, SpVV, Xcoo2csr, Xcsr2coo, Xcsrsort, XcoosortByRow, SpMM-int, SDDMM-int, SpMM-blocked)
                           (SpMM-int makes its own inputs: int8 DLMC-like weights of Transformer
                           and ResNet-50 layers, 70/90/98% sparse, times an int8 B of 256 columns,
                           against cuSPARSE's int8 CSR and Blocked-ELL (FP16 Blocked-ELL reported
                           beside them); SDDMM-int computes int8 A B (K = 64, 256) at the same
                           masks' entries with SR-BCRS, against cuSPARSE's FP16 and FP32 CSR SDDMM,
                           with oxsparse's FP16 CSR SDDMM beside it (column x FP16); alone, with
                           --rmat-set none, they read no matrix files. SpMM-int also times
                           cuBLAS's dense int8 GEMM of the same product: column x cuBLAS. SpMM-blocked
                           makes its own too: FEM-like 3x3 / 4x4 BSR of ~1.5M rows, FP32 and FP64,
                           against cuSPARSE's BSR (and CSR), and banded Blocked-ELL of 2^20 rows in
                           16x16 / 32x32 blocks, FP16 and FP32, against its Blocked-ELL; N = 32, 64,
                           128)
  --runs N                 timed calls per case, median reported (default 20)
  --warmup N               untimed calls before them (default 3; at least two of every copy
                           of the operands the calls rotate among, unless N is 0)
  --passes N               measure every variant of a case N times in turn (all of them, then all
                           again), the median taken over all N x runs calls: a pause of the
                           machine then falls on one pass of every library, not on one library's
                           whole sample (default 1)
  --dense-cap-gib G        skip an SpMM case whose dense B and C (one copy) exceed G GiB, an SDDMM
                           case whose A and B do (default 8)
  --spmm-precisions P,...  only SpMM's configurations of these precisions (fp32, fp64, fp16;
                           default all)
  --only TEXT              only the generated-input cases (the --ops that make their own inputs)
                           whose variant or input contains TEXT, e.g. BLOCKED_ELL (default all)
  --sddmm-k K,...          SDDMM's inner dimension, A m x K and B K x n, each K measured in FP32
                           and with FP16 A and B (default 32,64,128,256)
  --sddmm-layouts L,...    SDDMM's layouts of A and B, opA = opB = N, each measured for both
                           libraries with the same descriptors: fast (A row-major, B column-major,
                           cuSPARSE's fast layout) and row (both row-major, as PyTorch's
                           sampled_addmm passes them; its rows say B row-major) (default fast)
  --spmv-alpha X, --spmv-beta X   SpMV's alpha and beta in Y = alpha A X + beta Y (default 0.7
                           and 0; with beta != 0 Y starts from random values)
  --math-mode default|tf32|fp32_accurate   oxsparse's math mode (oxsparseSetMathMode, replacing
                           OXSPARSE_MATH_MODE): may its FP32 SpMM use TF32 tensor cores (tf32; its
                           check then allows 2^-10 + 1e-5 of sum |a b|, not 1e-5) or 3xTF32
                           (fp32_accurate); cuSPARSE is unaffected (default: default)
  --reorder none|affinity  oxsparse's reorder mode (oxsparseSetReorderMode, replacing
                           OXSPARSE_REORDER): may SpMM's preprocess reorder A's rows for tensor
                           cores; its time is part of the preprocess time (default: none)
Output (the table always goes to stdout, progress to stderr):
  --json PATH, --csv PATH  also write the results there
  --svg PATH               bar charts of oxsparse's speedup: SpMM (FP32, row-major, N=32/128/256),
                           SpMV (FP32, FP64), SDDMM (FP32, a bar per K), one under the other
Environment: OXSPARSE_BENCH_CUSPARSE=/path/to/libcusparse.so.12 overrides the search for cuSPARSE,
OXSPARSE_BENCH_CUBLAS=/path/to/libcublas.so.12 (or .13) the search for cuBLAS (SpMM-int).";

#[derive(Debug, PartialEq)]
pub struct Options {
    /// Files and directories, expanded later.
    pub paths: Vec<PathBuf>,
    pub generated: Vec<Source>,
    /// The R-MAT set asked for; None leaves it to the default (all, when no input is named).
    pub rmat_set: Option<RmatSet>,
    /// The attention masks asked for; None leaves them to the default (all, when no input is
    /// named and SDDMM runs). All names inputs.
    pub mask_set: Option<MaskSet>,
    pub quick: bool,
    pub ops: Option<Vec<&'static str>>,
    pub runs: usize,
    pub warmup: usize,
    pub passes: usize,
    pub dense_cap_bytes: u64,
    /// SpMM's precisions to measure (upper-case names, as `FP16`); empty for all.
    pub spmm_precisions: Vec<&'static str>,
    /// Only the generated-input cases whose variant or input contains this text.
    pub only: Option<String>,
    /// SDDMM's K's; empty for the default ones.
    pub sddmm_k: Vec<usize>,
    /// SDDMM's layouts of A and B; empty for the default (fast) one.
    pub sddmm_layouts: Vec<ops::SddmmLayout>,
    pub spmv: ops::SpmvScalars,
    /// The grid size of SpMV's stencil: Some(None) for none, None to leave it to the default.
    pub spmv_stencil: Option<Option<usize>>,
    /// oxsparse's math mode for the whole run.
    pub math_mode: MathMode,
    /// oxsparse's reorder mode for the whole run.
    pub reorder: ReorderMode,
    pub json: Option<PathBuf>,
    pub csv: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

impl Options {
    /// Whether any input was named (which replaces the default set): files, generators, or
    /// the attention masks.
    pub fn inputs_named(&self) -> bool {
        !self.paths.is_empty() || !self.generated.is_empty() || self.mask_set == Some(MaskSet::All)
    }
}

pub fn parse_args(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        paths: vec![],
        generated: vec![],
        rmat_set: None,
        mask_set: None,
        quick: false,
        ops: None,
        runs: 0,
        warmup: 0,
        passes: 1,
        dense_cap_bytes: 8 << 30,
        spmm_precisions: vec![],
        only: None,
        sddmm_k: vec![],
        sddmm_layouts: vec![],
        spmv: ops::SPMV_DEFAULT_SCALARS,
        spmv_stencil: None,
        math_mode: MathMode::OXSPARSE_DEFAULT_MATH,
        reorder: ReorderMode::OXSPARSE_REORDER_NONE,
        json: None,
        csv: None,
        svg: None,
    };
    let (mut runs, mut warmup) = (None, None);
    let mut i = 0;
    let value = |i: &mut usize, flag: &str| -> Result<String> {
        *i += 1;
        args.get(*i).filter(|v| !v.starts_with("--")).cloned().ok_or(format!("{flag} needs a value"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-h" | "--help" => return Ok(None),
            "--quick" => o.quick = true,
            "--matrices" => {
                let start = o.paths.len();
                while args.get(i + 1).is_some_and(|v| !v.starts_with("--")) {
                    i += 1;
                    o.paths.push(PathBuf::from(&args[i]));
                }
                if o.paths.len() == start {
                    return Err("--matrices needs at least one DIR or FILE".into());
                }
            }
            "--rmat-set" => {
                o.rmat_set = Some(match value(&mut i, a)?.as_str() {
                    "none" => RmatSet::None,
                    "small" => RmatSet::Small,
                    "all" => RmatSet::All,
                    other => return Err(format!("--rmat-set: expected none, small or all, got {other:?}")),
                })
            }
            "--rmat" => {
                let n = numbers(&value(&mut i, a)?, 2, 2, a)?;
                o.generated.push(Source::Rmat { nodes: n[0] as usize, edges: n[1] as usize, name: None });
            }
            "--uniform" => {
                let n = numbers(&value(&mut i, a)?, 3, 2, a)?;
                o.generated.push(Source::Uniform { rows: n[0] as usize, cols: n[1] as usize, density: n[2] });
            }
            "--banded" => {
                let n = numbers(&value(&mut i, a)?, 2, 2, a)?;
                o.generated.push(Source::Banded { n: n[0] as usize, half_width: n[1] as usize });
            }
            "--blockdiag" => {
                let n = numbers(&value(&mut i, a)?, 3, 2, a)?;
                if n[1] == 0.0 || n[2] > 1.0 {
                    return Err(format!("{a}: the block size must be at least 1 and the density at most 1"));
                }
                o.generated.push(Source::BlockDiag { n: n[0] as usize, block: n[1] as usize, density: n[2] });
            }
            "--stencil" => {
                let n = numbers(&value(&mut i, a)?, 1, 1, a)?;
                o.generated.push(Source::Stencil { nx: n[0] as usize });
            }
            "--attention-set" => {
                o.mask_set = Some(match value(&mut i, a)?.as_str() {
                    "none" => MaskSet::None,
                    "all" => MaskSet::All,
                    other => return Err(format!("--attention-set: expected none or all, got {other:?}")),
                })
            }
            "--window" | "--block-mask" | "--random-mask" => {
                let v = value(&mut i, a)?;
                let mask = match a {
                    "--window" => numbers(&v, 2, 2, a).map(|n| Mask::Window { len: n[0] as usize, width: n[1] as usize }),
                    "--block-mask" => numbers(&v, 3, 2, a).map(|n| Mask::Block { len: n[0] as usize, block: n[1] as usize, keep: n[2] }),
                    _ => numbers(&v, 2, 1, a).map(|n| Mask::Random { len: n[0] as usize, density: n[1] }),
                }?;
                mask.check().map_err(|e| format!("{a}: {e}"))?;
                o.generated.push(Source::Mask(mask));
            }
            "--ops" => {
                let known = ops::names();
                let mut chosen = Vec::new();
                for name in value(&mut i, a)?.split(',').filter(|s| !s.is_empty()) {
                    let op = known.iter().find(|k| k.eq_ignore_ascii_case(name));
                    chosen.push(*op.ok_or(format!("unknown operation {name:?} (known: {})", known.join(", ")))?);
                }
                o.ops = Some(chosen);
            }
            "--runs" => runs = Some(count(&value(&mut i, a)?, a)?),
            "--warmup" => warmup = Some(count(&value(&mut i, a)?, a)?),
            "--passes" => {
                o.passes = count(&value(&mut i, a)?, a)?;
                if o.passes == 0 {
                    return Err("--passes must be at least 1".into());
                }
            }
            "--dense-cap-gib" => {
                let v = value(&mut i, a)?;
                let gib: f64 =
                    v.parse().ok().filter(|g: &f64| g.is_finite() && *g > 0.0).ok_or(format!("{a}: {v:?} is not a positive number"))?;
                o.dense_cap_bytes = (gib * (1u64 << 30) as f64) as u64;
            }
            "--only" => o.only = Some(value(&mut i, a)?),
            "--spmm-precisions" => {
                for name in value(&mut i, a)?.split(',').filter(|s| !s.is_empty()) {
                    let p = ["FP32", "FP64", "FP16"].into_iter().find(|k| k.eq_ignore_ascii_case(name));
                    o.spmm_precisions.push(p.ok_or(format!("{a}: unknown precision {name:?} (known: fp32, fp64, fp16)"))?);
                }
            }
            "--sddmm-k" => {
                for k in value(&mut i, a)?.split(',').filter(|s| !s.is_empty()) {
                    let k: usize = k.parse().ok().filter(|&k| k > 0).ok_or(format!("{a}: {k:?} is not a positive whole number"))?;
                    if !o.sddmm_k.contains(&k) {
                        o.sddmm_k.push(k);
                    }
                }
                if o.sddmm_k.is_empty() {
                    return Err(format!("{a} needs at least one K"));
                }
            }
            "--sddmm-layouts" => {
                for name in value(&mut i, a)?.split(',').filter(|s| !s.is_empty()) {
                    let l = ops::SddmmLayout::parse(name).ok_or(format!("{a}: unknown layout {name:?} (known: fast, row)"))?;
                    if !o.sddmm_layouts.contains(&l) {
                        o.sddmm_layouts.push(l);
                    }
                }
                if o.sddmm_layouts.is_empty() {
                    return Err(format!("{a} needs at least one layout"));
                }
            }
            "--spmv-stencil" => {
                let v = value(&mut i, a)?;
                o.spmv_stencil = Some(if v == "none" { None } else { Some(numbers(&v, 1, 1, a)?[0] as usize).filter(|&n| n > 0) });
            }
            "--spmv-alpha" | "--spmv-beta" => {
                // Not `value`: a negative number starts with '-', never with "--".
                i += 1;
                let v = args.get(i).ok_or(format!("{a} needs a value"))?;
                let x: f64 = v.parse().ok().filter(|x: &f64| x.is_finite()).ok_or(format!("{a}: {v:?} is not a finite number"))?;
                if a == "--spmv-alpha" {
                    o.spmv.alpha = x;
                } else {
                    o.spmv.beta = x;
                }
            }
            "--math-mode" => {
                let v = value(&mut i, a)?;
                o.math_mode = MathMode::parse(&v).ok_or(format!("{a}: expected default, tf32 or fp32_accurate, got {v:?}"))?;
            }
            "--reorder" => {
                let v = value(&mut i, a)?;
                o.reorder = ReorderMode::parse(&v).ok_or(format!("{a}: expected none or affinity, got {v:?}"))?;
            }
            "--json" => o.json = Some(PathBuf::from(value(&mut i, a)?)),
            "--csv" => o.csv = Some(PathBuf::from(value(&mut i, a)?)),
            "--svg" => o.svg = Some(PathBuf::from(value(&mut i, a)?)),
            other => return Err(format!("unknown argument {other:?}")),
        }
        i += 1;
    }
    // --quick is a smoke test: few runs unless asked for more.
    o.runs = runs.unwrap_or(if o.quick { 5 } else { 20 });
    o.warmup = warmup.unwrap_or(if o.quick { 1 } else { 3 });
    if o.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    Ok(Some(o))
}

/// The name `--math-mode` takes for a mode, as the report records it.
pub fn math_mode_name(m: MathMode) -> &'static str {
    match m {
        MathMode::OXSPARSE_DEFAULT_MATH => "default",
        MathMode::OXSPARSE_TF32_TENSOR_OP_MATH => "tf32",
        MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH => "fp32_accurate",
    }
}

/// The name `--reorder` takes for a mode, as the report records it.
pub fn reorder_name(m: ReorderMode) -> &'static str {
    match m {
        ReorderMode::OXSPARSE_REORDER_NONE => "none",
        ReorderMode::OXSPARSE_REORDER_DATA_AFFINITY => "affinity",
    }
}

fn count(s: &str, flag: &str) -> Result<usize> {
    s.parse().map_err(|_| format!("{flag}: {s:?} is not a count"))
}

/// "A[:B[:C]]" as `n` non-negative numbers, the first `integers` of them whole.
fn numbers(s: &str, n: usize, integers: usize, flag: &str) -> Result<Vec<f64>> {
    let v: Vec<f64> =
        s.split(':').map(|x| x.parse::<f64>()).collect::<std::result::Result<_, _>>().map_err(|_| format!("{flag}: bad value {s:?}"))?;
    if v.len() != n || v.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err(format!("{flag}: expected {n} non-negative numbers separated by ':', got {s:?}"));
    }
    if v[..integers.min(n)].iter().any(|x| x.fract() != 0.0) {
        return Err(format!("{flag}: sizes must be whole numbers, got {s:?}"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests;
