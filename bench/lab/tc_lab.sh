#!/usr/bin/env bash
# The tensor-core engine against the CUDA-core default on the matrices whose 8-row windows share
# columns (bench/NOTES.md, issue 4), FP32 in TF32 mode (`--math-mode tf32`: the bench sets the
# mode) and FP16: one bench process per argument `BENCH[:SETTINGS]` (a binary in LAB_DIR, default
# .device-lab/s42, and space-separated environment settings), side by side in $OUT/table.txt;
# then Nsight durations of every SpMM kernel a forced tensor-core call launches (warm L2) on
# TC_NCU_MATRICES, for each binary in TC_NCU_BENCHES. Default arguments: bench-base, as it is and
# with tensor cores forced (`OXSPARSE_SPMM_KERNEL=tensor_cores`).
#   run(command="bash bench/lab/tc_lab.sh bench-base 'bench-base:OXSPARSE_SPMM_KERNEL=tensor_cores'", carry=[".device-lab/s42"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
dir=${LAB_DIR:-.device-lab/s42}
mats=${LAB_MATRICES:-"BZR_MD COX2_MD bcsstk17 bcsstk13 graphchallenge_sparse_images_1024 EX5 cage11 wave_squared_2hop"}
files=()
for m in $mats; do files+=("$dir/m/$m.mtx.gz"); done
args=(--ops SpMM --spmm-precisions ${LAB_PRECISIONS:-fp32,fp16} --rmat-set none --math-mode tf32 --matrices "${files[@]}" --runs ${LAB_RUNS:-10} --passes ${LAB_PASSES:-1})
[ $# -gt 0 ] || set -- bench-base "bench-base:OXSPARSE_SPMM_KERNEL=tensor_cores"
rounds=${LAB_ROUNDS:-1}
source bench/lab/bench_specs.sh
run_specs "$@"
python3 bench/lab/spmm_env_table.py "$out"/env*.json > "$out/table.txt"
grep -E "geomean|host" "$out/table.txt"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for m in ${TC_NCU_MATRICES-BZR_MD bcsstk17}; do
    for b in ${TC_NCU_BENCHES:-bench-base}; do
        f="$out/ncu_${m}_$b.csv"
        OXSPARSE_SPMM_KERNEL=tensor_cores OXSPARSE_BENCH_CUSPARSE=/nonexistent "$NCU" --clock-control none --cache-control none \
            --metrics gpu__time_duration.sum,launch__grid_size --csv --print-units base -k "regex:oxs_spmm_tc_(gather|tiles)" \
            "$dir/$b" --ops SpMM --spmm-precisions "${TC_NCU_PRECISIONS:-fp32}" --runs 1 --warmup 1 --passes 1 --rmat-set none --math-mode tf32 \
            --matrices "$dir/m/$m.mtx.gz" >"$f" 2>/dev/null
        python3 - "$f" "$m" "$b" <<'PY'
import sys
sys.path.insert(0, "bench/lab")
from ncu_csv import launches, micros
line = " ".join(f"{k['name'].replace('oxs_spmm_', '')}/{k.get('launch__grid_size', '?')}:{micros(k):.1f}" for k in launches(sys.argv[1]))
print(f"{sys.argv[2][:20]:20} {sys.argv[3]:12} {line}")
PY
        rm -f "$f"
    done
done
rm -f "$out"/env*.json
