"""Summary of an ncu --csv run (on stdin) for bench/lab/colc_ncu.sh: one line per profiled launch;
with --mix (bench/lab/colc_mix.sh) every metric of each launch, names shortened."""
import sys

from ncu_csv import launches


def short(name):
    for a, b in (("smsp__sass_inst_executed_op_", ""), ("smsp__average_warps_issue_stalled_", "stall_"),
                 ("_per_issue_active.ratio", ""), (".sum", ""), ("launch__", "")):
        name = name.replace(a, b)
    return name


for i, k in enumerate(launches("/dev/stdin")):
    g = lambda n: float(k.get(n, 0) or 0)
    if "--mix" in sys.argv:
        print(f"  {i:3} {k['name'][:40]}")
        print("      " + "  ".join(f"{short(n)}={float(v):.4g}" for n, v in sorted(k.items()) if n != "name"))
    else:
        print(f"  {i:3} {k['name'][:44]:44} us {g('gpu__time_duration.sum') / 1e3:7.2f} grid {int(g('launch__grid_size')):7} regs {int(g('launch__registers_per_thread')):3}"
              f" Minst {g('smsp__inst_executed.sum') / 1e6:6.2f} dramR {g('dram__bytes_read.sum') / 1e6:6.1f} dramW {g('dram__bytes_write.sum') / 1e6:6.1f} L2MB {g('lts__t_bytes.sum') / 1e6:6.1f}")
