#!/usr/bin/env bash
# Session 33, first GPU call: the GPU tests the two PTX-level changes of v53
# (c1dfb64 scale-d 0 for zero accumulators, 553ab69 f16 pairs across loops)
# touch, on main's tools (7b8ef46), then one A/B round against 7b688e8's
# libtile.so (pack/old/libtile.so.xz) on the attention examples.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/old-bin
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
export TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx /tmp/old-bin
xz -dc pack/old/libtile.so.xz > /tmp/old-bin/libtile.so
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 300 TileGPUTests --gtest_filter='MatmulTest.WgmmaLoneDot:MatmulTest.WgmmaComputedA:MatmulTest.WgmmaPipelineSmall:MatmulTest.Attention*:MatmulTest.HeadSlicesInLoops:MatmulTest.BatchedDot:MatmulTest.LinearEpilogue:Int8DotTest.*:SharedStageTest.*:GPUTest.WhileLoops:GPUTest.GridStrideLoops:GPUTest.Softmax:GPUTest.ConditionalsCountdownAndPointerSelects:GPUTest.MathHalf:GPUTest.DropoutExample:LayerNormTest.*:MatmulTest.WarpgroupMmaTf32:MatmulTest.WarpgroupMma' > $OUT/gtest.log 2>&1
echo "tests rc=$?"
grep -E "^\[  (PASSED|FAILED)|^\[==========\]|FAILED|Failure|^\[       OK" $OUT/gtest.log | head -40
ab() { # variant library source kind configs shapes
  TILE_LIBRARY=$2 TILE_CACHE_DIR=/tmp/tile-cache-$1 timeout 150 python3 bench/results/v54-session33/pers_ab.py $1 $3 $4 "$5" "$6" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 $3 rc=$?"
}
for round in 1; do
  for v in old new; do
    lib=/tmp/tile-bin/libtile.so; [ $v = old ] && lib=/tmp/old-bin/libtile.so
    ab $v $lib examples/attention_persistent.tile persistent "128,128,8,2"
    ab $v-grid $lib examples/attention.tile grid "64,128,4,2" "64,0;64,1"
  done
done
tail -3 $OUT/ab.err
