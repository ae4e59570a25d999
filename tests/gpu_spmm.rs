//! SpMM, C = alpha * op(A) * op(B) + beta * C, through the exported C functions (descriptors made
//! by the exported oxsparseCreate* functions), against the float64 CPU reference
//! `oxsparse::reference::spmm`.
//!
//! The parameter matrix is covered group by group, each cycling the parameters it does not cross:
//!
//! * `formats`: every format x opA x opB x order of B and C (FP32), and a complex sweep for H;
//! * `types`: every (A/B, C, compute) type combination over the formats and ops;
//! * `shapes`: m, k, n in {0, 1, 7, 33, 1000+}, empty rows, a row of 20000 entries, one column,
//!   no entries, i32/i64 indices x base 0/1, wide leading dimensions, both pointer modes;
//! * `batches`: C_i = A_i B_i, A B_i, A_i B (CSR, COO, CSR with shared row offsets);
//! * `determinism`: bitwise equality run to run, plain and after preprocess; new values after
//!   preprocess; `replay`: repeated preprocessed calls, which send the last call's launches again;
//! * `short_rows`: the short-row kernel that preprocess may choose, and the choice;
//! * `plain_choice`: plain calls choosing between short rows and the tiles on the GPU;
//! * `split_rows`: the same kernel over preprocess's table of row pieces, and the choice;
//! * `warp_rows`: a warp per row piece across all of N (FP32), and the choice;
//! * `plain_warp_rows`: plain calls on warp rows over a table they build on the GPU;
//! * `c_api`: the CUDALibrarySamples data, and the status of every refused call.
//! * `blocked`: BSR and Blocked-ELL on the block-row kernels, CUDA cores and tensor cores, every
//!   block size from 1 to 128 rows;
//! * `tensor_core`: the tensor-core path in every math mode and 16-bit type, with and without
//!   data-affinity reordering; `bittcf`: the native BitTCF object.
//! * `banded`: preprocess's band detection and the BRCV kernels it takes for banded CSR matrices
//!   (and keeps off the others), with A's values changed after preprocess.
//!
//! Data are seeded random values that each type holds exactly (never all ones); A's columns are
//! unsorted within rows. C's padding, the gaps between batches and the workspace are poisoned
//! (0xFF) before every run; when beta == 0, C itself is poisoned (NaN) and must come back finite
//! and right. Tolerances (calls::tolerance): per component, rel * scale + half an ulp of a 16-bit
//! output, where scale = sum_k |alpha||a_ik||b_kj| + |beta||c_ij| and rel is 1e-5 for FP32
//! compute, 1e-12 for FP64, 0 (exact) for int8 -> int32.

mod common;
use common::bytes::{decode_element, encode};
use common::*;

#[path = "gpu_spmm/banded.rs"]
mod banded;
#[path = "gpu_spmm/batches.rs"]
mod batches;
#[path = "gpu_spmm/bittcf.rs"]
mod bittcf;
#[path = "gpu_spmm/blocked.rs"]
mod blocked;
#[path = "gpu_spmm/c_api.rs"]
mod c_api;
#[path = "gpu_spmm/calls.rs"]
mod calls;
#[path = "gpu_spmm/determinism.rs"]
mod determinism;
#[path = "gpu_spmm/formats.rs"]
mod formats;
#[path = "gpu_spmm/gen.rs"]
mod gen;
#[path = "gpu_spmm/harness.rs"]
mod harness;
#[path = "gpu_spmm/plain_choice.rs"]
mod plain_choice;
#[path = "gpu_spmm/plain_warp_rows.rs"]
mod plain_warp_rows;
#[path = "gpu_spmm/refusals.rs"]
mod refusals;
#[path = "gpu_spmm/replay.rs"]
mod replay;
#[path = "gpu_spmm/settings.rs"]
mod settings;
#[path = "gpu_spmm/shapes.rs"]
mod shapes;
#[path = "gpu_spmm/short_rows.rs"]
mod short_rows;
#[path = "gpu_spmm/split_rows.rs"]
mod split_rows;
#[path = "gpu_spmm/tensor_core.rs"]
mod tensor_core;
#[path = "gpu_spmm/types.rs"]
mod types;
#[path = "gpu_spmm/warp_rows.rs"]
mod warp_rows;
