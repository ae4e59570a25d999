//! Bad arguments for every exported C function, table-driven as rocSPARSE's tests are (issue 53,
//! "The suite that keeps it so"): each function's valid call succeeds, then each argument in turn is
//! made bad, as its kind implies (`table::Arg`):
//!
//! * handles: NULL, never issued, destroyed: NOT_INITIALIZED; another kind of object: INVALID_VALUE;
//! * descriptors and objects: NULL and another kind: INVALID_VALUE; never issued and destroyed
//!   (names never repeat, so a destroyed one is refused for good): NOT_INITIALIZED;
//! * output pointers, scalars and other read pointers: NULL is INVALID_VALUE;
//! * enums: -1, 12345 and the gaps between enumerators; sizes, leading dimensions, strides: -1 and
//!   i64::MIN; batch counts: 0 and -1; data pointers: one byte off their element's alignment: all
//!   INVALID_VALUE;
//!
//! and each function adds its own rows: mismatched shapes between operands, out-of-range sizes,
//! NULL arrays that entries need, another format's descriptor (INVALID_VALUE); a valid but
//! unsupported type or algorithm (NOT_SUPPORTED); valid variants (empty objects, optional NULLs).
//!
//! After every row nothing of the fixture may have changed: each descriptor, handle and BitTCF read
//! through all its getters; and after a refused row, the host memory that outputs point into (0xAB)
//! and, on the GPU, every device array, inputs and outputs (0xFF), byte for byte.
//!
//! Two tiers. `host_tier` needs no GPU and runs everywhere, CI included: descriptor functions,
//! GetProperty, the error strings, and each handle-taking function's NULL, never issued, destroyed
//! and wrong-kind handle (the handle is checked first). `gpu_tier` runs the rest where
//! `common::gpu` finds a GPU. `every_exported_function_has_rows` reads src/ffi and fails naming any
//! exported function without rows, or without a row that succeeds: new functions join the table as
//! they land.

mod common;

#[path = "ffi_bad_arguments/conversions.rs"]
mod conversions;
#[path = "ffi_bad_arguments/descriptors.rs"]
mod descriptors;
#[path = "ffi_bad_arguments/gpu.rs"]
mod gpu;
#[path = "ffi_bad_arguments/legacy.rs"]
mod legacy;
#[path = "ffi_bad_arguments/legacy_bsr.rs"]
mod legacy_bsr;
#[path = "ffi_bad_arguments/sddmm.rs"]
mod sddmm;
#[path = "ffi_bad_arguments/snapshot.rs"]
mod snapshot;
#[path = "ffi_bad_arguments/sort.rs"]
mod sort;
#[path = "ffi_bad_arguments/sparse_matrix.rs"]
mod sparse_matrix;
#[path = "ffi_bad_arguments/srbcrs.rs"]
mod srbcrs;
#[path = "ffi_bad_arguments/table.rs"]
mod table;

use std::collections::BTreeSet;
use std::rc::Rc;
use table::*;

/// The host tier's table, against the host fixture.
fn host_table(fx: &descriptors::HostFixture) -> Table {
    let mut t = Table::new(Mode::All, fx.objects);
    descriptors::rows(&mut t, fx);
    t.mode = Mode::FirstArgOnly;
    gpu::rows(&mut t, &gpu::Operands::without_gpu(fx));
    t
}

/// The GPU tier's table built over the host fixture's stand-ins, never run: for its size where
/// there is no GPU, and for the coverage check.
fn gpu_table_unrun(fx: &descriptors::HostFixture) -> Table {
    let never = || -> u64 { unreachable!("the rows of gpu_table_unrun are never run") };
    let operands = gpu::Operands {
        fresh_handle: Some(Rc::new(never)),
        fresh_tcf: Some(Rc::new(never)),
        fresh_brcv: Some(Rc::new(never)),
        fresh_srbcrs: Some(Rc::new(never)),
        ..gpu::Operands::without_gpu(fx)
    };
    let mut t = Table::new(Mode::All, fx.objects);
    gpu::rows(&mut t, &operands);
    t
}

fn fail_on(failures: Vec<String>, tier: &str) {
    assert!(failures.is_empty(), "{tier}: {} failing rows:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn host_tier() {
    let fx = descriptors::HostFixture::new();
    let t = host_table(&fx);
    fail_on(run(&t.rows, &fx), "host tier");
    let gpu = gpu_table_unrun(&fx);
    let needing_gpu: BTreeSet<_> = gpu.rows.iter().map(|r| r.func).collect();
    let first_arg = t.rows.iter().filter(|r| needing_gpu.contains(r.func)).count();
    println!(
        "bad arguments, host tier: {} ({first_arg} of them a bad first argument of the {} functions that otherwise need a GPU); \
         GPU tier: {}, run by gpu_tier where there is a GPU",
        count(&t.rows),
        needing_gpu.len(),
        count(&gpu.rows)
    );
}

#[test]
fn gpu_tier() {
    let Some(_gpu) = common::gpu("ffi_bad_arguments GPU tier") else {
        let host = descriptors::HostFixture::new();
        println!("bad arguments, GPU tier: {} needing a GPU skipped", count(&gpu_table_unrun(&host).rows));
        return;
    };
    let fx = gpu::GpuFixture::new();
    let mut t = Table::new(Mode::All, fx.objects);
    gpu::rows(&mut t, &fx.operands);
    fail_on(run(&t.rows, &fx), "GPU tier");
    println!("bad arguments, GPU tier: {}", count(&t.rows));
}

/// The names of the functions src/ffi exports: lines that start with `pub unsafe extern "C" fn` or
/// `pub extern "C" fn` (not the example in a doc comment). Read from the source tree the test was
/// built from, else from the working directory (the device machine runs the binaries from a copy
/// of the tree, elsewhere).
fn exported_functions() -> BTreeSet<String> {
    let built_from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ffi");
    let dir = if built_from.is_dir() { built_from } else { std::path::PathBuf::from("src/ffi") };
    let mut names = BTreeSet::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let Some(rest) = line.strip_prefix("pub unsafe extern \"C\" fn ").or_else(|| line.strip_prefix("pub extern \"C\" fn ")) else {
                continue;
            };
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            assert!(name.starts_with("oxsparse"), "{}: exported function {name} without the prefix", path.display());
            names.insert(name);
        }
    }
    assert!(names.len() > 50, "found only {} exported functions in {}", names.len(), dir.display());
    names
}

#[test]
fn every_exported_function_has_rows() {
    let exported = exported_functions();
    let fx = descriptors::HostFixture::new();
    let (host, gpu) = (host_table(&fx), gpu_table_unrun(&fx));
    let rows: Vec<&Row> = host.rows.iter().chain(&gpu.rows).collect();
    for table in [&host, &gpu] {
        let mut seen = BTreeSet::new();
        let twice: Vec<_> =
            table.rows.iter().filter(|r| !seen.insert((r.func, r.what.as_str()))).map(|r| format!("{}: {}", r.func, r.what)).collect();
        assert!(twice.is_empty(), "rows with the same label: {twice:?}");
    }
    let covered: BTreeSet<String> = rows.iter().map(|r| r.func.to_string()).collect();
    let missing: Vec<_> = exported.difference(&covered).collect();
    assert!(missing.is_empty(), "{} exported functions have no row in the bad-argument table: {missing:?}", missing.len());
    let unknown: Vec<_> = covered.difference(&exported).collect();
    assert!(unknown.is_empty(), "rows name functions src/ffi does not export: {unknown:?}");
    let succeeding: BTreeSet<String> = rows.iter().filter(|r| r.want == SUCCESS).map(|r| r.func.to_string()).collect();
    let no_baseline: Vec<_> = exported.difference(&succeeding).collect();
    assert!(no_baseline.is_empty(), "functions without a row that succeeds (the table would pass vacuously): {no_baseline:?}");
    let refusing: BTreeSet<String> = rows.iter().filter(|r| r.want != SUCCESS).map(|r| r.func.to_string()).collect();
    let never_refused: Vec<_> = exported
        .difference(&refusing)
        .filter(|f| !f.starts_with("oxsparseGetError") && !legacy::CANNOT_REFUSE.contains(&f.as_str()))
        .collect();
    assert!(never_refused.is_empty(), "functions without a bad-argument row: {never_refused:?}");
    println!("bad arguments: all {} exported functions have rows ({} host, {} GPU)", exported.len(), host.rows.len(), gpu.rows.len());
}
