#!/usr/bin/env bash
# Main's final tools (after the v48 commits): the GPU suites the earlier jobs
# did not run (the rest of MatmulTest, the C interface, the Python package),
# and two 8-warp attention tiles of 256 rows outside the example's list
# (each warpgroup 128 rows, K and V shared by both), beside the list's best.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/ta-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
D=bench/results/v48-session27
( TILE_GPU_TEST_SMALL=1 timeout 220 TileGPUTests --gtest_filter='MatmulTest.Unpipelined:MatmulTest.FmaOperandOrders:MatmulTest.WgmmaLoneDot:MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaComputedA:MatmulTest.F32IEEE:MatmulTest.TF32:MatmulTest.Autotuned:MatmulTest.AutotuneErrors:MatmulTest.MatmulReluSmall'
  TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMma:SharedStageTest.*' ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|SKIPPED" > $OUT/gtest.txt; grep -v "^\[       OK" $OUT/gtest.txt; grep -c "^\[       OK" $OUT/gtest.txt
(TileCApiTest --gpu | tail -2; timeout 150 python3 python/tests/test_gpu.py) > $OUT/python_gpu.txt 2>&1; echo "capi+python rc=$?"; tail -3 $OUT/python_gpu.txt
timeout 120 python3 $D/attn_ab.py new "128,64,4,2;256,64,8,2;256,32,8,2" "64,0;128,0" > $OUT/attn_256.jsonl 2> $OUT/ab.err
python3 $D/summarize.py $OUT/attn_256.jsonl
