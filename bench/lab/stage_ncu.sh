#!/usr/bin/env bash
# Nsight durations and cache counters of the column-major SpMM kernels (the staging copy and the
# short / split-row kernels writing a column-major C) for each BENCH command on MATRICES.
#   run(command="BENCH='.device-lab/a/bench' MATRICES='cryg2500' bash bench/lab/stage_ncu.sh", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,launch__grid_size,launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers
m+=,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum
for b in ${BENCH:?}; do
  for mat in ${MATRICES:?}; do
    echo "== $b $mat"
    read -ra cmd <<<"$b"
    "$NCU" --clock-control none --cache-control all -k regex:'colc|stage_b' --metrics "$m" --csv --print-units base \
      "${cmd[@]}" --ops SpMM --spmm-precisions fp32 --runs 1 --warmup 0 --passes 1 --rmat-set none \
      --matrices ".device-lab/matrices/$mat.mtx.gz" 2>/dev/null | python3 bench/lab/stage_ncu_table.py
  done
done
