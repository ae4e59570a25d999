#!/usr/bin/env bash
# Tile-size oracle: the same cases with the tile size forced (OXSPARSE_SPMM_TILE = each of
# TILES) and by the rule (default, twice: the second run, `control`, is the noise), every run
# without cuSPARSE in the process. Plain calls (no preprocess) run the tile kernel on every matrix,
# so their times (the bench's "no preprocess" line) measure the sizes everywhere; preprocessed
# calls only where preprocess keeps the tiles. bench/lab/tile_oracle.py prints, per precision and
# N, each size's geometric-mean time against the rule's, and the cases where a size beats both
# default runs by more than 7%.
#   run(command="BENCH=.device-lab/x/bench MATRICES_DIR=.device-lab/x/mx bash bench/lab/tile_oracle.sh", carry=[...])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
work=$(mktemp -d)
args=(--ops SpMM --rmat-set none ${LAB_RMAT:-} --matrices "${MATRICES_DIR:?}" --runs ${LAB_RUNS:-10} --passes 1
      --spmm-precisions ${LAB_PRECISIONS:-fp32,fp16,fp64})
files=()
for s in default ${TILES:-256 512 1024} control; do
    f="$work/tile_$s.json"
    case $s in
        default | control) env OXSPARSE_BENCH_CUSPARSE=/nonexistent "${BENCH:?}" "${args[@]}" --json "$f" > /dev/null 2>&1 ;;
        *) env OXSPARSE_BENCH_CUSPARSE=/nonexistent OXSPARSE_SPMM_TILE=$s "$BENCH" "${args[@]}" --json "$f" > /dev/null 2>&1 ;;
    esac
    echo "$s: rc $?"
    files+=("$s=$f")
done
python3 bench/lab/tile_oracle.py "${files[@]}" | tee "$out/tile_oracle.txt"
tar czf "$out/tile_oracle_json.tgz" -C "$work" .
