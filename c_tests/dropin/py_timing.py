"""torch.sparse.mm timing for the drop-in check (scripts/dropin_device_check.sh).

    python py_timing.py run FILE              times torch.sparse.mm (CSR FP32) and writes the medians
    python py_timing.py compare REAL FACE     prints face/real per case; exits 1 when one is > 1.10

Run once without the face and once under LD_PRELOAD, in the same machine session. Each case: a
matrix built on the GPU from a seeded generator, B of N columns, 5 calls of warm-up, then the median
of 20 calls, each timed with CUDA events around torch.sparse.mm alone (descriptors, buffer query
and product: what a program pays per call).
"""

import json
import sys

# A case slower than this under the face fails the check.
LIMIT = 1.10


def power_law(torch, n, per_row, seed):
    """n x n, row lengths from a heavy-tailed distribution averaging about per_row, columns uniform,
    sorted within each row (duplicates kept: CSR allows them and both libraries add them)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    # Pareto-like lengths: per_row / 2 * u^(-1/2) has mean per_row and a long tail, capped at n / 16.
    u = torch.rand(n, device="cuda", generator=g).clamp_min(1e-6)
    lengths = (per_row / 2 * u.pow(-0.5)).floor().clamp(max=n // 16).long()
    crow = torch.zeros(n + 1, dtype=torch.long, device="cuda")
    crow[1:] = torch.cumsum(lengths, 0)
    nnz = int(crow[-1])
    rows = torch.repeat_interleave(torch.arange(n, device="cuda"), lengths)
    cols = torch.randint(0, n, (nnz,), device="cuda", generator=g)
    cols = (rows * n + cols).sort().values - rows * n
    vals = torch.randn(nnz, device="cuda", generator=g)
    return torch.sparse_csr_tensor(crow, cols, vals, (n, n))


def poisson_2d(torch, k):
    """The 5-point Laplacian of a k x k grid: k^2 rows, up to 5 entries a row, columns sorted."""
    n = k * k
    i = torch.arange(n, device="cuda")
    x, y = i % k, i // k
    offsets = [(-k, y > 0), (-1, x > 0), (0, torch.ones_like(x, dtype=torch.bool)), (1, x < k - 1), (k, y < k - 1)]
    cols = torch.stack([torch.where(ok, i + d, -1) for d, ok in offsets], 1)
    vals = torch.stack([torch.full((n,), 4.0 if d == 0 else -1.0, device="cuda") for d, _ in offsets], 1)
    keep = cols >= 0
    crow = torch.zeros(n + 1, dtype=torch.long, device="cuda")
    crow[1:] = torch.cumsum(keep.sum(1), 0)
    return torch.sparse_csr_tensor(crow, cols[keep], vals[keep], (n, n))


def run(path):
    import torch

    matrices = {
        "power-law 1M x 1M, ~16 nnz/row": lambda: power_law(torch, 1 << 20, 16, 7),
        "2D Poisson 1024^2": lambda: poisson_2d(torch, 1024),
    }
    times = {}
    for label, build in matrices.items():
        a = build()
        for n in [64, 128]:
            b = torch.randn(a.shape[1], n, device="cuda")
            for _ in range(5):
                torch.sparse.mm(a, b)
            samples = []
            for _ in range(20):
                start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                torch.sparse.mm(a, b)
                stop.record()
                stop.synchronize()
                samples.append(start.elapsed_time(stop))
            samples.sort()
            name = f"{label}, nnz {a.values().numel()}, N={n}"
            times[name] = samples[len(samples) // 2]
            print(f"{name}: median {times[name]:.3f} ms")
            del b
        del a
        torch.cuda.empty_cache()
    with open(path, "w") as f:
        json.dump(times, f)


def compare(real_path, face_path):
    real, face = json.load(open(real_path)), json.load(open(face_path))
    slow = 0
    for name, t in real.items():
        ratio = face[name] / t
        verdict = "FAIL (slower)" if ratio > LIMIT else "ok"
        print(f"  {verdict}: {name}: {t:.3f} ms without the face, {face[name]:.3f} ms under it, face/real {ratio:.2f}")
        slow += ratio > LIMIT
    return slow


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2])
    else:
        sys.exit(1 if compare(sys.argv[2], sys.argv[3]) else 0)
