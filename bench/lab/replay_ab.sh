#!/usr/bin/env bash
# Session 46: repeated preprocessed calls sent again as recorded (src/ops/spmm/replay.rs). One
# device call, from the folder LAB_DIR (default .device-lab/s46) made here:
#   bench-base, bench-new   oxsparse-bench of the two builds (stripped)
#   lib/liboxsparse.so      the new build's library (launch_floor.cu links it)
#   t/gpu_spmm, t/gpu_launch_graphs, t/gpu_spmm_capture   the new build's test binaries
#   m/*.mtx.gz              the matrices of the A/B
#   run(command="bash bench/lab/replay_ab.sh", carry=[".device-lab/s46"])
# 1. the tests (default, and gpu_spmm's replay test with the tile, split-row and warp-row kernels
#    forced); 2. launch_floor's rotation part (host and event time of repeated calls); 3. the
#    bench A/B (bench/lab/pool_ab.sh, LAB_ROUNDS rounds).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
D=${LAB_DIR:-.device-lab/s46}
if [ "${SKIP_TESTS:-0}" != 1 ]; then
    for t in gpu_spmm gpu_launch_graphs gpu_spmm_capture; do
        "$D/t/$t" --test-threads=1 > "$out/test-$t.log" 2>&1
        echo "$t: rc $? $(grep -E '^test result' "$out/test-$t.log" | tail -1)"
    done
    grep -h -E "panicked|FAILED" -A4 "$out"/test-*.log | head -40
    LAB_DIR=$D/t KERNELS="tiles split_rows warp_rows short_rows" FILTERS=replay TEST_LIMIT=600 bash bench/lab/replay_tests.sh
fi
if [ "${SKIP_LAB:-0}" != 1 ]; then
    L=$PWD/$D/lib; ln -sf liboxsparse.so "$L/liboxsparse.so.0"
    NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
    "$NVCC" -O2 -std=c++17 -arch=sm_90 -Iinclude -o /tmp/launch_floor bench/lab/launch_floor.cu -L"$L" -loxsparse -lcuda -Xlinker -rpath -Xlinker "$L" \
        && /tmp/launch_floor rotation > "$out/rotation.txt" 2>&1
    grep -E "^SpMM" "$out/rotation.txt"
fi
LAB_DIR=$D LAB_ROUNDS=${LAB_ROUNDS:-2} bash bench/lab/pool_ab.sh bench-base bench-new
