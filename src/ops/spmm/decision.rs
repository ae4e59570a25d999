//! The decision record of an SpMM call: everything that will run, as one value. A plain call makes
//! it from the plan (plan.rs, host facts) and its row-kernel choice (plain_choice.rs); preprocess
//! adds what it measured on the GPU (row_choice.rs, the tensor-core build's choice) and keeps it
//! with the matrix's active buffer, where the calls after it read it. `OXSPARSE_PRINT_PLAN` prints
//! it; tests read a preprocessed one through `oxsparse::ffi::spmm::preprocessed_decision`.

use super::plan::Plan;
use super::{RowKernel, TcState};
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// How op(A) is read, the kernel with its tile size, column slices and staging, the tensor-core
    /// format's layout and the workspace: decided from the arguments, the device and the settings.
    pub plan: Plan,
    /// The tensor-core build's choice and whether its rows were reordered (preprocess only).
    pub tc: TcState,
    /// The CUDA-core kernel a tile plan runs (and a tensor-core plan whose build chose CUDA cores),
    /// with its table: the tiles, whole short rows (in breadth-first order when their table is a
    /// split-row table of whole rows), split rows or warp rows.
    pub rows: RowKernel,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; rows {:?}", self.plan, self.rows)?;
        match self.tc {
            TcState { choice: Some(true), reordered } => write!(f, "; tensor cores{}", if reordered { ", rows reordered" } else { "" }),
            TcState { choice: Some(false), .. } => write!(f, "; the build chose CUDA cores"),
            TcState { choice: None, .. } if self.plan.tc.is_some() => write!(f, "; tensor cores or CUDA cores, chosen on the GPU"),
            _ => Ok(()),
        }
    }
}
