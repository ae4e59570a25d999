"""Puts oxsparse-bench JSON files side by side (bench/tools/spmm_env.sh): per case, oxsparse's
median time in each file, cuSPARSE's best in the first, and each file's speedup over its own
cuSPARSE (same process);
geometric means per variant and the median host time per call at the end."""
import json, math, sys

runs = [json.load(open(p)) for p in sys.argv[1:]]
cases = {}
for i, d in enumerate(runs):
    for r in d["results"]:
        ox, cu = r.get("oxsparse") or {}, r.get("cusparse") or {}
        key = (r["input"], r["variant"])
        cases.setdefault(key, [[None, None] for _ in runs])[i] = [ox.get("median_ms"), cu.get("median_ms")]
print(f"{'input':28} {'variant':34} " + " ".join(f"{'ox' + str(i + 1) + ' us':>9}" for i in range(len(runs))) + f" {'cu us':>9} " +
      " ".join(f"{'sp' + str(i + 1):>6}" for i in range(len(runs))))
logs = {}
for (inp, var), t in cases.items():
    cu = t[0][1]
    sp = [c / x if x and c else None for x, c in t]
    print(f"{inp[:28]:28} {var[:34]:34} " + " ".join(f"{x * 1e3:9.1f}" if x else f"{'-':>9}" for x, _ in t) +
          f" {cu * 1e3 if cu else float('nan'):9.1f} " + " ".join(f"{s:6.2f}" if s else f"{'-':>6}" for s in sp))
    for i, s in enumerate(sp):
        if s:
            logs.setdefault((var, i), []).append(math.log(s))
for var in sorted({v for v, _ in logs}):
    print(f"geomean {var:34} " + " ".join(f"{math.exp(sum(logs[(var, i)]) / len(logs[(var, i)])):6.3f}" if (var, i) in logs else "     -" for i in range(len(runs))))
# Host time of one call (enqueueing only), median over the cases, per file: oxsparse / cuSPARSE.
hosts = []
for d in runs:
    ox = sorted(r["oxsparse"]["host_ms"] * 1e3 for r in d["results"] if (r.get("oxsparse") or {}).get("host_ms"))
    cu = sorted(r["cusparse"]["host_ms"] * 1e3 for r in d["results"] if (r.get("cusparse") or {}).get("host_ms"))
    hosts.append(f"{ox[len(ox) // 2]:.2f}/{cu[len(cu) // 2]:.2f}" if ox and cu else "-")
print("host us (median, ox/cu) " + " ".join(hosts))
# Preprocess time per file: the median over the cases and their geometric mean (ms), the cost a
# change to preprocess moves (e.g. a scope around preprocess's launches).
preps = []
for d in runs:
    p = sorted(r["oxsparse_preprocess_ms"] for r in d["results"] if r.get("oxsparse_preprocess_ms"))
    preps.append(f"{p[len(p) // 2]:.4f}/{math.exp(sum(map(math.log, p)) / len(p)):.4f}" if p else "-")
print("preprocess ms (median/geomean) " + " ".join(preps))
