#!/usr/bin/env bash
# A record of the large R-MAT graphs (ogbn-proteins, Reddit and ogbn-products sized;
# the small three are in every record), one bench process per graph and precision so that a call
# whose time runs out keeps what finished; then bench/tools/rmat_merge.py puts them in one file.
# BENCH (default .device-lab/s47/bench-base), PRECISIONS (default fp32; e.g. "fp32 fp64"),
# GRAPHS (NAME=NODES:EDGES, default the three of src/bin/oxsparse_bench/sources.rs), LIMIT (s a process).
#   run(command="bash bench/tools/rmat_all_record.sh", carry=[".device-lab/s47"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
bench=${BENCH:-.device-lab/s47/bench-base}
graphs=${GRAPHS:-"proteins_like=132534:95800000 reddit_like=232965:114615892 products_like=2449029:123718280"}
for p in ${PRECISIONS:-fp32}; do
    for g in $graphs; do
        SECONDS=0
        timeout "${LIMIT:-200}" "$bench" --rmat "${g#*=}" --ops SpMM --spmm-precisions "$p" --runs 10 --passes 2 \
            --json "$out/rmat-${g%%=*}-$p.json" > "$out/rmat-${g%%=*}-$p.txt" 2> "$out/rmat-${g%%=*}-$p.err"
        echo "${g%%=*} $p: rc $? ${SECONDS} s"
        grep "^SpMM  " "$out/rmat-${g%%=*}-$p.txt" | cut -c1-200
    done
done
python3 bench/tools/rmat_merge.py "$out"/rmat-*.json > "$out/rmat-merged.txt" && cat "$out/rmat-merged.txt"
