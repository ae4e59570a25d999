//! oxsparse-bench: oxsparse against NVIDIA cuSPARSE, side by side in one process, on the same
//! inputs, both checked against a float64 CPU reference.
//!
//! Modules: `mtx` / `gen` / `matrix` make the host inputs; `cusparse` loads cuSPARSE with dlopen;
//! `api` wraps each C function once for both libraries; `device` holds GPU memory; `timing` times
//! with CUDA events; `case` is the per-case harness; `ops/` the operations measured; `report` the
//! table, JSON and CSV. Exit status: 0 when every check passed, 1 on a mismatch or an error, 2 on
//! bad usage. Without a GPU it prints one line and exits 0.

mod api;
mod case;
mod cusparse;
mod device;
mod gen;
mod matrix;
mod mtx;
mod ops;
mod report;
mod timing;

use api::{Lib, OxHandle};
use case::Settings;
use cusparse::{Cusparse, LoadError};
use device::Gpu;
use matrix::Matrix;
use report::Report;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub type Result<T> = std::result::Result<T, String>;

const NO_GPU: &str = "oxsparse-bench: no GPU on this machine: nothing measured";
/// The seed of every random value given to a matrix (pattern files, generators).
const MATRIX_SEED: u64 = 0x0A5_5EED;
const DEFAULT_MATRICES: &str = "../shared/matrices";

const USAGE: &str = "usage: oxsparse-bench [options]
  --matrices DIR|FILE...   Matrix Market files (.mtx or .mtx.gz); a DIR means its MANIFEST.tsv, or
                           every .mtx[.gz] in it (default ../shared/matrices)
  --rmat NODES:EDGES       an R-MAT graph (a=0.57 b=0.19 c=0.19, duplicates summed); repeatable
  --uniform ROWS:COLS:DENSITY   a uniform random matrix; repeatable
  --banded N:HALF_WIDTH    a banded matrix; repeatable
  --quick                  three small generated matrices and 2^20-long vectors (smoke test)
  --ops NAME,...           only these operations (SparseToDense, Gather, SpVV)
  --runs N                 timed calls per case, median reported (default 20)
  --warmup N               untimed calls before them (default 3)
  --json PATH, --csv PATH  also write the results there
Environment: OXSPARSE_BENCH_CUSPARSE=/path/to/libcusparse.so.12 overrides the search for cuSPARSE.";

/// Where a matrix comes from.
#[derive(Clone, Debug, PartialEq)]
enum Source {
    File { path: PathBuf, group: String },
    Rmat { nodes: usize, edges: usize },
    Uniform { rows: usize, cols: usize, density: f64 },
    Banded { n: usize, half_width: usize },
}

#[derive(Debug, PartialEq)]
struct Options {
    /// Files and directories, expanded later.
    paths: Vec<PathBuf>,
    generated: Vec<Source>,
    quick: bool,
    ops: Option<Vec<&'static str>>,
    runs: usize,
    warmup: usize,
    json: Option<PathBuf>,
    csv: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options { paths: vec![], generated: vec![], quick: false, ops: None, runs: 20, warmup: 3, json: None, csv: None };
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
            "--rmat" => {
                let n = numbers(&value(&mut i, a)?, 2, a)?;
                o.generated.push(Source::Rmat { nodes: n[0] as usize, edges: n[1] as usize });
            }
            "--uniform" => {
                let n = numbers(&value(&mut i, a)?, 3, a)?;
                o.generated.push(Source::Uniform { rows: n[0] as usize, cols: n[1] as usize, density: n[2] });
            }
            "--banded" => {
                let n = numbers(&value(&mut i, a)?, 2, a)?;
                o.generated.push(Source::Banded { n: n[0] as usize, half_width: n[1] as usize });
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
            "--runs" => o.runs = count(&value(&mut i, a)?, a)?,
            "--warmup" => o.warmup = count(&value(&mut i, a)?, a)?,
            "--json" => o.json = Some(PathBuf::from(value(&mut i, a)?)),
            "--csv" => o.csv = Some(PathBuf::from(value(&mut i, a)?)),
            other => return Err(format!("unknown argument {other:?}")),
        }
        i += 1;
    }
    if o.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    Ok(Some(o))
}

fn count(s: &str, flag: &str) -> Result<usize> {
    s.parse().map_err(|_| format!("{flag}: {s:?} is not a count"))
}

/// "A:B[:C]" as `n` non-negative numbers (integers except a uniform density).
fn numbers(s: &str, n: usize, flag: &str) -> Result<Vec<f64>> {
    let v: Vec<f64> = s.split(':').map(|x| x.parse::<f64>()).collect::<std::result::Result<_, _>>().map_err(|_| format!("{flag}: bad value {s:?}"))?;
    if v.len() != n || v.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err(format!("{flag}: expected {n} non-negative numbers separated by ':', got {s:?}"));
    }
    let integers = if flag == "--uniform" { &v[..2] } else { &v[..] };
    if integers.iter().any(|x| x.fract() != 0.0) {
        return Err(format!("{flag}: sizes must be whole numbers, got {s:?}"));
    }
    Ok(v)
}

/// The matrix files of `paths`: a directory lists its MANIFEST.tsv (with each file's class) or,
/// without one, every .mtx / .mtx.gz file in it, sorted by name.
fn expand(paths: &[PathBuf]) -> Result<Vec<Source>> {
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

/// The matrices to measure: those named, else the three small generated ones of `--quick`, else
/// the default set.
fn sources(opts: &Options) -> Result<Vec<Source>> {
    if !opts.paths.is_empty() || !opts.generated.is_empty() {
        let mut v = expand(&opts.paths)?;
        v.extend(opts.generated.iter().cloned());
        return Ok(v);
    }
    if opts.quick {
        return Ok(vec![
            Source::Rmat { nodes: 4096, edges: 40960 },
            Source::Uniform { rows: 3000, cols: 2000, density: 0.01 },
            Source::Banded { n: 4096, half_width: 8 },
        ]);
    }
    expand(&[PathBuf::from(DEFAULT_MATRICES)]).map_err(|e| format!("default matrix set: {e} (use --matrices or --quick)"))
}

/// "cora" for ".../cora.mtx.gz".
fn matrix_name(path: &Path) -> String {
    let f = path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned());
    f.trim_end_matches(".gz").trim_end_matches(".mtx").to_string()
}

/// Reads or generates the matrix of `src` unless no selected operation wants it. Returns None
/// (after noting why) when every operation skips it.
fn load(src: &Source, matrix_ops: &[&ops::MatrixOp], notes: &mut Vec<String>) -> Result<Option<(Matrix, Vec<usize>)>> {
    let (name, group, rows, cols, max_nnz, file) = match src {
        Source::File { path, group } => {
            let f = mtx::MtxFile::open(path)?;
            let h = f.header;
            (matrix_name(path), group.clone(), h.rows, h.cols, h.max_nnz(), Some(f))
        }
        Source::Rmat { nodes, edges } => (format!("rmat_n{nodes}_e{edges}"), "generated".into(), *nodes, *nodes, *edges, None),
        Source::Uniform { rows, cols, density } => {
            let nnz = (*rows as f64 * *cols as f64 * density).ceil() as usize + rows;
            (format!("uniform_{rows}x{cols}_d{density}"), "generated".into(), *rows, *cols, nnz, None)
        }
        Source::Banded { n, half_width } => {
            let nnz = n.saturating_mul(half_width.saturating_mul(2).saturating_add(1));
            (format!("banded_n{n}_w{half_width}"), "generated".into(), *n, *n, nnz, None)
        }
    };
    let mut wanted = Vec::new();
    for (k, op) in matrix_ops.iter().enumerate() {
        match (op.skip)(rows as u64, cols as u64, max_nnz as u64) {
            None => wanted.push(k),
            Some(why) => notes.push(format!("{} skipped {name} ({rows} x {cols}): {why}", op.name)),
        }
    }
    if wanted.is_empty() {
        return Ok(None);
    }
    let csr = match (src, file) {
        (_, Some(f)) => f.read(MATRIX_SEED)?,
        (Source::Rmat { nodes, edges }, _) => gen::rmat(*nodes, *edges, MATRIX_SEED)?,
        (Source::Uniform { rows, cols, density }, _) => gen::uniform(*rows, *cols, *density, MATRIX_SEED)?,
        (Source::Banded { n, half_width }, _) => gen::banded(*n, *half_width, MATRIX_SEED)?,
        (Source::File { .. }, None) => unreachable!("a file source always has an open file"),
    };
    Ok(Some((Matrix { name, group, csr }, wanted)))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match parse_args(&args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("oxsparse-bench: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    std::process::exit(run(opts));
}

fn run(opts: Options) -> i32 {
    // The GPU first: without one there is nothing to do (not even to find the matrices), and
    // nothing else may touch the driver.
    if !oxsparse::context::driver_present() {
        println!("{NO_GPU}");
        return 0;
    }
    let ox = match OxHandle::create() {
        Ok(h) => h,
        Err(s) if s == oxsparse::types::Status::OXSPARSE_STATUS_NOT_INITIALIZED as i32 => {
            println!("{NO_GPU}");
            return 0;
        }
        Err(s) => {
            eprintln!("oxsparse-bench: oxsparseCreate failed: {} ({s})", api::ox_status_name(s));
            return 1;
        }
    };
    let gpu = match Gpu::attach() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("oxsparse-bench: {e}");
            return 1;
        }
    };
    let selected = |name: &str| opts.ops.as_ref().is_none_or(|o| o.contains(&name));
    let matrix_ops: Vec<&ops::MatrixOp> = ops::MATRIX_OPS.iter().filter(|o| selected(o.name)).collect();
    // Matrices are found (and MANIFEST.tsv read) only when a matrix operation will run.
    let sources = if matrix_ops.is_empty() { Ok(vec![]) } else { sources(&opts) };
    let sources = match sources {
        Ok(s) => s,
        Err(e) => {
            eprintln!("oxsparse-bench: {e}");
            return 2;
        }
    };
    let settings = Settings { warmup: opts.warmup, runs: opts.runs };
    let mut bench = Bench { libs: vec![Lib::Ox(ox.0)], gpu: &gpu, settings, rows: vec![], notes: vec![], failures: 0 };
    let cusparse = match Cusparse::load() {
        Ok(c) => Some(c),
        Err(LoadError::Absent(why)) => {
            eprintln!("oxsparse-bench: cuSPARSE (libcusparse.so.12) not found: measuring oxsparse alone ({why})");
            bench.notes.push(format!("cuSPARSE not found, oxsparse measured alone: {why}"));
            None
        }
        Err(LoadError::Failed(why)) => {
            eprintln!("oxsparse-bench: cuSPARSE could not be used: {why}");
            bench.notes.push(format!("cuSPARSE could not be used: {why}"));
            bench.failures += 1;
            None
        }
    };
    bench.libs.extend(cusparse.as_ref().map(Lib::Cu));
    let cusparse_desc = cusparse.as_ref().map(|c| format!("{} ({})", c.version_string(), c.path));
    eprintln!("oxsparse-bench: {}; cuSPARSE {}", gpu.describe(), cusparse_desc.as_deref().unwrap_or("not loaded"));

    bench.matrices(&sources, &matrix_ops);
    for op in ops::VECTOR_OPS.iter().filter(|o| selected(o.name)) {
        eprintln!("oxsparse-bench: {} on generated vectors", op.name);
        for mut c in (op.cases)(opts.quick) {
            bench.measure(c.as_mut());
        }
    }

    let mut failures = bench.failures + bench.rows.iter().filter(|r| r.failed()).count();
    let report = Report { device: gpu.describe(), cusparse: cusparse_desc, runs: opts.runs, warmup: opts.warmup, notes: bench.notes, rows: bench.rows };
    print!("{}", report.table());
    for (path, text) in [(&opts.json, report.json()), (&opts.csv, report.csv())] {
        if let Some(path) = path {
            failures += usize::from(!write_file(path, &text));
        }
    }
    if failures > 0 {
        eprintln!("oxsparse-bench: FAILED: {failures} problem(s), listed above (mismatches, errors or unreadable inputs)");
        return 1;
    }
    0
}

/// The measuring state: the libraries, and what has been found so far.
struct Bench<'a> {
    /// oxsparse, then cuSPARSE when loaded.
    libs: Vec<Lib<'a>>,
    gpu: &'a Gpu,
    settings: Settings,
    rows: Vec<report::Row>,
    notes: Vec<String>,
    /// Problems that are not rows: unreadable matrices, a broken cuSPARSE.
    failures: usize,
}

impl Bench<'_> {
    /// Every matrix operation on every matrix that one of them wants, one matrix at a time.
    fn matrices(&mut self, sources: &[Source], matrix_ops: &[&ops::MatrixOp]) {
        for (i, src) in sources.iter().enumerate() {
            let t0 = Instant::now();
            let progress = format!("[{:>3}/{}]", i + 1, sources.len());
            let before = self.notes.len();
            match load(src, matrix_ops, &mut self.notes) {
                Err(e) => {
                    eprintln!("{progress} PROBLEM: {e}");
                    self.notes.push(format!("not measured: {e}"));
                    self.failures += 1;
                }
                Ok(None) => eprintln!("{progress} {}", self.notes[before..].join("; ")),
                Ok(Some((m, wanted))) => {
                    let a = &m.csr;
                    eprintln!("{progress} {}: {} x {}, {} nnz, ready in {:.2} s", m.name, a.rows, a.cols, a.nnz(), t0.elapsed().as_secs_f64());
                    for k in wanted {
                        for mut c in (matrix_ops[k].cases)(&m) {
                            self.measure(c.as_mut());
                        }
                    }
                }
            }
        }
    }

    /// Measures one case and keeps its row, telling stderr at once about a mismatch or an error.
    fn measure(&mut self, c: &mut dyn case::Case) {
        let row = case::measure(c, &self.libs, self.gpu, &self.settings);
        for p in row.problems() {
            eprintln!("oxsparse-bench: PROBLEM: {p}");
        }
        self.rows.push(row);
    }
}

/// Writes a result file (creating its folder); false after saying why it could not.
fn write_file(path: &Path, text: &str) -> bool {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).ok();
    }
    match std::fs::write(path, text) {
        Ok(()) => {
            eprintln!("oxsparse-bench: wrote {}", path.display());
            true
        }
        Err(e) => {
            eprintln!("oxsparse-bench: cannot write {}: {e}", path.display());
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_parse() {
        let o = parse_args(&args("--matrices a.mtx dir --rmat 100:1000 --runs 5 --warmup 0 --ops spvv,Gather --quick --json r.json"))
            .unwrap()
            .unwrap();
        assert_eq!(o.paths, vec![PathBuf::from("a.mtx"), PathBuf::from("dir")]);
        assert_eq!(o.generated, vec![Source::Rmat { nodes: 100, edges: 1000 }]);
        assert_eq!((o.runs, o.warmup, o.quick), (5, 0, true));
        assert_eq!(o.ops, Some(vec!["SpVV", "Gather"]));
        assert_eq!(o.json, Some(PathBuf::from("r.json")));
        let d = parse_args(&[]).unwrap().unwrap();
        assert_eq!((d.runs, d.warmup, d.quick, d.ops), (20, 3, false, None));
        assert!(parse_args(&args("--help")).unwrap().is_none());
    }

    #[test]
    fn bad_options_are_refused() {
        for bad in ["--runs", "--runs x", "--runs 0", "--rmat 5", "--rmat 5:1.5", "--uniform 5:5", "--ops SpMM", "--matrices", "--frobnicate"] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
        let u = parse_args(&args("--uniform 10:20:0.5 --banded 9:2")).unwrap().unwrap();
        assert_eq!(u.generated, vec![Source::Uniform { rows: 10, cols: 20, density: 0.5 }, Source::Banded { n: 9, half_width: 2 }]);
    }

    #[test]
    fn names_and_manifest() {
        assert_eq!(matrix_name(Path::new("/x/cora.mtx.gz")), "cora");
        assert_eq!(matrix_name(Path::new("b.mtx")), "b");
        let dir = std::env::temp_dir().join(format!("oxsparse-bench-main-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("z.mtx"), "").unwrap();
        std::fs::write(dir.join("a.mtx.gz"), "").unwrap();
        std::fs::write(dir.join("notes.txt"), "").unwrap();
        let files = expand(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(files, vec![Source::File { path: dir.join("a.mtx.gz"), group: "".into() }, Source::File { path: dir.join("z.mtx"), group: "".into() }]);
        std::fs::write(dir.join("MANIFEST.tsv"), "file\tclass\trows\nz.mtx\tgnn\t3\n").unwrap();
        assert_eq!(expand(std::slice::from_ref(&dir)).unwrap(), vec![Source::File { path: dir.join("z.mtx"), group: "gnn".into() }]);
        assert!(expand(&[dir.join("missing.mtx")]).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Reads every matrix of the default set and compares its shape and nnz with MANIFEST.tsv.
    /// Slow (tens of seconds): `cargo test --release --bin oxsparse-bench -- --ignored`.
    #[test]
    #[ignore]
    fn default_set_matches_its_manifest() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_MATRICES);
        let Ok(text) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
            println!("SKIP: no {}", dir.display());
            return;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            let m = mtx::MtxFile::open(&dir.join(f[0])).and_then(|m| m.read(MATRIX_SEED)).unwrap();
            let want: Vec<usize> = f[2..5].iter().map(|x| x.parse().unwrap()).collect();
            assert_eq!(vec![m.rows, m.cols, m.nnz()], want, "{}", f[0]);
        }
    }
}
