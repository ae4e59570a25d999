#!/usr/bin/env bash
# Session 46, the last device call: gpu_spmm's replay test with the warp-row and short-row kernels
# forced (the default, tile and split-row passes ran in replay_ab.sh), then an FP64 and FP16 record
# of the new build, from LAB_DIR (default .device-lab/s46f: bench-new, t/gpu_spmm, matrices/).
#   run(command="bash bench/lab/replay_final.sh", carry=[".device-lab/s46f"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
D=${LAB_DIR:-.device-lab/s46f}
for k in warp_rows short_rows; do
    OXSPARSE_SPMM_KERNEL=$k timeout ${TEST_LIMIT:-150} "$D/t/gpu_spmm" --test-threads=1 --show-output replay > "$out/test-replay-$k.log" 2>&1
    echo "gpu_spmm replay, OXSPARSE_SPMM_KERNEL=$k: rc $? $(grep -E 'cases passed|^test result' "$out/test-replay-$k.log" | tr '\n' ' ')"
done
grep -h -E "panicked|FAILED" -A4 "$out"/test-*.log | head -30
SECONDS=0
timeout ${RECORD_LIMIT:-320} "$D/bench-new" --matrices "$D/matrices" --rmat-set small --spmv-stencil none --ops SpMM --runs 10 --passes 2 --spmm-precisions fp64,fp16 \
    --json "$out/record.json" --csv "$out/record.csv" --svg "$out/record.svg" > "$out/record.txt" 2> "$out/record.err"
echo "record: rc $? ${SECONDS} s"
grep -v "^SpMM " "$out/record.txt" | tail -30
