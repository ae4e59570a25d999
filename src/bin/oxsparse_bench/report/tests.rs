use super::*;
use crate::case::ONLY;

pub fn timing(ms: f64) -> Option<Timing> {
    Some(Timing { median_ms: ms, min_ms: ms, max_ms: ms, runs: 1, host_ms: 0.0 })
}

fn check(bad: u64) -> Option<Check> {
    Some(Check {
        compared: 10,
        mismatches: bad,
        max_abs_err: 0.0,
        worst_ratio: 0.0,
        max_rel_err: None,
        first: (bad > 0).then(|| "at 3".into()),
        scope: None,
    })
}

pub fn row(ox_ms: f64, cu_ms: Option<f64>, mismatch: bool) -> Row {
    let info = Info {
        op: "Gather",
        variant: "f32, \"sorted\"".into(),
        input: "n=1024".into(),
        rows: 1024,
        cols: 1,
        nnz: 10,
        traffic_bytes: 1_000_000,
        ..Info::default()
    };
    let mut r = Row::new(&info);
    r.libs.push(LibResult { time: timing(ox_ms), check: check(u64::from(mismatch)), ..LibResult::new("oxsparse", ONLY) });
    if let Some(c) = cu_ms {
        r.libs.push(LibResult { time: timing(c), check: check(0), ..LibResult::new("cuSPARSE", ONLY) });
    }
    r
}

/// An SpMM-like row: oxsparse with and without preprocess (None: NOT_SUPPORTED), three
/// cuSPARSE algorithms.
pub fn spmm_row(input: &str, set: &'static str, series: &'static str, ox_ms: Option<f64>, cu_ms: [f64; 3]) -> Row {
    let info = Info {
        op: "SpMM",
        variant: format!("csr FP32, row-major, {series}"),
        input: input.into(),
        set,
        nnz: 1000,
        flops: 2_000_000,
        summary_groups: vec!["FP32 row-major, N=32/128/256".into(), format!("FP32 row-major {series}")],
        chart_series: Some(series),
        ..Info::default()
    };
    let mut r = Row::new(&info);
    let v = |label, extra| Variant { label, code: 0, extra };
    let mut ox = LibResult {
        time: ox_ms.and_then(timing),
        check: check(0),
        preprocess_ms: Some(0.5),
        ..LibResult::new("oxsparse", v("DEFAULT", false))
    };
    let mut no_prep = LibResult {
        time: ox_ms.map(|t| t * 2.0).and_then(timing),
        check: check(0),
        ..LibResult::new("oxsparse", v("DEFAULT, no preprocess", true))
    };
    if ox_ms.is_none() {
        for l in [&mut ox, &mut no_prep] {
            (l.error, l.unsupported, l.check, l.preprocess_ms) =
                (Some("oxsparseSpMM_bufferSize failed: OXSPARSE_STATUS_NOT_SUPPORTED (10)".into()), true, None, None);
        }
    }
    r.libs.extend([ox, no_prep]);
    for (alg, ms) in ["CSR_ALG2", "DEFAULT", "CSR_ALG3"].into_iter().zip(cu_ms) {
        r.libs.push(LibResult { time: timing(ms), check: check(0), ..LibResult::new("cuSPARSE", v(alg, false)) });
    }
    r
}

pub fn report(rows: Vec<Row>) -> Report {
    Report {
        device: "GPU".into(),
        cusparse: None,
        math_mode: "default",
        reorder: "none",
        runs: 1,
        warmup: 0,
        copy_bandwidth: None,
        peak_gbps: None,
        notes: vec!["a \"note\"".into()],
        rows,
    }
}

#[test]
fn speedup_gbps_and_failures() {
    let r = row(0.5, Some(1.0), false);
    assert_eq!(r.speedup(), Some(2.0));
    assert_eq!(r.gbps(r.median("oxsparse")), Some(2.0));
    assert_eq!(r.gflops(Some(1.0)), None, "no flops counted");
    assert!(!r.failed());
    assert_eq!(row(0.5, None, false).speedup(), None);
    let bad = row(0.5, None, true);
    assert!(bad.failed());
    assert!(bad.problems()[0].contains("MISMATCH: 1 of 10"));
}

#[test]
fn speedup_is_against_the_best_algorithm_and_ignores_extras() {
    let r = spmm_row("m", "Matrix Market", "N=32", Some(1.0), [3.0, 2.0, 1.5]);
    assert_eq!(r.speedup(), Some(1.5));
    assert_eq!(r.primary("cuSPARSE").unwrap().alg, "CSR_ALG3");
    assert_eq!(r.primary("oxsparse").unwrap().alg, "DEFAULT", "the slower no-preprocess run is not oxsparse's time");
    assert_eq!(r.extra("oxsparse").unwrap().median(), Some(2.0));
    assert_eq!(r.gflops(Some(1.0)), Some(2.0));
    assert_eq!(r.rate(Some(1.0)), Some(2.0), "GFLOP/s where flops are counted");
}

#[test]
fn yardsticks_get_their_ratio_and_are_never_the_no_preprocess_time() {
    let mut r = row(0.5, Some(1.0), false);
    let v = |label, extra| Variant { label, code: 0, extra };
    r.libs.push(LibResult { time: timing(2.0), check: check(0), ..LibResult::new("oxsparse", v("oxsparse FP16 CSR", true)) });
    r.libs.push(LibResult { time: timing(0.25), check: check(0), ..LibResult::new("cuSPARSE", v("cuBLAS int8 GEMM", true)) });
    assert_eq!(r.speedup(), Some(2.0), "yardsticks are not a library's time");
    assert!(r.extra("oxsparse").is_none() && r.no_preprocess("oxsparse").is_none());
    assert_eq!((r.yardstick_ratio("oxsparse FP16 CSR"), r.yardstick_ratio("cuBLAS int8 GEMM")), (Some(4.0), Some(0.5)));
    let table = report(vec![r]).table();
    assert!(table.contains("x cuBLAS") && table.contains("x FP16") && table.contains("4.00x") && table.contains("0.50x"), "{table}");
}

#[test]
fn not_supported_is_reported_not_failed() {
    let r = spmm_row("m", "Matrix Market", "N=32", None, [3.0, 2.0, 1.5]);
    assert!(r.unsupported("oxsparse") && !r.unsupported("cuSPARSE"));
    assert!(!r.failed());
    assert!(r.problems().is_empty());
    assert_eq!(r.speedup(), None);
    assert_eq!(r.status(None), "unsupported");
    assert_eq!(r.status(Some("cuSPARSE")), "ok");
    let t = report(vec![r]).table();
    assert!(t.contains("unsupp"), "{t}");
    assert!(!t.contains("PROBLEM"));
}

#[test]
fn tables_have_a_section_per_operation() {
    let t = report(vec![row(1.0, Some(2.0), false), spmm_row("cora", "Matrix Market", "N=32", Some(1.0), [3.0, 2.0, 1.5])]).table();
    assert!(t.contains("GB/s") && t.contains("GFLOP/s") && t.contains("no-prep ms") && t.contains("CSR_ALG3"), "{t}");
    assert!(t.lines().nth(1).unwrap().contains("(math mode default) vs cuSPARSE"), "{t}");
    assert!(t.contains("1.50x") && t.contains("CSR_ALG2 3.0000, DEFAULT 2.0000, CSR_ALG3 1.5000"), "{t}");
}
