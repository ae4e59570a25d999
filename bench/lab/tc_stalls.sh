#!/usr/bin/env bash
# Why the tensor-core tile kernel waits: Nsight's warp-stall breakdown, occupancy, instructions and
# bytes of every `oxs_spmm_tc_tiles` launch of one forced tensor-core bench run (FP32 in TF32 mode
# unless PRECISIONS says otherwise; warm L2), for each binary named (in LAB_DIR, default
# .device-lab/s42) on the matrix MATRIX (default bcsstk17). One line per launch: binary, kernel,
# microseconds, then the metrics (stalls in cycles per issued instruction).
#   run(command="bash bench/lab/tc_stalls.sh bench-base bench-v2", carry=[".device-lab/s42"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dir=${LAB_DIR:-.device-lab/s42}
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
stall=smsp__average_warps_issue_stalled
metrics=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_bytes.sum,lts__t_bytes.sum,dram__bytes.sum
for s in long_scoreboard short_scoreboard mio_throttle lg_throttle wait barrier membar math_pipe_throttle not_selected selected no_instruction drain branch_resolving; do
    metrics="$metrics,${stall}_${s}_per_issue_active.ratio"
done
for b in "$@"; do
    f="$out/stalls_$b.csv"
    OXSPARSE_SPMM_KERNEL=tensor_cores OXSPARSE_BENCH_CUSPARSE=/nonexistent "$NCU" --clock-control none --cache-control none \
        --metrics "$metrics" --csv --print-units base -k "regex:oxs_spmm_tc_tiles" \
        "$dir/$b" --ops SpMM --spmm-precisions "${PRECISIONS:-fp32}" --runs 1 --warmup 0 --passes 1 --rmat-set none --math-mode tf32 \
        --matrices "$dir/m/${MATRIX:-bcsstk17}.mtx.gz" >"$f" 2>/dev/null
    python3 - "$f" "$b" <<'PY'
import sys
sys.path.insert(0, "bench/lab")
from ncu_csv import launches, micros
short = {"sm__warps_active.avg.pct_of_peak_sustained_active": "occ%", "smsp__inst_executed.sum": "inst", "l1tex__t_bytes.sum": "l1B",
         "lts__t_bytes.sum": "l2B", "dram__bytes.sum": "dramB"}
for k in launches(sys.argv[1]):
    parts = [f"{sys.argv[2]:10} {k['name'].replace('oxs_spmm_tc_tiles_', ''):10} {micros(k):6.1f}us"]
    for m, v in k.items():
        if m in ("name", "gpu__time_duration.sum"):
            continue
        name = short.get(m, m.replace("smsp__average_warps_issue_stalled_", "").replace("_per_issue_active.ratio", ""))
        try:
            x = float(v)
        except ValueError:
            continue
        if name.endswith("B"):
            parts.append(f"{name}={x / 1e6:.1f}M")
        elif name == "inst":
            parts.append(f"{name}={x / 1e6:.2f}M")
        elif x >= 0.05:
            parts.append(f"{name}={x:.2f}")
    print(" ".join(parts))
PY
    rm -f "$f"
done
