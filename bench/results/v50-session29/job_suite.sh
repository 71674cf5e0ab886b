#!/usr/bin/env bash
# Session 29, last GPU call: the whole GPU test suite (small sizes) on
# main's final tools (ee45712 and later), every test under one time limit.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 330 TileGPUTests > $OUT/suite.log 2>&1
echo "rc=$?"
grep -E "^\[  (PASSED|FAILED)|^\[==========\]|FAILED|Failure" $OUT/suite.log | head -30
