"""Table for bench/tools/planner_oracle.sh: arguments LABEL=JSON; `cusparse` is the run whose
cuSPARSE times give the speedups, `default` and `control` the two default runs, the others forced
settings. Per case: both default times and the best setting's where it beats both by more than 7%;
per setting, its geometric-mean time against the default's (the control's is the noise); per
variant, geometric-mean speedups of the default and of the oracle (the best of every run but the
control)."""
import math, sys

from oracle_runs import load

runs = load(sys.argv[1:])
times, cusparse = {}, {}
for label, d in runs.items():
    for r in d["results"]:
        key = (r["input"], r["variant"])
        ox = r.get("oxsparse") or {}
        if label != "cusparse" and ox.get("median_ms") and ox.get("check", "ok") == "ok":
            times.setdefault(key, {})[label] = ox["median_ms"]
        cu = (r.get("cusparse") or {}).get("median_ms")
        if label == "cusparse" and cu:
            cusparse[key] = cu
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
print(f"{'input':30} {'variant':36} {'default':>8} {'control':>8} {'best':>8}  setting")
ratios, speedups = {}, {}
for key, t in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    d, c = t.get("default"), t.get("control")
    if not d:
        continue
    forced = {l: x for l, x in t.items() if l not in ("default", "control")}
    for l, x in forced.items():
        ratios.setdefault(l, []).append(x / d)
    if c:
        ratios.setdefault("control", []).append(c / d)
    if not forced:
        continue
    bl, bx = min(forced.items(), key=lambda kv: kv[1])
    if bx < 0.93 * min(d, c or d):
        print(f"{key[0][:30]:30} {key[1][:36]:36} {d * 1e3:8.1f} {(c or 0) * 1e3:8.1f} {bx * 1e3:8.1f}  {bl}")
    if key in cusparse:
        speedups.setdefault(key[1], []).append((cusparse[key] / d, cusparse[key] / min([d, bx])))
for l, r in sorted(ratios.items()):
    print(f"time against the default: {l:40} {geo(r):.3f} ({len(r)} cases)")
for v, l in sorted(speedups.items()):
    print(f"geomean {v:36} default {geo([x for x, _ in l]):.3f}  oracle {geo([y for _, y in l]):.3f}  ({len(l)} cases)")
