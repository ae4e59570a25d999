#!/usr/bin/env bash
# The main job (README): oxsparse against cuSPARSE, side by side, on the default matrix set.
#   1. scripts/setup.sh: pinned nvcc 13.0 into .venv-cuda/ (the kernels are built with it)
#   2. cargo build --release --bin oxsparse-bench
#   3. oxsparse-bench on ../shared/matrices (the folder beside the repository; MANIFEST.tsv lists
#      its files) and the R-MAT graphs sized like ogbl-ddi, ogbn-arxiv, YouTube, ogbn-proteins,
#      Reddit and ogbn-products (SparseToDense and SpMM on each), plus the sparse-vector cases;
#      the table goes to stdout and, with the JSON, the CSV and the SVG chart of the SpMM speedups,
#      to bench/results/<UTC time>.{txt,json,csv,svg}; progress goes to stderr
# Arguments are passed on to oxsparse-bench (--help lists them): --quick for a smoke test (five
# small generated matrices, 5 runs); --rmat-set small (or none) to leave out the three largest
# R-MAT graphs, which take most of a run (each has 57M to 118M nnz); --ops SpMM for one operation;
# --matrices / --rmat / --stencil / --blockdiag ... name inputs, which replace the default set.
# Without a GPU it prints "oxsparse-bench: no GPU on this machine: nothing measured", keeps no
# result files and exits 0. Where there is no cargo (the GPU machine), the binary already in
# target/release/ (or $CARGO_TARGET_DIR/release/) is run as it is. Exit status: oxsparse-bench's (1 on a mismatch or an error;
# a NOT_SUPPORTED answer is reported per case and is no failure).
set -euo pipefail
cd "$(dirname "$0")/.."

# Where cargo puts it (CARGO_TARGET_DIR moves it, e.g. to keep this build apart from others).
bin=${CARGO_TARGET_DIR:-target}/release/oxsparse-bench
if command -v cargo >/dev/null 2>&1; then
    bash scripts/setup.sh
    cargo build --release --bin oxsparse-bench
elif [ -x "$bin" ]; then
    echo "bench: no cargo on this machine: running the $bin built before"
else
    echo "bench: no cargo and no $bin: build it first with cargo build --release --bin oxsparse-bench" >&2
    exit 1
fi

mkdir -p bench/results
out=bench/results/$(date -u +%Y%m%dT%H%M%SZ)
set +e
"$bin" "$@" --json "$out.json" --csv "$out.csv" --svg "$out.svg" | tee "$out.txt"
rc=${PIPESTATUS[0]}
set -e
if [ -f "$out.json" ]; then
    echo "bench: results in $out.txt, $out.json and $out.csv$( [ -f "$out.svg" ] && echo " (chart: $out.svg)")"
else
    rm -f "$out.txt" "$out.csv" "$out.svg"   # nothing was measured (no GPU, bad arguments)
    rmdir bench/results bench 2>/dev/null || true
fi
exit "$rc"
