#!/usr/bin/env bash
# The cuSPARSE face on the GPU machine (docs/design/dropin.md): unmodified programs on our kernels.
#
# Here (cargo, no GPU):   bash scripts/dropin_device_check.sh --prepare
#   builds the release face with its kernels into .device-dropin/libcusparse.so.12 (debug info
#   stripped to fit the carry limit).
# There (GPU, toolkit with the real cuSPARSE 12.6.3, gcc, Python with torch and cupy, no cargo):
#   run(command="bash scripts/dropin_device_check.sh", carry=[".device-dropin"])
#
# Checks, each printed as "PASS: ..." or "FAIL: ...", ending with "dropin: N passed, N failed":
#   1. c_tests/dropin/dropin_gpu.c compiled against the toolkit's real cusparse.h and linked with
#      -lcusparse passes on the real library (the baseline);
#   2. the same binary with the face first on LD_LIBRARY_PATH and LD_BIND_NOW=1 passes, and
#      OXSPARSE_REPORT=1 shows cusparseSpMM and cusparseSpMV native and cusparseSnnz forwarded (to
#      the toolkit's library, found by the face itself; Xcsrsort is forwarded or, once oxsparse's
#      sorts land, native);
#   3. LD_PRELOAD=face python -c "import torch, cupyx.scipy.sparse" imports;
#   4. torch.sparse.mm(CSR FP32, dense) under LD_PRELOAD equals the dense product (FP32 tolerance)
#      and the report shows cusparseSpMM native;
#   5. CuPy csr_matrix @ dense (column-major) under LD_PRELOAD, same checks.
# Logs go to $OUT when set (the device tool brings them back), else build/dropin-device/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${1:-}" = "--prepare" ]; then
    set -e
    lib=$(bash scripts/build_dropin.sh release | tail -n1)
    mkdir -p .device-dropin
    cp "$lib" .device-dropin/libcusparse.so.12
    strip --strip-debug .device-dropin/libcusparse.so.12
    ln -sfn libcusparse.so.12 .device-dropin/libcusparse.so
    ls -l .device-dropin/libcusparse.so.12
    exit 0
fi

face_dir=$root/.device-dropin
face=$face_dir/libcusparse.so.12
[ -f "$face" ] || { echo "no $face: run scripts/dropin_device_check.sh --prepare and carry .device-dropin"; exit 1; }
logs=${OUT:-$root/build/dropin-device}
mkdir -p "$logs"
cuda=${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}
cuda_lib=$cuda/lib64
[ -f "$cuda/include/cusparse.h" ] || { echo "no $cuda/include/cusparse.h (set CUDA_HOME)"; exit 1; }
python=$(command -v python3 || command -v python)

passed=0 failed=0
check() { # check NAME COMMAND...: runs COMMAND, counts and prints the outcome
    local name=$1; shift
    if "$@"; then echo "PASS: $name"; passed=$((passed + 1)); else echo "FAIL: $name"; failed=$((failed + 1)); fi
}
report_has() { # report_has LOG FUNCTION ROUTE: the OXSPARSE_REPORT row of FUNCTION says ROUTE
    grep -Eq "^$2 +[0-9]+ +$3 " "$1" || { echo "  $1: no '$2 ... $3' row:"; grep -E '^cusparse|oxsparse:' "$1" | head -40; return 1; }
}

# 1-2. The C program, built as any cuSPARSE program is.
gcc -std=c11 -O1 -o "$logs/dropin_gpu" c_tests/dropin/dropin_gpu.c -I"$cuda/include" -L"$cuda_lib" -lcusparse -lcudart \
    -Wl,-rpath-link,"$cuda_lib" || { echo "FAIL: cannot compile dropin_gpu.c"; exit 1; }
real_run() {
    LD_LIBRARY_PATH="$cuda_lib" "$logs/dropin_gpu" > "$logs/real.log" 2>&1
    local rc=$?; cat "$logs/real.log"; return $rc
}
check "dropin_gpu.c on the real cuSPARSE" real_run
face_run() {
    LD_LIBRARY_PATH="$face_dir:$cuda_lib" LD_BIND_NOW=1 OXSPARSE_REPORT=1 "$logs/dropin_gpu" > "$logs/face.log" 2>&1
    local rc=$?; cat "$logs/face.log"; [ $rc -eq 0 ] || return 1
    grep -q 'report of libcusparse.so.12' "$logs/face.log" || { echo "  the face was not loaded"; return 1; }
    report_has "$logs/face.log" cusparseSpMM native && report_has "$logs/face.log" cusparseSpMV native &&
        report_has "$logs/face.log" cusparseSnnz forwarded && report_has "$logs/face.log" cusparseXcsrsort '(native|forwarded)'
}
check "dropin_gpu.c on the face (LD_LIBRARY_PATH, LD_BIND_NOW=1): SpMM/SpMV native, Snnz forwarded" face_run

# 3-5. Python, unmodified, under LD_PRELOAD (PyTorch's DT_RPATH outranks LD_LIBRARY_PATH).
preload() { LD_PRELOAD="$face" OXSPARSE_REPORT=1 "$python" "$@"; }
imports() {
    preload -c 'import torch, cupyx.scipy.sparse; print("imported torch", torch.__version__)' > "$logs/import.log" 2>&1
    local rc=$?; cat "$logs/import.log"; return $rc
}
check "LD_PRELOAD: import torch, cupyx.scipy.sparse" imports

torch_mm() {
    preload - > "$logs/torch.log" 2>&1 <<'PY'
import torch
torch.manual_seed(0)
a = torch.randn(300, 200, device="cuda")
a[torch.rand_like(a) < 0.9] = 0
b = torch.randn(200, 64, device="cuda")
got = torch.sparse.mm(a.to_sparse_csr(), b)
want = a @ b
err = ((got - want).abs().max() / want.abs().max()).item()
print(f"torch.sparse.mm CSR FP32: relative error {err:.2e}")
assert err < 1e-5, err
PY
    local rc=$?; cat "$logs/torch.log"; [ $rc -eq 0 ] && report_has "$logs/torch.log" cusparseSpMM native
}
check "LD_PRELOAD: torch.sparse.mm CSR FP32 equals the dense product, SpMM native" torch_mm

cupy_mm() {
    preload - > "$logs/cupy.log" 2>&1 <<'PY'
import cupy as cp, cupyx.scipy.sparse as sp
rs = cp.random.RandomState(0)
a = rs.standard_normal((300, 200), dtype=cp.float32)
a[rs.random_sample(a.shape) < 0.9] = 0
b = cp.asfortranarray(rs.standard_normal((200, 64), dtype=cp.float32))
got = sp.csr_matrix(a) @ b
want = a @ b
err = float(cp.abs(got - want).max() / cp.abs(want).max())
print(f"cupy csr_matrix @ dense FP32: relative error {err:.2e}")
assert err < 1e-5, err
PY
    local rc=$?; cat "$logs/cupy.log"; [ $rc -eq 0 ] && report_has "$logs/cupy.log" cusparseSpMM native
}
check "LD_PRELOAD: cupy csr_matrix @ dense FP32 equals the dense product, SpMM native" cupy_mm

echo "dropin: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
