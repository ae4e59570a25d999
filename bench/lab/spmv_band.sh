#!/usr/bin/env bash
# Session 12's check of SpMV's band offsets on the GPU machine, in one call:
#   1. the band tests of gpu_spmv (against the float64 reference; the probe that the kernel reads
#      the offsets), with the GPU required;
#   2. oxsparse-bench, SpMV only, on the matrices carried and the 27-point stencil, twice in the
#      same call: with the offsets turned off (OXSPARSE_SPMV_BAND=off) and as preprocess decides.
# Prepare here (it needs what scripts/device_prepare.sh built):
#   rm -rf .device-lab && mkdir -p .device-lab/matrices
#   cp .device-bench/oxsparse-bench .device/bin/gpu_spmv .device-lab/
#   cp ../shared/matrices/{wave_squared_2hop,wave,mdual,fb100_Cornell5,cage11}.mtx.gz .device-lab/matrices/
# then run(command="bash bench/lab/spmv_band.sh", carry=[".device-lab"]). Extra arguments go to
# oxsparse-bench (default: --passes 3 --runs 20). Results: $OUT/band-{off,on}.{txt,json}.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
lab=$PWD/.device-lab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true

echo "=== gpu_spmv band tests"
OXSPARSE_REQUIRE_GPU=1 "$lab/gpu_spmv" band --test-threads=1 >"$out/band-tests.log" 2>&1
grep -E "^test |test result" "$out/band-tests.log"

args=("$@"); [ ${#args[@]} -gt 0 ] || args=(--passes 3 --runs 20)
for mode in off on; do
    env_band=(); [ "$mode" = off ] && env_band=(OXSPARSE_SPMV_BAND=off)
    env "${env_band[@]}" "$lab/oxsparse-bench" --ops SpMV --matrices "$lab/matrices" --rmat-set none --spmv-stencil 80 \
        --json "$out/band-$mode.json" "${args[@]}" >"$out/band-$mode.txt" 2>"$out/band-$mode.err"
    echo "=== band $mode: exit $?"
    # input, precision, nnz, oxsparse ms, preprocess ms, cuSPARSE ms, speedup, %copy (ours, theirs), check
    awk '$1 == "SpMV" { printf "%-20s %-6s %9s %8s %8s %8s %7s %6s %6s %s\n", $8, $3, $12, $13, $16, $18, $20, $24, $25, $26 }' "$out/band-$mode.txt"
    grep -E "geometric-mean" "$out/band-$mode.txt"
done
