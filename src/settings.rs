//! The handle's tuning and forcing settings: one value per handle, initialised from the
//! environment when the handle is created (so unmodified programs can tune through `OXSPARSE_*`
//! variables, docs/tuning.md), changed per handle by `oxsparseSetTuning`. The planners read them
//! from the handle, never from the environment, so one process can run handles with different
//! settings side by side (the tests do).
//!
//! Values follow the variables' spellings. From the environment a value that does not parse is
//! ignored (as if unset); `oxsparseSetTuning` refuses it. Range checks that depend on a kernel's
//! constants (a tile size, a piece) stay with the rule that reads the value.

use crate::error::{invalid, Result};
use crate::types::{MathMode, ReorderMode};

/// A kernel `OXSPARSE_SPMM_KERNEL` forces, for tests and comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedKernel {
    /// `cuda_cores`: no tensor cores in the tensor-op math modes.
    CudaCores,
    /// `tensor_cores`: tensor cores for every matrix they can take in those modes.
    TensorCores,
    /// `rowvec`: the vectorised row kernel instead of the tiles.
    RowVec,
    /// `tiles`: tile-kernel plans keep the tiles after preprocess (short_rows.rs).
    Tiles,
    /// `short_rows`: tile-kernel plans run the short-row kernel, plain calls too (short_rows.rs).
    ShortRows,
    /// `split_rows`: preprocess builds the split-row table wherever the plan has room (split_rows/).
    SplitRows,
    /// `warp_rows`: preprocess takes the warp-row kernel wherever the call fits it (warp_rows/).
    WarpRows,
}

/// The short-row kernel's group shapes `OXSPARSE_SPMM_ROW_SHAPE` may put first. An enum of its own
/// so that the settings depend on no layer above them; `From` maps it to the kernels' `RowShape`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowShapeName {
    Narrow,
    Wide,
    NarrowX2,
    WideX2,
    Half,
    Packed,
    PackedWide,
}

/// How preprocess builds the warp-row table (`OXSPARSE_SPMM_WARP_ROWS_TABLE`; warp_rows/).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableBuild {
    #[default]
    Listed,
    Host,
    Gpu,
}

/// `OXSPARSE_SPMM_BRCV`: whether SpMM preprocess looks for a band in a CSR matrix and runs BRCV's
/// kernels on it (src/ops/spmm/banded.rs). Off by default: as measured, the per-call refresh of the
/// band from A's values costs more than the band saves (docs/design/brcv.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BrcvMode {
    #[default]
    Off,
    /// Room and detection by the rule (sizes), the band taken where it fits.
    Rule,
    /// Room at any size, the band taken wherever it fits.
    On,
}

/// How a plain call chooses between whole short rows and the tiles (`OXSPARSE_SPMM_PLAIN_CHOICE`;
/// plain_choice.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlainChoice {
    #[default]
    Rule,
    Gpu,
    Tiles,
}

/// Which SpMV kernel `OXSPARSE_SPMV_KERNEL` forces after preprocess: `tiles`, `vector` (huge
/// rows' chunks launched apart from 4M entries on, as chosen), or `split` (always apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpmvKernel {
    Tiles,
    Vector,
    Split,
}

/// Launch settings (kernels/graph.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Launch through graphs (`OXSPARSE_LAUNCH=direct` turns them off).
    pub graphs: bool,
    /// Programmatic dependent launch on sm_90 and newer (`OXSPARSE_PDL=0` turns it off).
    pub pdl: bool,
    /// Graphs a launch key keeps (`OXSPARSE_LAUNCH_POOL`, clamped to the pool's maximum).
    pub pool: Option<usize>,
}

impl Default for Launch {
    fn default() -> Launch {
        Launch { graphs: true, pdl: true, pool: None }
    }
}

/// SpMM's forcing and tuning settings (docs/tuning.md names each variable's effect).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spmm {
    pub kernel: Option<ForcedKernel>,
    pub tile: Option<u32>,
    pub tile_slices: Option<u64>,
    pub row_shape: Option<RowShapeName>,
    pub short_slices: Option<u64>,
    pub piece: Option<i64>,
    /// `OXSPARSE_SPMM_DIRECT_C=0`: always stage C.
    pub stage_c_always: bool,
    pub split_c_bytes: Option<u64>,
    pub plain_warp_rows: Option<bool>,
    pub warp_rows_table: TableBuild,
    pub warp_rows_whole: Option<i64>,
    /// `OXSPARSE_SPMM_ROW_ORDER`: Some(true) `always`, Some(false) `never`.
    pub row_order: Option<bool>,
    pub plain_choice: PlainChoice,
    /// `OXSPARSE_SPMM_BRCV`: the banded path of preprocess (off unless set).
    pub brcv: BrcvMode,
    /// `OXSPARSE_SPMM_BLOCKED_COPIES`: how the block-format tensor-core kernels bring their
    /// operands into shared memory.
    pub blocked_copies: Option<BlockedCopies>,
    /// `OXSPARSE_SPMM_BLOCKED_SMALL=off`: BSR's small blocks on the general block-row kernel.
    pub small_blocks_off: bool,
}

/// The block-format tensor-core kernels' copies (src/kernels/spmm.rs `blocked`), each taken
/// wherever the operands fit it and the next one down elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockedCopies {
    /// `tma`: boxes by sm_90's tensor memory accelerator (16-bit operands, blocks of 16 or 32 rows).
    Tma,
    /// `async`: 16-byte `cp.async` copies, several stages in flight.
    Async,
    /// `staged`: element by element, one chunk at a time (any layout).
    Staged,
}

/// SpMV's forcing and tuning settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spmv {
    pub kernel: Option<SpmvKernel>,
    pub tile: Option<i64>,
    /// `OXSPARSE_SPMV_COLUMNS`: Some(true) `sorted`, Some(false) `natural`.
    pub sorted_columns: Option<bool>,
    /// `OXSPARSE_SPMV_BAND`: Some(true) `on`, Some(false) `off`.
    pub band: Option<bool>,
}

/// SDDMM's tuning settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sddmm {
    /// `OXSPARSE_SDDMM_LANES`: lanes per dot product (a power of two up to 32).
    pub lanes: Option<u32>,
    /// `OXSPARSE_SDDMM_UNROLL`: values a group of lanes takes a step (1, 2 or 4).
    pub unroll: Option<u32>,
    /// `OXSPARSE_SDDMM_KERNEL`: Some(false) `general` (never the lean kernel), Some(true) `lean`.
    pub lean: Option<bool>,
    /// `OXSPARSE_SDDMM_TILES`: Some(false) `off` (never survey C for the tile kernel), Some(true) `on`
    /// (survey whatever the problem's size).
    pub tiles: Option<bool>,
}

/// The conversions' forcing settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Convert {
    /// `OXSPARSE_COO2CSR_KERNEL`: Some(true) `tile`, Some(false) `thread`.
    pub coo2csr_tile: Option<bool>,
    /// `OXSPARSE_CSR2COO_KERNEL`: Some(true) `probe` (wherever it fits), Some(false) `stream`.
    pub csr2coo_probe: Option<bool>,
    /// `OXSPARSE_CSR2CSC_METHOD`: Some(true) `radix` (wherever its arrays allow), Some(false) `atomic`.
    pub csr2csc_radix: Option<bool>,
    /// `OXSPARSE_D2S_CONVERT`: DenseToSparse's convert kernel, whatever A's density.
    pub d2s_convert: Option<D2sConvert>,
}

/// DenseToSparse's convert kernels (src/kernels/dense_to_sparse.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum D2sConvert {
    /// `words`: the nonzero bitmap words one by one, an element a lane.
    Words,
    /// `vectors`: 16-byte loads only where the bitmap shows a nonzero (lines contiguous in A).
    Vectors,
}

/// The SR-BCRS SpMM's tuning settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Srbcrs {
    /// `OXSPARSE_SRBCRS_SPLITS`: warps sharing a vector row (1, 2, 4 or 8).
    pub splits: Option<u32>,
}

/// Everything a handle's planners and launchers may be told.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `OXSPARSE_PRINT_PLAN`: print each plan and decision to stderr.
    pub print_plan: bool,
    /// The handle's initial math and reorder modes (`OXSPARSE_MATH_MODE`, `OXSPARSE_REORDER`).
    pub math_mode: Option<MathMode>,
    pub reorder_mode: Option<ReorderMode>,
    pub launch: Launch,
    pub spmm: Spmm,
    pub spmv: Spmv,
    pub sddmm: Sddmm,
    pub srbcrs: Srbcrs,
    pub convert: Convert,
}

/// Every variable a handle reads, in docs/tuning.md's order.
pub const NAMES: &[&str] = &[
    "OXSPARSE_PRINT_PLAN",
    "OXSPARSE_MATH_MODE",
    "OXSPARSE_REORDER",
    "OXSPARSE_LAUNCH",
    "OXSPARSE_PDL",
    "OXSPARSE_LAUNCH_POOL",
    "OXSPARSE_SPMM_KERNEL",
    "OXSPARSE_SPMM_TILE",
    "OXSPARSE_SPMM_TILE_SLICES",
    "OXSPARSE_SPMM_ROW_SHAPE",
    "OXSPARSE_SPMM_SHORT_SLICES",
    "OXSPARSE_SPMM_PIECE",
    "OXSPARSE_SPMM_DIRECT_C",
    "OXSPARSE_SPMM_SPLIT_C_BYTES",
    "OXSPARSE_SPMM_PLAIN_WARP_ROWS",
    "OXSPARSE_SPMM_WARP_ROWS_TABLE",
    "OXSPARSE_SPMM_WARP_ROWS_WHOLE",
    "OXSPARSE_SPMM_ROW_ORDER",
    "OXSPARSE_SPMM_PLAIN_CHOICE",
    "OXSPARSE_SPMM_BRCV",
    "OXSPARSE_SPMM_BLOCKED_COPIES",
    "OXSPARSE_SPMM_BLOCKED_SMALL",
    "OXSPARSE_SPMV_KERNEL",
    "OXSPARSE_SPMV_TILE",
    "OXSPARSE_SPMV_COLUMNS",
    "OXSPARSE_SPMV_BAND",
    "OXSPARSE_SDDMM_LANES",
    "OXSPARSE_SDDMM_UNROLL",
    "OXSPARSE_SDDMM_KERNEL",
    "OXSPARSE_SDDMM_TILES",
    "OXSPARSE_SRBCRS_SPLITS",
    "OXSPARSE_COO2CSR_KERNEL",
    "OXSPARSE_CSR2COO_KERNEL",
    "OXSPARSE_CSR2CSC_METHOD",
    "OXSPARSE_D2S_CONVERT",
];

fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T> {
    match value.trim().parse() {
        Ok(v) => Ok(v),
        Err(_) => invalid!("{name}: {value:?} is not a number"),
    }
}

fn positive<T: std::str::FromStr + PartialOrd + Default>(name: &str, value: &str) -> Result<T> {
    let v: T = number(name, value)?;
    if v <= T::default() {
        invalid!("{name}: {value:?} must be positive");
    }
    Ok(v)
}

/// `value` as one of `choices` (spelling, meaning).
fn one_of<T: Copy>(name: &str, value: &str, choices: &[(&str, T)]) -> Result<T> {
    match choices.iter().find(|(s, _)| *s == value) {
        Some(&(_, v)) => Ok(v),
        None => {
            let names: Vec<&str> = choices.iter().map(|(s, _)| *s).collect();
            invalid!("{name}: {value:?} is not one of {}", names.join(", "))
        }
    }
}

impl Settings {
    /// The settings the environment gives (unparsable values ignored).
    pub fn from_env() -> Settings {
        let mut s = Settings::default();
        for name in NAMES {
            if let Ok(value) = std::env::var(name) {
                let _ = s.set(name, Some(&value));
            }
        }
        s
    }

    /// Sets the variable `name` to `value` (None: back to the library's choice). A refused value
    /// leaves the settings unchanged.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<()> {
        let mut next = *self;
        let fresh = Settings::default();
        let v = value.unwrap_or_default();
        let unset = value.is_none();
        let on_off = |yes: &str, no: &str| -> Result<Option<bool>> {
            if unset {
                return Ok(None);
            }
            one_of(name, v, &[(yes, Some(true)), (no, Some(false))])
        };
        match name {
            "OXSPARSE_PRINT_PLAN" => next.print_plan = !unset && !v.is_empty() && v != "0",
            "OXSPARSE_MATH_MODE" => next.math_mode = if unset { None } else { Some(MathMode::parse(v).ok_or_else(|| bad(name, v))?) },
            "OXSPARSE_REORDER" => next.reorder_mode = if unset { None } else { Some(ReorderMode::parse(v).ok_or_else(|| bad(name, v))?) },
            "OXSPARSE_LAUNCH" => next.launch.graphs = unset || v != "direct",
            "OXSPARSE_PDL" => next.launch.pdl = unset || v != "0",
            "OXSPARSE_LAUNCH_POOL" => next.launch.pool = if unset { None } else { Some(positive(name, v)?) },
            "OXSPARSE_SPMM_KERNEL" => {
                use ForcedKernel::*;
                let kernels = [
                    ("cuda_cores", CudaCores),
                    ("tensor_cores", TensorCores),
                    ("rowvec", RowVec),
                    ("tiles", Tiles),
                    ("short_rows", ShortRows),
                    ("split_rows", SplitRows),
                    ("warp_rows", WarpRows),
                ];
                next.spmm.kernel = if unset { None } else { Some(one_of(name, v, &kernels)?) }
            }
            "OXSPARSE_SPMM_TILE" => next.spmm.tile = if unset { None } else { Some(positive(name, v)?) },
            "OXSPARSE_SPMM_TILE_SLICES" => next.spmm.tile_slices = if unset { None } else { Some(positive(name, v)?) },
            "OXSPARSE_SPMM_ROW_SHAPE" => {
                use RowShapeName::*;
                let shapes = [
                    ("narrow", Narrow),
                    ("wide", Wide),
                    ("x2", NarrowX2),
                    ("wide_x2", WideX2),
                    ("half", Half),
                    ("packed", Packed),
                    ("packed_wide", PackedWide),
                ];
                next.spmm.row_shape = if unset { None } else { Some(one_of(name, v, &shapes)?) }
            }
            "OXSPARSE_SPMM_SHORT_SLICES" => next.spmm.short_slices = if unset { None } else { Some(positive(name, v)?) },
            "OXSPARSE_SPMM_PIECE" => next.spmm.piece = if unset { None } else { Some(positive(name, v)?) },
            "OXSPARSE_SPMM_DIRECT_C" => next.spmm.stage_c_always = !unset && v == "0",
            "OXSPARSE_SPMM_SPLIT_C_BYTES" => next.spmm.split_c_bytes = if unset { None } else { Some(number(name, v)?) },
            "OXSPARSE_SPMM_PLAIN_WARP_ROWS" => next.spmm.plain_warp_rows = on_off("1", "0")?,
            "OXSPARSE_SPMM_WARP_ROWS_TABLE" => {
                let builds = [("listed", TableBuild::Listed), ("host", TableBuild::Host), ("gpu", TableBuild::Gpu)];
                next.spmm.warp_rows_table = if unset { fresh.spmm.warp_rows_table } else { one_of(name, v, &builds)? }
            }
            "OXSPARSE_SPMM_WARP_ROWS_WHOLE" => next.spmm.warp_rows_whole = if unset { None } else { Some(positive(name, v)?) },
            "OXSPARSE_SPMM_ROW_ORDER" => next.spmm.row_order = on_off("always", "never")?,
            "OXSPARSE_SPMM_PLAIN_CHOICE" => {
                let choices = [("rule", PlainChoice::Rule), ("gpu", PlainChoice::Gpu), ("tiles", PlainChoice::Tiles)];
                next.spmm.plain_choice = if unset { fresh.spmm.plain_choice } else { one_of(name, v, &choices)? }
            }
            "OXSPARSE_SPMM_BRCV" => {
                let modes = [("rule", BrcvMode::Rule), ("on", BrcvMode::On), ("off", BrcvMode::Off)];
                next.spmm.brcv = if unset { BrcvMode::Off } else { one_of(name, v, &modes)? }
            }
            "OXSPARSE_SPMM_BLOCKED_COPIES" => {
                let copies = [("tma", BlockedCopies::Tma), ("async", BlockedCopies::Async), ("staged", BlockedCopies::Staged)];
                next.spmm.blocked_copies = if unset { None } else { Some(one_of(name, v, &copies)?) }
            }
            "OXSPARSE_SPMM_BLOCKED_SMALL" => next.spmm.small_blocks_off = on_off("on", "off")? == Some(false),
            "OXSPARSE_SPMV_KERNEL" => {
                let kernels = [("tiles", SpmvKernel::Tiles), ("vector", SpmvKernel::Vector), ("split", SpmvKernel::Split)];
                next.spmv.kernel = if unset { None } else { Some(one_of(name, v, &kernels)?) }
            }
            "OXSPARSE_SPMV_TILE" => next.spmv.tile = if unset { None } else { Some(positive(name, v)?) },
            "OXSPARSE_SPMV_COLUMNS" => next.spmv.sorted_columns = on_off("sorted", "natural")?,
            "OXSPARSE_SPMV_BAND" => next.spmv.band = on_off("on", "off")?,
            "OXSPARSE_SDDMM_LANES" => {
                let lanes = [("1", 1), ("2", 2), ("4", 4), ("8", 8), ("16", 16), ("32", 32)];
                next.sddmm.lanes = if unset { None } else { Some(one_of(name, v, &lanes)?) }
            }
            "OXSPARSE_SDDMM_UNROLL" => {
                let unrolls = [("1", 1), ("2", 2), ("4", 4)];
                next.sddmm.unroll = if unset { None } else { Some(one_of(name, v, &unrolls)?) }
            }
            "OXSPARSE_SDDMM_KERNEL" => next.sddmm.lean = on_off("lean", "general")?,
            "OXSPARSE_SDDMM_TILES" => next.sddmm.tiles = on_off("on", "off")?,
            "OXSPARSE_SRBCRS_SPLITS" => {
                let splits = [("1", 1), ("2", 2), ("4", 4), ("8", 8)];
                next.srbcrs.splits = if unset { None } else { Some(one_of(name, v, &splits)?) }
            }
            "OXSPARSE_COO2CSR_KERNEL" => next.convert.coo2csr_tile = on_off("tile", "thread")?,
            "OXSPARSE_CSR2COO_KERNEL" => next.convert.csr2coo_probe = on_off("probe", "stream")?,
            "OXSPARSE_CSR2CSC_METHOD" => next.convert.csr2csc_radix = on_off("radix", "atomic")?,
            "OXSPARSE_D2S_CONVERT" => {
                let kernels = [("words", D2sConvert::Words), ("vectors", D2sConvert::Vectors)];
                next.convert.d2s_convert = if unset { None } else { Some(one_of(name, v, &kernels)?) }
            }
            _ => invalid!("{name:?} is not a setting oxsparse reads (docs/tuning.md lists them)"),
        }
        *self = next;
        Ok(())
    }
}

fn bad(name: &str, value: &str) -> crate::error::Error {
    crate::error::Error::InvalidValue(format!("{name}: {value:?} is not a value it takes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_can_be_set_and_unset() {
        let values = |name: &str| match name {
            "OXSPARSE_SPMM_KERNEL" => "warp_rows",
            "OXSPARSE_SPMM_ROW_SHAPE" => "wide_x2",
            "OXSPARSE_SPMM_WARP_ROWS_TABLE" => "gpu",
            "OXSPARSE_SPMM_ROW_ORDER" => "never",
            "OXSPARSE_SPMM_PLAIN_CHOICE" => "tiles",
            "OXSPARSE_SPMV_KERNEL" => "split",
            "OXSPARSE_SPMV_COLUMNS" => "sorted",
            "OXSPARSE_SPMV_BAND" => "on",
            "OXSPARSE_SPMM_BRCV" => "rule",
            "OXSPARSE_SDDMM_KERNEL" => "general",
            "OXSPARSE_SDDMM_TILES" => "off",
            "OXSPARSE_COO2CSR_KERNEL" => "tile",
            "OXSPARSE_CSR2COO_KERNEL" => "probe",
            "OXSPARSE_CSR2CSC_METHOD" => "radix",
            "OXSPARSE_D2S_CONVERT" => "words",
            "OXSPARSE_SPMM_BLOCKED_COPIES" => "staged",
            "OXSPARSE_SPMM_BLOCKED_SMALL" => "off",
            "OXSPARSE_MATH_MODE" => "tf32",
            "OXSPARSE_REORDER" => "data_affinity",
            "OXSPARSE_LAUNCH" => "direct",
            "OXSPARSE_PDL" | "OXSPARSE_SPMM_DIRECT_C" | "OXSPARSE_SPMM_PLAIN_WARP_ROWS" => "0",
            _ => "4",
        };
        for name in NAMES {
            let mut s = Settings::default();
            s.set(name, Some(values(name))).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_ne!(s, Settings::default(), "{name} changed nothing");
            s.set(name, None).unwrap();
            assert_eq!(s, Settings::default(), "{name} unset");
        }
    }

    #[test]
    fn refused_values_change_nothing() {
        let mut s = Settings::default();
        s.set("OXSPARSE_SPMV_KERNEL", Some("tiles")).unwrap();
        let before = s;
        for (name, value) in [
            ("OXSPARSE_SPMV_KERNEL", "fast"),
            ("OXSPARSE_SPMM_TILE", "-3"),
            ("OXSPARSE_SPMM_TILE", "many"),
            ("OXSPARSE_SPMM_PIECE", "0"),
            ("OXSPARSE_SPMM_ROW_ORDER", "sometimes"),
            ("OXSPARSE_SPMM_BRCV", "yes"),
            ("OXSPARSE_SRBCRS_SPLITS", "3"),
            ("NOT_A_SETTING", "1"),
        ] {
            assert!(s.set(name, Some(value)).is_err(), "{name}={value}");
            assert_eq!(s, before);
        }
        assert_eq!(s.spmv.kernel, Some(SpmvKernel::Tiles));
    }
}
