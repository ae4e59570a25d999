"""Table for bench/lab/planner_oracle.sh: arguments LABEL=JSON, the first the default run (with
cuSPARSE), one labelled `control` the default again. Per case: default, control, the best forced
setting and its time; then geometric means of the speedup over cuSPARSE per variant for the
default and for the oracle (the best of all settings, the control excluded)."""
import json, math, sys

runs = []
for a in sys.argv[1:]:
    label, path = a.rsplit("=", 1)
    try:
        runs.append((label, json.load(open(path))))
    except (OSError, ValueError) as e:
        print(f"{label}: unreadable ({e})")
times, cusparse = {}, {}
for label, d in runs:
    for r in d["results"]:
        ox = (r.get("oxsparse") or {}).get("median_ms")
        if r.get("oxsparse", {}).get("check", "ok") not in ("ok", None):
            ox = None
        key = (r["input"], r["variant"])
        times.setdefault(key, {})[label] = ox
        cu = (r.get("cusparse") or {}).get("median_ms")
        if cu:
            cusparse[key] = cu
dflt = runs[0][0]
logs = {}
print(f"{'input':30} {'variant':36} {'default':>8} {'control':>8} {'best':>8}  setting")
for key, t in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    d, c = t.get(dflt), t.get("control")
    forced = {l: x for l, x in t.items() if l not in (dflt, "control") and x}
    if not d or not forced:
        continue
    bl, bx = min(forced.items(), key=lambda kv: kv[1])
    mark = " <-" if bx < 0.93 * d and (not c or bx < 0.93 * c) else ""
    print(f"{key[0][:30]:30} {key[1][:36]:36} {d * 1e3:8.1f} {(c or 0) * 1e3:8.1f} {bx * 1e3:8.1f}  {bl}{mark}")
    cu = cusparse.get(key)
    if cu:
        logs.setdefault(key[1], []).append((math.log(cu / d), math.log(cu / min(d, bx)), math.log(cu / c) if c else None))
for v, l in sorted(logs.items()):
    g = lambda i: math.exp(sum(x[i] for x in l if x[i] is not None) / max(1, sum(1 for x in l if x[i] is not None)))
    print(f"geomean {v:36} default {g(0):.3f}  control {g(2):.3f}  oracle {g(1):.3f}  ({len(l)} cases)")
