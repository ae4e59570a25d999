#!/usr/bin/env bash
# A/B of builds and settings: one bench process per argument
# `BENCH[:SETTINGS]` (a binary in LAB_DIR, default .device-lab/s43, and space-separated environment
# settings), in turn, LAB_ROUNDS times, FP32 (LAB_PRECISIONS) on every matrix in LAB_DIR/m (or the
# files LAB_MATRICES names); the results side by side in $OUT/table.txt
# (bench/tools/spmm_env_table.py), host times included. Any setting A/B, not only the pool's:
#   bash bench/tools/pool_ab.sh bench 'bench:OXSPARSE_SPMM_TILE=128' (128-entry tiles against the rule)
#   run(command="bash bench/tools/pool_ab.sh bench 'bench-pool:OXSPARSE_LAUNCH_POOL=1' bench-pool", carry=[".device-lab/s43"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dir=${LAB_DIR:-.device-lab/s43}
args=(--ops SpMM --spmm-precisions ${LAB_PRECISIONS:-fp32} --rmat-set none --matrices ${LAB_MATRICES:-"$dir"/m/*.mtx.gz} --runs ${LAB_RUNS:-10} --passes ${LAB_PASSES:-2})
# A first process on a fresh machine runs slow: one untimed.
"$dir/${1%%:*}" --ops SpMM --spmm-precisions fp32 --rmat-set none --matrices "$dir"/m/cora.mtx.gz --runs 3 >/dev/null 2>&1
rounds=${LAB_ROUNDS:-1}
source bench/tools/bench_specs.sh
run_specs "$@"
python3 bench/tools/spmm_env_table.py "$out"/env*.json > "$out/table.txt"
grep -E "geomean|host|preprocess ms" "$out/table.txt"
report_checks "$out"/env*.json
rm -f "$out"/env*.json
