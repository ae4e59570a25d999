//! The SVG file: a bar chart of oxsparse's speedup per operation that has chart rows (SpMM: FP32
//! row-major, one bar per N; SpMV: one bar per precision; SDDMM: FP32, one bar per K and layout),
//! one group of bars per matrix; several charts are stacked in one SVG, so that `--svg PATH` stays
//! one file.

use super::Report;
use crate::svg;
use std::fmt::Write as _;

impl Report {
    /// The SVG of every operation's chart, or None when no row is a bar of one.
    pub fn svg(&self) -> Option<String> {
        let mut ops: Vec<&'static str> = Vec::new();
        for r in self.rows.iter().filter(|r| r.chart_series.is_some()) {
            if !ops.contains(&r.op) {
                ops.push(r.op);
            }
        }
        let charts: Vec<String> = ops.iter().map(|op| svg::render(&self.chart(op))).collect();
        stack(charts)
    }

    fn chart(&self, op: &str) -> svg::Chart {
        let what = match op {
            "SpMM" => "(FP32, row-major B and C)",
            "SpMV" => "(CSR, best of oxsparse with and without preprocess)",
            "SDDMM" => "(FP32, CSR C, A row-major, B column-major unless the bar says B row, one bar per K)",
            _ => "",
        };
        let title = format!("oxsparse {op} speedup over the best cuSPARSE algorithm {what} on {}", self.device).replace("  ", " ");
        let mut chart = svg::Chart { title, series: Vec::new(), groups: Vec::new() };
        for r in self.rows.iter().filter(|r| r.op == op) {
            let Some(series) = r.chart_series else { continue };
            let k = chart.series.iter().position(|&s| s == series).unwrap_or_else(|| {
                chart.series.push(series);
                chart.series.len() - 1
            });
            let g = chart.groups.iter().position(|(name, _)| *name == r.input).unwrap_or_else(|| {
                chart.groups.push((r.input.clone(), Vec::new()));
                chart.groups.len() - 1
            });
            let bars = &mut chart.groups[g].1;
            bars.resize(bars.len().max(k + 1), None);
            bars[k] = r.speedup();
        }
        chart
    }
}

/// The value of attribute `name` in the first tag of an SVG document.
fn attr(doc: &str, name: &str) -> Option<f64> {
    let tag = &doc[..doc.find('>')?];
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[at..].split('"').next()?.parse().ok()
}

/// One SVG document of the charts, one under another (each a nested `<svg>` at its offset).
fn stack(charts: Vec<String>) -> Option<String> {
    if charts.len() <= 1 {
        return charts.into_iter().next();
    }
    const OPEN: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" ";
    let size = |c: &String| (attr(c, "width").unwrap_or(0.0), attr(c, "height").unwrap_or(0.0));
    let width = charts.iter().map(|c| size(c).0).fold(0.0, f64::max);
    let height: f64 = charts.iter().map(|c| size(c).1).sum();
    let mut s = String::new();
    let _ = writeln!(s, "{OPEN}width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\">");
    let mut y = 0.0;
    for c in &charts {
        s.push_str(&c.replacen(OPEN, &format!("<svg y=\"{y:.0}\" "), 1));
        y += size(c).1;
    }
    s.push_str("</svg>\n");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::super::spmv::tests::spmv_row;
    use super::super::tests::{report, row, spmm_row};
    use super::*;

    #[test]
    fn the_chart_has_a_group_per_matrix_and_a_bar_per_n() {
        let rows = vec![
            spmm_row("a", "Matrix Market", "N=32", Some(1.0), [2.0, 2.0, 2.0]),
            spmm_row("a", "Matrix Market", "N=128", Some(1.0), [3.0, 3.0, 3.0]),
            spmm_row("b", "R-MAT", "N=32", None, [2.0, 2.0, 2.0]),
            row(1.0, Some(1.0), false),
        ];
        let svg = report(rows).svg().unwrap();
        assert_eq!(svg.matches("class=\"bar\"").count(), 2, "b has no speedup: no bar");
        assert!(svg.contains(">a</text>") && svg.contains(">b</text>") && svg.contains(">N=128</text>"));
        assert_eq!(svg.matches("<svg").count(), 1, "one chart: one document, as before");
        assert!(report(vec![row(1.0, Some(1.0), false)]).svg().is_none());
    }

    #[test]
    fn charts_of_several_operations_are_stacked() {
        let rows = vec![
            spmm_row("a", "Matrix Market", "N=32", Some(1.0), [2.0, 2.0, 2.0]),
            spmv_row("a", "Matrix Market", "FP32", [1.0, 2.0], [1.5, 1.5, 1.5]),
        ];
        let rep = report(rows);
        let svg = rep.svg().unwrap();
        assert_eq!(svg.matches("<svg").count(), 3);
        assert_eq!(svg.matches("</svg>").count(), 3);
        assert!(svg.contains("oxsparse SpMV speedup") && svg.contains("oxsparse SpMM speedup"));
        let first = svg::render(&rep.chart("SpMM"));
        let h = attr(&first, "height").unwrap();
        assert!(svg.contains(&format!("<svg y=\"{h:.0}\" ")), "the second chart starts under the first");
        assert_eq!(attr("<svg a=\"1\" width=\"20.5\" height=\"7\">", "width"), Some(20.5));
    }
}
