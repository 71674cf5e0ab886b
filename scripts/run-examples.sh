#!/usr/bin/env bash
# The main job: set up, build, and compile the three example kernels,
# showing the tile IR that comes out of the compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

"$root/scripts/setup.sh"
"$root/scripts/build.sh"

for example in vector_add softmax matmul_relu; do
  echo "=== examples/$example.tile -> tile IR ==="
  "$build/bin/tilec" "$root/examples/$example.tile" --emit=tile
done
