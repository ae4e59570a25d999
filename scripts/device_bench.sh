#!/usr/bin/env bash
# Runs oxsparse-bench on the GPU machine from what scripts/device_prepare.sh put in .device-bench/:
# every matrix of ../shared/matrices plus the R-MAT set (RMAT_SET=none|small|all, default all),
# plus SpMV's 27-point stencil (SPMV_STENCIL=NX|none, default 80: 13.5M nnz), against cuSPARSE in
# the same process. Results go to $OUT/bench.{txt,json,csv,svg}.
#   run(command="bash scripts/device_bench.sh", carry=[".device-bench"])
# Extra arguments are passed to oxsparse-bench (e.g. --ops spmm --runs 20; --passes 3 for a record).
# Time on the H100: the SpMM record (RMAT_SET=small SPMV_STENCIL=none, --ops SpMM --runs 10
# --passes 2) runs about 250 s and writes its tables only at the end; keep ~330 s of device time
# for it (235 s was not enough: nothing was written). On the H200 the FP32 record and the
# FP64 + FP16 one (--spmm-precisions fp64,fp16) took about 215 s together.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dev=$PWD/.device-bench
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
"$dev/oxsparse-bench" --matrices "$dev/matrices" --rmat-set "${RMAT_SET:-all}" --spmv-stencil "${SPMV_STENCIL:-80}" \
    --json "$out/bench.json" --csv "$out/bench.csv" --svg "$out/bench.svg" "$@" >"$out/bench.txt" 2>"$out/bench.err"
rc=$?
cat "$out/bench.txt"; tail -5 "$out/bench.err"
echo "device_bench: exit $rc"
exit $rc
