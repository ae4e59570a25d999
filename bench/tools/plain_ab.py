"""Plain calls (no preprocess) and preprocessed calls side by side from oxsparse-bench JSON files
(plain or gzipped), one column pair per file: per case oxsparse's `no_preprocess_ms` and median,
then geometric means of each file's times over the first's, per variant class.
    python3 bench/tools/plain_ab.py base.json new.json"""
import gzip, json, math, sys

runs = [json.load(gzip.open(p) if p.endswith(".gz") else open(p)) for p in sys.argv[1:]]
cases = {}
for i, d in enumerate(runs):
    for r in d["results"]:
        cases.setdefault((r["input"], r["variant"]), [None] * len(runs))[i] = (r.get("oxsparse_no_preprocess_ms"), (r.get("oxsparse") or {}).get("median_ms"))
logs = {}
print(f"{'input':24} {'variant':40} " + " ".join(f"{'plain' + str(i + 1):>8} {'pre' + str(i + 1):>8}" for i in range(len(runs))))
for (inp, var), t in cases.items():
    print(f"{inp[:24]:24} {var[:40]:40} " + " ".join(f"{(x[0] or math.nan) * 1e3:8.1f} {(x[1] or math.nan) * 1e3:8.1f}" if x else f"{'-':>8} {'-':>8}" for x in t))
    cls = "FP16" if "FP16" in var else ("col-major" if "col-major" in var else "FP32")
    for i, x in enumerate(t):
        if x and t[0] and x[0] and t[0][0]:
            logs.setdefault((cls, "plain", i), []).append(math.log(x[0] / t[0][0]))
        if x and t[0] and x[1] and t[0][1]:
            logs.setdefault((cls, "pre", i), []).append(math.log(x[1] / t[0][1]))
for key in sorted({(c, k) for c, k, _ in logs}):
    print(f"time / file 1's, {key[0]:9} {key[1]:5} " + " ".join(f"{math.exp(sum(logs[key + (i,)]) / len(logs[key + (i,)])):7.3f}" for i in range(len(runs)) if key + (i,) in logs))
