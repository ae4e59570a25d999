#!/usr/bin/env bash
# Builds and runs bench/lab/pdl_lab.cu on the GPU machine: run(command="bash bench/lab/pdl_lab.sh")
set -euo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -std=c++17 -o "$out/pdl_lab" pdl_lab.cu
"$out/pdl_lab" | tee "$out/pdl_lab.txt"
