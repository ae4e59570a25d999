"""Summary of an ncu --csv run for bench/lab/stage_ncu.sh: one line per profiled launch."""
import csv
import sys

rows = [r for r in csv.reader(sys.stdin) if len(r) > 10]
h = rows[0]
ki, mi, vi, ii = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
by = {}
for r in rows[1:]:
    by.setdefault((int(r[ii]), r[ki]), {})[r[mi]] = r[vi].replace(',', '')
for (i, k), d in sorted(by.items()):
    g = d.get
    print(f"  {i:3} {k[:42]:42} us {float(g('gpu__time_duration.sum', 0)) / 1e3:7.2f} grid {g('launch__grid_size')} smemcfg {g('launch__shared_mem_config_size')}"
          f" occ_smem {g('launch__occupancy_limit_shared_mem')} occ_reg {g('launch__occupancy_limit_registers')} L1hit {g('l1tex__t_sector_hit_rate.pct')}"
          f" warps {g('sm__warps_active.avg.pct_of_peak_sustained_active')} L2MB {float(g('lts__t_bytes.sum', 0)) / 1e6:.1f} dramMB {float(g('dram__bytes_read.sum', 0)) / 1e6:.1f}")
