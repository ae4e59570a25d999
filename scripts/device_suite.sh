#!/usr/bin/env bash
# Runs the whole suite on the GPU machine, from what scripts/device_prepare.sh put in .device/:
#   1. every Rust test binary, with OXSPARSE_REQUIRE_GPU=1 (a missing GPU is a failure, not a skip;
#      DEVICE_SUITE_CONSUMERS_ONLY=1 skips this step),
#      then again with kernels and launch paths forced (not with DEVICE_SUITE_QUICK=1)
#   2. the C, C++ and Fortran consumers built here through find_package
#   3. the C and C++ consumers configured and built there, with that machine's CUDA toolkit, through
#      find_package(oxsparse CONFIG REQUIRED) against the carried package, and run by ctest
#   4. nm -D on the library: only oxsparse* symbols
#   5. with DEVICE_SUITE_SANITIZER=1, compute-sanitizer (memcheck, racecheck, initcheck) over a
#      reduced case set
# The benchmark runs separately: scripts/device_bench.sh.
# Ends with "device: N passed, N failed". Logs go to $OUT when set. .device/ is over the carry
# limit beside the repository (64 MiB), so it travels packed: carry .device-pack/ (made by
# device_prepare.sh), which this script unpacks when .device/ is not there.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -d .device ] && [ -f .device-pack/device.tar.xz ]; then
    tar xJf .device-pack/device.tar.xz || { echo "device_suite: cannot unpack .device-pack/device.tar.xz"; exit 1; }
fi
# Per-program logs go to $logs; $OUT gets them concatenated (the device tool returns at most 8 files).
out=${OUT:-/tmp/oxsparse-out}; logs=/tmp/oxsparse-logs; mkdir -p "$out" "$logs"
dev=$PWD/.device
export OXSPARSE_REQUIRE_GPU=1 LD_LIBRARY_PATH=$dev/prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
passed=0 failed=0

# Runs one Rust test binary ("$@"), logging to $logs/rust-$1.log, and adds its counts.
run_rust() {
    local label=$1; shift
    "$@" --test-threads=1 --show-output >"$logs/rust-$label.log" 2>&1
    local rc=$? line p f
    line=$(grep -E '^test result:' "$logs/rust-$label.log" | tail -1)
    p=$(sed -E 's/.* ([0-9]+) passed.*/\1/' <<<"$line"); f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
    [ -n "$line" ] || { p=0; f=1; }
    [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ] && f=1
    passed=$((passed + p)); failed=$((failed + f))
    echo "$label: $p passed, $f failed"
    [ "$f" -eq 0 ] || grep -E 'panicked|FAILED|failures:' -A3 "$logs/rust-$label.log" | head -40
}

# DEVICE_SUITE_CONSUMERS_ONLY=1 runs steps 2-4 alone (a call whose time ran out in step 3).
if [ -n "${DEVICE_SUITE_CONSUMERS_ONLY:-}" ]; then
    echo "=== DEVICE_SUITE_CONSUMERS_ONLY: the Rust tests are skipped"
else
echo "=== Rust tests"
for t in "$dev"/bin/*; do
    name=$(basename "$t")
    # DEVICE_SUITE_FROM / DEVICE_SUITE_BEFORE=NAME: only the binaries named from NAME on / before
    # it, so the suite splits over two calls of ten minutes (e.g. BEFORE=gpu_spmm, then FROM=gpu_spmm).
    [[ -n "${DEVICE_SUITE_FROM:-}" && "$name" < "$DEVICE_SUITE_FROM" ]] && continue
    [[ -n "${DEVICE_SUITE_BEFORE:-}" && ! "$name" < "$DEVICE_SUITE_BEFORE" ]] && continue
    run_rust "$name" "$t"
done
# DEVICE_SUITE_QUICK=1 skips the passes with forced kernels and launch paths below (a quick
# check of a change on a short device budget; the full suite is the record).
if [ -z "${DEVICE_SUITE_QUICK:-}" ]; then
    # Preprocess chooses the tile kernel or the vector kernel (the tiles only under graph capture),
    # launching huge rows apart only for large matrices; forcing each makes every preprocessed case of
    # the SpMV suite run the tile kernel with its row table, the vector kernel in one launch, and the
    # split launch, too.
    for kernel in tiles vector split; do
        echo "=== gpu_spmv with OXSPARSE_SPMV_KERNEL=$kernel"
        OXSPARSE_SPMV_KERNEL=$kernel run_rust gpu_spmv-$kernel "$dev/bin/gpu_spmv"
    done
    # Preprocess keeps FastLoad's column order only for large matrices whose busy columns are
    # scattered; forcing it runs every preprocessed case of stored rows through the order.
    echo "=== gpu_spmv with OXSPARSE_SPMV_COLUMNS=sorted"
    OXSPARSE_SPMV_COLUMNS=sorted run_rust gpu_spmv-columns "$dev/bin/gpu_spmv"
    # Preprocess keeps the band offsets only for large banded matrices; forcing them makes every
    # preprocessed FP32 / FP64 case of stored rows on the lean vector schedule try them (and read them
    # where every column lies within 16 bits of its row).
    echo "=== gpu_spmv with OXSPARSE_SPMV_BAND=on"
    OXSPARSE_SPMV_BAND=on run_rust gpu_spmv-band "$dev/bin/gpu_spmv"
    # The smallest tile (one warp step) makes every SpMV case with more than 128 entries cross tile
    # edges, with and without the row table.
    echo "=== gpu_spmv with OXSPARSE_SPMV_TILE=128 and OXSPARSE_SPMV_KERNEL=tiles"
    OXSPARSE_SPMV_TILE=128 OXSPARSE_SPMV_KERNEL=tiles run_rust gpu_spmv-tile128 "$dev/bin/gpu_spmv"
    # SpMM's vectorised cases take the tile kernel; the row kernel stays reachable and tested. Forcing
    # the smallest and the largest tile makes every case cross tile edges, or fill whole tiles.
    echo "=== gpu_spmm with OXSPARSE_SPMM_KERNEL=rowvec"
    OXSPARSE_SPMM_KERNEL=rowvec run_rust gpu_spmm-rowvec "$dev/bin/gpu_spmm"
    # The short-row kernel on every tile-kernel case, plain calls and long rows included (and every
    # FP32 / FP64 column-major C written by the kernel itself, in the shape n takes; narrow groups too).
    echo "=== gpu_spmm with OXSPARSE_SPMM_KERNEL=short_rows"
    OXSPARSE_SPMM_KERNEL=short_rows run_rust gpu_spmm-short-rows "$dev/bin/gpu_spmm"
    echo "=== gpu_spmm with OXSPARSE_SPMM_ROW_SHAPE=narrow and OXSPARSE_SPMM_KERNEL=short_rows"
    OXSPARSE_SPMM_ROW_SHAPE=narrow OXSPARSE_SPMM_KERNEL=short_rows run_rust gpu_spmm-short-rows-narrow "$dev/bin/gpu_spmm"
    # Split rows on every preprocessed tile-kernel case of one batch, short rows included (a
    # column-major FP32 / FP64 C written by the kernel), then with every such C staged.
    echo "=== gpu_spmm with OXSPARSE_SPMM_KERNEL=split_rows"
    OXSPARSE_SPMM_KERNEL=split_rows run_rust gpu_spmm-split-rows "$dev/bin/gpu_spmm"
    echo "=== gpu_spmm with OXSPARSE_SPMM_SPLIT_C_BYTES=0 and OXSPARSE_SPMM_KERNEL=split_rows"
    OXSPARSE_SPMM_SPLIT_C_BYTES=0 OXSPARSE_SPMM_KERNEL=split_rows run_rust gpu_spmm-split-rows-staged-c "$dev/bin/gpu_spmm"
    # The shortest pieces (4 entries) on every such case: rows cut into up to a block's groups.
    echo "=== gpu_spmm with OXSPARSE_SPMM_PIECE=4 and OXSPARSE_SPMM_KERNEL=split_rows"
    OXSPARSE_SPMM_PIECE=4 OXSPARSE_SPMM_KERNEL=split_rows run_rust gpu_spmm-split-rows-piece4 "$dev/bin/gpu_spmm"
    # The short-row shapes the default does not take there: two vectors a lane over split-row tables
    # (x2), FP32's 16-lane one-vector groups (wide), FP64's 8-lane ones (half) and the 16-bit
    # 16-byte-vector ones (packed, packed_wide: every 16-bit case whose n they fit, long rows too),
    # on every case whose n they fit.
    for shape in x2 wide half packed packed_wide; do
        echo "=== gpu_spmm with OXSPARSE_SPMM_ROW_SHAPE=$shape and OXSPARSE_SPMM_KERNEL=split_rows"
        OXSPARSE_SPMM_ROW_SHAPE=$shape OXSPARSE_SPMM_KERNEL=split_rows run_rust gpu_spmm-split-rows-$shape "$dev/bin/gpu_spmm"
    done
    # Warp rows on every preprocessed FP32 tile-kernel case of one batch whose n is a multiple of
    # 128 and whose op(B) and C are row-major, small matrices and short rows included.
    echo "=== gpu_spmm with OXSPARSE_SPMM_KERNEL=warp_rows"
    OXSPARSE_SPMM_KERNEL=warp_rows run_rust gpu_spmm-warp-rows "$dev/bin/gpu_spmm"
    # Plain calls on warp rows over the table they build on the GPU wherever the kernel fits (any
    # size; preprocessed calls choose as usual).
    echo "=== gpu_spmm with OXSPARSE_SPMM_PLAIN_WARP_ROWS=1"
    OXSPARSE_SPMM_PLAIN_WARP_ROWS=1 run_rust gpu_spmm-plain-warp-rows "$dev/bin/gpu_spmm"
    # Preprocess's warp-row table built on the GPU as a plain call's (the opt-in), and laid out
    # from every row offset read back (the default lists only the long rows), over the warp-row cases.
    for table in gpu host; do
        echo "=== gpu_spmm with OXSPARSE_SPMM_WARP_ROWS_TABLE=$table"
        OXSPARSE_SPMM_WARP_ROWS_TABLE=$table run_rust gpu_spmm-warp-rows-$table-table "$dev/bin/gpu_spmm"
    done
    # In the tensor-op math modes the build keeps tensor cores only for matrices whose windows share
    # columns; forcing them sends every tensor-core case of the suite through the tiles.
    echo "=== gpu_spmm with OXSPARSE_SPMM_KERNEL=tensor_cores"
    OXSPARSE_SPMM_KERNEL=tensor_cores run_rust gpu_spmm-tensor-cores "$dev/bin/gpu_spmm"
    for tile in 128 1024; do
        echo "=== gpu_spmm with OXSPARSE_SPMM_TILE=$tile"
        OXSPARSE_SPMM_TILE=$tile run_rust gpu_spmm-tile$tile "$dev/bin/gpu_spmm"
    done
    # Kernels go through the handle's launch graphs by default (src/kernels/graph/); the plain
    # launches, which stream capture and the fallback use, run every SpMM and SpMV case too.
    for bin in gpu_spmm gpu_spmv; do
        echo "=== $bin with OXSPARSE_LAUNCH=direct"
        OXSPARSE_LAUNCH=direct run_rust $bin-direct-launch "$dev/bin/$bin"
    done
    # Captured calls replayed with new values, and SpMM's preprocess contract, on every kernel forced
    # (gpu_spmv's passes above run its contract test on every SpMV kernel).
    for kernel in tiles vector split; do
        OXSPARSE_SPMV_KERNEL=$kernel run_rust gpu_capture_replay-spmv-$kernel "$dev/bin/gpu_capture_replay"
    done
    for kernel in tiles short_rows split_rows warp_rows; do
        OXSPARSE_SPMM_KERNEL=$kernel run_rust gpu_capture_replay-spmm-$kernel "$dev/bin/gpu_capture_replay"
        OXSPARSE_SPMM_KERNEL=$kernel run_rust gpu_spmm_lifecycle-$kernel "$dev/bin/gpu_spmm_lifecycle"
    done
else
    echo "=== DEVICE_SUITE_QUICK: the forced-kernel and launch-path passes are skipped"
fi
fi

# DEVICE_SUITE_SANITIZER=1: compute-sanitizer's memcheck, racecheck and initcheck over a reduced
# case set (the whole suite under the tools takes hours): the SpMV and SpMM preprocess contracts,
# captured replays, SpMM's replay cases, SparseToDense, the vector routines and the index helpers
# (coo2csr, csr2coo: racecheck covers their shared-memory staging). Each run counts as
# passed when the tool reports 0 errors.
if [ -n "${DEVICE_SUITE_SANITIZER:-}" ]; then
    echo "=== compute-sanitizer"
    # DEVICE_SUITE_SANITIZER_SPECS narrows the set ("binary [filter]" items separated by commas).
    IFS=, read -ra specs <<<"${DEVICE_SUITE_SANITIZER_SPECS:-gpu_spmv lifecycle,gpu_spmm_lifecycle,gpu_capture_replay,gpu_spmm replay,gpu_sparse_to_dense,gpu_vector_ops,gpu_coo_csr}"
    for tool in ${DEVICE_SUITE_SANITIZER_TOOLS:-memcheck racecheck initcheck}; do
        for spec in "${specs[@]}"; do
            set -- $spec
            log="$logs/sanitizer-$tool-$1-${2:-all}.log"
            timeout "${DEVICE_SUITE_SANITIZER_TIMEOUT:-300}" compute-sanitizer --tool "$tool" --print-limit 20 \
                "$dev/bin/$1" ${2:-} --test-threads=1 >"$log" 2>&1
            rc=$?
            # memcheck and initcheck end with "ERROR SUMMARY: 0 errors", racecheck with
            # "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)".
            summary=$(grep -hE '(ERROR|RACECHECK) SUMMARY' "$log" | tail -1)
            if [ $rc -eq 0 ] && grep -qE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' <<<"$summary"; then
                passed=$((passed + 1)); echo "$tool $spec: $summary"
            else
                failed=$((failed + 1)); echo "$tool $spec: FAILED (exit $rc) ${summary:-no summary}"; grep -m5 -E '=========' "$log"
            fi
        done
    done
fi

echo "=== C/C++/Fortran consumers built on the CPU machine"
for t in "$dev"/c_tests/*; do
    name=$(basename "$t")
    if "$t" >"$logs/c-$name.log" 2>&1; then passed=$((passed + 1)); echo "$name: passed"
    else failed=$((failed + 1)); echo "$name: FAILED"; tail -20 "$logs/c-$name.log"; fi
    grep -h '^SKIP' "$logs/c-$name.log" && { echo "$name: skipped GPU parts on a GPU machine"; failed=$((failed + 1)); }
done

echo "=== C/C++ consumers built here through find_package"
cuda=${CUDA_HOME:-/usr/local/cuda}
if cmake -S c_tests -B /tmp/oxs-c-tests -DCMAKE_PREFIX_PATH="$dev/prefix" -DCUDAToolkit_ROOT="$cuda" \
        -DOXSPARSE_TESTS_FORTRAN=OFF >"$out/cmake.log" 2>&1 &&
    cmake --build /tmp/oxs-c-tests --parallel >>"$out/cmake.log" 2>&1; then
    (cd /tmp/oxs-c-tests && ctest --output-on-failure) >"$out/ctest.log" 2>&1
    read -r p f < <(bash scripts/ctest_counts.sh "$out/ctest.log")
    echo "ctest: $p passed, $f failed"
    passed=$((passed + p)); failed=$((failed + f))
else
    failed=$((failed + 1)); echo "cmake configure/build FAILED"; tail -30 "$out/cmake.log"
fi

echo "=== exports"
lib=$(ls "$dev"/prefix/lib/liboxsparse.so.0.* | head -1)
others=$(nm -D --defined-only "$lib" | awk '{print $NF}' | grep -v '^oxsparse')
if [ -z "$others" ]; then passed=$((passed + 1)); echo "only oxsparse* exported ($(nm -D --defined-only "$lib" | wc -l) symbols)"
else failed=$((failed + 1)); echo "unexpected exports: $others"; fi

cat "$logs"/rust-*.log >"$out/rust-tests.log" 2>/dev/null
cat "$logs"/c-*.log >"$out/c-tests.log" 2>/dev/null
echo "device: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
