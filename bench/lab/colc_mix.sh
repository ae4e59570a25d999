#!/usr/bin/env bash
# Instruction mix and stall reasons of the FP32 N = 128 short-row kernels, row-major against
# column-major C (`short_rows_wide_x2` and `short_rows_colc_wide_x2`), one bench run per matrix,
# L2 as the kernel before left it. Where the column-major kernel's extra instructions and time go.
#   run(command="BENCH=.device-lab/x/bench MATRICES='PROTEINS_full cs4' bash bench/lab/colc_mix.sh", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
m+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_branch.sum
m+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
m+=,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
m+=,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
m+=,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
for mat in ${MATRICES:?}; do
    echo "== $mat"
    "$NCU" --clock-control none --cache-control none -k regex:'short_rows_(colc_)?wide_x2' --metrics "$m" --csv --print-units base \
        "${BENCH:?}" --ops SpMM --spmm-precisions fp32 --runs 1 --warmup 1 --passes 1 --rmat-set none \
        --matrices ".device-lab/matrices/$mat.mtx.gz" 2>/tmp/colc_mix_err.txt | python3 bench/lab/colc_ncu_table.py --mix
    grep -iE "error|invalid|unknown" /tmp/colc_mix_err.txt | head -3
done
