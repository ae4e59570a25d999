//! The summary under the table: per operation, matrix set ("Matrix Market", "R-MAT", ...) and case
//! group (`Info::summary_groups`, e.g. "FP32 row-major N=32"), the geometric-mean speedup, how
//! often oxsparse is faster, and the smallest speedup with its matrix; SpMV's groups add their
//! own figures (`spmv.rs`), and SpMV's and SDDMM's their bandwidth (`bandwidth.rs`).

use super::bandwidth::{self, BwSummary, Yardstick};
use super::spmv::{self, SpmvSummary};
use super::{jn, js, sddmm, CopyBandwidth, Row};

pub struct GroupSummary {
    pub op: &'static str,
    pub set: String,
    /// "" for an operation without groups.
    pub group: String,
    /// Rows in the group, and those of them with a speedup.
    pub cases: usize,
    pub with_speedup: usize,
    pub geomean: Option<f64>,
    /// Cases where oxsparse is faster (speedup above 1).
    pub wins: usize,
    /// The smallest speedup and its input.
    pub min: Option<(f64, String)>,
    /// Cases where oxsparse answered NOT_SUPPORTED.
    pub unsupported: usize,
    /// Cases where cuSPARSE refused the configuration (NOT_SUPPORTED, or what the case accepts
    /// as a refusal: `Case::refused`).
    pub cu_unsupported: usize,
    /// Cases with an error or a mismatch.
    pub failed: usize,
    /// SpMV's additions (speedup without preprocess).
    pub spmv: Option<SpmvSummary>,
    /// SpMV's and SDDMM's GB/s against their yardstick.
    pub bandwidth: Option<BwSummary>,
}

impl GroupSummary {
    pub fn line(&self) -> String {
        let mut name = format!("{} [{}]", self.op, if self.set.is_empty() { "-" } else { &self.set });
        if !self.group.is_empty() {
            name = format!("{name} {}", self.group);
        }
        let mut s = match (self.geomean, &self.min) {
            (Some(g), Some((min, at))) => format!(
                "{name}: geometric-mean speedup {g:.2}x over {} of {} cases, oxsparse faster in {}, min {min:.2}x ({at})",
                self.with_speedup, self.cases, self.wins
            ),
            _ => format!("{name}: no speedup in {} cases", self.cases),
        };
        if self.unsupported > 0 {
            s += &format!("; oxsparse NOT_SUPPORTED in {}", self.unsupported);
        }
        if self.cu_unsupported > 0 {
            s += &format!("; cuSPARSE refused {} (see the table)", self.cu_unsupported);
        }
        if let Some(x) = &self.spmv {
            s += &x.line();
        }
        if let Some(b) = &self.bandwidth {
            s += &b.line();
        }
        if self.failed > 0 {
            s += &format!("; {} FAILED (see PROBLEM lines)", self.failed);
        }
        s
    }

    pub fn json(&self) -> String {
        format!(
            "{{\"op\": {}, \"set\": {}, \"group\": {}, \"cases\": {}, \"with_speedup\": {}, \"geomean_speedup\": {}, \"oxsparse_faster\": {}, \
             \"min_speedup\": {}, \"min_input\": {}, \"oxsparse_unsupported\": {}, \"cusparse_unsupported\": {}, \"failed\": {}{}{}}}",
            js(self.op),
            js(&self.set),
            js(&self.group),
            self.cases,
            self.with_speedup,
            jn(self.geomean),
            self.wins,
            jn(self.min.as_ref().map(|m| m.0)),
            self.min.as_ref().map_or("null".into(), |m| js(&m.1)),
            self.unsupported,
            self.cu_unsupported,
            self.failed,
            self.spmv.as_ref().map_or(String::new(), SpmvSummary::json),
            self.bandwidth.as_ref().map_or(String::new(), BwSummary::json)
        )
    }
}

/// Keys in order of first appearance.
fn distinct<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut v: Vec<&str> = Vec::new();
    for k in keys {
        if !v.contains(&k) {
            v.push(k);
        }
    }
    v
}

/// The geometric mean and the smallest value (with its input) of positive values.
pub fn geomean_min(v: &[(f64, &str)]) -> Option<(f64, f64, String)> {
    let min = v.iter().min_by(|a, b| a.0.total_cmp(&b.0))?;
    let geomean = (v.iter().map(|x| x.0.ln()).sum::<f64>() / v.len() as f64).exp();
    Some((geomean, min.0, min.1.to_string()))
}

/// The yardstick of an operation's bandwidth summary, if it has one: SpMV's the copy bandwidth,
/// SDDMM's the device's peak (GB/s).
fn yardstick(op: &str, copy: Option<&CopyBandwidth>, peak_gbps: Option<f64>) -> Option<Yardstick> {
    match op {
        spmv::OP => Some(Yardstick::copy(copy)),
        sddmm::OP => Some(Yardstick::peak(peak_gbps)),
        _ => None,
    }
}

/// One summary per (operation, set, group), in order of first appearance of each; `copy` and
/// `peak_gbps` are the yardsticks of SpMV's and SDDMM's bandwidth.
pub fn summarize(rows: &[Row], copy: Option<&CopyBandwidth>, peak_gbps: Option<f64>) -> Vec<GroupSummary> {
    let groups_of = |r: &Row| -> Vec<String> {
        if r.summary_groups.is_empty() {
            vec![String::new()]
        } else {
            r.summary_groups.clone()
        }
    };
    let mut out = Vec::new();
    for op in distinct(rows.iter().map(|r| r.op)) {
        let of_op: Vec<&Row> = rows.iter().filter(|r| r.op == op).collect();
        let groups: Vec<String> = {
            let all: Vec<String> = of_op.iter().flat_map(|r| groups_of(r)).collect();
            distinct(all.iter().map(String::as_str)).into_iter().map(String::from).collect()
        };
        for set in distinct(of_op.iter().map(|r| r.set.as_str())) {
            for group in &groups {
                let members: Vec<&Row> = of_op.iter().copied().filter(|r| r.set == set && groups_of(r).contains(group)).collect();
                if members.is_empty() {
                    continue;
                }
                let sp: Vec<(f64, &str)> = members.iter().filter_map(|r| Some((r.speedup()?, r.input.as_str()))).collect();
                let gm = geomean_min(&sp);
                out.push(GroupSummary {
                    op,
                    set: set.to_string(),
                    group: group.clone(),
                    cases: members.len(),
                    with_speedup: sp.len(),
                    geomean: gm.as_ref().map(|g| g.0),
                    wins: sp.iter().filter(|x| x.0 > 1.0).count(),
                    min: gm.map(|g| (g.1, g.2)),
                    unsupported: members.iter().filter(|r| r.unsupported("oxsparse")).count(),
                    cu_unsupported: members.iter().filter(|r| r.unsupported("cuSPARSE")).count(),
                    failed: members.iter().filter(|r| r.failed()).count(),
                    spmv: (op == spmv::OP).then(|| spmv::summarize(&members)),
                    bandwidth: yardstick(op, copy, peak_gbps).map(|y| bandwidth::summarize(&members, y)),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{row, spmm_row};
    use super::*;

    #[test]
    fn groups_per_set_with_geomean_and_min() {
        let rows = vec![
            spmm_row("a", "Matrix Market", "N=32", Some(1.0), [2.0, 4.0, 4.0]),
            spmm_row("a", "Matrix Market", "N=128", Some(1.0), [0.5, 0.5, 0.5]),
            spmm_row("b", "Matrix Market", "N=32", Some(1.0), [8.0, 8.0, 8.0]),
            spmm_row("g", "R-MAT", "N=32", None, [1.0, 1.0, 1.0]),
            row(1.0, Some(2.0), false),
        ];
        let s = summarize(&rows, None, None);
        let names: Vec<String> = s.iter().map(|g| format!("{}/{}/{}", g.op, g.set, g.group)).collect();
        assert_eq!(
            names,
            vec![
                "SpMM/Matrix Market/FP32 row-major, N=32/128/256",
                "SpMM/Matrix Market/FP32 row-major N=32",
                "SpMM/Matrix Market/FP32 row-major N=128",
                "SpMM/R-MAT/FP32 row-major, N=32/128/256",
                "SpMM/R-MAT/FP32 row-major N=32",
                "Gather//",
            ]
        );
        // N=32 on the Matrix Market set: speedups 2 and 8, geometric mean 4.
        let n32 = &s[1];
        assert!((n32.geomean.unwrap() - 4.0).abs() < 1e-12);
        assert_eq!((n32.cases, n32.wins, n32.min.clone()), (2, 2, Some((2.0, "a".to_string()))));
        // All N together: 2, 0.5, 8: geometric mean 2, min 0.5 on a.
        assert!((s[0].geomean.unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(s[0].min, Some((0.5, "a".to_string())));
        let rmat = &s[4];
        assert_eq!((rmat.cases, rmat.with_speedup, rmat.unsupported, rmat.geomean), (1, 0, 1, None));
        assert!(rmat.line().contains("no speedup in 1 cases; oxsparse NOT_SUPPORTED in 1"), "{}", rmat.line());
        assert!(n32.line().starts_with("SpMM [Matrix Market] FP32 row-major N=32: geometric-mean speedup 4.00x over 2 of 2 cases"));
        assert!(s[5].json().contains("\"geomean_speedup\": 2"));
    }
}
