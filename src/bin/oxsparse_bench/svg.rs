//! A grouped bar chart as hand-written SVG (no dependency): one group of bars per matrix, one bar
//! per series (N=32 / 128 / 256), reference lines at 1.0x (parity) and 1.5x, matrix names rotated
//! under the axis. A missing value (no speedup: an error, NOT_SUPPORTED) is an "x" on the axis.

use std::fmt::Write as _;

pub struct Chart {
    pub title: String,
    /// Series names, in bar order within a group.
    pub series: Vec<&'static str>,
    /// (matrix name, one value per series; shorter vectors mean missing values).
    pub groups: Vec<(String, Vec<Option<f64>>)>,
}

const COLORS: [&str; 4] = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1"];
const BAR: f64 = 9.0;
const GAP: f64 = 12.0;
const LEFT: f64 = 64.0;
const TOP: f64 = 64.0;
const PLOT_H: f64 = 320.0;
/// Average advance of a 11 px sans-serif character, to size the space under the axis.
const CHAR_W: f64 = 6.2;

/// The top of the y axis: at least 2x, above every value, on a multiple of the tick step.
fn axis_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let top = values.filter(|v| v.is_finite()).fold(2.0f64, f64::max) * 1.05;
    let step = [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0].into_iter().find(|s| top / s <= 10.0).unwrap_or(100.0);
    ((top / step).ceil() * step, step)
}

/// Escapes text for an SVG text node or attribute.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

pub fn render(c: &Chart) -> String {
    let nseries = c.series.len().max(1);
    let group_w = nseries as f64 * BAR + GAP;
    let plot_w = (c.groups.len() as f64 * group_w).max(200.0);
    let name_w = |name: &str| name.chars().count() as f64 * CHAR_W;
    let longest = c.groups.iter().map(|g| name_w(&g.0)).fold(0.0, f64::max);
    // Names at -60 degrees drop by sin(60) of their length and reach back by cos(60) of it: the
    // first groups' names need room on the left.
    let bottom = 24.0 + longest * 0.87;
    let reach = c.groups.iter().enumerate().map(|(g, (name, _))| name_w(name) * 0.5 - g as f64 * group_w).fold(0.0, f64::max);
    let left = LEFT.max(reach + 8.0);
    let (width, height) = (left + plot_w + 90.0, TOP + PLOT_H + bottom);
    let (ymax, step) = axis_max(c.groups.iter().flat_map(|g| g.1.iter().flatten().copied()));
    let y = |v: f64| TOP + PLOT_H * (1.0 - v / ymax);
    let base = y(0.0);

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{left:.1}" y="22" font-size="14" font-weight="bold">{}</text>"#, esc(&c.title));
    // Legend.
    for (k, name) in c.series.iter().enumerate() {
        let x = left + k as f64 * 90.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="34" width="12" height="12" fill="{}"/><text x="{}" y="44">{}</text>"#,
            COLORS[k % COLORS.len()],
            x + 16.0,
            esc(name)
        );
    }
    // Grid and y axis labels.
    let mut v = 0.0;
    while v <= ymax + 1e-9 {
        let _ = writeln!(
            s,
            r##"<line x1="{left:.1}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="#e5e5e5"/><text x="{2:.1}" y="{3:.1}" text-anchor="end">{v}x</text>"##,
            y(v),
            left + plot_w,
            left - 6.0,
            y(v) + 4.0
        );
        v += step;
    }
    // Bars.
    for (g, (name, values)) in c.groups.iter().enumerate() {
        let x0 = left + GAP / 2.0 + g as f64 * group_w;
        for k in 0..nseries {
            let x = x0 + k as f64 * BAR;
            match values.get(k).copied().flatten().filter(|v| v.is_finite()) {
                Some(v) => {
                    let series = c.series.get(k).copied().unwrap_or("");
                    let _ = writeln!(
                        s,
                        r#"<rect class="bar" x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{} {}: {v:.2}x</title></rect>"#,
                        y(v),
                        BAR - 1.0,
                        base - y(v),
                        COLORS[k % COLORS.len()],
                        esc(name),
                        esc(series)
                    );
                }
                None => {
                    let _ = writeln!(
                        s,
                        r##"<text class="missing" x="{:.1}" y="{:.1}" text-anchor="middle" fill="#999">x</text>"##,
                        x + BAR / 2.0,
                        base - 2.0
                    );
                }
            }
        }
        let (tx, ty) = (x0 + nseries as f64 * BAR / 2.0, base + 10.0);
        let _ = writeln!(s, r#"<text transform="translate({tx:.1},{ty:.1}) rotate(-60)" text-anchor="end">{}</text>"#, esc(name));
    }
    // The axis and the reference lines, over the bars.
    let _ = writeln!(s, r#"<line x1="{left:.1}" y1="{TOP}" x2="{left:.1}" y2="{base:.1}" stroke="black"/>"#);
    let _ = writeln!(s, r#"<line x1="{left:.1}" y1="{base:.1}" x2="{:.1}" y2="{base:.1}" stroke="black"/>"#, left + plot_w);
    for (v, dash, label) in [(1.0, "", "1.0x (parity)"), (1.5, r#" stroke-dasharray="6,4""#, "1.5x")] {
        let _ = writeln!(
            s,
            r#"<line class="ref" x1="{left:.1}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="black"{dash}/><text x="{2:.1}" y="{3:.1}">{label}</text>"#,
            y(v),
            left + plot_w,
            left + plot_w + 4.0,
            y(v) + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text transform="translate(16,{:.1}) rotate(-90)" text-anchor="middle">speedup (best cuSPARSE time / oxsparse time)</text>"#,
        TOP + PLOT_H / 2.0
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart() -> Chart {
        Chart {
            title: "SpMM <FP32>".into(),
            series: vec!["N=32", "N=128", "N=256"],
            groups: vec![("cora".into(), vec![Some(1.2), Some(0.8), None]), ("a&b".into(), vec![Some(3.1)])],
        }
    }

    #[test]
    fn bars_labels_and_reference_lines() {
        let svg = render(&chart());
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("class=\"bar\"").count(), 3);
        assert_eq!(svg.matches("class=\"missing\"").count(), 3, "one None and two absent values");
        assert_eq!(svg.matches("class=\"ref\"").count(), 2);
        assert!(svg.contains(">a&amp;b</text>") && svg.contains("SpMM &lt;FP32&gt;"));
        assert!(svg.contains("rotate(-60)\" text-anchor=\"end\">cora</text>"));
        // Axis to 3.5x (3.1 * 1.05 = 3.26, step 0.5): 1.0x sits 1/3.5 of the plot above the base.
        let y1 = TOP + PLOT_H * (1.0 - 1.0 / 3.5);
        assert!(svg.contains(&format!("y1=\"{y1:.1}\"")), "{svg}");
        assert!(svg.contains(">3.5x</text>") && !svg.contains(">4x</text>"));
        well_formed(&svg);
    }

    /// Every tag closed, in order.
    fn well_formed(svg: &str) {
        let mut open: Vec<&str> = Vec::new();
        for tag in svg.split('<').skip(1).map(|t| &t[..t.find('>').expect("a tag ends")]) {
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop(), Some(name), "</{name}> closes what was open");
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap());
            }
        }
        assert!(open.is_empty(), "left open: {open:?}");
    }

    #[test]
    fn the_axis_grows_with_the_data() {
        assert_eq!(axis_max([0.5, 1.0].into_iter()), (2.25, 0.25));
        assert_eq!(axis_max([9.0].into_iter()), (10.0, 1.0));
        assert_eq!(axis_max(std::iter::empty()), (2.25, 0.25));
        assert_eq!(axis_max([f64::INFINITY, 1.0].into_iter()).0, 2.25);
    }

    #[test]
    fn long_first_names_get_room_on_the_left() {
        let name = "x".repeat(40); // reaches back 40 * 6.2 / 2 = 124 px from its bar group
        let svg = render(&Chart { title: "t".into(), series: vec!["N=32"], groups: vec![(name, vec![Some(1.0)])] });
        assert!(svg.contains("<line x1=\"132.0\""), "{svg}");
        assert!(render(&chart()).contains("<line x1=\"64.0\""), "short names keep the default margin");
    }

    #[test]
    fn an_empty_chart_is_still_valid() {
        let svg = render(&Chart { title: "t".into(), series: vec![], groups: vec![] });
        assert!(svg.contains("class=\"ref\"") && svg.ends_with("</svg>\n"));
        well_formed(&svg);
    }
}
