//! docs/tuning.md lists every `OXSPARSE_*` environment variable the sources read: the library and
//! the bench (`src/`), the tests (`tests/`), the scripts (`scripts/`) and `build.rs`. This test
//! scans them and fails naming any variable the table lacks, or any row that names a variable
//! nothing reads. Host only, std only (`scripts/device_prepare.sh` leaves it out of the GPU
//! machine's binaries, which do not carry the sources).
//!
//! What counts as reading a variable:
//! * Rust and Python: a string literal that is exactly an `OXSPARSE_*` name (`env::var("...")`,
//!   a list of names looped over, `os.environ.get("...")`), except the C API's own constants
//!   (the enumerators and macros of include/oxsparse.h, such as `OXSPARSE_STATUS_SUCCESS`);
//! * shell: `$NAME` or `${NAME...}`, and `NAME=...` at the start of a command or after `export`
//!   (a variable the script sets for the program it runs).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// String literals that name no environment variable but look like one (none so far).
const NOT_VARIABLES: &[&str] = &[];

const PREFIX: &str = "OXSPARSE_";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn name_byte(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'
}

/// Each complete `OXSPARSE_*` name in `text` (not a prefix such as `OXSPARSE_STATUS_`), with its
/// byte range.
fn names(text: &str) -> Vec<(&str, usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(PREFIX) {
        let start = from + at;
        let mut end = start + PREFIX.len();
        while end < bytes.len() && name_byte(bytes[end]) {
            end += 1;
        }
        from = end;
        if start > 0 && name_byte(bytes[start - 1]) {
            continue; // part of a longer identifier
        }
        let name = &text[start..end];
        if name.len() > PREFIX.len() && !name.ends_with('_') {
            out.push((name, start, end));
        }
    }
    out
}

/// Names that are a whole string literal ("NAME" or 'NAME').
fn literal_names(text: &str) -> BTreeSet<String> {
    let b = text.as_bytes();
    names(text)
        .into_iter()
        .filter(|&(_, s, e)| s > 0 && e < b.len() && matches!(b[s - 1], b'"' | b'\'') && b[e] == b[s - 1])
        .map(|(n, _, _)| n.to_string())
        .collect()
}

/// Names a shell script reads ($NAME, ${NAME...}) or sets for a command (NAME=..., export NAME=...).
fn shell_names(text: &str) -> BTreeSet<String> {
    let b = text.as_bytes();
    names(text)
        .into_iter()
        .filter(|&(_, s, e)| {
            let read = (s >= 1 && b[s - 1] == b'$') || (s >= 2 && &b[s - 2..s] == b"${");
            let set = e < b.len() && b[e] == b'=' && (s == 0 || matches!(b[s - 1], b' ' | b'\t' | b'\n' | b';' | b'('));
            read || set
        })
        .map(|(n, _, _)| n.to_string())
        .collect()
}

/// The C API's constants: enumerators (`NAME = value`) and macros (`#define NAME`).
fn c_constants(header: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in header.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("#define ") {
            out.extend(rest.split_whitespace().next().map(str::to_string));
        } else if t.starts_with(PREFIX) {
            let (name, after) = t.split_at(t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len()));
            if after.trim_start().starts_with('=') {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// The variables the first column of docs/tuning.md's table names (rows "| `OXSPARSE_...` |").
fn documented(doc: &str) -> BTreeSet<String> {
    doc.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|n| n.starts_with(PREFIX))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_environment_variable_read_is_in_docs_tuning() {
    let root = root();
    let header = fs::read_to_string(root.join("include/oxsparse.h")).expect("include/oxsparse.h");
    let constants = c_constants(&header);
    assert!(constants.len() > 50 && constants.contains("OXSPARSE_STATUS_SUCCESS"), "the header's constants were not found");

    let mut files = vec![root.join("build.rs")];
    for dir in ["src", "tests", "scripts"] {
        files_under(&root.join(dir), &mut files);
    }
    let this = root.join(file!());
    // Variable -> the files that read it; and which of the four places contributed anything.
    let mut read: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut places = BTreeSet::new();
    for path in files.iter().filter(|p| **p != this) {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let Ok(text) = fs::read_to_string(path) else { continue };
        let found = match ext {
            "rs" | "py" => literal_names(&text),
            "sh" => shell_names(&text),
            _ => continue,
        };
        let rel = path.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
        for name in found.into_iter().filter(|n| !constants.contains(n) && !NOT_VARIABLES.contains(&n.as_str())) {
            places.insert(rel.split('/').next().unwrap().to_string());
            read.entry(name).or_default().insert(rel.clone());
        }
    }
    // Not vacuous: every scanner found something, and the sources read dozens of variables.
    for place in ["src", "tests", "scripts", "build.rs"] {
        assert!(places.contains(place), "no OXSPARSE_* variable found read in {place}: the scan is broken");
    }
    assert!(read.len() >= 20, "only {} OXSPARSE_* variables found read: the scan is broken", read.len());

    let doc = fs::read_to_string(root.join("docs/tuning.md")).expect("docs/tuning.md");
    let table = documented(&doc);
    assert!(table.len() >= 20, "docs/tuning.md's table has only {} OXSPARSE_* rows: is it still a table?", table.len());

    let missing: Vec<String> = read
        .iter()
        .filter(|(n, _)| !table.contains(*n))
        .map(|(n, at)| format!("{n} (read in {})", at.iter().cloned().collect::<Vec<_>>().join(", ")))
        .collect();
    let stale: Vec<&String> = table.iter().filter(|n| !read.contains_key(*n)).collect();
    assert!(missing.is_empty(), "docs/tuning.md's table lacks variables the sources read:\n  {}", missing.join("\n  "));
    assert!(stale.is_empty(), "docs/tuning.md's table names variables nothing reads any more: {stale:?}");
}

#[test]
fn the_scanners_tell_reads_from_constants() {
    let rust = r#"std::env::var("OXSPARSE_A_B"); let s = Status::OXSPARSE_C; x.replace("OXSPARSE_SPMM_", ""); "OXSPARSE_D=1""#;
    assert_eq!(literal_names(rust), BTreeSet::from(["OXSPARSE_A_B".to_string()]));
    let shell = "OXSPARSE_E=1 run\nexport OXSPARSE_F=1\n[ -n \"${OXSPARSE_G:-}\" ] && x=$OXSPARSE_H\n-DOXSPARSE_I=ON # OXSPARSE_J\n";
    let want = ["OXSPARSE_E", "OXSPARSE_F", "OXSPARSE_G", "OXSPARSE_H"].map(String::from);
    assert_eq!(shell_names(shell), BTreeSet::from(want));
    let header = "#define OXSPARSE_H\n  OXSPARSE_STATUS_SUCCESS = 0,\n * OXSPARSE_MATH_MODE names the mode\n";
    let want = ["OXSPARSE_H", "OXSPARSE_STATUS_SUCCESS"].map(String::from);
    assert_eq!(c_constants(header), BTreeSet::from(want));
    let doc = "| `OXSPARSE_X` | a |\n| `CUDA_HOME` | b |\ntext `OXSPARSE_Y`\n";
    assert_eq!(documented(doc), BTreeSet::from(["OXSPARSE_X".to_string()]));
}
