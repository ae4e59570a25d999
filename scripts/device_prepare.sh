#!/usr/bin/env bash
# Prepares .device/ on this machine (which has cargo and gfortran but no GPU) for a run of
# scripts/device_suite.sh on the GPU machine (which has a GPU, nvcc, cmake and gcc, but no cargo
# and no gfortran). Carry .device/ there with the device tool:
#   run(command="bash scripts/device_suite.sh", carry=[".device-pack"])
# (.device/ packed with xz into .device-pack/device.tar.xz: unpacked it is over the 64 MiB carry limit).
#
# .device/ holds: lib/ + include/ + cmake (the installed package), bin/ (Rust test binaries, release),
# c_tests/ (the C, C++ and Fortran consumer binaries built here through find_package).
# .device-bench/ holds oxsparse-bench and every matrix of ../shared/matrices.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
rm -rf .device && mkdir -p .device/bin .device/c_tests build

# Release library (built here, so that it holds the current kernels: install.sh builds only a
# missing one) and the C consumers, through the installed package.
cargo build --release >build/device-prepare-lib.log 2>&1 || { tail -30 build/device-prepare-lib.log; exit 1; }
OXSPARSE_TESTS_FORTRAN=ON bash scripts/run_c_tests.sh >build/device-prepare-c.log 2>&1 ||
    { tail -30 build/device-prepare-c.log; echo "device_prepare: C tests failed to build here" >&2; exit 1; }
cp -a build/prefix .device/prefix
# The release library carries debug info (about half its 20 MB); the carry limit is 64 MiB.
strip --strip-debug .device/prefix/lib/liboxsparse.so.* 2>/dev/null || true
for t in c_api_host cxx_header c_gpu_samples fortran_api; do
    [ -x build/c_tests/$t ] && cp build/c_tests/$t .device/c_tests/
done

# Rust test binaries and the benchmark (release, no debug info, stripped): they travel under a
# 64 MiB limit and each embeds the fatbins, so they carry sm_90 SASS (+ compute_90 PTX) only, in
# their own target dir. The library the C consumers use is the release build with every architecture.
export CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_TARGET_DIR=target/device OXSPARSE_CUDA_ARCHS=90
cargo test --release --all-targets --no-run --message-format=json 2>/dev/null |
    python3 -c '
import json, sys, shutil, os
for line in sys.stdin:
    m = json.loads(line)
    # header, docs_tuning, the benchmark and the cuSPARSE face (dropin/) unit tests are host-only:
    # they ran here (header, docs_tuning and the face read the sources, which the binaries do not
    # carry), and space is short there.
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"] \
            and m["target"]["name"] not in ("header", "docs_tuning", "oxsparse-bench", "cusparse_face"):
        name = m["target"]["name"] + ("-unit" if m["target"]["kind"] == ["lib"] or "lib" in m["target"]["kind"] else "")
        shutil.copy(m["executable"], os.path.join(".device/bin", name))
        print("device_prepare: test binary", name)
'
# The benchmark and the whole matrix set travel separately in .device-bench/ (the carry limit is
# 64 MiB per call): run(command="bash scripts/device_bench.sh", carry=[".device-bench"]).
cargo build --release --bin oxsparse-bench 2>/dev/null
rm -rf .device-bench && mkdir -p .device-bench/matrices
cp target/device/release/oxsparse-bench .device-bench/
cp ../shared/matrices/*.mtx.gz ../shared/matrices/MANIFEST.tsv .device-bench/matrices/
strip .device-bench/oxsparse-bench
du -sh .device-bench
strip .device/bin/* .device/c_tests/* 2>/dev/null || true
du -sh .device
# .device/ itself is over the carry limit beside the repository; its packed form is not.
rm -rf .device-pack && mkdir -p .device-pack
tar cf - .device | xz -9 -T1 >.device-pack/device.tar.xz  # one block: the fatbins every binary embeds compress once
du -sh .device-pack
