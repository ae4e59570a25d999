#!/usr/bin/env bash
# Host checks of the cuSPARSE face (docs/design/dropin.md), run by scripts/test.sh:
#   1. exports: exactly the 423 names of dropin/cusparse-12.6.3-exports.txt, each
#      NAME@@libcusparse.so.12, and nothing else but the version node's own symbol;
#   2. SONAME libcusparse.so.12, no CUDA linked;
#   3. a C program referencing all 423 names loads with LD_BIND_NOW=1 (what Python's RTLD_NOW asks);
#   4. c_tests/dropin/face_host.c, linked with -lcusparse, passes with forwarding off, records the
#      version need libcusparse.so.12, and OXSPARSE_REPORT=1 reports its calls;
#   5. forwarding: c_tests/dropin/face_forward.c reaches a stand-in real library given by
#      OXSPARSE_CUSPARSE_FALLBACK, and is refused when the variable names the face or a copy of it;
#   6. the source drop-in: c_tests/dropin/face_header.c includes dropin/include/cusparse.h (CUDA's
#      runtime headers from $CUDA_HOME or the .venv-cuda/ of scripts/setup.sh) and links -lcusparse;
#      the native families' sample programs (c_tests/dropin/samples) compile against it.
# Usage: scripts/check_dropin.sh [release|debug]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$(bash "$root/scripts/build_dropin.sh" "${1:-release}" | tail -n1)
dir=$(dirname "$lib")
list=$root/dropin/cusparse-12.6.3-exports.txt
work=$dir/check
mkdir -p "$work"
fail() { echo "check_dropin: $*" >&2; exit 1; }

nm -D --defined-only --with-symbol-versions "$lib" | awk '{print $NF}' | sort > "$work/exports"
{ sed 's/$/@@libcusparse.so.12/' "$list"; echo libcusparse.so.12; } | sort > "$work/expected"
diff -u "$work/expected" "$work/exports" || fail "exports differ from $list (- expected, + built)"
readelf -d "$lib" | grep -q 'SONAME.*\[libcusparse.so.12\]' || fail "SONAME is not libcusparse.so.12"
! readelf -d "$lib" | grep NEEDED | grep -qi cud || fail "links CUDA at build time"
echo "exports: $(grep -c . "$list") names @@libcusparse.so.12 and nothing else; SONAME libcusparse.so.12"

# Every name referenced, bound at load time.
{ echo '#include <stdio.h>'; sed 's/.*/extern char &[];/' "$list"; echo 'static void *all[] = {'
  sed 's/.*/    (void *)&,/' "$list"; echo '};'
  echo 'int main(void) { printf("load: %zu names bound\n", sizeof all / sizeof all[0]); return 0; }'; } > "$work/load_all.c"
${CC:-cc} -o "$work/load_all" "$work/load_all.c" -L"$dir" -lcusparse
LD_LIBRARY_PATH=$dir LD_BIND_NOW=1 "$work/load_all"

${CC:-cc} -std=c11 -Wall -Werror -o "$work/face_host" "$root/c_tests/dropin/face_host.c" -L"$dir" -lcusparse
readelf -V "$work/face_host" | grep -q 'Name: libcusparse.so.12' || fail "face_host records no version need libcusparse.so.12"
LD_LIBRARY_PATH=$dir LD_BIND_NOW=1 OXSPARSE_CUSPARSE_FALLBACK=none OXSPARSE_REPORT=1 "$work/face_host" 2> "$work/face_host.err" ||
    { cat "$work/face_host.err"; fail "face_host failed"; }
cat "$work/face_host.err"
grep -Eq '^cusparseCreateMatDescr +1 +native' "$work/face_host.err" || fail "report: no native cusparseCreateMatDescr row"
grep -Eq '^cusparseCreateCsric02Info +1 +not supported' "$work/face_host.err" || fail "report: no refused cusparseCreateCsric02Info row"
grep -q 'cusparseSpGEMM_estimateMemory returns CUSPARSE_STATUS_NOT_SUPPORTED: not implemented' "$work/face_host.err" || fail "no log of the refused name"
# A stand-in real library in a folder of its own, with the real one's SONAME.
mkdir -p "$work/real"
${CC:-cc} -shared -fPIC -o "$work/real/libcusparse.so.12" -Wl,-soname,libcusparse.so.12 "$root/c_tests/dropin/fake_real.c"
${CC:-cc} -std=c11 -Wall -Werror -o "$work/face_forward" "$root/c_tests/dropin/face_forward.c" -L"$dir" -lcusparse
LD_LIBRARY_PATH=$dir LD_BIND_NOW=1 OXSPARSE_CUSPARSE_FALLBACK=$work/real/libcusparse.so.12 "$work/face_forward" forwarded
mkdir -p "$work/copy" && cp "$lib" "$work/copy/libcusparse.so.12" # a copy is the face too
for self in "$lib" "$work/copy/libcusparse.so.12"; do
    LD_LIBRARY_PATH=$dir LD_BIND_NOW=1 OXSPARSE_REPORT=1 OXSPARSE_CUSPARSE_FALLBACK=$self "$work/face_forward" self 2> "$work/self.err"
    ! grep -q 'forwarding to' "$work/self.err" || fail "the face forwards to itself ($self)"
done
cuda_root=${CUDA_HOME:-$(ls -d "$root"/.venv-cuda/lib/python3*/site-packages/nvidia/cu13 2>/dev/null | head -n1 || true)}
[ -f "$cuda_root/include/cuda_runtime_api.h" ] || fail "no CUDA runtime headers: run scripts/setup.sh or set CUDA_HOME"
${CC:-cc} -std=c11 -Wall -Werror -o "$work/face_header" "$root/c_tests/dropin/face_header.c" -I"$root/dropin/include" \
    -I"$cuda_root/include" -L"$dir" -lcusparse
LD_LIBRARY_PATH=$dir LD_BIND_NOW=1 "$work/face_header"
# The sample programs of the native families compile against the generated header too (they run on
# the GPU machine: scripts/dropin_device_check.sh); csrgeam2.c calls a forwarded family, not declared.
for sample in "$root"/c_tests/dropin/samples/*.c; do
    [ "$(basename "$sample")" = csrgeam2.c ] && continue
    ${CC:-cc} -std=c11 -Wall -Werror -c -o "$work/sample.o" "$sample" -I"$root/dropin/include" -I"$cuda_root/include"
done
echo "check_dropin: passed"
