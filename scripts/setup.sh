#!/usr/bin/env bash
# Installs everything oxsparse needs to build and test on a fresh Debian machine without CUDA:
#   - nvcc 13.0 (pinned, from PyPI) into .venv-cuda/ inside the repository,
#   - cmake, gfortran and pkg-config from Debian, when missing.
# Idempotent: a second run only checks. Prints the NVCC path it set up on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-cuda
# cccl: cuda_fp16.h and cuda_bf16.h include <nv/target>, which ships in the CCCL headers.
PINS=(nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85)

need_apt=()
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
command -v gfortran >/dev/null 2>&1 || need_apt+=(gfortran)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "setup: installing from Debian: ${need_apt[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# The build and tests need about 3 GB (nvcc ~0.3 GB, target/ ~2.3 GB). Say so before a full disk
# turns into an installer's or linker's error (a CI run failed so, "No space left on device").
free_mb=$(df -Pm . | awk 'NR == 2 {print $4}')
if [ -n "$free_mb" ] && [ "$free_mb" -lt 3072 ]; then
    echo "setup: WARNING: only $free_mb MB free on $(df -P . | awk 'NR == 2 {print $6}'); the build and tests need about 3 GB"
fi

nvcc_path="$PWD/$VENV/lib/python3*/site-packages/nvidia/cu13/bin/nvcc"
cccl_probe="$PWD/$VENV/lib/python3*/site-packages/nvidia/cu13/include/cccl/nv/target"
if ! ls $nvcc_path $cccl_probe >/dev/null 2>&1; then
    echo "setup: installing nvcc 13.0 from PyPI into $VENV"
    python3 -m venv "$VENV"
    # No cache: the wheels would be kept twice on disk (~0.3 GB) for an install made once.
    "$VENV/bin/pip" install -q --disable-pip-version-check --no-cache-dir "${PINS[@]}"
fi
nvcc_path=$(ls $nvcc_path)
cu13=$(dirname "$(dirname "$nvcc_path")")
# CMake's FindCUDAToolkit and static test binaries want unversioned names.
[ -e "$cu13/lib/libcudart.so" ] || ln -s libcudart.so.13 "$cu13/lib/libcudart.so"
echo "setup: NVCC=$nvcc_path"
