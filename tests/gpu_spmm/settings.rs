//! Per-handle settings: handles of one process, each told a different SpMM row kernel through
//! `oxsparseSetTuning`, record that kernel in their preprocess decision and all give the
//! reference's answer; a handle with nothing set records the library's own choice. Whatever the
//! environment forces (the device suite sets forcing variables), since each handle states what it
//! wants.

use super::harness::*;
use super::*;
use oxsparse::ffi::spmm::preprocessed_decision;
use oxsparse::ops::spmm::{Decision, RowKernel};

/// Preprocesses `case` on `h`, checks one SpMM with that buffer against the reference, and returns
/// the decision preprocess kept.
fn decided(h: &CHandle, case: &Case) -> Decision {
    let p = Problem::new(case);
    let pre = preprocessed(h, &p).unwrap_or_else(|e| panic!("{}: {e}", case.label()));
    let decision = unsafe { preprocessed_decision(pre.args.a) }.unwrap_or_else(|| panic!("{}: no decision kept", case.label()));
    write(&pre.g.c_buf, &p.c_bytes);
    expect(unsafe { pre.args.spmm(h, ws_ptr(&pre.ws)) }, "SpMM").unwrap();
    p.check(&pre.g.c_buf.to_vec()).unwrap_or_else(|e| panic!("{} ({decision}): {e}", case.label()));
    decision
}

#[test]
fn each_handle_runs_the_row_kernel_its_settings_name() {
    let Some(_gpu) = gpu("spmm per-handle settings") else { return };
    // Skewed rows of one batch (split rows by the rule), and a sparse graph (warp rows by the rule).
    let skewed = Case { order_b: ROW, order_c: ROW, pattern: Pattern::Skewed(3000), ..Case::new(Fmt::Csr, (400, 4000, 64)) };
    let graph = Case { order_b: ROW, order_c: ROW, pattern: Pattern::Skewed(5_000), ..Case::new(Fmt::Csr, (20_000, 20_000, 128)) };
    type Check = fn(&RowKernel) -> bool;
    let rows: [(Case, Option<&str>, Check); 6] = [
        (skewed, None, |r| matches!(r, RowKernel::SplitRows { .. })),
        (skewed, Some("tiles"), |r| *r == RowKernel::Tiles),
        (skewed, Some("short_rows"), |r| *r == RowKernel::ShortRows),
        (graph, None, |r| matches!(r, RowKernel::WarpRows { .. })),
        (graph, Some("split_rows"), |r| matches!(r, RowKernel::SplitRows { .. } | RowKernel::Tiles)),
        (graph, Some("tiles"), |r| *r == RowKernel::Tiles),
    ];
    // All handles live at once: a setting on one must not reach another.
    let handles: Vec<CHandle> = rows
        .iter()
        .map(|&(_, kernel, _)| {
            let h = CHandle::unforced();
            h.set_tuning("OXSPARSE_SPMM_KERNEL", kernel);
            h
        })
        .collect();
    for ((case, kernel, check), h) in rows.iter().zip(&handles) {
        let d = decided(h, case);
        assert!(check(&d.rows), "{} with OXSPARSE_SPMM_KERNEL={kernel:?}: {d}", case.label());
    }
    // A setting changed on a live handle takes effect at its next plan.
    let h = CHandle::unforced();
    h.set_tuning("OXSPARSE_SPMM_KERNEL", Some("tiles"));
    assert_eq!(decided(&h, &skewed).rows, RowKernel::Tiles);
    h.set_tuning("OXSPARSE_SPMM_KERNEL", None);
    assert!(matches!(decided(&h, &skewed).rows, RowKernel::SplitRows { .. }), "back to the rule");
    println!("spmm per-handle settings: {} handles in one process, each ran the kernel it named", rows.len());
}

/// The record names the order and the groups: on a shuffled band whose op(B) outgrows the
/// row-order model's L2, a handle told `OXSPARSE_SPMM_ROW_ORDER=always` runs whole short rows in a
/// breadth-first order (a split-row table of whole rows), one told `never` in the stored order, and
/// one told nothing records which of the two its model chose; all give the reference's answer.
#[test]
fn the_record_names_the_row_order() {
    let Some(_gpu) = gpu("spmm per-handle row order") else { return };
    let band = Case { pattern: Pattern::ShuffledBand(4), order_b: ROW, order_c: ROW, ..Case::new(Fmt::Csr, (90_000, 90_000, 128)) };
    let band = Case { pad_b: 0, pad_c: 0, ..vary(band, 22_000) };
    let told = |order: &str| {
        let h = CHandle::unforced();
        h.set_tuning("OXSPARSE_SPMM_ROW_ORDER", Some(order));
        decided(&h, &band)
    };
    let always = told("always");
    assert!(always.breadth_first && matches!(always.rows, RowKernel::SplitRows { .. }) && always.row_shape.is_some(), "{always}");
    let never = told("never");
    assert!(!never.breadth_first && never.rows == RowKernel::ShortRows && never.row_shape.is_some(), "{never}");
    let own = decided(&CHandle::unforced(), &band);
    assert!(own.rows == if own.breadth_first { always.rows } else { never.rows }, "{own}");
    println!("spmm per-handle row order: breadth-first when told always, stored when told never, the model's choice recorded");
}
