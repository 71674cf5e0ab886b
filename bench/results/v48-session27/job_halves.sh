#!/usr/bin/env bash
# Deferred dot waits (tile-defer-dot-waits) and attention with its query rows
# in two halves (attention_halves.tile): the attention GPU tests on the new
# tools, then each configuration alone, base (main's libtile.so, the example)
# / new (the example) / halves (attention_halves.tile), two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/ta-*
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack-old/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
( timeout 100 TileGPUTests --gtest_filter=MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops
  TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.WgmmaPipelineSmall:MatmulTest.OperandOrders:MatmulTest.LinearEpilogue:MatmulTest.BatchedDot ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which" > $OUT/gtest.txt; cat $OUT/gtest.txt
D=bench/results/v48-session27
LIST="128,64,4,2;128,64,4,3;128,64,8,2;128,64,8,3;128,128,8,2;128,128,8,3;64,64,4,3"
HALVES="128,64,4,2;128,64,4,3;128,32,4,3;256,64,8,2;256,32,8,3"
for round in 1 2; do
  for variant in base new halves; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    src=examples/attention.tile; cfg=$LIST
    [[ $variant == halves ]] && { src=$D/attention_halves.tile; cfg=$HALVES; }
    TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/ta-$variant ATTENTION_SOURCE=$src \
      timeout 200 python3 $D/attn_ab.py $variant "$cfg" >> $OUT/attn_ab.jsonl 2>> $OUT/ab.err
    echo "round $round $variant rc=$?"
  done
done
tail -3 $OUT/ab.err
python3 $D/summarize.py $OUT/attn_ab.jsonl
