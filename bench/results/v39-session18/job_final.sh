#!/usr/bin/env bash
# Final tools (d9e0bba): the tests the session's changes touch, and
# racecheck over attention (Q staged at D128 BM128 4 warps) and lone dots.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 300 TileGPUTests --gtest_filter=MatmulTest.AttentionExample:MatmulTest.WgmmaLoneDot:MatmulTest.BatchedDot:MatmulTest.WgmmaPipelineSmall:MatmulTest.LinearEpilogue:MatmulTest.WarpgroupMma:MatmulTest.Autotuned:MatmulTest.OperandOrders:GPUTest.* 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure" > $OUT/gtest_final.txt; tail -4 $OUT/gtest_final.txt
rm -rf /tmp/tile-cache
TILE_GPU_TEST_SMALL=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 TileGPUTests --gtest_filter=MatmulTest.AttentionExample:MatmulTest.WgmmaLoneDot > $OUT/racecheck_final.txt 2>&1
echo "racecheck exit=$?"; grep -E "FAILED|Failure|RACECHECK|PASSED" $OUT/racecheck_final.txt | head -5
