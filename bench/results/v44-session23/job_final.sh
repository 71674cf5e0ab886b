#!/usr/bin/env bash
# Main's final tools (copies predicated only where no MMAs stay in flight):
# the sliced-load loops both ways, attention, and the TMA matmul suites.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 300 TileGPUTests --gtest_filter='MatmulTest.HeadSlicesInLoops:MatmulTest.AttentionHeadSlices:MatmulTest.AttentionExample:MatmulTest.WgmmaPipelineSmall:MatmulTest.BatchedDot:MatmulTest.LinearEpilogue:MatmulTest.OperandOrders:MatmulTest.WarpgroupMmaTf32' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|head " > $OUT/gtest_final.txt; echo "rc=${PIPESTATUS[0]}"; cat $OUT/gtest_final.txt
