"""Plain calls (no preprocess) in oxsparse-bench JSON files side by side (bench/tools/bench_ab.sh):
per case, our plain call's median in each file, cuSPARSE's best algorithm that needs no preprocess
(DEFAULT, CSR_ALG2, CSR_ALG1) in the first, and each file's speedup of the plain call over it;
geometric means per variant, and over the cases where the first file's plain call took at least
MIN_US (`plain_table.py [--min-us X] a.json b.json ...`). Every plain call's check must be ok."""
import json, math, sys

args = sys.argv[1:]
min_us = 0.0
if args[:1] == ["--min-us"]:
    min_us, args = float(args[1]), args[2:]
runs = [json.load(open(p)) for p in args]
cases = {}
for i, d in enumerate(runs):
    for r in d["results"]:
        algs = r.get("algorithms") or []
        plain = [a for a in algs if a["lib"] == "oxsparse" and a["alg"].endswith("no preprocess") and a.get("median_ms")]
        cu = [a["median_ms"] for a in algs if a["lib"] == "cuSPARSE" and a["alg"] != "CSR_ALG3" and a.get("median_ms")]
        for a in plain:
            assert a["check"] == "ok", f"{r['input']} {r['variant']}: plain call check {a['check']}"
        t = cases.setdefault((r["input"], r["variant"]), [[None, None] for _ in runs])
        t[i] = [plain[0]["median_ms"] if plain else None, min(cu) if cu else None]
print(f"{'input':28} {'variant':34} " + " ".join(f"{'plain' + str(i + 1):>8}" for i in range(len(runs))) + f" {'cu us':>8} " +
      " ".join(f"{'sp' + str(i + 1):>6}" for i in range(len(runs))))
logs = {}
for (inp, var), t in cases.items():
    sp = [c / x if x and c else None for x, c in t]
    print(f"{inp[:28]:28} {var[:34]:34} " + " ".join(f"{x * 1e3:8.1f}" if x else f"{'-':>8}" for x, _ in t) +
          f" {(t[0][1] or float('nan')) * 1e3:8.1f} " + " ".join(f"{s:6.2f}" if s else f"{'-':>6}" for s in sp))
    big = t[0][0] and t[0][0] * 1e3 >= min_us
    for i, s in enumerate(sp):
        if s:
            logs.setdefault((var, i), []).append(math.log(s))
            if big:
                logs.setdefault(("(>= min) " + var, i), []).append(math.log(s))
for var in sorted({v for v, _ in logs}):
    n = len(logs.get((var, 0), []))
    print(f"geomean {var:44} n={n:3} " + " ".join(f"{math.exp(sum(logs[(var, i)]) / len(logs[(var, i)])):6.3f}" if (var, i) in logs else "     -" for i in range(len(runs))))
