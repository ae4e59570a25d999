//! The short-row kernel's group shapes (`RowShape`): each shape's columns, groups per block and
//! entries in flight, and which types and widths the kernel has it for. The launchers
//! (src/kernels/spmm.rs) choose among them (`short_rows_shape`) and name the kernel by them.

use super::params::spmm::{SPMM_SHORT_ROWS_UNROLL, SPMM_TILE_SLICE};
use super::spmm::{Types, BLOCK};
use crate::types::DataType;

/// The shapes of the short-row kernel's groups (`Shape` in kernels/spmm_short_rows.cu): a group
/// of lanes per row, each lane one or two vectors (16 bytes, 8 for 16-bit types) of the row's
/// slice of columns. Lanes and groups below are FP32's; FP64 has twice the lanes (half the groups)
/// for the same columns. Which types have which shape: `fits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowShape {
    /// 32 columns (SPMM_TILE_SLICE): 8 lanes x 1 vector (FP64: 16 lanes).
    Narrow,
    /// 64 columns: 16 lanes x 1 vector.
    Wide,
    /// 64 columns: 8 lanes x 2 vectors (a narrow group's count per block).
    NarrowX2,
    /// 128 columns: 16 lanes x 2 vectors (a wide group's count per block).
    WideX2,
    /// FP64 only: 16 columns, 8 lanes x 1 vector, so 32 groups per block (FP32's narrow count):
    /// the split-row table then takes rows twice as long as with FP64's narrow groups.
    Half,
    /// 16-bit types only: 64 columns, 8 lanes x one 16-byte vector of 8 elements (the other
    /// shapes give 16-bit types 8-byte vectors), half the entries in flight.
    Packed,
    /// 16-bit types only: 128 columns, 16 lanes x one 16-byte vector.
    PackedWide,
}

impl RowShape {
    /// Columns of C a group takes per pass (its slice).
    pub fn columns(self) -> u64 {
        let base = SPMM_TILE_SLICE as u64;
        match self {
            RowShape::Half => base / 2,
            RowShape::Narrow => base,
            RowShape::Wide | RowShape::NarrowX2 | RowShape::Packed => 2 * base,
            RowShape::WideX2 | RowShape::PackedWide => 4 * base,
        }
    }

    /// Column slices of this shape that cover n columns of C (0 for n <= 0).
    pub fn slices(self, n: i64) -> u64 {
        (n.max(0) as u64).div_ceil(self.columns())
    }

    /// Entries whose B rows a lane of this shape has in flight: one round of B loads.
    /// Two vectors a lane spend two of the kernel's UNROLL loads on an entry; the packed shapes'
    /// one 16-byte vector keeps half of UNROLL too, for registers (kernels/spmm_short_rows.cu).
    pub fn entries_in_flight(self) -> u64 {
        let loads_per_entry = match self {
            RowShape::NarrowX2 | RowShape::WideX2 | RowShape::Packed | RowShape::PackedWide => 2,
            RowShape::Narrow | RowShape::Wide | RowShape::Half => 1,
        };
        SPMM_SHORT_ROWS_UNROLL as u64 / loads_per_entry
    }

    /// Rows (groups) per block: a lane holds 16 bytes of 4- and 8-byte types, 4 elements of
    /// 16-bit ones (8 in the packed shapes, whose groups have the lanes of narrow and wide ones
    /// for twice the columns), and a narrow group covers SPMM_TILE_SLICE columns with one vector a
    /// lane.
    pub fn groups_per_block(self, ab: DataType) -> u64 {
        let vec = if ab.size_bytes() >= 4 { 16 / ab.size_bytes() } else { 4 };
        let lanes = SPMM_TILE_SLICE as u64 / vec;
        match self {
            RowShape::Half => BLOCK as u64 / (lanes / 2).max(1),
            RowShape::Narrow | RowShape::NarrowX2 | RowShape::Packed => BLOCK as u64 / lanes,
            RowShape::Wide | RowShape::WideX2 | RowShape::PackedWide => BLOCK as u64 / (2 * lanes),
        }
    }

    /// The most groups per block any shape of these A and B types has (the split-row table's room
    /// is sized for it).
    pub fn most_groups_per_block(ab: DataType) -> u64 {
        let half = if ab == DataType::CUDA_R_64F { RowShape::Half.groups_per_block(ab) } else { 0 };
        half.max(RowShape::Narrow.groups_per_block(ab))
    }

    pub(super) fn kernel_suffix(self) -> &'static str {
        match self {
            RowShape::Narrow => "",
            RowShape::Wide => "_wide",
            RowShape::NarrowX2 => "_x2",
            RowShape::WideX2 => "_wide_x2",
            RowShape::Half => "_half",
            RowShape::Packed => "_packed",
            RowShape::PackedWide => "_packed_wide",
        }
    }

    /// Whether the kernel has this shape for these types and n columns: `Wide` for FP32, `Half`
    /// for FP64, two vectors a lane for FP32, FP64 and FP16 (A, B and C of one type), and n a
    /// multiple of the slice (all of a lane's vectors in or all out).
    pub fn fits(self, types: Types, n: i64) -> bool {
        use DataType::*;
        let same = |t| types.ab == t && types.c == t;
        let typed = match self {
            RowShape::Narrow => return true,
            RowShape::Wide => same(CUDA_R_32F),
            RowShape::Half => same(CUDA_R_64F),
            RowShape::NarrowX2 | RowShape::WideX2 => same(CUDA_R_32F) || same(CUDA_R_64F) || same(CUDA_R_16F),
            RowShape::Packed | RowShape::PackedWide => (same(CUDA_R_16F) || same(CUDA_R_16BF)) && types.compute == CUDA_R_32F,
        };
        typed && n >= self.columns() as i64 && n % self.columns() as i64 == 0
    }
}

impl From<crate::settings::RowShapeName> for RowShape {
    fn from(name: crate::settings::RowShapeName) -> RowShape {
        use crate::settings::RowShapeName as N;
        match name {
            N::Narrow => RowShape::Narrow,
            N::Wide => RowShape::Wide,
            N::NarrowX2 => RowShape::NarrowX2,
            N::WideX2 => RowShape::WideX2,
            N::Half => RowShape::Half,
            N::Packed => RowShape::Packed,
            N::PackedWide => RowShape::PackedWide,
        }
    }
}
