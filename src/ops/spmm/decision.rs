//! The decision record of an SpMM call: everything that will run, as one value. A plain call makes
//! it from the plan (plan.rs, host facts) and its row-kernel choice (plain_choice.rs); preprocess
//! adds what it measured on the GPU (row_choice.rs, the tensor-core build's choice) and keeps it
//! with the matrix's active buffer, where the calls after it read it. `OXSPARSE_PRINT_PLAN` prints
//! it; tests read a preprocessed one through `oxsparse::ffi::spmm::preprocessed_decision`.

use super::banded::Banded;
use super::launch::{direct_c, kernel_types, whole_rows_shape};
use super::plan::{Kernel, Plan};
use super::{Call, RowKernel, TcState};
use crate::kernels::spmm::RowShape;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// How op(A) is read, the kernel with its tile size, column slices and staging of op(B) and C,
    /// the tensor-core format's layout and the workspace: decided from the arguments, the device
    /// and the settings.
    pub plan: Plan,
    /// The tensor-core build's choice and whether its rows were reordered (preprocess only).
    pub tc: TcState,
    /// The CUDA-core kernel a tile plan runs (and a tensor-core plan whose build chose CUDA cores),
    /// with its table: the tiles, whole short rows, split rows or warp rows.
    pub rows: RowKernel,
    /// Whole short rows run in a breadth-first order (row_order/): `rows` is then a split-row
    /// table of whole rows.
    pub breadth_first: bool,
    /// The short-row kernel's group shape, where short rows run (whole or split).
    pub row_shape: Option<RowShape>,
    /// The row kernel writes a column-major C itself (launch.rs `direct_c`) instead of the plan's
    /// staging copy.
    pub c_direct: bool,
    /// What preprocess's band detection measured and whether its calls run BRCV's kernels instead
    /// of everything above (banded.rs); None where the plan keeps no room for a band.
    pub banded: Option<Banded>,
}

impl Decision {
    /// The record of plan `p` running `rows` after the tensor-core state `tc`: the group shape and
    /// the way C is written follow from them as the launch derives them.
    pub fn new(call: &Call, plan: Plan, tc: TcState, rows: RowKernel, breadth_first: bool) -> Decision {
        let s = &call.settings.spmm;
        let stage_c = matches!(plan.kernel, Kernel::Tiles { stage_c: true, .. } | Kernel::TensorCore { stage_c: true, .. });
        let c_direct = stage_c && direct_c(s, &plan, call.a.nnz, rows);
        let row_shape = match rows {
            RowKernel::ShortRows => {
                let types = if stage_c && !c_direct { kernel_types(&plan) } else { plan.types };
                Some(whole_rows_shape(s, call.device, &plan, types, c_direct))
            }
            RowKernel::SplitRows { shape, .. } => Some(shape),
            _ => None,
        };
        Decision { plan, tc, rows, breadth_first, row_shape, c_direct, banded: None }
    }

    /// Whether the calls run BRCV's kernels over preprocess's band.
    pub fn banded_taken(&self) -> bool {
        self.banded.is_some_and(|b| b.taken)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.banded {
            Some(Banded { totals: Some(t), entries, taken, .. }) => {
                let per_entry = t.values as f64 / entries.max(1) as f64;
                let verdict = if taken { "taken: the calls run BRCV" } else { "declined" };
                write!(f, "band {verdict} ({} band values, {per_entry:.2} an entry; {} far; widest {}); ", t.values, t.far, t.widest)?;
                if taken {
                    return write!(f, "{}", self.plan);
                }
            }
            Some(Banded { totals: None, far_floor, entries, .. }) => {
                write!(f, "band declined by the screen (at least {far_floor} of {entries} entries far); ")?;
            }
            None => {}
        }
        write!(f, "{}; rows {:?}", self.plan, self.rows)?;
        if self.breadth_first {
            write!(f, " (whole rows, breadth-first order)")?;
        }
        if let Some(shape) = self.row_shape {
            write!(f, "; groups {shape:?}")?;
        }
        if self.c_direct {
            write!(f, "; column-major C written by the kernel")?;
        }
        match self.tc {
            TcState { choice: Some(true), reordered } => write!(f, "; tensor cores{}", if reordered { ", rows reordered" } else { "" }),
            TcState { choice: Some(false), .. } => write!(f, "; the build chose CUDA cores"),
            TcState { choice: None, .. } if self.plan.tc.is_some() => write!(f, "; tensor cores or CUDA cores, chosen on the GPU"),
            _ => Ok(()),
        }
    }
}
