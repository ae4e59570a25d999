//! The dense-tile kernel (kernels/sddmm_tiles.cu) and its survey (src/ops/sddmm/tiles.rs): on
//! sorted masks whose rows share columns (windows, block masks) the survey must choose the tiles,
//! and the values must equal the reference; where it must not (a row out of order, a hub row, a
//! random mask) the lean kernel's values must. Plain and preprocessed calls give the same bits.

use super::harness::*;
use oxsparse::ffi::sddmm::preprocessed_decision;
use oxsparse::ops::sddmm::tiles;
use oxsparse::types::DataType::*;

/// The survey's verdict after a preprocessed call of `case`, read from the workspace (None: the
/// plan keeps no survey), with the values checked against the reference.
fn surveyed(h: &CHandle, case: &Case) -> Result<Option<bool>, String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    let (alpha, beta) = scalars(h, &p);
    let args = g.args(&p, &alpha, &beta);
    let ws = workspace(args.size(h)?);
    expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SDDMM_preprocess")?;
    expect(unsafe { args.sddmm(h, ws_ptr(&ws)) }, "SDDMM")?;
    p.check(&g.c_values())?;
    let decision = unsafe { preprocessed_decision(g.c) }.ok_or("preprocess kept no decision")?;
    let Some(t) = decision.plan.tiles else {
        return match decision.tiles {
            None => Ok(None),
            Some(v) => Err(format!("a verdict ({v}) without a survey")),
        };
    };
    let ws = ws.ok_or("a survey without a workspace")?;
    let at = oxsparse::ops::workspace::align_up(ws.ptr as usize) - ws.ptr as usize + t.survey_at;
    let bytes = ws.to_vec();
    let mut c = [0u64; tiles::SURVEY_COUNTERS];
    for (i, x) in c.iter_mut().enumerate() {
        *x = u64::from_le_bytes(bytes[at + 8 * i..at + 8 * i + 8].try_into().unwrap());
    }
    let verdict = tiles::chosen(&c);
    if decision.tiles != Some(verdict) {
        return Err(format!("preprocess read the verdict {:?}, the workspace's counters {c:?} say {verdict}", decision.tiles));
    }
    Ok(Some(verdict))
}

/// `sweep_with` on a handle that surveys for the tiles whatever the size (`OXSPARSE_SDDMM_TILES=on`),
/// so that small cases reach them.
fn sweep_on(test: &str, cases: &[Case], check: impl Fn(&CHandle, &Case) -> Result<(), String>) {
    crate::common::sweep::sweep_tuned(test, cases, Case::label, &[("OXSPARSE_SDDMM_TILES", "on")], check);
}

fn expect_verdict(h: &CHandle, case: &Case, want: bool) -> Result<(), String> {
    match surveyed(h, case)? {
        Some(got) if got == want => Ok(()),
        got => Err(format!("the survey chose the tiles: {got:?}, expected Some({want})")),
    }
}

/// Windows and block masks of many shapes, every type the tiles take, k from one vector to
/// several slices, both index types and bases, scalars and pointer modes as `vary` draws them.
pub fn tile_cases() -> Vec<Case> {
    // (A and B, C, compute).
    let f16: Types = (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F);
    let f16c: Types = (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F);
    let bf16: Types = (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F);
    let bf16c: Types = (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F);
    let mut cases = Vec::new();
    let shapes: [(i64, i64, i64); 6] =
        [(1000, 32, 1000), (1031, 4, 777), (700, 128, 1200), (2048, 200, 2048), (999, 64, 999), (640, 8, 4000)];
    let patterns = [
        Pattern::Window { w: 129, holes: false },
        Pattern::Window { w: 256, holes: false },
        Pattern::Blocks(64),
        Pattern::Blocks(48),
        Pattern::Window { w: 300, holes: true },
    ];
    for (i, &(m, k, n)) in shapes.iter().enumerate() {
        for (j, &pattern) in patterns.iter().enumerate() {
            let types = pick(&[F32, f16, bf16, f16c, bf16c], i + j);
            // 16-bit lines of whole 16-byte vectors: k a multiple of 8.
            let k = if types.0 == CUDA_R_32F { k } else { (k + 7) / 8 * 8 };
            let c = Case { pattern, types, ..Case::new(Fmt::Csr, (m, k, n)) };
            cases.push(vary(c, 11_000 + 10 * i + j));
        }
    }
    cases
}

#[test]
fn tiles_equal_the_reference_where_the_survey_chooses_them() {
    sweep_on("sddmm tiles", &tile_cases(), |h, c| {
        // Square C with wide full windows or blocks on the tiles' grid must be chosen; holes,
        // narrow or steep windows and blocks across the grid may fill too little of their tiles.
        let want = c.m == c.n && matches!(c.pattern, Pattern::Window { w: 256, holes: false } | Pattern::Blocks(64));
        match surveyed(h, c)? {
            Some(got) if !want || got => Ok(()),
            got => Err(format!("the survey chose the tiles: {got:?}")),
        }
    });
    let plain: Vec<Case> = tile_cases().into_iter().map(|c| Case { preprocess: false, ..c }).collect();
    sweep_on("sddmm tiles, plain calls", &plain, run_case);
}

#[test]
fn survey_refuses_unsorted_rows_hubs_and_random_masks() {
    let window = Case { pattern: Pattern::Window { w: 129, holes: false }, ..Case::new(Fmt::Csr, (1000, 32, 1000)) };
    // The harness's random rows are unsorted; the hub rows are longer than the tiles take.
    let random = Case { pattern: Pattern::Random, ..Case::new(Fmt::Csr, (2000, 32, 2000)) };
    let hubs = Case { pattern: Pattern::Hubs(10_000), ..Case::new(Fmt::Csr, (3000, 32, 12_000)) };
    sweep_on("sddmm tiles survey", &[window], |h, c| expect_verdict(h, c, true));
    // Large enough for the default rule on any device of up to 312 multiprocessors.
    let large = Case { pattern: Pattern::Window { w: 129, holes: false }, ..Case::new(Fmt::Csr, (20_000, 32, 20_000)) };
    sweep_with("sddmm tiles survey, default handle", &[large], |h, c| expect_verdict(h, c, true));
    let refused: Vec<Case> = [random, hubs].into_iter().enumerate().map(|(i, c)| vary(c, 11_100 + i)).collect();
    sweep_on("sddmm tiles survey refusals", &refused, |h, c| match surveyed(h, c)? {
        Some(true) => Err("the survey chose the tiles".into()),
        _ => Ok(()),
    });
}

#[test]
fn tiles_give_the_same_bits_plain_and_preprocessed() {
    let cases: Vec<Case> = [
        Case { pattern: Pattern::Window { w: 256, holes: false }, ..Case::new(Fmt::Csr, (1500, 64, 1500)) },
        Case { pattern: Pattern::Blocks(64), types: (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F), ..Case::new(Fmt::Csr, (1024, 128, 1024)) },
    ]
    .into_iter()
    .enumerate()
    .map(|(i, c)| vary(c, 11_200 + i))
    .collect();
    sweep_on("sddmm tiles determinism", &cases, super::contract::bitwise_identical);
}

#[test]
fn tiles_off_keeps_no_survey() {
    let Some(_gpu) = crate::common::gpu("sddmm tiles off") else { return };
    let h = CHandle::new();
    h.set_tuning("OXSPARSE_SDDMM_TILES", Some("off"));
    let case = Case { pattern: Pattern::Window { w: 129, holes: false }, ..Case::new(Fmt::Csr, (1000, 32, 1000)) };
    assert_eq!(surveyed(&h, &case), Ok(None));
    let p = Problem::new(&case);
    let g = Gpu::upload(&p).unwrap();
    let (alpha, beta) = scalars(&h, &p);
    assert_eq!(g.args(&p, &alpha, &beta).size(&h), Ok(0), "A and B in place, no survey: no workspace");
}
