#!/usr/bin/env bash
# Packs what a GPU-machine run needs into pack/ (git-ignored; carry it with
# the device call): the tools built statically against the LLVM/MLIR
# archives, stripped and xz-compressed, since that machine has no LLVM/MLIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${STATIC_BUILD_DIR:-$root/build-static}

"$root/scripts/setup.sh"
# Static linking needs the archives of LLVM's compression dependencies.
for pkg in libzstd-dev zlib1g-dev xz-utils; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$pkg"
done
# BUILD_TESTING=ON for the GPU test binary; only the tools below are built.
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DTILE_LINK_STATIC=ON -DBUILD_TESTING=ON >/dev/null
tools=(tilec tile-bench TileGPUTests tile-fuzz-programs)
# libtile.so (the C interface the Python package loads), with LLVM/MLIR and
# libstdc++ inside and only tile_*/tile::* exported.
ninja -C "$build" -j "${TILE_BUILD_JOBS:-2}" "${tools[@]}" tile TileCApiTest

rm -rf "$root/pack" && mkdir -p "$root/pack"
for tool in "${tools[@]}" TileCApiTest; do
  strip -o "$root/pack/$tool" "$build/bin/$tool"
  xz -T0 -6 -f "$root/pack/$tool"
done
strip -o "$root/pack/libtile.so" "$build/lib/libtile.so"
xz -T0 -6 -f "$root/pack/libtile.so"
ls -la "$root/pack"
