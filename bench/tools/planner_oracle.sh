#!/usr/bin/env bash
# Planner oracle: the same cases under each forced kernel and row shape (OXSPARSE_SPMM_KERNEL,
# OXSPARSE_SPMM_ROW_SHAPE) and the default, every run without cuSPARSE in the process (session 30:
# a process that also ran cuSPARSE timed our calls 3-5% slower), the default twice (its second run
# is the noise control), then cuSPARSE once for the speedups. Prints, per case, the default time
# and the best setting where it beats both default runs by more than 7%, and per setting its
# geometric-mean time against the default's. Settings that do not fit a call (a 16-bit shape in
# FP32) run the default: they measure the noise too.
#   run(command="BENCH=.device-lab/x/bench MATRICES_DIR=.device-lab/all bash bench/tools/planner_oracle.sh", carry=[...])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
work=$(mktemp -d)
args=(--ops SpMM --rmat-set ${LAB_RMAT:-none} --matrices "${MATRICES_DIR:?}" --runs ${LAB_RUNS:-20} --passes 1 ${LAB_ARGS:---spmm-precisions FP32})
# ORACLE_SETTINGS (space-separated NAME=VALUE) replaces the forced settings below; ORACLE_CUSPARSE=0
# skips the cuSPARSE run; ORACLE_TABLE names the table script (bench/tools/tile_oracle.sh uses all three).
forced=(${ORACLE_SETTINGS:-"OXSPARSE_SPMM_KERNEL=short_rows" "OXSPARSE_SPMM_KERNEL=split_rows" "OXSPARSE_SPMM_KERNEL=warp_rows"
        "OXSPARSE_SPMM_KERNEL=tiles" "OXSPARSE_SPMM_ROW_SHAPE=narrow" "OXSPARSE_SPMM_ROW_SHAPE=wide" "OXSPARSE_SPMM_ROW_SHAPE=x2"
        "OXSPARSE_SPMM_ROW_SHAPE=wide_x2"})
settings=(default "${forced[@]}" control)
files=()
for s in "${settings[@]}"; do
    f="$work/oracle_${s//[^A-Za-z0-9_]/_}.json"
    case $s in
        default | control) env OXSPARSE_BENCH_CUSPARSE=/nonexistent "${BENCH:?}" "${args[@]}" --json "$f" > /dev/null 2>&1 ;;
        *) env OXSPARSE_BENCH_CUSPARSE=/nonexistent "$s" "$BENCH" "${args[@]}" --json "$f" > /dev/null 2>&1 ;;
    esac
    echo "$s: rc $?"
    files+=("$s=$f")
done
if [ "${ORACLE_CUSPARSE:-1}" != 0 ]; then
    f="$work/oracle_cusparse.json"
    "$BENCH" "${args[@]}" --json "$f" > /dev/null 2>&1
    echo "cusparse: rc $?"
    files=("cusparse=$f" "${files[@]}")
fi
python3 "${ORACLE_TABLE:-bench/tools/planner_oracle.py}" "${files[@]}" | tee "$out/oracle.txt"
tar czf "$out/oracle_json.tgz" -C "$work" .
