#!/usr/bin/env bash
# Nsight durations, instructions and DRAM bytes of every SpMM kernel of one FP32 bench run per
# matrix, L2 left as the previous kernel left it (--cache-control none: the column-major kernel
# finds the staged op(B) where the staging copy put it). Compares a matrix's column-major chain
# (stage_b, the colc kernel, stage_c) with the row-major kernel of the same N.
#   run(command="BENCH=.device-lab/x/bench MATRICES='delaunay_n16 wing' bash bench/lab/colc_ncu.sh", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,launch__grid_size,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread
for mat in ${MATRICES:?}; do
    echo "== $mat"
    "$NCU" --clock-control none --cache-control none -k regex:"${KERNELS:-short_rows|split_rows|stage|warp_rows|tiles}" --metrics "$m" --csv --print-units base \
        "${BENCH:?}" --ops SpMM --spmm-precisions fp32 --runs 1 --warmup 1 --passes 1 --rmat-set none \
        --matrices ".device-lab/matrices/$mat.mtx.gz" 2>/dev/null | python3 bench/lab/colc_ncu_table.py
done
