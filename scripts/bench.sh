#!/usr/bin/env bash
# The main job (README): oxsparse against cuSPARSE, side by side, on the default matrix set.
#   1. scripts/setup.sh: pinned nvcc 13.0 into .venv-cuda/ (the kernels are built with it)
#   2. cargo build --release --bin oxsparse-bench
#   3. oxsparse-bench on ../shared/matrices (the folder beside the repository; MANIFEST.tsv lists
#      its files) plus the sparse-vector cases; the table goes to stdout and, with the JSON and
#      CSV, to bench/results/<UTC time>.{txt,json,csv}
# Arguments are passed on to oxsparse-bench (--quick, --runs 50, --ops SparseToDense, --matrices ...;
# --help lists them); naming matrices replaces the default set.
# Without a GPU it prints "oxsparse-bench: no GPU on this machine: nothing measured", keeps no
# result files and exits 0. Where there is no cargo (the GPU machine), the binary already in
# target/release/ is run as it is. Exit status: oxsparse-bench's (1 on a mismatch or an error).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=target/release/oxsparse-bench
if command -v cargo >/dev/null 2>&1; then
    bash scripts/setup.sh
    cargo build --release --bin oxsparse-bench
elif [ -x "$bin" ]; then
    echo "bench: no cargo on this machine: running the $bin built before"
else
    echo "bench: no cargo and no $bin: build it first with cargo build --release --bin oxsparse-bench" >&2
    exit 1
fi

# The default matrix set unless the arguments name matrices (or ask for the quick set).
default=(--matrices ../shared/matrices)
for a in "$@"; do
    case "$a" in --matrices|--rmat|--uniform|--banded|--quick|-h|--help) default=() ;; esac
done

mkdir -p bench/results
out=bench/results/$(date -u +%Y%m%dT%H%M%SZ)
set +e
"$bin" "${default[@]}" "$@" --json "$out.json" --csv "$out.csv" | tee "$out.txt"
rc=${PIPESTATUS[0]}
set -e
if [ -f "$out.json" ]; then
    echo "bench: results in $out.txt, $out.json and $out.csv"
else
    rm -f "$out.txt" "$out.csv"   # nothing was measured (no GPU, bad arguments)
    rmdir bench/results bench 2>/dev/null || true
fi
exit "$rc"
