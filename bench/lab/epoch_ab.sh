#!/usr/bin/env bash
# Session 46 (not kept: 106c6c0, reverted in 324e9e1): the tile kernel's flags with the call's
# token as epoch, cleared by the tile that waits for them (preprocessed calls then repeat their
# parameters). From LAB_DIR (default
# .device-lab/s46e: bench-base, bench-new, t/gpu_spmm, m/*.mtx.gz, matrices that run the tiles
# after preprocess): gpu_spmm's replay test with the tiles forced and its determinism tests, then
# the A/B (bench/lab/pool_ab.sh, 2 rounds).
#   run(command="bash bench/lab/epoch_ab.sh", carry=[".device-lab/s46e"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
D=${LAB_DIR:-.device-lab/s46e}
OXSPARSE_SPMM_KERNEL=tiles timeout 170 "$D/t/gpu_spmm" --test-threads=1 --show-output replay > "$out/test-replay-tiles.log" 2>&1
echo "gpu_spmm replay, tiles forced: rc $? $(grep -E 'cases passed|^test result' "$out/test-replay-tiles.log" | tr '\n' ' ')"
timeout 130 "$D/t/gpu_spmm" --test-threads=1 --show-output determinism > "$out/test-determinism.log" 2>&1
echo "gpu_spmm determinism: rc $? $(grep -E '^test result' "$out/test-determinism.log")"
grep -h -E "panicked|FAILED" -A4 "$out"/test-*.log | head -30
LAB_DIR=$D LAB_ROUNDS=2 timeout 120 bash bench/lab/pool_ab.sh bench-base bench-new
