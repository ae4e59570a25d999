#!/usr/bin/env bash
# Builds and runs bench/lab/graph_pool.cu (driver API only) on the GPU machine:
#   run(command="bash bench/lab/graph_pool.sh")
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
"$NVCC" -O2 -std=c++17 -arch=sm_90 -o /tmp/graph_pool bench/lab/graph_pool.cu -lcuda
/tmp/graph_pool
