#!/usr/bin/env bash
# Session 43's lab: op(B) streamed through shared memory (stream_lab.py) on the graphs where we tie
# cuSPARSE at N >= 128, then the library's bench on the same files for its call times (FP32).
#   run(command="bash bench/lab/stream_lab.sh", carry=[".device-lab/s43"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dir=${LAB_DIR:-.device-lab/s43}
files=$(ls "$dir"/m/*.mtx.gz)
timeout ${LAB_PY_TIMEOUT:-300} python3 bench/lab/stream_lab.py ${LAB_NS:-128,256,32} $files 2>&1 | tee "$out/stream.txt"
[ -n "${LAB_NO_BENCH:-}" ] && exit 0
"$dir/bench" --ops SpMM --spmm-precisions fp32 --rmat-set none --matrices $files --runs 10 --passes 1 --csv "$out/bench.csv" >/dev/null 2>&1
python3 - "$out/bench.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if 'row-major' in r['variant']:
        print(f"{r['input'][:24]:24} {r['variant'].split(', ')[-1]:6} ours {float(r['oxsparse_median_ms'])*1e3:7.1f} cuSPARSE {float(r['cusparse_median_ms'])*1e3:7.1f} ({r['cusparse_alg']})")
PY
