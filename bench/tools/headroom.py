"""Where the FP32 geometric mean can still grow: each case of a record against a floor model, and
what bringing cases nearer their floor would give the issue's geometric mean
(`headroom.py record.json[.gz] [--launch-us 4.0] [--l2-tbs 8.0] [--hbm-tbs 3.0] [--top 25]`).

Floor of one call (us) = launch + max(L2 gather, HBM):
  - launch: host time and launch latency of a one-graph call on an idle stream (the smallest
    calls of the records take 6-7 us with a ~2-3 us kernel; bench/notes/launch-path.md);
  - L2 gather: every entry reads its op(B) row, nnz * N * 4 bytes, at the ~8 TB/s both libraries'
    gathers reach (bench/notes/spmm-kernels.md);
  - HBM: the record's compulsory traffic (A, B and C once) at the copy bandwidth.
A model, not a bound: L1 hits can beat the gather term and hubs can miss it. It ranks cases; it
proves nothing. Only FP32 row-major cases of the issue's group (N = 32 / 128 / 256) are read.
"""
import gzip, json, math, sys

GROUP = "FP32 row-major, N=32/128/256"


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def n_of(variant):
    return int(variant.rsplit("N=", 1)[1])


def main(argv):
    opts = {"--launch-us": 4.0, "--l2-tbs": 8.0, "--hbm-tbs": 3.0, "--top": 25}
    paths = []
    it = iter(argv)
    for a in it:
        if a in opts:
            opts[a] = type(opts[a])(next(it))
        else:
            paths.append(a)
    if len(paths) != 1:
        sys.exit(__doc__)
    cases = []
    for r in load(paths[0])["results"]:
        if GROUP not in r.get("summary_groups", []) or not r.get("speedup"):
            continue
        ours, cu = r["oxsparse"]["median_ms"] * 1e3, r["cusparse"]["median_ms"] * 1e3
        gather = r["nnz"] * n_of(r["variant"]) * 4 / (opts["--l2-tbs"] * 1e6)
        hbm = r["traffic_bytes"] / (opts["--hbm-tbs"] * 1e6)
        floor = opts["--launch-us"] + max(gather, hbm)
        cases.append({"set": r["set"], "input": r["input"], "n": n_of(r["variant"]), "ours": ours, "cu": cu, "floor": floor,
                      "bound": "L2" if gather >= hbm else "HBM"})
    if not cases:
        sys.exit("no FP32 row-major case of the issue's group in " + paths[0])
    logs = [math.log(c["cu"] / c["ours"]) for c in cases]
    now = math.exp(sum(logs) / len(logs))
    print(f"{len(cases)} cases, geometric mean {now:.3f}x; floor = {opts['--launch-us']} us + max(nnz*N*4 B at "
          f"{opts['--l2-tbs']} TB/s, compulsory bytes at {opts['--hbm-tbs']} TB/s)\n")
    # What each case gives the mean if it closed half its distance to the floor.
    for c in cases:
        half = c["ours"] - 0.5 * max(0.0, c["ours"] - c["floor"])
        c["gain"] = math.log(c["ours"] / half) / len(cases)
    cases.sort(key=lambda c: -c["gain"])
    print(f"{'set':13} {'input':28} {'N':>4} {'ours us':>9} {'cu us':>9} {'floor':>8} {'ours/floor':>10} bound  mean x if halfway")
    for c in cases[:opts["--top"]]:
        print(f"{c['set'][:13]:13} {c['input'][:28]:28} {c['n']:4} {c['ours']:9.1f} {c['cu']:9.1f} {c['floor']:8.1f} "
              f"{c['ours'] / c['floor']:10.2f} {c['bound']:5}  {math.exp(c['gain']):.4f}")
    by = {}
    for c in cases:
        key = "under 15 us" if c["ours"] < 15 else ("15-60 us" if c["ours"] < 60 else "60 us and more")
        by.setdefault(key, []).append(c)
    print("\nby call length: cases, ours / floor (geometric mean), the mean's factor if every case closed half its distance")
    for key in ("under 15 us", "15-60 us", "60 us and more"):
        cs = by.get(key, [])
        if cs:
            ratio = math.exp(sum(math.log(c["ours"] / c["floor"]) for c in cs) / len(cs))
            print(f"  {key:15} {len(cs):4}   {ratio:5.2f}   {math.exp(sum(c['gain'] for c in cs)):.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
