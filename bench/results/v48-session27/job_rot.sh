#!/usr/bin/env bash
# The next key block's S issued before this block's softmax
# (attention_rotated.tile; tile-defer-dot-waits leaves its MMAs running
# through the softmax) against the example, each configuration alone, two
# rounds, c4fc25f's tools; then the GPU suites the final job's time limit
# cut (GPUTest, Int8Dot, LayerNorm).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/ta-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
D=bench/results/v48-session27
LIST="128,64,4,2;128,64,4,3;128,64,8,2;128,64,8,3;128,128,8,2;64,64,4,3"
for round in 1 2; do
  for variant in new rotated; do
    src=examples/attention.tile; [[ $variant == rotated ]] && src=$D/attention_rotated.tile
    TILE_CACHE_DIR=/tmp/ta-$variant ATTENTION_SOURCE=$src \
      timeout 150 python3 $D/attn_ab.py $variant "$LIST" >> $OUT/attn_rot.jsonl 2>> $OUT/ab.err
    echo "round $round $variant rc=$?"
  done
done
tail -3 $OUT/ab.err
python3 $D/summarize.py $OUT/attn_rot.jsonl
( TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='GPUTest.*:Int8DotTest.*:LayerNormTest.*' ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|SKIPPED" > $OUT/gtest.txt; grep -v "^\[       OK" $OUT/gtest.txt; grep -c "^\[       OK" $OUT/gtest.txt
