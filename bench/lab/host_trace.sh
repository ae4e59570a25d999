#!/usr/bin/env bash
# Where a small call's host time goes: bench/lab/launch_floor.cu linked against the carried
# library (.device-lab/libA), run plainly (host and event times of the raw launches, ours and
# cuSPARSE's), then its "oxsparse" part under Nsight Systems: the CUDA API summary
# ($OUT/api_cuda_api_sum.csv) and the whole API trace ($OUT/trace.csv.gz) of our calls.
#   run(command="bash bench/lab/host_trace.sh", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
NSYS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
lib=$PWD/.device-lab/libA
"$NVCC" -O2 -std=c++17 -arch=sm_90 -Iinclude -o /tmp/launch_floor bench/lab/launch_floor.cu \
    -L"$lib" -loxsparse -lcuda -Xlinker -rpath -Xlinker "$lib" || exit 1
/tmp/launch_floor | tee "$out/floor.txt"
[ -n "$NSYS" ] || { echo "no nsys here"; exit 0; }
"$NSYS" profile -t cuda -o /tmp/host_trace --force-overwrite true /tmp/launch_floor oxsparse >/dev/null 2>&1
"$NSYS" stats -q -r cuda_api_sum -f csv -o "$out/api" /tmp/host_trace.nsys-rep >/dev/null 2>&1
"$NSYS" stats -q -r cuda_api_trace -f csv -o /tmp/host_trace /tmp/host_trace.nsys-rep >/dev/null 2>&1
gzip -c /tmp/host_trace_cuda_api_trace.csv >"$out/trace.csv.gz"
column -s, -t <"$out/api_cuda_api_sum.csv" | cut -c1-160 | head -30
