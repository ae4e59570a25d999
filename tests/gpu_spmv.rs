//! SpMV, y = alpha * op(A) * x + beta * y, through the exported C functions (descriptors made by the
//! exported oxsparseCreate* functions), against the float64 CPU reference `oxsparse::reference::spmv`.
//!
//! The parameter matrix is covered group by group, each cycling the parameters it does not cross
//! (index type, base, pointer mode, scalars with beta == 0 and beta == 1, algorithm hint, COO row
//! order, preprocess or not):
//!
//! * `formats`: every format x opA (FP32 and complex FP32, where H conjugates), BSR block shapes
//!   (square, rectangular, row- and column-major), Sliced-ELL slice sizes 1 to 128;
//! * `types`: every (A, X, Y, compute) type combination over the formats and ops;
//! * `shapes`: m, k in {0, 1, 7, 33, 1000+}, a dense row, a dense column, one column, no entries,
//!   index types x bases, pointer modes x scalars (alpha == 0, beta == 0, beta == 1);
//! * `tiles`: rows ending exactly on multiples of 256, 1024, 2048, 4096 entries, and a power-law
//!   matrix of ~1.2M entries with rows up to 10^5, so load-balanced kernels cross tile boundaries;
//! * `band`: banded matrices whose columns preprocess keeps as 16-bit offsets from their row (and
//!   one too wide for them); reused, overwritten, and a probe that the kernel reads the offsets;
//! * `columns`: a matrix whose busy columns are scattered over a large x, which preprocess reads
//!   in FastLoad's column order; reused with new values, and after the buffer was overwritten;
//! * `determinism`: bitwise equality run to run and with/without preprocess for every algorithm;
//!   new values after preprocess;
//! * `lifecycle`: the preprocess contract over a solver's loop (new values, vectors, scalars and
//!   pointers, a refused preprocess), every transfer ordered on the legacy stream only;
//! * `c_api`: the CUDALibrarySamples data (spmv_csr, spmv_coo, spmv_sell), and the status of every
//!   refused call (`refusals`), after which Y must hold what it held.
//!
//! Data are seeded random values that each type holds exactly (never all ones); columns are
//! unsorted within rows, COO rows too in half the cases. X and Y sit between 64 bytes of 0xFF
//! (NaN) that must stay untouched and unread; when beta == 0, Y itself is NaN and must come back
//! finite and right; the workspace is poisoned (0xFF). Tolerance (calls::tolerance): per
//! component, 32 machine epsilons of the compute type times sum_j |alpha||a_ij||x_j| + |beta||y_i|,
//! plus half an ulp of a 16-bit output; exact for int8 -> int32.

mod common;
use common::bytes::{decode_element, encode};
use common::*;

#[path = "gpu_spmv/band.rs"]
mod band;
#[path = "gpu_spmv/c_api.rs"]
mod c_api;
#[path = "gpu_spmv/calls.rs"]
mod calls;
#[path = "gpu_spmv/columns.rs"]
mod columns;
#[path = "gpu_spmv/determinism.rs"]
mod determinism;
#[path = "gpu_spmv/formats.rs"]
mod formats;
#[path = "gpu_spmv/gen.rs"]
mod gen;
#[path = "gpu_spmv/harness.rs"]
mod harness;
#[path = "gpu_spmv/lifecycle.rs"]
mod lifecycle;
#[path = "gpu_spmv/problem.rs"]
mod problem;
#[path = "gpu_spmv/refusals.rs"]
mod refusals;
#[path = "gpu_spmv/settings.rs"]
mod settings;
#[path = "gpu_spmv/shapes.rs"]
mod shapes;
#[path = "gpu_spmv/tiles.rs"]
mod tiles;
#[path = "gpu_spmv/types.rs"]
mod types;
