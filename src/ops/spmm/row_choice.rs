//! Preprocess's choice of CUDA-core row kernel for a tile plan, as a pure function of the plan,
//! the longest row the GPU measured, the device and the settings (`choose`). row_kernel.rs
//! measures, asks, and builds what the choice names; a build that does not fit falls back as the
//! choice says. The rules themselves live with their kernels (short_rows.rs, split_rows/mod.rs,
//! warp_rows/mod.rs); this file orders them.

use super::launch::{column_major_c, kernel_types};
use super::plan::Plan;
use super::row_kernel::split_shape_for_c;
use super::{short_rows, split_rows, warp_rows};
use crate::device::DeviceModel;
use crate::kernels::spmm::{self as k, RowShape};
use crate::settings::Spmm as Settings;

/// Pieces of split rows: the share that fills the device, the floor of the room's pieces, and
/// whether they may grow to keep a call within one wave (split_rows/table.rs `build_one_wave`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pieces {
    pub piece: i64,
    pub floor: i64,
    pub grow: bool,
}

/// What preprocess builds after the warp rows (when `RowChoice::warp_rows_first` and they fit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsThen {
    /// The tile kernel: no table.
    Tiles,
    /// Whole short rows, in breadth-first order where row_order/model.rs's model finds it worth it.
    ShortRows,
    /// The split-row table for groups of `shape`.
    SplitRows { shape: RowShape, pieces: Pieces },
}

/// Preprocess's row-kernel choice for a tile plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowChoice {
    /// Try the warp-row table first (its room is in the plan).
    pub warp_rows_first: bool,
    pub then: RowsThen,
}

/// The choice for plan `p` of a matrix of `nnz` entries whose longest row has `longest` entries,
/// on `device` with settings `s`. A warp per row piece where the plan kept room for it
/// (warp_rows/mod.rs's rule), not every row is short and split rows would not take the matrix: short
/// and split rows are tuned for the matrices they take (vsp_befref lost on warp rows;
/// bench/notes/spmm-kernels.md), the tiles' matrices gained. The exception: 16-bit calls at
/// n = 256 over many long rows (`warp_rows::over_split_rows`). Then whole short rows where every
/// row is short, unless the longest row makes two pieces or more (split_rows/mod.rs
/// `cuts_short_rows`); else split rows in the preferred shape whose blocks take the longest row,
/// or one with more groups a block; else the tiles.
pub fn choose(p: &Plan, nnz: i64, longest: i64, device: &DeviceModel, s: &Settings) -> RowChoice {
    let (m, n, ab) = (p.dims.m, p.dims.n, p.types.ab);
    let short = short_rows::takes(longest, m, nnz, s);
    let split_takes = split_rows::takes(longest, m, nnz, RowShape::most_groups_per_block(ab) as i64);
    let over_split = warp_rows::over_split_rows(m, nnz, n, ab);
    let warp_takes = warp_rows::takes(m, nnz, p.dims.k, n, ab, device, s);
    let warp_rows_first =
        p.warp_rows.is_some() && (warp_rows::forced(s) || (warp_takes && !split_rows::forced(s) && !short && (!split_takes || over_split)));
    let groups = |shape: RowShape| shape.groups_per_block(ab) as i64;
    // Pieces for groups of `shape`: shorter than PIECE when the matrix would not fill the
    // device's resident groups (split_rows::piece).
    let piece = |shape: RowShape| {
        let resident = device.wave(k::SHORT_ROWS_RESIDENT) as i64 * groups(shape);
        split_rows::piece(nnz, shape.slices(n) as i64, resident, shape.entries_in_flight() as i64, s.piece)
    };
    // The floor of ROOM_PIECE entries: the pieces when no shorter ones fit a wave, and the
    // measure of whether a short-row matrix is cut at all when C is column-major (whole rows
    // write such a C through shared memory, split rows an element at a time: power_grid N = 128
    // 8.8 -> 10.4 us when cut into pieces of 8).
    let floor_piece = |shape: RowShape| split_rows::floor_piece(piece(shape), s.piece);
    // The preferred shape, else narrow groups (more of them a block, for a longer longest row),
    // else FP64's half-width groups (as many a block as FP32's narrow ones).
    let preferred = split_rows::shape(kernel_types(p), n, longest, s.row_shape.map(Into::into));
    let split_at = p.tiles.and_then(|t| t.split_at);
    let shape = if !split_rows::forced(s) && short {
        let column_c = column_major_c(p);
        let pc = if column_c { floor_piece(preferred) } else { piece(preferred) };
        if !(split_rows::cuts_short_rows(pc, longest, column_c) && split_at.is_some() && split_rows::eligible(m, nnz)) {
            return RowChoice { warp_rows_first, then: RowsThen::ShortRows };
        }
        Some(preferred)
    } else {
        let fits = |shape: &RowShape| {
            shape.fits(kernel_types(p), n) && (split_rows::forced(s) || split_rows::takes(longest, m, nnz, groups(*shape)))
        };
        [preferred, RowShape::Narrow, RowShape::Half].into_iter().find(fits)
    };
    let then = match (split_at, shape.map(|shape| split_shape_for_c(s, p, shape, longest, nnz))) {
        (Some(_), Some(shape)) => RowsThen::SplitRows {
            shape,
            pieces: Pieces { piece: piece(shape), floor: floor_piece(shape), grow: split_rows::may_grow(longest, s.piece) },
        },
        _ => RowsThen::Tiles,
    };
    RowChoice { warp_rows_first, then }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::models::*;
    use crate::ops::spmm::tests::plan_on;
    use crate::settings::ForcedKernel;
    use crate::types::{DataType, MathMode, Order};
    use RowShape::*;

    /// The choice for an FP32 CSR call, row-major B and C, on `device` with settings `s`.
    fn choice((m, k, n, nnz): (i64, i64, i64, i64), longest: i64, device: DeviceModel, s: Settings) -> RowChoice {
        let row = Order::OXSPARSE_ORDER_ROW;
        let p = plan_on(DataType::CUDA_R_32F, (m, k, n, nnz), (row, n), (row, n), MathMode::OXSPARSE_DEFAULT_MATH, &device);
        choose(&p, nnz, longest, &device, &s)
    }

    fn kind(c: RowChoice) -> (bool, &'static str) {
        let then = match c.then {
            RowsThen::Tiles => "tiles",
            RowsThen::ShortRows => "short rows",
            RowsThen::SplitRows { .. } => "split rows",
        };
        (c.warp_rows_first, then)
    }

    /// Matrices of the bench set (shape, longest row) and what preprocess builds for them, on the
    /// 132-SM device of wide memory the rules were last measured on, with no setting forced.
    #[test]
    fn bench_matrices_take_their_measured_kernels() {
        let unset = Settings::default();
        type Row = ((i64, i64, i64, i64), i64, (bool, &'static str), &'static str);
        let rows: [Row; 6] = [
            ((2_500, 2_500, 32, 12_349), 5, (false, "short rows"), "a mesh of short rows"),
            ((18_660, 18_660, 128, 1_581_554), 3156, (false, "split rows"), "fb100_Cornell5: hub rows, split"),
            ((169_343, 169_343, 128, 1_128_870), 20_000, (true, "tiles"), "arxiv_like: warp rows, else the tiles"),
            ((37_700, 37_700, 256, 578_006), 9458, (true, "tiles"), "github_musae at N = 256"),
            ((37_700, 37_700, 32, 578_006), 9458, (false, "tiles"), "github_musae at N = 32: the tiles"),
            ((10_974, 10_974, 256, 428_650), 150, (false, "split rows"), "bcsstk17 at N = 256: short rows cut into pieces"),
        ];
        for (shape, longest, want, what) in rows {
            assert_eq!(kind(choice(shape, longest, hbm3e_132(), unset)), want, "{what}");
        }
    }

    /// Forcing names the kernel whatever the rows (the row kernels' own rules decide where their
    /// tables fit).
    #[test]
    fn forced_kernels_win() {
        let forced = |kernel| Settings { kernel: Some(kernel), ..Settings::default() };
        let mesh = ((2_500, 2_500, 32, 12_349), 5);
        let c = choice(mesh.0, mesh.1, hbm3e_132(), forced(ForcedKernel::SplitRows));
        assert!(matches!(c.then, RowsThen::SplitRows { .. }), "{c:?}");
        let hubs = ((18_660, 18_660, 128, 1_581_554), 3156);
        assert!(choice(hubs.0, hubs.1, hbm3e_132(), forced(ForcedKernel::WarpRows)).warp_rows_first);
        let shaped = Settings { row_shape: Some(crate::settings::RowShapeName::Narrow), ..Settings::default() };
        let c = choice(hubs.0, hubs.1, hbm3e_132(), shaped);
        assert!(matches!(c.then, RowsThen::SplitRows { shape: Narrow, .. }), "{c:?}");
    }

    /// On smaller devices fewer resident groups: pieces shrink sooner to fill them; the choice
    /// of kernel does not depend on the device for matrices within the op(B) bounds.
    #[test]
    fn smaller_devices_cut_shorter_pieces() {
        let unset = Settings::default();
        let small = ((2_000, 2_000, 32, 83_883), 95 * 3);
        for device in [hbm3_132(), hbm2e_108(), gddr6_142()] {
            assert_eq!(kind(choice(small.0, small.1, device, unset)), kind(choice(small.0, small.1, hbm3e_132(), unset)), "{device:?}");
        }
        let pieces = |device| match choice(small.0, small.1, device, unset).then {
            RowsThen::SplitRows { pieces, .. } => Some(pieces.piece),
            _ => None,
        };
        if let (Some(big), Some(few)) = (pieces(hbm3e_132()), pieces(hbm2e_108())) {
            assert!(few >= big, "fewer multiprocessors, pieces no shorter: {few} vs {big}");
        }
    }
}
