//! SDDMM, C = alpha * (op(A) * op(B)) o spy(C) + beta * C with dense A and B and sparse C (CSR or
//! BSR), through the exported C functions (descriptors made by the exported oxsparseCreate*
//! functions), against the float64 CPU reference `oxsparse::reference::sddmm`.
//!
//! The parameter matrix is covered group by group, each cycling the parameters it does not cross
//! (harness::vary: scalars with beta == 0 and beta == 1, index type, base, pointer mode, padding of
//! A and B, preprocess or not):
//!
//! * `types`: every (A/B, C, compute) type combination over CSR and BSR of both block orders and
//!   every opA x opB;
//! * `layouts`: opA x opB x order of A x order of B (read in place or copied first), leading
//!   dimensions beyond the minimum, operands one element off their 16-byte alignment, and lines
//!   that are 16-byte aligned (the vector loads);
//! * `shapes`: m, n in {0, 1, 7, 33, ...}, k in {0, 1, 3, 7, 32, 33, 64, 100, 128, 257, 1000}, hub
//!   rows of 10,000+ entries among short rows, tall C (40,000 and 2,000,000 rows: the search for
//!   a warp's first row over several rounds), lines of more than 32 vectors (16 lanes a value), no
//!   entries, index types x bases, pointer modes;
//! * `bsr`: blocks of 2, 3, 4, 8 and 16, square and not, both block orders;
//! * `batches`: (A B) o C_i, (A_i B) o C_i, (A B_i) o C_i, (A_i B_i) o C_i, with C's batches owning
//!   their arrays, sharing their row offsets, or (BSR) their whole structure;
//! * `scalars`: beta == 0 over a C of NaN, alpha == 0, k == 0 (C = beta * C), both pointer modes;
//! * `lanes`: every count of lanes per dot product (`OXSPARSE_SDDMM_LANES`, 1 to 32) x values a
//!   step (`OXSPARSE_SDDMM_UNROLL`, 1, 2, 4), and the library's own, right and bitwise stable;
//! * `contract`: the preprocess contract (new scalars and values after preprocess, values moved
//!   to other, misaligned, addresses; the kept decision), bitwise determinism run to run and
//!   between plain and preprocessed calls;
//! * `robustness`: invalid column indices are never followed, refused calls leave C and the kept
//!   decision as they were;
//! * `tiles`: the dense-tile kernel on windows and block masks (sorted rows, the survey's choice
//!   read back from the workspace), the survey's refusals, plain against preprocessed bits;
//! * `refusals`: the status of every refused combination (types, formats, operations, index types,
//!   batches, NULL arrays and workspace);
//! * `c_api`: CUDALibrarySamples' sddmm_csr data (exact), and a NULL handle.
//!
//! Data are seeded random values that each type holds exactly (never all ones); C's columns are
//! unsorted within rows and rows r % 5 == 3 are empty. A's and B's padding, the gaps between their
//! batches and the bytes before a shifted operand hold 0xFF (NaN: a read shows); C's values between
//! batches hold 0xFF and must keep it; when beta == 0, C itself is NaN and must come back finite and
//! right; the workspace is poisoned (0xFF). bufferSize must be 0 exactly when A and B are read in
//! place. Tolerance (harness::tolerance): per component, 1e-5 (FP32 compute) or 1e-12 (FP64) times
//! sum_k |alpha||a_ik||b_kj| + |beta||c_ij|, plus half an ulp of a 16-bit C.

mod common;
use common::bytes::{decode_element, encode};
use common::*;

#[path = "gpu_sddmm/batches.rs"]
mod batches;
#[path = "gpu_sddmm/bsr.rs"]
mod bsr;
#[path = "gpu_sddmm/c_api.rs"]
mod c_api;
#[path = "gpu_sddmm/calls.rs"]
mod calls;
#[path = "gpu_sddmm/contract.rs"]
mod contract;
#[path = "gpu_sddmm/gen.rs"]
mod gen;
#[path = "gpu_sddmm/harness.rs"]
mod harness;
#[path = "gpu_sddmm/lanes.rs"]
mod lanes;
#[path = "gpu_sddmm/layouts.rs"]
mod layouts;
#[path = "gpu_sddmm/refusals.rs"]
mod refusals;
#[path = "gpu_sddmm/robustness.rs"]
mod robustness;
#[path = "gpu_sddmm/scalars.rs"]
mod scalars;
#[path = "gpu_sddmm/shapes.rs"]
mod shapes;
#[path = "gpu_sddmm/tiles.rs"]
mod tiles;
#[path = "gpu_sddmm/types.rs"]
mod types;
