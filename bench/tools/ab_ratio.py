"""A/B of builds from bench_ab.sh's JSON files (round r of build i: ab_r{r}_b{i}.json; build 1 =
before, build 2 = after, an optional build 3 = the after build again, the same-code control). Per
case each build's time is its best median over the rounds it completed (each median of --runs
calls, in the same process as cuSPARSE). Prints per group (SpMM row-major, column-major, SpMV
FP32, FP64, a group per variant of the other operations) the cases, the geometric mean of after / before, the slowest ratio, the count over
1.05 and both builds' geometric-mean speedup over cuSPARSE; with a control, the same for the
control against the after build (the noise floor); then the cases over 1.05.
Usage: ab_ratio.py DIR"""
import glob, json, math, os, re, sys
from collections import defaultdict

d = sys.argv[1]
best = defaultdict(dict)  # (input, variant) -> build -> best oxsparse median ms
cu = defaultdict(dict)    # (input, variant) -> build -> best cuSPARSE median ms
op_of = {}
for f in glob.glob(os.path.join(d, "ab_r*_b*.json")):
    b = int(re.search(r"_b(\d+)\.json$", f).group(1))
    for res in json.load(open(f))["results"]:
        ox, c = res.get("oxsparse") or {}, res.get("cusparse") or {}
        if ox.get("status") != "ok" or not ox.get("median_ms"):
            continue
        key = (res["input"], res["variant"])
        op_of[key] = res["op"]
        best[key][b] = min(best[key].get(b, math.inf), ox["median_ms"])
        if c.get("median_ms"):
            cu[key][b] = min(cu[key].get(b, math.inf), c["median_ms"])


def group(key):
    variant = key[1]
    if op_of[key] == "SpMM":
        return "SpMM " + ("col-major" if "col-major" in variant else "row-major")
    if op_of[key] == "SpMV":
        return "SpMV " + ("FP64" if "FP64" in variant else "FP32")
    return f"{op_of[key]} {variant}"  # SDDMM and the others: a group per variant


gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def table(num, den, label):
    groups = defaultdict(list)
    for key, t in best.items():
        if num in t and den in t:
            groups[group(key)].append(key)
    print(f"{label}\n{'group':16} {'cases':>5} {'ratio':>7} {'slowest':>8} {'>1.05':>6} {'speedup ' + str(den):>10} {'speedup ' + str(num):>10}")
    over = []
    for g in sorted(groups):
        keys = groups[g]
        ratios = [best[k][num] / best[k][den] for k in keys]
        sp = lambda b: gm([cu[k][b] / best[k][b] for k in keys if b in cu[k]])
        over += [(best[k][num] / best[k][den], k) for k in keys if best[k][num] / best[k][den] > 1.05]
        print(f"{g:16} {len(keys):5d} {gm(ratios):7.3f} {max(ratios):8.3f} {sum(r > 1.05 for r in ratios):6d} {sp(den):9.2f}x {sp(num):9.2f}x")
    return over


over = table(2, 1, "after (2) / before (1), best median over the rounds")
if any(3 in t for t in best.values()):
    table(3, 2, "control: the after build again (3) / the after build (2): the noise floor")
for r, (inp, var) in sorted(over, reverse=True):
    print(f"  over 1.05: {inp:30} {var:40} {best[(inp, var)][1] * 1e3:7.2f} -> {best[(inp, var)][2] * 1e3:7.2f} us  {r:.3f}")
