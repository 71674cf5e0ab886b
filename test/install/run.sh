#!/usr/bin/env bash
# The install test: `cmake --install` the build into a scratch prefix,
# configure and build test/install/consumer against it with find_package,
# run its C and C++ programs, and import the installed Python package.
# Usage: test/install/run.sh BUILD_DIR SCRATCH_DIR [PYTHON]
set -euo pipefail
build=$1 scratch=$2 python=${3:-/usr/bin/python3}
src=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
cmake -G Ninja -S "$src/consumer" -B "$scratch/consumer" \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" > "$scratch/configure.log"
cmake --build "$scratch/consumer" > "$scratch/build.log"
"$scratch/consumer/consumer_c"
"$scratch/consumer/consumer_cpp"
"$scratch/prefix/bin/tilec" --version | head -1
# The package finds the installed libtile.so beside it (no TILE_LIBRARY).
env -u TILE_LIBRARY PYTHONPATH="$scratch/prefix/lib/python3/dist-packages" \
  "$python" -c 'import tile; print("python:", tile.version(), tile._capi.lib._name)'
