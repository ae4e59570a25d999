#!/usr/bin/env bash
# A/B of library builds on the host path: bench/tools/launch_floor.cu's library calls ("oxsparse"
# part: SpMV and SpMM plain and preprocessed, SpMM column-major) linked against each build in
# .device-lab/lib<X>/ (X from LAB_LIBS, default "A B"), with OXSPARSE_LAUNCH=direct and with the
# default launch path (LAB_MODES, default "direct graphs"), taking turns for LAB_ROUNDS rounds
# (default 3).
#   run(command="bash bench/tools/launch_ab.sh", carry=[".device-lab"])
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
for v in ${LAB_LIBS:-A B}; do
    "$NVCC" -O2 -std=c++17 -arch=sm_90 -Iinclude -o /tmp/launch_floor_$v bench/tools/launch_floor.cu \
        -L.device-lab/lib$v -l:liboxsparse.so.0 -lcuda -Xlinker -rpath -Xlinker "$PWD/.device-lab/lib$v"
done
for r in $(seq 1 "${LAB_ROUNDS:-3}"); do
    for v in ${LAB_LIBS:-A B}; do
        for mode in ${LAB_MODES:-direct graphs}; do
            echo "== round $r, lib $v, launch $mode"
            OXSPARSE_LAUNCH=$mode /tmp/launch_floor_$v oxsparse | grep '^oxsparse'
        done
    done
done
