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
#      OXSPARSE_REPORT=1 shows cusparseSpMM, cusparseSpMV, cusparseSbsrmv and cusparseSbsrmm native
#      and cusparseSnnz, cusparseSpSV_solve and cusparseSpGEMM_copy forwarded (to
#      the toolkit's library, found by the face itself; Xcsrsort is forwarded or, once oxsparse's
#      sorts land, native);
#   3. c_tests/dropin/samples/*.c, one small program per family the face runs natively (SpMM CSR and
#      COO, SpMV, SDDMM, SparseToDense, DenseToSparse, Csr2cscEx2, Xcoo2csr/Xcsr2coo, Xcsrsort with
#      Gather, the vector routines, bsrmv/bsrxmv/bsrmm, MatDescr and the version and error texts)
#      and one that calls a forwarded family (csrgeam2), each compiled the same way and run on the
#      real library and on the face: both print "PASS <name>", and the face's report shows every row
#      native (for csrgeam2: its three functions forwarded, the rest native);
#   4. LD_PRELOAD=face python -c "import torch, cupyx.scipy.sparse" imports;
#   5. c_tests/dropin/py_checks.py, per group of calls (torch.sparse.mm and torch.addmm CSR
#      FP32/FP64/FP16, torch.addmv, torch.sparse.sampled_addmm, CuPy csr @ dense (column-major),
#      csr @ vector, .T.tocsr(); torch CSR @ CSR and triangular_solve, forwarded over shadow
#      generic descriptors), run without the face and under LD_PRELOAD: results equal within the
#      type's tolerance, SpMM/SpMV/SDDMM native and SpGEMM forwarded in the report, no name refused;
#   6. c_tests/dropin/py_timing.py: torch.sparse.mm CSR FP32 timed (CUDA events, median of 20)
#      without and under the face in the same session; face/real printed, > 1.10 fails;
#   7. only with OXSPARSE_DROPIN_MATRICES=DIR (and optionally OXSPARSE_DROPIN_BENCH=oxsparse-bench):
#      torch.sparse.mm on DIR's Matrix Market files and R-MAT graphs without and under the face, the
#      face's extra host time a call (under 1 us), and real/face against the bench's predicted speedup:
#      run(command="OXSPARSE_DROPIN_MATRICES=.device-bench/matrices OXSPARSE_DROPIN_BENCH=.device-bench/oxsparse-bench
#          bash scripts/dropin_device_check.sh", carry=[".device-dropin", ".device-bench"])
#      (about two minutes more: the bench's FP32 SpMM on every file, then two passes of torch).
# GPU time: about two minutes (the samples: a few seconds, most of it gcc).
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
        report_has "$logs/face.log" cusparseSbsrmv native && report_has "$logs/face.log" cusparseSbsrmm native &&
        report_has "$logs/face.log" cusparseSnnz forwarded && report_has "$logs/face.log" cusparseSpSV_solve forwarded &&
        report_has "$logs/face.log" cusparseSpGEMM_copy forwarded && report_has "$logs/face.log" cusparseXcsrsort '(native|forwarded)'
}
check "dropin_gpu.c on the face (LD_LIBRARY_PATH, LD_BIND_NOW=1): SpMM/SpMV/Sbsrmv/Sbsrmm native; Snnz, SpSV, SpGEMM forwarded" face_run

# 3. The sample programs: NAME, then the functions the face's report must show forwarded (every other
#    row must be native).
samples=(
    "spmm_csr" "spmm_coo" "spmv_csr" "sddmm_csr" "sparse_to_dense" "dense_to_sparse" "csr2csc" "coo2csr"
    "csrsort" "vectors" "bsr" "descr_info"
    "csrgeam2 cusparseScsrgeam2_bufferSizeExt cusparseXcsrgeam2Nnz cusparseScsrgeam2"
)
sample_run() { # sample_run NAME FORWARDED...: the program on the real library, then on the face
    local name=$1 bin=$logs/samples/$1; shift
    gcc -std=c11 -O1 -Wall -Werror -Wno-deprecated-declarations -o "$bin" "c_tests/dropin/samples/$name.c" \
        -I"$cuda/include" -L"$cuda_lib" -lcusparse -lcudart -Wl,-rpath-link,"$cuda_lib" || { echo "  cannot compile $name.c"; return 1; }
    LD_LIBRARY_PATH="$cuda_lib" "$bin" > "$bin.real.log" 2>&1
    local rc=$?; sed 's/^/  real: /' "$bin.real.log"
    [ $rc -eq 0 ] && grep -qx "PASS $name" "$bin.real.log" || { echo "  failed on the real library (rc $rc)"; return 1; }
    LD_LIBRARY_PATH="$face_dir:$cuda_lib" LD_BIND_NOW=1 OXSPARSE_REPORT=1 "$bin" > "$bin.face.log" 2>&1
    rc=$?; grep -v '^cusparse\|report of libcusparse\|^function ' "$bin.face.log" | sed 's/^/  face: /'
    [ $rc -eq 0 ] && grep -qx "PASS $name" "$bin.face.log" || { echo "  failed on the face (rc $rc)"; return 1; }
    grep -q 'report of libcusparse.so.12' "$bin.face.log" || { echo "  the face was not loaded"; return 1; }
    local ok=0 f row
    for f in "$@"; do report_has "$bin.face.log" "$f" forwarded || ok=1; done
    while read -r row; do
        f=${row%% *}
        [[ " $* " == *" $f "* ]] && continue
        [[ $row =~ ^[A-Za-z0-9_]+\ +[0-9]+\ +native\  ]] || { echo "  not native: $row"; ok=1; }
    done < <(grep -E '^cusparse[A-Za-z0-9_]+ +[0-9]+ ' "$bin.face.log")
    return $ok
}
mkdir -p "$logs/samples"
for entry in "${samples[@]}"; do
    read -r -a words <<< "$entry"
    if [ ${#words[@]} -gt 1 ]; then what="forwarded: ${words[*]:1}"; else what="every function native"; fi
    check "sample ${words[0]}.c on the real cuSPARSE and on the face ($what)" sample_run "${words[@]}"
done

# 4-6. Python, unmodified, under LD_PRELOAD (PyTorch's DT_RPATH outranks LD_LIBRARY_PATH).
preload() { LD_PRELOAD="$face" OXSPARSE_REPORT=1 "$python" "$@"; }
imports() {
    preload -c 'import torch, cupyx.scipy.sparse; print("imported torch", torch.__version__)' > "$logs/import.log" 2>&1
    local rc=$?; cat "$logs/import.log"; return $rc
}
check "LD_PRELOAD: import torch, cupyx.scipy.sparse" imports

# 5. PyTorch and CuPy sparse calls (c_tests/dropin/py_checks.py), one process per group, run
#    without the face and under LD_PRELOAD: results equal within the type's tolerance, and the
#    report shows the group's cuSPARSE functions native (other rows are printed: a forwarded one
#    still has its result compared).
py_group() { # py_group GROUP: one group of calls, without and with the face, compared
    local group=$1 dir=$logs/py/$1
    rm -rf "$dir"; mkdir -p "$dir"
    "$python" c_tests/dropin/py_checks.py run "$group" "$dir/real" > "$dir/real.log" 2>&1
    preload c_tests/dropin/py_checks.py run "$group" "$dir/face" > "$dir/face.log" 2>&1
    local rc=$?
    grep -E '^(ran|error)' "$dir/face.log" | sed 's/^/  face: /'
    [ $rc -eq 0 ] || { echo "  the run under the face exited with $rc:"; tail -20 "$dir/face.log"; return 1; }
    grep -q 'report of libcusparse.so.12' "$dir/face.log" || { echo "  the face was not loaded"; return 1; }
    echo "  report rows:"; grep -E '^cusparse' "$dir/face.log" | sed 's/^/    /'
    local ok=0 f
    "$python" c_tests/dropin/py_checks.py compare "$dir/real" "$dir/face" || ok=1
    for f in $("$python" c_tests/dropin/py_checks.py expect "$group"); do
        report_has "$dir/face.log" "$f" native || ok=1
    done
    for f in $("$python" c_tests/dropin/py_checks.py forwarded "$group"); do
        report_has "$dir/face.log" "$f" forwarded || ok=1
    done
    if grep -Eq '^cusparse[A-Za-z0-9_]+ +[0-9]+ +not supported' "$dir/face.log"; then
        echo "  a function was refused under the face"; ok=1
    fi
    return $ok
}
for group in $("$python" c_tests/dropin/py_checks.py groups); do
    check "LD_PRELOAD: $group equals the run without the face (SpMM/SpMV/SDDMM native; SpGEMM forwarded)" py_group "$group"
done

# 6. torch.sparse.mm timing, with and without the face in the same session (c_tests/dropin/py_timing.py):
#    the ratio is printed; more than 1.10 times slower under the face fails.
timing() {
    "$python" c_tests/dropin/py_timing.py run "$logs/timing-real.json" > "$logs/timing-real.log" 2>&1 ||
        { tail -20 "$logs/timing-real.log"; return 1; }
    preload c_tests/dropin/py_timing.py run "$logs/timing-face.json" > "$logs/timing-face.log" 2>&1 ||
        { tail -20 "$logs/timing-face.log"; return 1; }
    grep -E '^cusparse' "$logs/timing-face.log" | sed 's/^/    /'
    report_has "$logs/timing-face.log" cusparseSpMM native &&
        "$python" c_tests/dropin/py_timing.py compare "$logs/timing-real.json" "$logs/timing-face.json"
}
check "LD_PRELOAD: torch.sparse.mm CSR FP32 no more than 1.10x slower (power-law 1M, 2D Poisson; N 64, 128)" timing

# 7. With OXSPARSE_DROPIN_MATRICES=DIR (e.g. .device-bench/matrices, carried from scripts/device_prepare.sh's
#    .device-bench): torch.sparse.mm CSR FP32 on every Matrix Market file of DIR and on R-MAT graphs of
#    scale 16-18 (c_tests/dropin/py_spmm_sets.py), without and under the face in the same session; then
#    the face's extra host time a call (a tiny matrix, 2,000 calls), within the issue's 1 us; then per
#    case real/face beside oxsparse-bench's predicted speedup when OXSPARSE_DROPIN_BENCH names the
#    bench (e.g. .device-bench/oxsparse-bench, run here on the same files and R-MAT sizes, FP32 only):
#    each set's geometric mean of real/face must reach the predicted one, from the bench's SpMM
#    without preprocess as torch calls it (1.0 without the bench).
if [ -n "${OXSPARSE_DROPIN_MATRICES:-}" ]; then
    sets=$OXSPARSE_DROPIN_MATRICES
    bench_json=
    sets_bench() {
        "$OXSPARSE_DROPIN_BENCH" --ops SpMM --spmm-precisions fp32 --matrices "$sets" --rmat-set none \
            --rmat 65536:1048576 --rmat 131072:2097152 --rmat 262144:4194304 \
            --json "$logs/sets-bench.json" > "$logs/sets-bench.log" 2>&1 || { tail -20 "$logs/sets-bench.log"; return 1; }
        bench_json=$logs/sets-bench.json
    }
    if [ -n "${OXSPARSE_DROPIN_BENCH:-}" ]; then
        check "oxsparse-bench --ops SpMM (FP32) on $sets and R-MAT scale 16-18 (the prediction)" sets_bench
    fi
    sets_run() {
        "$python" c_tests/dropin/py_spmm_sets.py run "$sets" "$logs/sets-real.json" > "$logs/sets-real.log" 2>&1 ||
            { tail -20 "$logs/sets-real.log"; return 1; }
        preload c_tests/dropin/py_spmm_sets.py run "$sets" "$logs/sets-face.json" > "$logs/sets-face.log" 2>&1 ||
            { tail -20 "$logs/sets-face.log"; return 1; }
        grep -E '^cusparse' "$logs/sets-face.log" | sed 's/^/    /'
        report_has "$logs/sets-face.log" cusparseSpMM native
    }
    check "LD_PRELOAD: torch.sparse.mm CSR FP32 timed on $sets and R-MAT scale 16-18 (N 64, 128), SpMM native" sets_run
    # Without OXSPARSE_REPORT: its clock reads around every cuSPARSE call would count.
    sets_host() {
        "$python" c_tests/dropin/py_spmm_sets.py host-run "$logs/host-real.json" > "$logs/host-real.log" 2>&1 ||
            { tail -20 "$logs/host-real.log"; return 1; }
        LD_PRELOAD="$face" "$python" c_tests/dropin/py_spmm_sets.py host-run "$logs/host-face.json" > "$logs/host-face.log" 2>&1 ||
            { tail -20 "$logs/host-face.log"; return 1; }
        "$python" c_tests/dropin/py_spmm_sets.py host "$logs/host-real.json" "$logs/host-face.json"
    }
    check "LD_PRELOAD: the face adds under 1 us of host time a torch.sparse.mm call (64 x 64, N 8)" sets_host
    sets_compare() {
        [ -f "$logs/sets-face.json" ] &&
            "$python" c_tests/dropin/py_spmm_sets.py compare "$logs/sets-real.json" "$logs/sets-face.json" $bench_json
    }
    if [ -n "$bench_json" ]; then
        goal="reaches the bench's predicted speedup"
    else
        goal="at least 1.0 (no bench prediction)"
    fi
    check "LD_PRELOAD: torch.sparse.mm real/face on each set $goal (geometric mean)" sets_compare
fi

echo "dropin: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
