#!/usr/bin/env bash
# Nsight Compute profile of oxsparse-bench's SpMM kernels (ours and cuSPARSE's) on a few inputs.
# Run on the GPU machine with .device-bench carried; CSV of section metrics into $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dev=$PWD/.device-bench
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
prof() {  # name, bench args...
    local name=$1; shift
    "$NCU" --clock-control none --target-processes all \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
        --section WarpStateStats --section LaunchStats --csv --page details \
        "$dev/oxsparse-bench" --ops SpMM --runs 1 --warmup 0 "$@" >"$out/$name.csv" 2>"$out/$name.err"
    echo "$name: exit $? $(wc -l <"$out/$name.csv") lines"
}
prof cornell5 --matrices "$dev/matrices/fb100_Cornell5.mtx.gz" --rmat-set none
prof mdual --matrices "$dev/matrices/mdual.mtx.gz" --rmat-set none
prof arxiv --rmat 169343:1166243 --rmat-set none
