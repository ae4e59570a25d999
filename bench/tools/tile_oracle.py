"""Table for bench/tools/tile_oracle.sh: arguments LABEL=JSON, `default` and `control` the rule's two
runs, the others forced tile sizes (labelled by their setting). For plain calls ("no preprocess",
the tile kernel on every matrix) and preprocessed ones: per variant, each size's geometric-mean
time against the default's (the control's is the noise); per case, the rule's size and the best
size where it beats both default runs by more than 7%."""
import math, sys

from oracle_runs import load

TILE_FIXED, RESIDENT, SLICE, SIZES = 400, 8 * 132, 32, (256, 512, 1024)


def rule(nnz, n, fixed=TILE_FIXED):
    """src/ops/spmm/tile_rules.rs tile_size."""
    slices = -(-max(n, 1) // SLICE)
    cost = lambda s: -(-(-(-max(nnz, 1) // s) * slices) // RESIDENT) * (fixed + s)
    return min(SIZES, key=lambda s: (cost(s), s))


runs, meta = load(sys.argv[1:]), {}
times = {}  # (kind, input, variant) -> {label: ms}
for label, d in runs.items():
    for r in d["results"]:
        meta[(r["input"], r["variant"])] = (r["nnz"], int(r["variant"].split("N=")[1]))
        for alg in r.get("algorithms") or []:
            if alg.get("lib") != "oxsparse" or alg.get("status") != "ok" or alg.get("check", "ok") != "ok":
                continue
            kind = "plain" if "no preprocess" in alg["alg"] else "preprocessed"
            times.setdefault((kind, r["input"], r["variant"]), {})[label] = alg["median_ms"]
short = lambda v: v.replace("csr ", "").replace(" (FP32 compute)", "").replace("row-major", "row").replace("col-major", "col")
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
labels = [l for l in runs if l not in ("default", "control", "cusparse")]
for kind in ("plain", "preprocessed"):
    print(f"== {kind} calls: time against the default's, geometric mean per variant")
    by_variant = {}
    for (k, inp, var), t in times.items():
        if k == kind and "default" in t:
            by_variant.setdefault(var, []).append(t)
    print(f"{'variant':44} " + " ".join(f"{l.split('=')[-1]:>8}" for l in labels + ["control"]) + "  oracle")
    for var, ts in sorted(by_variant.items()):
        cols = [geo([t[l] / t["default"] for t in ts if l in t]) for l in labels + ["control"]]
        oracle = geo([min([t["default"]] + [t[l] for l in labels if l in t]) / t["default"] for t in ts])
        print(f"{short(var):44} " + " ".join(f"{c:8.3f}" for c in cols) + f"  {oracle:.3f}  ({len(ts)})")
print("== cases where a forced size beats both default runs by more than 7% (plain calls)")
for (k, inp, var), t in sorted(times.items(), key=lambda kv: (kv[0][2], kv[0][1])):
    if k != "plain" or "default" not in t:
        continue
    d, c = t["default"], t.get("control", t["default"])
    forced = {l: t[l] for l in labels if l in t}
    if not forced:
        continue
    bl, bx = min(forced.items(), key=lambda kv: kv[1])
    nnz, n = meta[(inp, var)]
    if bx < 0.93 * min(d, c):
        print(f"{inp[:28]:28} {short(var):22} nnz {nnz:9d} rule {rule(nnz, n):5d}  default {d*1e3:7.1f} control {c*1e3:7.1f}  "
              + " ".join(f"{l.split('=')[-1]}:{forced[l]*1e3:.1f}" for l in labels if l in forced))
