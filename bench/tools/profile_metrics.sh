#!/usr/bin/env bash
# Nsight Compute counters of every kernel oxsparse-bench launches for SpMM FP32 (or SpMV in FP32
# and FP64 with OPS=SpMV) on the given inputs (ours and cuSPARSE's, in launch order), one CSV per
# input in $OUT, then a summary table (bench/tools/profile_summary.py). Run on the GPU machine with .device-lab carrying the bench and
# the matrices:
#   run(command="bash bench/tools/profile_metrics.sh crocodile facebook_pagepage", carry=[".device-lab"])
# An input is a matrix name in .device-lab/matrices or rmat:NODES:EDGES.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
lab=$PWD/.device-lab
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
metrics=gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread,launch__block_size
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics+=,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active
metrics+=,sm__cycles_active.avg,sm__cycles_active.max,gpc__cycles_elapsed.max
metrics+=,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
metrics+=,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
metrics+=,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
metrics+=,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
metrics+=,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
metrics+=,smsp__inst_executed.sum
EXTRA=${PROFILE_ARGS:-}
case ${OPS:=SpMM} in
    SpMV) op_args=(--ops SpMV --spmv-stencil none) ;;
    *) op_args=(--ops "$OPS" --spmm-precisions fp32) ;;
esac
for input in "$@"; do
    case $input in
        rmat:*) src=(--rmat "${input#rmat:}") ;;
        *) src=(--matrices "$lab/matrices/$input.mtx.gz") ;;
    esac
    name=${OPS}_${input//:/_}
    "$NCU" --clock-control none --metrics "$metrics" --csv --print-units base \
        "$lab/oxsparse-bench" "${op_args[@]}" --runs 1 --warmup 0 --passes 1 --rmat-set none $EXTRA "${src[@]}" \
        >"$out/$name.csv" 2>"$out/$name.err"
    echo "$name: exit $? ($(wc -l <"$out/$name.csv") lines)"
    python3 bench/tools/profile_summary.py "$out/$name.csv" | tee "$out/$name.txt"
done
