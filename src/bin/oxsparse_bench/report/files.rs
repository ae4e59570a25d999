//! The result files: JSON (everything, every algorithm of every case, and the summary) and CSV
//! (one line per case: each library's best variant, the preprocess times of both, oxsparse's
//! no-preprocess time, and every variant's median in one field). Both give each case's GB/s as a
//! percentage of the copy bandwidth when it was measured (SpMV runs) and of the device's peak
//! bandwidth when the driver gave it (SDDMM's yardstick).

use super::{summarize, LibResult, Report, Row};
use std::fmt::Write as _;

impl Report {
    pub fn json(&self) -> String {
        let mut s = String::from("{\n");
        let _ = writeln!(s, "  \"tool\": \"oxsparse-bench\",");
        let _ = writeln!(s, "  \"oxsparse_version\": {},", js(env!("CARGO_PKG_VERSION")));
        let _ = writeln!(s, "  \"device\": {},", js(&self.device));
        let _ = writeln!(s, "  \"cusparse\": {},", self.cusparse.as_deref().map_or("null".into(), js));
        let _ = writeln!(s, "  \"math_mode\": {},", js(self.math_mode));
        let _ = writeln!(s, "  \"reorder\": {},", js(self.reorder));
        let _ = writeln!(s, "  \"runs\": {},\n  \"warmup\": {},", self.runs, self.warmup);
        let copy = self.copy_bandwidth.as_ref().map_or("null".into(), |c| {
            format!("{{\"bytes\": {}, \"median_ms\": {}, \"gbps\": {}}}", c.bytes, jn(Some(c.median_ms)), jn(Some(c.gbps)))
        });
        let _ = writeln!(s, "  \"copy_bandwidth\": {copy},");
        let _ = writeln!(s, "  \"peak_bandwidth_gbps\": {},", jn(self.peak_gbps));
        let notes: Vec<String> = self.notes.iter().map(|n| js(n)).collect();
        let _ = writeln!(s, "  \"notes\": [{}],", notes.join(", "));
        let summary: Vec<String> =
            summarize(&self.rows, self.copy_bandwidth.as_ref(), self.peak_gbps).iter().map(|g| format!("    {}", g.json())).collect();
        let _ = writeln!(s, "  \"summary\": [\n{}\n  ],", summary.join(",\n"));
        let _ = writeln!(s, "  \"results\": [");
        for (i, r) in self.rows.iter().enumerate() {
            s.push_str(&row_json(r, self));
            s.push_str(if i + 1 < self.rows.len() { ",\n" } else { "\n" });
        }
        s.push_str("  ]\n}\n");
        s
    }

    pub fn csv(&self) -> String {
        let mut s = String::from(
            "op,variant,input,group,set,rows,cols,nnz,flops,traffic_bytes,copies,\
             oxsparse_median_ms,oxsparse_min_ms,oxsparse_gbps,oxsparse_gflops,oxsparse_check,oxsparse_preprocess_ms,oxsparse_no_preprocess_ms,\
             cusparse_alg,cusparse_median_ms,cusparse_min_ms,cusparse_gbps,cusparse_gflops,cusparse_check,speedup,\
             speedup_no_preprocess,oxsparse_pct_copy_bw,cusparse_pct_copy_bw,oxsparse_pct_peak_bw,cusparse_pct_peak_bw,\
             cusparse_preprocess_ms,all_median_ms,error\n",
        );
        for r in &self.rows {
            let mut f: Vec<String> = vec![r.op.into(), r.variant.clone(), r.input.clone(), r.group.clone(), r.set.clone()];
            f.extend([r.rows, r.cols, r.nnz, r.flops, r.traffic_bytes, r.copies as u64].map(|x| x.to_string()));
            for lib in ["oxsparse", "cuSPARSE"] {
                let p = r.primary(lib);
                let ms = p.and_then(LibResult::median);
                if lib == "cuSPARSE" {
                    f.push(p.filter(|l| l.time.is_some()).map_or("", |l| l.alg).into());
                }
                f.push(csv_num(ms));
                f.push(csv_num(p.and_then(|l| l.time).map(|t| t.min_ms)));
                f.push(csv_num(r.gbps(ms)));
                f.push(csv_num(r.gflops(ms)));
                f.push(if p.is_some() { r.status(Some(lib)).into() } else { String::new() });
                if lib == "oxsparse" {
                    f.push(csv_num(r.preprocess_ms(lib)));
                    f.push(csv_num(r.no_preprocess(lib).and_then(LibResult::median)));
                }
            }
            f.push(csv_num(r.speedup()));
            f.push(csv_num(r.speedup_no_preprocess()));
            let copy = self.copy_bandwidth.as_ref();
            f.extend(["oxsparse", "cuSPARSE"].map(|lib| csv_num(r.pct_of_copy(r.median(lib), copy))));
            f.extend(["oxsparse", "cuSPARSE"].map(|lib| csv_num(r.pct_of(r.median(lib), self.peak_gbps))));
            f.push(csv_num(r.primary("cuSPARSE").and_then(|l| l.preprocess_ms)));
            let all: Vec<String> =
                r.libs.iter().map(|l| format!("{}={}", l.label(), l.median().map_or(l.status().to_string(), |m| m.to_string()))).collect();
            f.push(all.join("; "));
            f.push(r.problems().join("; "));
            let line: Vec<String> = f.iter().map(|x| csv_field(x)).collect();
            s.push_str(&line.join(","));
            s.push('\n');
        }
        s
    }
}

fn row_json(r: &Row, rep: &Report) -> String {
    let entry = |l: Option<&LibResult>| l.map_or("null".into(), |l| lib_json(l, r, rep));
    let groups: Vec<String> = r.summary_groups.iter().map(|g| js(g)).collect();
    let algorithms: Vec<String> = r.libs.iter().map(|l| format!("\n      {}", lib_json(l, r, rep))).collect();
    let best_cu = r.primary("cuSPARSE").filter(|l| l.time.is_some()).map(|l| l.alg);
    format!(
        "    {{\"op\": {}, \"variant\": {}, \"input\": {}, \"group\": {}, \"set\": {}, \"summary_groups\": [{}], \"rows\": {}, \"cols\": {}, \
         \"nnz\": {}, \"flops\": {}, \"traffic_bytes\": {}, \"copies\": {}, \"error\": {}, \"speedup\": {}, \"oxsparse_preprocess_ms\": {}, \
         \"cusparse_preprocess_ms\": {}, \"oxsparse_no_preprocess_ms\": {}, \"speedup_no_preprocess\": {}, \"cusparse_best_alg\": {},\n     \"oxsparse\": {},\n     \"cusparse\": {},\n     \"algorithms\": [{}]}}",
        js(r.op),
        js(&r.variant),
        js(&r.input),
        js(&r.group),
        js(&r.set),
        groups.join(", "),
        r.rows,
        r.cols,
        r.nnz,
        r.flops,
        r.traffic_bytes,
        r.copies,
        r.error.as_deref().map_or("null".into(), js),
        jn(r.speedup()),
        jn(r.preprocess_ms("oxsparse")),
        jn(r.primary("cuSPARSE").and_then(|l| l.preprocess_ms)),
        jn(r.no_preprocess("oxsparse").and_then(LibResult::median)),
        jn(r.speedup_no_preprocess()),
        best_cu.map_or("null".into(), js),
        entry(r.primary("oxsparse")),
        entry(r.primary("cuSPARSE")),
        algorithms.join(",")
    )
}

fn lib_json(l: &LibResult, r: &Row, rep: &Report) -> String {
    let t = l.time;
    let c = l.check.as_ref();
    format!(
        "{{\"lib\": {}, \"alg\": {}, \"extra\": {}, \"status\": {}, \"median_ms\": {}, \"min_ms\": {}, \"max_ms\": {}, \"runs\": {}, \"host_ms\": {}, \
         \"gflops\": {}, \"gbps\": {}, \"pct_copy_bw\": {}, \"pct_peak_bw\": {}, \"preprocess_ms\": {}, \"check\": {}, \"compared\": {}, \"mismatches\": {}, \"max_abs_err\": {}, \
         \"max_rel_err\": {}, \"worst_err_over_tol\": {}, \"check_scope\": {}, \"first_mismatch\": {}, \"error\": {}}}",
        js(l.lib),
        js(l.alg),
        l.extra,
        js(l.status()),
        jn(t.map(|t| t.median_ms)),
        jn(t.map(|t| t.min_ms)),
        jn(t.map(|t| t.max_ms)),
        t.map_or(0, |t| t.runs),
        jn(t.map(|t| t.host_ms)),
        jn(r.gflops(l.median())),
        jn(r.gbps(l.median())),
        jn(r.pct_of_copy(l.median(), rep.copy_bandwidth.as_ref())),
        jn(r.pct_of(l.median(), rep.peak_gbps)),
        jn(l.preprocess_ms),
        js(l.status()),
        c.map_or(0, |c| c.compared),
        c.map_or(0, |c| c.mismatches),
        jn(c.map(|c| c.max_abs_err)),
        jn(c.and_then(|c| c.max_rel_err)),
        jn(c.map(|c| c.worst_ratio)),
        c.and_then(|c| c.scope.as_deref()).map_or("null".into(), js),
        c.and_then(|c| c.first.as_deref()).map_or("null".into(), js),
        l.error.as_deref().map_or("null".into(), js)
    )
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
pub fn jn(v: Option<f64>) -> String {
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
    use super::super::spmv::tests::spmv_row;
    use super::super::tests::{report, row, spmm_row};
    use super::super::CopyBandwidth;
    use super::*;

    #[test]
    fn json_and_csv_are_escaped() {
        let rep = report(vec![row(1.0, None, true)]);
        let j = rep.json();
        assert!(j.contains("\"variant\": \"f32, \\\"sorted\\\"\""));
        assert!(j.contains("\"cusparse\": null"));
        assert!(j.contains("\"math_mode\": \"default\","), "{j}");
        assert!(j.contains("\"reorder\": \"none\","), "{j}");
        assert!(j.contains("\"max_abs_err\": 0, \"max_rel_err\": null,"), "{j}");
        assert!(j.contains("\"check\": \"MISMATCH\""));
        assert!(j.contains("\"notes\": [\"a \\\"note\\\"\"]"));
        let c = rep.csv();
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[1].starts_with("Gather,\"f32, \"\"sorted\"\"\",n=1024,,,1024,1,10,0,1000000,0,1,1,1,,MISMATCH,,,,,,,,,,"),
            "{}",
            lines[1]
        );
        assert_eq!(lines[0].split(',').count(), lines[1].matches(',').count() + 1 - 2, "two quoted commas");
        assert!(rep.table().contains("PROBLEM: Gather n=1024"));
    }

    #[test]
    fn json_keeps_every_algorithm() {
        let rep = report(vec![spmm_row("cora", "Matrix Market", "N=32", Some(1.0), [3.0, 2.0, 1.5])]);
        let j = rep.json();
        assert_eq!(j.matches("\"lib\": \"cuSPARSE\"").count(), 3 + 1, "three algorithms and the best again");
        assert!(j.contains("\"cusparse_best_alg\": \"CSR_ALG3\""));
        assert!(j.contains("\"oxsparse_preprocess_ms\": 0.5") && j.contains("\"oxsparse_no_preprocess_ms\": 2"));
        assert!(j.contains("\"speedup\": 1.5") && j.contains("\"gflops\": 2"));
        assert!(j.contains("\"summary\": [\n    {\"op\": \"SpMM\""));
        let c = rep.csv();
        let line = c.lines().nth(1).unwrap();
        assert!(line.contains(",CSR_ALG3,1.5,") && line.contains("cuSPARSE CSR_ALG2=3"), "{line}");
    }

    #[test]
    fn spmv_rows_carry_both_variants_and_bandwidth() {
        let mut rep = report(vec![spmv_row("cora", "Matrix Market", "FP64", [2.0, 1.0], [3.0, 4.0, 5.0])]);
        rep.copy_bandwidth = Some(CopyBandwidth { bytes: 1 << 30, median_ms: 1.0, gbps: 16.0 });
        let j = rep.json();
        assert!(j.contains("\"copy_bandwidth\": {\"bytes\": 1073741824, \"median_ms\": 1, \"gbps\": 16}"), "{j}");
        assert!(j.contains("\"speedup\": 3,") && j.contains("\"speedup_no_preprocess\": 1.5"), "{j}");
        assert!(j.contains("\"oxsparse_preprocess_ms\": 0.25") && j.contains("\"oxsparse_no_preprocess_ms\": 2"), "{j}");
        assert!(j.contains("\"pct_copy_bw\": 50,") && j.contains("\"bw_cases\": 1"), "{j}");
        let c = rep.csv();
        let (head, line) = (c.lines().next().unwrap(), c.lines().nth(1).unwrap());
        // The variant ("csr FP64, alpha 0.7, beta 0") is the one quoted field: split around it.
        let (before, rest) = line.split_once(",\"").unwrap();
        let after = rest.split_once("\",").unwrap().1;
        let fields: Vec<&str> = before.split(',').chain(["variant"]).chain(after.split(',')).collect();
        let field = |name: &str| fields[head.split(',').position(|h| h == name).unwrap()].to_string();
        assert_eq!((field("speedup"), field("speedup_no_preprocess")), ("3".into(), "1.5".into()));
        assert_eq!((field("oxsparse_pct_copy_bw"), field("cusparse_pct_copy_bw")), ("50".into(), "16.666666666666664".into()));
        assert_eq!((field("oxsparse_preprocess_ms"), field("oxsparse_no_preprocess_ms")), ("0.25".into(), "2".into()));
        assert!(report(vec![]).json().contains("\"copy_bandwidth\": null"));
    }

    #[test]
    fn json_strings_escape_control_characters() {
        assert_eq!(js("a\\b\n\u{1}"), "\"a\\\\b\\n\\u0001\"");
        assert_eq!(jn(Some(f64::NAN)), "null");
    }
}
