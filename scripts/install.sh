#!/usr/bin/env bash
# Installs oxsparse into PREFIX:
#   lib/liboxsparse.so.X.Y.Z, lib/liboxsparse.so.X -> .so.X.Y.Z, lib/liboxsparse.so -> .so.X
#   include/oxsparse.h, include/oxsparse.f90
#   lib/cmake/oxsparse/oxsparseConfig.cmake, oxsparseConfigVersion.cmake
#   lib/pkgconfig/oxsparse.pc
#   lib/oxsparse/libcusparse.so.12, lib/oxsparse/libcusparse.so -> .so.12: the cuSPARSE face
#     (docs/design/dropin.md), in a folder of its own so that it never shadows the toolkit's
#     cuSPARSE by accident; built by scripts/build_dropin.sh when cargo is here, else installed
#     only if already built
#   include/oxsparse-cusparse/cusparse.h: the face's cusparse.h (the natively implemented functions)
#   lib/cmake/oxsparse: the target oxsparse::cusparse (the face and that header);
#   lib/pkgconfig/oxsparse-cusparse.pc
#
# Usage: scripts/install.sh PREFIX
#
# Installs target/release/liboxsparse.so (or $CARGO_TARGET_DIR/release/...). If it
# does not exist yet, runs `cargo build --release` first. The installed tree is
# relocatable: it can be moved or copied as a whole.
set -euo pipefail

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
prefix=$(cd "$1" && pwd)

# The version comes from the [package] table of Cargo.toml, the one place that holds it.
version=$(sed -n '/^\[package\]/,/^\[/ s/^version *= *"\([^"]*\)".*/\1/p' "$root/Cargo.toml" | head -n1)
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]]; then
    echo "install.sh: cannot read the package version from $root/Cargo.toml" >&2
    exit 1
fi
major=${version%%.*}

target_dir=${CARGO_TARGET_DIR:-$root/target}
case $target_dir in /*) ;; *) target_dir=$root/$target_dir ;; esac
so=$target_dir/release/liboxsparse.so
if [ ! -f "$so" ]; then
    echo "install.sh: $so missing, running cargo build --release"
    (cd "$root" && cargo build --release)
fi
# src/bin holds tools, not library code.
stale=$(cd "$root" && find Cargo.toml build.rs src kernels -path src/bin -prune -o \
        -newer "$so" -type f -print 2>/dev/null | head -n3 || true)
if [ -n "$stale" ]; then
    echo "install.sh: warning: sources are newer than $so (e.g. ${stale//$'\n'/, });" \
         "run cargo build --release to refresh it" >&2
fi

# The CMake config declares IMPORTED_SONAME liboxsparse.so.$major; a library with
# another SONAME would be found at build time and then missed at run time.
if command -v readelf >/dev/null 2>&1; then
    soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    if [ "$soname" != "liboxsparse.so.$major" ]; then
        echo "install.sh: $so has SONAME '$soname', expected liboxsparse.so.$major" >&2
        exit 1
    fi
fi
for f in include/oxsparse.h include/oxsparse.f90; do
    [ -f "$root/$f" ] || { echo "install.sh: $root/$f missing" >&2; exit 1; }
done

install -d "$prefix/lib" "$prefix/include"
install -m 0755 "$so" "$prefix/lib/liboxsparse.so.$version"
ln -sfn "liboxsparse.so.$version" "$prefix/lib/liboxsparse.so.$major"
ln -sfn "liboxsparse.so.$major" "$prefix/lib/liboxsparse.so"
install -m 0644 "$root/include/oxsparse.h" "$root/include/oxsparse.f90" "$prefix/include/"

# The cuSPARSE face: built here when cargo is available (the GPU machine has none: it installs the
# face only if one was built beforehand).
face=$target_dir/release/dropin/libcusparse.so.12
if command -v cargo >/dev/null 2>&1; then
    (cd "$root" && bash scripts/build_dropin.sh release >/dev/null)
fi
if [ -f "$face" ]; then
    install -d "$prefix/lib/oxsparse"
    install -m 0755 "$face" "$prefix/lib/oxsparse/libcusparse.so.12"
    ln -sfn libcusparse.so.12 "$prefix/lib/oxsparse/libcusparse.so"
    install -d "$prefix/include/oxsparse-cusparse"
    install -m 0644 "$root/dropin/include/cusparse.h" "$prefix/include/oxsparse-cusparse/"
else
    echo "install.sh: no $face (scripts/build_dropin.sh builds it): cuSPARSE face not installed" >&2
fi

sizeof_void_p=$(( $(getconf LONG_BIT) / 8 ))
cmake -DPREFIX="$prefix" -DOXSPARSE_VERSION="$version" -DSIZEOF_VOID_P="$sizeof_void_p" \
      -P "$root/cmake/stage.cmake"

echo "install.sh: installed oxsparse $version into $prefix"
