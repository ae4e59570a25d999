#!/usr/bin/env bash
# oxsparse-bench's SpMM under several environment settings, one bench process each (the library
# reads its forcing variables once), on the matrices named in LAB_MATRICES (default: all in
# .device-lab/matrices, or LAB_MATRIX_DIR), FP32 unless LAB_PRECISIONS says otherwise; LAB_BENCH names
# another bench binary. Prints each setting's
# summary lines and keeps every JSON in $OUT; bench/tools/spmm_env_table.py puts them side by side.
#   run(command="bash bench/tools/spmm_env.sh 'OXSPARSE_SPMM_PIECE=16' 'OXSPARSE_SPMM_PIECE=32'", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
bench=${LAB_BENCH:-.device-lab/oxsparse-bench}
mdir=${LAB_MATRIX_DIR:-.device-lab/matrices}
mats=()
if [ -n "${LAB_MATRICES:-}" ]; then
    for m in $LAB_MATRICES; do mats+=("$mdir/$m.mtx.gz"); done
else
    mats=("$mdir"/*.mtx.gz)
fi
args=(--ops SpMM --spmm-precisions ${LAB_PRECISIONS:-fp32} --rmat-set ${LAB_RMAT:-none} --matrices "${mats[@]}" --runs ${LAB_RUNS:-20} --passes ${LAB_PASSES:-2})
i=0
for setting in "$@"; do
    i=$((i + 1))
    echo "=== $i: $setting"
    env $setting "$bench" "${args[@]}" --json "$out/env$i.json" 2>/dev/null | grep -E '^SpMM \['
done
python3 bench/tools/spmm_env_table.py "$out"/env*.json | tee "$out/table.txt"
