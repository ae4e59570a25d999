//! oxsparse-bench: oxsparse against NVIDIA cuSPARSE, side by side in one process, on the same
//! inputs, both checked against a float64 CPU reference.
//!
//! Modules: `cli` reads the options; `sources`, `mtx`, `gen`, `rmat` and `matrix` make the host
//! inputs; `cusparse` loads cuSPARSE with dlopen; `api` wraps each C function once for both
//! libraries; `device` holds GPU memory; `timing` times with CUDA events; `case` is the per-case
//! harness; `ops/` the operations measured; `report` the table, summary, JSON and CSV; `svg` the
//! chart; `progress` the progress line; `par` spreads host work over the cores. Exit status: 0
//! when every check passed, 1 on a mismatch or an error, 2 on bad usage. Without a GPU it prints
//! one line and exits 0. NOT_SUPPORTED from a library is reported per case, and is no failure.

mod api;
mod case;
mod cli;
mod cublas;
mod cusparse;
mod device;
mod gen;
mod half;
mod masks;
mod matrix;
mod mtx;
mod ops;
mod par;
mod progress;
mod report;
mod rmat;
mod sources;
mod svg;
mod timing;

use api::{Lib, OxHandle};
use case::Settings;
use cli::{parse_args, Options, USAGE};
use cusparse::{Cusparse, LoadError};
use device::Gpu;
use oxsparse::types::{MathMode, ReorderMode};
use progress::Progress;
use report::Report;
use sources::Source;
use std::path::Path;
use std::time::Instant;

pub type Result<T> = std::result::Result<T, String>;

const NO_GPU: &str = "oxsparse-bench: no GPU on this machine: nothing measured";

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
    // Always set, so that OXSPARSE_MATH_MODE in the environment cannot make the run differ from
    // what the report says.
    if let Err(e) = ox.set_math_mode(opts.math_mode).and_then(|_| ox.set_reorder_mode(opts.reorder)) {
        eprintln!("oxsparse-bench: {e}");
        return 1;
    }
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
    let sources = if matrix_ops.is_empty() { Ok(vec![]) } else { sources::sources(&opts) };
    let sources = match sources {
        Ok(s) => s,
        Err(e) => {
            eprintln!("oxsparse-bench: {e}");
            return 2;
        }
    };
    let settings = Settings { warmup: opts.warmup, runs: opts.runs, passes: opts.passes };
    let op_config = ops::OpConfig {
        dense_cap_bytes: opts.dense_cap_bytes,
        math_mode: opts.math_mode,
        spmm_precisions: opts.spmm_precisions.clone(),
        sddmm_k: opts.sddmm_k.clone(),
        sddmm_layouts: opts.sddmm_layouts.clone(),
    };
    ops::set_spmv_scalars(opts.spmv);
    let mut bench = Bench {
        libs: vec![Lib::Ox(ox.0)],
        gpu: &gpu,
        settings,
        op_config,
        rows: vec![],
        notes: vec![],
        failures: 0,
        progress: Progress::new(),
    };
    if opts.math_mode != MathMode::OXSPARSE_DEFAULT_MATH {
        let tf32 = opts.math_mode == MathMode::OXSPARSE_TF32_TENSOR_OP_MATH;
        bench.notes.push(format!(
            "oxsparse in math mode {}: its FP32 SpMM may use tensor cores{}; every SpMM check records its largest error over sum |a b| (max_rel_err)",
            cli::math_mode_name(opts.math_mode),
            if tf32 { " and is checked to 2^-10 + 1e-5 of sum |a b| (cuSPARSE to 1e-5)" } else { "" }
        ));
    }
    if opts.reorder != ReorderMode::OXSPARSE_REORDER_NONE {
        bench.notes.push(format!(
            "oxsparse in reorder mode {}: SpMM's preprocess may reorder A's rows for tensor cores (when it runs on them); its time is in the preprocess column",
            cli::reorder_name(opts.reorder)
        ));
    }
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
    // SpMV's bandwidth is compared with the copy bandwidth, measured once, before any matrix
    // takes device memory. Without it the run goes on, without the percentages.
    let copy_bandwidth = if matrix_ops.iter().any(|o| o.name == ops::SPMV) {
        match ops::measure_copy_bandwidth(&gpu, opts.warmup, opts.runs) {
            Ok(c) => {
                eprintln!(
                    "oxsparse-bench: copy bandwidth {:.1} GB/s ({} MiB device-to-device, median {:.4} ms)",
                    c.gbps,
                    c.bytes >> 20,
                    c.median_ms
                );
                Some(c)
            }
            Err(e) => {
                eprintln!("oxsparse-bench: copy bandwidth not measured: {e}");
                bench.notes.push(format!("copy bandwidth not measured: {e}"));
                None
            }
        }
    } else {
        None
    };

    bench.matrices(&sources, &matrix_ops);
    let vector_ops: Vec<&ops::VectorOp> = ops::VECTOR_OPS.iter().filter(|o| selected(o.name)).collect();
    for (i, op) in vector_ops.iter().enumerate() {
        bench.progress.matrix(i, vector_ops.len(), op.name);
        bench.progress.matrix_line("generated inputs");
        for mut c in (op.cases)(opts.quick) {
            if let Some(only) = &opts.only {
                let info = c.info();
                if !info.variant.contains(only.as_str()) && !info.input.contains(only.as_str()) {
                    continue;
                }
            }
            bench.measure(c.as_mut());
        }
    }
    bench.progress.clear();
    eprintln!("oxsparse-bench: measured in {}", bench.progress.elapsed());

    let mut failures = bench.failures + bench.rows.iter().filter(|r| r.failed()).count();
    if opts.passes > 1 {
        bench.notes.push(format!(
            "each case was measured in {} passes over all its variants, {} runs each after {} warm-up calls (at least two of every copy); medians over all {} runs",
            opts.passes,
            opts.runs,
            opts.warmup,
            opts.passes * opts.runs
        ));
    }
    let runs = opts.runs * opts.passes;
    let report = Report {
        device: gpu.describe(),
        cusparse: cusparse_desc,
        math_mode: cli::math_mode_name(opts.math_mode),
        reorder: cli::reorder_name(opts.reorder),
        runs,
        warmup: opts.warmup,
        copy_bandwidth,
        peak_gbps: gpu.peak_gbps(),
        notes: bench.notes,
        rows: bench.rows,
    };
    print!("{}", report.table());
    for (path, text) in [(&opts.json, Some(report.json())), (&opts.csv, Some(report.csv())), (&opts.svg, report.svg())] {
        match (path, text) {
            (Some(path), Some(text)) => failures += usize::from(!write_file(path, &text)),
            (Some(path), None) => {
                eprintln!("oxsparse-bench: no SpMM FP32 row-major, SpMV or SDDMM FP32 results to chart: {} not written", path.display())
            }
            (None, _) => {}
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
    op_config: ops::OpConfig,
    rows: Vec<report::Row>,
    notes: Vec<String>,
    /// Problems that are not rows: unreadable matrices, a broken cuSPARSE.
    failures: usize,
    progress: Progress,
}

impl Bench<'_> {
    /// Every matrix operation on every matrix that one of them wants, one matrix at a time.
    fn matrices(&mut self, sources: &[Source], matrix_ops: &[&ops::MatrixOp]) {
        for (i, src) in sources.iter().enumerate() {
            let t0 = Instant::now();
            self.progress.matrix(i, sources.len(), &sources::source_name(src));
            let before = self.notes.len();
            let loaded = {
                // `load` takes a shared Fn for its log; printing above the status line needs
                // the progress mutably.
                let progress = std::cell::RefCell::new(&mut self.progress);
                let log = |msg: &str| progress.borrow_mut().say(&format!("  {msg}"));
                sources::load(src, matrix_ops, &self.op_config, &mut self.notes, &log)
            };
            match loaded {
                Err(e) => {
                    self.progress.matrix_line(&format!("PROBLEM: {e}"));
                    self.notes.push(format!("not measured: {e}"));
                    self.failures += 1;
                }
                Ok(None) => {
                    let why = self.notes[before..].join("; ");
                    self.progress.matrix_line(&why);
                }
                Ok(Some((m, wanted))) => {
                    let a = &m.csr;
                    self.progress.matrix_line(&format!(
                        "{} x {}, {} nnz, ready in {:.2} s",
                        a.rows,
                        a.cols,
                        a.nnz(),
                        t0.elapsed().as_secs_f64()
                    ));
                    for k in wanted {
                        for mut c in (matrix_ops[k].cases)(&m, &self.op_config) {
                            self.measure(c.as_mut());
                        }
                    }
                }
            }
        }
    }

    /// Measures one case and keeps its row, telling stderr at once about a mismatch or an error;
    /// a case too large for the dense-operand cap is skipped with a note.
    fn measure(&mut self, c: &mut dyn case::Case) {
        if let Some(why) = c.skip() {
            let i = c.info();
            let note = format!("{} {} ({}) skipped: {why}", i.op, i.input, i.variant);
            self.progress.say(&format!("  {note}"));
            self.notes.push(note);
            return;
        }
        let progress = &mut self.progress;
        let row = case::measure(c, &self.libs, self.gpu, &self.settings, &mut |what| progress.status(what));
        for p in row.problems() {
            self.progress.say(&format!("oxsparse-bench: PROBLEM: {p}"));
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
