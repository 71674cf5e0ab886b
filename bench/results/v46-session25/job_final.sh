#!/usr/bin/env bash
# Main's final tools (414e8a0): every GPUTest (GridStrideLoops new), the
# tf32 MatmulTest cases, LayerNorm, AttentionExample, the C interface's GPU
# test and the Python package's GPU tests.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 300 TileGPUTests --gtest_filter='GPUTest.*:LayerNorm*:MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32:MatmulTest.OperandOrders:MatmulTest.AttentionExample' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > $OUT/gtest_final.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASSED|GridStride" $OUT/gtest_final.txt | head
timeout 120 TileGPUTests --gtest_filter='GPUTest.GridStrideLoops:GPUTest.VectorAdd' 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure" > $OUT/gtest_full_size.txt; echo "gtest full rc=${PIPESTATUS[0]}"; cat $OUT/gtest_full_size.txt
(/tmp/tile-bin/TileCApiTest --gpu | tail -2; timeout 150 python3 python/tests/test_gpu.py) > $OUT/python_gpu.txt 2>&1; echo "python rc=$?"; tail -3 $OUT/python_gpu.txt
