"""Which kernel preprocess chose per call, from oxsparse-bench's stderr under OXSPARSE_PRINT_PLAN=1
(run with --runs 1 --warmup 0). Usage on the GPU machine:
  for m in DIR/*.mtx.gz; do OXSPARSE_PRINT_PLAN=1 BENCH ... --matrices $m 2>&1 | python3 bench/tools/plan_choices.py $m; done
Prints one line per (n, column-major) the matrix ran: the plan's kernel and preprocess's choice."""
import re, sys

name = sys.argv[1].split('/')[-1].replace('.mtx.gz', '') if len(sys.argv) > 1 else '?'
seen, cur = {}, None
for line in sys.stdin:
    m = re.search(r'preprocess plan: .* n=(\d+) .*types=(\S+) .*kernel=(\w+) \{[^}]*stage_b: (\w+), stage_c: (\w+)', line)
    if m:
        cur = (int(m.group(1)), m.group(2).split('/')[0], m.group(4) == 'true', m.group(3))
        seen.setdefault(cur[:3], [cur[3], None])
        continue
    m = re.search(r'SpMM preprocess: (ShortRows.*|SplitRows.*|WarpRows.*|Tiles.*|Ordered.*)$', line)
    if m and cur and seen[cur[:3]][1] is None:
        seen[cur[:3]][1] = m.group(1).strip()
for (n, t, staged), (plan, chosen) in sorted(seen.items()):
    print(f"{name:30s} n={n:4d} {t:11s} {'col' if staged else 'row'} plan={plan:10s} chosen={chosen}")
