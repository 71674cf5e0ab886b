#!/usr/bin/env bash
# GPU tests of this session's final tools: the new FmaTransposedDots, the
# FMA orders with TT's tiles, and the suites the tensor-map change touches.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 420 TileGPUTests --gtest_filter=GPUTest.*:MatmulTest.FmaOperandOrders:MatmulTest.WarpgroupMmaTf32:MatmulTest.AttentionExample:MatmulTest.Autotuned:MatmulTest.BatchedDot 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which|worst" > $OUT/gtest_final_tools.txt; grep -E "OK|FAIL|PASS|SKIP" $OUT/gtest_final_tools.txt
