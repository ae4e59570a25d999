"""Summarises an `ncu --csv --metrics ...` file of bench/tools/profile_metrics.sh: one line per
kernel launch, in launch order, with the counters that tell latency from bandwidth limits."""
import csv, io, sys

text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
start = text.find('"ID"')
if start < 0:
    sys.exit("no ncu table in " + sys.argv[1])
launches = {}
for r in csv.DictReader(io.StringIO(text[start:])):
    k = launches.setdefault(r["ID"], {"name": r["Kernel Name"]})
    k[r["Metric Name"]] = r["Metric Value"].replace(",", "")

def num(k, m):
    try:
        return float(k.get(m, "nan"))
    except ValueError:
        return float("nan")

print(f"{'id':>4} {'kernel':44} {'us':>8} {'grid':>7} {'reg':>3} {'occ%':>5} {'iss%':>5} {'L1hit':>5} {'L2hit':>5} "
      f"{'L2MB':>7} {'DRAMMB':>7} {'L2%':>5} {'L1%':>5} {'imbal':>5} {'lsb':>5} {'bar':>5} {'lgt':>5} {'mio':>5} {'Minst':>7}")
for i, k in launches.items():
    name = k["name"].split("(")[0][-44:]
    us = num(k, "gpu__time_duration.sum") / 1e3
    imbal = num(k, "sm__cycles_active.max") / max(num(k, "sm__cycles_active.avg"), 1)
    print(f"{i:>4} {name:44} {us:8.1f} {num(k,'launch__grid_size'):7.0f} {num(k,'launch__registers_per_thread'):3.0f} "
          f"{num(k,'sm__warps_active.avg.pct_of_peak_sustained_active'):5.1f} {num(k,'smsp__issue_active.avg.pct_of_peak_sustained_active'):5.1f} "
          f"{num(k,'l1tex__t_sector_hit_rate.pct'):5.1f} {num(k,'lts__t_sector_hit_rate.pct'):5.1f} "
          f"{num(k,'lts__t_bytes.sum')/1e6:7.1f} {(num(k,'dram__bytes_read.sum')+num(k,'dram__bytes_write.sum'))/1e6:7.1f} "
          f"{num(k,'lts__throughput.avg.pct_of_peak_sustained_elapsed'):5.1f} {num(k,'l1tex__throughput.avg.pct_of_peak_sustained_active'):5.1f} "
          f"{imbal:5.2f} {num(k,'smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio'):5.2f} "
          f"{num(k,'smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio'):5.2f} "
          f"{num(k,'smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio'):5.2f} "
          f"{num(k,'smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio'):5.2f} "
          f"{num(k,'smsp__inst_executed.sum')/1e6:7.2f}")
