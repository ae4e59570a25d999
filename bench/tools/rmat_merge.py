"""Merges the per-graph bench JSON files of bench/tools/rmat_all_record.sh into one record: the
graphs named after their files (the processes ran them through --rmat NODES:EDGES), a
table per case, and the geometric-mean speedups per variant over the graphs. Writes merged.json
beside the inputs when it can."""
import json, math, os, sys

files = [json.load(open(p)) for p in sys.argv[1:]]
results = []
for path, d in zip(sys.argv[1:], files):
    # rmat_all_record.sh names each file rmat-NAME-PRECISION.json.
    stem = os.path.basename(path)[:-len(".json")]
    name = stem[len("rmat-"):stem.rindex("-")] if stem.startswith("rmat-") and stem.count("-") >= 2 else None
    for r in d["results"]:
        if name and r["input"].startswith("rmat_n"):
            r["input"], r["group"] = name, "rmat"
        results.append(r)
print(f"{'input':15} {'variant':42} {'ox ms':>9} {'cu ms':>9} {'alg':9} {'speedup':>7} {'prep ms':>8} check")
logs = {}
for r in results:
    ox, cu = r.get("oxsparse") or {}, r.get("cusparse") or {}
    if not ox.get("median_ms") or not cu.get("median_ms"):
        print(f"{r['input']:15} {r['variant']:42} missing: {r.get('error')}")
        continue
    print(f"{r['input']:15} {r['variant']:42} {ox['median_ms']:9.4f} {cu['median_ms']:9.4f} {cu.get('alg', ''):9} "
          f"{r['speedup']:7.3f} {r.get('oxsparse_preprocess_ms') or 0:8.4f} {ox.get('check')}")
    logs.setdefault(r["variant"], []).append(math.log(r["speedup"]))
for v, l in sorted(logs.items()):
    print(f"geomean {v:42} {math.exp(sum(l) / len(l)):.3f} over {len(l)}")
row = [l for v, ls in logs.items() if "FP32, row-major" in v and any(f"N={n}" == v.split(", ")[-1] for n in (32, 128, 256)) for l in ls]
if row:
    print(f"geomean FP32 row-major N=32/128/256 {math.exp(sum(row) / len(row)):.3f} over {len(row)}")
if files:
    merged = dict(files[0], results=results)
    merged.pop("summary", None)
    try:
        json.dump(merged, open(os.path.join(os.path.dirname(sys.argv[1]), "merged.json"), "w"))
    except OSError:
        pass
