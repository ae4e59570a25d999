#!/usr/bin/env bash
# Builds and runs bench/lab/cond_lab.cu on the GPU machine: run(command="bash bench/lab/cond_lab.sh")
set -euo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -std=c++17 -rdc=true -o "$out/cond_lab" cond_lab.cu -lcudadevrt
"$out/cond_lab" | tee "$out/cond_lab.txt"
