"""PyTorch and CuPy sparse calls for the drop-in check (scripts/dropin_device_check.sh).

    python py_checks.py run GROUP DIR         runs GROUP's cases, saving each result as DIR/CASE.npz
                                              (or DIR/CASE.err with the exception's text)
    python py_checks.py compare REAL FACE     compares the results of a run without the face (REAL)
                                              with one under LD_PRELOAD (FACE); exits 1 on a mismatch

The inputs come from numpy's seeded generator, so both runs see the same values whatever the GPU.
Each group runs in its own process so that the face's report (OXSPARSE_REPORT=1) names the cuSPARSE
functions of that group only. A case that fails without the face too (a library that lacks the
operation) is reported as skipped, not as a failure of the face.
"""

import os
import sys
import traceback

import numpy as np

GROUPS = {
    # group: the cuSPARSE functions its calls must reach natively
    "torch_mm": ["cusparseSpMM"],
    "torch_mv": ["cusparseSpMV"],
    "torch_sddmm": ["cusparseSDDMM"],
    "cupy_mm": ["cusparseSpMM"],
    "cupy_mv": ["cusparseSpMV"],
    "cupy_transpose": [],  # csc -> csr: Csr2cscEx2 (native) or a legacy csr2csc (forwarded)
    "torch_spgemm": [],  # forwarded, over shadow generic descriptors (FORWARDED below)
    "torch_triangular": [],  # SpSV or SpSM, forwarded over shadow descriptors
}

# group: the cuSPARSE functions its calls must reach through the real library (forwarded).
FORWARDED = {"torch_spgemm": ["cusparseSpGEMM_compute", "cusparseSpGEMM_copy"]}

# Relative tolerance (to the largest magnitude of the result) of each value type.
TOLERANCE = {"float16": 5e-3, "float32": 1e-5, "float64": 1e-12, "int32": 0, "int64": 0}


def sparse_dense(rng, m, n, density, dtype):
    """A dense m x n array of seeded normal values with about `density` of them nonzero."""
    a = rng.standard_normal((m, n))
    a[rng.random((m, n)) >= density] = 0
    return a.astype(dtype)


def torch_mm(case):
    import torch

    rng = np.random.default_rng(1)
    for dtype in ["float32", "float64", "float16"]:
        a = torch.tensor(sparse_dense(rng, 300, 200, 0.1, dtype), device="cuda")
        b = torch.tensor(rng.standard_normal((200, 64)).astype(dtype), device="cuda")
        c = torch.tensor(rng.standard_normal((300, 64)).astype(dtype), device="cuda")
        csr = a.to_sparse_csr()
        case(f"torch.sparse.mm CSR {dtype}", lambda: {"c": torch.sparse.mm(csr, b)})
        case(f"torch.addmm CSR {dtype}", lambda: {"c": torch.addmm(c, csr, b, beta=0.5, alpha=2.0)})


def torch_mv(case):
    import torch

    rng = np.random.default_rng(2)
    for dtype in ["float32", "float64"]:
        a = torch.tensor(sparse_dense(rng, 500, 300, 0.05, dtype), device="cuda")
        x = torch.tensor(rng.standard_normal(300).astype(dtype), device="cuda")
        y = torch.tensor(rng.standard_normal(500).astype(dtype), device="cuda")
        csr = a.to_sparse_csr()
        case(f"torch.addmv CSR {dtype}", lambda: {"y": torch.addmv(y, csr, x, beta=0.5, alpha=2.0)})


def torch_sddmm(case):
    import torch

    rng = np.random.default_rng(3)
    for dtype in ["float32", "float64"]:
        mask = torch.tensor(sparse_dense(rng, 200, 150, 0.1, dtype), device="cuda").to_sparse_csr()
        m1 = torch.tensor(rng.standard_normal((200, 32)).astype(dtype), device="cuda")
        m2 = torch.tensor(rng.standard_normal((32, 150)).astype(dtype), device="cuda")

        def run():
            c = torch.sparse.sampled_addmm(mask, m1, m2, beta=0.5, alpha=1.5)
            return {"values": c.values(), "crow": c.crow_indices(), "col": c.col_indices()}

        case(f"torch.sparse.sampled_addmm CSR {dtype}", run)


def torch_spgemm(case):
    import torch

    rng = np.random.default_rng(7)
    for dtype in ["float32", "float64"]:
        a = torch.tensor(sparse_dense(rng, 200, 150, 0.05, dtype), device="cuda").to_sparse_csr()
        b = torch.tensor(sparse_dense(rng, 150, 120, 0.05, dtype), device="cuda").to_sparse_csr()

        def run():
            c = torch.sparse.mm(a, b)
            return {"values": c.values(), "crow": c.crow_indices(), "col": c.col_indices()}

        case(f"torch.sparse.mm CSR @ CSR {dtype}", run)


def torch_triangular(case):
    import torch

    rng = np.random.default_rng(8)
    for dtype in ["float32", "float64"]:
        lower = np.tril(sparse_dense(rng, 120, 120, 0.1, "float64") * 0.1, -1)
        lower += np.diag(2.0 + rng.random(120))
        a = torch.tensor(lower.astype(dtype), device="cuda").to_sparse_csr()
        for columns in [1, 3]:
            b = torch.tensor(rng.standard_normal((120, columns)).astype(dtype), device="cuda")
            case(f"torch.triangular_solve CSR lower {dtype} B of {columns}", lambda: {"x": torch.triangular_solve(b, a, upper=False).solution})


def cupy_csr(rng, m, n, density, dtype):
    import cupyx.scipy.sparse as sp
    import scipy.sparse

    return sp.csr_matrix(scipy.sparse.csr_matrix(sparse_dense(rng, m, n, density, dtype)))


def cupy_mm(case):
    import cupy as cp

    rng = np.random.default_rng(4)
    for dtype in ["float32", "float64"]:
        a = cupy_csr(rng, 300, 200, 0.1, dtype)
        b = cp.asfortranarray(cp.asarray(rng.standard_normal((200, 64)).astype(dtype)))
        case(f"cupy csr_matrix @ dense (column-major) {dtype}", lambda: {"c": a @ b})


def cupy_mv(case):
    import cupy as cp

    rng = np.random.default_rng(5)
    for dtype in ["float32", "float64"]:
        a = cupy_csr(rng, 500, 300, 0.05, dtype)
        x = cp.asarray(rng.standard_normal(300).astype(dtype))
        case(f"cupy csr_matrix @ vector {dtype}", lambda: {"y": a @ x})


def cupy_transpose(case):
    rng = np.random.default_rng(6)
    for dtype in ["float32", "float64"]:
        a = cupy_csr(rng, 300, 200, 0.1, dtype)

        def run():
            t = a.T.tocsr()
            return {"data": t.data, "indptr": t.indptr, "indices": t.indices}

        case(f"cupy csr_matrix.T.tocsr() {dtype}", run)


def host(x):
    """A torch tensor or CuPy array as a numpy array."""
    if hasattr(x, "detach"):
        return x.detach().cpu().numpy()
    return x.get()


def run(group, out):
    if group.startswith("cupy"):
        # CuPy's CUB accelerator may carry out csr @ vector itself; the check is about cuSPARSE.
        os.environ["CUPY_ACCELERATORS"] = ""
    os.makedirs(out, exist_ok=True)

    def case(name, f):
        path = os.path.join(out, name.replace(" ", "_").replace("/", "_"))
        try:
            arrays = {k: host(v) for k, v in f().items()}
            np.savez(path + ".npz", **arrays)
            print(f"ran {name}")
        except Exception:
            with open(path + ".err", "w") as err:
                err.write(traceback.format_exc())
            print(f"error in {name}:\n{traceback.format_exc()}")

    globals()[group](case)


def compare(real, face):
    failed = 0
    names = sorted({os.path.splitext(f)[0] for f in os.listdir(real)} | {os.path.splitext(f)[0] for f in os.listdir(face)})
    for name in names:
        label = name.replace("_", " ")
        r, f = os.path.join(real, name + ".npz"), os.path.join(face, name + ".npz")
        if not os.path.exists(r):
            print(f"  skipped: {label} (fails without the face too)")
            continue
        if not os.path.exists(f):
            print(f"  FAIL: {label}: ran without the face, not under it")
            failed += 1
            continue
        want, got = np.load(r), np.load(f)
        for key in want.files:
            w, g = want[key], got[key]
            if w.shape != g.shape or w.dtype != g.dtype:
                print(f"  FAIL: {label} [{key}]: {g.dtype}{g.shape} under the face, {w.dtype}{w.shape} without")
                failed += 1
                continue
            wd, gd = w.astype(np.float64), g.astype(np.float64)
            scale = max(np.abs(wd).max(initial=0.0), 1e-300)
            err = np.abs(gd - wd).max(initial=0.0) / scale
            tol = TOLERANCE[str(w.dtype)]
            ok = err <= tol and np.isfinite(gd).all() == np.isfinite(wd).all()
            print(f"  {'ok' if ok else 'FAIL'}: {label} [{key}]: relative difference {err:.2e} (tolerance {tol:.0e})")
            failed += not ok
    return failed


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "expect":
        print(" ".join(GROUPS[sys.argv[2]]))
    elif sys.argv[1] == "forwarded":
        print(" ".join(FORWARDED.get(sys.argv[2], [])))
    elif sys.argv[1] == "groups":
        print(" ".join(GROUPS))
    else:
        sys.exit(1 if compare(sys.argv[2], sys.argv[3]) else 0)
