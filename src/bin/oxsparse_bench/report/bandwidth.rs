//! The bandwidth part of a group's summary, for the operations whose GB/s are compared with a
//! yardstick: SpMV's with the copy bandwidth measured at the start of the run, SDDMM's with the
//! device's peak (the driver's memory clock x bus width). Over the members with at least
//! [`BW_MIN_NNZ`] nonzeros (smaller ones are launch-bound), each library's GB/s (of the case's
//! byte count, `Info::traffic_bytes`) as a percentage of the yardstick: the geometric mean, and
//! oxsparse's smallest with its input.

use super::summary::geomean_min;
use super::{jn, js, CopyBandwidth, Row};
use std::fmt::Write as _;

/// Matrices this large count in the bandwidth summary.
pub const BW_MIN_NNZ: u64 = 1_000_000;

/// What GB/s are compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Yardstick {
    /// How the summary names it: "copy bandwidth".
    pub name: &'static str,
    /// The middle of its JSON keys: "copy_bw" in "oxsparse_pct_copy_bw_geomean".
    pub key: &'static str,
    /// What the summary says when it is not known: "not measured".
    pub unknown: &'static str,
    pub gbps: Option<f64>,
}

impl Yardstick {
    /// SpMV's: the copy bandwidth, when measured.
    pub fn copy(c: Option<&CopyBandwidth>) -> Yardstick {
        Yardstick { name: "copy bandwidth", key: "copy_bw", unknown: "not measured", gbps: c.map(|c| c.gbps) }
    }

    /// SDDMM's: the device's peak bandwidth, when the driver tells it.
    pub fn peak(gbps: Option<f64>) -> Yardstick {
        Yardstick { name: "peak bandwidth", key: "peak_bw", unknown: "unknown", gbps }
    }
}

#[derive(Debug, PartialEq)]
pub struct BwSummary {
    pub yardstick: Yardstick,
    /// Members with nnz >= BW_MIN_NNZ.
    pub big: usize,
    /// oxsparse's percentage over them: geometric mean, min and its input.
    pub ox_pct: Option<(f64, f64, String)>,
    /// cuSPARSE's (best variant) percentage over them: geometric mean.
    pub cu_pct: Option<f64>,
}

pub fn summarize(members: &[&Row], y: Yardstick) -> BwSummary {
    let big: Vec<&Row> = members.iter().copied().filter(|r| r.nnz >= BW_MIN_NNZ).collect();
    let pct =
        |lib: &str| -> Vec<(f64, &str)> { big.iter().filter_map(|r| Some((r.pct_of(r.median(lib), y.gbps)?, r.input.as_str()))).collect() };
    BwSummary { yardstick: y, big: big.len(), ox_pct: geomean_min(&pct("oxsparse")), cu_pct: geomean_min(&pct("cuSPARSE")).map(|g| g.0) }
}

impl BwSummary {
    /// The addition to the group's summary line.
    pub fn line(&self) -> String {
        let y = &self.yardstick;
        let mut s = format!("; nnz >= 1M: {} cases", self.big);
        match (&self.ox_pct, y.gbps) {
            (_, None) => {
                let _ = write!(s, ", {} {}", y.name, y.unknown);
            }
            (Some((g, min, at)), Some(_)) => {
                let _ = write!(s, ", oxsparse at {g:.1}% of {} (geometric mean), min {min:.1}% ({at})", y.name);
                if let Some(c) = self.cu_pct {
                    let _ = write!(s, ", cuSPARSE {c:.1}%");
                }
            }
            (None, Some(_)) => {}
        }
        s
    }

    /// Fields appended to the group's JSON object (each preceded by ", ").
    pub fn json(&self) -> String {
        let (ox, key) = (self.ox_pct.as_ref(), self.yardstick.key);
        format!(
            ", \"bw_min_nnz\": {BW_MIN_NNZ}, \"bw_cases\": {}, \"oxsparse_pct_{key}_geomean\": {}, \"oxsparse_pct_{key}_min\": {}, \
             \"oxsparse_pct_{key}_min_input\": {}, \"cusparse_pct_{key}_geomean\": {}",
            self.big,
            jn(ox.map(|v| v.0)),
            jn(ox.map(|v| v.1)),
            ox.map_or("null".into(), |v| js(&v.2)),
            jn(self.cu_pct)
        )
    }
}
