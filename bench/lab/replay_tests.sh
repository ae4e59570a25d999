#!/usr/bin/env bash
# Session 46: gpu_spmm's replay and determinism tests on the final code (LAB_DIR, default
# .device-lab/s46t, holds the gpu_spmm test binary).
#   run(command="bash bench/lab/replay_tests.sh", carry=[".device-lab/s46t"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
D=${LAB_DIR:-.device-lab/s46t}
for f in replay determinism; do
    timeout ${TEST_LIMIT:-150} "$D/gpu_spmm" --test-threads=1 --show-output "$f" > "$out/test-$f.log" 2>&1
    echo "gpu_spmm $f: rc $? $(grep -E 'cases passed|^test result' "$out/test-$f.log" | tr '\n' ' ')"
done
grep -h -E "panicked|FAILED" -A4 "$out"/test-*.log | head -30
