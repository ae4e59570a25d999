//! Results: one [`Row`] per case, printed as a table on stdout and written as JSON and CSV.
//! GB/s counts the bytes a call must read and write at least (`Info::traffic_bytes`), 1 GB = 1e9 B.
//! Speedup is cuSPARSE's median time over ours: above 1 means oxsparse is faster.

use crate::case::Info;
use crate::timing::Timing;
use std::fmt::Write as _;

/// Result of comparing one library's output with the float64 reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub compared: u64,
    pub mismatches: u64,
    pub max_abs_err: f64,
    /// Where and how the first mismatch differs.
    pub first: Option<String>,
}

impl Check {
    pub fn ok(&self) -> bool {
        self.mismatches == 0
    }
}

/// One library's measurement of a case.
pub struct LibResult {
    pub lib: &'static str,
    pub time: Option<Timing>,
    pub check: Option<Check>,
    pub error: Option<String>,
}

impl LibResult {
    pub fn failed(&self) -> bool {
        self.error.is_some() || self.check.as_ref().is_some_and(|c| !c.ok())
    }

    fn status(&self) -> &'static str {
        match (&self.error, &self.check) {
            (Some(_), _) => "ERROR",
            (None, Some(c)) if !c.ok() => "MISMATCH",
            (None, Some(_)) => "ok",
            (None, None) => "-",
        }
    }

    /// The problem, for the lines under the table and stderr.
    pub fn problem(&self) -> Option<String> {
        if let Some(e) = &self.error {
            return Some(format!("{}: {e}", self.lib));
        }
        let c = self.check.as_ref().filter(|c| !c.ok())?;
        Some(format!(
            "{}: MISMATCH: {} of {} values differ from the float64 reference; first {}",
            self.lib,
            c.mismatches,
            c.compared,
            c.first.as_deref().unwrap_or("?")
        ))
    }
}

pub struct Row {
    pub op: &'static str,
    pub variant: String,
    pub input: String,
    pub group: String,
    pub rows: u64,
    pub cols: u64,
    pub nnz: u64,
    pub traffic_bytes: u64,
    pub copies: usize,
    /// oxsparse first, then cuSPARSE when it is loaded.
    pub libs: Vec<LibResult>,
    /// A failure before any library ran (allocating the operands).
    pub error: Option<String>,
}

impl Row {
    pub fn new(i: &Info) -> Row {
        Row {
            op: i.op,
            variant: i.variant.clone(),
            input: i.input.clone(),
            group: i.group.clone(),
            rows: i.rows,
            cols: i.cols,
            nnz: i.nnz,
            traffic_bytes: i.traffic_bytes,
            copies: 0,
            libs: Vec::new(),
            error: None,
        }
    }

    fn lib(&self, name: &str) -> Option<&LibResult> {
        self.libs.iter().find(|l| l.lib == name)
    }

    fn median(&self, name: &str) -> Option<f64> {
        self.lib(name)?.time.map(|t| t.median_ms)
    }

    pub fn speedup(&self) -> Option<f64> {
        Some(self.median("cuSPARSE")? / self.median("oxsparse")?)
    }

    pub fn failed(&self) -> bool {
        self.error.is_some() || self.libs.iter().any(LibResult::failed)
    }

    /// Every problem of the row, one line each.
    pub fn problems(&self) -> Vec<String> {
        let what = format!("{} {} ({})", self.op, self.input, self.variant);
        let mut v: Vec<String> = self.error.iter().map(|e| format!("{what}: {e}")).collect();
        v.extend(self.libs.iter().filter_map(|l| l.problem()).map(|p| format!("{what}: {p}")));
        v
    }

    fn gbps(&self, name: &str) -> Option<f64> {
        Some(self.traffic_bytes as f64 / self.median(name)? / 1e6)
    }
}

/// The whole run.
pub struct Report {
    pub device: String,
    /// "12.6.3 (libcusparse.so.12)", or None when cuSPARSE was not measured.
    pub cusparse: Option<String>,
    pub runs: usize,
    pub warmup: usize,
    pub notes: Vec<String>,
    pub rows: Vec<Row>,
}

fn opt(v: Option<f64>, prec: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.prec$}"))
}

impl Report {
    /// The table, one line per case, then the per-operation summary, problems and notes.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "oxsparse-bench on {}", self.device);
        let _ = writeln!(
            s,
            "oxsparse {} vs cuSPARSE {}; median of {} runs after {} warm-up; speedup = cuSPARSE time / oxsparse time",
            env!("CARGO_PKG_VERSION"),
            self.cusparse.as_deref().unwrap_or("(not loaded)"),
            self.runs,
            self.warmup
        );
        let _ = writeln!(
            s,
            "\n{:<14} {:<32} {:<30} {:>19} {:>10} {:>11} {:>8} {:>11} {:>8} {:>8}  check",
            "op", "variant", "input", "rows x cols", "nnz", "oxsparse ms", "GB/s", "cuSPARSE ms", "GB/s", "speedup"
        );
        for r in &self.rows {
            let check = if r.error.is_some() { "ERROR" } else { worst(r.libs.iter().map(LibResult::status)) };
            let _ = writeln!(
                s,
                "{:<14} {:<32} {:<30} {:>19} {:>10} {:>11} {:>8} {:>11} {:>8} {:>8}  {}",
                r.op,
                truncate(&r.variant, 32),
                truncate(&r.input, 30),
                format!("{} x {}", r.rows, r.cols),
                r.nnz,
                opt(r.median("oxsparse"), 4),
                opt(r.gbps("oxsparse"), 1),
                opt(r.median("cuSPARSE"), 4),
                opt(r.gbps("cuSPARSE"), 1),
                r.speedup().map_or("-".into(), |x| format!("{x:.2}x")),
                check
            );
        }
        let _ = writeln!(s);
        for (op, n, mean, wins) in self.summary() {
            let _ = writeln!(s, "{op}: geometric-mean speedup {mean:.2}x over {n} cases, oxsparse faster in {wins} of them");
        }
        let problems: Vec<String> = self.rows.iter().flat_map(Row::problems).collect();
        for p in &problems {
            let _ = writeln!(s, "PROBLEM: {p}");
        }
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        s
    }

    /// Per operation: cases with a speedup, their geometric mean, how many oxsparse wins.
    pub fn summary(&self) -> Vec<(&'static str, usize, f64, usize)> {
        let mut ops: Vec<&'static str> = self.rows.iter().map(|r| r.op).collect();
        ops.dedup();
        ops.into_iter()
            .filter_map(|op| {
                let sp: Vec<f64> = self.rows.iter().filter(|r| r.op == op).filter_map(Row::speedup).collect();
                if sp.is_empty() {
                    return None;
                }
                let mean = (sp.iter().map(|x| x.ln()).sum::<f64>() / sp.len() as f64).exp();
                Some((op, sp.len(), mean, sp.iter().filter(|&&x| x > 1.0).count()))
            })
            .collect()
    }

    pub fn json(&self) -> String {
        let mut s = String::from("{\n");
        let _ = writeln!(s, "  \"tool\": \"oxsparse-bench\",");
        let _ = writeln!(s, "  \"oxsparse_version\": {},", js(env!("CARGO_PKG_VERSION")));
        let _ = writeln!(s, "  \"device\": {},", js(&self.device));
        let _ = writeln!(s, "  \"cusparse\": {},", self.cusparse.as_deref().map_or("null".into(), js));
        let _ = writeln!(s, "  \"runs\": {},\n  \"warmup\": {},", self.runs, self.warmup);
        let notes: Vec<String> = self.notes.iter().map(|n| js(n)).collect();
        let _ = writeln!(s, "  \"notes\": [{}],", notes.join(", "));
        let _ = writeln!(s, "  \"results\": [");
        for (i, r) in self.rows.iter().enumerate() {
            let libs = ["oxsparse", "cuSPARSE"].map(|n| r.lib(n).map_or("null".into(), |l| lib_json(l, r.traffic_bytes)));
            let _ = write!(
                s,
                "    {{\"op\": {}, \"variant\": {}, \"input\": {}, \"group\": {}, \"rows\": {}, \"cols\": {}, \"nnz\": {}, \
                 \"traffic_bytes\": {}, \"copies\": {}, \"error\": {}, \"oxsparse\": {}, \"cusparse\": {}, \"speedup\": {}}}",
                js(r.op),
                js(&r.variant),
                js(&r.input),
                js(&r.group),
                r.rows,
                r.cols,
                r.nnz,
                r.traffic_bytes,
                r.copies,
                r.error.as_deref().map_or("null".into(), js),
                libs[0],
                libs[1],
                jn(r.speedup())
            );
            s.push_str(if i + 1 < self.rows.len() { ",\n" } else { "\n" });
        }
        s.push_str("  ]\n}\n");
        s
    }

    pub fn csv(&self) -> String {
        let mut s = String::from(
            "op,variant,input,group,rows,cols,nnz,traffic_bytes,copies,\
             oxsparse_median_ms,oxsparse_min_ms,oxsparse_gbps,oxsparse_check,\
             cusparse_median_ms,cusparse_min_ms,cusparse_gbps,cusparse_check,speedup,error\n",
        );
        for r in &self.rows {
            let mut f: Vec<String> = vec![r.op.into(), r.variant.clone(), r.input.clone(), r.group.clone()];
            f.extend([r.rows, r.cols, r.nnz, r.traffic_bytes, r.copies as u64].map(|x| x.to_string()));
            for name in ["oxsparse", "cuSPARSE"] {
                let l = r.lib(name);
                f.push(csv_num(r.median(name)));
                f.push(csv_num(l.and_then(|l| l.time).map(|t| t.min_ms)));
                f.push(csv_num(r.gbps(name)));
                f.push(l.map_or("", |l| l.status()).into());
            }
            f.push(csv_num(r.speedup()));
            f.push(r.problems().join("; "));
            let line: Vec<String> = f.iter().map(|x| csv_field(x)).collect();
            s.push_str(&line.join(","));
            s.push('\n');
        }
        s
    }
}

fn lib_json(l: &LibResult, traffic: u64) -> String {
    let t = l.time;
    let c = l.check.as_ref();
    format!(
        "{{\"median_ms\": {}, \"min_ms\": {}, \"max_ms\": {}, \"runs\": {}, \"gbps\": {}, \"check\": {}, \
         \"compared\": {}, \"mismatches\": {}, \"max_abs_err\": {}, \"first_mismatch\": {}, \"error\": {}}}",
        jn(t.map(|t| t.median_ms)),
        jn(t.map(|t| t.min_ms)),
        jn(t.map(|t| t.max_ms)),
        t.map_or(0, |t| t.runs),
        jn(t.map(|t| traffic as f64 / t.median_ms / 1e6)),
        js(l.status()),
        c.map_or(0, |c| c.compared),
        c.map_or(0, |c| c.mismatches),
        jn(c.map(|c| c.max_abs_err)),
        c.and_then(|c| c.first.as_deref()).map_or("null".into(), js),
        l.error.as_deref().map_or("null".into(), js)
    )
}

/// The most severe of the statuses: ERROR, MISMATCH, ok, or "-" when none ran.
fn worst<'a>(statuses: impl Iterator<Item = &'a str>) -> &'a str {
    let rank = |s: &str| match s {
        "ERROR" => 3,
        "MISMATCH" => 2,
        "ok" => 1,
        _ => 0,
    };
    statuses.max_by_key(|s| rank(s)).unwrap_or("-")
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(['~']).collect()
    }
}

/// A JSON string literal.
pub fn js(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A JSON number, or null for none or a non-finite value.
fn jn(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x}"),
        _ => "null".into(),
    }
}

fn csv_num(v: Option<f64>) -> String {
    v.filter(|x| x.is_finite()).map_or(String::new(), |x| format!("{x}"))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ox_ms: f64, cu_ms: Option<f64>, mismatch: bool) -> Row {
        let info = Info {
            op: "Gather",
            variant: "f32, \"sorted\"".into(),
            input: "n=1024".into(),
            group: String::new(),
            rows: 1024,
            cols: 1,
            nnz: 10,
            traffic_bytes: 1_000_000,
            copy_bytes: 0,
        };
        let mut r = Row::new(&info);
        let t = |ms| Some(Timing { median_ms: ms, min_ms: ms, max_ms: ms, runs: 1 });
        let check = |bad| Some(Check { compared: 10, mismatches: bad, max_abs_err: 0.0, first: (bad > 0).then(|| "at 3".into()) });
        r.libs.push(LibResult { lib: "oxsparse", time: t(ox_ms), check: check(u64::from(mismatch)), error: None });
        if let Some(c) = cu_ms {
            r.libs.push(LibResult { lib: "cuSPARSE", time: t(c), check: check(0), error: None });
        }
        r
    }

    fn report(rows: Vec<Row>) -> Report {
        Report { device: "GPU".into(), cusparse: None, runs: 1, warmup: 0, notes: vec!["a \"note\"".into()], rows }
    }

    #[test]
    fn speedup_gbps_and_failures() {
        let r = row(0.5, Some(1.0), false);
        assert_eq!(r.speedup(), Some(2.0));
        assert_eq!(r.gbps("oxsparse"), Some(2.0));
        assert!(!r.failed());
        assert_eq!(row(0.5, None, false).speedup(), None);
        let bad = row(0.5, None, true);
        assert!(bad.failed());
        assert!(bad.problems()[0].contains("MISMATCH: 1 of 10"));
    }

    #[test]
    fn summary_is_a_geometric_mean() {
        let rep = report(vec![row(1.0, Some(2.0), false), row(1.0, Some(0.5), false), row(1.0, Some(1.0), false)]);
        let s = rep.summary();
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].0, s[0].1, s[0].3), ("Gather", 3, 1));
        assert!((s[0].2 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn json_and_csv_are_escaped() {
        let rep = report(vec![row(1.0, None, true)]);
        let j = rep.json();
        assert!(j.contains("\"variant\": \"f32, \\\"sorted\\\"\""));
        assert!(j.contains("\"cusparse\": null"));
        assert!(j.contains("\"check\": \"MISMATCH\""));
        assert!(j.contains("\"notes\": [\"a \\\"note\\\"\"]"));
        let c = rep.csv();
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[1].starts_with("Gather,\"f32, \"\"sorted\"\"\",n=1024,,1024,1,10,1000000,0,1,1,1,MISMATCH,,,,,,"));
        assert!(rep.table().contains("PROBLEM: Gather n=1024"));
    }

    #[test]
    fn json_strings_escape_control_characters() {
        assert_eq!(js("a\\b\n\u{1}"), "\"a\\\\b\\n\\u0001\"");
        assert_eq!(jn(Some(f64::NAN)), "null");
    }
}
