#!/usr/bin/env bash
# Session 46: gpu_spmm's tests named by FILTERS (default: replay determinism), once for each of
# KERNELS (default: default; any other is forced through OXSPARSE_SPMM_KERNEL, e.g. "tiles
# split_rows warp_rows short_rows"), from LAB_DIR (default .device-lab/s46t, holding gpu_spmm).
#   run(command="KERNELS='warp_rows short_rows' FILTERS=replay bash bench/lab/replay_tests.sh", carry=[".device-lab/s46t"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
D=${LAB_DIR:-.device-lab/s46t}
for k in ${KERNELS:-default}; do
    for f in ${FILTERS:-replay determinism}; do
        log="$out/test-$f-$k.log"
        if [ "$k" = default ]; then setting=OXSPARSE_LAB=1; else setting=OXSPARSE_SPMM_KERNEL=$k; fi
        env $setting timeout ${TEST_LIMIT:-150} "$D/gpu_spmm" --test-threads=1 --show-output "$f" > "$log" 2>&1
        echo "gpu_spmm $f ($setting): rc $? $(grep -E 'cases passed|^test result' "$log" | tr '\n' ' ')"
    done
done
grep -h -E "panicked|FAILED" -A4 "$out"/test-*.log | head -30
