#!/usr/bin/env bash
# Builds and runs bench/lab/spmm_rows.cu on the GPU machine (nvcc and cuSPARSE there) over the
# matrices named in LAB_MATRICES (basenames in .device-bench/matrices, which the call carries):
#   run(command="LAB_MATRICES='cora bcsstk13' bash bench/lab/spmm_rows.sh", carry=[".device-bench"])
# LAB_N="32 128" narrows the widths; LAB_DIR names another folder of matrices.
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
"$NVCC" -O3 -std=c++17 -arch=sm_90 -o /tmp/spmm_rows bench/lab/spmm_rows.cu -lcusparse
mats=()
for name in ${LAB_MATRICES:-cora bcsstk13}; do
    gunzip -c "${LAB_DIR:-.device-bench/matrices}/$name.mtx.gz" >"/tmp/$name.mtx"
    mats+=("/tmp/$name.mtx")
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true
/tmp/spmm_rows "${mats[@]}"
