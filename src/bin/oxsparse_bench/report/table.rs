//! The table on stdout: a section per operation, then the summary, the problems and the notes.

use super::{sddmm, spmv, summarize, LibResult, Report, Row, YARDSTICKS};
use std::fmt::Write as _;

impl Report {
    /// The table, a section per operation, then the summary, problems and notes.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "oxsparse-bench on {}", self.device);
        let _ = writeln!(
            s,
            "oxsparse {} (math mode {}{}) vs cuSPARSE {}; median of {} runs after {} warm-up calls (at least two of every copy of the operands); speedup = best cuSPARSE time / oxsparse time",
            env!("CARGO_PKG_VERSION"),
            self.math_mode,
            if self.reorder == "none" { String::new() } else { format!(", reorder {}", self.reorder) },
            self.cusparse.as_deref().unwrap_or("(not loaded)"),
            self.runs,
            self.warmup
        );
        if let Some(c) = &self.copy_bandwidth {
            let _ = writeln!(
                s,
                "copy bandwidth {:.1} GB/s (device-to-device copy of {:.2} GiB, read + written, median {:.4} ms; SpMV's %copy is its GB/s over this)",
                c.gbps,
                c.bytes as f64 / (1u64 << 30) as f64,
                c.median_ms
            );
        }
        let ops = ops_of(&self.rows);
        if ops.contains(&sddmm::OP) {
            self.peak_line(&mut s);
        }
        for op in ops {
            match op {
                spmv::OP => self.spmv_section(&mut s),
                sddmm::OP => self.sddmm_section(&mut s),
                _ => self.section(&mut s, op),
            }
        }
        let _ = writeln!(s);
        for g in summarize(&self.rows, self.copy_bandwidth.as_ref(), self.peak_gbps) {
            let _ = writeln!(s, "{}", g.line());
        }
        for p in self.rows.iter().flat_map(Row::problems) {
            let _ = writeln!(s, "PROBLEM: {p}");
        }
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        s
    }

    /// One operation's rows. SpMM-like operations (several algorithms, a preprocess) get the
    /// columns for them: oxsparse's preprocess and no-preprocess times, cuSPARSE's best algorithm.
    fn section(&self, s: &mut String, op: &str) {
        let rows: Vec<&Row> = self.rows.iter().filter(|r| r.op == op).collect();
        let unit = if rows.iter().any(|r| r.flops > 0) { "GFLOP/s" } else { "GB/s" };
        let algs = rows.iter().any(|r| r.libs.iter().any(|l| !l.alg.is_empty()));
        let prep = rows.iter().any(|r| r.libs.iter().any(|l| l.extra || l.preprocess_ms.is_some()));
        let _ = write!(
            s,
            "\n{:<14} {:<40} {:<26} {:>19} {:>10} {:>11} {:>8}",
            "op", "variant", "input", "rows x cols", "nnz", "oxsparse ms", unit
        );
        if prep {
            let _ = write!(s, " {:>8} {:>10}", "prep ms", "no-prep ms");
        }
        let _ = write!(s, " {:>11}", "cuSPARSE ms");
        if algs {
            let _ = write!(s, " {:<8}", "best alg");
        }
        let yardsticks: Vec<(&str, &str)> =
            YARDSTICKS.iter().copied().filter(|(label, _)| rows.iter().any(|r| r.has_yardstick(label))).collect();
        let _ = write!(s, " {:>8} {:>8}", unit, "speedup");
        for (_, heading) in &yardsticks {
            let _ = write!(s, " {heading:>8}");
        }
        let _ = write!(s, "  {:<11}", "check");
        let _ = writeln!(s, "{}", if algs { "  every cuSPARSE algorithm, ms" } else { "" });
        for r in rows {
            let (ox, cu) = (r.median("oxsparse"), r.median("cuSPARSE"));
            let ox_ms = if r.unsupported("oxsparse") { "unsupp".to_string() } else { opt(ox, 4) };
            let shape = format!("{} x {}", r.rows, r.cols);
            let _ = write!(
                s,
                "{:<14} {:<40} {:<26} {:>19} {:>10} {:>11} {:>8}",
                r.op,
                truncate(&r.variant, 40),
                truncate(&r.input, 26),
                shape,
                r.nnz,
                ox_ms,
                opt(r.rate(ox), 1)
            );
            if prep {
                let no_prep = r.no_preprocess("oxsparse").and_then(LibResult::median);
                let _ = write!(s, " {:>8} {:>10}", opt(r.preprocess_ms("oxsparse"), 4), opt(no_prep, 4));
            }
            let _ = write!(s, " {:>11}", opt(cu, 4));
            if algs {
                let alg = r.primary("cuSPARSE").filter(|l| l.time.is_some()).map_or("-", |l| l.alg);
                let _ = write!(s, " {:<8}", truncate(alg, 8));
            }
            let speedup = r.speedup().map_or("-".into(), |x| format!("{x:.2}x"));
            let _ = write!(s, " {:>8} {:>8}", opt(r.rate(cu), 1), speedup);
            for (label, _) in &yardsticks {
                let _ = write!(s, " {:>8}", r.yardstick_ratio(label).map_or("-".into(), |x| format!("{x:.2}x")));
            }
            let _ = write!(s, "  {:<11}", r.status(None));
            if algs {
                let each: Vec<String> = r
                    .libs
                    .iter()
                    .filter(|l| l.lib == "cuSPARSE" || (l.extra && YARDSTICKS.iter().any(|(y, _)| l.alg == *y)))
                    .map(|l| format!("{} {}", l.alg, l.median().map_or(l.status().to_string(), |m| format!("{m:.4}"))))
                    .collect();
                let _ = write!(s, "  {}", each.join(", "));
            }
            let _ = writeln!(s);
        }
    }
}

pub fn opt(v: Option<f64>, prec: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.prec$}"))
}

/// The operations of the rows, in order of first appearance.
fn ops_of(rows: &[Row]) -> Vec<&'static str> {
    let mut ops: Vec<&'static str> = Vec::new();
    for r in rows {
        if !ops.contains(&r.op) {
            ops.push(r.op);
        }
    }
    ops
}

pub fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(['~']).collect()
    }
}
