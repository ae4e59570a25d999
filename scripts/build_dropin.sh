#!/usr/bin/env bash
# Builds the cuSPARSE face, libcusparse.so.12 (docs/design/dropin.md):
#   1. cargo builds the staticlib of dropin/ (the 423 cusparse* functions over oxsparse);
#   2. cc links it into a shared library with SONAME libcusparse.so.12 and a version script that
#      puts the 423 names of dropin/cusparse-12.6.3-exports.txt under the node libcusparse.so.12
#      and hides everything else (oxsparse*, Rust's runtime).
# rustc's own cdylib link cannot do 2: it passes its own version script, which exports every
# #[no_mangle] name of the crate graph and leaves ours at the base version.
#
# Usage: scripts/build_dropin.sh [release|debug]   (default release; honours CARGO_TARGET_DIR)
# Prints the path of the library it built: $CARGO_TARGET_DIR/<profile>/dropin/libcusparse.so.12
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
profile=${1:-release}
target_dir=${CARGO_TARGET_DIR:-$root/target}
case $target_dir in /*) ;; *) target_dir=$root/$target_dir ;; esac
flag=(); [ "$profile" = release ] && flag=(--release)

(cd "$root" && cargo build "${flag[@]}" -p oxsparse-dropin --lib >&2)
archive=$target_dir/$profile/libcusparse_face.a
out=$target_dir/$profile/dropin
mkdir -p "$out"

list=$root/dropin/cusparse-12.6.3-exports.txt
{ echo "libcusparse.so.12 {"; echo "  global:"; sed 's/.*/    &;/' "$list"; echo "  local: *;"; echo "};"; } > "$out/cusparse.map"
# -Bsymbolic: the face's own references to its names bind to its own definitions, as the real
# library's do (DT_SYMBOLIC), whatever else in the process defines cusparse*.
# -u pulls each name (and what it needs) out of the archive; the map decides what is exported.
sed 's/.*/-Wl,-u,&/' "$list" > "$out/undefined.args"

${CC:-cc} -shared -o "$out/libcusparse.so.12" @"$out/undefined.args" "$archive" \
    -Wl,-soname,libcusparse.so.12 -Wl,--version-script="$out/cusparse.map" -Wl,--gc-sections -Wl,-Bsymbolic \
    -Wl,-z,now -Wl,-z,relro -ldl -lpthread -lm -lrt -lgcc_s -lc
ln -sfn libcusparse.so.12 "$out/libcusparse.so" # for -lcusparse
echo "$out/libcusparse.so.12"
