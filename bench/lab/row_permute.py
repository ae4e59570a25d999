"""Lab (session 30): writes each matrix with its rows in reverse Cuthill-McKee order (rows only: the
columns, hence op(B), keep their numbering), to measure what an internal row schedule that keeps
rows sharing columns together could gain on the graphs (L1 / L2 reuse of B rows).
Run on the GPU machine: python3 bench/lab/row_permute.py OUTDIR FILE.mtx.gz ..."""
import gzip, os, sys
import numpy as np
import scipy.io, scipy.sparse
from scipy.sparse.csgraph import reverse_cuthill_mckee

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    a = scipy.io.mmread(gzip.open(path)).tocsr()
    m, k = a.shape
    if m != k:
        continue
    sym = (abs(a) + abs(a).T).tocsr()
    perm = reverse_cuthill_mckee(sym, symmetric_mode=True)
    p = a[perm, :].tocoo()
    name = os.path.basename(path).replace('.mtx.gz', '')
    scipy.io.mmwrite(f"{out}/{name}_rcmrows.mtx", p)
    print(name, m, a.nnz, flush=True)
