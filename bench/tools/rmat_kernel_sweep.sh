#!/usr/bin/env bash
# The planner on R-MAT graphs: forced kernels and settings against the default (the sweeps of
# bench/notes/spmm-kernels.md and h200.md). For each GRAPHS entry (NAME=NODES:EDGES):
# the plans the default chose (OXSPARSE_PRINT_PLAN, one run), then one bench process per spec
# (bench/tools/bench_specs.sh: BENCH[:SETTINGS]), FP32, side by side (bench/tools/spmm_env_table.py).
#   run(command="bash bench/tools/rmat_kernel_sweep.sh", carry=[".device-lab/s47"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dir=${LAB_DIR:-.device-lab/s47}
rounds=1
source bench/tools/bench_specs.sh
# KEEP=1, LAB_PRECISIONS=fp16 and the like for the other precisions.
# SPECS: specs separated by ';' (a spec's settings are separated by spaces).
IFS=';' read -ra specs <<< "${SPECS:-bench-base;bench-base:OXSPARSE_SPMM_KERNEL=warp_rows;bench-base:OXSPARSE_SPMM_KERNEL=split_rows;bench-base:OXSPARSE_SPMM_KERNEL=tiles}"
graphs=${GRAPHS:-"proteins_like=132534:95800000 reddit_like=232965:114615892"}
for g in $graphs; do
    name=${g%%=*}
    echo "##### $name"
    [ "${PLANS:-1}" = 1 ] && OXSPARSE_PRINT_PLAN=1 "$dir/bench-base" --rmat "${g#*=}" --ops SpMM --spmm-precisions fp32 --runs 1 --warmup 0 2>&1 |
        grep -E "preprocess plan|SpMM preprocess:" | sed -E 's/^(.{220}).*/\1/' | sort -u | head -20
    args=(--rmat "${g#*=}" --ops SpMM --spmm-precisions ${LAB_PRECISIONS:-fp32} --runs ${LAB_RUNS:-10} --passes 1)
    run_specs "${specs[@]}"
    python3 bench/tools/spmm_env_table.py "$out"/env*.json > "$out/sweep-$name.txt"
    grep -v "^geomean\|^input" "$out/sweep-$name.txt" | cut -c1-200; grep -E "^geomean|^host|^preprocess" "$out/sweep-$name.txt"
    report_checks "$out"/env*.json
    # KEEP=1 keeps the JSON files (as NAME-PRECISIONS-envNN.json) for a closer look (plain calls' times).
    if [ "${KEEP:-0}" = 1 ]; then
        for f in "$out"/env*.json; do mv "$f" "$out/$name-${LAB_PRECISIONS:-fp32}-$(basename "$f")"; done
    fi
    rm -f "$out"/env*.json
done
