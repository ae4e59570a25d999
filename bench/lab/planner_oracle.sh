#!/usr/bin/env bash
# Planner oracle: the same cases under each forced kernel and row shape (OXSPARSE_SPMM_KERNEL,
# OXSPARSE_SPMM_ROW_SHAPE), the default twice (the second is the noise control), cuSPARSE timed in
# the first run only (the others point OXSPARSE_BENCH_CUSPARSE at nothing). Prints, per case, the
# default time and the best setting where it beats the default by more than the control's spread.
#   run(command="BENCH=.device-lab/x/bench MATRICES_DIR=.device-lab/all bash bench/lab/planner_oracle.sh", carry=[...])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
args=(--ops SpMM --rmat-set ${LAB_RMAT:-none} --matrices "${MATRICES_DIR:?}" --runs ${LAB_RUNS:-20} --passes 1 ${LAB_ARGS:---spmm-precisions FP32})
settings=(default "OXSPARSE_SPMM_KERNEL=short_rows" "OXSPARSE_SPMM_KERNEL=split_rows" "OXSPARSE_SPMM_KERNEL=warp_rows"
          "OXSPARSE_SPMM_KERNEL=tiles" "OXSPARSE_SPMM_ROW_SHAPE=narrow" "OXSPARSE_SPMM_ROW_SHAPE=wide" "OXSPARSE_SPMM_ROW_SHAPE=x2"
          "OXSPARSE_SPMM_ROW_SHAPE=wide_x2" "OXSPARSE_SPMM_ROW_SHAPE=packed" "OXSPARSE_SPMM_ROW_SHAPE=packed_wide" control)
files=()
for s in "${settings[@]}"; do
    f="$out/oracle_${s//[^A-Za-z0-9_]/_}.json"
    case $s in
        default) env "${BENCH:?}" "${args[@]}" --json "$f" > /dev/null 2>&1 ;;
        control) env OXSPARSE_BENCH_CUSPARSE=/nonexistent "$BENCH" "${args[@]}" --json "$f" > /dev/null 2>&1 ;;
        *) env OXSPARSE_BENCH_CUSPARSE=/nonexistent "$s" "$BENCH" "${args[@]}" --json "$f" > /dev/null 2>&1 ;;
    esac
    echo "$s: rc $?"
    files+=("$s=$f")
done
python3 bench/lab/planner_oracle.py "${files[@]}" | tee "$out/oracle.txt"
