#!/usr/bin/env bash
# Nsight Compute details of oxsparse's SpMM tile kernel on a few inputs (FP32 row-major first).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dev=$PWD/.device-bench
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for m in fb100_Cornell5 bcsstk13; do
    "$NCU" --clock-control none --kernel-name regex:oxs_spmm_tiles --launch-count 12 \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
        --section WarpStateStats --section LaunchStats --section SchedulerStats --csv --page details \
        "$dev/oxsparse-bench" --ops SpMM --runs 1 --warmup 0 --matrices "$dev/matrices/$m.mtx.gz" >"$out/$m.csv" 2>"$out/$m.err"
    echo "$m: exit $?"
done
