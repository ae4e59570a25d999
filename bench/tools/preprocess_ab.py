"""Preprocess times side by side from oxsparse-bench JSON files (plain or gzipped): per case
oxsparse's preprocess_ms in each, then the median and the geometric mean of each file's over the
first's, and how many cases took more than 20 of the file's own calls.
    python3 bench/tools/preprocess_ab.py base.json new.json"""
import gzip, json, math, statistics, sys

runs = [json.load(gzip.open(p) if p.endswith(".gz") else open(p)) for p in sys.argv[1:]]
cases = {}
for i, d in enumerate(runs):
    for r in d["results"]:
        ox = r.get("oxsparse") or {}
        cases.setdefault((r["input"], r["variant"]), [None] * len(runs))[i] = (r.get("oxsparse_preprocess_ms"), ox.get("median_ms"))
for (inp, var), t in cases.items():
    print(f"{inp[:24]:24} {var[:40]:40} " + " ".join(f"{x[0]:8.3f}" if x and x[0] is not None else f"{'-':>8}" for x in t))
for i in range(len(runs)):
    pre = [t[i][0] for t in cases.values() if t[i] and t[i][0] is not None]
    over = sum(1 for t in cases.values() if t[i] and t[i][0] and t[i][1] and t[i][0] / t[i][1] > 20)
    ratio = [math.log(t[i][0] / t[0][0]) for t in cases.values() if t[i] and t[0] and t[i][0] and t[0][0]]
    print(f"file {i + 1}: median {statistics.median(pre):.3f} ms, over 20 calls {over} of {len(pre)}, time / file 1's {math.exp(sum(ratio) / len(ratio)):.3f}")
