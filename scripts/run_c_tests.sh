#!/usr/bin/env bash
# Builds and runs the C, C++ and Fortran consumer tests (c_tests/) against an
# installed oxsparse, then checks the Fortran module against the header and the
# library (scripts/check_fortran_module.py).
#
#   scripts/run_c_tests.sh            install into build/prefix, configure and build
#                                     build/c_tests, run ctest, run the checker
#   scripts/run_c_tests.sh --run-only run the already built tests, without cmake or
#                                     ctest; for a GPU machine that received build/
#                                     from here (it has no cargo and no gfortran)
#
# CUDA headers and the static runtime come from $CUDA_HOME when set, else from the
# pip CUDA 13 tree that scripts/setup.sh puts in .venv-cuda/.
# Environment: OXSPARSE_TESTS_FORTRAN=OFF skips the Fortran test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
prefix=$root/build/prefix
tests=$root/build/c_tests

if [ "${1:-}" = "--run-only" ]; then
    # The build tree's RUNPATH points at this machine's absolute prefix; the
    # library path makes the carried copy work wherever it lands.
    export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    failed=()
    for t in c_api_host cxx_header c_gpu_samples fortran_api; do
        [ -x "$tests/$t" ] || { [ $t = fortran_api ] && continue; echo "missing $tests/$t" >&2; exit 1; }
        echo "=== $t"
        "$tests/$t" || failed+=("$t")
    done
    [ ${#failed[@]} -eq 0 ] || { echo "FAILED: ${failed[*]}"; exit 1; }
    echo "all tests passed"
    exit 0
fi

if [ -n "${CUDA_HOME:-}" ]; then
    cuda_root=$CUDA_HOME
else
    cuda_root=$(ls -d "$root"/.venv-cuda/lib/python3*/site-packages/nvidia/cu13 2>/dev/null | head -n1 || true)
    [ -n "$cuda_root" ] || { echo "run_c_tests.sh: no CUDA; run scripts/setup.sh or set CUDA_HOME" >&2; exit 1; }
fi

"$root/scripts/install.sh" "$prefix"

fortran_opt=()
[ -n "${OXSPARSE_TESTS_FORTRAN:-}" ] && fortran_opt=(-DOXSPARSE_TESTS_FORTRAN="$OXSPARSE_TESTS_FORTRAN")
cmake -S "$root/c_tests" -B "$tests" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_PREFIX_PATH="$prefix" -DCUDAToolkit_ROOT="$cuda_root" "${fortran_opt[@]}"
cmake --build "$tests" --parallel
status=0
(cd "$tests" && ctest --output-on-failure) || status=1
# ctest shows output only on failure; the skipped GPU parts must still be visible.
grep -h '^SKIP' "$tests/Testing/Temporary/LastTest.log" 2>/dev/null | sort -u | sed 's/^/run_c_tests.sh: /' || true

python3 "$root/scripts/check_fortran_module.py" --lib "$prefix/lib/liboxsparse.so" \
        --cuda-include "$cuda_root/include" || status=1
exit $status
