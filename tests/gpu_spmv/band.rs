//! The band offsets preprocess keeps for SpMV (src/ops/spmv/band.rs): op(A)'s columns as 16-bit
//! offsets from their row, read instead of A's indices by the lean vector kernel.
//!
//! Matrices of 1.2M entries (large enough for preprocess to consider the offsets by itself) whose
//! columns lie in a window around the row: one exactly as wide as 16 bits allow (offsets from
//! -32768 to 32767, so the extremes occur), one too wide (A's indices must be read). Against the
//! reference with and without preprocess for stored rows (CSR N, CSC T), FP32 and FP64, both index
//! types and bases; reused with new values and after the buffer was overwritten. A probe shows the
//! offsets are what the kernel reads: after preprocess A's indices are overwritten (which the API
//! forbids, so only a test may), and a band call still gives the product of the pattern preprocess
//! saw, while a too-wide matrix follows the new indices.
//! `scripts/device_suite.sh` also runs every SpMV case with `OXSPARSE_SPMV_BAND=on`.

use super::determinism;
use super::gen;
use super::harness::*;
use super::*;
use oxsparse::reference::vector_ops::ZERO;
use oxsparse::types::Operation;

/// The widest window whose offsets all fit in 16 bits.
const FITS: Pattern = Pattern::Band { below: 32768, above: 32767, per_row: 12 };
/// One column further below than 16 bits reach.
const TOO_WIDE: Pattern = Pattern::Band { below: 40000, above: 100, per_row: 12 };

/// 100000 x 100000, 12 entries per row: 1.2M entries.
fn band_case(fmt: Fmt, op: Operation, types: Types, pattern: Pattern, i: usize) -> Case {
    vary(Case { op, types, pattern, ..Case::new(fmt, (100_000, 100_000)) }, 17_000 + i)
}

pub fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for pattern in [FITS, TOO_WIDE] {
        for (fmt, op) in [(Fmt::Csr, N), (Fmt::Csc, T)] {
            for types in [F32, F64] {
                for preprocess in [true, false] {
                    let i = cases.len();
                    cases.push(Case { preprocess, ..band_case(fmt, op, types, pattern, i) });
                }
            }
        }
    }
    cases
}

#[test]
fn banded_matrices() {
    sweep("spmv banded matrices", &cases());
}

#[test]
fn banded_matrices_reused_and_overwritten() {
    let Some(_gpu) = gpu("spmv band offsets reused") else { return };
    let h = CHandle::new();
    let all: Vec<Case> =
        [(Fmt::Csr, N, F32), (Fmt::Csc, T, F64)].into_iter().enumerate().map(|(i, (f, o, t))| band_case(f, o, t, FITS, 100 + i)).collect();
    let reuse =
        |c: &Case| determinism::new_values_after_preprocess(&h, c).and_then(|_| determinism::buffer_overwritten_after_preprocess(&h, c));
    let failures: Vec<String> = all.iter().filter_map(|c| reuse(c).err().map(|e| format!("{}: {e}", c.label()))).collect();
    assert!(failures.is_empty(), "{} of {} failing:\n{}", failures.len(), all.len(), failures.join("\n"));
    println!("spmv band offsets reused: {} cases passed", all.len());
}

/// Preprocess, then every stored index of A set to the first column, SpMV. Ok(true): y is the
/// product of the original pattern (the kernel read the band offsets); Ok(false): y is the product
/// of the new one (it read A's indices).
fn reads_band_offsets(h: &CHandle, case: &Case) -> Result<bool, String> {
    let mut run = Preprocessed::new(h, case)?;
    let moved: Vec<i64> = run.p.a.indices.iter().map(|_| case.base as i64).collect();
    write_at(&run.g.a_arrays[1], 0, &gen::encode_indices(case.it, &moved));
    run.spmv(h)?;
    let (p, got) = (&mut run.p, run.g.y_buf.to_vec());
    if p.check(&got).is_ok() {
        return Ok(true);
    }
    p.a.indices = moved;
    p.check(&got).map(|_| false).map_err(|e| format!("y is neither the old pattern's product nor the new one's: {e}"))
}

#[test]
fn band_offsets_are_what_the_kernel_reads() {
    let Some(_gpu) = gpu("spmv band offsets read") else { return };
    // The library's own choice, whatever the environment forces.
    let h = CHandle::unforced();
    let mut failures = Vec::new();
    let mut count = 0;
    for (i, (fmt, op, types)) in [(Fmt::Csr, N, F32), (Fmt::Csc, T, F64), (Fmt::Csr, N, F64)].into_iter().enumerate() {
        for (pattern, want) in [(FITS, true), (TOO_WIDE, false)] {
            // beta = 0 with alpha = 1.5 keeps y a pure product, so the two patterns' answers differ.
            let case = Case { preprocess: true, alpha: (1.5, 0.0), beta: ZERO, ..band_case(fmt, op, types, pattern, 200 + i) };
            count += 1;
            match reads_band_offsets(&h, &case) {
                Ok(got) if got == want => {}
                Ok(got) => failures.push(format!("{}: band offsets read: {got}, expected {want}", case.label())),
                Err(e) => failures.push(format!("{}: {e}", case.label())),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {count} failing:\n{}", failures.len(), failures.join("\n"));
    println!("spmv band offsets read: {count} cases passed");
}
