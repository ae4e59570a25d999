//! Per-handle settings: handles of one process, each told a different SpMV kernel, column order or
//! band choice through `oxsparseSetTuning`, record that choice in their preprocess decision, and
//! all give the reference's answer. Under forcing variables too (the device suite sets them), since
//! every handle here states what it wants.

use super::harness::*;
use super::*;
use oxsparse::ffi::spmv::preprocessed_decision;

/// A banded matrix of 1.2M entries: large enough for every optional room (columns, band).
fn banded(i: usize) -> Case {
    let band = Pattern::Band { below: 32768, above: 32767, per_row: 12 };
    let alg = oxsparse::types::SpMVAlg::OXSPARSE_SPMV_ALG_DEFAULT;
    Case { preprocess: true, pattern: band, alg, ..vary(Case::new(Fmt::Csr, (100_000, 100_000)), 18_000 + i) }
}

#[test]
fn each_handle_runs_what_its_settings_name() {
    let Some(_gpu) = gpu("spmv per-handle settings") else { return };
    type Check = fn(&oxsparse::ops::spmv::Decision) -> bool;
    let rows: [(&str, Option<&str>, Check); 6] = [
        ("OXSPARSE_SPMV_KERNEL", Some("tiles"), |d| d.schedule.is_none()),
        ("OXSPARSE_SPMV_KERNEL", Some("vector"), |d| d.schedule.is_some()),
        ("OXSPARSE_SPMV_KERNEL", Some("split"), |d| d.schedule.is_some()),
        ("OXSPARSE_SPMV_COLUMNS", Some("sorted"), |d| d.sorted_columns && !d.band),
        ("OXSPARSE_SPMV_COLUMNS", Some("natural"), |d| !d.sorted_columns),
        ("OXSPARSE_SPMV_BAND", Some("off"), |d| !d.band),
    ];
    // All handles live at once: a setting on one must not reach another.
    let handles: Vec<CHandle> = rows
        .iter()
        .map(|&(name, value, _)| {
            let h = CHandle::unforced();
            h.set_tuning(name, value);
            h
        })
        .collect();
    for (i, ((name, value, check), h)) in rows.iter().zip(&handles).enumerate() {
        let case = banded(i);
        let pre = Preprocessed::new(h, &case).unwrap_or_else(|e| panic!("{name}={value:?}: {e}"));
        let decision = unsafe { preprocessed_decision(pre.args.a) }.unwrap_or_else(|| panic!("{name}={value:?}: no decision kept"));
        assert!(check(&decision), "{name}={value:?}: {decision}");
        write_at(&pre.g.y_buf, 0, &pre.p.y_bytes);
        pre.spmv(h).unwrap();
        pre.p.check(&pre.g.y_buf.to_vec()).unwrap_or_else(|e| panic!("{name}={value:?} ({decision}): {e}"));
    }
    // The library's own choice on this matrix, for the record: the band offsets.
    let h = CHandle::unforced();
    let pre = Preprocessed::new(&h, &banded(9)).unwrap();
    let decision = unsafe { preprocessed_decision(pre.args.a) }.unwrap();
    assert!(decision.band && decision.schedule.is_some(), "the library's choice: {decision}");
    println!("spmv per-handle settings: {} handles in one process, each ran what it named", rows.len());
}
