#!/usr/bin/env bash
# Session 33, second GPU call: the rest of the GPU tests c1dfb64 / 553ab69
# touch (the first call's time limit ended inside WarpgroupMmaTf32 after
# WarpgroupMma and WgmmaLoneDot passed), then three rounds of the
# persistent example's A/B against 7b688e8's libtile.so (old/new alternating).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/old-bin
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
export TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx /tmp/old-bin
xz -dc pack/old/libtile.so.xz > /tmp/old-bin/libtile.so
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 220 TileGPUTests --gtest_filter='MatmulTest.Attention*:MatmulTest.HeadSlicesInLoops:SharedStageTest.*:MatmulTest.BatchedDot:Int8DotTest.*:LayerNormTest.*:MatmulTest.WgmmaComputedA:MatmulTest.WgmmaPipelineSmall:MatmulTest.LinearEpilogue' > $OUT/gtest.log 2>&1
echo "tests rc=$?"
grep -E "^\[  (PASSED|FAILED)|^\[==========\]|FAILED|Failure|^\[       OK" $OUT/gtest.log | head -40
ab() { # variant library
  TILE_LIBRARY=$2 TILE_CACHE_DIR=/tmp/tile-cache-$1 timeout 100 python3 bench/results/v54-session33/pers_ab.py $1 examples/attention_persistent.tile persistent "128,128,8,2" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 rc=$?"
}
for round in 1 2 3; do
  if [ $round = 2 ]; then order="new old"; else order="old new"; fi
  for v in $order; do
    lib=/tmp/tile-bin/libtile.so; [ $v = old ] && lib=/tmp/old-bin/libtile.so
    ab $v $lib
  done
done
tail -3 $OUT/ab.err
