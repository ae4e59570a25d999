#!/usr/bin/env bash
# Nsight Compute durations of one kernel family across builds: for each matrix in
# .device-lab/matrices named on the command line (or rmat:NODES:EDGES), every launch whose name matches KERNELS (a regex,
# default the short-row kernels) in FP32 SpMM (PRECISIONS), for each build in BUILDS (paths on the
# GPU machine), one line per launch: build, kernel, grid, microseconds. Kernel times on small
# matrices move by 1-2 us where the bench's per-process event times move by more (session 21).
# CACHE=none keeps L2 warm between launches (Nsight flushes it by default), as the bench finds it
# on matrices whose operands fit L2.
#   run(command="BUILDS='.device-lab/base-bench .device-lab/new-bench' bash bench/tools/kernel_times.sh EX5", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for m in "$@"; do
    case $m in
        rmat:*) src=(--rmat "${m#rmat:}") ;;
        *) src=(--matrices ".device-lab/matrices/$m.mtx.gz") ;;
    esac
    for b in ${BUILDS:?}; do
        f="$out/kt_${m//:/_}_$(basename "$b").csv"
        "$NCU" --clock-control none --cache-control "${CACHE:-all}" --metrics gpu__time_duration.sum,launch__grid_size --csv --print-units base \
            -k "regex:${KERNELS:-oxs_spmm_(split|short)_rows}" \
            "$b" --ops SpMM --spmm-precisions "${PRECISIONS:-fp32}" --runs 1 --warmup 0 --passes 1 --rmat-set none \
            "${src[@]}" >"$f" 2>/dev/null
        python3 - "$f" "$m" "$(basename "$b")" <<'PY'
import sys
sys.path.insert(0, "bench/tools")
from ncu_csv import launches, micros
line = " ".join(f"{k['name'].replace('oxs_spmm_', '').replace('_f32_f32_f32_i32', '')}/{k.get('launch__grid_size', '?')}:{micros(k):.1f}" for k in launches(sys.argv[1]))
print(f"{sys.argv[2][:20]:20} {sys.argv[3]:12} {line}")
PY
    done
done
