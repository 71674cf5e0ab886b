#!/usr/bin/env bash
# Main's 0203443: the GPU tests its coalescing change touches.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 250 TileGPUTests --gtest_filter=MatmulTest.FmaOperandOrders:MatmulTest.F32IEEE:MatmulTest.AttentionExample:MatmulTest.Unpipelined:MatmulTest.TF32:MatmulTest.Autotuned:MatmulTest.LinearEpilogue:Int8DotTest.Float8EveryOrder:Int8DotTest.LinearExample:GPUTest.MatmulReluSmall 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure" > $OUT/gtest_0203443.txt; cat $OUT/gtest_0203443.txt
