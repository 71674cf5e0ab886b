#!/usr/bin/env bash
# Session 30, seventh GPU call: AttentionExample with the persistent cases
# at two stages, and tf32's producer kernels (small sizes).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 200 TileGPUTests --gtest_filter='MatmulTest.AttentionExample' > $OUT/gtest.log 2>&1
echo "attention rc=$?"
TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall' >> $OUT/gtest.log 2>&1
echo "tf32 rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|timeout|exception" $OUT/gtest.log | grep -v "^\[       OK" | head -40
grep -c "worst error" $OUT/gtest.log
grep "attention_persistent" $OUT/gtest.log | head -20
