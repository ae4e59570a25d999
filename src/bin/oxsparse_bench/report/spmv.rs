//! SpMV's part of the report. Its rows hold oxsparse twice, without preprocess (`NO_PREPROCESS`)
//! and after one ("DEFAULT"), both main variants: oxsparse's time (and the speedup) is the better
//! of the two, and the speedup without preprocess is kept beside it. Its GB/s count the issue's
//! bytes (`Info::traffic_bytes`) and are also shown as a percentage of the device's copy
//! bandwidth; the summary adds, per group, the speedup without preprocess and, over the matrices
//! with at least `BW_MIN_NNZ` nonzeros, that percentage (`bandwidth.rs`).

use super::summary::geomean_min;
use super::table::{opt, truncate};
use super::{jn, js, LibResult, Report, Row};
use std::fmt::Write as _;

pub const OP: &str = "SpMV";

impl Report {
    /// SpMV's rows, with the columns of both oxsparse variants and of bandwidth.
    pub(super) fn spmv_section(&self, s: &mut String) {
        let copy = self.copy_bandwidth.as_ref();
        let _ = writeln!(
            s,
            "\n{:<6} {:<30} {:<26} {:>19} {:>10} {:>11} {:>10} {:>10} {:>8} {:>11} {:>11} {:<13} {:>8} {:>10} {:>8} {:>8} {:>6} {:>8}  {:<11}  every cuSPARSE algorithm, ms",
            "op", "variant", "input", "rows x cols", "nnz", "oxsparse ms", "no-prep ms", "prep'd ms", "prep ms", "host us o/c", "cuSPARSE ms", "best alg", "speedup", "no-prep sp", "GFLOP/s", "GB/s", "%copy", "cu %copy", "check"
        );
        for r in self.rows.iter().filter(|r| r.op == OP) {
            let (ox, cu) = (r.median("oxsparse"), r.median("cuSPARSE"));
            let ox_ms = if r.unsupported("oxsparse") { "unsupp".to_string() } else { opt(ox, 4) };
            let ms = |l: Option<&LibResult>| l.and_then(LibResult::median);
            let alg = r.primary("cuSPARSE").filter(|l| l.time.is_some()).map_or("-", |l| l.alg);
            let x = |v: Option<f64>| v.map_or("-".into(), |x| format!("{x:.2}x"));
            let each: Vec<String> = r
                .libs
                .iter()
                .filter(|l| l.lib == "cuSPARSE")
                .map(|l| format!("{} {}", l.alg, l.median().map_or(l.status().to_string(), |m| format!("{m:.4}"))))
                .collect();
            let _ = writeln!(
                s,
                "{:<6} {:<30} {:<26} {:>19} {:>10} {:>11} {:>10} {:>10} {:>8} {:>11} {:>11} {:<13} {:>8} {:>10} {:>8} {:>8} {:>6} {:>8}  {:<11}  {}",
                r.op,
                truncate(&r.variant, 30),
                truncate(&r.input, 26),
                format!("{} x {}", r.rows, r.cols),
                r.nnz,
                ox_ms,
                opt(ms(r.no_preprocess("oxsparse")), 4),
                opt(ms(r.preprocessed("oxsparse")), 4),
                opt(r.preprocess_ms("oxsparse"), 4),
                host_us(r),
                opt(cu, 4),
                truncate(alg, 13),
                x(r.speedup()),
                x(r.speedup_no_preprocess()),
                opt(r.gflops(ox), 1),
                opt(r.gbps(ox), 1),
                opt(r.pct_of_copy(ox, copy), 1),
                opt(r.pct_of_copy(cu, copy), 1),
                r.status(None),
                each.join(", ")
            );
        }
    }
}

/// The median host time of one call (enqueueing only), oxsparse / cuSPARSE, in microseconds.
fn host_us(r: &Row) -> String {
    let us = |lib: &str| r.primary(lib).and_then(|l| l.time).map_or("-".to_string(), |t| format!("{:.1}", t.host_ms * 1e3));
    format!("{}/{}", us("oxsparse"), us("cuSPARSE"))
}

/// What an SpMV group's summary adds to the common one (and before its bandwidth, `bandwidth.rs`).
#[derive(Debug, PartialEq)]
pub struct SpmvSummary {
    /// The speedup of oxsparse without preprocess: geometric mean, min and its input.
    pub no_prep: Option<(f64, f64, String)>,
}

pub fn summarize(members: &[&Row]) -> SpmvSummary {
    let no_prep: Vec<(f64, &str)> = members.iter().filter_map(|r| Some((r.speedup_no_preprocess()?, r.input.as_str()))).collect();
    SpmvSummary { no_prep: geomean_min(&no_prep) }
}

impl SpmvSummary {
    /// The addition to the group's summary line.
    pub fn line(&self) -> String {
        self.no_prep.as_ref().map_or(String::new(), |(g, min, at)| format!("; without preprocess {g:.2}x, min {min:.2}x ({at})"))
    }

    /// Fields appended to the group's JSON object (each preceded by ", ").
    pub fn json(&self) -> String {
        let np = self.no_prep.as_ref();
        format!(
            ", \"speedup_no_preprocess_geomean\": {}, \"speedup_no_preprocess_min\": {}, \"speedup_no_preprocess_min_input\": {}",
            jn(np.map(|v| v.0)),
            jn(np.map(|v| v.1)),
            np.map_or("null".into(), |v| js(&v.2)),
        )
    }
}

#[cfg(test)]
pub mod tests {
    use super::super::tests::{report, timing};
    use super::super::{summarize as summarize_all, Check, CopyBandwidth, NO_PREPROCESS};
    use super::*;
    use crate::case::{Info, Variant};

    /// An SpMV-like row of 2M nnz and 8 MB: oxsparse [without, with] preprocess, cuSPARSE's
    /// DEFAULT, CSR_ALG1, CSR_ALG2, all checked.
    pub fn spmv_row(input: &str, set: &'static str, precision: &'static str, ox_ms: [f64; 2], cu_ms: [f64; 3]) -> Row {
        let info = Info {
            op: OP,
            variant: format!("csr {precision}, alpha 0.7, beta 0"),
            input: input.into(),
            set,
            nnz: 2_000_000,
            traffic_bytes: 8_000_000,
            flops: 4_000_000,
            summary_groups: vec![precision.into()],
            chart_series: Some(precision),
            ..Info::default()
        };
        let mut r = Row::new(&info);
        let ok =
            || Some(Check { compared: 10, mismatches: 0, max_abs_err: 0.0, worst_ratio: 0.0, max_rel_err: None, first: None, scope: None });
        let v = |label| Variant { label, code: 0, extra: false };
        r.libs.push(LibResult { time: timing(ox_ms[0]), check: ok(), ..LibResult::new("oxsparse", v(NO_PREPROCESS)) });
        r.libs.push(LibResult {
            time: timing(ox_ms[1]),
            check: ok(),
            preprocess_ms: Some(0.25),
            ..LibResult::new("oxsparse", v("DEFAULT"))
        });
        for (alg, ms) in ["DEFAULT", "CSR_ALG1", "CSR_ALG2"].into_iter().zip(cu_ms) {
            r.libs.push(LibResult { time: timing(ms), check: ok(), ..LibResult::new("cuSPARSE", v(alg)) });
        }
        r
    }

    #[test]
    fn the_better_oxsparse_variant_counts_and_the_other_is_kept() {
        let r = spmv_row("m", "Matrix Market", "FP32", [2.0, 1.0], [3.0, 4.0, 5.0]);
        assert_eq!(r.speedup(), Some(3.0));
        assert_eq!(r.speedup_no_preprocess(), Some(1.5));
        assert_eq!((r.preprocessed("oxsparse").unwrap().alg, r.preprocess_ms("oxsparse")), ("DEFAULT", Some(0.25)));
        let plain_wins = spmv_row("m", "Matrix Market", "FP32", [0.5, 1.0], [3.0, 4.0, 5.0]);
        assert_eq!(plain_wins.speedup(), Some(6.0), "without preprocess is faster here: it counts");
        let copy = CopyBandwidth { bytes: 1 << 30, median_ms: 1.0, gbps: 16.0 };
        // 8 MB in 1 ms: 8 GB/s, half the copy bandwidth.
        assert_eq!(r.pct_of_copy(r.median("oxsparse"), Some(&copy)), Some(50.0));
        assert_eq!(r.pct_of_copy(Some(1.0), None), None);
    }

    #[test]
    fn the_section_and_summary_show_bandwidth() {
        let mut small = spmv_row("tiny", "Matrix Market", "FP32", [0.1, 0.1], [0.05, 0.05, 0.05]);
        small.nnz = 1000;
        let rows = vec![
            spmv_row("a", "Matrix Market", "FP32", [2.0, 1.0], [2.0, 2.0, 2.0]),
            spmv_row("b", "Matrix Market", "FP32", [4.0, 4.0], [2.0, 4.0, 4.0]),
            small,
            spmv_row("a", "Matrix Market", "FP64", [2.0, 2.0], [2.0, 2.0, 2.0]),
        ];
        let mut rep = report(rows);
        rep.copy_bandwidth = Some(CopyBandwidth { bytes: 1 << 30, median_ms: 1.0, gbps: 16.0 });
        let t = rep.table();
        assert!(t.contains("copy bandwidth") && t.contains("no-prep sp") && t.contains("%copy"), "{t}");
        assert!(t.contains("  2.00x ") && t.contains(" 50.0 "), "{t}");
        let s = summarize_all(&rep.rows, rep.copy_bandwidth.as_ref(), None);
        let fp32 = s.iter().find(|g| g.group == "FP32").unwrap();
        let (spmv, bw) = (fp32.spmv.as_ref().unwrap(), fp32.bandwidth.as_ref().unwrap());
        // Speedups 2, 0.5, 0.5 (geomean 0.63); without preprocess 1, 0.5, 0.5.
        assert_eq!(spmv.no_prep.as_ref().map(|v| (v.1, v.2.as_str())), Some((0.5, "b")));
        // a: 8 MB in 1 ms = 50%; b: in 4 ms = 12.5%; tiny is under 1M nnz.
        assert_eq!(bw.big, 2);
        let (g, min, at) = bw.ox_pct.clone().unwrap();
        assert!((g - 25.0).abs() < 1e-9 && min == 12.5 && at == "b", "{g} {min} {at}");
        assert!(
            fp32.line().contains("nnz >= 1M: 2 cases, oxsparse at 25.0% of copy bandwidth (geometric mean), min 12.5% (b), cuSPARSE 25.0%"),
            "{}",
            fp32.line()
        );
        assert!(fp32.json().contains("\"oxsparse_pct_copy_bw_min_input\": \"b\""));
        rep.copy_bandwidth = None;
        assert!(summarize_all(&rep.rows, None, None)[0].line().contains("copy bandwidth not measured"));
    }
}
