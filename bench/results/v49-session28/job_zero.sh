#!/usr/bin/env bash
# A zero accumulator overwritten by the first warpgroup MMA (scale-d false)
# instead of zeroed in registers: SASS of the attention loop, the GPU tests
# the change touches, attention A/B against main's libtile.so (pack-old),
# two rounds alternating.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tz-*
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack-old/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx $OUT/sass
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
for f in tmp-sass/*.cubin; do
  n=$(basename $f .cubin)
  cuobjdump -sass $f > $OUT/sass/$n.sass 2>&1 || nvdisasm $f > $OUT/sass/$n.sass 2>&1
done
( timeout 150 TileGPUTests --gtest_filter='SharedStageTest.*:MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops:MatmulTest.WgmmaComputedA:MatmulTest.WgmmaLoneDot:MatmulTest.BatchedDot'
  TILE_GPU_TEST_SMALL=1 timeout 100 TileGPUTests --gtest_filter='GPUTest.*:Int8DotTest.*' ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|SKIPPED" > $OUT/gtest.txt; grep -v "^\[       OK" $OUT/gtest.txt
D=bench/results/v49-session28
CONFIGS="128,64,4,2;64,64,4,3;128,128,8,2;128,64,8,2"
for round in 1 2; do
  for variant in base new; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tz-$variant timeout 150 python3 bench/results/v48-session27/attn_ab.py $variant "$CONFIGS" >> $OUT/zero.jsonl 2>> $OUT/zero.err
    echo "round $round $variant rc=$?"
  done
done
python3 $D/summarize_ab.py $OUT/zero.jsonl base new
