#!/usr/bin/env bash
# Nsight: L2 traffic by operation of every oxsparse SpMM kernel of one FP32 bench run per input
# (session 32: the warp-row kernel's spill stores showed as L2 writes beyond C's bytes). A kernel
# writing more than its output (C, partial rows, a staged operand) or reading more than its
# operands is worth a look. Inputs: names in .device-lab/matrices, or rmat:NODES:EDGES.
#   run(command="bash bench/tools/l2_writes.sh delaunay_n16 rmat:169343:1166243", carry=[".device-lab"])
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/oxsparse-out}; mkdir -p "$out"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
M+=,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum
for input in "$@"; do
    case $input in
        rmat:*) src=(--rmat "${input#rmat:}") ;;
        *) src=(--matrices ".device-lab/matrices/$input.mtx.gz") ;;
    esac
    f="$out/l2_${input//:/_}.csv"
    "$NCU" --clock-control none -k regex:"${KERNELS:-oxs_spmm}" --metrics "$M" --csv --print-units base \
        .device-lab/oxsparse-bench --ops SpMM --spmm-precisions fp32 --runs 1 --warmup 0 --passes 1 --rmat-set none "${src[@]}" >"$f" 2>/dev/null
    echo "== $input"
    python3 - "$f" <<'PY'
import csv, io, sys
t = open(sys.argv[1], errors="replace").read()
t = t[t.find('"ID"'):]
ks = {}
for r in csv.DictReader(io.StringIO(t)):
    k = ks.setdefault(r["ID"], {"n": r["Kernel Name"].split("(")[0]})
    k[r["Metric Name"]] = float(r["Metric Value"].replace(",", "") or "nan")
last = None
for i, k in ks.items():
    mb = lambda m: k.get(m, 0) * 32 / 1e6
    line = (f"{k['n'][:44]:44} {k['gpu__time_duration.sum'] / 1e3:8.1f} us  L2 read {mb('lts__t_sectors_srcunit_tex_op_read.sum'):7.1f}"
            f"  write {mb('lts__t_sectors_srcunit_tex_op_write.sum'):7.1f}  atom+red {mb('lts__t_sectors_srcunit_tex_op_atom.sum') + mb('lts__t_sectors_srcunit_tex_op_red.sum'):6.1f}"
            f"  DRAM r/w {k.get('dram__bytes_read.sum', 0) / 1e6:7.1f} / {k.get('dram__bytes_write.sum', 0) / 1e6:7.1f} MB")
    if line[:44] + line[60:] != last:  # the same kernel launched twice in a row prints once
        print(line)
    last = line[:44] + line[60:]
PY
done
