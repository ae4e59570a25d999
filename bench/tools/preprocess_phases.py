#!/usr/bin/env python3
"""Sums OXSPARSE_PRINT_PLAN=1's preprocess phase lines (stderr of oxsparse-bench) per case: the
median host time of each phase and of their total over the case's preprocesses, us. A case is the
preprocess plan line without its kernel (m, k, n, types, how A is read) and, where preprocess
measured it, the mean row length (which tells apart matrices of one size)."""
import re
import statistics
import sys
from collections import defaultdict

cases = defaultdict(list)  # key -> list of {phase: us}
current = None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"oxsparse: SpMM preprocess plan: (.*?) kernel=", line)
    if m:
        current = {}
        cases[m.group(1)].append(current)
        plan_key = m.group(1)
        continue
    m = re.match(r"oxsparse: SpMM preprocess: longest row \d+ entries, mean ([0-9.]+)", line)
    if m and current is not None:
        # Move this preprocess to the key with its mean row length.
        cases[plan_key].remove(current)
        if not cases[plan_key]:
            del cases[plan_key]
        cases[f"{plan_key} mean {m.group(1)}"].append(current)
        continue
    m = re.match(r"oxsparse: SpMM preprocess phase: (.*): ([0-9.]+) us", line)
    if m and current is not None:
        current[m.group(1)] = current.get(m.group(1), 0.0) + float(m.group(2))


rows = []
for key, runs in cases.items():
    totals = [sum(r.values()) for r in runs]
    phases = sorted({p for r in runs for p in r}, key=lambda p: -statistics.median(r.get(p, 0.0) for r in runs))
    detail = ", ".join(f"{p} {statistics.median(r.get(p, 0.0) for r in runs):.0f}" for p in phases[:5])
    rows.append((statistics.median(totals), key, len(runs), detail))
for total, key, n, detail in sorted(rows, reverse=True):
    print(f"{total / 1000:8.2f} ms  {key}  ({n} preprocesses): {detail}")
