//! CSR SpMM's banded path (src/ops/spmm/banded.rs): preprocess measures op(A)'s bands on the GPU
//! where the plan keeps room, and its calls run BRCV's kernels where the band fits that room.
//!
//! Per case: the screen's floor of far entries and the detection's totals (band values, far
//! entries, widest band) in the decision record equal their CPU twins' (`oxsparse::reference::brcv`
//! `far_floor` and `layout`), the screen declines only where the floor exceeds the room, and the
//! band is taken exactly where the rule says; then three calls (the second repeats the first's arguments, so it replays its
//! launches) and a fourth after A's values, B and C were written anew in place, each against the
//! float64 reference, C poisoned (NaN) when beta == 0. Matrices: bands of half-width 0, 1, 16 and
//! 64, bands with holes, bands with a few far entries, block tridiagonal, duplicates, and matrices
//! that are not banded; FP32, FP64, FP16 (FP16 and FP32 C), BF16, complex, row- and column-major
//! B and C, opB N, T and H, batches of B and C, both index types and bases, host and device
//! scalars. Small matrices run with `OXSPARSE_SPMM_BRCV=on`;
//! at a million entries the rule decides alone, and a matrix that is not banded keeps the kernel
//! (and the bits) it has with the band path off.

use super::gen;
use super::harness::*;
use super::*;
use crate::common::gen::from_entries;
use crate::common::values::shuffle;
use oxsparse::descr::{FormatInfo, SpBatch};
use oxsparse::ffi::spmm::preprocessed_decision;
use oxsparse::ops::spmm::banded::{FAR_SHARE, VALUES_PER_ENTRY};
use oxsparse::reference::spmm::BatchedSparse;
use oxsparse::types::DataType::*;

#[derive(Clone, Copy, Debug)]
enum Shape {
    /// Columns r - half ..= r + half, each kept with probability `fill` percent.
    Band { half: i64, fill: u64 },
    /// Blocks of this many rows coupled with their own and the two neighbouring blocks' columns.
    BlockTridiagonal(i64),
    /// A full band of half-width `half`, and one entry in a random column in every `every`-th row.
    BandFar { half: i64, every: i64 },
    /// This many random columns a row: not banded.
    Random(i64),
    /// A band of half-width `half` whose every entry is given twice.
    Duplicates(i64),
}

#[derive(Clone, Copy, Debug)]
struct BandCase {
    case: Case,
    shape: Shape,
    /// `OXSPARSE_SPMM_BRCV`'s value on the handle (None: the rule).
    setting: Option<&'static str>,
    /// Whether the band must be taken, where the case is meant to show it (else the twin's totals
    /// and the rule decide alone).
    taken: Option<bool>,
}

/// Each row's columns (unsorted within rows).
fn columns(rng: &mut Rng, shape: Shape, m: i64, k: i64) -> Vec<Vec<i64>> {
    let clip = |v: Vec<i64>| -> Vec<i64> { v.into_iter().filter(|&x| x >= 0 && x < k).collect() };
    (0..m)
        .map(|r| {
            let mut v = match shape {
                Shape::Band { half, fill } => clip((r - half..=r + half).filter(|_| rng.below(100) < fill).collect()),
                Shape::BlockTridiagonal(b) => clip((b * (r / b - 1)..b * (r / b + 2)).collect()),
                Shape::BandFar { half, every } => {
                    let mut v = clip((r - half..=r + half).collect());
                    let far = rng.below(k as u64) as i64;
                    if r % every == 0 && !v.contains(&far) {
                        v.push(far);
                    }
                    v
                }
                Shape::Random(per_row) => rng.distinct(k as u64, per_row.min(k) as usize).into_iter().map(|x| x as i64).collect(),
                Shape::Duplicates(half) => {
                    let v = clip((r - half..=r + half).collect());
                    v.iter().chain(v.iter()).copied().collect()
                }
            };
            shuffle(rng, &mut v);
            v
        })
        .collect()
}

/// The case's A: CSR of `shape`, random values of A's type.
fn matrix(c: &BandCase) -> BatchedSparse {
    let case = &c.case;
    let mut rng = Rng::new(case.seed ^ 0xBA4D);
    let rows = columns(&mut rng, c.shape, case.m, case.k);
    let nnz: usize = rows.iter().map(Vec::len).sum();
    let values = gen::random(&mut rng, case.types.0, nnz);
    let entries = rows
        .iter()
        .enumerate()
        .flat_map(|(r, cols)| cols.iter().map(move |&col| (r as i64, col)))
        .zip(values)
        .map(|((r, col), v)| (r, col, v));
    let m = from_entries(FormatInfo::Csr, (case.m, case.k), case.base.offset(), entries.collect(), true);
    BatchedSparse { m, nnz: nnz as i64, batch: SpBatch { count: 1, offsets_stride: 0, indices_stride: 0, values_stride: 0 } }
}

/// A handle with none of the environment's settings (a forced kernel turns the rule off) but
/// `OXSPARSE_SPMM_BRCV` = `setting`.
fn handle(setting: Option<&str>) -> CHandle {
    let h = CHandle::unforced();
    h.set_tuning("OXSPARSE_SPMM_BRCV", Some(setting.unwrap_or("rule")));
    h
}

/// One SpMM over `pre` on C restored from `p`, checked; returns C.
fn call(h: &CHandle, p: &Problem, pre: &Preprocessed, what: &str) -> Result<Vec<u8>, String> {
    write(&pre.g.c_buf, &p.c_bytes);
    expect(unsafe { pre.args.spmm(h, ws_ptr(&pre.ws)) }, "SpMM")?;
    let got = pre.g.c_buf.to_vec();
    p.check(&got).map_err(|e| format!("{what}: {e}"))?;
    Ok(got)
}

fn run_banded(h: &CHandle, c: &BandCase) -> Result<(), String> {
    h.set_tuning("OXSPARSE_SPMM_BRCV", Some(c.setting.unwrap_or("rule")));
    let mut p = Problem::new(&c.case);
    p.a = matrix(c);
    let a = &p.a.m;
    let twin = oxsparse::reference::brcv::layout(a.rows, a.cols, &a.offsets, &a.indices, a.base);
    let nnz = p.a.nnz as u64;
    let forced = c.setting == Some("on");
    let far_room = if forced { nnz } else { nnz / FAR_SHARE };
    let take = twin.values <= VALUES_PER_ENTRY * nnz && twin.far <= far_room && (forced || twin.values > 0);

    if c.taken.is_some_and(|t| t != take) {
        return Err(format!(
            "the case is meant to be {}taken, but the twin's totals are {twin:?} for {nnz} entries",
            if take { "not " } else { "" }
        ));
    }
    let pre = preprocessed(h, &p)?;
    let d = unsafe { preprocessed_decision(pre.args.a) }.ok_or("preprocess kept no decision")?;
    let b = d.banded.ok_or_else(|| format!("no band detection in the decision: {d}"))?;
    let floor = oxsparse::reference::brcv::far_floor(a.rows, a.cols, &a.offsets, &a.indices, a.base);
    if b.far_floor != floor || floor > twin.far {
        return Err(format!("the screen's far floor is {}, its twin's {floor} (far entries {})", b.far_floor, twin.far));
    }
    match b.totals {
        None if floor <= far_room => return Err(format!("declined by the screen with {floor} entries surely far: {d}")),
        None => {}
        Some(t) if (t.values, t.far, t.widest) != (twin.values, twin.far, twin.widest) => {
            let want = (twin.values, twin.far, twin.widest);
            return Err(format!("detection (band values, far, widest) {:?}, the twin says {want:?}", (t.values, t.far, t.widest)));
        }
        Some(_) => {}
    }
    if b.taken != take {
        return Err(format!("the band should {}be taken: {d}", if take { "" } else { "not " }));
    }
    let first = call(h, &p, &pre, "call 1")?;
    if call(h, &p, &pre, "call 2 (repeated)")? != first {
        return Err("the repeated call differs bitwise from the first".into());
    }
    // New values of A and B in place: the band must be refreshed from them.
    p.renew_a_values(c.case.seed ^ 0x4E57);
    let mut rng = Rng::new(c.case.seed ^ 0xB0B);
    (p.b, p.b_bytes) = gen::dense(&mut rng, c.case.b_shape(), c.case.order_b, c.case.pad_b, c.case.batch.b, c.case.types.0, true);
    pre.g.rewrite(&p);
    call(h, &p, &pre, "call 3, new values of A and B")?;
    call(h, &p, &pre, "call 4, repeated")?;
    Ok(())
}

/// Runs every case on one unforced handle (a SKIP line without a GPU), failing with the first
/// failures.
fn sweep_banded(test: &str, cases: &[BandCase]) {
    let Some(_gpu) = gpu(test) else { return };
    let h = handle(None);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| run_banded(&h, c).err().map(|e| format!("{:?} BRCV {:?} {}: {e}", c.shape, c.setting, c.case.label())))
        .collect();
    assert!(
        failures.is_empty(),
        "{test}: {} of {} cases failed; first ones:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    println!("{test}: {} cases passed", cases.len());
}

const TYPES: [Types; 4] =
    [F32, (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F), (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F)];

/// A preprocessed CSR case, its other parameters drawn by `vary`, opA and opB N.
fn csr(i: usize, (m, k, n): (i64, i64, i64), types: Types) -> Case {
    let v = vary(Case::new(Fmt::Csr, (m, k, n)), i);
    Case {
        types,
        preprocess: true,
        alg: oxsparse::types::SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT,
        order_b: [ROW, COL][i % 2],
        order_c: [ROW, COL][i / 2 % 2],
        beta: if i % 3 == 0 { (0.0, 0.0) } else { v.beta },
        ..v
    }
}

/// Bands and band-like patterns on small matrices with the path forced on: every type, layout
/// and beta.
fn forced_cases() -> Vec<BandCase> {
    let shapes = [
        Shape::Band { half: 0, fill: 100 },
        Shape::Band { half: 1, fill: 100 },
        Shape::Band { half: 16, fill: 100 },
        Shape::Band { half: 64, fill: 100 },
        Shape::Band { half: 16, fill: 70 },
        Shape::Band { half: 40, fill: 55 },
        Shape::BandFar { half: 16, every: 13 },
        Shape::BandFar { half: 4, every: 3 },
        Shape::BlockTridiagonal(16),
        Shape::BlockTridiagonal(48),
        Shape::Random(7),
    ];
    let sizes = [(1000, 1000, 64), (777, 777, 33), (300, 300, 16), (130, 200, 100), (64, 64, 1)];
    let mut cases = vec![];
    for (s, &shape) in shapes.iter().enumerate() {
        for (t, &types) in TYPES.iter().enumerate() {
            let i = s * TYPES.len() + t;
            let (m, k, n) = sizes[i % sizes.len()];
            // Square and 300 rows or more, the dense bands surely fit the room (corners and
            // short matrices may hold more band values than twice their entries).
            let dense = matches!(shape, Shape::Band { fill: 70.., .. } | Shape::BandFar { .. } | Shape::BlockTridiagonal(_));
            let taken = (dense && m == k && m >= 300).then_some(true);
            cases.push(BandCase { case: csr(i, (m, k, n), types), shape, setting: Some("on"), taken });
        }
    }
    cases.push(BandCase { case: csr(99, (400, 400, 40), F32), shape: Shape::Duplicates(5), setting: Some("on"), taken: Some(true) });
    // Batches of C (B shared or not), op(B) transposed, complex with op(B) = H, BF16.
    let band = Shape::Band { half: 9, fill: 100 };
    let on = |case| BandCase { case, shape: band, setting: Some("on"), taken: Some(true) };
    let batch = |b, c| Batch { a: 1, b, c, shared: false };
    cases.extend([
        on(Case { batch: batch(3, 3), ..csr(100, (500, 500, 48), F32) }),
        on(Case { batch: batch(1, 2), ..csr(101, (500, 500, 40), TYPES[1]) }),
        on(Case { op_b: T, ..csr(102, (600, 600, 64), F32) }),
        on(Case { op_b: H, ..csr(103, (600, 600, 24), (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F)) }),
        on(Case { op_b: T, ..csr(104, (600, 600, 20), (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F)) }),
        on(csr(105, (600, 600, 72), (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F))),
    ]);
    cases
}

#[test]
fn forced_bands_match_the_reference() {
    sweep_banded("banded SpMM forced", &forced_cases());
}

/// At a million entries and more the rule decides: bands and a band of blocks take BRCV, a band
/// with too many far entries and a matrix that is not banded do not.
fn rule_cases() -> Vec<BandCase> {
    let rule = |i, shape, dims, taken| BandCase { case: csr(i, dims, F32), shape, setting: None, taken: Some(taken) };
    vec![
        rule(1, Shape::Band { half: 16, fill: 100 }, (40_000, 40_000, 32), true),
        BandCase { case: csr(5, (50_000, 50_000, 48), TYPES[1]), ..rule(5, Shape::Band { half: 16, fill: 80 }, (1, 1, 1), true) },
        rule(2, Shape::BlockTridiagonal(20), (20_000, 20_000, 64), true),
        rule(3, Shape::BandFar { half: 20, every: 50 }, (30_000, 30_000, 16), true),
        // One far entry in every row of six: more than a tenth far.
        rule(4, Shape::BandFar { half: 2, every: 1 }, (200_000, 200_000, 16), false),
        rule(6, Shape::Random(30), (40_000, 40_000, 16), false),
    ]
}

#[test]
fn the_rule_takes_bands_of_a_million_entries() {
    sweep_banded("banded SpMM rule", &rule_cases());
}

/// Under a million entries the rule keeps no room and measures nothing.
#[test]
fn small_matrices_keep_no_room() {
    let Some(_gpu) = gpu("banded SpMM small") else { return };
    let c = BandCase { case: csr(20, (5_000, 5_000, 64), F32), shape: Shape::Band { half: 16, fill: 100 }, setting: None, taken: None };
    let mut p = Problem::new(&c.case);
    p.a = matrix(&c);
    let h = handle(None);
    let pre = preprocessed(&h, &p).unwrap();
    let d = unsafe { preprocessed_decision(pre.args.a) }.unwrap();
    assert!(d.banded.is_none() && d.plan.brcv.is_none(), "{d}");
    call(&h, &p, &pre, "small").unwrap();
}

/// A matrix that is not banded keeps what it runs with the path off: the same row kernel, and C
/// bitwise the same.
#[test]
fn matrices_that_are_not_banded_keep_their_kernels() {
    let Some(_gpu) = gpu("banded SpMM keeps kernels") else { return };
    for (i, per_row) in [(0usize, 30i64), (1, 80)] {
        let c = BandCase { case: csr(10 + i, (40_000, 40_000, 32), F32), shape: Shape::Random(per_row), setting: None, taken: Some(false) };
        let mut p = Problem::new(&c.case);
        p.a = matrix(&c);
        let (rule, off) = (handle(None), handle(Some("off")));
        let (pre_rule, pre_off) = (preprocessed(&rule, &p).unwrap(), preprocessed(&off, &p).unwrap());
        let d_rule = unsafe { preprocessed_decision(pre_rule.args.a) }.unwrap();
        let d_off = unsafe { preprocessed_decision(pre_off.args.a) }.unwrap();
        assert!(d_rule.banded.is_some_and(|b| !b.taken), "{per_row} a row: measured and declined: {d_rule}");
        assert!(d_off.banded.is_none() && d_off.plan.brcv.is_none(), "off: no room, no detection: {d_off}");
        assert_eq!((d_rule.rows, d_rule.plan.kernel), (d_off.rows, d_off.plan.kernel), "{d_rule} against {d_off}");
        let got_rule = call(&rule, &p, &pre_rule, "rule").unwrap();
        let got_off = call(&off, &p, &pre_off, "off").unwrap();
        assert!(got_rule == got_off, "{per_row} a row: C differs bitwise from the path switched off");
    }
}
