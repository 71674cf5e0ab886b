#!/usr/bin/env bash
# Installs what tile's build and tests need, from Debian packages.
# Idempotent: installs only missing packages, running `apt-get update` once.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  python3-numpy python3-pytest   # the Python package's tests
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev
  clang-22 libclang-rt-22-dev   # sanitizer and libFuzzer builds
)

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
