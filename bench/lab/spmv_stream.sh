#!/usr/bin/env bash
# Builds and runs bench/lab/spmv_stream.cu on the GPU machine (nvcc there). Put in .device-lab/ the
# generated oxsparse_kernel_params.h (target/*/build/oxsparse-*/out/) and any .mtx.gz files to add
# to the stencil, then carry the folder (LAB_STREAM=1 adds the cp.async ring variants):
#   run(command="bash bench/lab/spmv_stream.sh", carry=[".device-lab"])
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
"$NVCC" -O3 -std=c++17 -arch=sm_90 -DWITH_LIBRARY -I kernels -I .device-lab -o /tmp/spmv_stream bench/lab/spmv_stream.cu
# LAB_BAND_BLOCKS="6 7": the library's band kernels also built for that many blocks per multiprocessor.
for b in ${LAB_BAND_BLOCKS:-}; do
    "$NVCC" -O3 -std=c++17 -arch=sm_90 -DWITH_LIBRARY "-DOXS_SPMV_BAND_MIN_BLOCKS(V)=$b" -I kernels -I .device-lab -o /tmp/spmv_stream_b$b bench/lab/spmv_stream.cu
done
mats=()
for f in .device-lab/*.mtx.gz .device-lab/m/*.mtx.gz; do [ -e "$f" ] || continue; gunzip -c "$f" >"/tmp/$(basename "$f" .gz)"; mats+=("/tmp/$(basename "$f" .gz)"); done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true
/tmp/spmv_stream "${mats[@]}"
for b in ${LAB_BAND_BLOCKS:-}; do echo "=== band kernels for $b blocks per multiprocessor"; LAB_BAND_ONLY=1 /tmp/spmv_stream_b$b "${mats[@]}" | grep -E "FP|library band"; done
# LAB_DEFS="A B": the library built once more per -D flag (kernel variants under #ifdef), band times only.
for d in ${LAB_DEFS:-}; do
    "$NVCC" -O3 -std=c++17 -arch=sm_90 -DWITH_LIBRARY "-D$d" -I kernels -I .device-lab -o /tmp/spmv_stream_$d bench/lab/spmv_stream.cu &&
        { echo "=== -D$d"; LAB_BAND_ONLY=1 /tmp/spmv_stream_$d "${mats[@]}" | grep -E "FP|library band"; }
done
