#!/usr/bin/env bash
# Tile-size oracle: bench/tools/planner_oracle.sh with the tile size forced (OXSPARSE_SPMM_TILE = each
# of TILES) against the rule's choice (the default, run twice: the second run, `control`, is the
# noise), every run without cuSPARSE in the process. Plain calls (no preprocess) run the tile kernel
# on every matrix, so their times (the bench's "no preprocess" line) measure the sizes everywhere;
# preprocessed calls only where preprocess keeps the tiles. bench/tools/tile_oracle.py prints, per
# precision and N, each size's geometric-mean time against the rule's, and the cases where a size
# beats both default runs by more than 7% (bench/notes/spmm-kernels.md).
#   run(command="BENCH=.device-lab/x/bench MATRICES_DIR=.device-lab/x/mx bash bench/tools/tile_oracle.sh", carry=[...])
set -uo pipefail
settings=""
for t in ${TILES:-256 512 1024}; do settings+=" OXSPARSE_SPMM_TILE=$t"; done
ORACLE_SETTINGS="$settings" ORACLE_CUSPARSE=0 ORACLE_TABLE=bench/tools/tile_oracle.py \
    LAB_RUNS=${LAB_RUNS:-10} LAB_ARGS="${LAB_ARGS:---spmm-precisions fp32,fp16,fp64} ${LAB_RMAT_ARGS:-}" \
    exec bash "$(dirname "$0")/planner_oracle.sh"
