//! The native BitTCF object (`oxsparseCreateBitTcf`, `oxsparseSpMM_bitTcf`): its row order, its
//! products against the float64 reference and, bitwise, against SpMM_preprocess with the same
//! reorder mode (the object is that preprocessed state in memory of its own), new A values after
//! creation, and the status of every refused call (C left untouched).

use super::harness::*;
use super::*;
use oxsparse::ffi::bittcf::*;
use oxsparse::ffi::*;
use oxsparse::types::{MathMode, ReorderMode, Status};
use std::ptr::{null, null_mut};

const TF32: MathMode = MathMode::OXSPARSE_TF32_TENSOR_OP_MATH;
const NONE: ReorderMode = ReorderMode::OXSPARSE_REORDER_NONE;
const AFFINITY: ReorderMode = ReorderMode::OXSPARSE_REORDER_DATA_AFFINITY;

fn create(h: &CHandle, p: &Problem, g: &Gpu, reorder: ReorderMode, rows: &mut [i64]) -> Result<oxsparseBitTcf_t, String> {
    let c = &p.case;
    let mut tcf = null_mut();
    let s = unsafe {
        oxsparseCreateBitTcf(
            h.0,
            c.op_a as i32,
            c.op_b as i32,
            g.a,
            g.b,
            g.c,
            c.types.2 as i32,
            reorder as i32,
            &mut tcf,
            rows.as_mut_ptr(),
        )
    };
    expect(s, "oxsparseCreateBitTcf").map(|_| tcf)
}

fn multiply(h: &CHandle, p: &Problem, g: &Gpu, tcf: oxsparseBitTcf_t) -> Result<Vec<u8>, String> {
    write(&g.c_buf, &p.c_bytes);
    let (alpha, beta) = scalars(h, p);
    expect(unsafe { oxsparseSpMM_bitTcf(h.0, alpha.ptr(), tcf, g.b, beta.ptr(), g.c) }, "oxsparseSpMM_bitTcf")?;
    Ok(g.c_buf.to_vec())
}

fn is_permutation(rows: &[i64]) -> bool {
    let mut seen = vec![false; rows.len()];
    rows.iter().all(|&r| r >= 0 && (r as usize) < rows.len() && !std::mem::replace(&mut seen[r as usize], true))
}

/// Both reorder modes, CSR and COO (through a row view), FP32 in TF32 and FP16.
#[test]
fn bittcf_matches_reference_and_preprocess() {
    let Some(_gpu) = gpu("spmm BitTCF object") else { return };
    let h = CHandle::new();
    let half = (oxsparse::types::DataType::CUDA_R_16F, oxsparse::types::DataType::CUDA_R_32F, oxsparse::types::DataType::CUDA_R_32F);
    for (i, (fmt, types)) in [(Fmt::Csr, F32), (Fmt::Coo, F32), (Fmt::Csr, half)].into_iter().enumerate() {
        for reorder in [AFFINITY, NONE] {
            let case = Case {
                order_b: ROW,
                order_c: ROW,
                pattern: Pattern::ShuffledGroups,
                math: TF32,
                types,
                seed: 40 + i as u64,
                ..Case::new(fmt, (1504, 900, 64))
            };
            let label = format!("{fmt:?} {types:?} {reorder:?}");
            let mut p = Problem::new(&Case { reorder, ..case });
            let g = Gpu::upload(&p).unwrap();
            let mut rows = vec![-7i64; p.case.m as usize];
            let tcf = create(&h, &p, &g, reorder, &mut rows).unwrap_or_else(|e| panic!("{label}: {e}"));
            assert!(is_permutation(&rows), "{label}: the row order is not a permutation");
            let (mut m, mut k, mut nnz, mut reordered, mut tc) = (0i64, 0i64, 0i64, -1, -1);
            assert_eq!(unsafe { oxsparseBitTcfGetInfo(tcf, &mut m, &mut k, &mut nnz, &mut reordered, &mut tc) }, OK);
            assert_eq!((m, k, nnz), (p.case.m, p.case.k, p.a.nnz), "{label}: shape");
            let identity = rows.iter().enumerate().all(|(i, &r)| r == i as i64);
            assert_eq!(reordered == 1, !identity, "{label}: reordered flag and row order disagree");
            assert_eq!(reordered == 1, reorder == AFFINITY, "{label}: shuffled groups are reordered exactly when asked");
            if reorder == AFFINITY {
                // Clustered, each window is one group (8 entries per (window, column)): tensor cores.
                assert_eq!(tc, 1, "{label}: the reordered windows should take tensor cores");
            }

            let got = multiply(&h, &p, &g, tcf).unwrap();
            p.check(&got).unwrap_or_else(|e| panic!("{label}: {e}"));
            let preprocessed = run(&h, &p, &g, true).unwrap();
            assert!(got == preprocessed, "{label}: differs bitwise from SpMM_preprocess in the same reorder mode");
            // New values of A after creation are used.
            p.renew_a_values(91);
            g.rewrite(&p);
            p.check(&multiply(&h, &p, &g, tcf).unwrap()).unwrap_or_else(|e| panic!("{label}, new values: {e}"));
            assert_eq!(unsafe { oxsparseDestroyBitTcf(tcf) }, OK);
        }
    }
}

#[test]
fn bittcf_refusals() {
    let Some(_gpu) = gpu("spmm BitTCF refusals") else { return };
    let h = CHandle::new();
    let case = Case { order_b: ROW, order_c: ROW, pattern: Pattern::Dense, math: TF32, ..Case::new(Fmt::Csr, (64, 48, 32)) };
    let p = Problem::new(&case);
    let g = Gpu::upload(&p).unwrap();
    let st = |s: Status| s as i32;
    let (op, compute) = (N as i32, case.types.2 as i32);
    let mut rows = vec![0i64; 64];
    let mut tcf = null_mut();
    let create_with = |handle, a, reorder, out: *mut oxsparseBitTcf_t| unsafe {
        oxsparseCreateBitTcf(handle, op, op, a, g.b, g.c, compute, reorder, out, null_mut())
    };
    assert_eq!(create_with(null_mut(), g.a, 0, &mut tcf), st(Status::OXSPARSE_STATUS_NOT_INITIALIZED));
    assert_eq!(create_with(h.0, null(), 0, &mut tcf), st(Status::OXSPARSE_STATUS_INVALID_VALUE));
    assert_eq!(create_with(h.0, g.a, 2, &mut tcf), st(Status::OXSPARSE_STATUS_INVALID_VALUE), "reorder enum");
    assert_eq!(create_with(h.0, g.a, 0, null_mut()), st(Status::OXSPARSE_STATUS_INVALID_VALUE), "NULL output");
    assert!(tcf.is_null(), "a refused create wrote its output");
    // FP64 does not run on tensor cores.
    let p64 = Problem::new(&Case {
        types: (oxsparse::types::DataType::CUDA_R_64F, oxsparse::types::DataType::CUDA_R_64F, oxsparse::types::DataType::CUDA_R_64F),
        ..case
    });
    let g64 = Gpu::upload(&p64).unwrap();
    let s = unsafe {
        oxsparseCreateBitTcf(h.0, op, op, g64.a, g64.b, g64.c, oxsparse::types::DataType::CUDA_R_64F as i32, 0, &mut tcf, null_mut())
    };
    assert_eq!(s, st(Status::OXSPARSE_STATUS_NOT_SUPPORTED));

    let tcf = create(&h, &p, &g, AFFINITY, &mut rows).unwrap();
    assert_eq!(unsafe { oxsparseBitTcfGetInfo(tcf, null_mut(), null_mut(), null_mut(), null_mut(), null_mut()) }, OK);
    // C of another shape: refused, C untouched.
    let other = Problem::new(&Case { n: 40, ..case });
    let go = Gpu::upload(&other).unwrap();
    let before = go.c_buf.to_vec::<u8>();
    let (alpha, beta) = scalars(&h, &p);
    let s = unsafe { oxsparseSpMM_bitTcf(h.0, alpha.ptr(), tcf, go.b, beta.ptr(), go.c) };
    assert_eq!(s, st(Status::OXSPARSE_STATUS_INVALID_VALUE), "B and C of another shape");
    assert!(go.c_buf.to_vec::<u8>() == before, "a refused call wrote C");
    assert_eq!(unsafe { oxsparseSpMM_bitTcf(h.0, null(), tcf, g.b, beta.ptr(), g.c) }, st(Status::OXSPARSE_STATUS_INVALID_VALUE));
    assert_eq!(
        unsafe { oxsparseSpMM_bitTcf(h.0, alpha.ptr(), g.a as oxsparseConstBitTcf_t, g.b, beta.ptr(), g.c) },
        st(Status::OXSPARSE_STATUS_INVALID_VALUE),
        "a descriptor for the object"
    );
    assert_eq!(unsafe { oxsparseDestroyBitTcf(tcf) }, OK);
    assert_eq!(unsafe { oxsparseDestroyBitTcf(tcf) }, st(Status::OXSPARSE_STATUS_NOT_INITIALIZED), "destroyed twice");
    assert_eq!(
        unsafe { oxsparseSpMM_bitTcf(h.0, alpha.ptr(), tcf, g.b, beta.ptr(), g.c) },
        st(Status::OXSPARSE_STATUS_NOT_INITIALIZED),
        "used after destroy"
    );
    assert_eq!(unsafe { oxsparseDestroyBitTcf(null()) }, OK);
}
