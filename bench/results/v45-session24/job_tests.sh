#!/usr/bin/env bash
# WarpgroupMmaTf32 with 256x128x32 on 8 warps added: the producer beside
# two consumer warpgroups (384 threads, setmaxnreg) at edge sizes, every
# order but NN; WgmmaPipelineSmall and TF32 again.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 300 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > $OUT/gtest_tests.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "OK|FAIL|PASS" $OUT/gtest_tests.txt; grep -c worst $OUT/gtest_tests.txt
