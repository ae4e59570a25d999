//! SDDMM's part of the table. Beside each library's time (the median after its preprocess) a row
//! shows both libraries' preprocess time (once per copy, median), oxsparse's time without
//! preprocess, both GFLOP/s (2 K nnz), the call's floor (`Info::traffic_bytes`) in MB with
//! oxsparse's GB/s over it, and both libraries' GB/s as a percentage of the device's peak
//! bandwidth where the matrix has at least `BW_MIN_NNZ` nonzeros (smaller ones are launch-bound);
//! a configuration a library refused ends its row with the status it gave. Columns are as wide as
//! their widest cell.

use super::bandwidth::BW_MIN_NNZ;
use super::table::opt;
use super::{LibResult, Report, Row};
use std::fmt::Write as _;

pub const OP: &str = "SDDMM";

/// The columns: header, and whether it holds text (left-aligned) rather than numbers.
const COLUMNS: [(&str, bool); 19] = [
    ("op", true),
    ("variant", true),
    ("input", true),
    ("rows x cols", false),
    ("nnz", false),
    ("oxsparse ms", false),
    ("prep ms", false),
    ("no-prep ms", false),
    ("cuSPARSE ms", false),
    ("cu prep ms", false),
    ("speedup", false),
    ("GFLOP/s", false),
    ("cu GFLOP/s", false),
    ("floor MB", false),
    ("GB/s", false),
    ("%peak", false),
    ("cu %peak", false),
    ("check", true),
    ("refused", true),
];

impl Report {
    /// The line under the header that says what SDDMM's %peak is measured against.
    pub(super) fn peak_line(&self, s: &mut String) {
        let _ = match self.peak_gbps {
            Some(g) => writeln!(
                s,
                "peak bandwidth {g:.1} GB/s (the driver's memory clock x bus width; SDDMM's %peak is the GB/s of its floor over this, for nnz >= 1M)"
            ),
            None => writeln!(s, "peak bandwidth unknown (the driver did not give the memory clock or bus width): no SDDMM %peak"),
        };
    }

    /// SDDMM's rows.
    pub(super) fn sddmm_section(&self, s: &mut String) {
        let rows: Vec<Vec<String>> = self.rows.iter().filter(|r| r.op == OP).map(|r| cells(r, self.peak_gbps)).collect();
        let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).fold(COLUMNS[c].0.len(), usize::max);
        let widths: Vec<usize> = (0..COLUMNS.len()).map(width).collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = cells
                .iter()
                .zip(COLUMNS.iter().zip(&widths))
                .map(|(x, (&(_, text), &w))| if text { format!("{x:<w$}") } else { format!("{x:>w$}") })
                .collect();
            padded.join(" ").trim_end().to_string()
        };
        let _ = writeln!(s, "\n{}", line(&COLUMNS.map(|c| c.0.to_string())));
        for r in &rows {
            let _ = writeln!(s, "{}", line(r));
        }
    }
}

/// A row's cells, in the order of [`COLUMNS`].
fn cells(r: &Row, peak_gbps: Option<f64>) -> Vec<String> {
    let (ox, cu) = (r.median("oxsparse"), r.median("cuSPARSE"));
    let time = |lib: &str, ms: Option<f64>| if r.unsupported(lib) { "refused".to_string() } else { opt(ms, 4) };
    let pct = |ms: Option<f64>| if r.nnz >= BW_MIN_NNZ { opt(r.pct_of(ms, peak_gbps), 1) } else { "-".to_string() };
    let refused: Vec<String> =
        r.libs.iter().filter(|l| l.unsupported).filter_map(|l| Some(format!("{}: {}", l.label(), l.error.as_ref()?))).collect();
    vec![
        r.op.to_string(),
        r.variant.clone(),
        r.input.clone(),
        format!("{} x {}", r.rows, r.cols),
        r.nnz.to_string(),
        time("oxsparse", ox),
        opt(r.preprocess_ms("oxsparse"), 4),
        opt(r.no_preprocess("oxsparse").and_then(LibResult::median), 4),
        time("cuSPARSE", cu),
        opt(r.preprocess_ms("cuSPARSE"), 4),
        r.speedup().map_or("-".to_string(), |x| format!("{x:.2}x")),
        opt(r.gflops(ox), 1),
        opt(r.gflops(cu), 1),
        format!("{:.1}", r.traffic_bytes as f64 / 1e6),
        opt(r.gbps(ox), 1),
        pct(ox),
        pct(cu),
        r.status(None).to_string(),
        refused.join("; "),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::tests::{report, timing};
    use super::super::{summarize, Check, LibResult, NO_PREPROCESS};
    use super::*;
    use crate::case::{Info, Variant};

    /// An SDDMM-like row: 2M nnz, a floor of 8 MB; oxsparse after and without preprocess, and
    /// cuSPARSE's DEFAULT (None: refused, as cuSPARSE may refuse FP16 inputs).
    fn sddmm_row(input: &str, ox_ms: f64, cu_ms: Option<f64>) -> Row {
        let info = Info {
            op: OP,
            variant: "csr FP32, K=32".into(),
            input: input.into(),
            set: "attention",
            rows: 4096,
            cols: 4096,
            nnz: 2_000_000,
            traffic_bytes: 8_000_000,
            flops: 128_000_000,
            summary_groups: vec!["FP32 K=32".into()],
            chart_series: Some("K=32"),
            ..Info::default()
        };
        let mut r = Row::new(&info);
        let ok =
            || Some(Check { compared: 10, mismatches: 0, max_abs_err: 0.0, worst_ratio: 0.0, max_rel_err: None, first: None, scope: None });
        let v = |label, extra| Variant { label, code: 0, extra };
        r.libs.push(LibResult {
            time: timing(ox_ms),
            check: ok(),
            preprocess_ms: Some(0.01),
            ..LibResult::new("oxsparse", v("DEFAULT", false))
        });
        r.libs.push(LibResult { time: timing(2.0 * ox_ms), check: ok(), ..LibResult::new("oxsparse", v(NO_PREPROCESS, true)) });
        let mut cu = LibResult {
            time: cu_ms.and_then(timing),
            check: ok(),
            preprocess_ms: Some(0.02),
            ..LibResult::new("cuSPARSE", v("DEFAULT", false))
        };
        if cu_ms.is_none() {
            (cu.error, cu.unsupported, cu.check, cu.preprocess_ms) =
                (Some("cusparseSDDMM_bufferSize failed: CUSPARSE_STATUS_NOT_SUPPORTED (10)".into()), true, None, None);
        }
        r.libs.push(cu);
        r
    }

    #[test]
    fn the_section_shows_preprocess_flops_and_percent_of_peak() {
        let mut rep = report(vec![sddmm_row("window", 1.0, Some(2.0)), sddmm_row("random", 1.0, None)]);
        rep.peak_gbps = Some(16.0);
        let t = rep.table();
        assert!(t.contains("peak bandwidth 16.0 GB/s"), "{t}");
        let line = t.lines().find(|l| l.contains("window")).unwrap();
        // 1 ms: 128 GFLOP/s, 8 GB/s = 50% of 16; cuSPARSE 2 ms: 25%; preprocess 0.01 and 0.02 ms.
        for want in [" 1.0000 ", " 0.0100 ", " 2.0000 ", " 0.0200 ", " 2.00x ", " 128.0 ", " 64.0 ", " 8.0 ", " 50.0 ", " 25.0 ", " ok"] {
            assert!(line.contains(want), "{want:?} in {line}");
        }
        let refused = t.lines().find(|l| l.contains("random")).unwrap();
        assert!(
            refused.contains("refused")
                && refused.ends_with("cuSPARSE DEFAULT: cusparseSDDMM_bufferSize failed: CUSPARSE_STATUS_NOT_SUPPORTED (10)"),
            "{refused}"
        );
        assert!(!t.contains("PROBLEM"), "a refusal is no failure");
        let s = summarize(&rep.rows, None, rep.peak_gbps);
        assert_eq!(s.len(), 1);
        let line = s[0].line();
        assert!(line.starts_with("SDDMM [attention] FP32 K=32: geometric-mean speedup 2.00x over 1 of 2 cases"), "{line}");
        assert!(line.contains("; cuSPARSE refused 1 (see the table)"), "{line}");
        assert!(
            line.contains("; nnz >= 1M: 2 cases, oxsparse at 50.0% of peak bandwidth (geometric mean), min 50.0% (window), cuSPARSE 25.0%"),
            "{line}"
        );
        let j = s[0].json();
        assert!(j.contains("\"oxsparse_pct_peak_bw_min\": 50,") && j.contains("\"cusparse_unsupported\": 1,"), "{j}");
        rep.peak_gbps = None;
        let t = rep.table();
        assert!(t.contains("peak bandwidth unknown") && !t.contains("%peak is"), "{t}");
        assert!(summarize(&rep.rows, None, None)[0].line().contains("peak bandwidth unknown"));
    }

    #[test]
    fn small_matrices_get_no_percentage() {
        let mut r = sddmm_row("tiny", 1.0, Some(1.0));
        r.nnz = 1000;
        let c = cells(&r, Some(16.0));
        assert_eq!((c[15].as_str(), c[16].as_str()), ("-", "-"));
        assert_eq!(c[14], "8.0", "GB/s all the same");
    }
}
