#!/usr/bin/env bash
# Builds and runs bench/tools/launch_floor.cu on the GPU machine against the release library carried
# in .device-lab/lib (made here by: OXSPARSE_CUDA_ARCHS=90 cargo build --release --lib, stripped):
#   run(command="bash bench/tools/launch_floor.sh [rotation|driver|params]", carry=[".device-lab"])
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
"$NVCC" -O2 -std=c++17 -arch=sm_90 -Iinclude -o /tmp/launch_floor bench/tools/launch_floor.cu \
    -L.device-lab/lib -loxsparse -lcuda -Xlinker -rpath -Xlinker "$PWD/.device-lab/lib"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true
/tmp/launch_floor "$@"
