#!/usr/bin/env bash
# Final tools (TMA slices, copies after the first dot, predicated TMA):
# every MatmulTest case (small sizes), then GPUTest, LayerNorm, Int8Dot.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 420 TileGPUTests --gtest_filter='MatmulTest.*' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > $OUT/gtest_matmul.txt; echo "matmul rc=${PIPESTATUS[0]}"; grep -cE "^\[ +OK" $OUT/gtest_matmul.txt; grep -E "FAIL|PASS|SKIP" $OUT/gtest_matmul.txt
TILE_GPU_TEST_SMALL=1 timeout 120 TileGPUTests --gtest_filter='GPUTest.*:LayerNormTest.*:Int8DotTest.*' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which" > $OUT/gtest_rest.txt; echo "rest rc=${PIPESTATUS[0]}"; grep -cE "^\[ +OK" $OUT/gtest_rest.txt; grep -E "FAIL|PASS|SKIP" $OUT/gtest_rest.txt
