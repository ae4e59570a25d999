#!/usr/bin/env bash
# Two or more builds or settings of oxsparse-bench on the same cases, in one process each, taking
# turns (A B A B ... for LAB_ROUNDS rounds, so drift of the machine falls on both), each against
# cuSPARSE in its own process. Each argument is a command (a path on the GPU machine, or
# 'env NAME=VALUE path');
# the cases by LAB_MATRICES (names in LAB_MATRIX_DIR, default .device-lab/matrices; default all), LAB_OPS (SpMM), LAB_ARGS
# (more bench options). Prints the summary lines; bench/tools/spmm_env_table.py puts the JSONs
# side by side (round r of binary i is column (r-1)*count+i).
#   run(command="bash bench/tools/bench_ab.sh .device-lab/base-bench 'env OXSPARSE_LAUNCH=direct .device-lab/oxsparse-bench'", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
mdir=${LAB_MATRIX_DIR:-.device-lab/matrices}
mats=()
if [ -n "${LAB_MATRICES:-}" ]; then
    for m in $LAB_MATRICES; do mats+=("$mdir/$m.mtx.gz"); done
else
    mats=("$mdir"/*.mtx.gz)
fi
args=(--ops ${LAB_OPS:-SpMM} --rmat-set ${LAB_RMAT:-none} --matrices "${mats[@]}" --runs ${LAB_RUNS:-20} --passes ${LAB_PASSES:-1} ${LAB_ARGS:-})
files=()
for r in $(seq 1 "${LAB_ROUNDS:-1}"); do
    i=0
    for bench in "$@"; do
        i=$((i + 1))
        echo "=== round $r, $i: $bench"
        f="$out/ab_r${r}_b$i.json"
        read -ra cmd <<<"$bench"
        "${cmd[@]}" "${args[@]}" --json "$f" 2>/dev/null | grep -E '^(SpMM|SpMV|SDDMM) \['
        files+=("$f")
    done
done
python3 bench/tools/spmm_env_table.py "${files[@]}" > "$out/ab_table.txt"
grep -E '^(geomean|host us)' "$out/ab_table.txt"
