#!/usr/bin/env bash
# SpMV's tile kernel with every tile size in LAB_TILES forced (OXSPARSE_SPMV_TILE, with
# OXSPARSE_SPMV_KERNEL=tiles), and the default choice, on the small R-MAT set plus the matrices in
# .device-lab/matrices, FP32 and FP64, against cuSPARSE in the same process. Carries .device-lab
# (the bench binary and the matrices):
#   run(command="LAB_TILES='256 384 512' bash bench/tools/spmv_tiles.sh", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
bench=.device-lab/oxsparse-bench
args=(--ops SpMV --rmat-set small --matrices .device-lab/matrices/*.mtx.gz --spmv-stencil none --runs ${LAB_RUNS:-20} --passes ${LAB_PASSES:-2})
summ() { grep -E '^SpMV ' | awk '{printf "%-20s %s ox %s noprep %s cu %s %s\n", $8, $3, $13, $14, $18, $20}'; }
echo "=== default"; "$bench" "${args[@]}" 2>/dev/null | summ
for t in ${LAB_TILES:-256 384 512 1024}; do
    echo "=== tiles of $t"
    OXSPARSE_SPMV_KERNEL=tiles OXSPARSE_SPMV_TILE=$t "$bench" "${args[@]}" 2>/dev/null | summ
done
for k in ${LAB_KERNELS:-vector}; do
    echo "=== kernel $k"
    OXSPARSE_SPMV_KERNEL=$k "$bench" "${args[@]}" 2>/dev/null | summ
done
