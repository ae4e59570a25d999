#!/usr/bin/env bash
# Session 46: the replay A/B on a few matrices (bench/lab/pool_ab.sh, 2 rounds; AB=0 skips it),
# then a record of the new build (Matrix Market and the small R-MAT set; PRECISIONS, default fp32,
# the FP64 / FP16 record: PRECISIONS=fp64,fp16 AB=0), from LAB_DIR (default
# .device-lab/s46r: bench-base, bench-new, matrices/ = ../shared/matrices, m/cora.mtx.gz for the warm-up).
#   run(command="bash bench/lab/replay_record.sh", carry=[".device-lab/s46r"])
# (The FP64 / FP16 record and the warp- and short-row replay tests ran from one folder holding
# bench-new, t/gpu_spmm and matrices/: this script and replay_tests.sh with LAB_DIR set.)
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
D=${LAB_DIR:-.device-lab/s46r}
ms=""
for m in ${AB_MATRICES:-brazil-airports cora wiki_graphembedding graphchallenge_dnn_n1024_l1 PGPgiantcompo film_actor pubmed wiki-Vote ca-CondMat EX5 vsp_model1_crew1_cr42_south31 fb100_MIT8}; do ms="$ms $D/matrices/$m.mtx.gz"; done
SECONDS=0
if [ "${AB:-1}" = 1 ]; then
    LAB_DIR=$D LAB_MATRICES="$ms" LAB_ROUNDS=${LAB_ROUNDS:-2} timeout ${AB_LIMIT:-250} bash bench/lab/pool_ab.sh bench-base bench-new
    echo "A/B: ${SECONDS} s"
fi
[ "${RECORD:-1}" = 1 ] || exit 0
SECONDS=0
timeout ${RECORD_LIMIT:-320} "$D/bench-new" --matrices "$D/matrices" --rmat-set small --spmv-stencil none --ops SpMM --runs 10 --passes 2 --spmm-precisions "${PRECISIONS:-fp32}" \
    --json "$out/record.json" --csv "$out/record.csv" --svg "$out/record.svg" > "$out/record.txt" 2> "$out/record.err"
echo "record: rc $? ${SECONDS} s"
grep -v "^SpMM " "$out/record.txt" | tail -30
