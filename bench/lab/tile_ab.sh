#!/usr/bin/env bash
# Session 45: the tile kernel's latency on the small skewed graphs (NOTES, SpMM, sessions 44-45).
# One device call, three parts, each optional:
#   1. PLANS=1: which kernel preprocess chose for each matrix (first BENCH spec, FP32);
#   2. NCU_MATRICES='a b': Nsight durations of the FP32 tile-kernel launches per BENCH spec, median
#      per grid size (L2 kept warm between launches, as the bench finds it on these matrices);
#   3. the bench A/B of pool_ab.sh over every BENCH[:SETTINGS] spec (LAB_ROUNDS rounds).
# Specs as in pool_ab.sh: a binary of LAB_DIR (default .device-lab/s45) and environment settings.
#   run(command="PLANS=1 NCU_MATRICES='PGPgiantcompo pubmed' LAB_ROUNDS=2 bash bench/lab/tile_ab.sh \
#       bench-base bench-new 'bench-new:OXSPARSE_SPMM_TILE=128'", carry=[".device-lab/s45"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dir=${LAB_DIR:-.device-lab/s45}
first=${1%%:*}
source bench/lab/bench_specs.sh
if [ "${PLANS:-0}" = 1 ]; then
    for m in "$dir"/m/*.mtx.gz; do
        OXSPARSE_PRINT_PLAN=1 "$dir/$first" --ops SpMM --spmm-precisions fp32 --rmat-set none --runs 1 --warmup 0 --passes 1 \
            --matrices "$m" 2>&1 | python3 bench/lab/plan_choices.py "$m" | grep ' row '
    done
fi
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for m in ${NCU_MATRICES:-}; do
    for spec in "$@"; do
        b=${spec%%:*}
        setting=$(spec_setting "$spec")
        f="$out/ncu_${m}_$(echo "$spec" | tr -c 'A-Za-z0-9_' _).csv"
        env $setting "$NCU" --clock-control none --cache-control none --metrics gpu__time_duration.sum,launch__grid_size --csv \
            --print-units base -k 'regex:oxs_spmm_tiles_f32' "$dir/$b" --ops SpMM --spmm-precisions fp32 --runs 3 --warmup 0 \
            --passes 1 --rmat-set none --matrices "$dir/m/$m.mtx.gz" >"$f" 2>/dev/null
        python3 - "$f" "$m" "$spec" <<'PY'
import statistics, sys
sys.path.insert(0, "bench/lab")
from ncu_csv import launches, micros
by_grid = {}
for k in launches(sys.argv[1]):
    by_grid.setdefault(k.get("launch__grid_size", "?"), []).append(micros(k))
cells = " ".join(f"grid {g}: {statistics.median(v):.1f} us ({len(v)})" for g, v in sorted(by_grid.items(), key=lambda x: int(x[0]) if x[0].isdigit() else 0))
print(f"ncu {sys.argv[2][:22]:22} {sys.argv[3]:34} {cells}")
PY
    done
done
[ "${LAB_ROUNDS:-1}" = 0 ] && exit 0
LAB_DIR=$dir bash bench/lab/pool_ab.sh "$@"
