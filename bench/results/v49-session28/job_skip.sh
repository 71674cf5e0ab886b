#!/usr/bin/env bash
# The accumulator's rescale skipped in a warp whose factors are all 1, with
# the example's running maximum moved only when it grows by more than 8:
# base (main's libtile.so and example), lib (new libtile.so, main's example),
# new (both new); two rounds, alternating; then the tests it touches.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/ts-*
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack-old/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
D=bench/results/v49-session28
C="128,64,4,2;128,64,4,3;64,64,4,3;128,128,8,2;128,128,8,3;128,64,8,2"
for round in 1 2; do
  ATTENTION_SOURCE=$D/attention_before.tile TILE_LIBRARY=/tmp/tile-base/libtile.so TILE_CACHE_DIR=/tmp/ts-base timeout 200 python3 bench/results/v48-session27/attn_ab.py base "$C" >> $OUT/skip.jsonl 2>> $OUT/skip.err; echo "base rc=$?"
  ATTENTION_SOURCE=$D/attention_before.tile TILE_LIBRARY=/tmp/tile-bin/libtile.so TILE_CACHE_DIR=/tmp/ts-lib timeout 200 python3 bench/results/v48-session27/attn_ab.py lib "$C" >> $OUT/skip.jsonl 2>> $OUT/skip.err; echo "lib rc=$?"
  TILE_LIBRARY=/tmp/tile-bin/libtile.so TILE_CACHE_DIR=/tmp/ts-new timeout 200 python3 bench/results/v48-session27/attn_ab.py new "$C" >> $OUT/skip.jsonl 2>> $OUT/skip.err; echo "new rc=$?"
done
python3 $D/summarize_ab.py $OUT/skip.jsonl base lib new
( timeout 120 TileGPUTests --gtest_filter='MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops:SharedStageTest.*' ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which" > $OUT/gtest.txt; tail -3 $OUT/gtest.txt
