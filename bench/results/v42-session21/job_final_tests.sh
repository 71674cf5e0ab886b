#!/usr/bin/env bash
# The rest of the final tools' GPU tests (job_final.sh's test step ran out
# of its time after WgmmaLoneDot).
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 420 TileGPUTests --gtest_filter=MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32:MatmulTest.AttentionExample:MatmulTest.BatchedDot:MatmulTest.Autotuned:MatmulTest.F32IEEE 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which|worst" > $OUT/gtest_final_rest.txt; grep -E "OK|FAIL|PASS|SKIP" $OUT/gtest_final_rest.txt
