"""Summary of an ncu --csv run for bench/lab/colc_ncu.sh: one line per profiled launch."""
import csv
import sys

rows = [r for r in csv.reader(sys.stdin) if len(r) > 10]
h = rows[0]
ki, mi, vi, ii = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
by = {}
for r in rows[1:]:
    by.setdefault((int(r[ii]), r[ki]), {})[r[mi]] = r[vi].replace(',', '')
for (i, k), d in sorted(by.items()):
    g = lambda n: float(d.get(n, 0) or 0)
    print(f"  {i:3} {k[:44]:44} us {g('gpu__time_duration.sum') / 1e3:7.2f} grid {int(g('launch__grid_size')):7} regs {int(g('launch__registers_per_thread')):3}"
          f" Minst {g('smsp__inst_executed.sum') / 1e6:6.2f} dramR {g('dram__bytes_read.sum') / 1e6:6.1f} dramW {g('dram__bytes_write.sum') / 1e6:6.1f} L2MB {g('lts__t_bytes.sum') / 1e6:6.1f}")
