#!/usr/bin/env bash
# Which kernels a preprocessed FP32 column-major SpMM call launches, per matrix (the launch log of
# one bench run, OXSPARSE_LOG_LEVEL=3, its distinct SpMM kernel names after the preprocess lines).
#   run(command="BENCH=.device-lab/x/bench bash bench/lab/colmajor_launches.sh .device-lab/matrices/a.mtx.gz", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
for f in "$@"; do
    echo "== $(basename "$f" .mtx.gz)"
    OXSPARSE_LOG_LEVEL=3 OXSPARSE_PRINT_PLAN=1 "${BENCH:?}" --ops SpMM --spmm-precisions fp32 --runs 1 --warmup 0 --passes 1 --rmat-set none --matrices "$f" 2>&1 \
        | grep -E "preprocess: |launch oxs_spmm" | sed -E 's/ grid.*//' | uniq -c | grep -vE "longest_row|view" | tail -12
done
