//! Where the matrices come from: Matrix Market files (a folder's MANIFEST.tsv), the R-MAT set
//! sized like the graphs of the cuSPARSE reference run (/work/shared/measurements), SpMV's
//! stencil, SDDMM's attention masks (`masks.rs`), and the generators; and reading or generating
//! one.

use crate::cli::Options;
use crate::masks::{Mask, ATTENTION_SET};
use crate::matrix::Matrix;
use crate::{gen, mtx, ops, rmat, Result};
use std::path::{Path, PathBuf};

/// The seed of every random value given to a matrix (pattern files, generators).
pub const MATRIX_SEED: u64 = 0x0A5_5EED;
pub const DEFAULT_MATRICES: &str = "../shared/matrices";
/// The grid of SpMV's default stencil: 80^3 = 512,000 rows, 238^3 = 13.5M nnz (at least 10M, as
/// the issue asks, while the rotation still gets a copy in device memory with room to spare).
pub const SPMV_STENCIL_NX: usize = 80;

/// SpMM-brcv's band set (issue 59): 1,048,576 rows, half-widths 16 and 64, full and half full.
pub const BAND_SET: [(usize, usize, u32); 4] = [(1 << 20, 16, 100), (1 << 20, 16, 50), (1 << 20, 64, 100), (1 << 20, 64, 50)];

/// Where a matrix comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    File {
        path: PathBuf,
        group: String,
    },
    /// `name` is set for the graphs of the R-MAT set.
    Rmat {
        nodes: usize,
        edges: usize,
        name: Option<&'static str>,
    },
    Uniform {
        rows: usize,
        cols: usize,
        density: f64,
    },
    Banded {
        n: usize,
        half_width: usize,
    },
    BlockDiag {
        n: usize,
        block: usize,
        density: f64,
    },
    Stencil {
        nx: usize,
    },
    /// A band with holes (`gen::band_with_holes`): the band set of SpMM-brcv, measured by it alone.
    Band {
        n: usize,
        half_width: usize,
        fill_percent: u32,
    },
    /// The stencil of SpMV's default set: measured by SpMV alone, reported as the set "stencil".
    SpmvStencil {
        nx: usize,
    },
    /// An attention mask: measured by SDDMM alone, reported as the set "attention".
    Mask(Mask),
}

/// The attention masks of `--attention-set`: none, or [`ATTENTION_SET`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskSet {
    None,
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RmatSet {
    None,
    /// Those with at most [`SMALL_RMAT_NNZ`] entries.
    Small,
    All,
}

/// One graph of the R-MAT set, sized like a real graph: its node count, and the nnz (after
/// duplicates are summed) that the cuSPARSE reference run printed for it.
pub struct RmatGraph {
    pub name: &'static str,
    pub nodes: usize,
    /// Edges drawn: the real graph's edge count, both directions of an undirected graph's edges
    /// (as a GNN aggregates over them), except where noted.
    pub edges: usize,
    pub reference_nnz: usize,
}

/// Smallest first. Real edge counts: ogbl-ddi 1,334,889 undirected; ogbn-arxiv 1,166,243
/// directed; YouTube 2,990,443 undirected; ogbn-proteins 39,561,252 undirected; Reddit
/// 114,615,892 (both directions already); ogbn-products 61,859,140 undirected. On the two dense
/// graphs, ddi and proteins, our generator repeats more edges than the reference run's did (the
/// doubled counts give 943k and 48.6M nnz), so their draws are raised until the nnz matches;
/// the others land within 2% of the reference nnz as they are.
pub const RMAT_SET: [RmatGraph; 6] = [
    RmatGraph { name: "ddi_like", nodes: 4_267, edges: 2_920_000, reference_nnz: 998_009 },
    RmatGraph { name: "arxiv_like", nodes: 169_343, edges: 1_166_243, reference_nnz: 1_136_257 },
    RmatGraph { name: "youtube_like", nodes: 1_138_499, edges: 5_980_886, reference_nnz: 5_924_958 },
    RmatGraph { name: "proteins_like", nodes: 132_534, edges: 95_800_000, reference_nnz: 56_588_186 },
    RmatGraph { name: "reddit_like", nodes: 232_965, edges: 114_615_892, reference_nnz: 78_579_111 },
    RmatGraph { name: "products_like", nodes: 2_449_029, edges: 123_718_280, reference_nnz: 118_458_030 },
];

/// The largest nnz in `--rmat-set small`.
pub const SMALL_RMAT_NNZ: usize = 6_000_000;

fn rmat_sources(set: RmatSet) -> Vec<Source> {
    let keep = |g: &&RmatGraph| match set {
        RmatSet::None => false,
        RmatSet::Small => g.reference_nnz <= SMALL_RMAT_NNZ,
        RmatSet::All => true,
    };
    RMAT_SET.iter().filter(keep).map(|g| Source::Rmat { nodes: g.nodes, edges: g.edges, name: Some(g.name) }).collect()
}

/// The matrix files of `paths`: a directory lists its MANIFEST.tsv (with each file's class) or,
/// without one, every .mtx / .mtx.gz file in it, sorted by name.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<Source>> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            if !p.is_file() {
                return Err(format!("{}: no such file or directory", p.display()));
            }
            out.push(Source::File { path: p.clone(), group: String::new() });
            continue;
        }
        let manifest = p.join("MANIFEST.tsv");
        if let Ok(text) = std::fs::read_to_string(&manifest) {
            for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
                let mut f = line.split('\t');
                let (file, group) = (f.next().unwrap_or(""), f.next().unwrap_or(""));
                out.push(Source::File { path: p.join(file), group: group.into() });
            }
            continue;
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| f.to_string_lossy().ends_with(".mtx") || f.to_string_lossy().ends_with(".mtx.gz"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|path| Source::File { path, group: String::new() }));
    }
    Ok(out)
}

/// The matrices to measure: those named, else the small generated ones of `--quick`, else the
/// default folder; then the R-MAT set (all of it by default when no input is named and not
/// `--quick`; as `--rmat-set` says when given); then, when they run, SpMV's stencil and SDDMM's
/// attention masks (all by default when no input is named and not `--quick`; as
/// `--attention-set` says when given), and SpMM-brcv's band set (in a default run, or when
/// `--ops` names SpMM-brcv).
pub fn sources(opts: &Options) -> Result<Vec<Source>> {
    let mut v = if opts.inputs_named() {
        let mut v = expand(&opts.paths)?;
        v.extend(opts.generated.iter().cloned());
        v
    } else if opts.quick {
        vec![
            Source::Rmat { nodes: 4096, edges: 40960, name: None },
            Source::Uniform { rows: 3000, cols: 2000, density: 0.01 },
            Source::Banded { n: 4096, half_width: 8 },
            Source::BlockDiag { n: 4096, block: 64, density: 0.25 },
            Source::Stencil { nx: 16 },
        ]
    } else if opts.ops.as_ref().is_some_and(|o| {
        !o.is_empty() && o.iter().all(|op| [ops::SPMM_BRCV, ops::SPMM_INT, ops::SDDMM_INT, ops::SPMM_BLOCKED].contains(op))
    }) {
        Vec::new() // SpMM-brcv measures its band set, SpMM-int, SDDMM-int and SpMM-blocked their own inputs: no matrix files
    } else {
        expand(&[PathBuf::from(DEFAULT_MATRICES)]).map_err(|e| format!("default matrix set: {e} (use --matrices or --quick)"))?
    };
    let default_set = if opts.inputs_named() || opts.quick { RmatSet::None } else { RmatSet::All };
    v.extend(rmat_sources(opts.rmat_set.unwrap_or(default_set)));
    let default_stencil = (!opts.inputs_named() && !opts.quick).then_some(SPMV_STENCIL_NX);
    let spmv = opts.ops.as_ref().is_none_or(|o| o.contains(&ops::SPMV));
    if let Some(nx) = opts.spmv_stencil.unwrap_or(default_stencil).filter(|_| spmv) {
        v.push(Source::SpmvStencil { nx });
    }
    // The band set: in a default run, or whenever SpMM-brcv is asked for by name.
    let default_run = !opts.inputs_named() && !opts.quick;
    let brcv = match &opts.ops {
        Some(o) => o.contains(&ops::SPMM_BRCV),
        None => default_run,
    };
    if brcv {
        v.extend(BAND_SET.iter().map(|&(n, half_width, fill_percent)| Source::Band { n, half_width, fill_percent }));
    }
    let default_masks = if opts.inputs_named() || opts.quick { MaskSet::None } else { MaskSet::All };
    let sddmm = opts.ops.as_ref().is_none_or(|o| o.contains(&ops::SDDMM));
    if sddmm && opts.mask_set.unwrap_or(default_masks) == MaskSet::All {
        v.extend(ATTENTION_SET.iter().map(|&m| Source::Mask(m)));
    }
    Ok(v)
}

/// "cora" for ".../cora.mtx.gz".
pub fn matrix_name(path: &Path) -> String {
    let f = path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned());
    f.trim_end_matches(".gz").trim_end_matches(".mtx").to_string()
}

/// What is known of a matrix before it is read or generated.
struct Outline {
    name: String,
    group: String,
    set: &'static str,
    rows: usize,
    cols: usize,
    /// An upper bound (symmetric files are expanded, duplicates merged).
    max_nnz: usize,
}

fn outline(src: &Source) -> Result<(Outline, Option<mtx::MtxFile>)> {
    let generated = |name: String, rows, cols, max_nnz| Outline { name, group: "generated".into(), set: "generated", rows, cols, max_nnz };
    Ok(match src {
        Source::File { path, group } => {
            let f = mtx::MtxFile::open(path)?;
            let h = f.header;
            (
                Outline {
                    name: matrix_name(path),
                    group: group.clone(),
                    set: "Matrix Market",
                    rows: h.rows,
                    cols: h.cols,
                    max_nnz: h.max_nnz(),
                },
                Some(f),
            )
        }
        Source::Rmat { nodes, edges, name } => {
            let (name, group) = match name {
                Some(n) => (n.to_string(), "rmat"),
                None => (format!("rmat_n{nodes}_e{edges}"), "generated"),
            };
            (Outline { name, group: group.into(), set: "R-MAT", rows: *nodes, cols: *nodes, max_nnz: *edges }, None)
        }
        Source::Uniform { rows, cols, density } => {
            let nnz = (*rows as f64 * *cols as f64 * density).ceil() as usize + rows;
            (generated(format!("uniform_{rows}x{cols}_d{density}"), *rows, *cols, nnz), None)
        }
        Source::Banded { n, half_width } => {
            let nnz = n.saturating_mul(half_width.saturating_mul(2).saturating_add(1));
            (generated(format!("banded_n{n}_w{half_width}"), *n, *n, nnz), None)
        }
        Source::Band { n, half_width, fill_percent } => {
            let nnz = n.saturating_mul(half_width.saturating_mul(2).saturating_add(1));
            let o = Outline { set: "banded", ..generated(format!("band_n{n}_w{half_width}_f{fill_percent}"), *n, *n, nnz) };
            (o, None)
        }
        Source::BlockDiag { n, block, density } => {
            let nnz = (*n as f64 * ((*block).min(*n) as f64 * density + 1.0)).ceil() as usize;
            (generated(format!("blockdiag_n{n}_b{block}_d{density}"), *n, *n, nnz), None)
        }
        Source::Stencil { nx } => {
            let n = nx.saturating_mul(*nx).saturating_mul(*nx);
            (generated(format!("stencil27_nx{nx}"), n, n, n.saturating_mul(27)), None)
        }
        Source::Mask(mask) => {
            let (len, nnz) = (mask.len(), mask.max_nnz() as usize);
            (Outline { name: mask.name(), group: mask.group().into(), set: "attention", rows: len, cols: len, max_nnz: nnz }, None)
        }
        Source::SpmvStencil { nx } => {
            let n = nx.saturating_mul(*nx).saturating_mul(*nx);
            (
                Outline {
                    name: format!("stencil27_nx{nx}"),
                    group: "stencil".into(),
                    set: "stencil",
                    rows: n,
                    cols: n,
                    max_nnz: n.saturating_mul(27),
                },
                None,
            )
        }
    })
}

/// Reads or generates the matrix of `src` unless no selected operation wants it. Returns the
/// matrix and the indices of the operations that want it, or None (after noting why) when every
/// operation skips it. `log` hears about slow steps (generating the large R-MAT graphs).
pub fn load(
    src: &Source,
    matrix_ops: &[&ops::MatrixOp],
    cfg: &ops::OpConfig,
    notes: &mut Vec<String>,
    log: &dyn Fn(&str),
) -> Result<Option<(Matrix, Vec<usize>)>> {
    let (o, file) = outline(src)?;
    let mut wanted = Vec::new();
    // The inputs of one operation alone.
    let only = match src {
        Source::SpmvStencil { .. } => Some(ops::SPMV),
        Source::Mask(_) => Some(ops::SDDMM),
        Source::Band { .. } => Some(ops::SPMM_BRCV),
        _ => None,
    };
    for (k, op) in matrix_ops.iter().enumerate() {
        if only.is_some_and(|name| op.name != name) {
            continue;
        }
        // SpMM-brcv measures banded matrices only.
        if op.name == ops::SPMM_BRCV && !matches!(src, Source::Band { .. } | Source::Banded { .. }) {
            continue;
        }
        match (op.skip)(o.rows as u64, o.cols as u64, o.max_nnz as u64, cfg) {
            None => wanted.push(k),
            Some(why) => notes.push(format!("{} skipped {} ({} x {}): {why}", op.name, o.name, o.rows, o.cols)),
        }
    }
    if wanted.is_empty() {
        if let Some(name) = only.filter(|name| !matrix_ops.iter().any(|op| op.name == *name)) {
            notes.push(format!("{}: measured by {name} alone, which does not run", o.name));
        }
        return Ok(None);
    }
    let csr = match (src, file) {
        (_, Some(f)) => f.read(MATRIX_SEED)?,
        (Source::Rmat { nodes, edges, .. }, _) => rmat::rmat(*nodes, *edges, MATRIX_SEED, log)?,
        (Source::Uniform { rows, cols, density }, _) => gen::uniform(*rows, *cols, *density, MATRIX_SEED)?,
        (Source::Banded { n, half_width }, _) => gen::banded(*n, *half_width, MATRIX_SEED)?,
        (Source::Band { n, half_width, fill_percent }, _) => gen::band_with_holes(*n, *half_width, *fill_percent, MATRIX_SEED)?,
        (Source::BlockDiag { n, block, density }, _) => gen::block_diagonal(*n, *block, *density, MATRIX_SEED)?,
        (Source::Stencil { nx } | Source::SpmvStencil { nx }, _) => gen::stencil27(*nx, MATRIX_SEED)?,
        (Source::Mask(mask), _) => mask.generate(MATRIX_SEED)?,
        (Source::File { .. }, None) => unreachable!("a file source always has an open file"),
    };
    Ok(Some((Matrix { name: o.name, group: o.group, set: o.set, csr }, wanted)))
}

/// The name a source is reported under, without opening it (for the progress line).
pub fn source_name(src: &Source) -> String {
    match src {
        Source::File { path, .. } => matrix_name(path),
        Source::Rmat { name: Some(n), .. } => n.to_string(),
        _ => outline(src).map_or_else(|_| "?".into(), |(o, _)| o.name),
    }
}

#[cfg(test)]
mod tests;
