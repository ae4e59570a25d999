#!/usr/bin/env bash
# Builds and runs bench/lab/transpose_lab.cu on the GPU machine (nvcc there):
#   run(command="bash bench/lab/transpose_lab.sh")
set -euo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -std=c++17 -o "$out/transpose_lab" transpose_lab.cu
"$out/transpose_lab" | tee "$out/transpose_lab.txt"
