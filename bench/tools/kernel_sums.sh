#!/usr/bin/env bash
# Per-call kernel time of SpMM after preprocess (FP32, or PRECISIONS: FP64 runs N = 128 only),
# row-major N = 32 / 64 / 128 / 256, for
# settings side by side: each argument after the matrices' list is a setting "label=ENV=VALUE,..."
# or "label=@path/to/bench" (default build .device-lab/new-bench). Nsight durations (warm L2,
# CACHE=none) of every SpMM kernel of a call, summed (a call may launch two), averaged over its two
# preprocessed runs; one line per matrix and setting. Matrices from .device-lab/matrices or
# rmat:NODES:EDGES, as in kernel_times.sh.
#   run(command="MATRICES='ca-CondMat rmat:169343:1166243' bash bench/tools/kernel_sums.sh base=@.device-lab/base-bench w512=OXSPARSE_SPMM_WARP_ROWS_WHOLE=512", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
tmp=$(mktemp -d)
printf '%-22s %-10s %9s %9s %9s %9s\n' matrix setting N=32 N=64 N=128 N=256
for m in ${MATRICES:?}; do
    case $m in
        rmat:*) src=(--rmat "${m#rmat:}") ;;
        *) src=(--matrices ".device-lab/matrices/$m.mtx.gz") ;;
    esac
    for setting in "$@"; do
        label=${setting%%=*}; spec=${setting#*=}
        bin=.device-lab/new-bench; envs=()
        case $spec in
            @*) bin=${spec#@} ;;
            *) IFS=, read -ra envs <<<"$spec" ;;
        esac
        f="$tmp/run.csv"
        env "${envs[@]}" "$NCU" --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --print-units base \
            -k "regex:oxs_spmm_" "$bin" --ops SpMM --spmm-precisions "${PRECISIONS:-fp32}" --runs 1 --warmup 0 --passes 1 --rmat-set none \
            "${src[@]}" >"$f" 2>/dev/null
        python3 - "$f" "$m" "$label" <<'PY'
import sys
sys.path.insert(0, "bench/tools")
from ncu_csv import launches, micros
# Segments of a call's kernels start after each preprocess's longest-row measure; the first four
# non-empty ones are row-major N = 32 / 64 / 128 / 256: two preprocessed calls, then two plain
# calls on the tile kernel.
segs, cur = [], None
for k in launches(sys.argv[1]):
    n = k["name"]
    if "longest_row" in n:
        cur = []
        segs.append(cur)
    elif cur is not None and not any(x in n for x in ("tile_rows", "stage_")):
        cur.append((n.replace("oxs_spmm_", ""), micros(k)))
segs = [s for s in segs if s][:4]
out = []
for s in segs:
    plain = 2 if len(s) >= 4 else 0
    prep = s[: len(s) - plain]
    names = sorted({n.split("_f32")[0] for n, _ in prep})
    out.append(f"{sum(t for _, t in prep) / 2:7.1f} {'+'.join(names)[:26]}")
print(f"{sys.argv[2][:22]:22} {sys.argv[3]:10} " + " | ".join(out))
PY
    done
done
rm -rf "$tmp"
