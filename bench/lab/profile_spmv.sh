#!/usr/bin/env bash
# Nsight Compute details of oxsparse's SpMV tile kernel and of cuSPARSE's CSR SpMV kernels on the
# 27-point stencil (13.5M nnz) and one Matrix Market graph, FP32 first. One CSV per input in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dev=$PWD/.device-bench
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
profile() {
    local name=$1; shift
    "$NCU" --clock-control none --kernel-name "regex:${KERNELS:-oxs_spmv_tiles|csrmv|spmv}" --launch-count "${LAUNCHES:-6}" \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
        --section WarpStateStats --section LaunchStats --section SchedulerStats --csv --page details \
        "$dev/oxsparse-bench" --ops SpMV --runs 1 --warmup 0 "$@" >"$out/$name.csv" 2>"$out/$name.err"
    echo "$name: exit $?"
}
profile stencil --stencil 80
profile wave_squared_2hop --matrices "$dev/matrices/wave_squared_2hop.mtx.gz"
