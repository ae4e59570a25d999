//! Generates the face: one exported `cusparse*` function for each of the 423 names of
//! `cusparse-12.6.3-exports.txt`, routed in this order (docs/design/dropin.md):
//!
//! 1. face: written by hand in src/special.rs (version, error texts, the Destroys' shadow clean-up);
//! 2. native: `include/oxsparse.h` declares the `oxsparse*` twin, which gets the same arguments
//!    (even if forwarded.txt still lists the name: a test then asks for the line to be deleted);
//! 3. forwarded: `forwarded.txt` gives the parameter list, the real library carries it out;
//! 4. anything else returns CUSPARSE_STATUS_NOT_SUPPORTED and is logged once.
//!
//! Arguments travel as `usize`: every cuSPARSE parameter is an integer-class value (pointer, int,
//! enum, size_t; the build refuses a native twin with a float by value), so a wrapper passes the
//! caller's registers on untouched whatever the C types are.

use std::collections::{BTreeMap, BTreeSet};
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

/// Names src/special.rs implements by hand.
const FACE: &[&str] = &[
    "cusparseGetVersion",
    "cusparseGetProperty",
    "cusparseGetErrorName",
    "cusparseGetErrorString",
    "cusparseDestroy",
    "cusparseDestroySpMat",
    "cusparseDestroyDnMat",
    "cusparseDestroyDnVec",
];

fn main() {
    let dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let header = dir.join("../include/oxsparse.h");
    let exports = dir.join("cusparse-12.6.3-exports.txt");
    let forwarded = dir.join("forwarded.txt");
    let manifest = dir.join("../Cargo.toml");
    for path in [&header, &exports, &forwarded, &manifest] {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let names: Vec<String> = read(&exports).lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    let native = native_arities(&read(&header));
    let forward = forward_table(&read(&forwarded));
    let listed: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    for name in forward.keys().map(String::as_str).chain(FACE.iter().copied()) {
        assert!(listed.contains(name), "{name} is not among cuSPARSE's exports");
    }

    let mut code = String::new();
    let mut routes = String::new();
    let mut stale: Vec<String> = Vec::new();
    for (id, name) in names.iter().enumerate() {
        let twin = name.replacen("cusparse", "oxsparse", 1);
        if FACE.contains(&name.as_str()) {
            routes.push_str("Route::Face, ");
            writeln!(code, "pub const ID_{name}: usize = {id};").unwrap();
        } else if let Some(&arity) = native.get(&twin) {
            // Native wins; a test asks for the stale forwarded.txt line to go (src/tests.rs).
            if forward.contains_key(name) {
                stale.push(format!("{name:?}"));
            }
            routes.push_str("Route::Native, ");
            native_wrapper(&mut code, id, name, &twin, arity);
        } else if let Some(params) = forward.get(name) {
            routes.push_str("Route::Forwarded, ");
            forward_wrapper(&mut code, id, name, params);
        } else {
            routes.push_str("Route::NotSupported, ");
            writeln!(code, "#[no_mangle]\npub extern \"C\" fn {name}() -> c_int {{\n    crate::report::not_supported({id})\n}}").unwrap();
        }
    }
    let list: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    writeln!(code, "/// The exported names, in the order of the list; an index is a name's id.").unwrap();
    writeln!(code, "pub static NAMES: [&str; {}] = [{}];", names.len(), list.join(", ")).unwrap();
    writeln!(code, "/// How each name is carried out.").unwrap();
    writeln!(code, "pub static ROUTES: [Route; {}] = [{routes}];", names.len()).unwrap();
    writeln!(code, "/// Names forwarded.txt lists that oxsparse now implements (native wins).").unwrap();
    writeln!(code, "pub static NATIVE_BUT_LISTED_AS_FORWARDED: [&str; {}] = [{}];", stale.len(), stale.join(", ")).unwrap();
    // oxsparse's version (the root package's), for the report's first line.
    let version = read(&manifest)
        .lines()
        .find_map(|l| l.strip_prefix("version = \"").and_then(|v| v.strip_suffix('"')).map(String::from))
        .expect("../Cargo.toml: no version");
    writeln!(code, "/// oxsparse's version.\npub const OXSPARSE_VERSION: &str = {version:?};").unwrap();
    writeln!(code, "/// The number of exported names.\npub const COUNT: usize = {};", names.len()).unwrap();
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    fs::write(out.join("face.rs"), code).unwrap();
}

fn read(path: &PathBuf) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `oxsparse*` functions of the header returning a status or an enum (both C ints), by parameter count.
fn native_arities(header: &str) -> BTreeMap<String, usize> {
    let mut arities = BTreeMap::new();
    for line in header.lines() {
        let Some((head, rest)) = line.split_once('(') else { continue };
        let mut words = head.split_whitespace();
        let (Some(ret), Some(name), None) = (words.next(), words.next(), words.next()) else { continue };
        if !name.starts_with("oxsparse") || !ret.starts_with("oxsparse") || !ret.ends_with("_t") || !line.ends_with(");") {
            continue;
        }
        let params = rest.trim_end_matches(");").trim();
        let list: Vec<&str> = if params.is_empty() || params == "void" { Vec::new() } else { params.split(',').collect() };
        for p in &list {
            let by_value_float = (p.contains("float") || p.contains("double")) && !p.contains('*');
            assert!(!by_value_float, "{name}: a float by value cannot pass through a usize wrapper");
        }
        arities.insert(name.to_string(), list.len());
    }
    assert!(arities.len() > 50, "include/oxsparse.h: too few declarations found ({})", arities.len());
    arities
}

/// forwarded.txt: `NAME PARAMS` lines, `[SDCZ]` expanded.
fn forward_table(text: &str) -> BTreeMap<String, String> {
    let mut table = BTreeMap::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (name, params) = line.split_once(' ').unwrap_or_else(|| panic!("forwarded.txt: {line}"));
        let params = params.trim();
        assert!(params.chars().all(|c| "hmxsdv".contains(c)), "forwarded.txt: {line}");
        let names: Vec<String> = match name.split_once("[SDCZ]") {
            Some((a, b)) => "SDCZ".chars().map(|t| format!("{a}{t}{b}")).collect(),
            None => vec![name.to_string()],
        };
        for n in names {
            assert!(table.insert(n.clone(), params.to_string()).is_none(), "forwarded.txt: {n} twice");
        }
    }
    table
}

fn args(n: usize) -> (String, String) {
    let decl: Vec<String> = (0..n).map(|i| format!("a{i}: usize")).collect();
    let pass: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    (decl.join(", "), pass.join(", "))
}

fn native_wrapper(code: &mut String, id: usize, name: &str, twin: &str, arity: usize) {
    let (decl, pass) = args(arity);
    writeln!(
        code,
        "#[no_mangle]\npub unsafe extern \"C\" fn {name}({decl}) -> c_int {{\n    \
         extern \"C\" {{\n        fn {twin}({decl}) -> c_int;\n    }}\n    \
         let clock = crate::report::enter({id});\n    let status = {twin}({pass});\n    \
         crate::report::leave({id}, clock);\n    status\n}}"
    )
    .unwrap();
}

fn forward_wrapper(code: &mut String, id: usize, name: &str, params: &str) {
    let (decl, _) = args(params.len());
    let shadows = if params.contains(['h', 'm', 's', 'd', 'v']) { "shadows" } else { "_shadows" };
    let types = vec!["usize"; params.len()].join(", ");
    let pass: Vec<String> = params
        .chars()
        .enumerate()
        .map(|(i, kind)| match kind {
            'h' => format!("shadows.handle(a{i})?"),
            'm' => format!("shadows.mat_descr(a{i})?"),
            's' => format!("shadows.sp_mat(a{i})?"),
            'd' => format!("shadows.dn_mat(a{i})?"),
            'v' => format!("shadows.dn_vec(a{i})?"),
            _ => format!("a{i}"),
        })
        .collect();
    writeln!(
        code,
        "#[no_mangle]\npub unsafe extern \"C\" fn {name}({decl}) -> c_int {{\n    \
         let clock = crate::report::enter({id});\n    \
         let status = crate::forward::call({id}, |real, {shadows}| {{\n        \
         let real: unsafe extern \"C\" fn({types}) -> c_int = std::mem::transmute(real);\n        \
         Ok(real({}))\n    }});\n    crate::report::leave({id}, clock);\n    status\n}}",
        pass.join(", ")
    )
    .unwrap();
}
