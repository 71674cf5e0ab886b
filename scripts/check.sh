#!/usr/bin/env bash
# Set up, build, and run the whole test suite with ctest: first the regular
# build (lit + unit tests), then -- unless TILE_CHECK_SANITIZERS=0 -- a clang
# build with AddressSanitizer + UndefinedBehaviorSanitizer that runs the same
# suite plus a bounded smoke of each libFuzzer target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

"$root/scripts/setup.sh"
"$root/scripts/build.sh"
(cd "$build" && ctest --output-on-failure -j 2)

if [[ ${TILE_CHECK_SANITIZERS:-1} != 0 ]]; then
  echo "=== sanitizer build (ASan + UBSan) and fuzzing smoke ==="
  CC=clang-22 CXX=clang++-22 BUILD_DIR="${SANITIZER_BUILD_DIR:-$root/build-asan}" \
    "$root/scripts/build.sh" -DTILE_ENABLE_SANITIZERS=ON -DTILE_ENABLE_FUZZERS=ON
  cd "${SANITIZER_BUILD_DIR:-$root/build-asan}"
  ctest --output-on-failure -j 2
fi
