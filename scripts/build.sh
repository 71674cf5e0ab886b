#!/usr/bin/env bash
# Configures (once) and builds tile with CMake + Ninja into $BUILD_DIR
# (default: build/). Extra arguments go to the first CMake configure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

if [[ ! -f $build/build.ninja ]]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
fi
# Two jobs: each MLIR-heavy translation unit needs about 1-2 GB of memory.
ninja -C "$build" -j "${TILE_BUILD_JOBS:-2}"
