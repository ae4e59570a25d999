#!/usr/bin/env bash
# Where a small SpMM call's time goes, ours against cuSPARSE's: Nsight durations of every kernel
# (ours and cuSPARSE's) of one bench run per matrix (FP32, row-major and column-major, all N), with
# L2 flushed before each kernel (CACHE=all, as the bench's rotation finds it) or warm (CACHE=none).
# One line per launch in the order made: kernel, grid, block, microseconds. The bench's own table
# (event times) follows, from a run without Nsight.
#   run(command="MATRICES='cryg2500 EX5' bash bench/tools/small_calls.sh", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
bin=${BENCH:-.device-lab/new-bench}
for m in ${MATRICES:?}; do
    f="$out/small_${m}.csv"
    "$NCU" --clock-control none --cache-control "${CACHE:-all}" --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size --csv --print-units base \
        "$bin" --ops SpMM --spmm-precisions "${PRECISIONS:-fp32}" --runs 1 --warmup 0 --passes 1 --rmat-set none \
        --matrices "${MATRIX_DIR:-.device-lab/matrices}/$m.mtx.gz" >"$f" 2>/dev/null
    python3 - "$f" "$m" >"$out/small_${m}.txt" <<'PY'
import sys
sys.path.insert(0, "bench/tools")
from ncu_csv import launches, micros
print(f"== {sys.argv[2]}")
for k in launches(sys.argv[1]):
    print(f"  {k['name'][:70]:70} {k.get('launch__grid_size','?'):>7} {k.get('launch__block_size','?'):>5} {micros(k):8.2f}")
PY
    rm -f "$f"
    echo "== $m: $(grep -c . "$out/small_${m}.txt") launches in $out/small_${m}.txt"
    "$bin" --ops SpMM --spmm-precisions "${PRECISIONS:-fp32}" --runs 20 --passes 2 --rmat-set none --matrices "${MATRIX_DIR:-.device-lab/matrices}/$m.mtx.gz" 2>/dev/null | grep -E "^SpMM" | cut -c1-200
done
