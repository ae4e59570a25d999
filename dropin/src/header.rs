//! `dropin/include/cusparse.h`: a `cusparse.h` for the face, derived from `include/oxsparse.h` so a
//! program that includes `<cusparse.h>` and links `-lcusparse` builds without NVIDIA's cuSPARSE.
//!
//! The oxsparse names map one to one (`oxsparse` -> `cusparse`, `OXSPARSE_` -> `CUSPARSE_`): the
//! types, enums and values are cuSPARSE's by design. Only the functions the face carries out
//! natively are declared; the forwarded ones need the real cuSPARSE anyway, whose header has them.
//! Doc comments are left out (they describe oxsparse); the version macros are cuSPARSE 12.6.3's.
//! The committed file is checked by the test below; `UPDATE_HEADER=1` rewrites it.

/// The header text for `oxsparse_h`, declaring the functions whose twin is among `exports`.
pub fn cusparse_header(oxsparse_h: &str, exports: &[&str]) -> String {
    let mut out = String::from(PREAMBLE);
    let mut in_comment = false;
    let mut past_preamble = false;
    for line in oxsparse_h.lines() {
        let trimmed = line.trim_start();
        if in_comment {
            in_comment = !trimmed.contains("*/");
            continue;
        }
        if trimmed.starts_with("/*") {
            in_comment = !trimmed.contains("*/");
            continue;
        }
        // The generated part starts after the includes and oxsparse's own version macros.
        if !past_preamble {
            past_preamble = trimmed.starts_with("#define OXSPARSE_VERSION");
            continue;
        }
        if trimmed.starts_with("#endif") && trimmed.contains("OXSPARSE_H") {
            continue;
        }
        if let Some(name) = declared_function(trimmed) {
            let twin = name.replacen("oxsparse", "cusparse", 1);
            if !exports.contains(&twin.as_str()) {
                continue;
            }
        }
        if out.ends_with("\n\n") && trimmed.is_empty() {
            continue;
        }
        out.push_str(&line.replace("oxsparse", "cusparse").replace("OXSPARSE_", "CUSPARSE_"));
        out.push('\n');
    }
    out.push_str("\n#endif /* CUSPARSE_H_ */\n");
    out
}

const PREAMBLE: &str = "\
/* cusparse.h of oxsparse's cuSPARSE face (libcusparse.so.12, docs/design/dropin.md): cuSPARSE
 * 12.6.3's names, types and values for the functions oxsparse carries out natively. Link with
 * -lcusparse against lib/oxsparse/ of an oxsparse install. Generated from include/oxsparse.h by
 * dropin/src/header.rs: do not edit; run `UPDATE_HEADER=1 cargo test -p oxsparse-dropin header`. */

#ifndef CUSPARSE_H_
#define CUSPARSE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime_api.h>
#include <library_types.h>
#include <cuComplex.h>

#define CUSPARSE_VER_MAJOR 12
#define CUSPARSE_VER_MINOR 6
#define CUSPARSE_VER_PATCH 3
#define CUSPARSE_VER_BUILD 3
#define CUSPARSE_VERSION (CUSPARSE_VER_MAJOR * 1000 + CUSPARSE_VER_MINOR * 100 + CUSPARSE_VER_PATCH)
";

/// The function a one-line declaration `ret name(args);` declares.
fn declared_function(line: &str) -> Option<&str> {
    if !line.ends_with(");") || line.starts_with('#') {
        return None;
    }
    let head = line.split_once('(')?.0;
    let name = head.rsplit([' ', '*']).next()?;
    name.starts_with("oxsparse").then_some(name)
}

#[cfg(test)]
mod tests {
    use super::cusparse_header;
    use std::path::Path;

    #[test]
    fn committed_cusparse_header_is_up_to_date() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let oxsparse_h = std::fs::read_to_string(dir.join("../include/oxsparse.h")).unwrap();
        let exports = include_str!("../cusparse-12.6.3-exports.txt");
        let names: Vec<&str> = exports.lines().filter(|l| !l.is_empty()).collect();
        let fresh = cusparse_header(&oxsparse_h, &names);
        let body = &fresh[fresh.find("#ifndef").unwrap()..]; // the preamble comment names oxsparse
        let left: Vec<&str> = body.lines().filter(|l| l.to_lowercase().contains("oxsparse")).collect();
        assert!(left.is_empty(), "oxsparse names left: {left:?}");
        assert!(fresh.contains("cusparseStatus_t cusparseSpMM(cusparseHandle_t handle"));
        assert!(!fresh.contains("cusparseSetTuning("), "oxsparse-only functions are not declared");
        let path = dir.join("include/cusparse.h");
        if std::env::var("UPDATE_HEADER").as_deref() == Ok("1") {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &fresh).unwrap();
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "dropin/include/cusparse.h is stale: run `UPDATE_HEADER=1 cargo test -p oxsparse-dropin header` and commit it"
        );
    }
}
