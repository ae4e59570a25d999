#!/usr/bin/env bash
# Preprocess's host time by phase: oxsparse-bench's SpMM on the matrices in LAB_DIR/m (default
# .device-lab/m) twice, a timed run ($OUT/timed.{json,csv}, LAB_RUNS x LAB_PASSES) and a run with
# OXSPARSE_PRINT_PLAN=1 (3 runs, 1 pass) whose phase lines bench/tools/preprocess_phases.py sums per
# case ($OUT/phases.txt; the raw lines in $OUT/plan.err.gz).
#   run(command="LAB_DIR=.device-lab/s37 bash bench/tools/preprocess_phases.sh", carry=[".device-lab/s37"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dir=${LAB_DIR:-.device-lab}
bench=${BENCH:-$dir/bench}
args=(--ops SpMM --rmat-set ${LAB_RMAT:-none} --matrices "$dir"/m/*.mtx.gz)
"$bench" "${args[@]}" --runs ${LAB_RUNS:-10} --passes ${LAB_PASSES:-2} --json "$out/timed.json" --csv "$out/timed.csv" 2>/dev/null | grep -E '^SpMM \[' 
OXSPARSE_PRINT_PLAN=1 "$bench" "${args[@]}" --runs 3 --passes 1 --json "$out/plan.json" 2>"$out/plan.err" >/dev/null
python3 bench/tools/preprocess_phases.py "$out/plan.err" | tee "$out/phases.txt"
gzip -f "$out/plan.err"
